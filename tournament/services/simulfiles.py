"""The files of a simultaneous game: the game package an organiser sends to a hall, the results file a hall sends back.

Both are JSON. The results are signed: ``signature`` = HMAC-SHA256, with the hall's key (given in its
package), of the results' *canonical* form — the JSON text with sorted keys, no spaces, UTF-8
(:func:`canonical`). Any change to a name, a score or a rack breaks the signature; a file signed with
another hall's key too. The checks here read the file only; what it must agree with (the game, its lexicon,
its racks) is checked by :mod:`tournament.services.simultaneous`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any, TypedDict

from django.utils.translation import gettext as _

from scoring.game import RoundRecord
from scoring.records import prepared_text

from .. import safejson
from ..errors import Code, ServiceError

PACKAGE_FORMAT = "duplicate-simultaneous-package"
RESULTS_FORMAT = "duplicate-simultaneous-results"
VERSION = 1
#: The largest file read (a results file of 2,000 players and 30 rounds is about 400 KB).
MAX_BYTES = 8 * 1024 * 1024


class RoundPlayed(TypedDict):
    """A round of the game: its rack (leftover+drawn) and its top."""

    round: int
    rack: str
    top: str
    score: int


class PlayerResult(TypedDict):
    """A player's line in a hall's results."""

    name: str
    club: str
    series: str
    category: str
    scores: list[int]
    warnings: int
    solos: int
    penalties: int
    total: int


def prepared_rack(record: RoundRecord) -> str:
    """A round's rack as a prepared game takes it (:func:`scoring.records.prepared_text`)."""
    return prepared_text(record)


def canonical(doc: Any) -> bytes:
    """The one byte form a signature is computed on: sorted keys, no spaces, UTF-8."""
    return json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def sign(doc: Any, key: str) -> str:
    """HMAC-SHA256 of the canonical form with the hall's key, in hex."""
    return hmac.new(key.encode(), canonical(doc), hashlib.sha256).hexdigest()


def digest(doc: Any) -> str:
    """SHA-256 of the canonical form: the same results give the same digest, whatever their layout in the file."""
    return hashlib.sha256(canonical(doc)).hexdigest()


def hall_token(key: str, game_id: str, hall: str) -> str:
    """What a hall shows to fetch its package over the API (derived from its key, never the key itself)."""
    return hmac.new(key.encode(), f"package {game_id} {hall}".encode(), hashlib.sha256).hexdigest()


def _bad(message: str) -> ServiceError:
    return ServiceError(Code.SIMUL_BAD_FILE, message)


def load(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """The JSON object of a file's bytes (or an object already read); a refusal that says why otherwise."""
    if isinstance(data, dict):
        return data
    if len(data) > MAX_BYTES:
        raise _bad(_("the file is larger than %(mb)s MB") % {"mb": MAX_BYTES // (1024 * 1024)})
    try:
        doc = safejson.loads(data)
    except safejson.JsonRefused as exc:
        raise _bad(str(exc)) from None
    if not isinstance(doc, dict):
        raise _bad(_("the file is not JSON"))
    return doc


def _field(doc: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = doc.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise _bad(_("the field «%(field)s» is missing or wrong") % {"field": name})
    return value


def _rounds(value: Any) -> list[RoundPlayed]:
    if not isinstance(value, list):
        raise _bad(_("the field «%(field)s» is missing or wrong") % {"field": "rounds"})
    out: list[RoundPlayed] = []
    for i, r in enumerate(value, 1):
        if not isinstance(r, dict) or r.get("round") != i:
            raise _bad(_("the field «%(field)s» is missing or wrong") % {"field": f"rounds[{i}]"})
        out.append({"round": i, "rack": _field(r, "rack", str), "top": _field(r, "top", str),
                    "score": _field(r, "score", int)})
    return out


def read_package(data: bytes | str | dict[str, Any]) -> dict[str, Any]:
    """A game package, its shape checked (format, game id, rule set, variant, lexicon hash, rounds, hall)."""
    doc = load(data)
    if doc.get("format") != PACKAGE_FORMAT:
        raise _bad(_("this is not a game package"))
    if doc.get("version") != VERSION:
        raise _bad(_("the file's format version %(version)s is not known here") % {"version": doc.get("version")})
    for name in ("game", "name", "ruleset", "variant", "lexicon_hash"):
        _field(doc, name, str)
    _field(doc, "seconds_per_move", int)
    doc["rounds"] = _rounds(doc.get("rounds"))
    hall = _field(doc, "hall", dict)
    for name in ("code", "name", "key"):
        _field(hall, name, str)
    return doc


def _player(p: Any, rounds: int) -> PlayerResult:
    if not isinstance(p, dict):
        raise _bad(_("the field «%(field)s» is missing or wrong") % {"field": "players"})
    scores = _field(p, "scores", list)
    if len(scores) != rounds or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores):
        raise _bad(_("the scores of «%(name)s» do not cover the rounds played") % {"name": p.get("name")})
    line: PlayerResult = {
        "name": _field(p, "name", str), "club": _field(p, "club", str), "series": _field(p, "series", str),
        "category": _field(p, "category", str), "scores": scores, "warnings": _field(p, "warnings", int),
        "solos": _field(p, "solos", int), "penalties": _field(p, "penalties", int), "total": _field(p, "total", int),
    }
    return line


def adds_up(line: PlayerResult) -> bool:
    """Whether a player's total is the sum of his scores and solos less his penalties."""
    return line["total"] == sum(line["scores"]) + line["solos"] - line["penalties"]


def unbalanced(results: dict[str, Any]) -> str | None:
    """The name of the first player whose total does not add up (:func:`adds_up`), or None."""
    return next((p["name"] for p in results["players"] if not adds_up(p)), None)


def read_results(data: bytes | str | dict[str, Any]) -> tuple[dict[str, Any], str]:
    """A results file: (the results, their signature), the shape checked; the signature is checked against the
    hall's key by the organiser (:func:`verify`), then the totals (:func:`check_totals`)."""
    doc = load(data)
    results, signature = doc.get("results"), doc.get("signature")
    if not isinstance(results, dict) or results.get("format") != RESULTS_FORMAT:
        raise _bad(_("this is not a results file"))
    if not isinstance(signature, str):
        raise ServiceError(Code.SIMUL_SIGNATURE, _("the file carries no signature"))
    if results.get("version") != VERSION:
        raise _bad(_("the file's format version %(version)s is not known here") % {"version": results.get("version")})
    for name in ("game", "hall", "lexicon_hash"):
        _field(results, name, str)
    rounds = _rounds(results.get("rounds"))
    players = _field(results, "players", list)
    for p in players:
        _player(p, len(rounds))
    return results, signature


def verify(results: dict[str, Any], signature: str, key: str) -> None:
    """Refuses results whose signature is not the hall key's HMAC of their canonical form: as changed after they
    were signed when a total no longer adds up (the change is named), else as changed or signed with another key."""
    if hmac.compare_digest(sign(results, key), signature.strip().lower()):
        return
    name = unbalanced(results)
    if name is not None:
        raise ServiceError(Code.SIMUL_CHANGED, _("the total of «%(name)s» is not the sum of the scores, solos and "
                                                 "penalties") % {"name": name})
    raise ServiceError(Code.SIMUL_SIGNATURE, _("the signature does not match the results of hall «%(hall)s»")
                       % {"hall": results.get("hall", "")})


def check_totals(results: dict[str, Any]) -> None:
    """Refuses signed results in which a total is not the sum of the scores, solos and penalties (the hall's
    server wrote them so)."""
    name = unbalanced(results)
    if name is not None:
        raise ServiceError(Code.SIMUL_TOTALS, _("the total of «%(name)s» is not the sum of the scores, solos and "
                                                "penalties") % {"name": name})


def signed_results(results: dict[str, Any], key: str) -> dict[str, Any]:
    """A results file: the results and their signature."""
    return {"results": results, "signature": sign(results, key)}


def dumps(doc: Any) -> bytes:
    """A file's bytes (indented, UTF-8: readable by a person; the signature does not depend on the layout)."""
    return json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8") + b"\n"


__all__ = ["MAX_BYTES", "PACKAGE_FORMAT", "RESULTS_FORMAT", "VERSION", "PlayerResult", "RoundPlayed", "adds_up",
           "canonical", "check_totals", "digest", "dumps", "hall_token", "load", "prepared_rack", "read_package", "read_results", "sign", "signed_results",
           "unbalanced", "verify"]
