"""Tournaments: creation and settings."""

from __future__ import annotations

from typing import Any

from django.db import transaction

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
        raise ServiceError(Code.LEXICON_RULESET,
                           f"the lexicon {lexicon.label} is for the {lexicon.ruleset} rule set, not {ruleset}")
    if not lexicon.is_ready:
        raise ServiceError(Code.LEXICON_NOT_READY, f"the lexicon {lexicon.label} is not ready ({lexicon.status})")
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(Code.SLUG_TAKEN, f"a tournament with the slug {slug!r} exists")
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


__all__ = ["create_tournament", "update_tournament"]
