"""The compiled word graph: a minimised DAWG and GADDAG in one mmap-able file.

Pure Python + the ``lexicon._graph`` C extension; no Django and no board
knowledge here. The file format is fixed in ``lexicon/graph_format.h`` (the
contract with the move generator, ``scoring/_solver.c``):

* a 128-byte header (magic ``DUPKWG01``, version, flags, alphabet size, edge
  count, word count, alphabet byte length, SHA-256 of the body, SHA-256 of the
  anagram section);
* the body: the alphabet in UTF-8 (letters in code order, zero-padded to a
  multiple of 4) followed by the edge array, one little-endian ``uint32`` per
  edge. Edge 0's child is the DAWG root list, edge 1's child the GADDAG root;
* (format 2) the anagram section: the solver's anagram index of the words of
  7 to 9 letters, stored as the hash tables it probes, so that the solver maps
  it instead of building it (``lexicon/anagram_index.h``).

The content hash is the body's (the words and the alphabet): the same in both
formats, so a format-1 file rewritten by :func:`upgrade` keeps its name and its
records. Format-1 files still load (the solver then builds the index in memory,
tens of ms at its first use).

Letter codes are ``1 + index in the alphabet``; 0 is the GADDAG separator.

Typical use::

    info = build(words, "ABC...", "/var/lexicons/en.kwg")
    graph = WordGraph.load("/var/lexicons/en.kwg")
    "QUIZ" in graph
    edges = graph.nodes_buffer()     # memoryview of uint32, zero-copy
"""

from __future__ import annotations

import hashlib
import mmap
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, overload

try:
    from . import _graph
except ImportError as exc:  # pragma: no cover
    raise ImportError(
        f"the word graph's C extension lexicon._graph is not built ({exc}); "
        "run `pip install -e .` or `python setup.py build_ext --inplace`"
    ) from exc

from .graph_file import (  # noqa: E402 (after the extension's check)
    _HEADER,
    ANA_HEADER_SIZE,
    ANA_MAGIC,
    ANAGRAM_RACK,
    FLAG_ANAGRAMS,
    FLAG_GADDAG,
    HEADER_SIZE,
    MAGIC,
    MAX_LETTERS,
    MAX_NODES,
    MAX_WORD_LENGTH,
    MIN_WORD_LENGTH,
    VERSION,
    VERSIONS,
    GraphError,
    anagram_section,
    file_in_current_format,
    in_current_format,
    map_anagrams,
    write_graph,
)

__all__ = ["ANA_HEADER_SIZE", "ANAGRAM_RACK", "HEADER_SIZE", "MAGIC", "MAX_LETTERS", "MAX_NODES", "VERSION",
           "BuildInfo", "GraphError", "PackedLines", "PackedWords", "WordGraph", "build", "build_threads", "is_current",
           "pack_lines", "upgrade",
           "MAX_WORD_LENGTH", "MIN_WORD_LENGTH"]


@dataclass(frozen=True)
class BuildInfo:
    """What :func:`build` wrote."""

    word_count: int
    node_count: int  # edges in the array, including the two root pointers
    file_size: int  # bytes
    content_hash: str  # hex SHA-256 of the body (what the header stores)
    seconds: float


def _alphabet(alphabet: str | Sequence[str]) -> str:
    """Checks an alphabet (a str or a sequence of single characters) and returns it as a str."""
    if isinstance(alphabet, str):
        letters = list(alphabet)
    else:
        letters = list(alphabet)
        for letter in letters:
            if not isinstance(letter, str) or len(letter) != 1:
                raise GraphError(f"alphabet letters must be single characters, got {letter!r}")
    if not 1 <= len(letters) <= MAX_LETTERS:
        raise GraphError(f"an alphabet has 1 to {MAX_LETTERS} letters, this one has {len(letters)}")
    seen: set[str] = set()
    for letter in letters:
        if letter in seen:
            raise GraphError(f"the alphabet lists the letter {letter!r} twice")
        if letter.isspace() or letter == "\0":
            raise GraphError(f"the alphabet contains a blank character {letter!r}")
        seen.add(letter)
    return "".join(letters)


class PackedWords(Sequence[str]):
    """Distinct words encoded for the builder (16 bytes each, sorted by letter code), as
    :func:`pack_lines` reads them: no Python string per word. A sequence of str (decoded on demand)."""

    RECORD = 16

    def __init__(self, records: bytes, alphabet: str):
        self.records = records
        self.alphabet = alphabet

    def __len__(self) -> int:
        return len(self.records) // self.RECORD

    def __iter__(self) -> Iterator[str]:
        # each record holds at least one 0 after its word: 0 becomes a line break, the letter codes letters
        table = {0: "\n", **{code + 2: letter for code, letter in enumerate(self.alphabet)}}
        text = self.records.decode("latin-1").translate(table)
        return (word for word in text.split("\n") if word)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("packed word index out of range")
        record = self.records[index * self.RECORD : (index + 1) * self.RECORD]
        return "".join(self.alphabet[code - 2] for code in record if code)


class PackedLines(NamedTuple):
    """What :func:`pack_lines` read."""

    words: PackedWords  #: the distinct words (without the capitalised ones, when those are kept apart)
    duplicates: int  #: words read again
    read: int  #: lines read as words (duplicates and capitalised ones included)
    left: list[tuple[int, int, int]]  #: every other non-blank line: (number from 1, start, end) in the data
    capitalised: PackedWords  #: the distinct words of the capitalised lines, when kept apart
    capitalised_read: int  #: capitalised lines read as words
    capitalised_duplicates: int
    #: where the capitalised lines are, as ``left``; None unless ``has_lower`` (a list in capitals: not needed)
    capitalised_lines: list[tuple[int, int, int]] | None
    has_lower: bool  #: some line read as a word (not capitalised) has a lower-case letter


def pack_lines(
    data: bytes, alphabet: str | Sequence[str], extra: dict[str, str] | None = None, *, capitalised_apart: bool = False
) -> PackedLines:
    """Reads UTF-8 text, one word a line, straight into :class:`PackedWords` for ``alphabet``.

    A line is a word when, without surrounding spaces, tabs and CR (and a BOM first), it is 2..15
    characters each a letter of the alphabet or a key of ``extra`` (read as the letter it maps to).
    An apostrophe letter ' is never first, last or doubled. Every other non-blank line is left
    (its number and place in ``data``) for the caller to read. With ``capitalised_apart`` the
    words written with a capital letter (a character whose lower case differs) are kept apart.
    """
    letters = _alphabet(alphabet)
    pairs = "".join(k + v for k, v in (extra or {}).items() if len(k) == 1 and len(v) == 1 and v in letters)
    apostrophe = letters.index("'") + 1 if "'" in letters else 0
    chars = set(letters) | {k for k in (extra or {}) if len(k) == 1}
    upper = "".join(sorted(c for c in chars if c.lower() != c)) if capitalised_apart else ""
    lower = "".join(sorted(c for c in chars if c.upper() != c))
    records, duplicates, read, left, caps, cap_read, cap_duplicates, cap_lines, has_lower = _graph.pack_lines(
        data, letters, pairs, apostrophe, upper, lower
    )
    return PackedLines(PackedWords(records, letters), duplicates, read, left, PackedWords(caps, letters),
                       cap_read, cap_duplicates, cap_lines, has_lower)


def build(
    words: Iterable[str],
    alphabet: str | Sequence[str],
    path: str | os.PathLike[str],
    *,
    gaddag: bool = True,
    threads: int | None = None,
    anagram_rack: int | None = ANAGRAM_RACK,
) -> BuildInfo:
    """Builds the word graph of ``words`` into the file ``path`` (atomically).

    ``words`` may come in any order and repeat (or be :class:`PackedWords` of the same alphabet:
    the fastest, no Python string per word); every word must be made of
    alphabet letters only (exact characters: no case folding here) and have
    2..15 letters, otherwise :class:`GraphError` names the word and the
    offending letter. The file is written to a temporary file next to ``path``
    and renamed over it, so readers never see a half-written graph. Two builds
    of the same set of words with the same alphabet give byte-identical files. With ``threads=2``
    a second thread sorts the GADDAG's entries while the first adds them: the same file, sooner
    when a second core is free (a quiet 2-core machine: pl 4.7 → 3.9 s, ru 3.1 → 2.4 s; none when the
    other core is busy) for 35–50 MB more; ``None``: two when the process may run on two CPUs or
    more (:func:`build_threads`). ``anagram_rack``: the rack size of the anagram section stored for
    the solver (None: no section).
    """
    started = time.perf_counter()
    if threads is None:
        threads = build_threads()
    letters = _alphabet(alphabet)
    if isinstance(words, PackedWords) and words.alphabet == letters:
        try:
            edges, word_count, node_count = _graph.build_packed(words.records, len(letters), bool(gaddag), threads)
        except ValueError as exc:
            raise GraphError(str(exc)) from None
    else:
        edges, word_count, node_count = _build_from_str(words, letters, gaddag, threads)
    if word_count == 0:
        raise GraphError("no words to build a word graph from")
    if edges is None:
        raise GraphError(
            f"the word graph of {word_count:,} words needs {node_count:,} edges, more than the "
            f"{MAX_NODES:,} the 24-bit format can address" + (" (try gaddag=False)" if gaddag else "")
        )

    section = anagram_section(edges, len(letters), anagram_rack) if gaddag and anagram_rack else None
    size, content_hash = write_graph(Path(path), letters, edges, word_count, node_count, gaddag, section)
    return BuildInfo(
        word_count=word_count,
        node_count=node_count,
        file_size=size,
        content_hash=content_hash,
        seconds=time.perf_counter() - started,
    )


def build_threads() -> int:
    """The builder's threads by default: 2 when this process may run on two CPUs or more, else 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    return 2 if cpus >= 2 else 1


def is_current(path: str | os.PathLike[str]) -> bool:
    """Whether the compiled file at ``path`` is in the current format (format 2 and, with a GADDAG, its anagram
    section of the current version), from its header and its section's magic: no load, nothing checked."""
    return file_in_current_format(path)


def upgrade(path: str | os.PathLike[str], *, anagram_rack: int = ANAGRAM_RACK) -> bool:
    """Rewrites a format-1 file at ``path`` (or a format-2 one whose anagram section is of an earlier version,
    without table five) in the current format, in place and atomically: the same words, the same content hash.
    False if it was current already."""
    target = Path(path)
    if is_current(target):
        return False
    graph = WordGraph.load(target, verify=True)
    try:
        edges = graph.nodes_buffer().cast("B")
        try:
            section = anagram_section(edges, len(graph.alphabet), anagram_rack) if graph.has_gaddag else None
            _size, content_hash = write_graph(
                target, graph.alphabet, edges, graph.word_count, graph.node_count, graph.has_gaddag, section
            )
        finally:
            edges.release()
        if content_hash != graph.content_hash:  # pragma: no cover - the body is copied as it is
            raise GraphError(f"{target}: the rewritten file has another content hash")
        return True
    finally:
        graph.close()


def _build_from_str(words: Iterable[str], letters: str, gaddag: bool, threads: int) -> tuple[bytes | None, int, int]:
    word_list = words if isinstance(words, list | tuple) else list(words)
    try:
        return _graph.build(word_list, letters, bool(gaddag), threads)
    except ValueError as exc:
        raise _input_error(exc, word_list, letters) from None
    except TypeError as exc:
        raise GraphError(f"words must be str: {exc}") from None


def _input_error(exc: ValueError, words: Sequence[str], alphabet: str) -> GraphError:
    if len(exc.args) == 3:  # (kind, word index, position or length) from _graph.build
        kind, index, pos = exc.args
        word = words[index]
        if kind == "letter":
            return GraphError(
                f"word #{index + 1} {word!r}: letter {word[pos]!r} (U+{ord(word[pos]):04X}) at position "
                f"{pos + 1} is not in the alphabet {alphabet!r}"
            )
        if kind == "length":
            return GraphError(
                f"word #{index + 1} {word!r} has {pos} letters; words must have "
                f"{MIN_WORD_LENGTH} to {MAX_WORD_LENGTH}"
            )
    return GraphError(str(exc))


class WordGraph:
    """A loaded word graph: read-only, memory-mapped (shared between processes).

    ``word in graph`` looks a word up in the DAWG (any str; foreign letters
    simply give False). The solver gets the raw edge array from
    :meth:`nodes_buffer` and the roots from :attr:`dawg_root` and
    :attr:`gaddag_root`.
    """

    path: Path
    alphabet: str
    word_count: int
    node_count: int
    content_hash: str
    has_gaddag: bool
    format_version: int

    def __init__(self) -> None:  # use WordGraph.load
        self._mmap: mmap.mmap | None = None
        self._view: memoryview | None = None
        self._anagrams: memoryview | None = None
        self._core: _graph.Core | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, verify: bool = True) -> WordGraph:
        """Maps the file at ``path`` and checks it.

        Always: magic, version, header fields, exact file size (truncation or
        trailing bytes), the alphabet, the structure of the edge array (every
        child index in range and pointing backwards, lists sorted and terminated,
        letter codes in the alphabet), so that walking it can never leave the
        array or loop, and the anagram section's header and size (the solver checks
        the rest when it maps it). With ``verify`` also the SHA-256 of the body and
        of the anagram section, and the word count. Any problem raises :class:`GraphError`.
        """
        if sys.byteorder != "little":  # pragma: no cover
            raise GraphError("word graphs are little-endian; this machine is not")
        graph = cls()
        graph.path = Path(path)
        try:
            with open(graph.path, "rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size < HEADER_SIZE:
                    raise GraphError(
                        f"{graph.path} is truncated or not a word graph: {size} bytes, "
                        f"the header alone has {HEADER_SIZE}"
                    )
                graph._mmap = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except OSError as exc:
            raise GraphError(f"cannot open the word graph {graph.path}: {exc}") from None
        try:
            graph._open(size, verify)
        except BaseException:
            graph.close()
            raise
        return graph

    def _open(self, size: int, verify: bool) -> None:
        assert self._mmap is not None
        name = self.path
        magic, version, flags, nletters, nodes, words, alpha_len, digest, ana_digest, reserved = (
            _HEADER.unpack_from(self._mmap, 0)
        )
        if magic != MAGIC:
            if magic[:6] == MAGIC[:6]:
                raise GraphError(
                    f"{name} has format {magic!r}, this code reads {MAGIC!r}; rebuild the lexicon"
                )
            raise GraphError(f"{name} is not a word graph (magic {magic!r}, expected {MAGIC!r})")
        if version not in VERSIONS:
            raise GraphError(
                f"{name} is format version {version}, this code reads {' and '.join(map(str, VERSIONS))}; "
                "rebuild the lexicon"
            )
        known_flags = FLAG_GADDAG | (FLAG_ANAGRAMS if version >= 2 else 0)
        if flags & ~known_flags or any(reserved) or (not flags & FLAG_ANAGRAMS and any(ana_digest)):
            raise GraphError(f"{name} has unknown flags or non-zero reserved header bytes (corrupt header?)")
        if not 1 <= nletters <= MAX_LETTERS or not nletters <= alpha_len <= 4 * nletters:
            raise GraphError(f"{name} has a corrupt header: {nletters} letters in {alpha_len} bytes")
        if not 2 <= nodes <= MAX_NODES:
            raise GraphError(f"{name} has a corrupt header: edge count {nodes}")
        alpha_end = HEADER_SIZE + alpha_len + (-alpha_len % 4)
        expected = alpha_end + 4 * nodes
        if size < expected:
            raise GraphError(f"{name} is truncated: {size} bytes, the header announces {expected}")
        if flags & FLAG_ANAGRAMS:
            self._anagrams = self._anagram_view(expected, size, ana_digest if verify else None)
        elif size > expected:
            raise GraphError(f"{name} has {size - expected} unexpected bytes after the edges (corrupt file?)")
        if verify:
            actual = hashlib.sha256(memoryview(self._mmap)[HEADER_SIZE:expected]).digest()
            if actual != digest:
                raise GraphError(
                    f"{name} is corrupt: the SHA-256 of its content is {actual.hex()[:16]}…, "
                    f"the header says {digest.hex()[:16]}…"
                )
        try:
            alphabet = bytes(self._mmap[HEADER_SIZE : HEADER_SIZE + alpha_len]).decode("utf-8")
        except UnicodeDecodeError:
            raise GraphError(f"{name} is corrupt: its alphabet is not valid UTF-8") from None
        if (
            len(alphabet) != nletters
            or len(set(alphabet)) != nletters
            or any(self._mmap[HEADER_SIZE + alpha_len : alpha_end])
        ):
            raise GraphError(
                f"{name} is corrupt: its alphabet {alphabet!r} does not have {nletters} distinct letters"
            )

        self._view = memoryview(self._mmap)[alpha_end:expected]
        self._core = _graph.Core(self._view, alphabet)
        try:
            counted = self._core.validate(nletters, bool(flags & FLAG_GADDAG), verify)
        except ValueError as exc:
            raise GraphError(f"{name} is corrupt: {exc}") from None
        if verify and counted != words:
            raise GraphError(f"{name} is corrupt: the header says {words} words, the graph holds {counted}")

        self.alphabet = alphabet
        self.word_count = words
        self.node_count = nodes
        self.content_hash = digest.hex()
        self.has_gaddag = bool(flags & FLAG_GADDAG)
        self.format_version = version
        self._letters = alphabet

    def _anagram_view(self, edges_end: int, size: int, digest: bytes | None) -> memoryview:
        assert self._mmap is not None
        return map_anagrams(self._mmap, self.path, edges_end, size, digest)

    @property
    def in_current_format(self) -> bool:
        """:func:`lexicon.graph_file.in_current_format` of this file (``upgrade`` rewrites any other)."""
        magic = None if self._anagrams is None else bytes(self._anagrams[: len(ANA_MAGIC)])
        return in_current_format(self.format_version, self.has_gaddag, magic)

    def anagram_section(self) -> memoryview | None:
        """The stored anagram index (format 2; bytes, 8-aligned in the mapping), or None without one:
        what :class:`scoring.solver.Solver` maps instead of building the index."""
        if self._view is None:
            raise GraphError("the word graph is closed")
        # a view of its own: the solver holds it, and close() can still release the graph's
        return None if self._anagrams is None else self._anagrams[:]

    # -- lookups -----------------------------------------------------------

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` is in the lexicon (False for non-str and foreign letters)."""
        try:
            # the hot path of every lookup: no _live() call; a closed graph (_core None) is the
            # AttributeError below, hence the ignore
            return self._core.contains(word)  # type: ignore[union-attr]
        except AttributeError:
            raise GraphError("the word graph is closed") from None

    def contains_many(self, words: Iterable[str]) -> list[bool]:
        """``[w in self for w in words]``, in one C loop."""
        return self._live().contains_many(words)

    def encode(self, word: str) -> bytes:
        """The letter codes of ``word`` (1 + index in the alphabet); GraphError on a foreign letter."""
        try:
            return self._live().encode(word)
        except ValueError as exc:
            pos = exc.args[0]
            raise GraphError(
                f"{word!r}: letter {word[pos]!r} is not in the alphabet {self.alphabet!r}"
            ) from None

    def decode(self, codes: bytes) -> str:
        """The word spelt by letter codes (each 1..alphabet size); GraphError otherwise."""
        try:
            return self._live().decode(codes)
        except ValueError as exc:
            pos, code = exc.args
            raise GraphError(
                f"code {code} at position {pos} is not a letter code (1..{len(self.alphabet)})"
            ) from None

    def accepts(self, codes: bytes, root: int | None = None) -> bool:
        """Whether the path of ``codes`` from the list ``root`` (default: the DAWG root) ends on an
        accepting edge. With ``root=self.gaddag_root`` and separator code 0 this checks GADDAG entries."""
        core = self._live()
        start = self.dawg_root if root is None else root
        if not start:
            return False
        try:
            return core.accepts(start, codes)
        except ValueError as exc:
            raise GraphError(str(exc)) from None

    def words(self) -> Iterator[str]:
        """All words, in letter-code order (a lazy walk of the DAWG)."""
        return self._live().words()

    def __iter__(self) -> Iterator[str]:
        return self.words()

    def __len__(self) -> int:
        return self.word_count

    # -- raw access for the solver ------------------------------------------

    def nodes_buffer(self) -> memoryview:
        """The edge array as a zero-copy memoryview of native ``uint32`` (format ``'I'``).

        C code gets the pointer with ``PyObject_GetBuffer(view, &b, PyBUF_SIMPLE)``
        (``b.buf`` is ``const uint32_t *``, ``b.len / 4`` edges) and must keep the
        buffer (and so the mapping) until ``PyBuffer_Release``.
        """
        if self._view is None:
            raise GraphError("the word graph is closed")
        return self._view.cast("I")

    @property
    def dawg_root(self) -> int:
        """Index of the first edge of the DAWG root list (0 if empty)."""
        return self.nodes_buffer()[0] & 0xFFFFFF

    @property
    def gaddag_root(self) -> int:
        """Index of the first edge of the GADDAG root list (0 without a GADDAG)."""
        return self.nodes_buffer()[1] & 0xFFFFFF

    # -- lifetime --------------------------------------------------------------

    def _live(self) -> _graph.Core:
        if self._core is None:
            raise GraphError("the word graph is closed")
        return self._core

    def close(self) -> None:
        """Releases the mapping. Views from :meth:`nodes_buffer` still alive keep it mapped until
        they are released; the graph itself is unusable afterwards."""
        if self._core is not None:
            self._core.release()
            self._core = None
        if self._anagrams is not None:
            self._anagrams.release()
            self._anagrams = None
        if self._view is not None:
            self._view.release()
            self._view = None
        if self._mmap is not None:
            try:
                self._mmap.close()
            except BufferError:
                pass  # exported views remain; the mapping goes with the last of them
            self._mmap = None

    def __enter__(self) -> WordGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._core is None else f"{self.word_count} words, {self.node_count} edges"
        return f"<WordGraph {getattr(self, 'path', '?')}: {state}>"
