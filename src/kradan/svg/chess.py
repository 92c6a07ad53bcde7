"""The 8 x 8 board of Makruk, Ouk Chatrang, Kar Ouk and Sittuyin, as SVG.

The board is one colour with lines between the squares, as Thai and Cambodian boards are;
Sittuyin adds its two long diagonals, and during its setup phase the pieces still in hand stand
on a panel beside the board, each with its count.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from ..move import Move
from ..pieces import SQUARE_NAMES, Piece
from ..variants import PromotionRule
from . import _common as C
from .pieces import ORDER, piece_definition, piece_id

if TYPE_CHECKING:
    from ..board import Board

SQ = 50  # a square, in drawing units
SIDE = 8 * SQ
HAND_WIDTH = 84  # the panel of pieces in hand
HAND_GAP = 8
HAND_STEP = 38  # from one entry of a hand to the next
HAND_SCALE = 0.72  # of a piece on the board


class ChessLayout:
    """Where things go: the board's corner, the panel, and each square's place."""

    def __init__(self, options: C.Options, hands: bool) -> None:
        self.flipped = options.flipped
        self.margin = 20 if options.coordinates == "outside" else 2
        self.hands = hands
        self.panel_x = (
            2 * self.margin + SIDE + (HAND_GAP if options.coordinates != "outside" else 0)
        )
        self.width = self.panel_x + HAND_WIDTH + self.margin if hands else 2 * self.margin + SIDE
        self.height = 2 * self.margin + SIDE

    def corner(self, square: int) -> tuple[float, float]:
        """Top-left corner of ``square``."""
        file, rank = square & 7, square >> 3
        column = 7 - file if self.flipped else file
        row = rank if self.flipped else 7 - rank
        return self.margin + column * SQ, self.margin + row * SQ

    def centre(self, square: int) -> tuple[float, float]:
        x, y = self.corner(square)
        return x + SQ / 2, y + SQ / 2


def locate(value: object) -> int:
    """A square given by name (``'e3'``) or number (0 .. 63)."""
    return C.resolve_square(value, SQUARE_NAMES, "square")


def last_move_squares(board: Board, lastmove: object) -> list[int]:
    """The squares to mark for ``lastmove`` (``None``: the board's last move; ``False``: none).

    :raises InvalidSvgOptionError: for a value that is not a move or a pair of squares.
    """
    if lastmove is False:
        return []
    if lastmove is None:
        moves = [entry for entry in board.move_stack if isinstance(entry, Move)]
        if not moves:
            return []
        lastmove = moves[-1]
    if isinstance(lastmove, Move):
        if lastmove.is_null():
            return []  # a pass moved nothing
        squares = [lastmove.to_square]
        if lastmove.drop is None:
            squares.insert(0, lastmove.from_square)
        if lastmove.pawn_step is not None:
            squares += [lastmove.pawn_step.from_square, lastmove.pawn_step.to_square]
        return sorted(set(squares))
    if isinstance(lastmove, tuple) and len(lastmove) == 2:
        return sorted({locate(lastmove[0]), locate(lastmove[1])})
    raise C.InvalidSvgOptionError(
        f"invalid lastmove {lastmove!r}: expected a Move, a (from, to) pair, None or False"
    )


def check_square(board: Board, check: object) -> int | None:
    """The king square to mark as in check (``None``: the side to move's king when in check)."""
    if check is False:
        return None
    if check is None:
        return board.king(board.turn) if board.is_check() else None
    return locate(check)


def _hand_entries(board: Board) -> dict[bool, list[tuple[int, int]]]:
    """Each side's pieces in hand as (piece type, count), in a fixed order."""
    entries = {}
    for color in (True, False):
        hand = board.hand(color)
        entries[color] = [(kind, hand[kind]) for kind in ORDER if hand.get(kind)]
    return entries


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
    """The SVG text of ``board``."""
    colors = options.colors
    hands = _hand_entries(board)
    layout = ChessLayout(options, any(hands.values()))
    marked = set(last_move_squares(board, lastmove))
    filled = {locate(square): C.check_color(color) for square, color in fill.items()}
    checked = check_square(board, check)
    pieces = board.piece_map()

    kinds = {(p.piece_type, p.color, p.promoted) for p in pieces.values()}
    kinds |= {(kind, color, False) for color, entries in hands.items() for kind, _ in entries}
    defs = [
        piece_definition(kind, color, promoted, SQ / 100)
        for color in (True, False)
        for kind in ORDER
        for promoted in (False, True)
        if (kind, color, promoted) in kinds
    ]
    if checked is not None:
        defs.append(
            '<radialGradient id="check-gradient">'
            f'<stop offset="0%" stop-color="{colors["check"]}" stop-opacity="1"/>'
            f'<stop offset="50%" stop-color="{colors["check"]}" stop-opacity="0.55"/>'
            f'<stop offset="100%" stop-color="{colors["check"]}" stop-opacity="0"/>'
            "</radialGradient>"
        )
    body = ["<defs>" + "".join(defs) + "</defs>"]
    m = layout.margin
    if options.coordinates == "outside" or layout.hands:
        color = colors["margin"] if options.coordinates == "outside" else "none"
        body.append(
            C.element(
                "rect",
                {
                    "class": "frame",
                    "x": 0,
                    "y": 0,
                    "width": layout.width,
                    "height": layout.height,
                    "fill": color,
                },
            )
        )

    for square in range(64):
        x, y = layout.corner(square)
        classes = ["square", SQUARE_NAMES[square]]
        color = colors["board"]
        if square in marked:
            classes.append("lastmove")
            color = colors["lastmove"]
        if square in filled:
            classes.append("fill")
            color = filled[square]
        body.append(
            C.element(
                "rect",
                {
                    "class": " ".join(classes),
                    "x": x,
                    "y": y,
                    "width": SQ,
                    "height": SQ,
                    "fill": color,
                },
            )
        )

    line = {"stroke": colors["line"], "stroke-width": 1.5}
    for k in range(1, 8):
        body.append(
            C.element(
                "line",
                {
                    "class": "grid",
                    "x1": m + k * SQ,
                    "y1": m,
                    "x2": m + k * SQ,
                    "y2": m + SIDE,
                    **line,
                },
            )
        )
    for k in range(1, 8):
        body.append(
            C.element(
                "line",
                {
                    "class": "grid",
                    "x1": m,
                    "y1": m + k * SQ,
                    "x2": m + SIDE,
                    "y2": m + k * SQ,
                    **line,
                },
            )
        )
    if board.variant.promotion is PromotionRule.SEPARATE_MOVE:  # Sittuyin's promotion lines
        for start, end in ((0, 63), (7, 56)):
            (ax, ay), (bx, by) = layout.centre(start), layout.centre(end)
            # from the outer corner of one corner square to the outer corner of the other
            dx, dy = (ax - bx) / 14, (ay - by) / 14
            body.append(
                C.element(
                    "line",
                    {
                        "class": f"diagonal {SQUARE_NAMES[start]}-{SQUARE_NAMES[end]}",
                        "x1": ax + dx,
                        "y1": ay + dy,
                        "x2": bx - dx,
                        "y2": by - dy,
                        **line,
                    },
                )
            )
    body.append(
        C.element(
            "rect",
            {
                "class": "border",
                "x": m,
                "y": m,
                "width": SIDE,
                "height": SIDE,
                "fill": "none",
                "stroke": colors["line"],
                "stroke-width": 3,
            },
        )
    )
    body += _coordinates(layout, options)

    if checked is not None:
        x, y = layout.corner(checked)
        body.append(
            C.element(
                "rect",
                {
                    "class": f"check {SQUARE_NAMES[checked]}",
                    "x": x,
                    "y": y,
                    "width": SQ,
                    "height": SQ,
                    "fill": "url(#check-gradient)",
                },
            )
        )
    for square in sorted(pieces):
        piece: Piece = pieces[square]
        x, y = layout.corner(square)
        body.append(
            C.element(
                "use",
                {
                    "class": f"piece {SQUARE_NAMES[square]}",
                    "xlink:href": "#" + piece_id(piece.piece_type, piece.color, piece.promoted),
                    "x": x,
                    "y": y,
                },
            )
        )
    if layout.hands:
        body += _hands(layout, options, hands)
    body += C.crosses_svg(squares, locate, layout.centre, SQUARE_NAMES, SQ * 0.32, colors["cross"])
    body += C.arrows_svg(arrows, locate, layout.centre, SQUARE_NAMES, SQ * 0.18)
    title = f"{board.variant.title}: {board.fen(show_promoted=True)}"
    return C.root(layout.width, layout.height, options.size, body, title)


def _coordinates(layout: ChessLayout, options: C.Options) -> list[str]:
    if options.coordinates is None:
        return []
    files, ranks = C.FILES[options.labels], C.RANKS[options.labels]
    colors = options.colors
    m = layout.margin
    result = []
    for index in range(8):
        x, _ = layout.corner(index)  # a square of rank 1 in this file
        _, y = layout.corner(index * 8)  # a square of file a in this rank
        if options.coordinates == "outside":
            file_at = (x + SQ / 2, m + SIDE + m / 2 + 4.5, "middle")
            rank_at = (m / 2, y + SQ / 2 + 4.5, "middle")
            style = {"font-size": 13, "fill": colors["coord"]}
        else:
            bottom = m + SIDE
            file_at = (x + SQ - 3, bottom - 3, "end")
            rank_at = (m + 3, y + 11, "start")
            style = {"font-size": 10, "fill": colors["line"]}
        for kind, (tx, ty, anchor), text in (
            ("file", file_at, files[index]),
            ("rank", rank_at, ranks[index]),
        ):
            result.append(C.coordinate(kind, tx, ty, text, style, anchor))
    return result


def _hands(
    layout: ChessLayout, options: C.Options, hands: dict[bool, list[tuple[int, int]]]
) -> list[str]:
    """The panel beside the board: the upper side's hand on top, the lower side's below."""
    colors = options.colors
    m = layout.margin
    x0 = layout.panel_x
    result = [
        C.element(
            "rect",
            {
                "class": "hand-panel",
                "x": x0,
                "y": m,
                "width": HAND_WIDTH,
                "height": SIDE,
                "fill": colors["hand"],
                "stroke": colors["line"],
                "stroke-width": 1.5,
            },
        )
    ]
    digits = str.maketrans(C.DIGITS["latin"], C.DIGITS[options.labels])
    upper = layout.flipped  # White's hand is on top when the board is flipped
    for color, top in ((upper, m + 4), (not upper, m + SIDE / 2 + 4)):
        side = "white" if color else "black"
        for index, (kind, count) in enumerate(hands[color]):
            y = top + index * HAND_STEP
            ident = piece_id(kind, color)
            result.append(
                C.element(
                    "use",
                    {
                        "class": f"hand-piece {side}",
                        "xlink:href": "#" + ident,
                        "transform": f"translate({C.num(x0 + 4)} {C.num(y)}) scale({HAND_SCALE})",
                    },
                )
            )
            text = f"×{count}".translate(digits)
            result.append(
                C.element(
                    "text",
                    {
                        "class": f"hand-count {side}",
                        "data-piece": ident,
                        "x": x0 + 44,
                        "y": y + 24,
                        "font-size": 15,
                        "font-family": C.font_family(text),
                        "fill": colors["line"],
                    },
                    text,
                )
            )
    return result


__all__ = ["ChessLayout", "check_square", "draw", "last_move_squares", "locate"]
