"""The new-tournament form's offer to build a missing lexicon from an installed package (``uk`` from
pymorphy3-dicts-uk): the rule sets without a ready lexicon, the build started on the worker, its progress."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.urls import reverse

from lexicon import sources
from lexicon import tasks as lexicon_tasks
from lexicon.models import Lexicon
from scoring.rules import RULESET_NAMES


@dataclass(frozen=True)
class Offer:
    """A rule set without a ready lexicon whose installed package builds one."""

    source: str  # the key of lexicon.sources.PACKAGE_SOURCES, e.g. "uk"
    ruleset: str
    ruleset_name: str  # "uk — Українська", as the rule set field says it
    package: str  # "pymorphy3-dicts-uk 2.4.1.1.1663094765 (pymorphy3 2.0.6)"
    status_url: str  # the build's progress (JSON) while one waits or runs, else ""


def package_installed(source: str) -> bool:
    """Whether the pymorphy3 dictionary package of ``source`` is installed (``ru``: -ru, ``uk``: -uk)."""
    lang = "uk" if source == "uk" else "ru"
    return sources.package_version(f"pymorphy3-dicts-{lang}") != "not installed"


def lexicon_offers() -> list[Offer]:
    """The rule sets of an installed package (one source each, named after it) that have no ready lexicon yet."""
    ready = set(Lexicon.objects.filter(status=Lexicon.Status.READY).values_list("ruleset", flat=True))
    offers = []
    for source, (ruleset, _text) in sources.PACKAGE_SOURCES.items():
        if source != ruleset or ruleset in ready or not package_installed(source):
            continue
        row = lexicon_tasks.building(source)
        offers.append(Offer(source=source, ruleset=ruleset, ruleset_name=f"{ruleset} — {RULESET_NAMES[ruleset]}",
                            package=sources.describe_package_source(source),
                            status_url=reverse("lexicon:status", args=[row.pk]) if row else ""))
    return offers


def may_build(user: User | AnonymousUser) -> bool:
    """Adding a lexicon is for staff members (as on the lexicon upload page)."""
    return bool(user.is_active and user.is_staff)


def start(user: User | AnonymousUser, source: str) -> Lexicon | None:
    """Starts the build of an offered source (the one under way when there is one); None when ``source`` is not
    offered or the user may not build."""
    if not may_build(user) or source not in {offer.source for offer in lexicon_offers()}:
        return None
    return lexicon_tasks.start_package_build(source, user if isinstance(user, User) else None)


__all__ = ["Offer", "lexicon_offers", "may_build", "package_installed", "start"]
