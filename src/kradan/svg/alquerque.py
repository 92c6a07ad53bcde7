"""The Alquerque board as SVG: 25 points, the lines joining them, stones on the points.

Orthogonal lines join all neighbours; diagonal lines pass through the even points only (the two
long diagonals and the diamond a3-c1-e3-c5), as docs/rules.md 6.1 describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..alquerque.geometry import POINT_NAMES
from ..alquerque.move import Move
from ..pieces import KING
from . import _common as C
from .pieces import stone_definition, stone_id

if TYPE_CHECKING:
    from ..alquerque.board import Board

STEP = 80  # between neighbouring points, in drawing units
SIDE = 5 * STEP
STONE = 60  # a stone's diameter

#: the drawn lines as (from, to) points: 5 rows, 5 columns, then the 6 diagonal lines
LINES: tuple[tuple[str, str], ...] = (
    *((f"a{y}", f"e{y}") for y in range(1, 6)),
    *((f"{x}1", f"{x}5") for x in "abcde"),
    ("a1", "e5"),
    ("a5", "e1"),
    ("a3", "c5"),
    ("c5", "e3"),
    ("e3", "c1"),
    ("c1", "a3"),
)


class AlquerqueLayout:
    """Where the points go."""

    def __init__(self, options: C.Options) -> None:
        self.flipped = options.flipped
        self.margin = 20 if options.coordinates == "outside" else 2
        self.width = self.height = 2 * self.margin + SIDE

    def centre(self, point: int) -> tuple[float, float]:
        x, y = point % 5, point // 5
        column = 4 - x if self.flipped else x
        row = y if self.flipped else 4 - y
        return self.margin + STEP / 2 + column * STEP, self.margin + STEP / 2 + row * STEP


def locate(value: object) -> int:
    """A point given by name (``'c3'``) or number (0 .. 24)."""
    return C.resolve_square(value, POINT_NAMES, "point")


def last_move_points(board: Board, lastmove: object) -> list[int]:
    """The points to mark for ``lastmove``: its origin and every landing point.

    :raises InvalidSvgOptionError: for a value that is not a move or a pair of points.
    """
    if lastmove is False:
        return []
    if lastmove is None:
        if not board.move_stack:
            return []
        lastmove = board.move_stack[-1]
    if isinstance(lastmove, Move):
        return sorted({lastmove.origin, *lastmove.path})
    if isinstance(lastmove, tuple) and len(lastmove) == 2:
        return sorted({locate(lastmove[0]), locate(lastmove[1])})
    raise C.InvalidSvgOptionError(
        f"invalid lastmove {lastmove!r}: expected an Alquerque Move, a (from, to) pair, None "
        "or False"
    )


def _disc(kind: str, point: int, layout: AlquerqueLayout, fill: str) -> str:
    cx, cy = layout.centre(point)
    return C.element(
        "circle",
        {
            "class": f"{kind} {POINT_NAMES[point]}",
            "cx": cx,
            "cy": cy,
            "r": STONE / 2 + 6,
            "fill": fill,
        },
    )


def draw(
    board: Board,
    options: C.Options,
    *,
    lastmove: object,
    check: object,
    arrows: Iterable[C.Arrow | tuple[C.SquareLike, C.SquareLike]],
    fill: Mapping[C.SquareLike, str],
    squares: Iterable[C.SquareLike] = (),
) -> str:
    """The SVG text of ``board``; ``check`` (``None`` or ``False`` by default: Alquerque has no
    check) may still mark a point."""
    colors = options.colors
    layout = AlquerqueLayout(options)
    m = layout.margin
    marked = last_move_points(board, lastmove)
    filled = {locate(point): C.check_color(color) for point, color in fill.items()}
    checked = None if check is None or check is False else locate(check)
    pieces = {p: piece for p in range(25) if (piece := board.piece_at(p)) is not None}

    kinds = {(piece.piece_type == KING, piece.color) for piece in pieces.values()}
    defs = [
        stone_definition(king, color, STONE / 100)
        for color in (True, False)
        for king in (False, True)
        if (king, color) in kinds
    ]
    body = ["<defs>" + "".join(defs) + "</defs>"]
    if options.coordinates == "outside":
        body.append(
            C.element(
                "rect",
                {
                    "class": "frame",
                    "x": 0,
                    "y": 0,
                    "width": layout.width,
                    "height": layout.height,
                    "fill": colors["margin"],
                },
            )
        )
    body.append(
        C.element(
            "rect",
            {
                "class": "board",
                "x": m,
                "y": m,
                "width": SIDE,
                "height": SIDE,
                "fill": colors["board"],
                "stroke": colors["line"],
                "stroke-width": 3,
            },
        )
    )
    for point in marked:
        body.append(_disc("lastmove", point, layout, colors["lastmove"]))
    for point in sorted(filled):
        body.append(_disc("fill", point, layout, filled[point]))
    if checked is not None:
        body.append(_disc("check", checked, layout, colors["check"]))
    for start, end in LINES:
        (x1, y1), (x2, y2) = layout.centre(locate(start)), layout.centre(locate(end))
        kind = "orthogonal" if start[0] == end[0] or start[1] == end[1] else "diagonal"
        body.append(
            C.element(
                "line",
                {
                    "class": f"line {kind} {start}-{end}",
                    "x1": x1,
                    "y1": y1,
                    "x2": x2,
                    "y2": y2,
                    "stroke": colors["line"],
                    "stroke-width": 3,
                    "stroke-linecap": "round",
                },
            )
        )
    for point in range(25):
        cx, cy = layout.centre(point)
        body.append(
            C.element(
                "circle",
                {
                    "class": f"point {POINT_NAMES[point]}",
                    "cx": cx,
                    "cy": cy,
                    "r": 6,
                    "fill": colors["point"],
                },
            )
        )
    body += _coordinates(layout, options)
    for point in sorted(pieces):
        piece = pieces[point]
        cx, cy = layout.centre(point)
        body.append(
            C.element(
                "use",
                {
                    "class": f"piece {POINT_NAMES[point]}",
                    "xlink:href": "#" + stone_id(piece.piece_type == KING, piece.color),
                    "x": cx - STONE / 2,
                    "y": cy - STONE / 2,
                },
            )
        )
    body += C.crosses_svg(squares, locate, layout.centre, POINT_NAMES, STEP * 0.2, colors["cross"])
    body += C.arrows_svg(arrows, locate, layout.centre, POINT_NAMES, STEP * 0.15)
    title = f"{board.variant.name}: {board.text()}"
    return C.root(layout.width, layout.height, options.size, body, title)


def _coordinates(layout: AlquerqueLayout, options: C.Options) -> list[str]:
    if options.coordinates is None:
        return []
    files, ranks = C.FILES[options.labels], C.RANKS[options.labels]
    m = layout.margin
    result = []
    for index in range(5):
        x, _ = layout.centre(index)  # the point of row 1 in this file
        _, y = layout.centre(index * 5)  # the point of file a in this row
        if options.coordinates == "outside":
            file_at, rank_at = (x, m + SIDE + m / 2 + 4.5), (m / 2, y + 4.5)
            style = {"font-size": 13, "fill": options.colors["coord"]}
        else:  # in the corners of the points' cells, clear of the stones
            left, bottom = layout.centre(24 if layout.flipped else 0)  # the lower left point
            file_at, rank_at = (x + 32, bottom + 34), (left - 32, y - 26)
            style = {"font-size": 10, "fill": options.colors["line"]}
        for kind, (tx, ty), text in (
            ("file", file_at, files[index]),
            ("rank", rank_at, ranks[index]),
        ):
            result.append(C.coordinate(kind, tx, ty, text, style))
    return result


__all__ = ["LINES", "AlquerqueLayout", "draw", "last_move_points", "locate"]
