"""``manage.py makemessages``: Django's, which also finds the engine's counted templates.

The engine (``scoring``, no Django) marks a template whose words follow a number with
``scoring.messages.ngettext_noop(singular, plural)``: a plural entry of the catalogue, as ``ngettext`` gives.
"""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
