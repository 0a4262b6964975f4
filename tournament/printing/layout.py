"""The printed-document frame: embedded fonts, styles, header, footer with "page x of y".

A document subclasses :class:`Document` and returns its flowables from :meth:`Document.story`;
:meth:`Document.build` lays them out with reportlab's platypus. Every page gets the header
(tournament, document title) and the footer (time of printing, "page x of y"). The page total
is known only at the end, so the canvas keeps each finished page and draws the footers when
the document is saved (:class:`CountingCanvas`).

Text is set in DejaVu Sans, embedded as a TrueType subset: Cyrillic (ru, uk with Ґ Є І Ї and
the apostrophe), Polish and French letters print as they are. The font is looked for in
``DUPLICATE_PDF_FONT_DIR``, ``settings.PDF_FONT_DIR``, the usual system font folders and
``fc-match``; when it cannot be found :class:`FontError` says what to install.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import zlib
import zoneinfo
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

from django.conf import settings
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Spacer

from .. import labels
from ..models.names import clean_name

#: Progress callback: (fraction done 0..1, short message).
Progress = Callable[[float, str], None]

#: role → (file name, fontconfig pattern, reportlab font name)
FONT_FILES = {
    "regular": ("DejaVuSans.ttf", "DejaVu Sans", "DejaVuSans"),
    "bold": ("DejaVuSans-Bold.ttf", "DejaVu Sans:style=Bold", "DejaVuSans-Bold"),
    "mono": ("DejaVuSansMono.ttf", "DejaVu Sans Mono", "DejaVuSansMono"),
    "mono_bold": ("DejaVuSansMono-Bold.ttf", "DejaVu Sans Mono:style=Bold", "DejaVuSansMono-Bold"),
}
SYSTEM_FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/share/fonts/truetype",
    "/usr/local/share/fonts",
    "/opt/homebrew/share/fonts",
    "/Library/Fonts",
    "~/Library/Fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "C:/Windows/Fonts",
)

INK = colors.HexColor("#1b1f24")
MUTED = colors.HexColor("#5f6b7a")
LINE = colors.HexColor("#c9d0d8")
ZEBRA = colors.HexColor("#f3f5f8")
HEAD_BG = colors.HexColor("#e4e9f0")
FLAG_BG = colors.HexColor("#fff1d6")
ACCENT = colors.HexColor("#1f5fa8")


def tr(message: str) -> str:
    """gettext (the documents' texts are in the catalogue like every other text)."""
    return gettext(message)


_ = tr  # so that makemessages finds the texts


class FontError(RuntimeError):
    """The TrueType font the documents need is not installed (the message says what to do)."""


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    mono: str
    mono_bold: str
    files: dict


def font_dirs() -> list[Path]:
    """The folders searched for DejaVu Sans, in order."""
    dirs = []
    for value in (os.environ.get("DUPLICATE_PDF_FONT_DIR"), getattr(settings, "PDF_FONT_DIR", None)):
        if value:
            dirs.append(Path(value).expanduser())
    dirs += [Path(d).expanduser() for d in SYSTEM_FONT_DIRS]
    return dirs


def _fc_match(pattern: str) -> Path | None:
    """``fc-match`` (fontconfig) answers with the file of a family, when installed."""
    exe = shutil.which("fc-match")
    if not exe:
        return None
    try:
        out = subprocess.run([exe, "-f", "%{file}", pattern], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    path = Path(out.strip()) if out.strip() else None
    return path if path and path.is_file() else None


def find_font(role: str) -> Path | None:
    """The file of a font role: in :func:`font_dirs` (or one folder level down), else via fontconfig."""
    filename, pattern, _name = FONT_FILES[role]
    for folder in font_dirs():
        candidate = folder / filename
        if candidate.is_file():
            return candidate
        try:
            subs = [sub for sub in folder.iterdir() if sub.is_dir()] if folder.is_dir() else []
        except OSError:
            continue
        for sub in subs:
            if (sub / filename).is_file():
                return sub / filename
    found = _fc_match(pattern)
    return found if found is not None and found.name == filename else None


def _register(role: str, path: Path) -> str:
    name = FONT_FILES[role][2]
    if name not in pdfmetrics.getRegisteredFontNames():
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as exc:  # a damaged or unreadable file
            raise FontError(f"the font file {path} cannot be read: {exc}") from None
    return name


@functools.cache
def register_fonts() -> Fonts:
    """Registers DejaVu Sans (and its bold and mono faces when found) with reportlab, once per process.

    Only DejaVuSans.ttf is required: a missing bold or mono face falls back to the regular one.
    """
    regular = find_font("regular")
    if regular is None:
        searched = ", ".join(str(d) for d in font_dirs())
        raise FontError(
            "the PDF documents need the TrueType font DejaVu Sans (DejaVuSans.ttf) and it was not found "
            f"(searched: {searched}, and fontconfig). Install it (Debian/Ubuntu: apt-get install "
            "fonts-dejavu-core) or set DUPLICATE_PDF_FONT_DIR to the folder that holds DejaVuSans.ttf."
        )
    files: dict[str, Path | None] = {"regular": regular}
    names = {"regular": _register("regular", regular)}
    for role in ("bold", "mono", "mono_bold"):
        path = find_font(role)
        files[role] = path
        names[role] = _register(role, path) if path is not None else ""
    names["bold"] = names["bold"] or names["regular"]
    if not names["mono"]:
        names["mono"], names["mono_bold"] = names["regular"], names["bold"]
    names["mono_bold"] = names["mono_bold"] or names["mono"]
    pdfmetrics.registerFontFamily(names["regular"], normal=names["regular"], bold=names["bold"],
                                  italic=names["regular"], boldItalic=names["bold"])
    if names["mono"] != names["regular"]:
        pdfmetrics.registerFontFamily(names["mono"], normal=names["mono"], bold=names["mono_bold"],
                                      italic=names["mono"], boldItalic=names["mono_bold"])
    return Fonts(names["regular"], names["bold"], names["mono"], names["mono_bold"], files)


def text_width(text: str, font: str, size: float) -> float:
    return pdfmetrics.stringWidth(text, font, size)


def fit_text(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so that it fits ``width`` points."""
    text = text or ""
    if width <= 0 or pdfmetrics.stringWidth(text, font, size) <= width:
        return text
    ell = "…"
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if pdfmetrics.stringWidth(text[:mid].rstrip() + ell, font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ell


def fit_lines(text: str, font: str, width: float, height: float, *, largest: float = 9,
              smallest: float = 5.5, leading: float = 1.12, one_line_down_to: float | None = None) -> tuple[float, list[str]]:
    """``text`` in as few lines, as large as fits ``width`` × ``height`` points, nothing cut: one line from
    ``largest`` down to ``smallest`` points (down to ``one_line_down_to`` when given: a name read at arm's length
    goes on two larger lines rather than one small one), then two, three… lines (words broken only when one is
    wider than the line). Returns (size, lines); the last resort is ``smallest`` points in as many lines as needed."""
    text = " ".join((text or "").split())
    lines_max = max(1, int(height // (smallest * leading)))
    for count in range(1, lines_max + 1):
        floor = max(smallest, one_line_down_to or smallest) if count == 1 and lines_max > 1 else smallest
        size = largest
        while size >= floor - 1e-6:
            lines = wrap_text(text, font, size, width)
            if len(lines) <= count and len(lines) * size * leading <= height + 0.01:
                return size, lines
            size -= 0.5
    return smallest, wrap_text(text, font, smallest, width)


def wrap_text(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` points, at spaces (inside a word when it must)."""
    lines: list[str] = []
    for word in text.split():
        trial = f"{lines[-1]} {word}" if lines else word
        if lines and pdfmetrics.stringWidth(trial, font, size) <= width:
            lines[-1] = trial
            continue
        while pdfmetrics.stringWidth(word, font, size) > width and len(word) > 1:
            cut = 1
            while cut < len(word) and pdfmetrics.stringWidth(word[:cut + 1], font, size) <= width:
                cut += 1
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines or [""]


#: The one format of a moment printed on the papers: the pages' (Django's localized, in the document's language).
DATETIME_FORMAT = labels.DATETIME_FORMAT


def local_datetime(tournament: Any, dt: datetime) -> str:
    """A moment as the papers print it: in the tournament's time zone (``tournament.time_zone`` when it has
    one, else ``settings.TIME_ZONE``), in :data:`DATETIME_FORMAT` of the active language."""
    name = getattr(tournament, "time_zone", None) or settings.TIME_ZONE
    try:
        zone: Any = zoneinfo.ZoneInfo(str(name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_default_timezone()
    if timezone.is_naive(dt):
        dt = timezone.make_aware(dt, timezone.get_default_timezone())
    return date_format(dt.astimezone(zone), DATETIME_FORMAT)


#: A number with a typographic minus, as every page writes it (:func:`tournament.labels.minus`).
minus = labels.minus


def escape(text: object) -> str:
    """Text for a reportlab Paragraph (its mini-markup)."""
    return clean_name(str(text if text is not None else "")).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class CountingCanvas(Canvas):
    """A canvas that holds every page until the end, then stamps "page x of y" on each.

    ``footer(canvas, page, total)`` is called for every page before it is written. A held page keeps its
    drawing compressed (a few KB: the player sheets of a hall are thousands of pages).
    """

    def __init__(self, *args: Any, footer: Callable[[Canvas, int, int], None] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._held_pages: list[dict[str, Any]] = []
        self._footer = footer

    def showPage(self) -> None:  # noqa: N802 (reportlab's name)
        state = dict(self.__dict__)
        state["_code"] = zlib.compress("\n".join(self._code).encode("utf-8"), 1)
        self._held_pages.append(state)
        self._startPage()

    def save(self) -> None:
        total = len(self._held_pages)
        held, self._held_pages = self._held_pages, []
        for state in held:
            self.__dict__.update(state)
            self._code = [zlib.decompress(state["_code"]).decode("utf-8")]
            if self._footer is not None:
                self._footer(self, self._pageNumber, total)
            Canvas.showPage(self)
        Canvas.save(self)


class LazyStory(list):
    """A story made as it is laid out: reportlab takes the flowables from the front of its list; this list is
    refilled from ``parts`` (each a list of flowables, e.g. one player's sheet) whenever fewer than ``ahead``
    are left, so that only the flowables near the page being laid out exist."""

    def __init__(self, parts: Iterable[list[Flowable]], ahead: int = 64):
        super().__init__()
        self._parts: Iterator[list[Flowable]] | None = iter(parts)
        self._ahead = ahead
        self._fill()

    def _fill(self) -> None:
        while self._parts is not None and list.__len__(self) < self._ahead:
            try:
                self.extend(next(self._parts))
            except StopIteration:
                self._parts = None

    def __len__(self) -> int:
        self._fill()
        return list.__len__(self)


class CellParagraph(Paragraph):
    """A paragraph in a table cell: laid out once for a width (a table measures its cells several times), so
    that one instance may also be drawn in many cells of the same width (a round's top on every sheet)."""

    _wrapped: tuple[float, float, float] | None = None

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's)
        if self._wrapped is not None and self._wrapped[0] == availWidth:
            return self._wrapped[1], self._wrapped[2]
        width, height = super().wrap(availWidth, availHeight)
        self._wrapped = (availWidth, width, height)
        return width, height


class _Template(BaseDocTemplate):
    def __init__(self, target: str | BinaryIO, document: Document, **kwargs: Any):
        super().__init__(target, **kwargs)
        self.document = document

    def afterFlowable(self, flowable: Flowable) -> None:  # noqa: N802 (reportlab's name)
        self.document.after_flowable(flowable)


class Document:
    """A printed document. Subclasses set :attr:`title` and return the story; hooks may be overridden.

    ``heading``: the tournament's name (header of every page); ``subtitle``: a second header line
    (dates, venue). ``generated_at``: the time printed in the footer (now by default).
    """

    title = ""
    pagesize = A4
    landscape = False
    margin_left = 15 * mm
    margin_right = 15 * mm
    margin_top = 20 * mm
    margin_bottom = 16 * mm
    author = "Duplicate tournament"

    def __init__(self, *, heading: str = "", subtitle: str = "", generated_at: datetime | None = None,
                 zone_of: Any = None):
        self.fonts = register_fonts()
        #: what :func:`local_datetime` takes the time zone of (the tournament)
        self.zone_of = zone_of
        self.heading = heading
        self.subtitle = subtitle
        self.generated_at = generated_at or timezone.localtime()
        self.styles = self.make_styles()
        self.page_count = 0
        self._progress: Progress | None = None
        self._done = 0.0

    # -- hooks -------------------------------------------------------------------------
    @property
    def page_size(self) -> tuple[float, float]:
        return landscape(self.pagesize) if self.landscape else self.pagesize

    @property
    def frame_width(self) -> float:
        return self.page_size[0] - self.margin_left - self.margin_right

    @property
    def frame_height(self) -> float:
        return self.page_size[1] - self.margin_top - self.margin_bottom

    def document_title(self) -> str:
        return self.title

    def make_styles(self) -> dict[str, ParagraphStyle]:
        """The paragraph styles, by name (override to add or change some)."""
        f = self.fonts
        base = ParagraphStyle("body", fontName=f.regular, fontSize=9.5, leading=12, textColor=INK)
        return {
            "body": base,
            "small": ParagraphStyle("small", parent=base, fontSize=8, leading=10, textColor=MUTED),
            "cell": ParagraphStyle("cell", parent=base, fontSize=8.5, leading=10.5),
            "cell_right": ParagraphStyle("cell_right", parent=base, fontSize=8.5, leading=10.5, alignment=TA_RIGHT),
            "cell_center": ParagraphStyle("cell_center", parent=base, fontSize=8.5, leading=10.5, alignment=TA_CENTER),
            "title": ParagraphStyle("title", parent=base, fontName=f.bold, fontSize=17, leading=21, spaceAfter=2),
            "subtitle": ParagraphStyle("subtitle", parent=base, fontSize=10, leading=13, textColor=MUTED,
                                       spaceAfter=6),
            "h2": ParagraphStyle("h2", parent=base, fontName=f.bold, fontSize=12.5, leading=16, spaceBefore=10,
                                 spaceAfter=4, keepWithNext=True),
            "h3": ParagraphStyle("h3", parent=base, fontName=f.bold, fontSize=10.5, leading=13, spaceBefore=6,
                                 spaceAfter=3, keepWithNext=True),
            "facts": ParagraphStyle("facts", parent=base, fontSize=9, leading=12, alignment=TA_LEFT),
            "mono": ParagraphStyle("mono", parent=base, fontName=f.mono, fontSize=9, leading=11),
            "head": ParagraphStyle("head", parent=base, fontName=f.bold, fontSize=7.8, leading=9.2),
            "head_right": ParagraphStyle("head_right", parent=base, fontName=f.bold, fontSize=7.8, leading=9.2,
                                         alignment=TA_RIGHT),
            "head_center": ParagraphStyle("head_center", parent=base, fontName=f.bold, fontSize=7.8,
                                          leading=9.2, alignment=TA_CENTER),
        }

    def story(self) -> list:
        """The flowables of the document (subclasses)."""
        raise NotImplementedError

    def estimated_pages(self) -> int:
        """A guess of the page count, for the progress shown while laying out."""
        return 1

    def draw_header(self, canvas: Canvas, page: int) -> None:
        """Tournament (left) and document title (right) above a thin rule; drawn once the page is laid out,
        so that the title may name what the page holds (the player of a page among several players')."""
        w, h = self.page_size
        y = h - self.margin_top + 8 * mm
        canvas.saveState()
        canvas.setFillColor(MUTED)
        canvas.setFont(self.fonts.bold, 8.5)
        title = fit_text(self.document_title(), self.fonts.bold, 8.5, self.frame_width * 0.48)
        canvas.drawRightString(w - self.margin_right, y, title)
        canvas.setFont(self.fonts.regular, 8.5)
        room = self.frame_width - text_width(title, self.fonts.bold, 8.5) - 8 * mm
        canvas.drawString(self.margin_left, y, fit_text(self.heading, self.fonts.regular, 8.5, room))
        canvas.setStrokeColor(LINE)
        canvas.setLineWidth(0.6)
        canvas.line(self.margin_left, y - 2.2 * mm, w - self.margin_right, y - 2.2 * mm)
        canvas.restoreState()

    def draw_footer(self, canvas: Canvas, page: int, total: int) -> None:
        """Time of printing (left), "page x of y" (right)."""
        w, _h = self.page_size
        y = self.margin_bottom - 8 * mm
        canvas.saveState()
        canvas.setStrokeColor(LINE)
        canvas.setLineWidth(0.6)
        canvas.line(self.margin_left, y + 3.5 * mm, w - self.margin_right, y + 3.5 * mm)
        canvas.setFillColor(MUTED)
        canvas.setFont(self.fonts.regular, 8)
        printed = _("Printed %(when)s") % {"when": local_datetime(self.zone_of, self.generated_at)}
        canvas.drawString(self.margin_left, y, printed)
        canvas.setFont(self.fonts.bold, 8)
        canvas.drawRightString(w - self.margin_right, y, self.page_label(page, total))
        canvas.restoreState()

    @staticmethod
    def page_label(page: int, total: int) -> str:
        return _("Page %(page)s of %(pages)s") % {"page": page, "pages": total}

    def after_flowable(self, flowable: Flowable) -> None:
        """Called after each flowable is placed (progress)."""

    # -- building ----------------------------------------------------------------------------
    def title_block(self, title: str | None = None, facts: Iterable[str] = ()) -> list[Flowable]:
        """The big title of the first page, the tournament's subtitle line and a line of facts."""
        out: list[Flowable] = [Paragraph(escape(title or self.document_title()), self.styles["title"])]
        sub = " · ".join(p for p in (self.heading, self.subtitle) if p)
        if sub:
            out.append(Paragraph(escape(sub), self.styles["subtitle"]))
        facts = [f for f in facts if f]
        if facts:
            out.append(Paragraph(" &nbsp;·&nbsp; ".join(facts), self.styles["facts"]))
        out.append(Spacer(1, 4 * mm))
        return out

    def _report(self, fraction: float, message: str) -> None:
        fraction = max(self._done, min(1.0, fraction))
        self._done = fraction
        if self._progress is not None:
            self._progress(fraction, message)

    def build(self, target: str | os.PathLike[str] | BinaryIO | None = None, *,
              progress: Progress | None = None) -> bytes | None:
        """Lays the document out into ``target`` (a path or a file object); returns the bytes when no target."""
        self._progress = progress
        self._done = 0.0
        buffer: BytesIO | None = None
        out: str | BinaryIO
        if target is None:
            out = buffer = BytesIO()
        elif isinstance(target, str | os.PathLike):
            out = os.fspath(target)
        else:
            out = target
        estimate = max(1, self.estimated_pages())
        story = self.story()
        self._report(0.02, "layout")

        def on_progress(kind: str, value: int) -> None:
            if kind == "PAGE":
                self._report(0.95 * min(1.0, value / (estimate + 1)), "page")

        doc = _Template(
            out, self, pagesize=self.page_size, leftMargin=self.margin_left, rightMargin=self.margin_right,
            topMargin=self.margin_top, bottomMargin=self.margin_bottom, title=self.document_title(),
            author=self.author, subject=self.heading, creator="duplicate-hall",
        )
        frame = Frame(self.margin_left, self.margin_bottom, self.frame_width, self.frame_height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        doc.addPageTemplates([PageTemplate(id="page", frames=[frame],
                                           onPageEnd=lambda canv, d: self.draw_header(canv, d.page))])
        doc.setProgressCallBack(on_progress)

        counted = {"pages": 0}

        def footer(canv: Canvas, page: int, total: int) -> None:
            counted["pages"] = total
            self.draw_footer(canv, page, total)

        doc.build(story, canvasmaker=functools.partial(CountingCanvas, footer=footer))
        self.page_count = counted["pages"]
        self._report(1.0, "done")
        return buffer.getvalue() if buffer is not None else None
