"""The host names a request may carry (Django's ``ALLOWED_HOSTS``) when the operator names none
(``DJANGO_ALLOWED_HOSTS`` unset): this machine itself (``localhost``, its loopback addresses) and its addresses
on the hall's network — the address the access cards' QR codes and the print page give the tablets
(:func:`tournament.web.address.probed_address`). That one is looked up again every few seconds, so a laptop that
joins the hall's network after the server started serves the tablets that reach it there. A request naming any
other host is refused (400), as Django does for hosts outside the list.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterable, Iterator

from tournament.web.address import probed_address, usable

#: Seconds an answer of the machine's addresses is kept before they are looked up again.
REFRESH_SECONDS = 5.0


def named_addresses() -> tuple[str, ...]:
    """This machine's host name (and its ``.local`` name) and the usable addresses the name resolves to (IPv6 in
    brackets, as in a Host header). Looked up once per process: a name lookup may wait on a DNS server."""
    name = socket.gethostname().lower()
    if not name:
        return ()
    found = [name, f"{name}.local"]
    try:
        infos = socket.getaddrinfo(name, None, 0, socket.SOCK_STREAM)
    except OSError:
        infos = []
    for info in infos:
        addr = str(info[4][0]).split("%")[0]
        if usable(addr):
            found.append(f"[{addr}]" if ":" in addr else addr)
    return tuple(dict.fromkeys(found))


class MachineHosts(list[str]):
    """A host list that also holds this machine's names (:func:`named_addresses`, once) and its current address
    on its network (:func:`tournament.web.address.probed_address`: a UDP probe, nothing sent, looked up again
    every :data:`REFRESH_SECONDS` when Django reads the list)."""

    def __init__(self, fixed: Iterable[str]) -> None:
        super().__init__(fixed)
        self._named: tuple[str, ...] | None = None
        self._found: str | None = None
        self._at = float("-inf")
        self._lock = threading.Lock()

    def machine(self) -> tuple[str, ...]:
        now = time.monotonic()
        if self._named is None or now - self._at > REFRESH_SECONDS:
            with self._lock:
                if self._named is None:
                    self._named = named_addresses()
                if now - self._at > REFRESH_SECONDS:
                    self._found = probed_address()
                    self._at = now
        return ((self._found,) if self._found else ()) + (self._named or ())

    def __iter__(self) -> Iterator[str]:
        yield from super().__iter__()
        yield from self.machine()

    def __contains__(self, host: object) -> bool:
        return any(host == item for item in self)

    def __bool__(self) -> bool:
        return True


__all__ = ["REFRESH_SECONDS", "MachineHosts", "named_addresses"]
