"""A hall's laptop dies mid-game: the backup carries the simultaneous game's package and key, so the restored
tournament still plays the package's racks and signs its results with the hall's key."""

from __future__ import annotations

import pytest

from tests.paths import LEXICONS
from tests.tournament.simultaneous.rows import simul_rows
from tournament import services
from tournament.backup import read_archive, restore_archive, write_archive
from tournament.models import HallGame
from tournament.services import simulfiles, simulhall, simultaneous

pytestmark = [pytest.mark.django_db]


def test_the_backup_keeps_the_package_and_the_key(settings, tmp_path, alice):
    from lexicon import services as lexicon_services

    settings.LEXICON_DIR = str(tmp_path / "lexicons")
    lexicon = lexicon_services.import_wordlist("sim-en", "en", LEXICONS / "sim-en.txt")
    simul = simul_rows(lexicon)
    t = services.tournaments.create_tournament(alice, name="Paris", slug="paris", ruleset="en", lexicon=lexicon,
                                               arbiters=[alice])
    services.players.register_player(alice, t, name="Anne")
    game = simulhall.import_package(alice, t, simultaneous.package(simul.halls.get()))
    path = tmp_path / "paris.zip"
    assert write_archive(path, [t])["counts"]["tournament.HallGame"] == 1

    restore_archive(read_archive(path), replace=True)
    restored = HallGame.objects.get()
    assert restored.game.number == game.number and restored.game.tournament.slug == "paris"
    assert restored.key == "k" * 64 and restored.package["rounds"] == simul.rounds
    assert restored.game.prepared_racks == [r["rack"] for r in simul.rounds]
    signed = simulhall.results_file(alice, restored.game)
    simulfiles.verify(signed["results"], signed["signature"], simul.halls.get().key)
