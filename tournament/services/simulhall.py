"""One game, many halls: the hall's side of a simultaneous game.

The hall's arbiter imports the organiser's game package into a tournament of his own server
(:func:`import_package`: refused when the tournament's lexicon is not the one the game was prepared with, by its
content hash). The game is then played as any prepared game — tablets, paper slips, review, publication — its
racks coming from the package, not from the bag. :func:`results_file` writes the hall's results, signed with the
hall's key, for the organiser (a file carried by hand, or :func:`send_results` over the API when online).
"""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from .. import gamestate, safejson
from ..errors import Code, ServiceError, entry_of
from ..models import Game, HallGame, Tournament
from . import audit, games, simulfiles, standings
from .simulfiles import PlayerResult, RoundPlayed

#: Seconds to wait for the organiser's server.
SEND_TIMEOUT = 30


def import_package(actor: audit.Actor, tournament: Tournament, data: bytes | str | dict[str, Any]) -> Game:
    """The package's game as the tournament's next game: its racks prepared from the package, the package's
    variant and time per move (the game's own, whatever the tournament's)."""
    doc = simulfiles.read_package(data)
    ours = tournament.lexicon.content_hash
    if doc["lexicon_hash"] != ours:
        raise ServiceError(Code.SIMUL_LEXICON, _("the game is played with lexicon %(theirs)s… (%(label)s), this "
                                                 "tournament's lexicon %(name)s is %(ours)s…") % {
            "theirs": doc["lexicon_hash"][:12], "label": doc.get("lexicon", ""), "name": tournament.lexicon.label,
            "ours": ours[:12]})
    if doc["ruleset"] != tournament.ruleset:
        raise ServiceError(Code.SIMUL_RULESET, _("the game is played by rule set %(theirs)s, the tournament by "
                                                 "%(ours)s") % {"theirs": doc["ruleset"], "ours": tournament.ruleset})
    hall = doc["hall"]
    with transaction.atomic():
        done = HallGame.objects.filter(simul_id=doc["game"], hall=hall["code"]).select_related("game__tournament")
        if done.exists():
            earlier = done.get().game
            raise ServiceError(Code.SIMUL_IMPORTED, _("the package of hall «%(hall)s» is game %(n)s of «%(t)s»")
                               % {"hall": hall["name"], "n": earlier.number, "t": earlier.tournament.name})
        game = games.create_game(actor, tournament, prepared_racks=[r["rack"] for r in doc["rounds"]],
                                 variant=doc["variant"], seconds_per_move=doc["seconds_per_move"])
        HallGame.objects.create(game=game, simul_id=doc["game"], hall=hall["code"], hall_name=hall["name"],
                                key=hall["key"], lexicon_hash=doc["lexicon_hash"], package=doc)
        audit.record(actor, "simul.import", game, after={"game": doc["game"], "hall": hall["code"],
                                                         "rounds": len(doc["rounds"]),
                                                         "seconds_per_move": doc["seconds_per_move"]},
                     tournament=tournament)
    return game


def hall_games(tournament: Tournament) -> list[HallGame]:
    """The tournament's games played from a simultaneous package."""
    return list(HallGame.objects.filter(game__tournament=tournament).select_related("game").order_by("game__number"))


def rounds_played(game: Game) -> list[RoundPlayed]:
    """The published rounds of the game: rack, top, score."""
    return [{"round": r.round, "rack": simulfiles.prepared_rack(r), "top": r.move, "score": r.score}
            for r in gamestate.history(game)]


def results(game: Game) -> dict[str, Any]:
    """The hall's results (unsigned): the game, the hall, the lexicon hash, the rounds played, every player."""
    hall_game: HallGame = game.simultaneous
    rows = standings.game_standings(game)
    players: list[PlayerResult] = [{
        "name": r.player.name, "club": r.player.club, "series": r.player.series, "category": r.player.category,
        "scores": list(r.per_round), "warnings": r.warnings, "solos": r.solos, "penalties": r.penalties,
        "total": r.total} for r in sorted(rows, key=lambda r: r.table)]
    return {"format": simulfiles.RESULTS_FORMAT, "version": simulfiles.VERSION, "game": str(hall_game.simul_id),
            "hall": hall_game.hall, "lexicon_hash": hall_game.lexicon_hash, "variant": game.variant,
            "rounds": rounds_played(game), "finished": game.status == Game.Status.FINISHED, "players": players}


def results_file(actor: audit.Actor, game: Game) -> dict[str, Any]:
    """The signed results file of a game played from a package (audited: who exported what)."""
    hall_game = HallGame.objects.filter(game=game).first()
    if hall_game is None:
        raise ServiceError(Code.SIMUL_BAD_FILE, _("game %(n)s is not a simultaneous game") % {"n": game.number})
    doc = results(game)
    signed = simulfiles.signed_results(doc, hall_game.key)
    audit.record(actor, "simul.export", game, after={"digest": simulfiles.digest(doc),
                                                     "players": len(doc["players"]), "rounds": len(doc["rounds"])},
                 tournament=game.tournament)
    return signed


def send_results(actor: audit.Actor, game: Game, url: str = "") -> dict[str, Any]:
    """Sends the signed results to the organiser's server (the package's ``results_url`` unless ``url``); its
    answer, or a refusal that says why the organiser refused or could not be reached."""
    hall_game = HallGame.objects.filter(game=game).first()
    target = url or (hall_game.package.get("results_url", "") if hall_game else "")
    if not target:
        raise ServiceError(Code.SIMUL_BAD_FILE, _("the package names no address to send the results to"))
    body = simulfiles.dumps(results_file(actor, game))
    request = urllib.request.Request(target, data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    answer = _ask_organiser(request, _("the organiser refused the results: %(why)s"))
    try:
        return dict(safejson.loads(answer or b"{}", max_bytes=simulfiles.MAX_BYTES))
    except (ValueError, TypeError) as exc:
        raise ServiceError(Code.CONFLICT, _("the organiser's server cannot be reached: %(why)s")
                           % {"why": exc}) from None


def fetch_package(url: str, token: str) -> bytes:
    """A package from the organiser's server (the hall's token in ``X-Hall-Token``)."""
    request = urllib.request.Request(url, headers={"X-Hall-Token": token.strip(), "Accept": "application/json"})
    return _ask_organiser(request, _("the organiser refused: %(why)s"), limit=simulfiles.MAX_BYTES + 1)


def _ask_organiser(request: urllib.request.Request, refused: str, *, limit: int = -1) -> bytes:
    """The organiser's answer to ``request``; a refusal that says why he refused (``refused``, with ``why``) or
    could not be reached."""
    try:
        with urllib.request.urlopen(request, timeout=SEND_TIMEOUT) as answer:  # noqa: S310 (the organiser's URL)
            return bytes(answer.read(limit))
    except urllib.error.HTTPError as exc:
        try:
            answer = safejson.loads(exc.read(simulfiles.MAX_BYTES + 1), max_bytes=simulfiles.MAX_BYTES)
        except ValueError:
            answer = {}
        answer = answer if isinstance(answer, dict) else {}
        detail, code = str(answer.get("detail", "")), str(answer.get("code", ""))
        # the organiser's own refusal (a changed file, another game…) keeps its headline here
        said = code if code.startswith("simul_") and entry_of(code) is not None else Code.SIMUL_REFUSED
        raise ServiceError(said, refused % {"why": detail or exc.reason}) from None
    except (OSError, ValueError) as exc:
        raise ServiceError(Code.CONFLICT, _("the organiser's server cannot be reached: %(why)s")
                           % {"why": exc}) from None


__all__ = ["fetch_package", "hall_games", "import_package", "results", "results_file", "rounds_played", "send_results"]
