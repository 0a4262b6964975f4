"""The lexicon pages inside the console: which tournament the arbiter comes from (``LEXICON_ARBITER_PAGE``).

``?tournament=<slug>`` on the links of a tournament's pages, else the tournament last opened in the arbiter's session;
only a tournament the user arbitrates. Its lexicon is the word check's default, its language the page's
unless the reader chose one (the language switch's cookie), its time zone the one of the times shown.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest

from lexicon.pages import ArbiterPage

from .access import LAST_TOURNAMENT, arbiter_tournaments, remember_tournament


def arbiter_page(request: HttpRequest) -> ArbiterPage:
    """The tournament around a lexicon page, its lexicon and language (an empty page when there is none)."""
    asked = request.GET.get("tournament", "")
    session = getattr(request, "session", None)
    slug = asked or (session.get(LAST_TOURNAMENT, "") if session is not None else "")
    if not slug:
        return ArbiterPage()
    tournament = arbiter_tournaments(request.user).filter(slug=slug).first()
    if tournament is None:
        return ArbiterPage()
    remember_tournament(request, tournament)
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) in dict(settings.LANGUAGES)
    return ArbiterPage(tournament=tournament, lexicon_id=tournament.lexicon_id,
                       language=None if chosen else tournament.language, time_zone=tournament.time_zone)


__all__ = ["arbiter_page"]
