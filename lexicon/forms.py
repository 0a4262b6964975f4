"""Forms of the arbiter's lexicon pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from django.utils.functional import Promise, lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

from scoring.rules import RULESET_NAMES, ruleset_ids

from . import limits, sources, texts
from .models import Lexicon
from .services import NAME_RE, split_words

MAX_CHECK_WORDS = 200


class LexiconChoiceField(forms.ModelChoiceField):  # unparameterised: ModelChoiceField[...] fails at runtime
    def label_from_instance(self, obj: Lexicon) -> str:
        count = f"{obj.word_count:,}".replace(",", "\u202f")
        words = ngettext("%(n)s word", "%(n)s words", obj.word_count) % {"n": count}
        return f"{obj.label} — {obj.ruleset}, {words}"


def ready_lexicons() -> QuerySet[Lexicon]:
    return Lexicon.objects.filter(status=Lexicon.Status.READY).order_by("name", "-version")


class CheckForm(forms.Form):
    lexicon = LexiconChoiceField(queryset=Lexicon.objects.none(), label=_("Lexicon"), empty_label=None)
    words = forms.CharField(
        label=_("Words"),
        widget=forms.Textarea(attrs={"rows": 5, "autofocus": True, "autocapitalize": "characters",
                                     "spellcheck": "false", "autocomplete": "off"}),
        help_text=_("One or more words, separated by spaces, commas or new lines."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["lexicon"]
        assert isinstance(field, LexiconChoiceField)  # the field declared above (a copy per form)
        field.queryset = ready_lexicons()

    def clean_words(self) -> list[str]:
        words = split_words(self.cleaned_data["words"])
        if not words:
            raise forms.ValidationError(_("Type at least one word."))
        if len(words) > MAX_CHECK_WORDS:
            raise forms.ValidationError(ngettext("At most %(n)d word at a time.", "At most %(n)d words at a time.",
                                                 MAX_CHECK_WORDS) % {"n": MAX_CHECK_WORDS})
        return words


def installed_source_choices() -> list[tuple[str, str | Promise]]:
    choices: list[tuple[str, str | Promise]] = [("", _("— none: use the uploaded file —"))]
    for key, (rs, _text) in sources.PACKAGE_SOURCES.items():
        text = texts.package_source_text(key)
        choices.append((f"package:{key}", f"{key} [{rs}] — {text}; {sources.describe_package_source(key)}"))
    for entry in sources.debian_wordlists():
        choices.append((f"debian:{entry.key}", f"{entry.key} [{entry.ruleset}] — {entry.describe()}"))
    return choices


def installed_ruleset(choice: str) -> str | None:
    kind, _sep, key = choice.partition(":")
    if kind == "package" and key in sources.PACKAGE_SOURCES:
        return sources.PACKAGE_SOURCES[key][0]
    if kind == "debian":
        for entry in sources.debian_wordlists():
            if entry.key == key:
                return entry.ruleset
    return None


class UploadForm(forms.Form):
    name = forms.CharField(
        label=pgettext_lazy("lexicon", "Name"), max_length=64,
        help_text=_("e.g. ru, ru-nouns, en-bench. A name already used gets a new version; tournaments keep theirs."),
    )
    ruleset = forms.ChoiceField(label=_("Rule set"), choices=[(r, f"{r} — {RULESET_NAMES[r]}") for r in ruleset_ids()])
    file = forms.FileField(
        label=_("Word list"), required=False,
        widget=forms.ClearableFileInput(attrs={"data-choose": _("Choose a file…"), "data-none": _("No file chosen")}),
        help_text=format_lazy("{} {}", _("UTF-8 text, one word per line."), lazy(limits.limits_text, str)()),
    )
    installed = forms.ChoiceField(
        label=_("…or an installed source"), required=False, choices=installed_source_choices,
    )
    skip_capitalised = forms.BooleanField(
        label=_("Skip words written with a capital letter (proper nouns, abbreviations)"),
        required=False, initial=True,
        help_text=_("For lower-case lists such as Debian's. A list written entirely in capitals is not affected."),
    )
    yo_as_e = forms.BooleanField(
        label=_("Russian: ё may be written е (both spellings are words)"), required=False, initial=False,
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not NAME_RE.match(name):
            raise forms.ValidationError(_("Use letters, digits, '.', '_' or '-' (e.g. ru, en-bench)."))
        return name

    def clean_file(self) -> UploadedFile | None:
        upload = self.cleaned_data.get("file")
        if upload is not None:
            if upload.size == 0:
                raise forms.ValidationError(_("The file is empty."))
            try:  # refused before it is stored or built: its size, then its words and edges while reading
                limits.check_size(upload.size)
                limits.check_chunks(upload.chunks())
            except limits.ListTooLarge as exc:
                raise forms.ValidationError(str(exc)) from None
        return upload

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        upload = data.get("file")
        installed = data.get("installed") or ""
        if upload is None and not installed:
            raise forms.ValidationError(_("Choose a word-list file or an installed source."))
        if upload is not None and installed:
            raise forms.ValidationError(_("Choose either a file or an installed source, not both."))
        ruleset = data.get("ruleset")
        if installed and ruleset:
            expected = installed_ruleset(installed)
            if expected is None:
                self.add_error("installed", _("This source is not installed."))
            elif expected != ruleset:
                self.add_error(
                    "ruleset",
                    _("The source %(src)s gives words of the rule set %(rs)s.") % {"src": installed, "rs": expected},
                )
        if data.get("yo_as_e") and not (installed.startswith("package:ru")):
            self.add_error("yo_as_e", _("This option applies to the Russian package sources only."))
        return data
