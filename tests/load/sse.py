"""Reading Server-Sent Events as the load test's tablets read their streams: by chunks, whole events only."""

from __future__ import annotations


def sse_blocks(buffer: bytes) -> tuple[list[tuple[str, str, int | None]], bytes]:
    """The complete Server-Sent Events blocks in ``buffer`` — (event name, data lines joined, retry ms or None)
    each — and what is left of an incomplete one (the streams here end lines with a line feed)."""
    out: list[tuple[str, str, int | None]] = []
    start = 0
    while True:
        end = buffer.find(b"\n\n", start)
        if end < 0:
            return out, buffer[start:]
        kind, data, retry = "message", [], None
        for raw in buffer[start:end].split(b"\n"):
            line = raw.decode("utf-8", "replace").rstrip("\r")
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "event":
                kind = value
            elif name == "data":
                data.append(value)
            elif name == "retry" and value.isdigit():
                retry = int(value)
        out.append((kind, "\n".join(data), retry))
        start = end + 2


__all__ = ["sse_blocks"]
