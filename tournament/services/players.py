"""Players of a tournament: registration, tables, personal access codes and tablet tokens.

An access code is stored hashed (:func:`tournament.models.secret_hash`) with a two-letter hint; a tablet
proves it once and gets a token (also stored hashed). Until it is handed out, the code registered is also kept
sealed (:func:`seal_code`: encrypted and authenticated with the newest code key), so that the tournament's
arbiters read the codes still to hand out on the players page (:func:`codes_to_hand_out`); the sealed copy is
dropped when the player's tablet logs in with it, when the arbiter marks it handed out
(:func:`mark_handed_out`), or when cards are printed. Printing cards issues new codes: :func:`new_access_codes`
makes them, :func:`save_access_codes` stores them once the cards are written; the hash of the code a card replaces
is kept (``Registration.replaced_codes``), so a login with the old card is told that it was replaced, in its
hall's language, not that the code is wrong.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from ..errors import Code, ServiceError
from ..models import Player, Registration, Tournament, code_keys, secret_hash, secret_hashes
from . import audit, rows

#: The letters of an access code: no look-alikes (no 0/O, 1/I/L): 31 signs, 10 of them ≈ 49.5 random bits.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10
#: The replaced codes a registration keeps (the latest ones).
REPLACED_KEPT = 10
#: Read as nothing: what a player may type between the signs of a code.
CODE_SEPARATORS = str.maketrans("", "", " -_.\t\u00a0\u2010\u2011\u2012\u2013\u2014")


def access_code() -> str:
    """10 signs of :data:`CODE_ALPHABET` (≈ 49.5 random bits), none that reads as another."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def code_readings(typed: str) -> list[str]:
    """What a typed access code may be, first the code as typed (case, spaces and dashes ignored).

    New codes have no 0, O, 1, I or L; codes made before (RFC 4648 base32: A–Z, 2–7) have O, I and L but
    no 0 or 1: a 0 typed for an O, a 1 for an I or an L, still finds them.
    """
    code = typed.translate(CODE_SEPARATORS).upper()
    readings = [code]
    if "0" in code or "1" in code:
        for one in ("I", "L"):
            folded = code.replace("0", "O").replace("1", one)
            if folded not in readings:
                readings.append(folded)
    return readings


def register_player(actor: audit.Actor, tournament: Tournament, *, name: str, club: str = "", category: str = "",
                    series: str = "", licence: str = "", table_number: int | None = None
                    ) -> tuple[Registration, str]:
    """Registers a player; returns the registration and the personal access code (shown once, stored hashed)."""
    with transaction.atomic():
        player = Player.objects.create(name=name, club=club, category=category, series=series, licence=licence)
        if table_number is None:
            last = tournament.registrations.order_by("-table_number").first()
            table_number = (last.table_number + 1) if last else 1
        if tournament.registrations.filter(table_number=table_number).exists():
            raise ServiceError(Code.TABLE_TAKEN, gettext("table %(n)s is already taken in %(tournament)s")
                               % {"n": table_number, "tournament": tournament.name})
        code = access_code()
        reg = Registration.objects.create(
            tournament=tournament, player=player, table_number=table_number,
            access_code_hash=secret_hash(code), access_code_hint=code[:2] + "…", access_code_sealed=seal_code(code),
        )
        audit.record(actor, "player.register", reg, after={"name": name, "table": table_number},
                     tournament=tournament)
    return reg, code


def assign_tables(actor: audit.Actor, tournament: Tournament, wanted: dict[Registration, int]) -> int:
    """Renumbers tables in one transaction (through free numbers, so swaps work); audited.
    Returns how many tables changed."""
    changes = {reg: n for reg, n in wanted.items() if n != reg.table_number}
    if not changes:
        return 0
    with transaction.atomic():
        top = (tournament.registrations.order_by("-table_number").values_list("table_number", flat=True).first()
               or 0) + 1000
        for i, reg in enumerate(changes):
            Registration.objects.filter(pk=reg.pk).update(table_number=top + i)
        for reg, n in changes.items():
            Registration.objects.filter(pk=reg.pk).update(table_number=n)
        audit.record(actor, "tables.assign", tournament, tournament=tournament,
                     before={reg.player.name: reg.table_number for reg in changes},
                     after={reg.player.name: n for reg, n in changes.items()})
    return len(changes)


def registration_at(tournament: Tournament, table: int) -> Registration | None:
    """The player registered at a table, or None."""
    return tournament.registrations.select_related("player").filter(table_number=table).order_by("pk").first()


# -- access codes and tablet tokens ------------------------------------------------------------------------


def _hashes(code: str) -> dict[str, str]:
    """Every hash a typed code may be stored under → the reading it is the hash of (:func:`code_readings`)."""
    readings = code_readings(code)[:3] if code.strip() else []
    return {h: r for r in readings if r for h in secret_hashes(r)}


def _holder(hashes: dict[str, str]) -> Registration | None:
    return (Registration.objects.select_related("tournament", "player")
            .filter(access_code_hash__in=list(hashes)).order_by("pk").first()) if hashes else None


def _replaced_holder(hashes: dict[str, str]) -> Registration | None:
    """The registration whose card had one of these codes before a new card replaced it."""
    if not hashes:
        return None
    found = Q()
    for h in hashes:
        found |= Q(replaced_codes__icontains=h)
    return next((reg for reg in Registration.objects.select_related("tournament").filter(found).order_by("pk")
                 if set(reg.replaced_codes) & set(hashes)), None)


def tournament_of_code(code: str) -> Tournament | None:
    """The tournament of a card's code (its current code or one a new card replaced), None for a code never
    issued: the login page of a QR card speaks its hall's language."""
    hashes = _hashes(code)
    reg = _holder(hashes) or _replaced_holder(hashes)
    return reg.tournament if reg is not None else None


def login(code: str, language: str | None = None) -> tuple[Registration, str]:
    """A tablet logs in with an access code: (registration, new token). ``code_replaced`` for the code of a
    card a new one replaced, said in ``language`` (the one the player picked on the tablet) or else his hall's;
    ``bad_code`` when no player ever had it.

    The code is read tolerantly (:func:`code_readings`: case, spaces, dashes, look-alikes)."""
    hashes = _hashes(code)
    reg = _holder(hashes)
    if reg is None:
        secrets.compare_digest(secret_hash(code), "0" * 64)  # the same work as a real comparison
        replaced = _replaced_holder(hashes)
        if replaced is not None:
            with translation.override(language or replaced.tournament.language):
                raise ServiceError(Code.CODE_REPLACED, gettext(
                    "This card was replaced by a new one: log in with the code of your new card (the arbiter has "
                    "it)."), language=translation.get_language())
        raise ServiceError(Code.BAD_CODE, gettext("the access code is wrong"))
    return reg, issue_tablet_token(reg, hashes[reg.access_code_hash])


def issue_tablet_token(registration: Registration, code: str) -> str:
    """A tablet proves the access code once and gets a token (stored hashed)."""
    if not registration.check_access_code(code):
        raise ServiceError(Code.BAD_CODE, gettext("the access code is wrong"))
    token = secrets.token_urlsafe(32)
    # the code reached its player: it leaves the arbiter's list of codes to hand out
    Registration.objects.filter(pk=registration.pk).update(token_hash=secret_hash(token), access_code_sealed="")
    return token


_BY_TOKEN = rows.Select(Registration, "tournament", "player")


def registration_for_token(token: str) -> Registration | None:
    """The registration a tablet's token belongs to (its tournament and player read with it): every tablet
    request asks, so the SQL is written once (:class:`~tournament.services.rows.Select`)."""
    hashes = secret_hashes(token)
    return _BY_TOKEN.one(f'WHERE a0."token_hash" IN ({rows.placeholders(len(hashes))}) ORDER BY a0."id" LIMIT 1',
                         hashes)


def new_access_codes(registrations: Iterable[Registration]) -> list[tuple[Registration, str]]:
    """Fresh codes for these registrations, not saved yet (see :func:`save_access_codes`)."""
    return [(reg, access_code()) for reg in registrations]


def save_access_codes(actor: audit.Actor, entries: Iterable[tuple[Registration, str]], *,
                      log_out_tablets: bool = False) -> None:
    """Stores the codes (hashed; the hint keeps two letters), audited as ``player.new_code``: the previous
    codes stop working. ``log_out_tablets`` also ends the tablet sessions opened with the old codes."""
    with transaction.atomic():
        for reg, code in entries:
            old, replaced = Registration.objects.select_for_update().filter(pk=reg.pk).values_list(
                "access_code_hash", "replaced_codes").get()
            fields: dict[str, Any] = {"access_code_hash": secret_hash(code), "access_code_hint": code[:2] + "…",
                                      "replaced_codes": [*replaced, old][-REPLACED_KEPT:],
                                      "access_code_sealed": ""}  # the card holds the code now
            if log_out_tablets:
                fields["token_hash"] = None
            Registration.objects.filter(pk=reg.pk).update(**fields)
            for name, value in fields.items():
                setattr(reg, name, value)
            audit.record(actor, "player.new_code", reg, after={"table": reg.table_number, "printed": True,
                                                               "tablets_logged_out": log_out_tablets},
                         tournament=reg.tournament)


def issue_access_codes(actor: audit.Actor, registrations: Iterable[Registration], *, log_out_tablets: bool = False
                       ) -> list[tuple[Registration, str]]:
    """New personal access codes for these registrations, to print on cards. **The previous codes stop working.**

    Each change is audited (``player.new_code``). ``log_out_tablets`` also ends the tablet sessions opened
    with the old codes (a lost card); by default logged-in tablets stay logged in.
    """
    entries = new_access_codes(registrations)
    save_access_codes(actor, entries, log_out_tablets=log_out_tablets)
    return entries


# -- the codes not handed out yet ---------------------------------------------------------------------------

#: The first sign of a sealed code: the version of the sealing below.
SEALED_V1 = "1."
NONCE_BYTES = 16
TAG_BYTES = 16


def _seal_keys(code_key: bytes) -> tuple[bytes, bytes]:
    """The encryption key and the authentication key derived from a code key (HMAC-SHA256, one label each)."""
    return (hmac.new(code_key, b"access code sealing: encryption", hashlib.sha256).digest(),
            hmac.new(code_key, b"access code sealing: authentication", hashlib.sha256).digest())


def _keystream(key: bytes, nonce: bytes, size: int) -> bytes:
    """HMAC-SHA256 in counter mode: ``size`` bytes that only the key's holder can compute for this nonce."""
    blocks = (hmac.new(key, nonce + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(size // 32 + 1))
    return b"".join(blocks)[:size]


def seal_code(code: str) -> str:
    """The code encrypted and authenticated with the newest code key (encrypt-then-MAC: an HMAC-SHA256 keystream,
    an HMAC-SHA256 tag over nonce and ciphertext), so that the database holds no code in clear."""
    enc, auth = _seal_keys(code_keys()[0])
    nonce = secrets.token_bytes(NONCE_BYTES)
    data = code.encode()
    body = nonce + bytes(a ^ b for a, b in zip(data, _keystream(enc, nonce, len(data)), strict=True))
    tag = hmac.new(auth, body, hashlib.sha256).digest()[:TAG_BYTES]
    return SEALED_V1 + base64.urlsafe_b64encode(body + tag).decode().rstrip("=")


def unseal_code(sealed: str) -> str | None:
    """The code of :func:`seal_code` (any code key: a restore may have added the one that sealed it), or None
    when nothing is sealed, the text was changed or no key of this database sealed it."""
    if not sealed.startswith(SEALED_V1):
        return None
    text = sealed[len(SEALED_V1):]
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return None
    body, tag = raw[:-TAG_BYTES], raw[-TAG_BYTES:]
    if len(body) <= NONCE_BYTES:
        return None
    for key in code_keys():
        enc, auth = _seal_keys(key)
        if hmac.compare_digest(hmac.new(auth, body, hashlib.sha256).digest()[:TAG_BYTES], tag):
            nonce, data = body[:NONCE_BYTES], body[NONCE_BYTES:]
            plain = bytes(a ^ b for a, b in zip(data, _keystream(enc, nonce, len(data)), strict=True))
            return plain.decode(errors="replace")
    return None


def codes_to_hand_out(tournament: Tournament) -> list[tuple[Registration, str]]:
    """The access codes of the tournament not handed out yet (registered, no tablet logged in with them, no card
    printed, not marked handed out), with their registrations, in table order: for its arbiters only."""
    regs = (tournament.registrations.select_related("player").exclude(access_code_sealed="")
            .order_by("table_number"))
    found = []
    for reg in regs:
        code = unseal_code(reg.access_code_sealed)
        if code is not None and reg.check_access_code(code):  # a code replaced since is no code to hand out
            found.append((reg, code))
    return found


def mark_handed_out(actor: audit.Actor, tournament: Tournament, registration_ids: Iterable[int] | None = None
                    ) -> int:
    """The arbiter handed these codes out (None: every code still to hand out): their sealed copies are dropped,
    audited as ``player.code_handed_out`` (the tables, never the codes). Returns how many."""
    with transaction.atomic():
        regs = tournament.registrations.exclude(access_code_sealed="")
        if registration_ids is not None:
            regs = regs.filter(pk__in=list(registration_ids))
        tables = sorted(regs.values_list("table_number", flat=True))
        if not tables:
            return 0
        regs.update(access_code_sealed="")
        audit.record(actor, "player.code_handed_out", tournament, after={"tables": tables}, tournament=tournament)
    return len(tables)


__all__ = ["CODE_ALPHABET", "REPLACED_KEPT", "access_code", "assign_tables", "code_readings", "codes_to_hand_out",
           "issue_access_codes", "issue_tablet_token", "login", "mark_handed_out", "new_access_codes",
           "register_player", "registration_at", "registration_for_token", "save_access_codes", "seal_code",
           "tournament_of_code", "unseal_code"]
