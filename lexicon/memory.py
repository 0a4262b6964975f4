"""Memory figures of this process (Linux ``/proc``; ``getrusage`` elsewhere): the lexicon build reports
its peak, the benches print it. No Django."""

from __future__ import annotations

import resource


def reset_peak_rss() -> bool:
    """Resets the kernel's high-water mark of this process's RSS (Linux); False if not possible."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_mb(field: str) -> float:
    """VmRSS / VmHWM of this process in MB (ru_maxrss as a fallback for the peak)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def peak_rss_mb(exact: bool) -> float:
    """The peak RSS since :func:`reset_peak_rss` (``exact``), else since the process started."""
    return round(rss_mb("VmHWM") if exact else rss_mb("ru_maxrss"), 1)


__all__ = ["peak_rss_mb", "reset_peak_rss", "rss_mb"]
