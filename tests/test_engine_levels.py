"""Playing levels 1-20 (engine/levels.py): the search budget of each level, and how a weak
level chooses among the lines the search found."""

from __future__ import annotations

import math
import random

import pytest

from kradan import Board, Move
from kradan.engine.levels import MAX_LEVEL, level_limit, level_nodes, pick_move
from kradan.engine.types import Limit, Score, SearchInfo
from kradan.players import KradanPlayer


@pytest.mark.parametrize("level", range(1, MAX_LEVEL + 1))
def test_each_level_searches_half_as_many_nodes_again_as_the_one_below(level: int) -> None:
    limit = level_limit(level, Limit())
    assert limit.nodes == level_nodes(level) == round(100 * 1.5 ** (level - 1))
    assert limit.depth is None  # the node budget, not a depth, is what binds
    if level > 1:
        assert level_nodes(level) > level_nodes(level - 1)


def test_the_budgets_run_from_one_ply_to_a_middlegame_search() -> None:
    assert (level_nodes(1), level_nodes(10), level_nodes(19)) == (100, 3844, 147789)


def test_the_budget_binds_a_real_search_at_every_level() -> None:
    """Each level's search stops on its node budget, to the node, not on the depth of 30 it
    was given; each level completes a depth at least as deep as the one below, from one ply
    at level 1 to seven at level 19 in the opening."""
    board = Board()
    searcher = KradanPlayer(seed=1).searcher_for(board)
    depths = []
    for level in range(1, MAX_LEVEL):
        searcher.clear()  # each level from an empty table, as in a new game
        lines: list[SearchInfo[Move]] = []
        for found in searcher.search_multipv(board, level_limit(level, Limit(depth=30)), 4):
            lines = found
        depths.append(lines[0].depth)
        assert lines[0].nodes <= level_nodes(level)
    assert depths == sorted(depths)
    assert (depths[0], depths[-1]) == (1, 7)


def test_a_level_keeps_a_tighter_limit_and_every_clock() -> None:
    given = Limit(
        depth=2,
        nodes=1000,
        time=1.5,
        white_clock=60.0,
        black_clock=50.0,
        white_inc=1.0,
        black_inc=2.0,
        moves_to_go=7,
    )
    limit = level_limit(10, given)
    assert (limit.depth, limit.nodes) == (2, 1000)  # tighter than level 10's 3,844 nodes
    assert (limit.time, limit.white_clock, limit.black_clock) == (1.5, 60.0, 50.0)
    assert (limit.white_inc, limit.black_inc, limit.moves_to_go) == (1.0, 2.0, 7)
    looser = level_limit(3, Limit(depth=30, nodes=10**9))
    assert (looser.depth, looser.nodes) == (30, 225)


def _line(uci: str, cp: int) -> SearchInfo[Move]:
    return SearchInfo(
        depth=3, seldepth=3, score=Score(cp=cp), pv=[Move.from_uci(uci)], nodes=1, seconds=0.1
    )


BEST, CLOSE, POOR = ("e3e4", 0), ("d3d4", -10), ("a3a4", -100)


def _choices(level: int, lines: list[SearchInfo[Move]], tries: int = 300) -> list[str]:
    board = Board()
    return [pick_move(board, lines, level, random.Random(seed)).uci() for seed in range(tries)]  # type: ignore[union-attr]


def test_full_strength_and_a_single_line_always_play_the_best_move() -> None:
    lines = [_line(*BEST), _line(*CLOSE), _line(*POOR)]
    assert set(_choices(MAX_LEVEL, lines, 20)) == {"e3e4"}
    assert set(_choices(1, lines[:1], 20)) == {"e3e4"}
    tied = [_line(*BEST), _line("d3d4", 0)]  # full strength takes the first of equal lines
    assert set(_choices(MAX_LEVEL, tied, 50)) == {"e3e4"}


def test_a_weak_level_plays_only_moves_within_its_margin() -> None:
    """Level 19's margin is 15 centipawns: the moves 10 and 15 behind are played, those 16
    and 100 behind never; level 1's margin (285) takes them all."""
    edge, beyond = _line("c3c4", -15), _line("b3b4", -16)
    lines = [_line(*BEST), _line(*CLOSE), edge, beyond, _line(*POOR)]
    assert set(_choices(MAX_LEVEL - 1, lines)) == {"e3e4", "d3d4", "c3c4"}
    assert set(_choices(1, lines)) == {"e3e4", "d3d4", "c3c4", "b3b4", "a3a4"}
    assert set(_choices(1, lines[:2])) == {"e3e4", "d3d4"}  # two lines are a choice too


def test_a_weak_level_still_prefers_better_moves() -> None:
    """Weights fall with the loss: at level 1 (temperature 191) the best move is chosen more
    often than the one 100 behind, and at level 19 (temperature 11) the best far more often
    than the one 10 behind."""
    lines = [_line(*BEST), _line(*CLOSE), _line(*POOR)]
    weak = _choices(1, lines, 2000)
    assert weak.count("e3e4") > weak.count("a3a4") > 0
    strong = _choices(MAX_LEVEL - 1, lines, 2000)
    assert strong.count("e3e4") > 1.5 * strong.count("d3d4") > 0


def test_without_a_line_the_first_legal_move_or_none() -> None:
    board = Board()
    assert pick_move(board, [], 1, random.Random(1)) == next(iter(board.legal_moves))
    mated = Board("k1R5/8/1K6/8/8/8/8/8 b - - 0 1")
    assert not any(mated.legal_moves)
    assert pick_move(mated, [], 1, random.Random(1)) is None


class _Recorder(random.Random):
    """A random source that remembers the weights it was asked to choose with."""

    def __init__(self) -> None:
        super().__init__(1)
        self.weights: list[float] = []

    def choices(self, population, weights=None, **kwargs):  # type: ignore[no-untyped-def, override]
        self.weights = list(weights or [])
        return super().choices(population, weights, **kwargs)


@pytest.mark.parametrize("level", [1, 10, 19])
def test_a_move_is_weighted_by_its_loss_over_the_levels_temperature(level: int) -> None:
    """Weakness is 20 - level; the margin 15 centipawns and the temperature 1 + 10 a step of
    weakness; a move's weight is exp(-loss / temperature)."""
    weakness = MAX_LEVEL - level
    losses = [0, 10, 15, 100]
    lines = [
        _line(uci, -loss)
        for uci, loss in zip(["e3e4", "d3d4", "c3c4", "a3a4"], losses, strict=True)
    ]
    recorder = _Recorder()
    pick_move(Board(), lines, level, recorder)
    kept = [loss for loss in losses if loss <= 15 * weakness]
    temperature = 1 + 10 * weakness
    assert recorder.weights == pytest.approx([math.exp(-loss / temperature) for loss in kept])


def test_there_are_twenty_levels_and_any_above_plays_at_full_strength() -> None:
    assert MAX_LEVEL == 20
    assert level_limit(20, Limit()).nodes == level_nodes(20)  # players search level 20 unbound
    lines = [_line(*BEST), _line(*CLOSE)]
    assert set(_choices(25, lines, 20)) == {"e3e4"}
