"""The Alquerque board (docs/rules.md 6.1): 25 points, lines, steps and jumps.

Points are numbered ``y * 5 + x`` (a1 = 0, e5 = 24) and named ``a1`` .. ``e5`` from White's side.
Orthogonal lines join every pair of neighbours; diagonal lines pass only through the "even"
points (x + y even), so a diagonal step exists only from an even point. A jump goes from ``p``
over its neighbour along a line to the point beyond, on the same line.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidSquareError

POINTS = 25
FILES = "abcde"
POINT_NAMES = [f"{FILES[p % 5]}{p // 5 + 1}" for p in range(POINTS)]
_BY_NAME = {name: p for p, name in enumerate(POINT_NAMES)}

# the eight directions (dx, dy), N first, clockwise; White's forward is +y
DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
N, NE, E, SE, S, SW, W, NW = range(8)


def point(x: int, y: int) -> int:
    return y * 5 + x


def point_name(p: int) -> str:
    """``'c3'`` for point 12."""
    return POINT_NAMES[p]


def parse_point(name: str) -> int:
    """The point called ``name`` (``a1`` .. ``e5``).

    :raises InvalidSquareError: for any other text.
    """
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidSquareError(f"invalid point {name!r} (expected a1 .. e5)") from None


def is_even(p: int) -> bool:
    """Whether diagonal lines pass through ``p``."""
    return (p % 5 + p // 5) % 2 == 0


def _on_board(x: int, y: int) -> bool:
    return 0 <= x < 5 and 0 <= y < 5


def _build() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    step = np.full((POINTS, 8), -1, dtype=np.int64)
    jump_over = np.full((POINTS, 8), -1, dtype=np.int64)
    jump_to = np.full((POINTS, 8), -1, dtype=np.int64)
    for p in range(POINTS):
        x, y = p % 5, p // 5
        for d, (dx, dy) in enumerate(DIRECTIONS):
            if dx and dy and not is_even(p):
                continue  # no diagonal line through an odd point
            if _on_board(x + dx, y + dy):
                step[p, d] = point(x + dx, y + dy)
                if _on_board(x + 2 * dx, y + 2 * dy):
                    jump_over[p, d] = point(x + dx, y + dy)
                    jump_to[p, d] = point(x + 2 * dx, y + 2 * dy)
    return step, jump_over, jump_to


#: STEP[p, d]: the neighbour of p in direction d along a line, or -1
#: JUMP_OVER[p, d], JUMP_TO[p, d]: the jumped point and the landing point, or -1
STEP, JUMP_OVER, JUMP_TO = _build()

#: FORWARD_OR_SIDEWAYS[colour, d]: whether a man of that colour (0 White, 1 Black) may step in d
#: under Bell's direction rule: forward, diagonally forward or sideways, never backward
FORWARD_OR_SIDEWAYS = np.zeros((2, 8), dtype=np.int64)
for _d, (_dx, _dy) in enumerate(DIRECTIONS):
    FORWARD_OR_SIDEWAYS[0, _d] = 1 if _dy >= 0 else 0
    FORWARD_OR_SIDEWAYS[1, _d] = 1 if _dy <= 0 else 0

#: FAR_ROW[colour]: the opponent's base row as a point mask (White: row 5, Black: row 1)
FAR_ROW = np.array([0x1F << 20, 0x1F], dtype=np.int64)

#: NEIGHBOURS[p]: mask of the points joined to p by a line (a jump needs an enemy among them)
NEIGHBOURS = np.array(
    [sum(1 << int(q) for q in STEP[p] if q >= 0) for p in range(POINTS)], dtype=np.int64
)


#: FORWARD_STEPS[colour, p]: neighbours a man may step to under Bell's direction rule
def _forward_steps(color: int, p: int) -> int:
    allowed = [d for d in range(8) if FORWARD_OR_SIDEWAYS[color, d] and STEP[p, d] >= 0]
    return sum(1 << int(STEP[p, d]) for d in allowed)


FORWARD_STEPS = np.array(
    [[_forward_steps(c, p) for p in range(POINTS)] for c in (0, 1)], dtype=np.int64
)

#: DIRECTION_TO[p, q]: the direction of the step from p to its neighbour q (-1 if none)
DIRECTION_TO = np.full((POINTS, POINTS), -1, dtype=np.int64)
for _p in range(POINTS):
    for _d in range(8):
        if STEP[_p, _d] >= 0:
            DIRECTION_TO[_p, STEP[_p, _d]] = _d
