"""The ASGI application: the screens' streams (``/live/stream/<slug>/``, :mod:`tournament.live.stream`) served
here, and so are the version polls the version-poll layer answers from the process's memo (no thread hop) and
the tablets' slips (read here, written in batches by one thread: :mod:`tournament.live.slipdoor`); every other
request goes to the WSGI application (Django behind that layer) in a thread pool.

``manage.py serve --push`` runs it with uvicorn; behind nginx with several web nodes each node runs it (see
docs/en/developer/realtime.md). ``STREAM_WSGI_THREADS`` threads serve the WSGI requests of one process.
"""

import os
from typing import Any, cast

from a2wsgi import WSGIMiddleware

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")

from tournament.wsgi import application as wsgi_application  # noqa: E402, I001  (sets Django up first)
from django.conf import settings  # noqa: E402

from tournament import collector  # noqa: E402
from tournament.live.slipdoor import SlipDoor  # noqa: E402
from tournament.live.stream import StreamApp  # noqa: E402

# (a2wsgi's own protocol types: the same WSGI and ASGI callables under other names)
_django = WSGIMiddleware(cast(Any, wsgi_application), workers=int(os.environ.get("STREAM_WSGI_THREADS", "8")))
application = StreamApp(cast(Any, _django), fast=wsgi_application,
                        door=SlipDoor() if settings.SLIP_BATCHES else None)

collector.settle()  # the modules loaded above out of every collection; fewer, larger young collections
