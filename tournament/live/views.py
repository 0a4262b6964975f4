"""The version poll: ``GET /tablet/version/<slug>/`` and ``/display/<slug>/version/``.

No authentication and, most of the time, no query: ``{"version", "server_time", "round"}`` with the
version as ETag, a ``304`` when ``If-None-Match`` names it. ``round`` is what the projector shows of the
latest round (no rack before the open, never the top): when a round opens a tablet shows the rack and
starts the clock from this answer, without a request of its own. The WSGI layer
(:mod:`tournament.live.wsgi`) answers the same way before Django when it can.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.views.decorators.http import require_GET

from . import version


@require_GET
def state_version(request: HttpRequest, slug: str) -> HttpResponseBase:
    current, rnd = version.screen_state(version.tournament_id_for(slug))
    etag = version.etag_of(current)
    if version.not_modified(request, etag):
        return version.stamp(HttpResponseNotModified(), etag)
    return version.stamp(HttpResponse(version.version_body(current, rnd), content_type="application/json"), etag)


state_version.shows_no_time = True  # type: ignore[attr-defined]  # no time zone query (web.timezone)
