"""Training sessions are in the backup: a tournament's archive holds the training games of its games with their
runs and club sessions (the whole hall's also the imported records'), and a restore brings them back — on
another machine as they were, over this machine's copy without losing or doubling a run."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournament.backup.helpers import other_machine
from tournament.backup import automatic as backups
from tournament.backup import read_archive, restore_archive, write_archive
from tournament.backup.restore import delete_tournament
from tournament.models import AuditLog, Tournament, TrainingClub, TrainingGame, TrainingRun
from tournament.training import services as training

pytestmark = pytest.mark.django_db


def training_rows() -> dict[str, list[tuple]]:
    """Every training row as a tuple of its values (keys replaced by what they stand for), sorted."""
    games = [(g.title, g.ruleset, g.created_at, g.lexicon.content_hash, g.rounds,
              g.source_game.tournament.slug if g.source_game else None,
              g.source_game.number if g.source_game else None) for g in TrainingGame.objects.all()]
    clubs = [(c.game.title, c.name, c.code, c.leader_key, c.round, c.started_at) for c in TrainingClub.objects.all()]
    runs = [(r.game.title, r.club.code if r.club else None, r.name, r.code, r.round, r.started_at, repr(r.results),
             r.show_moves, r.created_at) for r in TrainingRun.objects.all()]
    return {"games": sorted(games, key=repr), "clubs": sorted(clubs, key=repr), "runs": sorted(runs, key=repr)}


def test_a_tournaments_backup_brings_its_training_sessions_back(trained, settings, tmp_path):
    t, tg, imported = trained
    path = tmp_path / "t.zip"
    manifest = write_archive(path, [t])
    assert manifest["counts"]["tournament.TrainingGame"] == 1  # not the imported record's
    assert manifest["counts"]["tournament.TrainingRun"] == 3 and manifest["counts"]["tournament.TrainingClub"] == 1
    before = training_rows()
    other_machine(settings, tmp_path)
    restore_archive(read_archive(path))
    after = training_rows()
    assert after["games"] == [g for g in before["games"] if g[0] != "A record"]
    assert after["clubs"] == before["clubs"]
    assert after["runs"] == [r for r in before["runs"] if r[0] != "A record"]
    dora = training.run_for_code(TrainingRun.objects.get(name="Dora").code)
    assert dora is not None and dora.results[0]["awarded"] == 20
    assert training.from_tournament_game(Tournament.objects.get(slug="trained").games.get()).pk == dora.game_id


def test_the_whole_halls_backup_holds_the_imported_records_too(trained, settings, tmp_path):
    path = tmp_path / "hall.zip"
    write_archive(path)
    before = training_rows()
    other_machine(settings, tmp_path)
    restore_archive(read_archive(path))
    assert training_rows() == before


def test_restoring_over_this_machines_copy_keeps_every_run(trained, tmp_path):
    """Replaced from an earlier archive: the runs started since are kept, the archive's runs are not doubled,
    and the training game follows its tournament's restored game."""
    t, tg, _imported = trained
    path = tmp_path / "t.zip"
    write_archive(path, [t])
    late = training.start_run(tg, "Hal")  # after the backup
    report = restore_archive(read_archive(path), replace=True)
    assert report.training_kept == 3
    assert TrainingGame.objects.filter(title=tg.title).count() == 1
    assert sorted(TrainingRun.objects.filter(game__title=tg.title).values_list("name", flat=True)) == [
        "Dora", "Eve", "Fay", "Hal"]
    restored_game = Tournament.objects.get(slug=t.slug).games.get()
    assert TrainingRun.objects.get(pk=late.pk).game.source_game == restored_game


def test_a_deleted_tournament_restored_takes_its_training_game_back(trained, tmp_path):
    t, tg, _imported = trained
    path = tmp_path / "t.zip"
    write_archive(path, [t])
    delete_tournament(t)
    tg.refresh_from_db()
    assert tg.source_game is None  # left as an imported game
    restore_archive(read_archive(path))
    tg.refresh_from_db()
    assert tg.source_game == Tournament.objects.get(slug="trained").games.get()
    assert TrainingGame.objects.count() == 2 and TrainingRun.objects.count() == 4


def test_a_training_round_makes_the_next_automatic_backup(trained, settings, tmp_path):
    t, tg, _imported = trained
    settings.BACKUP_DIR = tmp_path / "stick"
    assert backups.back_up(t, reason="periodic") is not None
    assert backups.back_up(t, reason="periodic") is None  # nothing changed
    long_ago = timezone.now() - timedelta(days=2)  # the tournament was played two days ago
    AuditLog.objects.update(at=long_ago)
    for model in (TrainingRun, TrainingClub):
        model.objects.update(created_at=long_ago, started_at=None)
    assert t not in backups.tournaments_in_play()
    training.next_round(training.start_run(tg, "Ivy"))
    assert t in backups.tournaments_in_play()
    written = backups.back_up(t, reason="periodic")
    assert written is not None
    assert read_archive(written.path).manifest["counts"]["tournament.TrainingRun"] == 4
