"""What both drawings share: checked options, colours, number formatting, arrows, the root."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias
from xml.sax.saxutils import escape, quoteattr

from ..errors import InvalidSquareError, KradanError

SquareLike: TypeAlias = int | str


class InvalidSvgOptionError(KradanError, ValueError):
    """An argument of :func:`kradan.svg.board` that cannot be drawn: a labels or coordinates
    value, a size, a colour name, an arrow."""

    __module__ = "kradan.svg"  # where it is imported from


@dataclass(frozen=True, slots=True)
class Arrow:
    """An arrow from ``tail`` to ``head`` (square names or numbers); a circle when they match."""

    tail: SquareLike
    head: SquareLike
    color: str = "#15781b"


#: the colours a drawing uses; ``colors=`` overrides any of them
DEFAULT_COLORS: dict[str, str] = {
    "board": "#e8c98f",  # the chess-family board: one colour, uncheckered
    "line": "#4a2f17",  # lines between squares, Sittuyin's diagonals, Alquerque's lines
    "margin": "#5c3d22",  # the frame that holds outside coordinates
    "coord": "#f4e6c8",  # coordinates outside the board (inside ones use "line")
    "lastmove": "#d7c24e",
    "check": "#e02020",
    "cross": "#a01818",  # the X over the squares given as ``squares``
    "hand": "#f1e2c0",  # the panel beside the board with Sittuyin's pieces in hand
    "point": "#4a2f17",  # Alquerque's points
}

LABELS = ("latin", "thai", "khmer", "burmese")
#: the files and ranks of each set of labels; Khmer and Burmese as the web board writes them
#: (its ``board.js``): the alphabet's first consonants and the script's digits, as Thai does
FILES = {"latin": "abcdefgh", "thai": "กขคงจฉชญ", "khmer": "កខគឃងចឆជ", "burmese": "ကခဂဃငစဆဇ"}
DIGITS = {
    "latin": "0123456789",
    "thai": "๐๑๒๓๔๕๖๗๘๙",
    "khmer": "០១២៣៤៥៦៧៨៩",
    "burmese": "၀၁၂၃၄၅၆၇၈၉",
}
RANKS = {labels: digits[1:9] for labels, digits in DIGITS.items()}
COORDINATES = ("outside", "inside")

Coordinates: TypeAlias = bool | Literal["outside", "inside"]


@dataclass(frozen=True, slots=True)
class Options:
    """The checked, board-independent arguments of a drawing."""

    size: int | None
    flipped: bool
    coordinates: str | None  # "outside", "inside" or None
    labels: str
    colors: dict[str, str]


def check_options(
    size: int | None,
    flipped: bool,
    coordinates: Coordinates,
    labels: str,
    colors: Mapping[str, str] | None,
) -> Options:
    """The arguments checked and normalised.

    :raises InvalidSvgOptionError: quoting the argument that is wrong.
    """
    if size is not None and (isinstance(size, bool) or not isinstance(size, int) or size <= 0):
        raise InvalidSvgOptionError(f"invalid size {size!r}: expected a positive whole number")
    if labels not in LABELS:
        expected = ", ".join(repr(name) for name in LABELS)
        raise InvalidSvgOptionError(f"invalid labels {labels!r}: expected one of {expected}")
    where: str | None
    if coordinates is True:
        where = "outside"
    elif coordinates is False or coordinates is None:
        where = None
    elif coordinates in COORDINATES:
        where = str(coordinates)
    else:
        raise InvalidSvgOptionError(
            f"invalid coordinates {coordinates!r}: expected True, False, 'outside' or 'inside'"
        )
    chosen = dict(DEFAULT_COLORS)
    for key, value in (colors or {}).items():
        if key not in DEFAULT_COLORS:
            names = ", ".join(DEFAULT_COLORS)
            raise InvalidSvgOptionError(f"invalid colour name {key!r}: expected one of {names}")
        chosen[key] = check_color(value)
    return Options(size, bool(flipped), where, labels, chosen)


def check_color(value: object) -> str:
    """``value`` when it can stand in an SVG attribute as a colour.

    :raises InvalidSvgOptionError: for anything but a non-empty string.
    """
    if not isinstance(value, str) or not value.strip():
        raise InvalidSvgOptionError(f"invalid colour {value!r}: expected an SVG colour string")
    return value


def resolve_square(value: object, names: list[str], what: str) -> int:
    """The index of a square (or point) given by name or number.

    :raises InvalidSquareError: quoting ``value`` when it names no square of the board.
    """
    if isinstance(value, str) and value in names:
        return names.index(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    raise InvalidSquareError(
        f"invalid {what} {value!r} (expected {names[0]} .. {names[-1]} or 0 .. {len(names) - 1})"
    )


def num(value: float) -> str:
    """A coordinate written briefly and always the same way (``12``, ``12.5``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def element(name: str, attributes: Mapping[str, object], text: str | None = None) -> str:
    """One element; numbers go through :func:`num`, text and attributes are escaped."""
    parts = [name]
    for key, value in attributes.items():
        shown = num(value) if isinstance(value, float | int) else str(value)
        parts.append(f"{key}={quoteattr(shown)}")
    if text is None:
        return "<" + " ".join(parts) + "/>"
    return "<" + " ".join(parts) + ">" + escape(text) + f"</{name}>"


#: scripts whose letters a plain ``sans-serif`` may lack, and a font that has them; named first,
#: because cairosvg (``--png``) reads only the first family of the list and does not fall back
SCRIPT_FONTS = (
    ("\u0e00", "\u0e7f", "Noto Sans Thai"),
    ("\u1780", "\u17ff", "Noto Sans Khmer"),
    ("\u1000", "\u109f", "Noto Sans Myanmar"),
)


def font_family(text: str) -> str:
    """The ``font-family`` for ``text``: a font of its script first (Thai, Khmer, Burmese),
    then ``sans-serif``."""
    for first, last, font in SCRIPT_FONTS:
        if any(first <= char <= last for char in text):
            return f"{font}, sans-serif"
    return "sans-serif"


def coordinate(
    kind: str, x: float, y: float, text: str, style: Mapping[str, object], anchor: str = "middle"
) -> str:
    """One coordinate label (``kind`` ``file`` or ``rank``) at ``(x, y)``."""
    attributes = {"class": f"coord {kind}", "x": x, "y": y, "text-anchor": anchor,
                  "font-family": font_family(text), **style}  # fmt: skip
    return element("text", attributes, text)


def arrow(
    tail: tuple[float, float],
    head: tuple[float, float],
    color: str,
    width: float,
    names: tuple[str, str],
) -> str:
    """An arrow ``<g>`` whose tip touches ``head``; a ring when ``tail == head``."""
    group = f'<g class="arrow" data-tail="{names[0]}" data-head="{names[1]}" opacity="0.8">'
    if tail == head:
        ring = element(
            "circle",
            {
                "cx": head[0],
                "cy": head[1],
                "r": width * 2.2,
                "fill": "none",
                "stroke": color,
                "stroke-width": width * 0.6,
            },
        )
        return group + ring + "</g>"
    dx, dy = head[0] - tail[0], head[1] - tail[1]
    length = math.hypot(dx, dy)
    ux, uy = dx / length, dy / length
    head_length = min(width * 2.4, length * 0.6)
    base = (head[0] - ux * head_length, head[1] - uy * head_length)
    half = width * 1.2
    shaft = element(
        "line",
        {
            "x1": tail[0],
            "y1": tail[1],
            "x2": base[0],
            "y2": base[1],
            "stroke": color,
            "stroke-width": width,
            "stroke-linecap": "round",
        },
    )
    corners = [
        head,
        (base[0] - uy * half, base[1] + ux * half),
        (base[0] + uy * half, base[1] - ux * half),
    ]
    tip = element(
        "polygon", {"points": " ".join(f"{num(x)},{num(y)}" for x, y in corners), "fill": color}
    )
    return group + shaft + tip + "</g>"


def arrows_svg(
    arrows: Iterable[Arrow | tuple[SquareLike, SquareLike]],
    locate: Callable[[object], int],
    centre: Callable[[int], tuple[float, float]],
    names: list[str],
    width: float,
) -> list[str]:
    """The arrows, in the order given.

    :raises InvalidSvgOptionError: for an entry that is neither an Arrow nor a pair;
    :raises InvalidSquareError: for an unknown square.
    """
    result = []
    for entry in arrows:
        if isinstance(entry, Arrow):
            tail, head, color = entry.tail, entry.head, check_color(entry.color)
        elif isinstance(entry, tuple) and len(entry) == 2:
            tail, head = entry
            color = Arrow(0, 0).color
        else:
            raise InvalidSvgOptionError(
                f"invalid arrow {entry!r}: expected Arrow(tail, head) or a (tail, head) pair"
            )
        start, end = locate(tail), locate(head)
        result.append(arrow(centre(start), centre(end), color, width, (names[start], names[end])))
    return result


def crosses_svg(
    squares: Iterable[SquareLike],
    locate: Callable[[object], int],
    centre: Callable[[int], tuple[float, float]],
    names: list[str],
    half: float,
    color: str,
) -> list[str]:
    """An X over each of ``squares`` (python-chess's ``squares``), each square once.

    :raises InvalidSvgOptionError: when ``squares`` is not a collection of squares;
    :raises InvalidSquareError: for an unknown square.
    """
    if isinstance(squares, str | bytes) or not isinstance(squares, Iterable):
        raise InvalidSvgOptionError(
            f"invalid squares {squares!r}: expected a collection of squares, e.g. ['e4', 'd5']"
        )
    result = []
    for index in sorted({locate(square) for square in squares}):
        x, y = centre(index)
        stroke = {"stroke": color, "stroke-width": half / 4, "stroke-linecap": "round"}
        lines = "".join(
            element("line", {"x1": x - half, "y1": y - half * sign, "x2": x + half,
                             "y2": y + half * sign, **stroke})
            for sign in (1, -1)
        )  # fmt: skip
        result.append(f'<g class="cross {names[index]}">{lines}</g>')
    return result


def root(width: float, height: float, size: int | None, body: list[str], title: str) -> str:
    """The ``<svg>`` document around ``body``; ``size`` is its width in pixels."""
    attributes: dict[str, object] = {
        "xmlns": "http://www.w3.org/2000/svg",
        "xmlns:xlink": "http://www.w3.org/1999/xlink",
        "version": "1.1",
        "viewBox": f"0 0 {num(width)} {num(height)}",
    }
    if size is not None:
        attributes["width"] = size
        attributes["height"] = round(size * height / width)
    opening = element("svg", attributes)[:-2] + ">"
    return "\n".join([opening, element("title", {}, title), *body, "</svg>"]) + "\n"


__all__ = [
    "DEFAULT_COLORS",
    "Arrow",
    "InvalidSvgOptionError",
    "Options",
    "SquareLike",
    "check_options",
    "element",
    "num",
    "resolve_square",
    "root",
]
