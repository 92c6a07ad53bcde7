"""SVG pictures of kradan's boards, with kradan's own piece drawings (PNG with ``kradan[png]``).

Makruk, Ouk Chatrang and Kar Ouk get the uncheckered 8 x 8 board; Sittuyin adds its two long
diagonals and, during the setup, the pieces in hand beside the board; Alquerque gets its 25
points and lines. The vocabulary is python-chess's: ``lastmove``, ``check``, ``arrows``,
``fill``, ``squares``, ``flipped``, ``orientation``, ``coordinates``.

>>> import kradan, kradan.svg
>>> board = kradan.Board()
>>> _ = board.push_san("e4")
>>> svg = kradan.svg.board(board, size=300, arrows=[("d3", "d4")], labels="thai")
>>> svg.startswith("<svg") and svg.count('class="piece ') == 32
True
>>> svg.count("lastmove")                      # the board's last move, e3-e4
2
>>> kradan.svg.board(board, labels="klingon")  # doctest: +ELLIPSIS
Traceback (most recent call last):
kradan.svg.InvalidSvgOptionError: invalid labels 'klingon': expected one of 'latin', 'thai', ...
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from os import PathLike
from typing import Literal, TypeAlias

from .. import alquerque as _alquerque
from ..errors import KradanError, VariantError
from ..games import GameBoard, game_of
from ..move import Move
from ..pieces import Piece
from ._common import (
    DEFAULT_COLORS,
    Arrow,
    Coordinates,
    InvalidSvgOptionError,
    SquareLike,
    check_options,
    root,
)
from .pieces import piece_definition, piece_id

#: a move to mark: a Move, a (from, to) pair, None (the board's last move) or False (none)
LastMove: TypeAlias = Move | _alquerque.Move | tuple[SquareLike, SquareLike] | Literal[False] | None


class PngUnavailableError(KradanError, ImportError):
    """PNG output needs cairosvg, which is not installed."""


def board(
    board: GameBoard,
    *,
    size: int | None = 400,
    flipped: bool = False,
    orientation: bool | None = None,
    coordinates: Coordinates = True,
    labels: str = "latin",
    lastmove: LastMove = None,
    check: SquareLike | Literal[False] | None = None,
    arrows: Iterable[Arrow | tuple[SquareLike, SquareLike]] = (),
    fill: Mapping[SquareLike, str] | None = None,
    squares: Iterable[SquareLike] = (),
    colors: Mapping[str, str] | None = None,
) -> str:
    """The SVG text of ``board``, drawn by its game's ``svg`` hook (see :mod:`kradan.games`).

    :param size: width in pixels (the height follows); ``None`` leaves the size to the viewer.
    :param flipped: Black's view: a1 at the top right.
    :param orientation: the side at the bottom, as python-chess says it (``BLACK`` is
        ``flipped=True``); when given it decides.
    :param coordinates: ``True`` or ``"outside"`` (around the board), ``"inside"`` (in the edge
        squares) or ``False``.
    :param labels: ``"latin"`` (a-h, 1-8), ``"thai"`` (Thai letters and numerals, as in Thai SAN),
        ``"khmer"`` or ``"burmese"`` (the first consonants of the alphabet and the script's
        numerals, as the web board shows them on Khmer and Burmese pages).
    :param lastmove: a move or a ``(from, to)`` pair to mark; ``None`` marks the board's last
        move, ``False`` none.
    :param check: the square of a king in check; ``None`` marks the side to move's king when it is
        in check, ``False`` nothing.
    :param arrows: :class:`Arrow` objects or ``(tail, head)`` pairs of squares.
    :param fill: squares (or points) to colour, e.g. ``{"e4": "#88c0d0"}``.
    :param squares: squares (or points) to mark with an X, e.g. ``["d5", "f5"]``.
    :param colors: replacements for :data:`DEFAULT_COLORS`.
    :raises InvalidSvgOptionError: for a bad size, labels, coordinates, colour, move or arrow;
    :raises InvalidSquareError: for an unknown square name; both are ``ValueError`` subclasses
        and quote the input.
    """
    if orientation is not None:
        flipped = not orientation
    options = check_options(size, flipped, coordinates, labels, colors)
    marks = {"lastmove": lastmove, "check": check}
    try:
        draw = game_of(board).hook("svg")
    except (AttributeError, VariantError):
        draw = None
    if draw is None:
        raise InvalidSvgOptionError(f"cannot draw {board!r}: its game has no SVG drawer")
    # a game's drawer that predates ``squares`` still draws what asks nothing of it
    crosses = {} if squares == () else {"squares": squares}
    text: str = draw(board, options, **marks, arrows=arrows, fill=fill or {}, **crosses)
    return text


def piece(piece: Piece, *, size: int | None = 50) -> str:
    """The SVG text of one chess-family piece, e.g. ``piece(Piece(KING, WHITE))``."""
    ident = piece_id(piece.piece_type, piece.color, piece.promoted)
    definition = piece_definition(piece.piece_type, piece.color, piece.promoted, 0.5)
    body = ["<defs>" + definition + "</defs>", f'<use xlink:href="#{ident}"/>']
    return root(50, 50, size, body, ident.replace("-", " "))


def to_png(svg_text: str, path: str | PathLike[str] | None = None, *, scale: float = 1.0) -> bytes:
    """Render ``svg_text`` as PNG; write it to ``path`` when given. Returns the PNG bytes.

    :raises PngUnavailableError: when cairosvg is missing (``pip install 'kradan[png]'``).
    """
    try:
        import cairosvg
    except (ImportError, OSError) as error:  # OSError: cairosvg present but libcairo missing
        raise PngUnavailableError(
            f"PNG output needs cairosvg and the cairo library ({error}); "
            "install it with: pip install 'kradan[png]'"
        ) from None
    data: bytes = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), scale=scale)
    if path is not None:
        with open(path, "wb") as handle:
            handle.write(data)
    return data


__all__ = [
    "DEFAULT_COLORS",
    "Arrow",
    "InvalidSvgOptionError",
    "LastMove",
    "PngUnavailableError",
    "board",
    "piece",
    "to_png",
]
