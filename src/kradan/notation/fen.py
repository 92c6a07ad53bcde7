"""FEN, read and written as Fairy-Stockfish does for these games (docs/rules.md 2.6.3, 3.1, 4, 5.2).

``<board>[<hand>] <side> <gates> <counting limit> [<checks>] <halfmove|counting ply> <fullmove>``

* Field 3 holds the Ouk gates (``DEde``); Makruk accepts any text there and writes ``-``.
* Field 4 is ``-`` or the counting limit in plies; when it is a number above 0, field 5 is the
  counting ply and the halfmove clock is 0.
* Kar Ouk adds the checks each side still needs (``1+1``) after field 4.
* Trailing fields may be left out; they default to ``w - - 0 1``.

What Fairy-Stockfish loads, kradan loads, so that a position written by it, by pychess.org or
by an editor opens: a position where the side not to move is in check, and counting fields no
counting rule produces (a limit the variant's table does not have, a count running while
unpromoted pawns forbid one). ``Board.status()`` says what is odd about such a position
(:mod:`kradan.chessboard.status`); no king is ever taken in it. Refused as Fairy-Stockfish
refuses them: kings side by side. Refused as text that is not a position: a short or long
*last* rank (Fairy-Stockfish checks rank widths only at each ``/``) and a ``~`` that follows no
piece.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from .. import _core
from .._core import layout as L
from ..errors import InvalidFenError
from ..variants import CountingMode, CountingRule, SetupRule, Variant

_DIGITS = re.compile(r"\d+")


@dataclass
class _Placement:
    """What the board and hand fields describe, before it becomes kernel arrays."""

    pieces: list[tuple[int, int, int, bool]] = field(
        default_factory=list
    )  # sq, color, type, promoted
    hand: list[int] = field(default_factory=lambda: [0] * 12)
    hand_written: bool = False


def _fail(fen: str, reason: str) -> InvalidFenError:
    return InvalidFenError(f"invalid FEN {fen!r}: {reason}")


def _letter_table(variant: Variant) -> dict[str, tuple[int, int]]:
    table = {}
    for index, letter in enumerate(variant.letters):
        table[letter] = (L.WHITE, index)
        table[letter.lower()] = (L.BLACK, index)
    return table


def _parse_hand(fen: str, text: str, variant: Variant, placement: _Placement) -> None:
    letters = _letter_table(variant)
    for char in text:
        if char == "-":
            continue
        if char not in letters:
            raise _fail(
                fen, f"{char!r} in the hand [{text}] is not a piece letter of {variant.name}"
            )
        color, ptype = letters[char]
        placement.hand[color * 6 + ptype] += 1
    placement.hand_written = True


def _parse_board(fen: str, text: str, variant: Variant) -> _Placement:
    placement = _Placement()
    if "[" in text:
        if variant.setup is not SetupRule.DROPS:
            raise _fail(fen, f"{variant.name} has no pieces in hand, so no '[...]' field")
        board_text, _, rest = text.partition("[")
        if not rest.endswith("]") or "[" in rest or "]" in rest[:-1]:
            raise _fail(fen, "the hand must be written once, as '[...]' right after the board")
        _parse_hand(fen, rest[:-1], variant, placement)
        text = board_text
    letters = _letter_table(variant)
    ranks = text.split("/")
    if len(ranks) != 8:
        raise _fail(fen, f"expected 8 ranks separated by '/', found {len(ranks)}")
    for row, rank_text in enumerate(ranks):
        rank = 7 - row
        file = 0
        i = 0
        while i < len(rank_text):
            char = rank_text[i]
            if char.isdecimal():  # what _DIGITS matches ('²' is a digit but not decimal)
                digits = _DIGITS.match(rank_text, i)
                assert digits is not None
                file += int(digits.group())
                i = digits.end()
                continue
            if char not in letters:
                if char == "~":
                    raise _fail(fen, f"'~' in rank {rank + 1} does not follow a piece letter")
                raise _fail(
                    fen,
                    f"{char!r} in rank {rank + 1} is not a piece letter of {variant.name}"
                    f" (letters: {variant.letters}{variant.letters.lower()})",
                )
            if file >= 8:
                raise _fail(fen, f"rank {rank + 1} ({rank_text!r}) has more than 8 squares")
            color, ptype = letters[char]
            promoted = rank_text.startswith("~", i + 1)
            placement.pieces.append((rank * 8 + file, color, ptype, promoted))
            file += 1
            i += 2 if promoted else 1
        if file != 8:
            raise _fail(fen, f"rank {rank + 1} ({rank_text!r}) has {file} squares, expected 8")
    return placement


#: the largest move counter a FEN may hold (a billion: far beyond any game, well inside int64)
MAX_COUNTER = 10**9


def _number(fen: str, text: str, what: str) -> int:
    if text == "-":
        return 0
    # isdecimal, not isdigit: isdigit also accepts '²', which int() refuses
    if not text.isdecimal():
        raise _fail(fen, f"{what} {text!r} is not a non-negative number")
    if int(text) > MAX_COUNTER:
        raise _fail(fen, f"{what} {text!r} is over {MAX_COUNTER:,}")
    return int(text)


def _parse_gates(text: str, variant: Variant, info: np.ndarray) -> np.uint64:
    """First-move rights, read as Fairy-Stockfish reads its gates: a file letter (upper case
    for White's first rank, lower case for Black's eighth) keeps a right for the piece of that
    colour standing there; letters of other kinds and rights on empty or enemy-held squares are
    ignored, as Fairy-Stockfish ignores them."""
    gates = np.uint64(0)
    if not variant.keeps_first_move_rights:
        return gates
    for char in text:
        if char.lower() not in "abcdefgh":
            continue
        color = L.WHITE if char.isupper() else L.BLACK
        sq = (0 if color == L.WHITE else 56) + "abcdefgh".index(char.lower())
        code = info[L.I_BOARD + sq]
        if code != 0 and code >> 3 == color:
            gates |= np.uint64(1) << np.uint64(sq)
    return gates


def _parse_checks(fen: str, text: str) -> tuple[int, int]:
    match = re.fullmatch(r"(\d)\+(\d)", text)
    if not match:
        raise _fail(
            fen, f"check field {text!r} must look like '1+1' (checks each side still needs)"
        )
    return int(match.group(1)), int(match.group(2))


def parse_fen(fen: str, variant: Variant) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays ``(bbs, info)`` for ``fen`` in ``variant``.

    :raises InvalidFenError: naming the field and the reason, with the FEN quoted.
    """
    if not isinstance(fen, str):
        raise InvalidFenError(f"invalid FEN {fen!r}: expected a string")
    if not fen:
        raise _fail(fen, "the FEN is empty")
    parts = fen.split(" ")
    if len(parts) > 1 and parts[-1] == "":
        parts.pop()  # one trailing space, as Fairy-Stockfish allows
    if any(part == "" for part in parts):
        raise _fail(fen, "empty field (fields are separated by single spaces)")
    max_parts = 7 if variant.checks_to_win else 6
    if len(parts) > max_parts:
        raise _fail(fen, f"expected at most {max_parts} fields, found {len(parts)}")

    placement = _parse_board(fen, parts[0], variant)
    bbs, info = _core.new_arrays()
    _core.apply_variant(bbs, info, variant)
    for sq, color, ptype, promoted in placement.pieces:
        code = L.piece_code(color, ptype)
        info[L.I_BOARD + sq] = code
        bit = np.uint64(1) << np.uint64(sq)
        bbs[L.BB_TYPE + ptype] |= bit
        bbs[L.BB_COLOR + color] |= bit
        if promoted:
            bbs[L.BB_PROMOTED] |= bit
    for i, count in enumerate(placement.hand):
        info[L.I_HAND + i] = count

    fields = parts[1:]
    side = fields.pop(0) if fields else "w"
    if side not in ("w", "b"):
        raise _fail(fen, f"side to move {side!r} must be 'w' or 'b'")
    info[L.I_STM] = L.WHITE if side == "w" else L.BLACK
    gates_text = fields.pop(0) if fields else "-"
    limit_text = fields.pop(0) if fields else "-"
    checks = (variant.checks_to_win, variant.checks_to_win)
    if variant.checks_to_win and fields and "+" in fields[0]:
        checks = _parse_checks(fen, fields.pop(0))
    halfmove_text = fields.pop(0) if fields else "0"
    fullmove_text = fields.pop(0) if fields else "1"
    if fields:
        raise _fail(fen, f"unexpected field {fields[0]!r}")

    if limit_text != "-" and not limit_text.isdecimal():
        raise _fail(fen, f"field 4 {limit_text!r} must be '-' or a counting limit in plies")
    limit = _number(fen, limit_text, "counting limit")
    halfmove = _number(fen, halfmove_text, "halfmove clock")
    fullmove = _number(fen, fullmove_text, "fullmove number")
    if limit > 0:
        info[L.I_COUNT_LIMIT] = limit
        info[L.I_COUNT_PLY] = halfmove
    else:
        info[L.I_RULE50] = halfmove
    black = info[L.I_STM] == L.BLACK
    info[L.I_GAME_PLY] = max(2 * (fullmove - 1), 0) + (1 if black else 0)
    info[L.I_CHECKS] = checks[0]
    info[L.I_CHECKS + 1] = checks[1]
    bbs[L.BB_GATES] = _parse_gates(gates_text, variant, info)

    _validate_position(fen, bbs, info, variant, placement)
    bbs[L.BB_KEY] = _core.compute_key(bbs, info)
    return bbs, info


def _validate_position(
    fen: str, bbs: np.ndarray, info: np.ndarray, variant: Variant, placement: _Placement
) -> None:
    kings = bbs[L.BB_TYPE + L.KING]
    for color, name in ((L.WHITE, "white"), (L.BLACK, "black")):
        on_board = bin(int(kings & bbs[L.BB_COLOR + color])).count("1")
        in_hand = placement.hand[color * 6 + L.KING]
        if on_board + in_hand != 1:
            raise _fail(fen, f"{name} must have exactly one king, found {on_board + in_hand}")
    if bin(int(kings)).count("1") == 2:  # Fairy-Stockfish refuses these too
        a, b = (i for i in range(64) if int(kings) >> i & 1)
        if abs((a & 7) - (b & 7)) <= 1 and abs((a >> 3) - (b >> 3)) <= 1:
            raise _fail(fen, "the kings stand next to each other")


# counting limits in plies that each rule can produce (docs/rules.md 2.6.2, 2.6.4, 3.3, 5.6)
_MAKRUK_LIMITS = frozenset({16, 32, 44, 64, 88, 128})
_LIMITS = {
    CountingRule.MAKRUK: _MAKRUK_LIMITS,
    CountingRule.SITTUYIN_SEED: _MAKRUK_LIMITS,
    CountingRule.SITTUYIN_SEED_LITERAL: _MAKRUK_LIMITS,
    CountingRule.CAMBODIAN: frozenset({14, 30, 42, 62, 86, 126}),
    CountingRule.ASEAN: frozenset({32, 88, 128}),
    CountingRule.NONE: frozenset(),
}


def counting_problem(bbs: np.ndarray, info: np.ndarray, variant: Variant) -> str | None:
    """What is odd about a position's counting fields, or ``None``: a limit no counting rule of
    the variant produces, or a count running while unpromoted pawns forbid one."""
    limit = int(info[L.I_COUNT_LIMIT])
    if limit == 0:
        return None
    rule = variant.effective_counting_rule
    allowed = _MAKRUK_LIMITS if variant.counting is CountingMode.DECLARED else _LIMITS[rule]
    if limit not in allowed:
        choices = ", ".join(map(str, sorted(allowed))) or "none"
        return (
            f"counting limit {limit} is not one the {variant.name} counting rule produces "
            f"(plies: {choices})"
        )
    if bbs[L.BB_TYPE + L.PAWN] and rule is not CountingRule.SITTUYIN_SEED_LITERAL:
        small_side = min(bin(int(bbs[L.BB_COLOR + c])).count("1") for c in (L.WHITE, L.BLACK))
        if not (rule is CountingRule.CAMBODIAN and small_side <= 3):
            return "a count runs while unpromoted pawns are on the board (docs/rules.md 2.6.2)"
    return None


def _board_text(info: np.ndarray, bbs: np.ndarray, variant: Variant, show_promoted: bool) -> str:
    symbols = _symbols(variant.letters)
    codes = info[L.I_BOARD : L.I_BOARD + 64].tolist()
    promoted = int(bbs[L.BB_PROMOTED]) if show_promoted else 0
    rows = []
    for rank in range(7, -1, -1):
        row = ""
        empty = 0
        for sq in range(rank * 8, rank * 8 + 8):
            code = codes[sq]
            if code == 0:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += symbols[code]
            if promoted >> sq & 1:
                row += "~"
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


@cache
def _symbols(letters: str) -> tuple[str, ...]:
    """FEN letters by mailbox code (colour << 3 | kernel type + 1); '' for codes no piece has."""
    symbols = []
    for code in range(16):
        kind = code & 7
        if kind == 0 or kind > len(letters):
            symbols.append("")
            continue
        letter = letters[kind - 1]
        symbols.append(letter if code >> 3 == L.WHITE else letter.lower())
    return tuple(symbols)


def _hand_text(info: np.ndarray, variant: Variant) -> str:
    # Fairy-Stockfish lists each side's hand by piece value: king, khon, ferz, rook, knight, pawn
    order = (L.KING, L.KHON, L.MET, L.ROOK, L.KNIGHT, L.PAWN)
    text = ""
    for color in (L.WHITE, L.BLACK):
        for ptype in order:
            letter = variant.letters[ptype]
            text += (letter if color == L.WHITE else letter.lower()) * int(
                info[L.I_HAND + color * 6 + ptype]
            )
    return f"[{text}]"


def _gates_text(bbs: np.ndarray, variant: Variant) -> str:
    if not variant.keeps_first_move_rights:
        return "-"
    gates = int(bbs[L.BB_GATES])
    white = "".join("ABCDEFGH"[f] for f in range(8) if gates >> f & 1)
    black = "".join("abcdefgh"[f] for f in range(8) if gates >> (56 + f) & 1)
    return (white + black) or "-"


def write_fen(bbs: np.ndarray, info: np.ndarray, variant: Variant, show_promoted: bool) -> str:
    """The FEN of a kernel position, exactly as Fairy-Stockfish writes it."""
    text = _board_text(info, bbs, variant, show_promoted)
    if variant.setup is SetupRule.DROPS:
        text += _hand_text(info, variant)
    black = int(info[L.I_STM]) == L.BLACK
    limit = int(info[L.I_COUNT_LIMIT])
    fields = [text, "b" if black else "w", _gates_text(bbs, variant), str(limit) if limit else "-"]
    if variant.checks_to_win:
        fields.append(f"{int(info[L.I_CHECKS])}+{int(info[L.I_CHECKS + 1])}")
    fields.append(str(int(info[L.I_COUNT_PLY])) if limit else str(int(info[L.I_RULE50])))
    game_ply = int(info[L.I_GAME_PLY])
    fields.append(str(1 + (game_ply - (1 if black else 0)) // 2))
    return " ".join(fields)
