"""Tournaments: creation and settings."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from lexicon.models import Lexicon

from .. import labels
from ..errors import Code, ServiceError
from ..models import Tournament
from . import audit


@transaction.atomic
def create_tournament(actor: audit.Actor, *, name: str, slug: str, ruleset: str, lexicon: Lexicon,
                      **options: Any) -> Tournament:
    """A new tournament over a ready lexicon of its rule set; ``arbiters`` (users) may be given."""
    if lexicon.ruleset != ruleset:
        raise ServiceError(Code.LEXICON_RULESET, _("the lexicon %(lexicon)s is for the %(lexicon_ruleset)s rule set, "
                                                   "not %(ruleset)s") % {
            "lexicon": lexicon.label, "lexicon_ruleset": lexicon.ruleset, "ruleset": ruleset})
    if not lexicon.is_ready:
        raise ServiceError(Code.LEXICON_NOT_READY, _("the lexicon %(lexicon)s is not ready (%(status)s)") % {
            "lexicon": lexicon.label, "status": lexicon.get_status_display()})
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(Code.SLUG_TAKEN, _("a tournament with the short name «%(slug)s» exists") % {"slug": slug})
    arbiters = options.pop("arbiters", [])
    if not options.get("coordinate_script"):
        options["coordinate_script"] = labels.default_script(ruleset, options.get("language", Tournament.Language.RU))
    t = Tournament.objects.create(name=name, slug=slug, ruleset=ruleset, lexicon=lexicon, **options)
    if arbiters:
        t.arbiters.set(arbiters)
    audit.record(actor, "tournament.create", t, after={"name": name, "ruleset": ruleset, "lexicon": lexicon.label},
                 tournament=t)
    return t


@transaction.atomic
def update_tournament(actor: audit.Actor, tournament: Tournament, changes: dict[str, Any]) -> Tournament:
    """Saves changed settings (already validated by the caller's form); audited with the new values."""
    if not changes:
        return tournament
    for name, value in changes.items():
        setattr(tournament, name, value)
    tournament.save(update_fields=list(changes))
    audit.record(actor, "tournament.update", tournament, after={k: str(v) for k, v in changes.items()},
                 tournament=tournament)
    return tournament


# -- short names (slugs) ------------------------------------------------------------------------------------

#: Letters read the same way in Ukrainian and Russian (the national romanisations, simplified).
_COMMON = dict(zip("абвдезклмнопрстуфь", ["a", "b", "v", "d", "e", "z", "k", "l", "m", "n", "o", "p", "r", "s",
                                          "t", "u", "f", ""], strict=True)) | {
    "ж": "zh", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "’": "", "'": "", "ʼ": ""}
UKRAINIAN = _COMMON | {"г": "h", "ґ": "g", "и": "y", "і": "i", "ї": "i", "й": "i", "є": "ie", "ю": "iu", "я": "ia"}
#: Ukrainian letters written otherwise at the start of a word.
UKRAINIAN_FIRST = {"ї": "yi", "й": "y", "є": "ye", "ю": "yu", "я": "ya"}
RUSSIAN = _COMMON | {"г": "g", "и": "i", "й": "y", "ы": "y", "э": "e", "ё": "yo", "ю": "yu", "я": "ya", "ъ": "",
                     "і": "i", "ї": "yi", "є": "ye", "ґ": "g"}
#: Letters that NFKD does not take apart (Polish, German, Scandinavian, French ligatures).
OTHER = {"ł": "l", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ı": "i"}
UKRAINIAN_ONLY, RUSSIAN_ONLY = set("іїєґ"), set("ыэёъ")


def transliterate(text: str, language: str = "") -> str:
    """Cyrillic (Ukrainian or Russian: told by their own letters, else by ``language``) and other letters
    to Latin ones, the case kept on the first letter: "Кубок Полтави" → "Kubok Poltavy"."""
    lower = set(text.lower())
    ukrainian = bool(lower & UKRAINIAN_ONLY) or (language == "uk" and not lower & RUSSIAN_ONLY)
    table = UKRAINIAN if ukrainian else RUSSIAN
    out = []
    for i, ch in enumerate(text):
        low = ch.lower()
        first = i == 0 or not text[i - 1].isalpha()
        latin = (UKRAINIAN_FIRST.get(low) if ukrainian and first else None) or table.get(low, OTHER.get(low))
        if latin is None:
            out.append(ch)
        else:
            out.append(latin.capitalize() if ch != low and latin else latin)
    return "".join(out)


def short_name(name: str, language: str = "") -> str:
    """The short name (slug) made from a tournament's name: Latin letters, digits and dashes."""
    slug = slugify(transliterate(name, language), allow_unicode=False)
    return re.sub(r"-{2,}", "-", slug)[:70].strip("-")


def free_short_name(slug: str, exclude_pk: int | None = None) -> str:
    """``slug`` if no other tournament has it, else ``slug-2``, ``slug-3``…"""
    others = Tournament.objects.all() if exclude_pk is None else Tournament.objects.exclude(pk=exclude_pk)
    taken = set(others.filter(slug__startswith=slug).values_list("slug", flat=True))
    n, candidate = 1, slug
    while candidate in taken:
        n += 1
        candidate = f"{slug}-{n}"
    return candidate


__all__ = ["create_tournament", "free_short_name", "short_name", "transliterate", "update_tournament"]
