"""Playing strength from 1 (a beginner can win) to 20 (full strength).

Weaker levels search less deep and with fewer nodes, and choose among the best few moves with
controlled randomness: the lower the level, the wider the margin of moves it will consider and
the flatter its preference among them. No blunder tables: a weak move is always one the search
found nearly as good.
"""

from __future__ import annotations

import math
import random
from typing import cast

from ..games import GameBoard
from .types import Limit, MoveT, SearchInfo

MAX_LEVEL = 20


def level_limit(level: int, limit: Limit) -> Limit:
    """``limit`` tightened for ``level``: depth 1-10 and a node budget that doubles per level."""
    depth = max(1, (level + 1) // 2)
    nodes = 400 * 2**level
    return Limit(
        depth=min(depth, limit.depth) if limit.depth else depth,
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
