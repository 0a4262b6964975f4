"""A lexicon is kept once beside the automatic backups (``lexicon-<content hash>.kwg``), not in every archive:
an archive copied with that file restores on a machine without the lexicon; without it, the refusal names the
file to copy; a file beside that holds other words, or a hash that is not one, is refused before anything is
written. The manual backup and the console's download still hold their lexicon; an archive of the earlier
format (lexicon inside) still restores."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from lexicon.models import Lexicon
from tests.paths import FIXTURES
from tests.tournament.backup.helpers import forged, other_machine, snapshot
from tournament import services
from tournament.backup import BackupError, read_archive, restore_archive, write_archive
from tournament.backup import automatic as backups
from tournament.models import AuditLog, Slip, Tournament

pytestmark = pytest.mark.django_db


def beside_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("lexicon-*.kwg"))


@pytest.fixture
def stick(settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "stick"
    return settings.BACKUP_DIR


def test_automatic_backups_keep_the_lexicon_once_beside_them(played, stick):
    t, players, _token = played
    lex = t.lexicon
    first = backups.back_up(t, reason="periodic")
    assert first is not None
    older = first.path.rename(stick / f"{t.slug}--20260101-090000.zip")  # an earlier archive of the day
    services.slips.submit_slip(t.games.get().rounds.get(number=2), players[0][0], word="ZED", coordinates="",
                               score=None)
    second = backups.back_up(t, reason="periodic")
    assert second is not None and [a.path for a in backups.archives_of(t)] == [second.path, older]
    assert beside_files(stick) == [stick / f"lexicon-{lex.content_hash}.kwg"]
    assert (stick / f"lexicon-{lex.content_hash}.kwg").read_bytes() == lex.absolute_path.read_bytes()
    for archive in backups.archives_of(t):
        with zipfile.ZipFile(archive.path) as zf:
            assert not [n for n in zf.namelist() if n.startswith("lexicons/")]
        entry = read_archive(archive.path).manifest["lexicons"][0]
        assert entry["member"] is None and entry["beside"] and entry["content_hash"] == lex.content_hash


def copied_with_lexicon(archive: Path, folder: Path, *, lexicon: bool = True) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(archive, folder / archive.name)
    if lexicon:
        for path in beside_files(archive.parent):
            shutil.copy2(path, folder / path.name)
    return folder / archive.name


def test_an_automatic_archive_with_its_lexicon_file_restores_on_a_machine_without_the_lexicon(
        played, stick, settings, tmp_path):
    t, _players, token = played
    before = snapshot(t.slug)
    written = backups.back_up(t, reason="periodic")
    moved = copied_with_lexicon(written.path, tmp_path / "usb")
    other_machine(settings, tmp_path)
    settings.BACKUP_DIR = tmp_path / "empty-backup-dir"  # the other laptop's own backup folder: nothing there
    report = restore_archive(read_archive(moved))
    assert report.lexicons_copied == ["judge-en v1"]
    assert snapshot(t.slug) == before
    restored = Tournament.objects.get(slug=t.slug)
    assert restored.lexicon.graph().content_hash == restored.lexicon.content_hash
    assert services.players.registration_for_token(token) is not None


def test_the_backup_folder_is_searched_too(played, stick, settings, tmp_path):
    """An archive copied elsewhere alone is restored with the lexicon of this machine's backup folder."""
    t, _players, _token = played
    written = backups.back_up(t, reason="periodic")
    alone = copied_with_lexicon(written.path, tmp_path / "elsewhere", lexicon=False)
    other_machine(settings, tmp_path)
    report = restore_archive(read_archive(alone))
    assert report.tournaments == [t.slug] and report.lexicons_copied == ["judge-en v1"]


def test_without_its_lexicon_file_the_restore_names_the_file_and_changes_nothing(played, stick, settings, tmp_path):
    t, _players, _token = played
    written = backups.back_up(t, reason="periodic")
    name = f"lexicon-{t.lexicon.content_hash}.kwg"
    alone = copied_with_lexicon(written.path, tmp_path / "usb", lexicon=False)
    other_machine(settings, tmp_path)
    settings.BACKUP_DIR = tmp_path / "empty-backup-dir"
    counts = (Tournament.objects.count(), Lexicon.objects.count(), AuditLog.objects.count())
    with pytest.raises(BackupError) as caught:
        restore_archive(read_archive(alone))
    assert name in caught.value.message and str(alone.parent) in caught.value.message
    assert "Nothing was changed" in caught.value.message
    assert (Tournament.objects.count(), Lexicon.objects.count(), AuditLog.objects.count()) == counts
    assert not (tmp_path / "other-lexicons").exists() or not any((tmp_path / "other-lexicons").rglob("*.kwg"))
    with translation.override("uk"), pytest.raises(BackupError) as caught:
        restore_archive(read_archive(alone))
    assert name in caught.value.message and "Нічого не змінено" in caught.value.message


def test_a_lexicon_file_beside_that_holds_other_words_is_refused(played, stick, settings, tmp_path):
    t, _players, _token = played
    written = backups.back_up(t, reason="periodic")
    moved = copied_with_lexicon(written.path, tmp_path / "usb")
    beside = moved.parent / f"lexicon-{t.lexicon.content_hash}.kwg"
    data = bytearray(beside.read_bytes())
    data[-10] ^= 0xFF  # one byte changed: the words' hash differs from the name's
    beside.write_bytes(bytes(data))
    other_machine(settings, tmp_path)
    settings.BACKUP_DIR = tmp_path / "empty-backup-dir"
    with pytest.raises(BackupError, match="damaged or holds other words") as caught:
        restore_archive(read_archive(moved))
    assert "Nothing was changed" in caught.value.message
    assert not Tournament.objects.exists() and not Lexicon.objects.exists()
    assert not any((tmp_path / "other-lexicons").rglob("*.kwg*"))


def set_lexicon_hash(value: str):
    def manifest(m: dict) -> None:
        m["lexicons"][0]["content_hash"] = value

    def data(d: dict) -> None:
        table = d["tables"]["lexicon.Lexicon"]
        at = table["columns"].index("content_hash")
        table["rows"][0][at] = value
    return manifest, data


@pytest.mark.parametrize("value", ["../../../outside", "A" * 64, "0" * 63, "0" * 64 + "/x", ""])
def test_a_hash_that_is_not_one_is_refused_before_anything_is_written(played, stick, settings, tmp_path, value):
    t, _players, _token = played
    written = backups.back_up(t, reason="periodic")
    manifest, data = set_lexicon_hash(value)
    (tmp_path / "usb").mkdir()
    bad = forged(written.path, tmp_path / "usb" / "bad.zip", manifest, data)
    other_machine(settings, tmp_path)
    with pytest.raises(BackupError, match="invalid content hash") as caught:
        restore_archive(read_archive(bad))
    assert "Nothing was changed" in caught.value.message
    assert not Tournament.objects.exists() and not Lexicon.objects.exists()
    assert sorted(p.name for p in (tmp_path / "usb").iterdir()) == ["bad.zip"]
    assert not (tmp_path / "outside").exists()


def test_the_manual_backup_and_the_download_hold_their_lexicon_stored_as_it_is(played, client, alice, tmp_path):
    t, _players, _token = played
    path = tmp_path / "manual.zip"
    write_archive(path, [t])
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo(f"lexicons/{t.lexicon.content_hash}.kwg")
        assert info.compress_type == zipfile.ZIP_STORED  # not compressed again at every backup
        assert zf.read(info) == t.lexicon.absolute_path.read_bytes()
    assert not beside_files(tmp_path)
    client.force_login(alice)
    download = tmp_path / "download.zip"
    download.write_bytes(client.get(f"/arbiter/t/{t.slug}/backup/").content)
    assert read_archive(download).manifest["lexicons"][0]["member"] == f"lexicons/{t.lexicon.content_hash}.kwg"


def test_backup_command_keeps_the_lexicon_beside_when_asked(played, tmp_path, capsys):
    t, _players, _token = played
    out = tmp_path / "by-hand" / "open.zip"
    call_command("backup", "--tournament", t.slug, "--out", str(out), "--lexicon-beside")
    assert beside_files(out.parent) == [out.parent / f"lexicon-{t.lexicon.content_hash}.kwg"]
    with zipfile.ZipFile(out) as zf:
        assert not [n for n in zf.namelist() if n.startswith("lexicons/")]
    said = capsys.readouterr().out
    assert f"lexicon-{t.lexicon.content_hash}.kwg" in said


def test_restore_check_says_where_each_lexicon_comes_from(played, stick, settings, tmp_path, capsys):
    t, _players, _token = played
    written = backups.back_up(t, reason="periodic")
    alone = copied_with_lexicon(written.path, tmp_path / "usb", lexicon=False)
    other_machine(settings, tmp_path)
    settings.BACKUP_DIR = tmp_path / "empty-backup-dir"
    call_command("restore", str(alone), "--check", "--language", "en")
    said = capsys.readouterr().out
    assert f"missing: lexicon-{t.lexicon.content_hash}.kwg" in said and said.startswith(alone.name)
    shutil.copy2(stick / f"lexicon-{t.lexicon.content_hash}.kwg", alone.parent)
    call_command("restore", str(alone), "--check", "--language", "en")
    assert f"beside the archive: lexicon-{t.lexicon.content_hash}.kwg" in capsys.readouterr().out
    assert not Tournament.objects.exists()


def test_an_archive_of_the_first_format_still_restores(settings, tmp_path):
    """``fixtures/backups/v1-backup-open.zip``: written by the first format (lexicon inside, no training
    tables) from the tournament of ``played`` (round 1 published, round 2 open with one slip)."""
    settings.LEXICON_DIR = tmp_path / "lexicons"
    path = tmp_path / "v1.zip"
    shutil.copy2(FIXTURES / "backups" / "v1-backup-open.zip", path)
    archive = read_archive(path)
    assert archive.manifest["format_version"] == 1
    report = restore_archive(archive)
    assert report.tournaments == ["backup-open"] and report.lexicons_copied == ["judge-en v1"]
    t = Tournament.objects.get(slug="backup-open")
    assert t.lexicon.graph().content_hash == t.lexicon.content_hash
    assert Slip.objects.filter(round__game__tournament=t).count() == 3
    reg = services.players.registration_for_token("h-6lGIt-A-YPgg0MMXntOZumqoTeRKkSrfHnAGj3RZI")
    assert reg is not None and reg.player.name == "Chloé"
    assert services.players.login("7QC385J9YP")[0].player.name == "Anna"


def test_the_console_names_the_lexicon_file_kept_beside_the_archives(played, stick, client, alice, settings):
    t, _players, _token = played
    settings.BACKUP_SECONDS = 180
    client.force_login(alice)
    name = f"lexicon-{t.lexicon.content_hash}.kwg"
    assert name not in client.get(f"/arbiter/t/{t.slug}/").content.decode()
    backups.back_up(t, reason="periodic")
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()  # the tournament's language: Russian
    assert name in page and "Автоматические копии не содержат словаря" in page
    assert "Скачанная копия содержит и словарь." in page
