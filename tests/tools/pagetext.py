"""What a person reads on a page: its visible text, and the English sentences left in it (untranslated texts)."""

from __future__ import annotations

import html as html_lib
import re

#: Three Latin words in a row (a sentence of ours left in English); data such as names or files rarely do that.
ENGLISH_RUN = re.compile(r"\b[A-Za-z][a-z]+(?:[ ,:;’'-]+[a-z]{2,}){2,}\b")


def visible_text(page: str) -> str:
    """The text a person sees: no scripts, styles, tags; entities decoded; spaces collapsed."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    page = re.sub(r"</?span\b[^>]*>", "", page)  # inline: no space (<span>З</span>4)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html_lib.unescape(page)).strip()


def english_sentences(page: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """Runs of three or more English words in the visible text (minus the ``allowed`` data)."""
    text = visible_text(page)
    for data in sorted(allowed, key=len, reverse=True):
        text = text.replace(data, " ")
    return [m.group(0) for m in ENGLISH_RUN.finditer(text)]
