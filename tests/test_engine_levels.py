"""Playing levels 1-20 (engine/levels.py): the search budget of each level, and how a weak
level chooses among the lines the search found."""

from __future__ import annotations

import math
import random

import pytest

from kradan import Board, Move
from kradan.engine.levels import (
    MAX_LEVEL,
    level_limit,
    level_lines,
    level_nodes,
    level_temperature,
    pick_move,
)
from kradan.engine.types import Limit, PovScore, Score, SearchInfo
from kradan.runners.players import KradanPlayer


@pytest.mark.parametrize("level", range(1, MAX_LEVEL + 1))
def test_each_level_searches_twice_the_nodes_of_the_level_two_below(level: int) -> None:
    limit = level_limit(level, Limit())
    assert limit.nodes == level_nodes(level) == round(400 * 2 ** ((level - 1) / 2))
    assert limit.depth is None  # the node budget, not a depth, is what binds
    if level > 1:
        assert level_nodes(level) > level_nodes(level - 1)


def test_the_budgets_run_from_one_ply_to_a_middlegame_search() -> None:
    assert (level_nodes(1), level_nodes(10), level_nodes(19)) == (400, 9051, 204800)


MIDDLEGAME = "r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11"


def test_the_budget_binds_a_real_search_at_every_level() -> None:
    """In a middlegame each level's search stops on its node budget, not on the depth of 30
    it was given, and the searched total is the budget to within a node; each level completes a
    depth at least as deep as the one below, from one ply at level 1 to eleven or more at level
    19 (in Makruk, with the shipped evaluation network)."""
    board = Board(MIDDLEGAME)
    searcher = KradanPlayer(seed=1).searcher_for(board)
    nodes_slot = searcher.adapter.nodes_slot  # type: ignore[attr-defined]
    depths = []
    for level in range(1, MAX_LEVEL):
        searcher.clear()  # each level from an empty table, as in a new game
        lines: list[SearchInfo[Move]] = []
        for found in searcher.search_multipv(board, level_limit(level, Limit(depth=30)), 4):
            lines = found
        depths.append(lines[0].depth)
        searched = int(searcher.ctx[nodes_slot])  # type: ignore[attr-defined]
        assert level_nodes(level) <= searched <= level_nodes(level) + 1
    assert depths == sorted(depths)
    assert depths[0] == 1 and depths[-1] >= 11


def test_the_first_depth_is_finished_whatever_the_budget() -> None:
    """Even a one-node budget yields the four best moves at depth 1 (a weak level must never
    be left with no line, which made it play the first legal move)."""
    board = Board(MIDDLEGAME)
    searcher = KradanPlayer(seed=1).searcher_for(board)
    found = list(searcher.search_multipv(board, Limit(nodes=1), 4))
    assert [len(lines) for lines in found] == [4]
    assert {line.depth for line in found[0]} == {1}
    single = list(searcher.search(board, Limit(nodes=1)))
    assert [info.depth for info in single] == [1] and single[0].pv


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
    assert (limit.depth, limit.nodes) == (2, 1000)  # tighter than level 10's 9,051 nodes
    assert (limit.time, limit.white_clock, limit.black_clock) == (1.5, 60.0, 50.0)
    assert (limit.white_inc, limit.black_inc, limit.moves_to_go) == (1.0, 2.0, 7)
    looser = level_limit(3, Limit(depth=30, nodes=10**9))
    assert (looser.depth, looser.nodes) == (30, 800)


def _line(uci: str, cp: int) -> SearchInfo[Move]:
    return SearchInfo(
        depth=3,
        seldepth=3,
        score=PovScore(Score(cp=cp), True),
        pv=[Move.from_uci(uci)],
        nodes=1,
        seconds=0.1,
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
    """Level 19's margin is 13.3 centipawns (1.5 temperatures of 8.84): the moves 10 and 13
    behind are played, those 14 and 100 behind never; level 1's margin (300) takes them all."""
    edge, beyond = _line("c3c4", -13), _line("b3b4", -14)
    lines = [_line(*BEST), _line(*CLOSE), edge, beyond, _line(*POOR)]
    assert set(_choices(MAX_LEVEL - 1, lines)) == {"e3e4", "d3d4", "c3c4"}
    assert set(_choices(1, lines)) == {"e3e4", "d3d4", "c3c4", "b3b4", "a3a4"}
    assert set(_choices(1, lines[:2])) == {"e3e4", "d3d4"}  # two lines are a choice too


def test_a_weak_level_still_prefers_better_moves() -> None:
    """Weights fall with the loss: at level 1 (temperature 200) the best move is chosen more
    often than the one 100 behind, and at level 19 (temperature 8.84) the best far more often
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
    """The temperature is 200 centipawns at level 1 and halves every four levels; the margin
    is 1.5 temperatures; a move's weight is exp(-loss / temperature)."""
    temperature = 200 * 2 ** (-(level - 1) / 4)
    assert level_temperature(level) == pytest.approx(temperature)
    losses = [0, 10, 15, 100]
    lines = [
        _line(uci, -loss)
        for uci, loss in zip(["e3e4", "d3d4", "c3c4", "a3a4"], losses, strict=True)
    ]
    recorder = _Recorder()
    pick_move(Board(), lines, level, recorder)
    kept = [loss for loss in losses if loss <= 1.5 * temperature]
    assert recorder.weights == pytest.approx([math.exp(-loss / temperature) for loss in kept])


def test_there_are_twenty_levels_and_any_above_plays_at_full_strength() -> None:
    assert MAX_LEVEL == 20
    assert level_limit(20, Limit()).nodes == level_nodes(20)  # players search level 20 unbound
    lines = [_line(*BEST), _line(*CLOSE)]
    assert set(_choices(25, lines, 20)) == {"e3e4"}


def test_the_noise_falls_with_every_level() -> None:
    temperatures = [level_temperature(level) for level in range(1, MAX_LEVEL)]
    assert temperatures == sorted(temperatures, reverse=True)
    assert (temperatures[0], temperatures[4], temperatures[8]) == (200, 100, 50)


def test_a_weak_level_walks_on_rather_than_repeat_a_position() -> None:
    """After Nb1-d2 Nb8-d7 Nd2-b1 Nd7-b8 Nb1-d2 Nb8-d7, Nd2-b1 would bring back a position
    for the second time: a weak level plays a move within its margin that brings a new one
    instead, but repeats when every move it would consider repeats; full strength plays the
    best line regardless."""
    board = Board()
    for uci in ["b1d2", "b8d7", "d2b1", "d7b8", "b1d2", "b8d7"]:
        board.push_uci(uci)
    back, new = _line("d2b1", 0), _line("a3a4", -5)
    assert set(_choices_on(board, 1, [back, new])) == {"a3a4"}
    assert set(_choices_on(board, 19, [back, new])) == {"a3a4"}
    assert set(_choices_on(board, 1, [back])) == {"d2b1"}
    assert set(_choices_on(board, 19, [back, _line("a3a4", -100)])) == {"d2b1"}  # beyond margin
    assert set(_choices_on(board, MAX_LEVEL, [back, new])) == {"d2b1"}
    assert len(board.move_stack) == 6  # the board is left as it was


def _choices_on(board: Board, level: int, lines: list[SearchInfo[Move]]) -> list[str]:
    return [pick_move(board, lines, level, random.Random(seed)).uci() for seed in range(50)]  # type: ignore[union-attr]


def test_the_lowest_levels_choose_among_more_lines() -> None:
    """Four lines, and more at levels 1-3, whose noise would otherwise only shuffle four
    moves of nearly equal worth (levels 1, 2 and 3 stepped +10 and +17 Elo with four lines
    each, +104 and +119 with these)."""
    assert [level_lines(level) for level in range(1, MAX_LEVEL)] == [10, 8, 6] + [4] * 16


def test_a_level_one_player_chooses_among_ten_lines() -> None:
    """The player asks its search for level_lines(level) lines: at level 1 its moves, over
    many seeds, include moves outside the best four of a depth-1 search."""
    board = Board(MIDDLEGAME)
    best_four = {
        line.pv[0]
        for line in next(
            iter(KradanPlayer(seed=1).searcher_for(board).search_multipv(board, Limit(depth=1), 4))
        )
    }
    played = {
        KradanPlayer(level=1, seed=seed).choose_move(board, Limit()).move for seed in range(60)
    }
    assert played - best_four
