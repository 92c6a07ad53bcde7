"""Playing strength from 1 (a beginner can win) to 20 (full strength).

Weaker levels search fewer nodes, and choose among the best few moves with controlled
randomness: the lower the level, the wider the margin of moves it will consider and the flatter
its preference among them. No blunder tables: a weak move is always one the search found nearly
as good. Among those, a weak level prefers a move that does not bring back an earlier position:
its randomness among moves of nearly equal worth would otherwise walk a piece to and fro until
the game is drawn by repetition.

The node budget is the limit that binds at every level below 20: it doubles every two levels,
from 400 nodes at level 1 (one ply) to 204,800 at level 19 (eleven to thirteen plies in a
middlegame, about what a 10+0.1 clock allows), so each level searches about half a ply deeper
than the one below, and a level plays alike on a fast machine and a slow one. The search's
first depth is always finished, whatever the budget. (A depth per two levels, as before, made
every second level a step of nothing: benchmarks/levels.py.)
"""

from __future__ import annotations

import math
import random
from typing import cast

from ..games import GameBoard
from .types import Limit, MoveT, SearchInfo

MAX_LEVEL = 20


#: level 1's node budget; it doubles every two levels above
FIRST_LEVEL_NODES = 400


def level_nodes(level: int) -> int:
    """The node budget of ``level``: 400 at level 1, doubling every two levels above."""
    return round(FIRST_LEVEL_NODES * 2 ** ((max(1, level) - 1) / 2))


#: level 1's temperature in centipawns; it halves every four levels above
FIRST_LEVEL_TEMPERATURE = 200.0
#: a weak level considers the moves within this many temperatures of the best
MARGIN_PER_DEGREE = 1.5


def level_temperature(level: int) -> float:
    """How loosely ``level`` prefers the best move (a move ``loss`` centipawns behind it is
    weighted exp(-loss / temperature)): 200 at level 1, halving every four levels, so that the
    noise falls fastest where the node budget (which doubles every two) adds least."""
    return FIRST_LEVEL_TEMPERATURE * 2 ** (-(max(1, level) - 1) / 4)


def level_lines(level: int) -> int:
    """How many of the best moves ``level`` searches to choose among: 4, and more at the
    lowest levels (10 at level 1, 8 at 2, 6 at 3), whose wide noise needs weaker moves to choose
    from to be weak at all."""
    return 4 + 2 * max(0, 4 - level)


#: each level's strength in Elo over level 1, as measured: each level against the one below,
#: 100 games a pair at 10+0.1 with the second network (``python benchmarks/levels.py``,
#: 2026-12-03; docs/strength.md)
LEVEL_ELO = (0, 100, 235, 573, 625, 729, 822, 914, 988, 1081,
             1200, 1303, 1407, 1515, 1607, 1674, 1789, 1863, 1919, 2129)  # fmt: skip
#: UCI_Elo's value for level 1. A convention: no rating list for Makruk exists to set the scale's
#: origin by, so only the differences between levels are measured
LEVEL_ONE_UCI_ELO = 500


def level_rating(level: int) -> int:
    """The UCI_Elo that ``level`` stands for."""
    return LEVEL_ONE_UCI_ELO + LEVEL_ELO[level - 1]


def level_for_rating(elo: int) -> int:
    """The level whose measured strength is nearest to UCI_Elo ``elo`` (the lower on a tie)."""
    return min(range(1, MAX_LEVEL + 1), key=lambda level: abs(level_rating(level) - elo))


def level_limit(level: int, limit: Limit) -> Limit:
    """``limit`` tightened for ``level``: the level's node budget (the depth is left as given)."""
    nodes = level_nodes(level)
    return Limit(
        depth=limit.depth,
        nodes=min(nodes, limit.nodes) if limit.nodes else nodes,
        time=limit.time,
        white_clock=limit.white_clock,
        black_clock=limit.black_clock,
        white_inc=limit.white_inc,
        black_inc=limit.black_inc,
        moves_to_go=limit.moves_to_go,
    )


def _value(info: SearchInfo[MoveT]) -> float:
    return float(info.score.value)


def _repeats(board: GameBoard, move: MoveT) -> bool:
    """Whether ``move`` brings back a position that has stood on the board before."""
    board.push(move)
    try:
        return board.is_repetition(2)
    finally:
        board.pop()


def pick_move(
    board: GameBoard, lines: list[SearchInfo[MoveT]], level: int, rng: random.Random
) -> MoveT | None:
    """The move to play from the best ``lines`` (best first) at ``level``."""
    candidates = [line for line in lines if line.pv]
    if not candidates:
        moves = list(board.legal_moves)
        return cast("MoveT", moves[0]) if moves else None  # the board's own kind of move
    if level >= MAX_LEVEL or len(candidates) == 1:
        return candidates[0].pv[0]
    best = _value(candidates[0])
    temperature = level_temperature(level)
    margin = MARGIN_PER_DEGREE * temperature
    pool = [line for line in candidates if best - _value(line) <= margin]
    fresh = [line for line in pool if not _repeats(board, line.pv[0])]
    pool = fresh or pool  # a weak level walks on rather than in circles, when it can
    weights = [math.exp(-(best - _value(line)) / temperature) for line in pool]
    return rng.choices(pool, weights)[0].pv[0]
