"""Checks for the arguments of the boards' public methods: a value of the wrong kind or outside
its range raises a typed error that quotes it, instead of an ``AttributeError`` or a
``TypeError`` from deep inside, or a wrong answer read from past the end of an array.

Each check has a fast path for the common, valid value, so hot paths (``piece_at`` in SAN and in
rendering) pay one type test and one comparison.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import InvalidArgumentError, InvalidMoveError, InvalidSquareError, KradanError

MoveT = TypeVar("MoveT")

#: the deepest perft a board takes (the move tree of any game is far too big long before)
MAX_PERFT_DEPTH = 100


def _whole(value: Any, what: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidArgumentError(f"{what} {value!r}: expected a whole number") from None


def check_square(value: Any, size: int = 64, what: str = "square") -> int:
    """``value`` as a square (or Alquerque point) index below ``size``.

    :raises InvalidSquareError: for anything else, the value quoted.
    """
    if type(value) is int and 0 <= value < size:
        return value
    try:
        number = _whole(value, what)
    except InvalidArgumentError as error:
        raise InvalidSquareError(str(error)) from None
    if not 0 <= number < size:
        raise InvalidSquareError(f"{what} {value!r} is not on the board (0..{size - 1})")
    return number


def check_color(value: Any) -> bool:
    """``value`` as a colour: ``True`` (or 1) for White, ``False`` (or 0) for Black.

    :raises InvalidArgumentError: for anything else.
    """
    if value is True or value is False:
        return value
    try:
        number = operator.index(value)
    except TypeError:
        number = -1
    if number in (0, 1):
        return bool(number)
    raise InvalidArgumentError(f"color {value!r}: expected True (White) or False (Black)")


def check_number(value: Any, what: str, low: int, high: int | None = None) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (no upper bound when ``None``).

    :raises InvalidArgumentError: for anything else, the value quoted.
    """
    if value is True or value is False:
        raise InvalidArgumentError(f"{what} {value!r}: expected a whole number")
    number = _whole(value, what)
    if number < low or (high is not None and number > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise InvalidArgumentError(f"{what} {value!r} is outside {bounds}")
    return number


def check_text(value: Any, what: str) -> str:
    """``value`` when it is a ``str``.

    :raises InvalidArgumentError: for anything else (bytes included), the value quoted.
    """
    if isinstance(value, str):
        return value
    raise InvalidArgumentError(f"{what} {value!r}: expected text (a str)")


def decode_checked(decode: Callable[[int], MoveT], code: Any) -> MoveT:
    """``decode(code)`` for a kernel move code, a number that is no code of the game raising
    :class:`InvalidMoveError`."""
    number = check_number(code, "move code", 0, 2**32 - 1)
    try:
        return decode(number)
    except KradanError:
        raise
    except (IndexError, KeyError, ValueError):
        raise InvalidMoveError(f"{code!r} is not a move code of this game") from None


__all__ = [
    "MAX_PERFT_DEPTH",
    "check_color",
    "check_number",
    "check_square",
    "check_text",
    "decode_checked",
]
