"""The texts of the training page's script, in the active language (rendered into the page as JSON)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def training_strings() -> dict[str, str]:
    return {
        "word_missing": _("Write the word."),
        "coords_bad": _("Coordinates look like %(across)s (horizontal) or %(down)s (vertical)."),
        "score_bad": _("The score is a whole number."),
        "time_over": _("Time is over"),
    }
