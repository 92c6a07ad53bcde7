"""The pictures of ``kradan serve``, made from kradan's own drawings (:mod:`kradan.svg`).

chessgroundx draws a piece as an element with the classes ``<colour> <role>`` (``white
k-piece``, ``black m-piece promoted``) and the board as the background of ``cg-board``. This
module makes both: one SVG file per piece and board (:func:`image`), and the style sheet that
puts them in place (:func:`pieces_css`), served as ``/assets/pieces.css``.

The images are files, not ``data:`` URIs, so the pages keep the strict
``Content-Security-Policy: default-src 'self'`` (a ``data:`` image would need ``img-src data:``).

* the chess family, under ``.kradan-chess``: Makruk, Ouk Chatrang and Kar Ouk use the roles
  ``k s m n r p`` and ``m~`` (a promoted pawn: the cowrie turned over); Sittuyin uses
  ``k f s n r p`` (``f~``: a promoted pawn);
* Alquerque, under ``.kradan-alquerque``: ``p`` men and ``k`` kings as stones;
* the boards: ``plain`` (the uncheckered Thai and Cambodian 8 x 8), ``sittuyin`` (the same with
  its two long diagonals) and ``alquerque`` (5 x 5 points, lines through the square centres).

>>> css = pieces_css()
>>> '.kradan-chess piece.m-piece.promoted.white' in css
True
>>> image("white-king.svg").startswith("<svg")
True
"""

from __future__ import annotations

from functools import cache

from ..alquerque.geometry import POINT_NAMES
from ..pieces import BLACK, FERZ, KHON, KING, KNIGHT, MET, PAWN, ROOK, WHITE, Piece, PieceType
from ..svg import DEFAULT_COLORS, piece
from ..svg.alquerque import LINES
from ..svg.pieces import stone_definition, stone_id

#: chessgroundx's role letter of each piece type, per game family
CHESS_ROLES: dict[str, PieceType] = {
    "k": KING,
    "s": KHON,
    "m": MET,
    "f": FERZ,
    "n": KNIGHT,
    "r": ROOK,
    "p": PAWN,
}
#: the roles whose promoted form is drawn as a promoted pawn
PROMOTED_ROLES = ("m", "f")
SIDES = {"white": WHITE, "black": BLACK}
BOARDS = ("plain", "sittuyin", "alquerque")

_SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
    'version="1.1" viewBox="0 0 {w} {h}">'
)


def _piece_name(role: str, side: str, promoted: bool) -> str:
    return f"{side}-{'promoted-' if promoted else ''}{role}"


def _chess_piece(role: str, side: str, promoted: bool) -> str:
    return piece(Piece(CHESS_ROLES[role], SIDES[side], promoted), size=None)


def _stone(king: bool, side: str) -> str:
    ident = stone_id(king, SIDES[side])
    definition = stone_definition(king, SIDES[side], 1.0)
    return (
        _SVG_OPEN.format(w=100, h=100)
        + f"<defs>{definition}</defs>"
        # a stone 60 % of its square wide, as kradan.svg draws Alquerque: the lines stay visible
        + f'<use xlink:href="#{ident}" transform="translate(16 16) scale(0.68)"/></svg>\n'
    )


def _chess_board(diagonals: bool) -> str:
    """The 8 x 8 board, 400 units wide: one colour, lines between the squares."""
    colors = DEFAULT_COLORS
    parts = [
        _SVG_OPEN.format(w=400, h=400),
        f'<rect width="400" height="400" fill="{colors["board"]}"/>',
        f'<g stroke="{colors["line"]}" stroke-width="1.6" fill="none">',
        '<rect x="0.8" y="0.8" width="398.4" height="398.4"/>',
    ]
    for i in range(1, 8):
        parts.append(f'<path d="M{50 * i} 0 V400 M0 {50 * i} H400"/>')
    if diagonals:
        parts.append('<path d="M0 0 L400 400 M400 0 L0 400"/>')
    parts.append("</g></svg>\n")
    return "".join(parts)


def _alquerque_board() -> str:
    """The 5 x 5 points, 500 units wide, each in the centre of one of chessgroundx's squares."""
    colors = DEFAULT_COLORS

    def centre(name: str) -> tuple[int, int]:
        p = POINT_NAMES.index(name)
        return 50 + 100 * (p % 5), 450 - 100 * (p // 5)

    parts = [
        _SVG_OPEN.format(w=500, h=500),
        f'<rect width="500" height="500" fill="{colors["board"]}"/>',
        f'<g stroke="{colors["line"]}" stroke-width="4" stroke-linecap="round">',
    ]
    for start, end in LINES:
        (x1, y1), (x2, y2) = centre(start), centre(end)
        parts.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>')
    parts.append(f'</g><g fill="{colors["point"]}">')
    for name in POINT_NAMES:
        x, y = centre(name)
        parts.append(f'<circle cx="{x}" cy="{y}" r="7"/>')
    parts.append("</g></svg>\n")
    return "".join(parts)


@cache
def images() -> dict[str, str]:
    """Every image by file name: ``white-k.svg``, ``black-promoted-m.svg``, ``stone-white-k.svg``,
    ``board-plain.svg``, ..."""
    found: dict[str, str] = {}
    for side in SIDES:
        for role in CHESS_ROLES:
            found[_piece_name(role, side, False) + ".svg"] = _chess_piece(role, side, False)
        for role in PROMOTED_ROLES:
            found[_piece_name(role, side, True) + ".svg"] = _chess_piece(role, side, True)
        for role, king in (("p", False), ("k", True)):
            found[f"stone-{side}-{role}.svg"] = _stone(king, side)
    found["board-plain.svg"] = _chess_board(False)
    found["board-sittuyin.svg"] = _chess_board(True)
    found["board-alquerque.svg"] = _alquerque_board()
    # the names people would look for first
    found["white-king.svg"] = found["white-k.svg"]
    return found


def image(name: str) -> str:
    """The SVG text of the image called ``name``.

    :raises KeyError: for a name that is no image.
    """
    return images()[name]


@cache
def pieces_css(base: str = "/assets/") -> str:
    """The style sheet that draws chessgroundx's pieces and boards with kradan's images, which
    are served under ``base``."""

    def url(name: str) -> str:
        return f'url("{base}{name}")'

    rules = [
        "/* kradan's own drawings of the pieces and boards for chessgroundx "
        "(made by kradan.web.assets) */"
    ]
    for side in SIDES:
        for role in CHESS_ROLES:
            rules.append(
                f".kradan-chess piece.{role}-piece.{side} "
                f"{{ background-image: {url(_piece_name(role, side, False) + '.svg')}; }}"
            )
        for role in PROMOTED_ROLES:
            rules.append(
                f".kradan-chess piece.{role}-piece.promoted.{side} "
                f"{{ background-image: {url(_piece_name(role, side, True) + '.svg')}; }}"
            )
        for role in ("p", "k"):
            rules.append(
                f".kradan-alquerque piece.{role}-piece.{side} "
                f"{{ background-image: {url(f'stone-{side}-{role}.svg')}; }}"
            )
    for board in BOARDS:
        rules.append(
            f".kradan-board-{board} cg-board {{ background-image: {url(f'board-{board}.svg')}; }}"
        )
    return "\n".join(rules) + "\n"


__all__ = ["BOARDS", "CHESS_ROLES", "image", "images", "pieces_css"]
