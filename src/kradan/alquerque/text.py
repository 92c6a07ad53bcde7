"""The Alquerque position text (docs/rules.md 6.2), a FEN for the 25-point board.

``<rows> <side> <huff> <no-capture plies> <move number> [<history>]``

* rows 5 to 1, ``/`` between them; ``P``/``p`` men, ``K``/``k`` kings, digits for empty points;
* side to move ``w`` or ``b``;
* the points of the pieces (of the side that just moved) liable to be huffed, comma-separated,
  or ``-``;
* plies since the last capture, and the move number;
* optional, for Bell's no-return rule: for each piece that has moved, ``current:start...``
  followed by the other points it has stood on (``c3:c1b2``), comma-separated, or ``-``.
  Without it every piece is taken to stand where it started, so a saved game resumes exactly
  only with it; the writer adds it whenever a piece has moved.

>>> write_text(parse_text("ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1"))
'ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1'
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidFenError
from . import _kernel as K
from .geometry import parse_point, point_name

#: the largest counter a position text may hold (a billion: beyond any game, inside int64)
MAX_COUNTER = 10**9
_LETTERS = {"P": (0, False), "p": (1, False), "K": (0, True), "k": (1, True)}


def _fail(text: str, reason: str) -> InvalidFenError:
    return InvalidFenError(f"invalid Alquerque position {text!r}: {reason}")


def _points(text: str, field: str, what: str) -> list[int]:
    if field == "-":
        return []
    try:
        return [parse_point(name) for name in field.split(",")]
    except ValueError:
        raise _fail(
            text, f"{what} {field!r} is not a comma-separated list of points a1..e5"
        ) from None


def parse_text(text: str) -> np.ndarray:
    """A kernel state row for ``text``.

    :raises InvalidFenError: naming the part that is wrong.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidFenError(f"invalid Alquerque position {text!r}: empty")
    parts = text.split()
    if not 5 <= len(parts) <= 6:
        raise _fail(text, f"expected 5 or 6 fields (rows, side, huff, no-capture plies, move "
                          f"number[, history]), found {len(parts)}")  # fmt: skip
    state = np.zeros(K.STATE_NB, dtype=np.int64)
    rows = parts[0].split("/")
    if len(rows) != 5:
        raise _fail(text, f"expected 5 rows separated by '/', found {len(rows)}")
    for index, row in enumerate(rows):
        y = 4 - index
        x = 0
        for char in row:
            if char in "12345":
                x += int(char)
                continue
            if char not in _LETTERS:
                raise _fail(text, f"{char!r} in row {y + 1} is not P, p, K, k or a digit 1-5")
            if x >= 5:
                raise _fail(text, f"row {y + 1} ({row!r}) has more than 5 points")
            color, king = _LETTERS[char]
            p = y * 5 + x
            state[K.S_WHITE + color] |= 1 << p
            if king:
                state[K.S_KINGS] |= 1 << p
            state[K.S_HISTORY + p] = (1 << p) | (p << K.START_SHIFT)
            x += 1
        if x != 5:
            raise _fail(text, f"row {y + 1} ({row!r}) has {x} points, expected 5")
    for color, name in ((0, "White"), (1, "Black")):
        count = bin(int(state[K.S_WHITE + color])).count("1")
        if count > 12:
            raise _fail(text, f"{name} has {count} pieces; a side starts with 12")
    if state[K.S_WHITE] == 0 and state[K.S_BLACK] == 0:
        raise _fail(text, "the board holds no piece at all (docs/rules.md Decision 10)")
    if parts[1] not in ("w", "b"):
        raise _fail(text, f"side to move {parts[1]!r} must be 'w' or 'b'")
    state[K.S_STM] = 0 if parts[1] == "w" else 1
    mover = 1 - state[K.S_STM]
    for p in _points(text, parts[2], "huff field"):
        if not (state[K.S_WHITE + mover] >> p) & 1:
            raise _fail(text, f"huffed point {point_name(p)} holds no piece of the side that moved")
        state[K.S_HUFF] |= 1 << p
    for field, what in ((parts[3], "no-capture plies"), (parts[4], "move number")):
        # isdecimal, not isdigit: isdigit also accepts '²', which int() refuses
        if not field.isdecimal():
            raise _fail(text, f"{what} {field!r} is not a whole number")
        if int(field) > MAX_COUNTER:
            raise _fail(text, f"{what} {field!r} is over {MAX_COUNTER:,}")
    state[K.S_NO_CAPTURE] = int(parts[3])
    state[K.S_PLY] = max(2 * (int(parts[4]) - 1), 0) + state[K.S_STM]
    if len(parts) == 6 and parts[5] != "-":
        for entry in parts[5].split(","):
            _parse_history(text, entry, state)
    return state


def _parse_history(text: str, entry: str, state: np.ndarray) -> None:
    current, _, earlier = entry.partition(":")
    try:
        p = parse_point(current)
        points = [parse_point(earlier[i : i + 2]) for i in range(0, len(earlier), 2)]
    except ValueError:
        raise _fail(text, f"history entry {entry!r} is not 'point:start...'") from None
    if not points or len(earlier) % 2:
        raise _fail(text, f"history entry {entry!r} is not 'point:start...'")
    if not ((state[K.S_WHITE] | state[K.S_BLACK]) >> p) & 1:
        raise _fail(text, f"history entry {entry!r}: no piece stands on {current}")
    visited = 1 << p
    for q in points:
        visited |= 1 << q
    state[K.S_HISTORY + p] = visited | (points[0] << K.START_SHIFT)


def write_text(state: np.ndarray) -> str:
    """The position text of a kernel state row."""
    rows = []
    for y in range(4, -1, -1):
        row, empty = "", 0
        for x in range(5):
            p = y * 5 + x
            letter = ""
            for color, char in ((0, "P"), (1, "p")):
                if (state[K.S_WHITE + color] >> p) & 1:
                    letter = char.upper() if color == 0 else char
                    if (state[K.S_KINGS] >> p) & 1:
                        letter = "K" if color == 0 else "k"
            if not letter:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letter
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    black = int(state[K.S_STM]) == 1
    huff = [point_name(p) for p in range(25) if (int(state[K.S_HUFF]) >> p) & 1]
    fields = [
        "/".join(rows),
        "b" if black else "w",
        ",".join(huff) or "-",
        str(int(state[K.S_NO_CAPTURE])),
        str(1 + (int(state[K.S_PLY]) - (1 if black else 0)) // 2),
    ]
    history = []
    for p in range(25):
        entry = int(state[K.S_HISTORY + p])
        if not entry:
            continue
        start = entry >> K.START_SHIFT
        visited = entry & K.HISTORY_MASK
        others = [q for q in range(25) if (visited >> q) & 1 and q not in (p, start)]
        if start != p or others:
            history.append(
                point_name(p) + ":" + point_name(start) + "".join(map(point_name, others))
            )
    if history:
        fields.append(",".join(history))
    return " ".join(fields)
