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


#: A translatable literal on one line: _("…"), gettext("…"), gettext_noop("…"), {% translate "…" %}.
SOURCE_MSGID = re.compile(r'''(?:\b_|\bgettext(?:_lazy|_noop)?)\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]|{% translate "([^"]+)"(?! context)''')
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w+\}")


def test_every_string_of_the_code_is_in_the_catalogue():
    """A new text without ``makemessages`` would show in English: each one-line literal of the code and templates
    must be a msgid of the catalogue."""
    root = LOCALE.parent
    po = (LOCALE / "uk" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    known = {msgid for _flags, msgid, _strs in entries(po)}
    files = [*root.glob("scoring/*.py"), *root.glob("lexicon/**/*.py"), *root.glob("tournament/**/*.py"),
             *root.glob("templates/**/*.html")]
    absent = set()
    for path in files:
        if "migrations" in path.parts:
            continue
        for m in SOURCE_MSGID.finditer(path.read_text(encoding="utf-8")):
            text = (m.group(1) or m.group(2)).encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
            if text and text.replace('"', '\\"') not in known and text not in known:
                absent.add(f"{path.relative_to(root)}: {text}")
    assert not absent, "not in the catalogue (run makemessages):\n" + "\n".join(sorted(absent)[:20])


@pytest.mark.parametrize("lang", ["ru", "uk", "pl", "fr"])
def test_translations_keep_the_placeholders(lang):
    po = (LOCALE / lang / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    broken = []
    for _flags, msgid, strs in entries(po):
        want = sorted(PLACEHOLDER.findall(msgid))
        for s in strs:
            if want and sorted(PLACEHOLDER.findall(s)) != want and len(strs) == 1:
                broken.append((msgid, s))
    assert not broken, f"{lang}: placeholders changed: {broken[:5]}"
