"""Bad archive files refused early with a reason, changing nothing and printing no traceback: a ZIP bomb (a small
file unpacking to hundreds of megabytes, its checksums matching) is refused from its sizes before it is read, in
bounded memory; a flipped byte in the compressed rows (``zlib.error``, a CRC error) and rows longer or shorter
than their columns are "damaged"."""

from __future__ import annotations

import hashlib
import io
import json
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.tournament.backup.helpers import forged, other_machine
from tournament.backup import automatic as backups
from tournament.backup import write_archive
from tournament.backup.archive import DATA, MANIFEST
from tournament.models import Slip, Tournament

#: refused from the file before any row is read or written: the restore's writes run on both back ends in
#: test_backup.py and test_trust.py
pytestmark = [pytest.mark.django_db, pytest.mark.one_backend]

BOMB = 400 << 20  # bytes unpacked
CHUNK = 1 << 20


def padded_member(zf: zipfile.ZipFile, name: str, head: bytes, padding: int) -> str:
    """Writes ``head`` followed by ``padding`` spaces (still JSON: one value and white space), deflated hard;
    returns its SHA-256."""
    h = hashlib.sha256(head)
    info = zipfile.ZipInfo(name)
    info.compress_type = zipfile.ZIP_DEFLATED
    with zf.open(info, "w", force_zip64=True) as out:
        out.write(head)
        blank = b" " * CHUNK
        for _ in range(padding // CHUNK):
            out.write(blank)
            h.update(blank)
    return h.hexdigest()


def bomb(good: Path, out: Path, member: str, padding: int = BOMB) -> Path:
    """The good archive with its manifest or its rows followed by ``padding`` bytes of white space (400 MB), the
    checksums right."""
    with zipfile.ZipFile(good) as src:
        parts = {name: src.read(name) for name in src.namelist()}
    manifest = json.loads(parts.pop(MANIFEST))
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, blob in parts.items():
            if name == DATA and member == DATA:
                manifest["parts"][DATA] = padded_member(zf, DATA, blob, padding)
            else:
                zf.writestr(name, blob)
        text = json.dumps(manifest).encode()
        if member == MANIFEST:
            padded_member(zf, MANIFEST, text, padding)
        else:
            zf.writestr(MANIFEST, text)
    return out


@pytest.mark.parametrize("member", [MANIFEST, DATA])
@pytest.mark.parametrize("check", [True, False])
def test_a_zip_bomb_is_refused_quickly_in_bounded_memory(played, settings, tmp_path, member, check):
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])
    path = bomb(good, tmp_path / "bomb.zip", member)
    assert path.stat().st_size < 1_000_000
    other_machine(settings, tmp_path)
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(CommandError) as caught:
            call_command("restore", str(path), "--language", "en", *(["--check"] if check else []), stdout=io.StringIO())
        seconds = time.monotonic() - started
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    message = str(caught.value)
    print(f"\n{member} bomb ({path.stat().st_size / 1e6:.2f} MB), {'--check' if check else 'restore'}: refused in "
          f"{seconds:.3f} s, peak {peak / 1e6:.1f} MB traced")
    assert caught.value.returncode == 1 and member in message and "MB" in message, message
    assert "Nothing was changed" in message
    assert peak < 100 << 20, peak
    # the time is printed (a figure); memory tells a bomb read as a stream from one unpacked
    assert not Tournament.objects.exists()


def test_rows_under_the_size_limit_that_unpack_a_thousand_times_are_refused(played, settings, tmp_path):
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])
    path = bomb(good, tmp_path / "bomb.zip", DATA, 20 << 20)
    other_machine(settings, tmp_path)
    with pytest.raises(CommandError) as caught:
        call_command("restore", str(path), "--check", "--language", "en", stdout=io.StringIO())
    assert "ZIP bomb" in str(caught.value) and "Nothing was changed" in str(caught.value)


def test_a_member_larger_than_its_header_says_is_refused(played, settings, tmp_path):
    """A central directory that understates a member's size: the reading stops at the stated size and the CRC
    tells the rest."""
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])
    blob = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as zf:
        info = zf.getinfo(DATA)
    at = blob.find(b"PK\x01\x02")
    while at >= 0:
        name_len = int.from_bytes(blob[at + 28:at + 30], "little")
        if blob[at + 46:at + 46 + name_len] == DATA.encode():
            blob[at + 24:at + 28] = (info.file_size // 2).to_bytes(4, "little")
            break
        at = blob.find(b"PK\x01\x02", at + 4)
    assert at >= 0
    bad = tmp_path / "short.zip"
    bad.write_bytes(bytes(blob))
    other_machine(settings, tmp_path)
    with pytest.raises(CommandError) as caught:
        call_command("restore", str(bad), "--language", "en", stdout=io.StringIO())
    assert caught.value.returncode == 1 and "Nothing was changed" in str(caught.value)


def flipped(good: Path, out: Path, where: str) -> Path:
    """The archive with one byte of data.json's compressed bytes changed: the first (its deflate block says a
    type that does not exist: ``zlib.error``), or one in the middle (a CRC error or a zlib error)."""
    blob = bytearray(good.read_bytes())
    with zipfile.ZipFile(good) as zf:
        info = zf.getinfo(DATA)
    start = info.header_offset + 30 + int.from_bytes(blob[info.header_offset + 26:info.header_offset + 28], "little") \
        + int.from_bytes(blob[info.header_offset + 28:info.header_offset + 30], "little")
    if where == "block type":
        blob[start] |= 0b110
    else:
        blob[start + info.compress_size // 2] ^= 0xFF
    out.write_bytes(bytes(blob))
    return out


@pytest.mark.parametrize("where", ["block type", "middle"])
def test_a_flipped_byte_in_the_rows_is_damage_not_a_traceback(played, settings, tmp_path, where):
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])
    bad = flipped(good, tmp_path / "flipped.zip", where)
    other_machine(settings, tmp_path)
    for args in (["--check", "--language", "en"], ["--language", "en"], ["--language", "pl"]):
        with pytest.raises(CommandError) as caught:
            call_command("restore", str(bad), *args, stdout=io.StringIO())
        assert caught.value.returncode == 1
        text = str(caught.value)
        assert ("damaged" in text and "Nothing was changed" in text) if args != ["--language", "pl"] else \
            "Niczego nie zmieniono" in text, text
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("change", [1, -1])
def test_rows_longer_or_shorter_than_their_columns_are_refused(played, settings, tmp_path, change):
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])

    def reshape(data: dict) -> None:
        rows = data["tables"]["tournament.Slip"]["rows"]
        rows[0] = rows[0] + [1] if change > 0 else rows[0][:-1]
    bad = forged(good, tmp_path / "bad.zip", lambda m: None, reshape)
    other_machine(settings, tmp_path)
    slips = Slip.objects.count()
    with pytest.raises(CommandError) as caught:
        call_command("restore", str(bad), "--language", "en", stdout=io.StringIO())
    assert caught.value.returncode == 1
    assert "Nothing was changed" in str(caught.value) and "slip" in str(caught.value).lower(), caught.value
    assert Slip.objects.count() == slips and not Tournament.objects.exists()


def test_a_bomb_in_the_backup_folder_does_not_stop_the_automatic_backups(played, settings, tmp_path):
    """The worker reads the newest archive's manifest in BACKUP_DIR (a USB stick) to skip an unchanged tournament."""
    t, _players, _token = played
    settings.BACKUP_DIR = tmp_path / "stick"
    written = backups.back_up(t, reason="periodic")
    assert written is not None
    planted = written.path.with_name(f"{t.slug}--29991231-235959.zip")  # the newest by its name
    bomb(written.path, planted, MANIFEST)
    tracemalloc.start()
    try:
        again = backups.back_up(t, reason="periodic")
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert again is not None and peak < 100 << 20


def test_the_report_names_every_table_in_the_reports_language():
    """The models' own names are not all translated, and Django names a many-to-many table once, in the language
    active at start-up: the report names each table itself."""
    from django.utils import translation

    from tournament.backup.archive import table_order
    from tournament.management.commands.restore import TABLE_NAMES, counts_text

    assert {m._meta.label for m in table_order()} <= set(TABLE_NAMES)
    counts = {"tournament.Tournament_arbiters": 2, "tournament.Penalty": 1, "tournament.Slip": 0}
    with translation.override("en"):
        assert counts_text(counts) == "arbiters of tournaments: 2; penalties: 1"
    with translation.override("uk"):
        assert counts_text(counts) == "судді турнірів: 2; штрафи: 1"
