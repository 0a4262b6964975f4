"""An archive is written by a stranger as far as a restore knows (its checksums are no signature): it carries no
secret (API token, password hash, session, secret key), and its rows never grant anything — no superuser or
staff flag, no file path, no value the models would refuse, no row pointing to a parent the archive lacks; a
lexicon hash that is not one is refused before anything is written anywhere. Every crafted archive below
has checksums that match (``forged``)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

from lexicon.models import Lexicon
from tests.tournament.backup.helpers import forged, other_machine, set_column
from tournament.backup import BackupError, read_archive, restore_archive, write_archive
from tournament.backup.archive import DATA
from tournament.backup.restore import delete_tournament
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db

User = get_user_model()
HASH_MARKS = ("pbkdf2_", "argon2", "bcrypt", "sha1$", "md5$", "scrypt$")


def unpacked(path: Path) -> bytes:
    """Every member of the archive, unpacked, one after the other."""
    with zipfile.ZipFile(path) as zf:
        return b"".join(zf.read(name) for name in zf.namelist())


@pytest.fixture
def shared(played, alice, bob, client, tmp_path):
    """The played tournament with a co-arbiter; both arbiters have a password, an API token and a session."""
    t, _players, _token = played
    t.arbiters.add(bob)
    for user in (alice, bob):
        user.set_password(f"{user.username}-secret-password")
        user.save()
        Token.objects.get_or_create(user=user)
    client.force_login(alice)
    return t


def test_a_backup_of_a_shared_tournament_holds_no_token_no_hash_no_session_no_secret(shared, client, tmp_path):
    t = shared
    by_command = tmp_path / "command.zip"
    call_command("backup", "--tournament", t.slug, "--out", str(by_command), stdout=io.StringIO())
    download = tmp_path / "download.zip"
    response = client.get(f"/arbiter/t/{t.slug}/backup/")
    assert response.status_code == 200
    download.write_bytes(response.content)
    secret_file = Path(django_settings.VAR_DIR) / "secret_key"
    secrets = [django_settings.SECRET_KEY.encode(), *(s.session_key.encode() for s in Session.objects.all()),
               *(tok.key.encode() for tok in Token.objects.all()),
               *(u.password.encode() for u in User.objects.filter(username__in=["alice", "bob"]))]
    if secret_file.is_file():
        secrets.append(secret_file.read_bytes().strip())
    assert Session.objects.exists() and Token.objects.count() == 2
    for path in (by_command, download):
        blob = unpacked(path)
        assert {"alice", "bob"} <= {r["username"] for r in read_archive(path).rows(User)}
        for secret in secrets:
            assert secret not in blob, (path.name, secret[:12])
        for mark in HASH_MARKS:
            assert mark.encode() not in blob, (path.name, mark)
        assert b"authtoken.Token" not in blob and b"is_superuser" not in blob and b"is_staff" not in blob


def test_a_restored_arbiter_new_here_gets_no_password_and_is_told_how_to_set_one(shared, settings, tmp_path):
    t = shared
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    other_machine(settings, tmp_path)
    here = User.objects.create(username="bob")
    here.set_password("bob-here")
    here.save()
    out = io.StringIO()
    call_command("restore", str(path), "--language", "en", stdout=out)
    alice = User.objects.get(username="alice")
    assert not alice.has_usable_password() and not alice.is_staff and not alice.is_superuser
    assert User.objects.get(username="bob").check_password("bob-here")  # an arbiter who exists here keeps his
    assert not Token.objects.exists()
    text = out.getvalue()
    assert "manage.py changepassword alice" in text and "changepassword bob" not in text


def test_the_password_hint_speaks_the_report_language(shared, settings, tmp_path):
    path = tmp_path / "b.zip"
    write_archive(path, [shared])
    other_machine(settings, tmp_path)
    out = io.StringIO()
    call_command("restore", str(path), "--language", "uk", stdout=out)
    assert "manage.py changepassword alice" in out.getvalue() and "немає пароля" in out.getvalue()


def nothing_restored() -> bool:
    return not Tournament.objects.exists() and not User.objects.exists() and not Lexicon.objects.exists()


def refused(path: Path, match: str) -> str:
    with pytest.raises(CommandError) as caught:
        call_command("restore", str(path), "--language", "en", stdout=io.StringIO())
    assert caught.value.returncode == 1
    message = str(caught.value)
    assert match in message and "Nothing was changed" in message, message
    return message


def test_a_superuser_flag_in_an_archive_is_refused(played, settings, tmp_path):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    bad = forged(path, tmp_path / "bad.zip", lambda m: None, set_column("auth.User", "is_superuser", True))
    other_machine(settings, tmp_path)
    refused(bad, "is_superuser")
    assert nothing_restored()
    with pytest.raises(CommandError, match="is_superuser"):
        call_command("restore", str(bad), "--check", "--language", "en", stdout=io.StringIO())


@pytest.mark.parametrize("table, column, value", [
    ("authtoken.Token", None, None),  # tokens: no archive of this format holds them
    ("auth.User", "password", "pbkdf2_sha256$1$salt$forged"),
    ("auth.User", "is_staff", True),
])
def test_a_secret_or_a_right_in_an_archive_of_this_format_is_refused(played, settings, tmp_path, table, column,
                                                                     value):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])

    def add(data: dict) -> None:
        if column is None:
            data["tables"][table] = {"columns": ["key", "user_id", "created"], "rows": []}
        else:
            set_column(table, column, value)(data)
    bad = forged(path, tmp_path / "bad.zip", lambda m: None, add)
    other_machine(settings, tmp_path)
    refused(bad, table if column is None else column)
    assert nothing_restored()


def test_an_archive_of_the_earlier_format_gives_no_right_and_no_password(played, settings, tmp_path):
    """Format 2 held the users' passwords, flags and tokens: a restore takes none of them."""
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])

    def earlier(data: dict) -> None:
        for column, value in (("is_superuser", True), ("is_staff", True), ("password", "pbkdf2_sha256$1$s$x")):
            set_column("auth.User", column, value)(data)
        users = data["tables"]["auth.User"]
        data["tables"]["authtoken.Token"] = {"columns": ["key", "user_id", "created"],
                                             "rows": [["f" * 40, users["rows"][0][0], "2026-11-29T00:00:00+00:00"]]}
    bad = forged(path, tmp_path / "old.zip", lambda m: m.update(format_version=2), earlier)
    other_machine(settings, tmp_path)
    restore_archive(read_archive(bad))
    alice = User.objects.get(username="alice")
    assert not alice.is_superuser and not alice.is_staff and not alice.has_usable_password()
    assert not Token.objects.exists()


def test_a_lexicon_row_naming_a_file_of_the_machine_never_brings_it_into_a_backup(played, settings, tmp_path):
    """The issue's attack: a lexicon row (status failed, a hash that is one) with an absolute file path, the
    tournament pointing to it — the next backup carried the file the path named."""
    t, _players, _token = played
    secret = tmp_path / "var" / "secret_key"
    secret.parent.mkdir()
    secret.write_bytes(b"the-hall-secret-key-0123456789")
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    fake = "e" * 64

    def poison(data: dict) -> None:
        table = data["tables"]["lexicon.Lexicon"]
        cols = table["columns"]
        row = list(table["rows"][0])
        for column, value in (("id", 999), ("name", "trap"), ("content_hash", fake), ("status", "failed"),
                              ("file_path", str(secret)), ("input_path", str(secret)), ("version", None)):
            row[cols.index(column)] = value
        table["rows"].append(row)
        tournaments = data["tables"]["tournament.Tournament"]
        tournaments["rows"][0][tournaments["columns"].index("lexicon_id")] = 999

    def listed(manifest: dict) -> None:
        manifest["lexicons"].append({**manifest["lexicons"][0], "name": "trap", "content_hash": fake,
                                     "member": None, "sha256": "", "beside": False})
    bad = forged(path, tmp_path / "bad.zip", listed, poison)
    other_machine(settings, tmp_path)
    restore_archive(read_archive(bad))
    trap = Lexicon.objects.get(name="trap")
    assert trap.file_path == "" and trap.input_path == "" and trap.status == "failed"
    again = tmp_path / "again.zip"
    write_archive(again, [Tournament.objects.get()])
    assert secret.read_bytes() not in again.read_bytes() and secret.read_bytes() not in unpacked(again)


def test_a_backup_never_reads_a_lexicon_file_outside_the_lexicon_folder(played, tmp_path):
    """A row already poisoned (by an earlier restore) is not followed either."""
    t, _players, _token = played
    secret = tmp_path / "secret_key"
    secret.write_bytes(b"the-hall-secret-key-0123456789")
    Lexicon.objects.filter(pk=t.lexicon_id).update(file_path=str(secret))
    for beside in (False, True):
        path = tmp_path / f"b{beside}.zip"
        write_archive(path, [t], lexicon_beside=beside)
        assert secret.read_bytes() not in unpacked(path)
        assert not [p for p in tmp_path.glob("lexicon-*.kwg") if secret.read_bytes() in p.read_bytes()]


@pytest.mark.parametrize("table, column, value, match", [
    ("lexicon.Lexicon", "status", "hacked", "status"),
    ("tournament.Player", "name", "x" * 5000, "name"),
    ("tournament.Player", "id", "one", "id"),
    ("auth.User", "username", "../../etc", "username"),
    ("tournament.Registration", "tournament_id", 123456, "tournament"),
    ("tournament.Player", "no_such_column", 1, "no_such_column"),
    ("tournament.Registration", "table_number", -3, "table_number"),
    ("tournament.Player", "name", "An\x00na", "name"),
    ("tournament.Player", "name", ["Anna"], "name"),
    ("tournament.Registration", "created_at", "yesterday", "created_at"),
    ("tournament.Tournament", "assisted_mode", 7, "assisted_mode"),
    ("tournament.Tournament", "language", "xx", "language"),
])
def test_a_value_the_models_refuse_is_refused_before_anything_is_written(played, settings, tmp_path, table, column,
                                                                        value, match):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    bad = forged(path, tmp_path / "bad.zip", lambda m: None, set_column(table, column, value))
    other_machine(settings, tmp_path)
    refused(bad, match)
    assert nothing_restored() and not Player.objects.exists()
    assert not (settings.LEXICON_DIR / "graphs").exists()  # no lexicon file copied before the check


@pytest.mark.parametrize("value", ["../../../../outside/x", "0" * 64 + "/../../x"])
def test_a_bad_hash_in_an_archive_holding_its_lexicon_writes_nowhere(played, settings, tmp_path, value):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    settings.LEXICON_DIR = tmp_path / "deep" / "er" / "lexicons"

    def manifest(m: dict) -> None:
        m["lexicons"][0]["content_hash"] = value
    bad = forged(path, tmp_path / "bad.zip", manifest, set_column("lexicon.Lexicon", "content_hash", value))
    other_machine(settings, tmp_path)
    settings.LEXICON_DIR = tmp_path / "deep" / "er" / "lexicons"
    with pytest.raises(BackupError, match="invalid content hash"):
        restore_archive(read_archive(bad))
    assert nothing_restored()
    assert not (tmp_path / "outside").exists() and not (tmp_path / "deep").exists()
    assert not list(tmp_path.rglob("*.partial"))


def test_a_lexicon_member_the_manifest_names_elsewhere_is_refused(played, settings, tmp_path):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])

    def manifest(m: dict) -> None:
        m["lexicons"][0]["member"] = DATA
    bad = forged(path, tmp_path / "bad.zip", manifest)
    other_machine(settings, tmp_path)
    refused(bad, "lexicon")
    assert nothing_restored()


def restore_text(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("restore", str(path), "--language", "en", *args, stdout=out)
    return out.getvalue()


def test_restore_says_whether_this_hall_signed_the_archive(played, settings, tmp_path):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    changed = forged(path, tmp_path / "changed.zip", lambda m: m.update(host="elsewhere"))
    unsigned = forged(path, tmp_path / "unsigned.zip", lambda m: m.pop("signature"))
    assert "Signed by this hall" in restore_text(path, "--check", "--require-signature")
    for bad, says in ((changed, "Signed by another hall, or changed"), (unsigned, "Not signed")):
        assert says in restore_text(bad, "--check")
        with pytest.raises(CommandError, match="not signed by this hall") as caught:
            call_command("restore", str(bad), "--language", "en", "--require-signature", stdout=io.StringIO())
        assert caught.value.returncode == 1
    settings.SECRET_KEY = "another hall's secret key " * 2  # another hall reads this hall's archive
    assert "Signed by another hall" in restore_text(path, "--check")
    delete_tournament(t)
    with pytest.raises(CommandError, match="not signed by this hall"):
        call_command("restore", str(path), "--language", "en", "--require-signature", stdout=io.StringIO())
    assert not Tournament.objects.exists()
