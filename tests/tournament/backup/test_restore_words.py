"""What a restore says: a file that is not a backup archive of this system at all is told so, apart from an
archive of ours that is damaged or cut off; the ``restore`` command speaks one language throughout (its
``--language``, by default the server's LANGUAGE_CODE), its report and its refusals alike."""

from __future__ import annotations

import io
import os
import re
import zipfile
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from lexicon import services as lexicon_services
from tests.tools.world import PREPARED, WORDLIST, run_round
from tournament import services
from tournament.backup import BackupError, read_archive, write_archive
from tournament.backup.restore import delete_tournament

pytestmark = pytest.mark.django_db

NOT_OURS = "not a backup archive of this system"
DAMAGED = "damaged or incomplete"


@pytest.fixture
def archive(alice, settings, tmp_path, eager) -> Path:
    """An archive of a tournament with one published round (its tournament deleted afterwards)."""
    settings.LEXICON_DIR = tmp_path / "lexicons"
    lexicon = lexicon_services.import_wordlist("judge-en", "en", WORDLIST)
    t = services.tournaments.create_tournament(alice, name="Кубок", slug="kubok", ruleset="en", lexicon=lexicon,
                                               arbiters=[alice])
    reg, _code = services.players.register_player(alice, t, name="Анна")
    game = services.games.create_game(alice, t, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {reg: "H4 CARTS 20"})
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    path = tmp_path / "kubok.zip"
    write_archive(path, [t])
    delete_tournament(t)
    return path


def zipped(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("content", [
    pytest.param(os.urandom(4096), id="random bytes"),
    pytest.param(b"", id="an empty file"),
    pytest.param("Прізвище;клуб\nПетренко Іван;Київ\n".encode(), id="a text file"),
    pytest.param(zipped({"photo.jpg": os.urandom(500), "notes.txt": b"hello"}), id="a zip of something else"),
    pytest.param(zipped({"photo.jpg": os.urandom(500), "manifest.json": b'{"format": "other"}'}),
                 id="a zip with another manifest"),
    pytest.param(zipped({"photo.jpg": os.urandom(5000)})[:300], id="a zip of something else, cut off"),
])
def test_a_file_that_is_no_backup_is_told_so(tmp_path, content):
    path = tmp_path / "file.zip"
    path.write_bytes(content)
    with translation.override("en"), pytest.raises(BackupError) as caught:
        read_archive(path)
    assert NOT_OURS in caught.value.message and DAMAGED not in caught.value.message
    assert "Nothing was changed" in caught.value.message


@pytest.mark.parametrize("cut", [1000, 60, 200])
def test_an_archive_of_ours_cut_off_is_damaged_not_foreign(archive, tmp_path, cut):
    path = tmp_path / "cut.zip"
    path.write_bytes(archive.read_bytes()[:cut])
    with translation.override("en"), pytest.raises(BackupError) as caught:
        read_archive(path)
    assert DAMAGED in caught.value.message and NOT_OURS not in caught.value.message


#: Latin words of the command's English report: none may show in another language's run.
ENGLISH_WORDS = re.compile(r"\b(written|restored|replaced|lexicons?|arbiters?|note|the tablets|whole|archive is)\b",
                           re.IGNORECASE)


def run_restore(*args: str) -> str:
    out = io.StringIO()
    call_command("restore", *args, stdout=out)
    return out.getvalue()


def test_the_command_speaks_the_language_asked_for_throughout(archive, settings):
    settings.LANGUAGE_CODE = "en"
    checked = run_restore(str(archive), "--check", "--language", "uk")
    assert "Архів цілий" in checked and not ENGLISH_WORDS.search(checked)
    done = run_restore(str(archive), "--language", "uk")
    assert "Відновлено kubok" in done and "Планшети" in done
    assert not ENGLISH_WORDS.search(done), done
    with pytest.raises(CommandError) as caught:  # the tournament is here now
        run_restore(str(archive), "--language", "uk")
    assert "вже є kubok" in str(caught.value) and "Нічого не змінено" in str(caught.value)
    assert translation.get_language() != "uk"  # the command leaves the language as it found it


def test_the_command_speaks_the_servers_language_by_default(archive, settings, tmp_path):
    settings.LANGUAGE_CODE = "ru"
    done = run_restore(str(archive))
    assert "Восстановлено kubok" in done and not ENGLISH_WORDS.search(done), done
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"not a zip at all")
    with pytest.raises(CommandError) as caught:
        run_restore(str(junk))
    assert "не архив резервной копии этой системы" in str(caught.value)
    settings.LANGUAGE_CODE = "en"
    with pytest.raises(CommandError) as caught:
        run_restore(str(junk))
    assert NOT_OURS in str(caught.value)
