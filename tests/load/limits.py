"""What the machine's limit is made of (issue 37 §4): the CPU a slip costs the whole stack, and the most slips
the server took in one second.

*CPU per slip*: the CPU seconds of every process of the stack from the draw to the end of the round (the web nodes,
nginx, PostgreSQL, Redis, the Celery worker and the load generator itself: :meth:`tests.load.stack.Stack.cpu_seconds`
and :meth:`~tests.load.stack.Stack.beside_cpu_seconds`, read by :class:`tests.load.tablets.Drive` at the draw and
at the end) divided by the slip requests the server answered (an HTTP status came back: 201, 200 and 409 alike;
the simulated aborts whose answer the tablet did not wait for are not counted) — and, beside it, by the slip rows
stored. Everything else the round costs (the draw, the open, the version polls, the verdicts, the publication) is
in it: it is the whole machine's price of a round, per slip.

*Slips per second*: the database's ``received_at`` of the round's tablet slips grouped by whole second from the
deadline (:func:`tests.load.phases.intake`), and beside it the tablets' acknowledgements (when each answer came
back) grouped the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .tablets import Drive

Write = Callable[[str], Any]
Figures = dict[str, Any]

#: Issue 37: the CPU of a slip across the whole stack, at 10,000 tablets (ms).
TARGET_CPU_PER_SLIP_MS = 1.0

#: The groups of processes a slip's CPU is told by, in the order printed: (key, name).
GROUPS = (("nodes", "nodes"), ("web", "web server"), ("postgres", "PostgreSQL"), ("nginx", "nginx"),
          ("generator", "generator"), ("worker", "Celery"), ("redis", "Redis"))


def is_node(name: str) -> bool:
    """A web node's figure (``web`` or ``node1``…), not nginx's or the processes beside them."""
    return name == "web" or name.startswith("node")


def slip_requests(drive: Drive) -> Figures:
    """The slip requests sent and answered (an HTTP status came back), and the tablets' acknowledgements per
    whole second from the deadline: the most in one second and that second."""
    sent = answered = 0
    for (endpoint, outcome), n in drive.rec.outcomes.items():
        if endpoint.startswith("slip"):
            sent += n
            answered += n if outcome.isdigit() else 0
    acked: dict[int, int] = {}
    if drive.deadline is not None:
        for entries in drive.log.values():
            for e in entries:
                if e.get("acked_at") is not None:
                    second = math.floor(e["acked_at"] - drive.deadline)
                    acked[second] = acked.get(second, 0) + 1
    peak_second, peak = min(acked.items(), key=lambda kv: (-kv[1], kv[0])) if acked else (None, 0)
    return {"sent": sent, "answered": answered, "acked_peak_per_second": peak, "acked_peak_second": peak_second}


def cpu_per_slip(cpu_seconds: dict[str, float], answered: int, stored: int) -> Figures | None:
    """The stack's CPU from the draw to the end per slip answered (ms), whole and per group of processes; per
    slip row stored too. None when the CPU was not measured or no slip was answered."""
    if not cpu_seconds or answered <= 0:
        return None
    groups: dict[str, float] = {}
    for name, seconds in cpu_seconds.items():
        key = "nodes" if name.startswith("node") else name  # the web nodes behind nginx together
        groups[key] = groups.get(key, 0.0) + seconds
    total = sum(groups.values())
    return {
        "requests_answered": answered, "slips_stored": stored, "cpu_seconds": round(total, 2),
        "whole_stack_ms": round(1000 * total / answered, 3),
        "without_generator_ms": round(1000 * (total - groups.get("generator", 0.0)) / answered, 3),
        "per_group_ms": {k: round(1000 * v / answered, 3) for k, v in groups.items()},
        "per_stored_slip_ms": round(1000 * total / stored, 3) if stored else None,
        "processes_cpu_seconds": {k: round(v, 2) for k, v in cpu_seconds.items()},
    }


def write_cpu_per_slip(w: Write, figures: Figures | None) -> None:
    if not figures:
        return
    per = figures["per_group_ms"]
    names = dict(GROUPS)
    order = [k for k, _ in GROUPS if k in per] + sorted(k for k in per if k not in names)
    stored = figures["per_stored_slip_ms"]
    w(f"CPU per slip: whole stack {figures['whole_stack_ms']:.2f} ms ("
      + ", ".join(f"{names.get(k, k)} {per[k]:.2f} ms" for k in order)
      + f"; without the generator {figures['without_generator_ms']:.2f} ms) — {figures['cpu_seconds']:.1f} CPU s "
      f"from the draw to the end / {figures['requests_answered']:,} slip requests answered; "
      + (f"{stored:.2f} ms per slip stored ({figures['slips_stored']:,} rows)" if stored is not None
         else "no slip stored"))


def seconds_to_deadline(second: int | None) -> str:
    """The whole second ``second`` from the deadline, in words: "from −3 s to −2 s"."""
    if second is None:
        return "—"
    return f"{second:+d} s to {second + 1:+d} s from the deadline".replace("-", "−")


def intake_figures(check: Figures, requests: Figures | None, burst: float) -> Figures:
    """The server's most slips in one second and its mean over the burst, beside the tablets' acknowledgements."""
    intake = check.get("intake") or {}
    per_second = intake.get("per_second") or []
    in_burst = sum(n for s, n in per_second if -burst <= s < 0)
    out = {"peak_per_second": intake.get("peak_per_second", 0), "peak_second": intake.get("peak_second"),
           "burst_mean_per_second": round(in_burst / burst, 1) if burst > 0 else None}
    if requests:
        out.update(acked_peak_per_second=requests["acked_peak_per_second"],
                   acked_peak_second=requests["acked_peak_second"])
    return out


def write_intake(w: Write, figures: Figures, burst: float) -> None:
    acked = (f"; the server took (acknowledged at the tablets) at most {figures['acked_peak_per_second']} in one "
             f"second ({seconds_to_deadline(figures['acked_peak_second'])})" if "acked_peak_per_second" in figures
             else "")
    # a slip stores when its request reached the front door: its received_at counts arrivals, not the intake
    w(f"slips that reached the door (stored, by received_at): at most {figures['peak_per_second']} in one second "
      f"({seconds_to_deadline(figures['peak_second'])}), {figures['burst_mean_per_second']} a second on average "
      f"over the last {burst:g} s before the deadline" + acked)


def cpu_target(summary: Figures) -> list[tuple[str, bool]]:
    """Issue 37's target on the CPU per slip (for the 10,000-tablet runs: below, the round's fixed costs — the
    draw, the open and the publication to every tablet — weigh on few slips)."""
    figures = summary.get("cpu_per_slip")
    if not figures:
        return [(f"CPU per slip, whole stack ≤ {TARGET_CPU_PER_SLIP_MS:g} ms (not measured)", False)]
    return [(f"CPU per slip, whole stack ≤ {TARGET_CPU_PER_SLIP_MS:g} ms",
             figures["whole_stack_ms"] <= TARGET_CPU_PER_SLIP_MS)]


def complete(summary: Figures, drive: Drive, check: Figures, burst: float) -> None:
    """Adds the CPU per slip (``cpu_per_slip``, None when the CPU was not measured) and the slips per second
    (``intake``) to the run's figures: they need the database's count of slips (``check``)."""
    requests = summary.get("slip_requests") or slip_requests(drive)
    summary["cpu_per_slip"] = cpu_per_slip(drive.round_cpu, requests["answered"], int(check.get("slips") or 0))
    summary["intake"] = intake_figures(check, requests, burst)
