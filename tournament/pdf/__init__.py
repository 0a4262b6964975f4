"""Printed documents as PDF: what to print (:class:`Spec`), whether it is cached, and building it.

Kinds: ``standings``, ``game-sheet``, ``player-sheet``, ``arbitration``, ``slips``, ``cards``
(the documents themselves are in :mod:`tournament.pdf.documents`).

Caching: a built file is kept under ``MEDIA_ROOT/pdf/<tournament id>/`` and named after the kind,
its parameters and a **fingerprint of the data it shows** (rows, ids, counts, sums and latest changes
of the registrations, games, rounds, slips, verdicts, solos and penalties it reads). The same request
with unchanged data reuses the file; any change of what is shown gives a new name, so a new build.
Older files of the same kind and parameters are removed when a new one is written.

Access cards are never cached: a card shows a code only when it is issued, so every print of
cards issues new codes (:func:`tournament.pdf.documents.issue_access_codes`); the file is written
under ``MEDIA_ROOT/pdf/<tournament id>/private/`` with a random name, readable by the owner only.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from django.conf import settings
from django.db.models import Count, Max, Q, Sum
from django.utils import translation

KINDS = ("standings", "game-sheet", "player-sheet", "arbitration", "slips", "cards")
GROUPS = ("series", "category", "club")
#: Bumped when the layout of the documents changes, so that cached files are built again.
LAYOUT_VERSION = 1
MAX_COPIES = 30
#: Access-card files are deleted after this many seconds.
CARDS_TTL = 3600


class SpecError(ValueError):
    """A document request that cannot be served; the message says why (shown to the user)."""


@dataclass(frozen=True)
class Spec:
    """What to print. ``game``/``round`` are numbers, ``player`` a Player id; ``language`` '' = the tournament's."""

    kind: str
    tournament_id: int
    game: int | None = None
    round: int | None = None
    player: int | None = None
    group_by: str | None = None
    copies: int = 1
    language: str = ""

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> Spec:
        return cls(**{k: data.get(k) for k in cls.__dataclass_fields__ if k in data})

    def params_key(self) -> str:
        """The parameters that change the document, as stable text."""
        return json.dumps({k: v for k, v in self.to_json().items() if k not in ("kind",)}, sort_keys=True)


def _int(value, what: str) -> int | None:
    if value in (None, ""):
        return None
    try:
        n = int(str(value).strip())
    except (TypeError, ValueError):
        raise SpecError(f"{what} must be a whole number, not {value!r}") from None
    if n < 1:
        raise SpecError(f"{what} must be 1 or more, not {n}")
    return n


def make_spec(tournament, kind: str, *, game=None, round=None, player=None, group_by=None, copies=None,
              language=None) -> Spec:
    """Checks a request against the tournament and returns its :class:`Spec` (or :class:`SpecError`)."""
    from ..models import Game, Round

    if kind not in KINDS:
        raise SpecError(f"unknown document {kind!r}: one of {', '.join(KINDS)}")
    game_n, round_n, player_id = _int(game, "the game"), _int(round, "the round"), _int(player, "the player")
    copies_n = _int(copies, "the number of copies") or 1
    group = (group_by or "").strip() or None
    lang = (language or "").strip()
    if lang and lang not in dict(settings.LANGUAGES):
        raise SpecError(f"unknown language {lang!r}: one of {', '.join(dict(settings.LANGUAGES))}")
    if group and group not in GROUPS:
        raise SpecError(f"group by {group!r}: one of {', '.join(GROUPS)}")
    if group and kind != "standings":
        raise SpecError("group-by applies to the standings only")
    if copies_n > MAX_COPIES:
        raise SpecError(f"at most {MAX_COPIES} copies per table")
    if copies_n > 1 and kind != "slips":
        raise SpecError("copies apply to the slips only")
    needs_game = kind in ("game-sheet", "arbitration")
    if needs_game and game_n is None:
        raise SpecError(f"the {kind} needs a game number (--game N)")
    if kind == "arbitration" and round_n is None:
        raise SpecError("the arbitration sheet needs a round number (--round N)")
    if kind == "player-sheet" and player_id is None:
        raise SpecError("the player sheet needs a player (--player ID)")
    if kind not in ("game-sheet", "arbitration", "standings", "slips") and game_n is not None:
        raise SpecError(f"the {kind} does not take a game")
    if kind not in ("arbitration", "slips") and round_n is not None:
        raise SpecError(f"the {kind} does not take a round")
    if kind not in ("player-sheet", "cards") and player_id is not None:
        raise SpecError(f"the {kind} does not take a player")
    if game_n is not None and kind != "slips":  # slips may be printed before their game starts
        g = Game.objects.filter(tournament=tournament, number=game_n).first()
        if g is None:
            raise SpecError(f"{tournament.slug} has no game {game_n}")
        if kind == "arbitration" and not g.rounds.exclude(status=Round.Status.CANCELLED).filter(
                number=round_n).exists():
            raise SpecError(f"game {game_n} has no round {round_n}")
    if player_id is not None and not tournament.registrations.filter(player_id=player_id).exists():
        raise SpecError(f"player {player_id} is not registered in {tournament.slug}")
    return Spec(kind, tournament.pk, game_n, round_n, player_id, group, copies_n, lang)


# -- objects of a spec ------------------------------------------------------------------------------------


@dataclass
class Resolved:
    tournament: object
    game: object = None
    round: object = None
    registration: object = None


def resolve(spec: Spec) -> Resolved:
    from ..models import Round, Tournament

    t = Tournament.objects.select_related("lexicon").get(pk=spec.tournament_id)
    out = Resolved(t)
    if spec.game is not None and spec.kind != "slips":
        out.game = t.games.get(number=spec.game)
        if spec.round is not None and spec.kind == "arbitration":
            out.round = (out.game.rounds.exclude(status=Round.Status.CANCELLED).select_related("game__tournament")
                         .get(number=spec.round))
    if spec.player is not None:
        out.registration = t.registrations.select_related("player", "tournament").get(player_id=spec.player)
    return out


# -- fingerprints -------------------------------------------------------------------------------------------


def _agg(qs, points: str | None = None, changed: str | None = None) -> list:
    """Count, last id, sum of ``points`` and latest ``changed`` of a queryset: what tells that it changed."""
    fields = {"n": Count("id"), "last": Max("id")}
    if points:
        fields["sum"] = Sum(points)
    if changed:
        fields["changed"] = Max(changed)
    if points == "awarded":
        fields["warnings"] = Count("id", filter=Q(warning=True))
    row = qs.aggregate(**fields)
    return [str(row[k]) for k in sorted(row)]


def _tournament_part(t) -> list:
    return [t.pk, t.name, t.slug, str(t.starts_on), str(t.ends_on), t.venue, t.ruleset, t.convention, t.tie_break,
            t.language, t.solo_mode, t.solo_bonus, t.free_warnings, t.warning_penalty]


def _registrations_part(t) -> list:
    return list(t.registrations.order_by("pk").values_list(
        "pk", "table_number", "player_id", "player__name", "player__club", "player__category", "player__series",
        "player__licence"))


def _rounds_part(qs) -> list:
    return [[*row[:-1], len(row[-1] or [])] for row in qs.order_by("pk").values_list(
        "pk", "game_id", "number", "status", "rack", "leftover", "drawn", "chosen_move", "chosen_score",
        "published_at", "draw_log")]


def fingerprint(spec: Spec, resolved: Resolved | None = None) -> str:
    """A hash of the data the document shows (see the module's docstring)."""
    from ..models import Game, Penalty, Round, Slip, Solo, Verdict

    r = resolved or resolve(spec)
    t = r.tournament
    parts: list = [LAYOUT_VERSION, spec.kind, spec.params_key(), _tournament_part(t)]
    games = t.games.exclude(status=Game.Status.CANCELLED)
    if spec.kind == "standings":
        if r.game is not None:
            games = games.filter(pk=r.game.pk)
        published = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED)
        parts += [
            _registrations_part(t), list(games.order_by("pk").values_list("pk", "number", "status")),
            _rounds_part(published),
            _agg(Verdict.objects.filter(round__in=published), "awarded", "updated_at"),
            _agg(Solo.objects.filter(round__in=published), "points"),
            _agg(Penalty.objects.filter(game__in=games), "points"),
        ]
    elif spec.kind == "game-sheet":
        g = r.game
        state = g.state if isinstance(g.state, dict) else {}
        parts += [g.pk, g.number, g.status, g.end_reason, state.get("board"), state.get("rounds"),
                  _rounds_part(g.rounds.all())]
    elif spec.kind == "player-sheet":
        reg = r.registration
        published = Round.objects.filter(game__in=games, status=Round.Status.PUBLISHED)
        parts += [
            [reg.pk, reg.table_number, reg.player.name, reg.player.club, reg.player.category, reg.player.series,
             reg.player.licence],
            list(games.order_by("pk").values_list("pk", "number", "status")), _rounds_part(published),
            _agg(Verdict.objects.filter(round__in=published, registration=reg), "awarded", "updated_at"),
            list(Verdict.objects.filter(round__in=published, registration=reg).order_by("pk").values_list(
                "pk", "reason", "automatic", "slip_id")),
            _agg(Slip.objects.filter(round__in=published, registration=reg)),
            _agg(Solo.objects.filter(round__in=published, registration=reg), "points"),
            list(Penalty.objects.filter(game__in=games, registration=reg).order_by("pk").values_list(
                "pk", "kind", "points", "reason")),
        ]
    elif spec.kind == "arbitration":
        rnd = r.round
        parts += [
            _registrations_part(t), _rounds_part(Round.objects.filter(pk=rnd.pk)),
            _agg(Slip.objects.filter(round=rnd)), _agg(Slip.objects.filter(round=rnd, is_current=True)),
            _agg(Verdict.objects.filter(round=rnd), "awarded", "updated_at"),
            list(Verdict.objects.filter(round=rnd).order_by("pk").values_list(
                "pk", "reason", "automatic", "slip_id", "true_score", "override_reason")),
            _agg(Solo.objects.filter(round=rnd), "points"),
        ]
    elif spec.kind == "slips":
        parts += [list(t.registrations.order_by("pk").values_list("pk", "table_number", "player__name"))]
    else:  # cards: issued anew every time
        parts.append(secrets.token_hex(16))
    text = json.dumps(parts, default=str, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# -- files ---------------------------------------------------------------------------------------------------


def pdf_root() -> Path:
    return Path(settings.MEDIA_ROOT) / "pdf"


def _params_hash(spec: Spec) -> str:
    return hashlib.sha256(f"{spec.kind}\x1f{spec.params_key()}".encode()).hexdigest()[:12]


def cache_path(spec: Spec, fp: str) -> Path:
    return pdf_root() / str(spec.tournament_id) / f"{spec.kind}-{_params_hash(spec)}-{fp[:20]}.pdf"


def cached_file(spec: Spec, resolved: Resolved | None = None) -> Path | None:
    """The cached file for the data as it is now, or None (always None for cards)."""
    if spec.kind == "cards":
        return None
    path = cache_path(spec, fingerprint(spec, resolved))
    return path if path.is_file() else None


def download_name(spec: Spec, tournament) -> str:
    bits = [tournament.slug, spec.kind]
    if spec.game:
        bits.append(f"g{spec.game}")
    if spec.round:
        bits.append(f"r{spec.round}")
    if spec.group_by:
        bits.append(spec.group_by)
    if spec.player:
        bits.append(f"p{spec.player}")
    return re.sub(r"[^A-Za-z0-9._-]+", "-", "-".join(bits)) + ".pdf"


def _remove_stale(spec: Spec, keep: Path) -> None:
    prefix = f"{spec.kind}-{_params_hash(spec)}-"
    for other in keep.parent.glob(prefix + "*.pdf"):
        if other != keep:
            other.unlink(missing_ok=True)


def remove_old_cards(tournament_id: int, older_than: float = CARDS_TTL) -> None:
    folder = pdf_root() / str(tournament_id) / "private"
    if not folder.is_dir():
        return
    limit = time.time() - older_than
    for path in folder.glob("cards-*.pdf"):
        try:
            if path.stat().st_mtime < limit:
                path.unlink(missing_ok=True)
        except OSError:
            continue


@dataclass
class Built:
    path: Path
    filename: str
    cached: bool
    pages: int | None = None


def document_for(spec: Spec, resolved: Resolved, *, base_url: str | None = None):
    """The :class:`~tournament.pdf.base.Document` of a spec, and for cards the (registration, new code)
    pairs it shows — not saved yet."""
    from . import documents as d

    r = resolved
    if spec.kind == "standings":
        return d.standings_document(r.tournament, game=r.game, group_by=spec.group_by), None
    if spec.kind == "game-sheet":
        return d.game_sheet_document(r.game), None
    if spec.kind == "player-sheet":
        return d.player_sheet_document(r.registration), None
    if spec.kind == "arbitration":
        return d.arbitration_document(r.round), None
    if spec.kind == "slips":
        return d.slips_document(r.tournament, game=spec.game, round_number=spec.round, copies=spec.copies), None
    if not base_url or "://" not in base_url:
        raise SpecError("access cards need the address the tablets open (an absolute URL such as "
                        "http://192.168.1.10:8000)")
    regs = r.tournament.registrations.select_related("player", "tournament").order_by("table_number")
    if spec.player is not None:
        regs = regs.filter(player_id=spec.player)
    entries = d.new_access_codes(list(regs))
    return d.access_cards_document(r.tournament, entries, base_url=base_url), entries


def _write(doc, path: Path, progress, private: bool = False, before_publish=None) -> None:
    """Builds into a temporary file beside ``path``; ``before_publish()`` runs once the PDF is complete,
    then the file takes its name (nothing is left behind on a failure)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600 if private else 0o644)
        with os.fdopen(fd, "wb") as fh:
            doc.build(fh, progress=progress)
        if before_publish is not None:
            before_publish()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def build(spec: Spec, *, progress=None, actor=None, base_url: str | None = None, log_out_tablets: bool = False,
          out: str | os.PathLike | None = None) -> Built:
    """Builds (or reuses) the document of ``spec`` in the tournament's language (or ``spec.language``).

    ``progress(fraction, message)`` is told how far it got. ``out``: also copy the file there
    (cards are written only there when given). Raises :class:`SpecError` on a bad request and
    :class:`tournament.pdf.base.FontError` when the font is missing.
    """
    from . import documents as d

    resolved = resolve(spec)
    t = resolved.tournament
    name = download_name(spec, t)
    report = progress or (lambda fraction, message: None)
    with translation.override(spec.language or t.language):
        if spec.kind == "cards":
            remove_old_cards(t.pk)
            path = Path(out) if out else (pdf_root() / str(t.pk) / "private"
                                          / f"cards-{secrets.token_urlsafe(18)}.pdf")
            report(0.01, "codes")
            doc, entries = document_for(spec, resolved, base_url=base_url)
            # the new codes are saved only once their cards are printed: a failure changes nothing
            _write(doc, path, lambda f, m: report(0.05 + 0.95 * f, m), private=True,
                   before_publish=lambda: d.save_access_codes(actor, entries, log_out_tablets=log_out_tablets))
            return Built(path, name, False, doc.page_count)
        fp = fingerprint(spec, resolved)  # before reading the data: a later change gives another name
        path = cache_path(spec, fp)
        cached = path.is_file()
        pages = None
        if not cached:
            report(0.01, "data")
            doc, _entries = document_for(spec, resolved)
            report(0.1, "data")
            _write(doc, path, lambda f, m: report(0.1 + 0.9 * f, m))
            pages = doc.page_count
            _remove_stale(spec, path)
        report(1.0, "done")
    if out:
        shutil.copyfile(path, out)
    return Built(path, name, cached, pages)


__all__ = ["KINDS", "Built", "Spec", "SpecError", "build", "cache_path", "cached_file", "download_name",
           "fingerprint", "make_spec", "pdf_root", "resolve"]
