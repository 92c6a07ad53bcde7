"""Static exchange evaluation: what a move wins on its target square once both sides have
captured there with their least valuable pieces for as long as it pays.

The search uses it to order captures (a losing one after the quiet moves), to leave losing
captures out of quiescence, and to prune moves that put a piece where it is lost. Pins and
checks are not looked at, as in every engine's exchange evaluation. Only rooks slide in these
games, so the pieces behind an exchange come in by recomputing the attackers on a board with
the pieces already used taken off.
"""

from __future__ import annotations

import numpy as np

from ..._core.attacks import attackers_of_color
from ..._core.bits import ZERO, bit, jit, lsb
from ..._core.layout import (
    BB_COLOR,
    BB_TYPE,
    I_BOARD,
    I_STM,
    KHON,
    KIND_NORMAL,
    KIND_PROMOTION,
    KING,
    KNIGHT,
    MET,
    MOVE_FROM_SHIFT,
    MOVE_KIND_MASK,
    MOVE_KIND_SHIFT,
    MOVE_TO_MASK,
    PAWN,
    ROOK,
)
from .evaluate import VALUES

#: what a king is worth in an exchange: more than any exchange can win back, so a king never
#: captures onto a square the other side still attacks
KING_VALUE = 10000
#: piece types from the least valuable up: the order in which an exchange brings them in
CHEAPEST_FIRST = np.array([PAWN, MET, KHON, KNIGHT, ROOK, KING], dtype=np.int64)
#: the longest exchange on one square (every piece on the board, with room to spare)
MAX_EXCHANGE = 34


@jit
def _worth(piece_type: int) -> int:
    return KING_VALUE if piece_type == KING else VALUES[piece_type]


@jit
def _cheapest(bbs: np.ndarray, attackers: np.uint64) -> int:
    """The square of the least valuable of ``attackers`` (not empty)."""
    for piece_type in CHEAPEST_FIRST:
        mine = attackers & bbs[BB_TYPE + piece_type]
        if mine != ZERO:
            return lsb(mine)
    return -1


@jit
def exchange_value(bbs: np.ndarray, info: np.ndarray, move: int) -> int:
    """The material the side to move wins by ``move`` once the exchange on its target square
    is over, in centipawns: for a capture its victim less what the answers take back, for a
    move onto an empty square what it loses there (0 when it is safe). A Makruk promotion
    counts the met it makes. Drops, sutras and Sittuyin's promotions in place are 0."""
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind != KIND_NORMAL and kind != KIND_PROMOTION:
        return 0
    to = move & MOVE_TO_MASK
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    victim = info[I_BOARD + to]
    gains = np.zeros(MAX_EXCHANGE, dtype=np.int64)
    gains[0] = VALUES[(victim & 7) - 1] if victim != 0 else 0
    on_square = _worth((info[I_BOARD + frm] & 7) - 1)  # the piece that now stands on ``to``
    if kind == KIND_PROMOTION:
        gains[0] += VALUES[MET] - VALUES[PAWN]
        on_square = VALUES[MET]
    occupied = (bbs[BB_COLOR] | bbs[BB_COLOR + 1]) & ~bit(frm)
    side = 1 - info[I_STM]
    depth = 0
    while depth < MAX_EXCHANGE - 1:
        attackers = attackers_of_color(bbs, side, to, occupied) & occupied
        if attackers == ZERO:
            break
        square = _cheapest(bbs, attackers)
        depth += 1
        gains[depth] = on_square - gains[depth - 1]  # for ``side``, should it capture
        on_square = _worth((info[I_BOARD + square] & 7) - 1)
        occupied &= ~bit(square)
        side = 1 - side
    while depth > 0:  # from the last capture back: each side captures only when it pays
        gains[depth - 1] = -max(-gains[depth - 1], gains[depth])
        depth -= 1
    return gains[0]


@jit
def loses_material(bbs: np.ndarray, info: np.ndarray, move: int) -> bool:
    """Whether the capture ``move`` loses material in the exchange on its square; only a
    capture by a piece worth more than its victim can (a king's captures are all safe)."""
    attacker = (info[I_BOARD + ((move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK)] & 7) - 1
    victim = (info[I_BOARD + (move & MOVE_TO_MASK)] & 7) - 1
    if attacker == KING or victim < 0 or VALUES[attacker] <= VALUES[victim]:
        return False
    # a plain 0: a constant would compile exchange_at_least once more
    return not exchange_at_least(bbs, info, move, np.int64(0))  # type: ignore[arg-type]


@jit
def exchange_at_least(bbs: np.ndarray, info: np.ndarray, move: int, threshold: int) -> bool:
    """Whether ``exchange_value(move) >= threshold``, found without building the list of
    captures (no allocation: the search asks this of most moves it considers). Each capture
    in turn is answered only while the side to move can still turn the balance."""
    kind = (move >> MOVE_KIND_SHIFT) & MOVE_KIND_MASK
    if kind != KIND_NORMAL and kind != KIND_PROMOTION:
        return threshold <= 0
    to = move & MOVE_TO_MASK
    frm = (move >> MOVE_FROM_SHIFT) & MOVE_TO_MASK
    victim = info[I_BOARD + to]
    gain = VALUES[(victim & 7) - 1] if victim != 0 else 0
    on_square = _worth((info[I_BOARD + frm] & 7) - 1)
    if kind == KIND_PROMOTION:
        gain += VALUES[MET] - VALUES[PAWN]
        on_square = VALUES[MET]
    # ``balance``: what the mover is up if the exchange stopped now, less the threshold; the
    # loop asks whether the side to capture next can push it to its side of zero
    balance = gain - threshold
    if balance < 0:
        return False  # even if nothing is taken back it falls short
    balance = on_square - balance
    if balance <= 0:
        return True  # even if the piece is lost at once it is enough
    occupied = (bbs[BB_COLOR] | bbs[BB_COLOR + 1]) & ~bit(frm)
    side = info[I_STM]
    result = True
    while True:
        side = 1 - side
        attackers = attackers_of_color(bbs, side, to, occupied) & occupied
        if attackers == ZERO:
            break
        square = _cheapest(bbs, attackers)
        result = not result
        # a king is worth KING_VALUE here, as in exchange_value: no side gives it up
        balance = _worth((info[I_BOARD + square] & 7) - 1) - balance
        if balance < int(result):
            break
        occupied &= ~bit(square)
    return result


__all__ = [
    "CHEAPEST_FIRST",
    "KING_VALUE",
    "exchange_at_least",
    "exchange_value",
    "loses_material",
]
