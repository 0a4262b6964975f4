"""The training pages' forms: an imported record, a player's name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from lexicon.models import Lexicon

from ..models import Tournament


class ImportForm(forms.Form):
    record = forms.FileField(label=_("Game record (JSON or GCG)"))
    lexicon = forms.ModelChoiceField(
        label=_("Lexicon"),
        queryset=Lexicon.objects.none(),
        help_text=_("The words the slips are judged with."),
    )
    seconds_per_move = forms.TypedChoiceField(
        label=_("Time per move"), coerce=int, choices=Tournament.SECONDS_CHOICES, initial=180
    )
    title = forms.CharField(label=_("Title"), max_length=200, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["lexicon"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Lexicon.objects.filter(status=Lexicon.Status.READY).order_by("name")


class StartForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=100)
