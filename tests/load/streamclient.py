"""The load test's tablets' streams read by a plain asyncio protocol: the HTTP answer's head, its chunked body and
its Server-Sent Events parsed in the protocol's ``data_received``, without an HTTP client library.

Ten thousand simulated tablets share the server's two cores, and what the generator spends on an event is taken
from the nodes sending the next ones: in a 10,000-tablet publication's first 3 s the generator spends 1.1 CPU s
with this reader, 1.45–1.55 s with aiohttp's client (its response parser, its stream reader, a task woken per
chunk; `python -m tests.load --push --nodes 2 --tablets 10000`, 2026-11-29). A browser reads its stream on its
own device; here the reader is what the generator costs the machine, so it is kept to what a stream needs —
every event is still read whole and handed over (the tablets parse its JSON). Only what the hall's server
answers is read: a status line, headers, a chunked or a plain body.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import cast

from .sse import sse_blocks

#: (event name, data, retry ms or None) — one Server-Sent Event
OnEvent = Callable[[str, str, "int | None"], None]


class StreamProtocol(asyncio.Protocol):
    """One stream: sends the request, reads the answer's status, then each event of its body (``on_event``)."""

    def __init__(self, request: bytes, on_event: OnEvent, ended: asyncio.Future[int | None],
                 on_status: Callable[[int], None] | None = None) -> None:
        self.request, self.on_event, self.ended, self.on_status = request, on_event, ended, on_status
        self.transport: asyncio.Transport | None = None
        self.buffer = b""  # bytes of the head, or of the chunked body not yet taken apart
        self.events = b""  # the body's bytes not yet a whole event
        self.status: int | None = None
        self.chunked = False
        self.chunk_left = 0  # bytes of the current chunk still to come (its data, then its CRLF)
        self.last_data = time.monotonic()
        self.timed_out = False  # closed by the watchdog

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's transports are not asyncio's classes
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        self.last_data = time.monotonic()
        if self.status is None:
            self.buffer += data
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            head, data, self.buffer = self.buffer[:head_end], self.buffer[head_end + 4:], b""
            lines = head.split(b"\r\n")
            parts = lines[0].split(b" ", 2)
            self.status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            self.chunked = any(line.lower().replace(b" ", b"") == b"transfer-encoding:chunked" for line in lines[1:])
            if self.on_status is not None:
                self.on_status(self.status)
            if self.status != 200:
                self.close()
                return
        self.body(data)

    def body(self, data: bytes) -> None:
        if not self.chunked:
            self.take(data)
            return
        buffer, taken = self.buffer + data, list[bytes]()
        at = 0
        while at < len(buffer):
            if self.chunk_left == 0:  # a chunk's size line
                line_end = buffer.find(b"\r\n", at)
                if line_end < 0:
                    break
                size = int(buffer[at:line_end].split(b";", 1)[0] or b"0", 16)
                at = line_end + 2
                if size == 0:  # the last chunk: the server ended the stream (after what came before it)
                    self.take(b"".join(taken))
                    self.close()
                    return
                self.chunk_left = size + 2
            piece = buffer[at:at + self.chunk_left]
            at += len(piece)
            self.chunk_left -= len(piece)
            taken.append(piece[:len(piece) - max(0, 2 - self.chunk_left)])  # the chunk's CRLF is not data
        self.buffer = buffer[at:]
        if taken:
            self.take(b"".join(taken))

    def take(self, data: bytes) -> None:
        blocks, self.events = sse_blocks(self.events + data)
        for kind, text, retry in blocks:
            self.on_event(kind, text, retry)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ended.done():
            if exc is not None and self.status is None:
                self.ended.set_exception(exc)
            else:
                self.ended.set_result(self.status)


class Watchdog:
    """Every open stream's last data, checked every few seconds: a stream silent for ``seconds`` is closed (the
    tablet's watchdog, stream.js: pings come every 30 s) — one timer for all of them, none per event."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.open: set[StreamProtocol] = set()
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        while True:
            await asyncio.sleep(min(5.0, self.seconds / 4))
            now = time.monotonic()
            for stream in [s for s in self.open if now - s.last_data > self.seconds]:
                stream.timed_out = True
                stream.close()

    def watch(self, stream: StreamProtocol) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self.run())
        self.open.add(stream)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


async def read_stream(host: str, port: int, path: str, headers: dict[str, str], on_event: OnEvent,
                      watchdog: Watchdog, on_status: Callable[[int], None] | None = None,
                      connect_timeout: float = 10) -> int | None:
    """Opens the stream and reads it to its end: its HTTP status (None: no answer). Raises what broke it
    (``TimeoutError`` for a silent stream or a connection not made, ``OSError`` for a refused or reset one)."""
    loop = asyncio.get_running_loop()
    ended: asyncio.Future[int | None] = loop.create_future()
    request = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n"
               + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n").encode()
    transport, stream = await asyncio.wait_for(
        loop.create_connection(lambda: StreamProtocol(request, on_event, ended, on_status), host, port), connect_timeout)
    watchdog.watch(stream)
    try:
        status = await ended
    finally:
        watchdog.open.discard(stream)
        transport.close()
    if stream.timed_out:
        raise TimeoutError("the stream was silent")
    return status


__all__ = ["OnEvent", "StreamProtocol", "Watchdog", "read_stream"]
