"""Types of lexicon/_dawgdic.c: the word forms of a pymorphy3 dictionary, read from its words.dawg."""

from typing_extensions import Buffer

LETTER_FAIL: int

def scan_forms(
    dawg: Buffer,
    paradigms: Buffer,
    starts: Buffer,
    tag_codes: Buffer,
    letters: str,
    apostrophe: bool,
    lemmas: tuple[list[bytes], list[bytes], bytes, int] | None,
    keep: int,
    /,
) -> tuple[bytes, bytes, bytes, dict[int, int], int]:
    """(accepted forms, skipped forms kept, one code per skipped form kept, skipped forms by code,
    readings read); ValueError on a malformed dictionary."""
