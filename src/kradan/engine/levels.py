"""Playing strength from 1 (a beginner can win) to 20 (full strength).

Weaker levels search fewer nodes, and choose among the best few moves with controlled
randomness: the lower the level, the wider the margin of moves it will consider and the flatter
its preference among them. No blunder tables: a weak move is always one the search found nearly
as good.

The node budget is the limit that binds at every level below 20: it grows by half again a
level, from 100 nodes at level 1 (one ply) to about 148,000 at level 19 (seven or eight plies in
a middlegame, within what a 10+0.1 clock allows), so each level searches about half a ply
deeper than the one below, and a level plays alike on a fast machine and a slow one. (A depth
per two levels, as before, made every second level a step of nothing: benchmarks/levels.py.)
"""

from __future__ import annotations

import math
import random
from typing import cast

from ..games import GameBoard
from .types import Limit, MoveT, SearchInfo

MAX_LEVEL = 20


#: level 1's node budget, and the factor by which each level above multiplies it
FIRST_LEVEL_NODES = 100
NODES_GROWTH = 1.5


def level_nodes(level: int) -> int:
    """The node budget of ``level``: 100 at level 1, half as many again each level above."""
    return round(FIRST_LEVEL_NODES * NODES_GROWTH ** (max(1, level) - 1))


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
    weakness = MAX_LEVEL - level
    best = _value(candidates[0])
    margin = 15.0 * weakness
    temperature = 1.0 + 10.0 * weakness
    pool = [line for line in candidates if best - _value(line) <= margin]
    weights = [math.exp(-(best - _value(line)) / temperature) for line in pool]
    return rng.choices(pool, weights)[0].pv[0]
