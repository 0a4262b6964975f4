"""Every interface string is translated into Russian, Ukrainian, Polish and French, and compiled."""

import gettext
import re

import pytest

from tests.paths import LOCALE


def entries(po_text: str):
    """(flags, msgid, msgstrs) of each entry of a .po file (a small reader: enough for the check)."""
    for block in re.split(r"\n\s*\n", po_text):
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines or all(line.startswith("#~") for line in lines):
            continue
        flags = " ".join(line for line in lines if line.startswith("#,"))
        text = "\n".join(line for line in lines if not line.startswith("#"))
        msgid = "".join(re.findall(r'"(.*)"', text.split("msgstr")[0].split("msgid_plural")[0]))
        strs = ["".join(re.findall(r'"(.*)"', part)) for part in re.split(r"msgstr(?:\[\d+\])?", text)[1:]]
        yield flags, msgid, strs


@pytest.mark.parametrize("lang", ["ru", "uk", "pl", "fr"])
def test_catalogue_is_complete(lang):
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    missing, fuzzy = [], []
    for flags, msgid, strs in entries(po):
        if not msgid:
            continue  # the header
        if "fuzzy" in flags:
            fuzzy.append(msgid)
        if not strs or any(not s for s in strs):
            missing.append(msgid)
    assert not missing, f"{lang}: untranslated: {missing[:10]}"
    assert not fuzzy, f"{lang}: fuzzy (unchecked guesses): {fuzzy[:10]}"


@pytest.mark.parametrize("lang,msgid,expected", [
    ("ru", "Arbiter login", "Вход для арбитра"),
    ("uk", "Open the hall display", "Відкрити табло залу"),
    ("pl", "Arbiter console", "Panel sędziego"),
])
def test_compiled_catalogue_is_used(lang, msgid, expected):
    catalogue = gettext.translation("django", localedir=LOCALE, languages=[lang])
    assert catalogue.gettext(msgid) == expected
