"""Players of a tournament: registration, tables, personal access codes and tablet tokens.

An access code is shown once (on screen at registration, or on a printed card) and stored hashed
(:func:`tournament.models.secret_hash`) with a two-letter hint; a tablet proves it once and gets a
token (also stored hashed). Printing cards issues new codes: :func:`new_access_codes` makes them,
:func:`save_access_codes` stores them once the cards are written; the hash of the code a card replaces is
kept (``Registration.replaced_codes``), so a login with the old card is told that it was replaced, in its
hall's language, not that the code is wrong.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from ..errors import Code, ServiceError
from ..models import Player, Registration, Tournament, secret_hash, secret_hashes
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
            access_code_hash=secret_hash(code), access_code_hint=code[:2] + "…",
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
    Registration.objects.filter(pk=registration.pk).update(token_hash=secret_hash(token))
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
                                      "replaced_codes": [*replaced, old][-REPLACED_KEPT:]}
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


__all__ = ["CODE_ALPHABET", "REPLACED_KEPT", "access_code", "assign_tables", "code_readings", "issue_access_codes",
           "issue_tablet_token", "login", "new_access_codes", "register_player", "registration_at",
           "registration_for_token", "save_access_codes", "tournament_of_code"]
