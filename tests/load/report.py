"""The figures of a run and its targets: what the clients measured (:class:`tests.load.tablets.Drive`) and
what the database check found (:func:`tests.load.phases.check_run`), printed as ``python -m tests.load``
prints them, then PASS/FAIL per target."""

from __future__ import annotations

import os
import statistics
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from . import limits
from .limits import is_node
from .tablets import PUBLICATION_CPU_SECONDS, Drive

TARGET_SUBMIT_P95_MS = 300
TARGET_VERDICTS_SECONDS = 5
TARGET_REAL_TIME_SECONDS = 2  # an arbiter's change on every screen (issue 7): the open and the publication

#: Push (issue 16): (open max s, publication max s, slip p95 ms) for 1,500 and for 10,000 tablets; the CPU of the
#: web nodes while nothing changes (share of one core).
PUSH_TARGETS = {1500: (0.5, 0.5, 100), 10000: (1.0, 1.5, 300)}
TARGET_QUIET_CPU = 0.10

#: PRAGMA synchronous's answer → its name.
SQLITE_LEVELS = {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}

Write = Callable[[str], Any]
Figures = dict[str, Any]


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile (nearest rank); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def timeline(drive: Drive, step: float = 5) -> list[Figures]:
    """Requests and p95 latency per ``step`` seconds of the round (0 = the open), per endpoint."""
    origin = drive.open_mono
    if origin is None:
        return []
    to_epoch = time.time() - time.monotonic()
    deadline = (drive.deadline - to_epoch - origin) if drive.deadline else None
    windows: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for ep in ("version", "state", "slip"):
        for t, latency in zip(drive.rec.times.get(ep, []), drive.rec.samples.get(ep, []), strict=True):
            windows[int((t - origin) // step)][ep].append(latency)
    rows = []
    for w in sorted(windows):
        start = w * step
        row: Figures = {"from_s": start, "to_deadline_s": None if deadline is None else round(start - deadline)}
        for ep, lat in windows[w].items():
            row[ep] = {"n": len(lat), "p95_ms": round(1000 * pct(lat, 95))}
        rows.append(row)
    return rows


def endpoint_figures(drive: Drive, span: float) -> dict[str, Figures]:
    """Requests, rate (over the measured span), peak per second and latency percentiles per endpoint."""
    rec = drive.rec
    out = {}
    for ep, lat in sorted(rec.samples.items()):
        times = rec.times[ep]
        inside = [t for t in times if drive.start <= t <= drive.end]
        peak = max(Counter(int(t) for t in times).values()) if times else 0
        out[ep] = {
            "requests": len(lat), "rps": round(len(inside) / span, 1), "peak_rps": peak,
            "p50_ms": round(1000 * pct(lat, 50), 1), "p95_ms": round(1000 * pct(lat, 95), 1),
            "p99_ms": round(1000 * pct(lat, 99), 1), "max_ms": round(1000 * max(lat), 1),
            "mean_ms": round(1000 * statistics.fmean(lat), 1),
        }
    return out


def seen_after(sent: float, saw: dict[int, float]) -> Figures:
    """How long after ``sent`` (epoch) the tablets saw a change: count, p50, p95, max (s)."""
    seen = [t - sent for t in saw.values()]
    return {"tablets": len(seen), "p50_s": round(pct(seen, 50), 2), "p95_s": round(pct(seen, 95), 2),
            "max_s": round(max(seen), 2) if seen else None}


def real_time(drive: Drive) -> Figures:
    """The open → the rack on every tablet; the publication → each player's result on his tablet."""
    out: Figures = {}
    if drive.open_sent is not None:
        out["open_to_tablets"] = seen_after(drive.open_sent, drive.saw_open)
    if drive.publish_sent is not None:
        published = out["publish_to_tablets"] = seen_after(drive.publish_sent, drive.saw_published)
        if drive.publish_seconds is not None:
            polls = seen_after(drive.publish_sent, drive.published_detected)
            published.update(request_s=round(drive.publish_seconds, 2), poll_saw_it_p50_s=polls["p50_s"],
                             poll_saw_it_max_s=polls["max_s"])
    return out


def summarize(drive: Drive) -> Figures:
    """Every figure the clients measured (written with ``--json``)."""
    rec = drive.rec
    span = max(1e-6, drive.end - drive.start)
    out: Figures = {"span_seconds": round(span, 1), "endpoints": endpoint_figures(drive, span)}
    out["outcomes"] = {f"{ep} {o}": n for (ep, o), n in sorted(rec.outcomes.items())}
    out["errors"] = {f"{ep} {o}": n for (ep, o), n in sorted(rec.errors.items())}
    entries = [e for es in drive.log.values() for e in es]
    out["slips_sent"] = len(entries)
    out["slips_acknowledged"] = sum(1 for e in entries if e.get("slip_id") is not None)
    out["slips_late"] = sum(1 for e in entries if e.get("late"))
    out["slips_unacknowledged"] = sum(1 for e in entries if e.get("slip_id") is None)
    out["slip_requests"] = limits.slip_requests(drive)
    out["modes"] = dict(Counter(e["mode"] for e in entries))
    out["in_burst"] = sum(1 for e in entries if drive.deadline and e["sent_at"] >= drive.deadline - drive.o.burst)
    out["login_seconds"] = round(drive.login_seconds, 1)
    out["solve_seconds"] = round(drive.solve_seconds, 2)
    out["timeline"] = timeline(drive)
    out.update(real_time(drive))
    out["polling"] = "version (ETag/304) + state on change" if drive.version_url else "plain GET /api/tablet/state/"
    if drive.o.push:
        out["polling"] = (f"a stream per tablet, version polls every {drive.o.check_poll:g} s as a check"
                          + ("; lean: own state fetched only for a publication" if drive.o.lean else ""))
        gaps = [up - broke for _t, broke, up in drive.reconnects]
        out["push"] = {"events": dict(drive.events), "streams_up_at_end": drive.streams_up,
                       "reconnects": len(gaps), "reconnect_max_s": round(max(gaps), 2) if gaps else None,
                       "reconnect_p50_s": round(pct(gaps, 50), 2) if gaps else None}
    if drive.round_cpu:
        out["round_cpu"] = {"cpu_seconds": {k: round(v, 1) for k, v in drive.round_cpu.items()},
                            "requests": dict(drive.round_requests)}
    if drive.publication_cpu:
        out["publication_cpu"] = {k: round(v, 2) for k, v in drive.publication_cpu.items()}
    if drive.quiet_cpu:
        out["quiet"] = {"seconds": round(drive.quiet_seconds, 1),
                        "cpu_share": {k: round(v, 3) for k, v in drive.quiet_cpu.items()},
                        "requests": dict(drive.quiet_requests)}
    return out


# -- printed -----------------------------------------------------------------------------------------------


def write_endpoints(w: Write, summary: Figures) -> None:
    w(f"{'endpoint':<24}{'requests':>9}{'req/s':>9}{'peak/s':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
      f"{'max ms':>9}")
    for ep, s in summary["endpoints"].items():
        w(f"{ep:<24}{s['requests']:>9}{s['rps']:>9}{s['peak_rps']:>8}{s['p50_ms']:>9}{s['p95_ms']:>9}"
          f"{s['p99_ms']:>9}{s['max_ms']:>9}")


def write_timeline(w: Write, summary: Figures) -> None:
    w("timeline (s from the open; s to the deadline): requests / p95 ms per endpoint")
    for row in summary["timeline"]:
        parts = [f"{ep} {row[ep]['n']}/{row[ep]['p95_ms']}" for ep in ("version", "state", "slip") if ep in row]
        w(f"  {row['from_s']:>6.0f} ({row['to_deadline_s']:>+4}) " + "  ".join(parts))


def write_real_time(w: Write, summary: Figures) -> None:
    for key, what in (("open_to_tablets", "open → the rack on the tablets"),
                      ("publish_to_tablets", "publication → each player's result on his tablet")):
        seen = summary.get(key)
        if not seen:
            continue
        polls = (f" (the arbiter's request itself: {seen['request_s']} s; the polls saw the new version after "
                 f"p50 {seen['poll_saw_it_p50_s']} s, max {seen['poll_saw_it_max_s']} s)" if "request_s" in seen
                 else "")
        w(f"{what}: {seen['tablets']} tablets, p50 {seen['p50_s']} s, p95 {seen['p95_s']} s, "
          f"max {seen['max_s']} s" + polls)


def write_slips(w: Write, o: dict[str, Any], summary: Figures, check: Figures) -> None:
    w("outcomes: " + ", ".join(f"{k}: {v}" for k, v in summary["outcomes"].items()))
    w("errors: " + (", ".join(f"{k}: {v}" for k, v in summary["errors"].items()) or "none"))
    w(f"slips: {summary['slips_sent']} sent ({summary['in_burst']} in the last {o['burst']} s; "
      f"modes {summary['modes']}), {summary['slips_acknowledged']} acknowledged "
      f"({summary['slips_late']} late), {summary['slips_unacknowledged']} never acknowledged")
    w(f"database: {check['slips']} slip rows, {check['lost']} lost, {check['duplicated']} duplicated, "
      f"{check['mismatched']} mismatched, {check['phantom']} phantom, {check['late_rows']} late rows; "
      f"verdicts {check['verdicts']}/{check['registrations']} ({check['verdicts_with_slip']} with a slip); "
      f"round {check['status']}")
    d2v, c2v = check["deadline_to_verdicts"], check["close_to_verdicts"]
    db = check.get("database") or {}
    if db.get("vendor") == "sqlite":
        w(f"SQLite as the run's processes open it: journal_mode={db['journal_mode']}, "
          f"synchronous={SQLITE_LEVELS.get(db['synchronous'], db['synchronous'])}")
    w(f"deadline → all verdicts: {d2v if d2v is None else round(d2v, 2)} s (grace {check['grace']} s); "
      f"close → all verdicts: {c2v if c2v is None else round(c2v, 2)} s")
    for line in check["failures"]:
        w("  ! " + line)


def write_push(w: Write, summary: Figures) -> None:
    push, quiet = summary.get("push"), summary.get("quiet")
    if push:
        w("streams: " + ", ".join(f"{k}: {v}" for k, v in push["events"].items())
          + f"; up at the end: {push['streams_up_at_end']}; reconnected {push['reconnects']}"
          + (f" (p50 {push['reconnect_p50_s']} s, max {push['reconnect_max_s']} s)" if push["reconnects"] else ""))
    if quiet:
        nodes = {k: v for k, v in quiet["cpu_share"].items() if is_node(k)}
        w(f"quiet window ({quiet['seconds']} s, nothing changing): web nodes {100 * sum(nodes.values()):.1f} % of a "
          "core (" + ", ".join(f"{k} {100 * v:.1f} %" for k, v in quiet["cpu_share"].items()) + "); requests "
          + (", ".join(f"{k} {v}" for k, v in quiet["requests"].items() if v) or "none"))


def write_round_cpu(w: Write, summary: Figures) -> None:
    busy = summary.get("round_cpu")
    if busy:
        nodes = sum(v for k, v in busy["cpu_seconds"].items() if is_node(k))
        n = sum(busy["requests"].values())
        w(f"from the draw to the end: web nodes {nodes:.1f} CPU s for {n} requests ({1000 * nodes / max(1, n):.2f} ms "
          "each on average; " + ", ".join(f"{k} {v} s" for k, v in busy["cpu_seconds"].items()) + "; requests "
          + ", ".join(f"{k} {v}" for k, v in busy["requests"].items() if v) + ")")


def write_publication_cpu(w: Write, summary: Figures) -> None:
    cpu = summary.get("publication_cpu")
    if cpu:
        w(f"the publication's first {PUBLICATION_CPU_SECONDS:g} s: {sum(cpu.values()):.2f} CPU s of the machine's "
          f"{PUBLICATION_CPU_SECONDS * (os.cpu_count() or 1):g} (" + ", ".join(f"{k} {v:.2f} s" for k, v in cpu.items())
          + ")")


def reached(summary: Figures, key: str, tablets: int, limit: float = TARGET_REAL_TIME_SECONDS) -> bool:
    seen = summary.get(key) or {}
    latest = seen.get("max_s")
    return seen.get("tablets") == tablets and latest is not None and latest <= limit


def push_targets(o: dict[str, Any], summary: Figures) -> list[tuple[str, bool]]:
    """Issue 16's targets for a run with ``--push``: those of 10,000 tablets from 5,000 on, else of 1,500."""
    size = 10000 if o["tablets"] >= 5000 else 1500
    open_s, publish_s, slip_ms = PUSH_TARGETS[size]
    slip = summary["endpoints"].get("slip", {})
    out = [
        ("every tablet's stream up at the end", (summary.get("push") or {}).get("streams_up_at_end") == o["tablets"]),
        (f"({size:,} tablets) the open reaches every tablet ≤ {open_s} s",
         reached(summary, "open_to_tablets", o["tablets"], open_s)),
        (f"({size:,} tablets) publication → every player's result ≤ {publish_s} s",
         reached(summary, "publish_to_tablets", o["tablets"], publish_s)),
        (f"({size:,} tablets) p95 submissions ≤ {slip_ms} ms", slip.get("p95_ms", 1e9) <= slip_ms),
    ]
    quiet = summary.get("quiet")
    if size == 10000 and quiet:
        share = sum(v for k, v in quiet["cpu_share"].items() if is_node(k))
        out.append((f"web nodes ≤ {100 * TARGET_QUIET_CPU:.0f} % of a core while nothing changes",
                    share <= TARGET_QUIET_CPU))
    if size == 10000:
        out += [(f"({size:,} tablets) {name}", passed) for name, passed in limits.cpu_target(summary)]
    return out


def targets(o: dict[str, Any], summary: Figures, check: Figures) -> list[tuple[str, bool]]:
    """(target, passed) of the run."""
    slip = summary["endpoints"].get("slip", {})
    c2v = check["close_to_verdicts"]
    return [
        ("0 lost", check["lost"] == 0),
        ("0 duplicated", check["duplicated"] == 0 and check["phantom"] == 0 and check["mismatched"] == 0),
        ("every slip acknowledged", summary["slips_unacknowledged"] == 0),
        ("verdicts for every registration", check["verdicts"] == check["registrations"]),
        (f"p95 submissions ≤ {TARGET_SUBMIT_P95_MS} ms", slip.get("p95_ms", 1e9) <= TARGET_SUBMIT_P95_MS),
        (f"verdicts ≤ {TARGET_VERDICTS_SECONDS} s after the close", c2v is not None and c2v <= TARGET_VERDICTS_SECONDS),
        ("no check failure", check["failure_count"] == 0),
        *[(f"the {what} reaches every tablet ≤ {TARGET_REAL_TIME_SECONDS} s", reached(summary, key, o["tablets"]))
          for key, what in (("open_to_tablets", "open"), ("publish_to_tablets", "publication"))],
        *(push_targets(o, summary) if o.get("push") else []),
    ]


def report(w: Write, o: dict[str, Any], summary: Figures, check: Figures) -> bool:
    """Prints the figures and PASS/FAIL per target; True when every target holds."""
    w("")
    nodes = f", {o['nodes']} web nodes behind nginx" if o.get("nodes") else ""
    w(f"Load test{' (embedded: SQLite, the embedded broker)' if o.get('embedded') else ''}{nodes}: {o['tablets']} tablets, poll {o['poll']} s, draw → open {o['announce']} s, "
      f"{o['seconds_per_move']} s per move, burst {o['burst']} s; polling: {summary['polling']}")
    w(f"logins took {summary['login_seconds']} s; solver {summary['solve_seconds']} s; "
      f"measured span {summary['span_seconds']} s")
    write_endpoints(w, summary)
    if o.get("timeline"):
        write_timeline(w, summary)
    write_real_time(w, summary)
    write_push(w, summary)
    write_round_cpu(w, summary)
    write_publication_cpu(w, summary)
    limits.write_cpu_per_slip(w, summary.get("cpu_per_slip"))
    write_slips(w, o, summary, check)
    if summary.get("intake"):
        limits.write_intake(w, summary["intake"], o["burst"])
    results = targets(o, summary, check)
    for name, passed in results:
        w(f"[{'PASS' if passed else 'FAIL'}] {name}")
    return all(p for _, p in results)


def compare(w: Write, runs: list[tuple[str | None, Figures | None]]) -> None:
    """One line per run of ``--sqlite-synchronous L1 L2 …``: the slips' latency, reach, lost/duplicated."""
    w("")
    w(f"{'run':<5}{'synchronous':<13}{'slip p50':>10}{'p95':>8}{'p99':>8}{'max ms':>9}{'open max s':>12}"
      f"{'publ. max s':>13}{'lost':>6}{'dupl.':>7}  targets")
    for i, (level, figures) in enumerate(runs, 1):
        if figures is None:
            w(f"{i:<5}{level or 'FULL':<13}(no figures: the run broke)")
            continue
        slip = figures["summary"]["endpoints"].get("slip", {})
        check = figures["check"]
        reach = [(figures["summary"].get(k) or {}).get("max_s") for k in ("open_to_tablets", "publish_to_tablets")]
        duplicated = check["duplicated"] + check["phantom"] + check["mismatched"]
        w(f"{i:<5}{level or 'FULL':<13}{slip.get('p50_ms', '—'):>10}{slip.get('p95_ms', '—'):>8}"
          f"{slip.get('p99_ms', '—'):>8}{slip.get('max_ms', '—'):>9}{str(reach[0]):>12}{str(reach[1]):>13}"
          f"{check['lost']:>6}{duplicated:>7}  {'PASS' if figures['passed'] else 'FAIL'}")
