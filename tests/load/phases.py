"""The phases of a run that need Django, run in the *load* environment (its database, broker, var dir).

``python -m tests.load.phases setup --io FILE --tablets N --seconds-per-move S --grace G``
    the lexicon, the arbiter (user + password), the tournament, N registrations with their access
    codes and one game, through the product's services → FILE (JSON).
``python -m tests.load.phases check --io FILE``
    FILE holds what the tablets were told (receipts per table) and the paper slips the arbiter typed
    (``paper``: table, key, receipt): compares it with the database → ``FILE.result.json``: every
    acknowledged slip stored exactly once, none lost, no duplicates, verdicts for every registration,
    time from the deadline and from the close to the verdicts, the tablet slips stored per second (``intake``).
``python -m tests.load.phases check-day --io FILE``
    the same for every round of a day (FILE: a list of such logs, :mod:`tests.load.day`) →
    ``FILE.result.json``, a list.

This module sets Django up when it is imported: the caller (:func:`tests.load.stack.phase`) runs it
as a subprocess with the run's environment; the load test's own process never imports it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import secrets
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from lexicon import services as lexicon_services  # noqa: E402
from tests.paths import LEXICONS  # noqa: E402
from tournament.models import Registration, Round, Slip, Verdict  # noqa: E402
from tournament.services import games, players, tournaments  # noqa: E402

SIM_LEXICON = LEXICONS / "sim-ru.txt"
ARBITER_NAME = "load-arbiter"
SLUG = "load"
SEED = 20240601

Row = dict[str, Any]


# -- setup -------------------------------------------------------------------------------------------------


def setup_tournament(tablets: int, *, seconds_per_move: int, grace: int, lexicon_file: Path = SIM_LEXICON
                     ) -> dict[str, Any]:
    """A tournament of ``tablets`` players and one game; the arbiter's login and every access code."""
    lexicon = lexicon_services.import_wordlist("sim-ru", "ru", lexicon_file)
    password = secrets.token_urlsafe(16)
    user = get_user_model().objects.create_user(ARBITER_NAME, password=password)
    t = tournaments.create_tournament(user, name="Load test", slug=SLUG, ruleset="ru", lexicon=lexicon,
                                      arbiters=[user], seconds_per_move=seconds_per_move, grace_seconds=grace)
    codes = {}
    with transaction.atomic():
        for i in range(1, tablets + 1):
            _reg, code = players.register_player(user, t, name=f"Player {i:04d}", club=f"Club {i % 37}",
                                                 table_number=i)
            codes[i] = code
    game = games.create_game(user, t, seed=SEED)
    return {"arbiter": {"username": ARBITER_NAME, "password": password}, "slug": t.slug, "game": game.number,
            "codes": codes, "seconds_per_move": seconds_per_move, "grace": grace}


# -- check -------------------------------------------------------------------------------------------------


def acknowledged(entries: list[Row]) -> list[Row]:
    return [e for e in entries if e.get("slip_id") is not None]


def receipt_failures(tablets: dict[str, list[Row]], regs: dict[int, Registration],
                     by_key: dict[str, list[Row]]) -> tuple[int, int, list[str]]:
    """(lost, mismatched, failures): every receipt a tablet got has its row, with its id and word."""
    lost = wrong = 0
    failures: list[str] = []
    for table, entries in tablets.items():
        reg = regs[int(table)]
        for e in acknowledged(entries):  # a slip never acknowledged may or may not be stored
            rows = by_key.get(f"tablet:{reg.pk}:{e['key']}", [])
            if not rows:
                lost += 1
                failures.append(f"lost: table {table} key {e['key']} receipt {e['slip_id']} has no row")
            elif rows[0]["id"] != e["slip_id"] or rows[0]["word"] != e["word"]:
                wrong += 1
                failures.append(f"mismatch: table {table} key {e['key']} receipt {e['slip_id']} row {rows[0]['id']}")
    return lost, wrong, failures


def paper_failures(paper: list[Row], tournament_id: int, regs: dict[int, Registration],
                   by_key: dict[str, list[Row]]) -> tuple[int, int, list[str]]:
    """(lost, mismatched, failures) of the paper slips the arbiter typed and was acknowledged (the arbiter
    API keeps them under ``arbiter:<tournament>:<key>``)."""
    lost = wrong = 0
    failures: list[str] = []
    for e in acknowledged(paper):
        rows = by_key.get(f"arbiter:{tournament_id}:{e['key']}", [])
        if not rows:
            lost += 1
            failures.append(f"lost: paper slip of table {e['table']} receipt {e['slip_id']} has no row")
        elif rows[0]["id"] != e["slip_id"] or rows[0]["registration_id"] != regs[int(e["table"])].pk:
            wrong += 1
            failures.append(f"mismatch: paper slip of table {e['table']} receipt {e['slip_id']} row {rows[0]['id']}")
    return lost, wrong, failures


def wrong_current(tablets: dict[str, list[Row]], regs: dict[int, Registration], slips: list[Row]) -> int:
    """Tablets whose counted slip is not one they were acknowledged on time (the last one, or when two
    answers crossed, the later *stored* of them)."""
    current = {s["registration_id"]: s for s in slips if s["is_current"]}
    wrong = 0
    for table, entries in tablets.items():
        ontime = [e for e in acknowledged(entries) if not e.get("late")]
        if not ontime:
            continue
        last = max(ontime, key=lambda e: e["acked_at"])
        cur = current.get(regs[int(table)].pk)
        if cur is None or (cur["id"] != last["slip_id"] and cur["id"] not in {e["slip_id"] for e in ontime}):
            wrong += 1
    return wrong


def round_figures(rnd: Round, registrations: int) -> dict[str, Any]:
    """The round's verdicts and times: deadline → verdicts, close → verdicts."""
    def iso(value: Any) -> str | None:
        return value.isoformat() if value else None

    judged = rnd.judged_at
    return {
        "verdicts": Verdict.objects.filter(round=rnd).count(),
        "verdicts_with_slip": Verdict.objects.filter(round=rnd, slip__isnull=False).count(),
        "registrations": registrations, "status": rnd.status, "deadline": iso(rnd.deadline),
        "grace": rnd.grace_seconds, "closed_at": iso(rnd.closed_at), "judged_at": iso(judged),
        "deadline_to_verdicts": (judged - rnd.deadline).total_seconds() if judged and rnd.deadline else None,
        "close_to_verdicts": (judged - rnd.closed_at).total_seconds() if judged and rnd.closed_at else None,
        "solver_status": rnd.solver_status,
    }


def intake(slips: list[Row], deadline: datetime | None) -> dict[str, Any]:
    """How many tablet slips the server stored in each whole second from the deadline (second ``k``: from
    ``k`` to ``k + 1`` s after it, negative before it), by the time each row holds (``received_at``); the most in
    one second and the first second with that many."""
    if deadline is None:
        return {"per_second": [], "peak_per_second": 0, "peak_second": None}
    per_second = Counter(math.floor((s["received_at"] - deadline).total_seconds()) for s in slips
                         if s["source"] == Slip.Source.TABLET)
    peak_second, peak = min(per_second.items(), key=lambda kv: (-kv[1], kv[0])) if per_second else (None, 0)
    return {"per_second": sorted(per_second.items()), "peak_per_second": peak, "peak_second": peak_second}


def database_figures() -> dict[str, Any]:
    """The database the run used; for SQLite its journal mode and ``synchronous`` level as a connection
    opened with the run's settings reads them (0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA)."""
    out: dict[str, Any] = {"vendor": connection.vendor}
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            out["journal_mode"] = cursor.fetchone()[0]
            cursor.execute("PRAGMA synchronous")
            out["synchronous"] = cursor.fetchone()[0]
    return out


def check_run(client_log: dict[str, Any]) -> dict[str, Any]:
    """Compares what the tablets were told with what the database holds."""
    rnd = Round.objects.get(pk=client_log["round"])
    tablets: dict[str, list[Row]] = client_log["tablets"]
    regs = {r.table_number: r for r in Registration.objects.filter(tournament__slug=client_log["slug"])}
    slips: list[Row] = [dict(s) for s in Slip.objects.filter(round=rnd).values(
        "id", "registration_id", "idempotency_key", "word", "is_current", "late", "version", "received_at",
        "source")]
    by_key: dict[str, list[Row]] = defaultdict(list)
    for s in slips:
        by_key[s["idempotency_key"]].append(s)
    lost, wrong, failures = receipt_failures(tablets, regs, by_key)
    paper: list[Row] = client_log.get("paper", [])
    paper_lost, paper_wrong, paper_failed = paper_failures(paper, rnd.game.tournament_id, regs, by_key)
    lost, wrong, failures = lost + paper_lost, wrong + paper_wrong, failures + paper_failed
    duplicated = sum(len(v) - 1 for v in by_key.values() if len(v) > 1)
    sent_keys = {f"tablet:{regs[int(table)].pk}:{e['key']}" for table, es in tablets.items() for e in es}
    sent_keys |= {f"arbiter:{rnd.game.tournament_id}:{e['key']}" for e in paper}
    phantom = [s for s in slips if s["idempotency_key"] not in sent_keys]
    if duplicated:
        failures.append(f"{duplicated} duplicated rows for one idempotency key")
    if phantom:
        failures.append(f"{len(phantom)} slip rows with a key no tablet sent")
    replaced_wrong = wrong_current(tablets, regs, slips)
    if replaced_wrong:
        failures.append(f"{replaced_wrong} tablets whose current slip is not one they were acknowledged")
    figures = round_figures(rnd, len(regs))
    if figures["verdicts"] != len(regs):
        failures.append(f"verdicts: {figures['verdicts']} of {len(regs)} registrations")
    return {
        "slips": len(slips), "keys": len(by_key), "acknowledged": sum(len(acknowledged(es)) for es in tablets.values()),
        "paper": len(acknowledged(paper)),
        "lost": lost, "mismatched": wrong, "duplicated": duplicated, "phantom": len(phantom),
        "late_rows": sum(1 for s in slips if s["late"]), **figures,
        "failures": failures[:50], "failure_count": len(failures), "database": database_figures(),
        "intake": intake(slips, rnd.deadline),
    }


# -- the command line ----------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.load.phases", description=__doc__.split("\n\n")[0])
    parser.add_argument("phase", choices=["setup", "check", "check-day"])
    parser.add_argument("--io", required=True, type=Path, help="the phase's JSON file")
    parser.add_argument("--tablets", type=int, default=1500)
    parser.add_argument("--seconds-per-move", type=int, default=60)
    parser.add_argument("--grace", type=int, default=10)
    o = parser.parse_args(argv)
    if o.phase == "setup":
        data = setup_tournament(o.tablets, seconds_per_move=o.seconds_per_move, grace=o.grace)
        o.io.write_text(json.dumps(data))
    elif o.phase == "check":
        result = check_run(json.loads(o.io.read_text()))
        o.io.with_suffix(".result.json").write_text(json.dumps(result))
    else:
        results = [check_run(log) for log in json.loads(o.io.read_text())]
        o.io.with_suffix(".result.json").write_text(json.dumps(results))


if __name__ == "__main__":
    main()
