"""Types of the compiled word graph core (lexicon/_graph.c); the file format is in graph_format.h."""

from collections.abc import Iterable, Iterator, Sequence

from typing_extensions import Buffer

MAX_NODES: int
MAX_LETTERS: int
MAX_WORD: int
VERSION: int
HEADER_SIZE: int

def build(words: Sequence[str], alphabet: str, gaddag: bool, threads: int = 1, /) -> tuple[bytes | None, int, int]:
    """(edge array | None when it does not fit the 24-bit format, word count, edge count);
    ValueError(kind, word index, position or length) on a bad word."""

def pack_lines(
    data: Buffer, alphabet: str, extra: str, apostrophe: int, upper: str, lower: str, /
) -> tuple[bytes, int, int, list[tuple[int, int, int]], bytes, int, int, list[tuple[int, int, int]] | None, bool]:
    """(sorted distinct 16-byte records, duplicates, lines read as words, (number, start, end) of the other
    non-blank lines, the records of the capitalised lines, their count, their duplicates, where they are
    (None unless has_lower), has_lower)."""

def build_packed(records: Buffer, alphabet_size: int, gaddag: bool, threads: int = 1, /) -> tuple[bytes | None, int, int]:
    """As build(), from the records of pack_lines; ValueError when they are not such records."""

def anagram_section(edges: Buffer, dawg_root: int, alphabet_size: int, rack_size: int, /) -> bytes:
    """The anagram section of a format-2 file (lexicon/graph_format.h) for racks of rack_size tiles."""

class Core:
    def __init__(self, nodes: Buffer, alphabet: str, /) -> None: ...
    def contains(self, word: object, /) -> bool: ...
    def contains_many(self, words: Iterable[object], /) -> list[bool]: ...
    def encode(self, word: str, /) -> bytes: ...
    def decode(self, codes: bytes, /) -> str: ...
    def accepts(self, root: int, codes: Buffer, /) -> bool: ...
    def validate(self, alphabet_size: int, has_gaddag: bool, count_words: bool, /) -> int: ...
    def words(self) -> Iterator[str]: ...
    def release(self) -> None: ...
