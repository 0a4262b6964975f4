"""Instruction counts of one C function per call, with valgrind's callgrind (``bench_solver --instructions``).

The program runs under ``valgrind --tool=callgrind --collect-atstart=no --toggle-collect=F
--dump-after=F``: only what runs inside ``F`` (callees included) is counted, and a profile is
dumped each time ``F`` returns, so dump *k* holds the instructions of the *k*-th call. Counts do
not depend on the machine's load (unlike times), but they do on the compiler and its flags: a
baseline is only comparable with counts of a build made the same way.

Baseline file (TSV, ``#`` comments): ``set  idx  blanks  instructions`` per position.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["BaselineRow", "callgrind_available", "compare", "count_calls", "read_baseline", "total_and_inside",
           "write_baseline"]

#: (set, idx, blanks, instructions)
BaselineRow = tuple[str, int, int, int]

_TOTALS = re.compile(rb"^(?:totals|summary):\s*(\d+)", re.MULTILINE)


def callgrind_available() -> bool:
    return shutil.which("valgrind") is not None


def _run(argv: Sequence[str], tmp: Path, options: Sequence[str], *, env: dict[str, str] | None,
         timeout: float | None) -> tuple[Path, str]:
    """Run ``argv`` under callgrind with ``options``, its profile(s) written into ``tmp``: the profile's path and
    the program's stdout. RuntimeError when valgrind or the program fails."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise RuntimeError("valgrind is not installed")
    out = tmp / "cg.out"
    cmd = [valgrind, "--tool=callgrind", *options, "--dump-instr=no", f"--callgrind-out-file={out}",
           "--log-file=" + str(tmp / "valgrind.log"), *argv]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env or dict(os.environ), timeout=timeout)
    if proc.returncode != 0:
        log = (tmp / "valgrind.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"the program failed under callgrind ({proc.returncode}): {proc.stderr[-2000:]}{log}")
    return out, proc.stdout


def count_calls(argv: Sequence[str], function: str, *, env: dict[str, str] | None = None,
                timeout: float | None = None) -> tuple[list[int], str]:
    """Run ``argv`` under callgrind; the instructions of each call of ``function``, in call
    order, and the program's stdout. RuntimeError when valgrind or the program fails."""
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        options = ["--collect-atstart=no", f"--toggle-collect={function}", f"--dump-after={function}",
                   "--compress-strings=no"]
        _out, stdout = _run(argv, Path(tmp), options, env=env, timeout=timeout)
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
        counts = []
        for dump in dumps:
            match = _TOTALS.search(dump.read_bytes())
            counts.append(int(match.group(1)) if match else 0)
        return counts, stdout


def total_and_inside(argv: Sequence[str], function: str, *, timeout: float | None = None) -> tuple[int, int]:
    """Run ``argv`` under callgrind counting everything: (the program's instructions, those inside
    ``function``, callees included). RuntimeError when valgrind, the program or the annotation fails."""
    annotate = shutil.which("callgrind_annotate")
    if annotate is None:
        raise RuntimeError("callgrind_annotate is not installed (valgrind)")
    with tempfile.TemporaryDirectory(prefix="callgrind-") as tmp:
        # one hash seed: the two runs compared then differ only by what they do, not by their dicts' layout
        out, _stdout = _run(argv, Path(tmp), [], env={**os.environ, "PYTHONHASHSEED": "0"}, timeout=timeout)
        text = subprocess.run([annotate, "--inclusive=yes", "--threshold=100", str(out)], capture_output=True,
                              text=True, timeout=timeout, check=True).stdout
    total = inside = None
    for line in text.splitlines():
        match = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$", line)
        if not match:
            continue
        count = int(match.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in match.group(2):
            total = count
        elif inside is None and re.search(rf":{re.escape(function)}(?:'\d+)? ", match.group(2) + " "):
            inside = count
    if total is None or inside is None:
        raise RuntimeError(f"callgrind_annotate gave no total or no {function}")
    return total, inside


def read_baseline(path: Path) -> list[BaselineRow]:
    """The rows of a baseline file (none when it does not exist)."""
    if not path.is_file():
        return []
    rows: list[BaselineRow] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, idx, blanks, count = line.split("\t")
        rows.append((name, int(idx), int(blanks), int(count)))
    return rows


def write_baseline(path: Path, name: str, rows: Iterable[BaselineRow], header: str) -> None:
    """Replace the rows of set ``name`` in the baseline file (the other sets' rows are kept)."""
    kept = [r for r in read_baseline(path) if r[0] != name]
    every = sorted([*kept, *rows], key=lambda r: (r[0], r[1]))
    lines = [f"# {line}" for line in header.splitlines()]
    lines += ["\t".join(str(v) for v in row) for row in every]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def compare(baseline: Iterable[BaselineRow], name: str, counts: dict[int, int]) -> tuple[int, int] | None:
    """(baseline total, current total) over the positions of set ``name`` in both, or None."""
    base = {idx: count for set_name, idx, _, count in baseline if set_name == name}
    common = [idx for idx in counts if idx in base]
    if not common:
        return None
    return sum(base[i] for i in common), sum(counts[i] for i in common)
