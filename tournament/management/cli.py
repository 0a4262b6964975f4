"""What the engine commands (``solve``, ``judge``, ``bench_solver``, ``simulate``) share: one-line argument errors,
argument types, the solver over a lexicon given on the command line, and the script and language of what they
print."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

from django.conf import settings
from django.core.management.base import CommandError, CommandParser

from lexicon.resolve import LexiconNotFound, open_lexicon
from scoring.rules import RuleSet
from scoring.solver import Solver, SolverError, solver_for

from .. import labels


def one_line_errors(
    parser: CommandParser,
    report: Callable[[str], object],
    otherwise: Callable[[str], NoReturn] | None = None,
) -> CommandParser:
    """Argument errors on the command line: ``report(message)`` (one line, not argparse's whole usage) and
    exit status 2. Called from code (``call_command``): ``otherwise(message)``, by default Django's
    ``CommandError``."""
    original = parser.error

    def error(message: str) -> None:  # never returns: exits, or raises (CommandParser.error does too)
        if parser.called_from_command_line:
            report(message)
            sys.exit(2)
        if otherwise is not None:
            otherwise(message)
        original(message)

    parser.error = error  # type: ignore[method-assign]  # this one parser's errors, not the class's
    return parser


def positive_int(text: str) -> int:
    """An argument type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def open_solver(ruleset: RuleSet, lexicon: str) -> Solver:
    """The cached solver for the rule set over the lexicon (name, .kwg or word-list file); exit 2 if unusable."""
    try:
        graph = open_lexicon(lexicon, ruleset.id)
    except LexiconNotFound as exc:
        raise CommandError(str(exc), returncode=2) from None
    try:
        return solver_for(ruleset, graph)
    except SolverError as exc:
        raise CommandError(str(exc), returncode=2) from None


#: The language a command speaks for a rule set when ``--language`` is not given: Russian for ru, Ukrainian for uk,
#: English for the others.
RULESET_LANGUAGES = {"ru": "ru", "uk": "uk"}


def add_script_argument(parser: CommandParser) -> None:
    """``--script latin|cyrillic`` (the row letters of the coordinates printed; both are read on input) and
    ``--language`` (of the texts printed); by default the rule set's, as a new tournament of it starts."""
    parser.add_argument("--script", choices=[labels.LATIN, labels.CYRILLIC], default=None,
                        help="row letters of the coordinates printed: latin (A–O) or cyrillic (А–П); default: the "
                             "rule set's (cyrillic for ru and uk read in Russian or Ukrainian; --json: latin, as "
                             "the engine writes moves)")
    parser.add_argument("--language", choices=[code for code, _name in settings.LANGUAGES], default=None,
                        help="language of the texts printed; default: the rule set's (ru, uk), English otherwise")


def command_language(opts: dict[str, object]) -> str:
    """The language of what a command prints: ``--language``, else the rule set's (:data:`RULESET_LANGUAGES`)."""
    return str(opts.get("language") or RULESET_LANGUAGES.get(str(opts.get("ruleset") or ""), "en"))


def script_style(opts: dict[str, object], *, data: bool = False) -> labels.CoordStyle:
    """The coordinate style of what a command prints (``--script``, ``--convention`` when the command has it):
    by default the script a new tournament of the rule set starts with in the command's language
    (:func:`tournament.labels.default_script`: ru and uk → Cyrillic); ``data`` (``--json``): Latin, the engine's."""
    script = opts.get("script") or (labels.LATIN if data else labels.default_script(
        str(opts.get("ruleset") or ""), command_language(opts)))
    return labels.script_style(str(opts.get("convention") or "duplicate"), str(script))


__all__ = ["RULESET_LANGUAGES", "add_script_argument", "command_language", "one_line_errors", "open_solver",
           "positive_int", "script_style"]
