"""The arena (issue 47): lichess's scoring (2 a win, 1 a draw, doubled on fire after two wins
in a row, +1 for a berserk win of 7 moves or more) and the pairing of the players waiting."""

from __future__ import annotations

import pytest

from kradan.tournaments import ArenaGame, TournamentError, arena_scores, pair_arena


def test_scoring_with_a_streak_and_berserk() -> None:
    """a: win, win, then on fire: win 4, draw 2 (doubled, and the fire goes out), win 2; the
    berserk win of 30 moves adds 1, the berserk win of 5 moves adds nothing."""
    games = [
        ArenaGame("a", "b", "1-0", moves=40),
        ArenaGame("c", "a", "0-1", moves=30, berserk=frozenset({"a"})),
        ArenaGame("a", "b", "1-0", moves=5, berserk=frozenset({"a"})),
        ArenaGame("c", "a", "1/2-1/2", moves=60),
        ArenaGame("a", "c", "1-0", moves=25),
        ArenaGame("b", "c", None),  # still on: not counted
    ]
    found = {score.player: score for score in arena_scores(["a", "b", "c"], games)}
    assert found["a"].sheet == (2, 3, 4, 2, 2)
    assert found["a"].points == 13 and found["a"].games == 5
    assert not found["a"].on_fire
    assert found["c"].sheet == (0, 1, 0) and found["c"].points == 1
    assert [score.player for score in arena_scores(["a", "b", "c"], games)] == ["a", "c", "b"]


def test_on_fire_after_two_wins() -> None:
    games = [ArenaGame("a", "b", "1-0"), ArenaGame("b", "a", "0-1")]
    (first, *_) = arena_scores(["a", "b"], games)
    assert first.player == "a" and first.on_fire and first.sheet == (2, 2)


def test_pairing_the_waiting_players() -> None:
    """Ranked by arena points (then rating): each meets the next free player, unless that is
    their last opponent; White to whoever has had fewer Whites (then the one who had Black
    last, then the higher-ranked)."""
    games = [ArenaGame("a", "b", "1-0"), ArenaGame("c", "d", "1-0"), ArenaGame("e", "f", "1/2-1/2")]
    players = ["a", "b", "c", "d", "e", "f"]
    pairs = pair_arena(players, players, games)
    # points a 2, c 2, e 1, f 1, b 0, d 0; e and f just met, so e meets b and f meets d
    assert [(g.white, g.black) for g in pairs] == [("a", "c"), ("b", "e"), ("f", "d")]
    pairs = pair_arena(["e", "f", "b"], players, games)
    assert [(g.white, g.black) for g in pairs] == [("b", "e")]  # f waits for the next call
    assert pair_arena(["e", "f"], players, games) == []  # only the rematch left: they wait


def test_ratings_break_ties() -> None:
    pairs = pair_arena(["a", "b", "c", "d"], ["a", "b", "c", "d"], [], {"d": 2000, "c": 1900})
    assert [(g.white, g.black) for g in pairs] == [("d", "c"), ("a", "b")]


def test_unknown_players_are_a_clear_error() -> None:
    with pytest.raises(TournamentError, match="'z' is waiting but is not entered"):
        pair_arena(["z"], ["a"], [])
    with pytest.raises(TournamentError, match="names 'z'"):
        arena_scores(["a"], [ArenaGame("a", "z", "1-0")])
