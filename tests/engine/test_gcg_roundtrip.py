"""A duplicate GCG record read back for training (issue 34): ``simulate --gcg`` of every rule set and variant reads
back as the same game — a ``.`` (a letter played through) is the board's tile, whatever the tile set (Cyrillic,
the Ukrainian apostrophe, Polish letters) — and a record that does not replay says why as a message the tournament
writes in the reader's language."""

from __future__ import annotations

import pytest

from lexicon.graph import WordGraph, build
from scoring.coords import Coord
from scoring.game import DuplicateGame
from scoring.messages import Message
from scoring.records import ReplayError, game_to_gcg
from scoring.rules import get_ruleset
from scoring.solver import graph_solver
from scoring.training import read_gcg, training_rounds
from scoring.variants import get_variant
from tests.paths import ROOT

LEXICONS = ROOT / "fixtures" / "lexicons"
RULESETS = ("ru", "uk", "pl", "pl-literaki", "en", "fr")


def words_of(rs_id: str) -> str:
    return str(LEXICONS / f"sim-{rs_id.split('-')[0]}.txt")


@pytest.fixture(scope="module")
def graphs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gcg-graphs")
    out = {}
    for rs_id in RULESETS:
        words = (LEXICONS / f"sim-{rs_id.split('-')[0]}.txt").read_text(encoding="utf-8").split()
        path = folder / f"{rs_id}.kwg"
        build(words, get_ruleset(rs_id).alphabet, path)
        out[rs_id] = WordGraph.load(path)
    return out


def played(graphs, rs_id: str, seed: int, variant: str = "classic") -> DuplicateGame:
    v = get_variant(variant)
    rs = v.ruleset(get_ruleset(rs_id))
    return DuplicateGame(get_ruleset(rs_id), seed, variant=v).play_out(graph_solver(rs, graphs[rs_id]))


def same(a: DuplicateGame, b: DuplicateGame) -> None:
    assert [(r.move, r.score, sorted(r.rack), r.replaced) for r in a.rounds] == [
        (r.move, r.score, sorted(r.rack), r.replaced) for r in b.rounds
    ]
    assert a.board == b.board and a.total == b.total

    def rounds(game: DuplicateGame) -> list[dict]:  # the GCG writes each rack sorted
        return [{**r, "rack": sorted(r["rack"])} for r in training_rounds(game)]

    assert rounds(a) == rounds(b)


@pytest.mark.parametrize("rs_id", RULESETS)
@pytest.mark.parametrize("variant", ["classic", "joker", "7among8"])
def test_every_rule_set_and_variant_reads_back(graphs, rs_id, variant):
    game = played(graphs, rs_id, 3, variant)
    text = game_to_gcg(game)
    assert any("." in line.split()[3] for line in text.splitlines() if line.startswith(">")), "a letter played through"
    back = read_gcg(text)
    assert back.variant.id == variant
    same(back, game)


@pytest.mark.parametrize("rs_id", RULESETS)
def test_simulate_gcg_imports(manage, monkeypatch, tmp_path, rs_id):
    monkeypatch.setenv("DUPLICATE_VAR_DIR", str(tmp_path / "var"))
    out = tmp_path / "game.gcg"
    res = manage("simulate", "--ruleset", rs_id, "--lexicon", words_of(rs_id), "--seed", "5", "--gcg", str(out))
    assert res.returncode == 0, res.stderr
    text = out.read_text(encoding="utf-8")
    back = read_gcg(text)
    assert back.ruleset.id == rs_id and len(back.rounds) == text.count(">Top: ") > 5
    assert f"Total: {back.total}" in res.stdout


def test_a_dot_on_an_empty_square_is_refused_with_the_square(graphs):
    game = played(graphs, "ru", 3)
    lines = game_to_gcg(game).splitlines()
    second = [i for i, line in enumerate(lines) if line.startswith(">")][1]
    parts = lines[second].split()
    parts[3] = "." + parts[3]  # one letter more, "played through" a square that is empty (or off the word)
    parts[2] = _before(parts[2])
    lines[second] = " ".join(parts)
    with pytest.raises(ReplayError) as exc:
        read_gcg("\n".join(lines))
    assert exc.value.round == 2 and isinstance(exc.value.message, Message)
    assert exc.value.message.code in ("record_played_through", "placement_at"), exc.value.message


def _before(coord: str) -> str:
    """GCG coordinates one square earlier along the word (8H horizontal: column letter after the row)."""
    if coord[0].isdigit():  # 8H: row 8, column H, horizontal
        row, col = coord[:-1], coord[-1]
        return f"{row}{chr(ord(col) - 1)}"
    col, row = coord[0], coord[1:]  # H8: vertical, column H, row 8
    return f"{col}{int(row) - 1}"


def test_refusals_are_messages_not_english_text(graphs):
    game = played(graphs, "uk", 4)
    lines = game_to_gcg(game).splitlines()
    third = [i for i, line in enumerate(lines) if line.startswith(">")][2]
    parts = lines[third].split()
    parts[4] = f"+{int(parts[4][1:]) + 1}"
    lines[third] = " ".join(parts)
    with pytest.raises(ReplayError) as exc:
        read_gcg("\n".join(lines))
    message = exc.value.message
    assert isinstance(message, Message) and message.code == "record_score" and exc.value.round == 3
    assert isinstance(message["move"].coord, Coord)  # a position: written in the reader's script
    two = "#player1 A A\n#player2 B B\n>A: АБВГДЕЄ 8H ГАЙ +5 5\n>B: АБВГДЕЄ 9H ДО +3 3\n"
    with pytest.raises(ReplayError) as exc:
        read_gcg(two, ruleset="uk")
    assert exc.value.code == "two_players" and exc.value.message == Message("record_two_players")
