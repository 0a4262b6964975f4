"""manage.py lexicon build|import|list|check|export|upgrade|bench — lexicons from the command line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from lexicon import services, sources
from lexicon.files import upgrade_files
from lexicon.graph import VERSION
from lexicon.models import Lexicon, LexiconError
from scoring.rules import ruleset_ids

BAD_INPUT = 2


def _fail(message: str) -> CommandError:
    return CommandError(message.replace("\n", " "), returncode=BAD_INPUT)


class Command(BaseCommand):
    help = "Build, import, list, check, export and benchmark lexicons (compiled word graphs)."
    # the system checks (URLs, admin, templates: 0.7 s) are not what a lexicon needs; ./hall and
    # manage.py check run them
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")

        debian = [d.key for d in sources.debian_wordlists(installed_only=False)]
        p = sub.add_parser(
            "build",
            help="build from an installed package (ru, ru-nouns, uk) or Debian word list (pl, fr, en-us, en-gb)",
        )
        p.add_argument("source", choices=[*sources.PACKAGE_SOURCES, *debian], metavar="SOURCE",
                       help="ru | ru-nouns | uk | " + " | ".join(debian))
        p.add_argument("--name", help="lexicon name (default: the source; ru-yo with --yo-as-e)")
        p.add_argument("--yo-as-e", action="store_true", help="ru: also accept words with ё written е")
        p.add_argument("--hunspell", nargs="+", metavar="DIC",
                       help="uk: hunspell .dic files whose capitalised-only stems are proper nouns "
                            "(default: /usr/share/hunspell/uk_UA.dic when installed)")
        p.add_argument("--keep-capitalised", action="store_true",
                       help="Debian lists: keep words written with a capital letter")

        p = sub.add_parser("import", help="build from a word-list file (UTF-8, one word per line)")
        p.add_argument("--ruleset", required=True, choices=ruleset_ids(), metavar="RS",
                       help=" | ".join(ruleset_ids()))
        p.add_argument("--name", required=True)
        p.add_argument("file", metavar="FILE")
        p.add_argument("--keep-capitalised", action="store_true",
                       help="keep words written with a capital letter (by default they are left out of "
                            "lower-case lists: proper nouns, abbreviations; all-capitals lists are unaffected)")

        p = sub.add_parser("list", help="lexicons and installed sources")
        p.add_argument("--all", action="store_true", help="also pending and failed builds")

        p = sub.add_parser("check", help="WORD valid|invalid, one line per word")
        p.add_argument("name", metavar="NAME", help="lexicon name (latest ready version) or NAME:vN")
        p.add_argument("words", nargs="+", metavar="WORD")

        p = sub.add_parser("export", help="write the words, sorted by code point, one per line")
        p.add_argument("name", metavar="NAME")
        p.add_argument("file", metavar="FILE", help="output file, or - for standard output")

        sub.add_parser(
            "upgrade",
            help="rewrite compiled files of an older format in the current one (same words and content hash; "
                 "adds the solver's anagram section)",
        )

        p = sub.add_parser("bench", help="build figures (recorded) and load/lookup figures (measured now)")
        p.add_argument("name", metavar="NAME")
        p.add_argument("--lookups", type=int, default=200_000)

    def handle(self, *args: Any, **options: Any) -> None:
        actions: dict[str, Callable[[dict[str, Any]], None]] = {
            "build": self.do_build,
            "import": self.do_import,
            "list": self.do_list,
            "check": self.do_check,
            "export": self.do_export,
            "bench": self.do_bench,
            "upgrade": self.do_upgrade,
        }
        self.verbosity = options.get("verbosity", 1)
        try:
            actions[options["action"]](options)
        except LexiconError as exc:
            raise _fail(str(exc)) from None

    # -- helpers ---------------------------------------------------------------

    def _progress(self) -> services.ProgressCallback | None:
        if self.verbosity < 1:
            return None
        stream = sys.stderr
        tty = stream.isatty()
        state = {"last": -10}

        def callback(percent: int, stage: str) -> None:
            if tty:
                stream.write(f"\r{stage:<10} {percent:3d}%")
                if percent >= 100:
                    stream.write("\n")
                stream.flush()
            elif percent >= state["last"] + 10 or percent >= 100 and state["last"] < 100:
                state["last"] = percent
                stream.write(f"{stage} {percent}%\n")

        return callback

    def _report(self, row: Lexicon) -> None:
        figures = row.report.get("figures", {})
        skipped = row.report.get("skipped", {})
        self.stdout.write(
            f"{row.label} [{row.ruleset}]: {row.word_count:,} words, {row.file_size / 1e6:.2f} MB, "
            f"hash {row.hash_prefix}, built in {row.build_seconds:.1f} s, peak RSS {figures.get('peak_rss_mb')} MB"
        )
        self.stdout.write(f"source: {row.source}")
        self.stdout.write(f"file: {row.absolute_path}" + (" (same content as an earlier build)" if figures.get("reused_file") else ""))
        self.stdout.write(f"skipped: {skipped.get('count', 0):,}")
        for reason, info in skipped.get("by_reason", {}).items():
            examples = ", ".join(info.get("examples", []))
            self.stdout.write(f"  {reason}: {info['count']:,} — {info.get('label', '')}; e.g. {examples}")
        letters = skipped.get("foreign_letters") or {}
        if letters:
            shown = ", ".join(f"{k} ×{v:,}" for k, v in list(letters.items())[:20])
            self.stdout.write(f"  foreign letters: {shown}")
        for note in skipped.get("notes", []):
            self.stdout.write(f"  note: {note}")

    # -- actions ---------------------------------------------------------------

    def do_build(self, o: dict[str, Any]) -> None:
        source = o["source"]
        if source in sources.PACKAGE_SOURCES:
            if o["keep_capitalised"]:
                raise _fail("--keep-capitalised applies to Debian word lists, not to package sources")
            row = services.build_lexicon(
                o["name"], None, source, yo_as_e=o["yo_as_e"], hunspell_paths=o["hunspell"],
                progress_callback=self._progress(),
            )
        else:
            if o["yo_as_e"] or o["hunspell"]:
                raise _fail("--yo-as-e and --hunspell apply to the ru and uk package sources only")
            row = services.import_debian_list(
                source, name=o["name"], skip_capitalised=not o["keep_capitalised"],
                progress_callback=self._progress(),
            )
        self._report(row)

    def do_import(self, o: dict[str, Any]) -> None:
        row = services.import_wordlist(
            o["name"], o["ruleset"], o["file"], skip_capitalised=not o["keep_capitalised"],
            progress_callback=self._progress(),
        )
        self._report(row)

    def do_list(self, o: dict[str, Any]) -> None:
        rows = Lexicon.objects.all().order_by("name", "-version", "-created_at")
        if not o["all"]:
            rows = rows.filter(status=Lexicon.Status.READY)
        header = f"{'NAME':<16} {'RULES':<11} {'VER':>4} {'WORDS':>10} {'HASH':<12} {'STATUS':<8} {'BUILT AT':<16} SOURCE"
        self.stdout.write(header)
        for row in rows:
            built = row.built_at.strftime("%Y-%m-%d %H:%M") if row.built_at else "-"
            version = str(row.version) if row.version else "-"
            self.stdout.write(
                f"{row.name:<16} {row.ruleset:<11} {version:>4} {row.word_count:>10,} {row.hash_prefix or '-':<12} "
                f"{row.status:<8} {built:<16} {row.source}"
            )
        if not rows.exists():
            self.stdout.write("(no lexicons yet: manage.py lexicon build ru)")
        self.stdout.write("")
        self.stdout.write("installed sources (manage.py lexicon build SOURCE):")
        for key, (rs, text) in sources.PACKAGE_SOURCES.items():
            self.stdout.write(f"  {key:<9} [{rs}] {sources.describe_package_source(key)} — {text}")
        for entry in sources.debian_wordlists(installed_only=False):
            state = entry.describe() if entry.installed else f"not installed (apt-get install {entry.package})"
            self.stdout.write(f"  {entry.key:<9} [{entry.ruleset}] {state}")

    def do_check(self, o: dict[str, Any]) -> None:
        row = services.get_lexicon(o["name"])
        for word, ok in services.check_words(row, o["words"]):
            self.stdout.write(f"{word} {'valid' if ok else 'invalid'}")

    def do_export(self, o: dict[str, Any]) -> None:
        row = services.get_lexicon(o["name"])
        if o["file"] == "-":
            count = services.export(row, stream=self.stdout)
        else:
            count = services.export(row, o["file"])
            self.stderr.write(f"{count:,} words of {row.label} written to {o['file']}")

    def do_upgrade(self, o: dict[str, Any]) -> None:
        results = upgrade_files()
        for path, what in results:
            if what != "current" or self.verbosity >= 2:
                self.stdout.write(f"{path}: {what}")
        upgraded = sum(1 for _, what in results if what == "upgraded")
        if upgraded == 0 and all(what == "current" for _, what in results):
            self.stdout.write(f"compiled lexicons: all {len(results)} in format {VERSION}")
        else:
            self.stdout.write(f"{upgraded} of {len(results)} compiled files upgraded to format {VERSION}")

    def do_bench(self, o: dict[str, Any]) -> None:
        if o["lookups"] < 2:
            raise _fail("--lookups must be at least 2")
        row = services.get_lexicon(o["name"])
        figures = services.bench(row, lookups=o["lookups"])
        width = max(map(len, figures))
        for key, value in figures.items():
            shown = value
            if isinstance(value, float):
                shown = f"{value:,.4g}" if value < 1000 else f"{value:,.0f}"
            elif isinstance(value, int):
                shown = f"{value:,}"
            self.stdout.write(f"{key:<{width}}  {shown}")
