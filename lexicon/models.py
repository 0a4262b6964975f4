"""The Lexicon record: one built version of a named word list, and its compiled graph file.

A tournament refers to one row (one version), so a later build never changes
past verdicts: files are named by their content hash and never overwritten.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import NotRequired, TypedDict

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.rules import RULESET_NAMES, ruleset_ids

from .graph import GraphError, WordGraph
from .skips import SkipReportDict


class LexiconError(Exception):
    """A lexicon cannot be built, found or used; the message says why, for humans."""


class BuildOptions(TypedDict, total=False):
    """How a lexicon is built (``Lexicon.options``): what a queued build reads to run."""

    kind: str  # "package", "debian" or "file"
    source: str  # the package or Debian source
    yo_as_e: bool
    hunspell: list[str]  # .dic files naming proper nouns (uk)
    skip_capitalised: bool
    file_sha256: str
    original_name: str  # of an uploaded file


class BuildFigures(TypedDict):
    read_s: float
    graph_s: float
    build_s: float
    peak_rss_mb: float
    peak_rss_exact: bool  # the peak of the build alone (else of the whole process)
    file_mb: float
    node_count: int
    reused_file: bool  # an earlier build had the same content


class InputFile(TypedDict):
    file: str
    bytes: int
    sha256: str


class BuildReport(TypedDict):
    """What a build records (``Lexicon.report``): the words accepted, those left out and why, figures."""

    accepted: int
    skipped: SkipReportDict
    figures: BuildFigures
    input: NotRequired[InputFile]  # a word-list file


#: Loaded graphs of this process, by content hash (memory-mapped, shared by the OS).
_GRAPHS: dict[str, WordGraph] = {}
_GRAPHS_LOCK = threading.Lock()
#: (path, mtime, size, inode) → content hash, so that loading a path again costs a stat.
_PATHS: dict[tuple[str, int, int, int], str] = {}


def lexicon_dir() -> Path:
    return Path(settings.LEXICON_DIR)


#: Beside a compiled file, the stamp of its last full check: its size, modification time and inode when its
#: SHA-256 and word count were verified, and its content hash. A process loading a file whose stamp matches
#: checks its structure only (no hash of the whole file: the first solve follows at once); a file changed since,
#: or without a stamp, is verified in full and stamped again.
STAMP_SUFFIX = ".verified"


def _stamp_path(path: Path) -> Path:
    return path.with_name(path.name + STAMP_SUFFIX)


def _stat_key(st: os.stat_result) -> dict[str, int]:
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "ino": st.st_ino}


def vouched_hash(path: Path, st: os.stat_result) -> str | None:
    """The content hash the file's stamp vouches for, when the stamp matches the file as it is now."""
    try:
        data = json.loads(_stamp_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or {k: data.get(k) for k in ("size", "mtime_ns", "ino")} != _stat_key(st):
        return None
    found = data.get("hash")
    return found if isinstance(found, str) else None


def stamp_verified(path: Path, st: os.stat_result, content_hash: str) -> None:
    """Records that the file, as ``st`` describes it, was verified in full (best effort: a read-only folder
    only means the next process verifies again)."""
    stamp = _stamp_path(path)
    tmp = stamp.with_name(f".{stamp.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps({**_stat_key(st), "hash": content_hash}), encoding="utf-8")
        os.replace(tmp, stamp)
    except OSError:
        tmp.unlink(missing_ok=True)


def load_graph_file(path: Path, expected_hash: str | None = None, label: str = "") -> WordGraph:
    """Loads (and caches by hash) a compiled graph: verified in full (SHA-256, word count) at its first load
    after it was written or changed, its structure checked only when its stamp vouches for it."""
    if expected_hash and expected_hash in _GRAPHS:
        return _GRAPHS[expected_hash]
    what = label or str(path)
    try:
        st = os.stat(path)
    except OSError:
        raise LexiconError(f"{what}: the compiled file {path} is missing") from None
    file_key = (str(path), st.st_mtime_ns, st.st_size, st.st_ino)
    known = _PATHS.get(file_key)
    if known and known in _GRAPHS and (not expected_hash or known == expected_hash):
        return _GRAPHS[known]
    with _GRAPHS_LOCK:
        if expected_hash and expected_hash in _GRAPHS:
            return _GRAPHS[expected_hash]
        vouched = vouched_hash(path, st)
        verify = vouched is None or bool(expected_hash and vouched != expected_hash)
        try:
            graph = WordGraph.load(path, verify=verify)
        except GraphError as exc:
            raise LexiconError(f"{what}: the compiled file is unusable: {exc}") from None
        if not verify and graph.content_hash != vouched:  # the header changed in place: check it all
            graph.close()
            verify = True
            try:
                graph = WordGraph.load(path, verify=True)
            except GraphError as exc:
                raise LexiconError(f"{what}: the compiled file is unusable: {exc}") from None
        if expected_hash and graph.content_hash != expected_hash:
            found = graph.content_hash
            graph.close()
            raise LexiconError(
                f"{what}: the compiled file {path} holds content {found[:12]}…, "
                f"the record says {expected_hash[:12]}… (file replaced?)"
            )
        if verify:
            stamp_verified(path, st, graph.content_hash)
        cached = _GRAPHS.setdefault(graph.content_hash, graph)
        if cached is not graph:
            graph.close()
        _PATHS[file_key] = cached.content_hash
        return cached


def forget_graphs() -> None:
    """Drops this process's loaded graphs (tests; after deleting files)."""
    with _GRAPHS_LOCK:
        _GRAPHS.clear()
        _PATHS.clear()


class Lexicon(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        BUILDING = "building", _("building")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    name = models.CharField(_("name"), max_length=64, help_text=_("e.g. ru, ru-nouns, en-bench"))
    ruleset = models.CharField(
        _("rule set"), max_length=16, choices=[(r, f"{r} — {RULESET_NAMES[r]}") for r in ruleset_ids()]
    )
    source = models.TextField(_("source"), blank=True, help_text=_("package and version, or file name"))
    version = models.PositiveIntegerField(
        _("version"), null=True, blank=True, help_text=_("1, 2, … per name; given when the build succeeds")
    )
    word_count = models.PositiveIntegerField(_("words"), default=0)
    node_count = models.PositiveIntegerField(_("graph edges"), default=0)
    content_hash = models.CharField(_("content hash"), max_length=64, blank=True, db_index=True)
    file_path = models.CharField(_("file"), max_length=255, blank=True, help_text=_("relative to LEXICON_DIR"))
    file_size = models.BigIntegerField(_("file size"), default=0)
    input_path = models.CharField(
        _("input file"), max_length=500, blank=True, help_text=_("uploaded or installed list the build reads")
    )
    options = models.JSONField(_("options"), default=dict, blank=True)
    build_seconds = models.FloatField(_("build seconds"), null=True, blank=True)
    built_at = models.DateTimeField(_("built at"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(_("progress"), default=0)
    report = models.JSONField(_("report"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("lexicon")
        verbose_name_plural = _("lexicons")
        ordering = ["name", "-version", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="lexicon_unique_name_version")]
        indexes = [models.Index(fields=["name", "status"])]

    def __str__(self) -> str:
        version = f"v{self.version}" if self.version else self.get_status_display()
        return f"{self.name} {version}"

    @property
    def label(self) -> str:
        return f"{self.name} v{self.version}" if self.version else f"{self.name} (#{self.pk})"

    @classmethod
    def latest(cls, name: str) -> Lexicon:
        """The newest ready version of ``name``; LexiconError if there is none."""
        row = cls.objects.filter(name=name, status=cls.Status.READY).order_by("-version").first()
        if row is None:
            known = sorted(set(cls.objects.filter(status=cls.Status.READY).values_list("name", flat=True)))
            hint = f" (ready lexicons: {', '.join(known)})" if known else " (no lexicon is ready yet)"
            raise LexiconError(f"no ready lexicon named {name!r}{hint}")
        return row

    @property
    def is_ready(self) -> bool:
        return self.status == self.Status.READY

    @property
    def absolute_path(self) -> Path:
        return lexicon_dir() / self.file_path

    @property
    def hash_prefix(self) -> str:
        return self.content_hash[:12]

    def graph(self) -> WordGraph:
        """The compiled word graph (loaded once per process, memory-mapped, verified at first load)."""
        if not self.is_ready or not self.file_path:
            raise LexiconError(gettext("the lexicon %(lexicon)s is not ready (%(status)s)")
                               % {"lexicon": self.label, "status": self.get_status_display()})
        return load_graph_file(self.absolute_path, self.content_hash, f"lexicon {self.label}")
