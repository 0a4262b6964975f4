"""Backup and restore in one process: an archive of a tournament played halfway, restored into a database
that no longer has it (other code keys, no lexicon, no arbiter: another machine), gives the same standings,
players' results, slips, verdicts and audit log, and the same tablets' logins; a damaged archive is refused
changing nothing; the automatic backups and the console's card and download."""

from __future__ import annotations

import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.utils import timezone, translation

from tests.tools.world import PREPARED, run_round
from tests.tournament.backup.helpers import other_machine, snapshot
from tournament import services
from tournament.backup import BackupError, read_archive, restore_archive, write_archive
from tournament.backup import automatic as backups
from tournament.backup.archive import DATA, MANIFEST
from tournament.backup.restore import VERSION_JUMP, delete_tournament
from tournament.models import (
    AuditLog,
    Registration,
    Slip,
    Tournament,
)

pytestmark = pytest.mark.django_db


def test_restore_on_another_machine_gives_everything_back(played, settings, tmp_path):
    t, players, token = played
    before = snapshot(t.slug)
    path = tmp_path / "b.zip"
    manifest = write_archive(path, [t])
    assert manifest["counts"]["tournament.Slip"] == 3 and manifest["lexicons"][0]["member"]
    assert settings.SECRET_KEY not in path.read_bytes().decode("latin-1")

    other_machine(settings, tmp_path)
    assert not Tournament.objects.exists() and services.players.registration_for_token(token) is None
    report = restore_archive(read_archive(path))

    assert report.tournaments == [t.slug] and report.users_created == ["alice"]
    assert report.lexicons_copied == ["judge-en v1"]
    assert snapshot(t.slug) == before
    restored = Tournament.objects.get(slug=t.slug)
    assert restored.lexicon.graph().content_hash == restored.lexicon.content_hash  # the file came along
    # the tablet carries on with its token; the access codes still work
    reg = services.players.registration_for_token(token)
    assert reg is not None and reg.player.name == "Chloé"
    assert services.players.login(players[0][1])[0].player.name == "Anna"
    assert AuditLog.objects.filter(tournament=restored, action="tournament.restore").count() == 1


def test_restore_refuses_a_tournament_already_here_unless_replaced(played, tmp_path):
    t, _players, token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    services.slips.submit_slip(t.games.get().rounds.get(number=2), Registration.objects.get(tournament=t,
                               table_number=1), word="ZED", coordinates="", score=None)  # after the backup
    counts = (Slip.objects.count(), AuditLog.objects.count())
    with pytest.raises(BackupError, match="already holds backup-open.*--replace"):
        restore_archive(read_archive(path))
    assert (Slip.objects.count(), AuditLog.objects.count()) == counts

    seen = Tournament.objects.get(slug=t.slug).screen_version
    report = restore_archive(read_archive(path), replace=True)
    assert report.replaced == [t.slug]
    assert Slip.objects.filter(round__game__tournament__slug=t.slug).count() == 3  # the archive's, not 4
    assert Tournament.objects.get(slug=t.slug).screen_version > seen + VERSION_JUMP  # every screen refreshes
    assert services.players.registration_for_token(token) is not None


def test_restore_maps_the_keys_this_database_already_uses(played, alice, settings, tmp_path):
    t, _players, token = played
    before = snapshot(t.slug)
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    taken = list(t.registrations.values_list("player_id", flat=True))
    slip_ids = list(Slip.objects.filter(round__game__tournament=t).values_list("pk", flat=True))
    delete_tournament(t)
    from tournament.models import Player

    for pk in taken:  # another tournament's players now hold those keys
        Player.objects.create(pk=pk, name=f"someone {pk}")
    restore_archive(read_archive(path))
    assert snapshot(t.slug) == before
    restored = Tournament.objects.get(slug=t.slug)
    assert not set(restored.registrations.values_list("player_id", flat=True)) & set(taken)
    assert set(Slip.objects.filter(round__game__tournament=restored).values_list("pk", flat=True)) == set(slip_ids)
    assert services.players.registration_for_token(token).tournament == restored


def rewritten(path: Path, change) -> bytes:
    """The archive with one part changed (a valid ZIP whose contents differ from the manifest's checksums)."""
    out = io.BytesIO()
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, change(name, src.read(name)))
    return out.getvalue()


@pytest.mark.parametrize("damage, message", [
    (lambda p: p.read_bytes()[: len(p.read_bytes()) // 2], "damaged or incomplete"),
    (lambda p: b"player,club\nAnna,Paris\n", "not a backup archive of this system"),
    (lambda p: rewritten(p, lambda n, b: b.replace(b"DOZERS", b"DOZENS") if n == DATA else b),
     "data.json is damaged"),
    (lambda p: rewritten(p, lambda n, b: b if n != MANIFEST else b"{}"), "manifest cannot be read"),
    (lambda p: rewritten(p, lambda n, b: b if n != MANIFEST else json.dumps(
        {**json.loads(b), "format_version": 99}).encode()), "newer version"),
])
def test_a_damaged_archive_is_refused_changing_nothing(played, tmp_path, damage, message):
    t, _players, _token = played
    good = tmp_path / "good.zip"
    write_archive(good, [t])
    bad = tmp_path / "bad.zip"
    bad.write_bytes(damage(good))
    delete_tournament(t)
    counts = (Tournament.objects.count(), Slip.objects.count(), AuditLog.objects.count())
    with pytest.raises(BackupError, match=message) as caught:
        restore_archive(read_archive(bad))
    assert "Nothing was changed" in caught.value.message
    assert (Tournament.objects.count(), Slip.objects.count(), AuditLog.objects.count()) == counts


def test_automatic_backups_skip_an_unchanged_tournament_and_keep_the_last_n(played, settings, tmp_path):
    t, players, _token = played
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_KEEP = 2
    first = backups.back_up(t, reason="periodic")
    assert first is not None and first.path.is_file()
    assert backups.back_up(t, reason="periodic") is None  # nothing changed
    rnd = t.games.get().rounds.get(number=2)
    for i, word in enumerate(("ZED", "ZEDS")):
        services.slips.submit_slip(rnd, players[i][0], word=word, coordinates="", score=None)
        written = backups.back_up(t, reason="periodic", force=True)
        assert written is not None
    kept = backups.archives_of(t)
    assert len(kept) <= 2 and kept[0].path == written.path
    assert backups.latest(t) == kept[0]
    assert read_archive(kept[0].path).manifest["counts"]["tournament.Slip"] == 5
    # the periodic pass: the tournaments in play that changed since their last archive
    assert backups.back_up_changed() == {t.slug: "unchanged"}
    services.slips.submit_slip(rnd, players[0][0], word="ADZE", coordinates="", score=None)
    assert backups.back_up_changed()[t.slug].startswith(f"{t.slug}--")


def test_a_publication_writes_a_backup(alice, real_lexicon, eager, settings, tmp_path):
    settings.BACKUP_DIR = tmp_path / "stick"
    t = services.tournaments.create_tournament(alice, name="Open", slug="pub", ruleset="en", lexicon=real_lexicon,
                                               arbiters=[alice])
    reg, _code = services.players.register_player(alice, t, name="Anna")
    game = services.games.create_game(alice, t, prepared_racks=PREPARED)
    rnd = run_round(alice, game, eager, {reg: "H4 CARTS 20"})
    assert backups.latest(t) is None
    settings.BACKUP_SECONDS = 180
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    latest = backups.latest(t)
    assert latest is not None
    archive = read_archive(latest.path)
    assert archive.manifest["reason"] == "publication"
    assert [r["status"] for r in archive.rows(type(rnd))] == ["published"]


def test_the_publications_backup_waits_for_the_results_to_go_out(alice, real_lexicon, eager, settings,
                                                                  monkeypatch):
    """Sent for a few seconds after the publication (the web nodes send every tablet its result first)."""
    from tournament.celery import app
    from tournament.services import jobs, rounds

    t = services.tournaments.create_tournament(alice, name="Open", slug="pub2", ruleset="en", lexicon=real_lexicon,
                                               arbiters=[alice])
    reg, _code = services.players.register_player(alice, t, name="Anna")
    rnd = run_round(alice, services.games.create_game(alice, t, prepared_racks=PREPARED), eager, {reg: "H4 CARTS 20"})
    settings.BACKUP_SECONDS = 180
    sent: list[tuple[tuple[object, ...], dict[str, object]]] = []
    monkeypatch.setattr(app.tasks[jobs.BACKUP_TOURNAMENT], "apply_async",
                        lambda args, **options: sent.append((args, options)))
    with eager(execute=True):
        services.rounds.publish_round(alice, rnd)
    rnd.refresh_from_db()
    assert [args for args, _options in sent] == [(t.pk, "publication")]
    eta = sent[0][1]["eta"]
    assert isinstance(eta, datetime) and rnd.published_at is not None
    delay = (eta - rnd.published_at).total_seconds()
    assert rounds.BACKUP_AFTER_PUBLICATION_SECONDS <= delay < rounds.BACKUP_AFTER_PUBLICATION_SECONDS + 1


def test_console_shows_the_last_backup_and_downloads_one(client, alice, played, settings, tmp_path):
    t, _players, _token = played
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_SECONDS = 180
    client.force_login(alice)
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert "Автоматических копий этого турнира ещё нет." in page  # the console speaks the tournament's language
    assert "Автоматические копии запаздывают" not in page  # changes of a moment ago: the worker has time
    AuditLog.objects.filter(tournament=t).update(at=timezone.now() - timedelta(minutes=10))
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert "Автоматические копии запаздывают" in page  # a game is played and no archive for 10 minutes
    written = backups.back_up(t, reason="periodic")
    assert written is not None
    page = client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert "Последняя автоматическая копия" in page and written.name in page
    assert "Автоматические копии запаздывают" not in page
    response = client.get(f"/arbiter/t/{t.slug}/backup/")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert f"{t.slug}--" in response["Content-Disposition"]
    path = tmp_path / "download.zip"
    path.write_bytes(response.content)
    assert read_archive(path).manifest["tournaments"][0]["slug"] == t.slug
    assert AuditLog.objects.filter(action="tournament.backup", tournament=t).exists()


def archived_at(backup: backups.BackupFile, when: datetime) -> None:
    """The archive as if the worker had written it at ``when`` (its UTC time is in its name)."""
    stamp = when.astimezone(UTC).strftime("%Y%m%d-%H%M%S")
    backup.path.rename(backup.path.with_name(f"{backup.path.name.split('--')[0]}--{stamp}.zip"))


def test_an_unchanged_tournament_is_never_late_a_changed_one_is_once_the_worker_had_time(
        client, alice, played, settings, tmp_path):
    """Issue 34: a false "automatic backups are late" on a tournament that had not changed since its last archive."""
    t, players, _token = played
    settings.BACKUP_DIR = tmp_path / "stick"
    settings.BACKUP_SECONDS = 180
    written = backups.back_up(t, reason="periodic")
    assert written is not None
    two_hours_ago = timezone.now() - timedelta(hours=2)
    archived_at(written, two_hours_ago)  # the last archive two hours old, the game still in play
    AuditLog.objects.filter(tournament=t).update(at=two_hours_ago - timedelta(minutes=5))
    client.force_login(alice)
    late = "Автоматические копии запаздывают"
    assert late not in client.get(f"/arbiter/t/{t.slug}/").content.decode()  # nothing changed since
    assert not backups.overdue(t, backups.latest(t))
    # a slip comes in: not late while the worker has two passes and a minute to write it
    rnd = t.games.get().rounds.get(number=2)
    services.slips.submit_slip(rnd, players[0][0], word="ZED", coordinates="", score=None)
    assert late not in client.get(f"/arbiter/t/{t.slug}/").content.decode()
    # ... and late once that change is 7 minutes old (2 × 3 min + 1 min) without an archive
    AuditLog.objects.filter(tournament=t, at__gt=two_hours_ago).update(at=timezone.now() - timedelta(seconds=421))
    assert late in client.get(f"/arbiter/t/{t.slug}/").content.decode()
    assert backups.back_up(t, reason="periodic") is not None  # the worker catches up: not late any more
    assert late not in client.get(f"/arbiter/t/{t.slug}/").content.decode()


def test_the_download_is_for_the_tournaments_arbiters_only(client, bob, played):
    t, _players, _token = played
    client.force_login(bob)
    assert client.get(f"/arbiter/t/{t.slug}/backup/").status_code in (403, 404)
    client.logout()
    assert client.get(f"/arbiter/t/{t.slug}/backup/").status_code == 302


def test_the_whole_hall_comes_back(played, alice, bob, real_lexicon, settings, tmp_path):
    t, _players, token = played
    other = services.tournaments.create_tournament(bob, name="Coupe", slug="coupe", ruleset="en",
                                                   lexicon=real_lexicon, arbiters=[bob])
    services.players.register_player(bob, other, name="Denis")
    before = (snapshot(t.slug), snapshot(other.slug))
    path = tmp_path / "hall.zip"
    manifest = write_archive(path)  # no tournament: the whole hall
    assert manifest["scope"] == "hall" and {e["slug"] for e in manifest["tournaments"]} == {t.slug, other.slug}
    other_machine(settings, tmp_path)
    report = restore_archive(read_archive(path))
    assert sorted(report.tournaments) == ["backup-open", "coupe"]
    assert sorted(report.users_created) == ["alice", "bob"]
    assert (snapshot(t.slug), snapshot(other.slug)) == before
    assert list(Tournament.objects.get(slug="coupe").arbiters.values_list("username", flat=True)) == ["bob"]
    assert services.players.registration_for_token(token) is not None


def test_the_refusal_speaks_the_arbiters_language(played, tmp_path):
    t, _players, _token = played
    path = tmp_path / "b.zip"
    write_archive(path, [t])
    cut = tmp_path / "cut.zip"
    cut.write_bytes(path.read_bytes()[:1000])
    with translation.override("uk"), pytest.raises(BackupError) as caught:
        restore_archive(read_archive(cut))
    assert "пошкоджено" in caught.value.message and "Нічого не змінено" in caught.value.message
    with translation.override("uk"), pytest.raises(BackupError) as caught:
        restore_archive(read_archive(path))
    assert "вже є backup-open" in caught.value.message and "--replace" in caught.value.message
