"""Alquerque moves and their two written forms.

* UCI-style: the points a piece visits, ``c2c3`` for a step, ``b3d3d5`` for a chain of two
  jumps; a huff taken first is written before a comma, ``hc3,b2c3`` (the piece on c3 is removed,
  then b2 steps to c3).
* Readable: ``c2-c3``, ``b3xd3xd5``, ``(huff c3) b2-c3``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from numbers import Integral

from ..errors import InvalidMoveError
from ..movebase import MoveBase
from .geometry import parse_point, point_name

_POINTS = re.compile(r"(?:[a-e][1-5]){2,}")


@dataclass(frozen=True, slots=True, repr=False)
class Move(MoveBase):
    """A step (``path`` holds its target) or a chain of jumps (``path`` holds each landing)."""

    kind = "an Alquerque Move"

    origin: int
    path: tuple[int, ...]
    #: the opponent's piece removed by huffing before this move, when the player chose it
    huff: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.path, tuple) or not self.path:
            raise InvalidMoveError(
                f"invalid Alquerque move: path {self.path!r} is not a non-empty tuple of points"
            )
        object.__setattr__(self, "origin", _point("origin", self.origin))
        object.__setattr__(self, "path", tuple(_point("path point", p) for p in self.path))
        if self.huff is not None:
            object.__setattr__(self, "huff", _point("huff", self.huff))

    @property
    def from_square(self) -> int:
        return self.origin

    @property
    def to_square(self) -> int:
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move jumps (a step goes to a neighbour, a jump two points away)."""
        first = self.path[0]
        dx = abs(first % 5 - self.origin % 5)
        dy = abs(first // 5 - self.origin // 5)
        return max(dx, dy) == 2

    def uci(self) -> str:
        text = point_name(self.origin) + "".join(point_name(p) for p in self.path)
        return f"h{point_name(self.huff)},{text}" if self.huff is not None else text

    def readable(self) -> str:
        sep = "x" if self.is_capture else "-"
        text = point_name(self.origin) + "".join(sep + point_name(p) for p in self.path)
        return f"(huff {point_name(self.huff)}) {text}" if self.huff is not None else text

    @classmethod
    def from_uci(cls, text: str) -> Move:
        """Parse ``c2c3``, ``b3d3d5`` or ``hc3,b2c3`` (also ``c2-c3``, ``b3xd3xd5`` and
        ``(huff c3) b2-c3``).

        :raises InvalidMoveError: for text that is not a list of points.
        """
        if not isinstance(text, str):
            raise InvalidMoveError(f"invalid Alquerque move {text!r}: expected a string")
        compact = text.strip()
        huff = None
        match = re.fullmatch(r"\(huff ([a-e][1-5])\)\s*(.+)", compact)
        if match:
            huff, compact = parse_point(match.group(1)), match.group(2)
        elif re.fullmatch(r"h[a-e][1-5],.+", compact):
            huff, compact = parse_point(compact[1:3]), compact[4:]
        compact = compact.replace("-", "").replace("x", "")
        if not _POINTS.fullmatch(compact):
            raise InvalidMoveError(
                f"invalid Alquerque move {text!r}: expected points a1..e5 such as 'c2c3' or "
                "'b3d3d5'"
            )
        points = [parse_point(compact[i : i + 2]) for i in range(0, len(compact), 2)]
        return cls(points[0], tuple(points[1:]), huff)


def _point(name: str, value: object) -> int:
    """``value`` as a point index, or a typed error naming ``name``."""
    if not isinstance(value, Integral) or isinstance(value, bool) or not 0 <= int(value) < 25:
        raise InvalidMoveError(f"invalid Alquerque move: {name} {value!r} is not a point (0-24)")
    return int(value)


#: ``move`` itself when it is an Alquerque :class:`Move`; :raises InvalidMoveError: naming what
#: was given instead
require_move = Move.require
