"""The results of duplicate games as pure functions (RULES §4 "Results"): no database, plain rows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import sheet
from scoring.sheet import Line, RoundScore


def scores(table: dict[str, list[int]], warnings: dict[str, list[int]] | None = None) -> list[RoundScore]:
    """{player: points of rounds 1, 2, …} → verdict rows; ``warnings``: {player: rounds with a warning}."""
    warned = warnings or {}
    return [RoundScore(p, i + 1, points, (i + 1) in warned.get(p, []))
            for p, row in table.items() for i, points in enumerate(row)]


def by_player(lines: list[Line]) -> dict[object, Line]:
    return {line.player: line for line in lines}


# -- a game's totals ------------------------------------------------------------------------------------------


def test_game_total_is_awarded_plus_solos_minus_penalties():
    lines = by_player(sheet.game_lines(
        ["ann", "ben", "cid"], [30, 40, 25], scores({"ann": [30, 35, 25], "ben": [28, 40, 10]}),
        solos={"ann": 10}, penalties={"ben": 5}))
    ann, ben, cid = lines["ann"], lines["ben"], lines["cid"]
    assert (ann.awarded, ann.solos, ann.penalties, ann.total) == (90, 10, 0, 100)
    assert (ben.awarded, ben.solos, ben.penalties, ben.total) == (78, 0, 5, 73)
    assert (cid.awarded, cid.total, cid.per_round) == (0, 0, [0, 0, 0])  # no slip in any round: 0, still listed
    assert ann.top_total == ben.top_total == cid.top_total == 95
    assert ann.per_round == [30, 35, 25] and ben.per_round == [28, 40, 10]


def test_deficit_and_percentage_against_the_top_total():
    line = by_player(sheet.game_lines(["ann"], [50, 50], scores({"ann": [50, 33]})))["ann"]
    assert line.deficit == 83 - 100 == -17
    assert line.percentage == 83.0
    assert sheet.percentage(2, 3) == 66.67 and sheet.percentage(0, 0) == 0.0
    above = by_player(sheet.game_lines(["ann"], [50], scores({"ann": [50]}), solos={"ann": 10}))["ann"]
    assert above.deficit == 10 and above.percentage == 120.0  # a solo can take a player above the top


def test_verdicts_of_unknown_players_or_rounds_are_ignored():
    lines = by_player(sheet.game_lines(["ann"], [20], [RoundScore("ann", 1, 20), RoundScore("zed", 1, 99),
                                                         RoundScore("ann", 2, 50)]))
    assert lines["ann"].total == 20 and set(lines) == {"ann"}


def test_warnings_are_counted_per_game():
    line = by_player(sheet.game_lines(["ann"], [10, 10, 10], scores({"ann": [10, 9, 8]}, {"ann": [2, 3]})))["ann"]
    assert line.warnings == 2


# -- solos ------------------------------------------------------------------------------------------------------


def test_solos_are_on_from_16_players_in_auto_mode():
    assert not sheet.solos_active("auto", 15)
    assert sheet.solos_active("auto", 16) and sheet.solos_active("auto", 1500)
    assert sheet.solos_active("on", 2) and not sheet.solos_active("off", 100)


def test_a_solo_goes_to_the_one_player_strictly_above_every_other():
    assert sheet.round_solos({"ann": 40, "ben": 35, "cid": 12}) == {"ann": 10}
    assert sheet.round_solos({"ann": 40, "ben": 40, "cid": 12}) == {}  # shared best: nobody
    assert sheet.round_solos({"ann": 40, "ben": 35}, bonus=7) == {"ann": 7}


def test_a_solo_counts_even_below_the_top():
    # the top scored 90; nobody found it; the best slip (61) is alone: a solo
    assert sheet.round_solos({"ann": 61, "ben": 55, "cid": 0}) == {"ann": 10}


def test_no_solo_for_a_best_score_of_zero_or_a_single_player():
    assert sheet.round_solos({"ann": 0, "ben": 0}) == {}
    assert sheet.round_solos({"ann": 0, "ben": -5}) == {}
    assert sheet.round_solos({"ann": 50}) == {}
    assert sheet.round_solos({}) == {}


# -- warnings → penalties ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("warnings, points", [(0, 0), (1, 0), (3, 0), (4, 5), (5, 10), (9, 30)])
def test_warning_penalties_start_at_the_fourth(warnings, points):
    assert sheet.warning_penalty(warnings) == points


@pytest.mark.parametrize("warnings, points", [(5, 0), (6, 5), (7, 10)])
def test_warning_penalties_start_at_the_sixth_in_fast_games(warnings, points):
    assert sheet.free_warnings(fast=True) == 5 and sheet.free_warnings(fast=False) == 3
    assert sheet.warning_penalty(warnings, free=sheet.free_warnings(fast=True)) == points


def test_warning_penalty_points_are_an_option():
    assert sheet.warning_penalty(4, free=3, points=10) == 10


# -- ranks ----------------------------------------------------------------------------------------------------------


def line(player: str, per_round: list[int], **kw: int) -> Line:
    out = Line(player, awarded=sum(per_round), per_round=per_round, **kw)
    out.tie_key = tuple(reversed(per_round))
    return out


def test_equal_totals_share_a_rank_and_the_next_rank_skips():
    ranked = sheet.ranked([line("a", [10]), line("b", [30]), line("c", [30]), line("d", [5])])
    assert [(x.player, x.rank) for x in ranked] == [("b", 1), ("c", 1), ("a", 3), ("d", 4)]


def test_the_tie_break_reads_the_last_move_first_backwards():
    a, b, c = line("a", [10, 20, 30]), line("b", [30, 20, 10]), line("c", [25, 5, 30])
    plain = sheet.ranked([a, b, c])
    assert [x.rank for x in plain] == [1, 1, 1]
    broken = sheet.ranked([line("a", [10, 20, 30]), line("b", [30, 20, 10]), line("c", [25, 5, 30])],
                          tie_break=True)
    # a and c both scored 30 in the last round; in the one before, a scored 20, c 5; b scored 10 last
    assert [(x.player, x.rank) for x in broken] == [("a", 1), ("c", 2), ("b", 3)]


def test_only_lines_equal_in_every_tie_key_share_a_rank_with_the_tie_break():
    ranked = sheet.ranked([line("a", [10, 20]), line("b", [10, 20]), line("c", [20, 10])], tie_break=True)
    assert [(x.player, x.rank) for x in ranked] == [("a", 1), ("b", 1), ("c", 3)]


def test_order_sorts_lines_of_equal_rank():
    ranked = sheet.ranked([line("a", [10]), line("b", [10])], order=lambda x: {"a": 2, "b": 1}[x.player])
    assert [x.player for x in ranked] == ["b", "a"]


def test_a_tournament_adds_the_games_and_breaks_ties_by_the_last_game_first():
    game1 = sheet.game_lines(["a", "b"], [50, 50], scores({"a": [50, 10], "b": [10, 50]}))
    game2 = sheet.game_lines(["a", "b"], [40], scores({"a": [30], "b": [40]}), solos={"a": 10})
    lines = by_player(sheet.tournament_lines([game1, game2]))
    assert (lines["a"].total, lines["b"].total) == (100, 100)
    assert lines["a"].top_total == 140 and lines["a"].per_game == [60, 40] and lines["b"].per_game == [60, 40]
    assert lines["a"].percentage == pytest.approx(71.43)
    # equal games: the last game's last move decides (a 30, b 40)
    ranked = sheet.ranked(lines.values(), tie_break=True)
    assert [(x.player, x.rank) for x in ranked] == [("b", 1), ("a", 2)]
    assert [x.rank for x in sheet.ranked(lines.values())] == [1, 1]


def test_groups_rank_inside_each_group_and_keep_the_overall_ranks():
    lines = sheet.ranked([line("a", [50]), line("b", [40]), line("c", [30]), line("d", [40])])
    club = {"a": "Spartak", "b": "Dynamo", "c": "Spartak", "d": ""}
    groups = sheet.grouped(lines, lambda p: club[p])
    assert list(groups) == ["", "Dynamo", "Spartak"]
    assert [(x.player, x.rank) for x in groups["Spartak"]] == [("a", 1), ("c", 2)]
    assert [(x.player, x.rank) for x in groups["Dynamo"]] == [("b", 1)]
    assert [(x.player, x.rank) for x in lines] == [("a", 1), ("b", 2), ("d", 2), ("c", 4)]


@given(st.lists(st.integers(min_value=-50, max_value=500), min_size=1, max_size=40))
def test_a_rank_is_one_plus_the_number_of_better_totals(totals):
    lines = [Line(f"p{i}", awarded=t) for i, t in enumerate(totals)]
    for x in sheet.ranked(lines):
        assert x.rank == 1 + sum(1 for t in totals if t > x.total)
