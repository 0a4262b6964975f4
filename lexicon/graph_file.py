"""The compiled file's layout (``lexicon/graph_format.h``): header constants, writing a file (atomically)
and finding its anagram section. Used by :mod:`lexicon.graph` (which re-exports what others import);
pure Python + the ``lexicon._graph`` C extension, no Django."""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import tempfile
from collections.abc import Iterable
from pathlib import Path

from . import _graph

MAGIC = b"DUPKWG01"
VERSION = 2
VERSIONS = (1, 2)  # read; written: VERSION
HEADER_SIZE = 128
FLAG_GADDAG = 1
FLAG_ANAGRAMS = 2
#: the rack size of the stored anagram index (every rule set's rack; another one builds its own)
ANAGRAM_RACK = 7
ANA_MAGIC = b"DUPANA03"  # the section written (tables one to five)
ANA_MAGIC_V2 = b"DUPANA02"  # read too: without table five (`lexicon upgrade` rewrites it)
ANA_MAGIC_V1 = b"DUPANA01"  # read too: without tables three, four and five (likewise)
ANA_HEADER = struct.Struct("<8sIIQQQQ")  # magic, rack size, alphabet size, slots/entries of tables one, two
ANA_HEADER_V1_SIZE = 560  # ANA_HEADER + 64 uint64 letter keys
ANA_MORE = struct.Struct("<QQQQ")  # then slots/entries of tables three and four (version 2)
ANA_HEADER_V2_SIZE = ANA_HEADER_V1_SIZE + ANA_MORE.size
ANA_FIVE = struct.Struct("<QQ")  # then slots/entries of table five (version 3)
ANA_HEADER_SIZE = ANA_HEADER_V2_SIZE + ANA_FIVE.size
MAX_LETTERS = 63
MAX_NODES = 1 << 24
MIN_WORD_LENGTH = 2
MAX_WORD_LENGTH = 15

# magic, version, flags, alphabet size, node count, word count, alphabet bytes, sha256 of the body,
# sha256 of the anagram section, reserved
_HEADER = struct.Struct("<8sIIIIII32s32s32s")
assert _HEADER.size == HEADER_SIZE


class GraphError(Exception):
    """A word graph cannot be built or loaded; the message says why, for humans."""


def alphabet_block(alphabet: str) -> bytes:
    raw = alphabet.encode("utf-8")
    return raw + b"\0" * (-len(raw) % 4)


def anagram_section(edges: bytes | memoryview, nletters: int, rack_size: int) -> bytes:
    """The anagram section of the edge array (its bytes), for racks of ``rack_size`` tiles."""
    dawg_root = int.from_bytes(edges[:4], "little") & 0xFFFFFF
    try:
        return _graph.anagram_section(edges, dawg_root, nletters, rack_size)
    except ValueError as exc:
        raise GraphError(f"cannot build the anagram section: {exc}") from None


def write_graph(
    target: Path,
    letters: str,
    edges: bytes | memoryview,
    word_count: int,
    node_count: int,
    gaddag: bool,
    section: bytes | None,
) -> tuple[int, str]:
    """Writes a format-2 file atomically; returns its size and content hash."""
    alpha = alphabet_block(letters)
    digest = hashlib.sha256(alpha)
    digest.update(edges)
    chunks: list[bytes | memoryview] = [alpha, edges]
    if section is not None:
        chunks.append(b"\0" * (-(HEADER_SIZE + len(alpha) + len(edges)) % 8))
        chunks.append(section)
    header = _HEADER.pack(
        MAGIC,
        VERSION,
        (FLAG_GADDAG if gaddag else 0) | (FLAG_ANAGRAMS if section is not None else 0),
        len(letters),
        node_count,
        word_count,
        len(letters.encode("utf-8")),
        digest.digest(),
        hashlib.sha256(section).digest() if section is not None else b"",
        b"",
    )
    write_atomically(target, (header, *chunks))
    return HEADER_SIZE + sum(len(c) for c in chunks), digest.hexdigest()


def in_current_format(version: int, gaddag: bool, section_magic: bytes | None) -> bool:
    """Format VERSION and, with a GADDAG, an anagram section of the current version (tables one to five):
    what a build writes now (``lexicon.graph.upgrade`` rewrites any other file)."""
    return version == VERSION and (not gaddag or section_magic == ANA_MAGIC)


def file_in_current_format(path: str | os.PathLike[str]) -> bool:
    """:func:`in_current_format` of the file at ``path``, from its header and its section's magic alone (the
    rest is neither read nor checked: a file that is not a word graph is not current)."""
    with open(path, "rb") as f:
        head = f.read(HEADER_SIZE)
        if len(head) < HEADER_SIZE:
            return False
        magic, version, flags, _nletters, nodes, _words, alpha_len, *_hashes = _HEADER.unpack(head)
        section_magic = None
        if flags & FLAG_ANAGRAMS:
            edges_end = HEADER_SIZE + alpha_len + (-alpha_len % 4) + 4 * nodes
            f.seek(edges_end + (-edges_end % 8))
            section_magic = f.read(len(ANA_MAGIC))
    return magic == MAGIC and in_current_format(version, bool(flags & FLAG_GADDAG), section_magic)


def map_anagrams(
    mapping: mmap.mmap, name: Path, edges_end: int, size: int, digest: bytes | None
) -> memoryview:
    """The anagram section after the edges (8-aligned): its header and exact size checked, its
    SHA-256 too when ``digest`` is given."""
    start = edges_end + (-edges_end % 8)
    if size < start + ANA_HEADER_V1_SIZE:
        raise GraphError(
            f"{name} is truncated or corrupt: its anagram section is missing or cut short ({size} bytes)"
        )
    if any(mapping[edges_end:start]):
        raise GraphError(f"{name} is corrupt: non-zero padding before its anagram section")
    magic, _rack, _nletters, one_cap, _one_n, two_cap, _two_n = ANA_HEADER.unpack_from(mapping, start)
    if magic not in (ANA_MAGIC, ANA_MAGIC_V2, ANA_MAGIC_V1):
        raise GraphError(f"{name} is corrupt: its anagram section starts with {magic!r}, not {ANA_MAGIC!r}")
    header = {ANA_MAGIC_V1: ANA_HEADER_V1_SIZE, ANA_MAGIC_V2: ANA_HEADER_V2_SIZE}.get(magic, ANA_HEADER_SIZE)
    if size < start + header:
        raise GraphError(f"{name} is truncated or corrupt: its anagram section's header is cut short")
    slots = 2 * one_cap + two_cap
    if magic != ANA_MAGIC_V1:
        three_cap, _three_n, four_cap, _four_n = ANA_MORE.unpack_from(mapping, start + ANA_HEADER_V1_SIZE)
        slots += three_cap + four_cap
    if magic == ANA_MAGIC:
        five_cap, _five_n = ANA_FIVE.unpack_from(mapping, start + ANA_HEADER_V2_SIZE)
        slots += five_cap
    announced = start + header + 8 * slots
    if size < announced:
        raise GraphError(
            f"{name} is truncated or corrupt: {size} bytes, its anagram section announces {announced}"
        )
    if size > announced:
        raise GraphError(
            f"{name} has {size - announced} unexpected bytes after its anagram section (corrupt?)"
        )
    section = memoryview(mapping)[start:size]
    if digest is not None and hashlib.sha256(section).digest() != digest:
        section.release()
        raise GraphError(f"{name} is corrupt: the SHA-256 of its anagram section is not the header's")
    return section


def write_atomically(target: Path, chunks: Iterable[bytes | memoryview]) -> None:
    directory = target.parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise GraphError(f"cannot write the word graph into {directory}: {exc}") from None
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; the graph is shared read-only data
        os.replace(tmp, target)
    except OSError as exc:
        _unlink_quietly(tmp)
        raise GraphError(f"cannot write the word graph {target}: {exc}") from None
    except BaseException:
        _unlink_quietly(tmp)
        raise
    try:  # make the rename itself durable
        dir_fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _unlink_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
