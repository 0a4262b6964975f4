"""The slip's door: ``POST /api/tablet/slip/`` taken by the ASGI application without Django's request cycle, and
written in batches (:mod:`tournament.services.slipbatch`).

A 10,000-player burst brings hundreds of slips a second; through Django each one is a request cycle, a token
look-up, ten statements and a commit. Here the request is read on the event loop, checked for form as the
serializer checks it, and queued; one thread of this process writes what is queued as one batch — one
transaction — while the next batch gathers; each slip is answered when its batch has committed. The answers are
those of Django's view (:class:`tournament.api.tablet.TabletSlip`): 201 with the slip, 200 for a retry, 409 for
a late slip (with the slip) or a key used for another slip, 503 while the database does not answer (the tablet
keeps the slip and sends it again with the same key). Anything this door does not settle — a malformed request,
an unknown token, a word to explain, no round open, a topping round — goes to Django's view untouched, its body
replayed, and is answered there in the player's language.

When the request reached the front door is noted first (:func:`tournament.proxies.door_time`: nginx's request
start from a trusted proxy, else the moment this application received it): a slip sent before the deadline is
not late because the server was busy.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection, connections
from django.utils import translation
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

from .. import proxies
from ..errors import UNAVAILABLE, Code
from ..models import Slip
from ..services import slipbatch, slips
from . import tablet
from .wsgi import security_headers

log = logging.getLogger(__name__)

SLIP_PATH = "/api/tablet/slip/"
#: A slip's body is a few dozen bytes: a larger one goes to Django, which has its own limits.
MOST_BODY = 4096
MOST_KEY = 64  # as the API's Idempotency-Key
WORD_LENGTH = Slip._meta.get_field("word").max_length or 40
COORDINATES_LENGTH = Slip._meta.get_field("coordinates").max_length or 10

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Replay = Callable[[], Any]


def _headers(scope: Scope) -> dict[bytes, bytes]:
    out: dict[bytes, bytes] = {}
    for key, value in scope.get("headers", []):
        out[key] = out[key] + b"," + value if key in out else value
    return out


def _text(value: object, most: int, *, required: bool) -> str | None:
    """A text field as the serializer takes it (trimmed, within its length), or None: Django's to refuse."""
    if value is None and not required:
        return ""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if (required and not text) or len(text) > most or "\x00" in text or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return None
    return text


def _number(value: object, low: int, high: int) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high else None


def incoming(scope: Scope, body: bytes, now: float) -> slipbatch.Incoming | None:
    """The slip of a request this door can take (form checked as the API's serializer does), else None."""
    headers = _headers(scope)
    if b"text/html" in headers.get(b"accept", b"") or not headers.get(b"content-type", b"").startswith(
            b"application/json"):
        return None
    auth = headers.get(b"authorization", b"").split()
    key = headers.get(b"idempotency-key", b"").decode("latin-1").strip()
    if len(auth) != 2 or auth[0].lower() != b"tablet" or not key or len(key) > MOST_KEY or not key.isprintable():
        return None
    try:
        data = json.loads(body)
        token = auth[1].decode("ascii")
    except (ValueError, RecursionError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    word = _text(data.get("word"), WORD_LENGTH, required=True)
    coordinates = _text(data.get("coordinates"), COORDINATES_LENGTH, required=False)
    score = data.get("score")
    if score is not None and (score := _number(score, 0, 10000)) is None:
        return None
    round_id = data.get("round")
    if round_id is not None and (round_id := _number(round_id, -2**63, 2**63 - 1)) is None:
        return None
    if word is None or coordinates is None:
        return None
    meta = {"REMOTE_ADDR": (scope.get("client") or ("", 0))[0], "asgi.scope": scope,
            "HTTP_X_REQUEST_START": headers.get(b"x-request-start", b"").decode("latin-1"),
            "HTTP_X_FORWARDED_FOR": headers.get(b"x-forwarded-for", b"").decode("latin-1")}
    door = proxies.door_time(meta, settings.TRUSTED_PROXIES, now)
    return slipbatch.Incoming(
        token=token, key=key, word=word, coordinates=coordinates, score=score, round_id=round_id,
        door=datetime.fromtimestamp(door, tz=UTC), language=_language(headers),
        address=proxies.client_address(meta, settings.TRUSTED_PROXIES))


def _language(headers: dict[bytes, bytes]) -> str:
    """The answer's language as Django's locale middleware would choose it from ``Accept-Language``."""
    for code, _quality in parse_accept_lang_header(headers.get(b"accept-language", b"").decode("latin-1")):
        if code == "*":
            break
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class Answer:
    """An answer ready to send: status, headers, body."""

    def __init__(self, status: int, body: dict[str, object], language: str, extra: tuple[tuple[str, str], ...] = ()):
        self.status = status
        self.body = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
        self.headers = [("Content-Type", "application/json"), ("Content-Length", str(len(self.body))),
                        ("Vary", "Accept, Accept-Language"), ("Allow", "POST, OPTIONS"),
                        ("Content-Language", language), *extra, *security_headers()]


def answer_of(outcome: slipbatch.Outcome, language: str) -> Answer:
    """The answer Django's view gives for this outcome (messages in ``language``)."""
    with translation.override(language):
        if outcome.conflict:
            return Answer(409, {"detail": slips.key_used_text(), "code": Code.IDEMPOTENCY_CONFLICT.value}, language)
        assert outcome.slip is not None
        slip = dict(tablet.slip_dict(outcome.slip, outcome.zone))
        if outcome.slip.late:
            return Answer(409, {"detail": slips.late_text(),
                                "code": Code.TIME_OVER.value, "slip": slip}, language)
        return Answer(201 if outcome.created else 200, slip, language)


def unavailable(language: str) -> Answer:
    """503 as Django's API answers a database error: nothing was stored, send again with the same key."""
    with translation.override(language):
        return Answer(503, {"detail": str(UNAVAILABLE),
                            "code": "unavailable"}, language, (("Retry-After", "2"),))


def write(items: list[slipbatch.Incoming]) -> list[Answer | None]:
    """One batch, in the door's thread: stored, then answered (None: Django's view answers that slip)."""
    close_old_connections()
    try:
        outcomes = slipbatch.store_batch(items)
    except DatabaseError:
        log.warning("slips: a batch of %s not stored (the tablets send them again)", len(items), exc_info=True)
        connection.close()
        return [unavailable(item.language) for item in items]
    return [None if o is None else answer_of(o, item.language) for o, item in zip(outcomes, items, strict=True)]


class SlipDoor:
    """This process's slip door: a queue the event loop fills and one thread empties, a batch at a time."""

    def __init__(self) -> None:
        self.queue: list[tuple[slipbatch.Incoming, asyncio.Future[Answer | None]]] = []
        self.writing = False
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="slips")
        self.batches = 0
        self.slips = 0
        self.largest = 0

    def close(self) -> None:
        """Closes the door's database connection and its thread (the application's shutdown; tests)."""
        self.executor.submit(connections.close_all).result()
        self.executor.shutdown()

    async def take(self, item: slipbatch.Incoming) -> Answer | None:
        """Queues the slip and waits for its batch to commit; its answer (None: Django's view answers it)."""
        future: asyncio.Future[Answer | None] = asyncio.get_running_loop().create_future()
        self.queue.append((item, future))
        if not self.writing:
            self.writing = True
            asyncio.ensure_future(self._write_all())
        return await future

    async def _write_all(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.queue:
                batch, self.queue = self.queue[:slipbatch.MOST], self.queue[slipbatch.MOST:]
                items = [item for item, _future in batch]
                try:
                    answers = await loop.run_in_executor(self.executor, write, items)
                except Exception:  # never leave a tablet waiting: Django's view takes them one by one
                    log.exception("slips: a batch of %s failed", len(items))
                    answers = [None] * len(items)
                self.batches += 1
                self.slips += len(items)
                self.largest = max(self.largest, len(items))
                for (_item, future), answer in zip(batch, answers, strict=True):
                    if not future.done():
                        future.set_result(answer)
        finally:
            self.writing = False

    async def __call__(self, scope: Scope, receive: Any, send: Any, django: Any) -> None:
        """Takes ``POST /api/tablet/slip/``, or hands it to ``django`` with its body replayed."""
        now = scope.get(proxies.SCOPE_DOOR) or time.time()
        body, more, complete = b"", True, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > MOST_BODY:
                complete = False
                break
        item = incoming(scope, body, now) if complete else None
        answer = await self.take(item) if item is not None else None
        if answer is None:
            await django(scope, _replay(body, more, receive), send)
            return
        await send({"type": "http.response.start", "status": answer.status,
                    "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers]})
        await send({"type": "http.response.body", "body": answer.body})


def _replay(body: bytes, more: bool, receive: Any) -> Any:
    """A ``receive`` that gives the body already read, then what the client still sends."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": more}
        return await receive()

    return again


__all__ = ["MOST_BODY", "SLIP_PATH", "Answer", "SlipDoor", "answer_of", "incoming", "unavailable", "write"]
