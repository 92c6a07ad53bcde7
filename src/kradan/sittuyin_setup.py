"""Sittuyin's screened setup (docs/rules.md 5.3, conflict C12).

Over the board each player arranges king, sit-ke, sins, horses and chariots behind a screen. Here
each side submits its whole arrangement; once both are in, they are replayed as alternating drops
(White first, each side's pieces in the order K, F, S, S, N, N, R, R), so the FEN, perft and PGN
stay exactly Fairy-Stockfish's. No drop of one side can affect the other's (the camps never
touch), so every pair of arrangements replays legally.

An arrangement maps square names to piece letters, e.g. ``{"e2": "K", "d2": "F", ...}``, or names
a preset (:data:`PRESETS`), given from White's side and mirrored for Black.
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import InvalidSetupError
from .move import Move
from .pieces import (
    FERZ,
    KHON,
    KING,
    KNIGHT,
    PIECE_NAMES,
    ROOK,
    SQUARE_NAMES,
    SYMBOL_TO_TYPE,
    Color,
    PieceType,
)

#: the order in which each side's pieces are dropped when an arrangement is replayed
DROP_ORDER: tuple[PieceType, ...] = (KING, FERZ, KHON, KNIGHT, ROOK)

#: named arrangements, written for White (Black's is the mirror image across the middle)
PRESETS: dict[str, dict[str, str]] = {
    # the arrangement of Fairy-Stockfish's example game (docs/rules.md 5.3)
    "standard": {
        "e2": "K", "d2": "F", "c1": "S", "f1": "S", "b2": "N", "g2": "N", "a1": "R", "h1": "R",
    },
    # the same with king and sit-ke exchanged
    "mirrored": {
        "d2": "K", "e2": "F", "c1": "S", "f1": "S", "b2": "N", "g2": "N", "a1": "R", "h1": "R",
    },
    # king tucked in behind its sins and horses, chariots in the middle of the back rank
    "fortress": {
        "g2": "K", "f2": "F", "f1": "S", "h2": "S", "e2": "N", "g1": "N", "d1": "R", "e1": "R",
    },
}  # fmt: skip


def _mirror(square: str) -> str:
    return square[0] + str(9 - int(square[1]))


def _relative_rank(square: str, white: bool) -> int:
    rank = int(square[1])
    return rank if white else 9 - rank


def arrangement_drops(
    hand: dict[PieceType, int],
    occupied: set[str],
    color: Color,
    arrangement: Mapping[str, str] | str,
) -> list[Move]:
    """The drops that realise ``arrangement`` for ``color``, checked against the rules.

    :param hand: the pieces ``color`` holds, by type.
    :param occupied: names of the squares already occupied.
    :raises InvalidSetupError: naming the square and the rule broken.
    """
    side = "White" if color else "Black"
    if isinstance(arrangement, str):
        preset = PRESETS.get(arrangement)
        if preset is None:
            raise InvalidSetupError(
                f"unknown setup preset {arrangement!r}; presets: {', '.join(sorted(PRESETS))}"
            )
        arrangement = preset if color else {_mirror(sq): letter for sq, letter in preset.items()}
    camp = "ranks 1-3" if color else "ranks 6-8"
    back = "rank 1" if color else "rank 8"
    placed: dict[PieceType, list[int]] = {}
    for name, letter in arrangement.items():
        if name not in SQUARE_NAMES:
            raise InvalidSetupError(f"{side} setup: {name!r} is not a square (a1 .. h8)")
        piece_type = SYMBOL_TO_TYPE.get(str(letter).lower())
        if piece_type not in hand:
            raise InvalidSetupError(
                f"{side} setup: {letter!r} on {name} is not a piece of the setup (K, F, S, N, R)"
            )
        if _relative_rank(name, color) > 3:
            raise InvalidSetupError(f"{side} setup: {name} is outside {side}'s camp ({camp})")
        if name in occupied:
            raise InvalidSetupError(f"{side} setup: {name} is already occupied")
        if piece_type == ROOK and _relative_rank(name, color) != 1:
            raise InvalidSetupError(
                f"{side} setup: rook on {name}: rooks must stand on {side}'s back rank ({back})"
            )
        placed.setdefault(piece_type, []).append(SQUARE_NAMES.index(name))
    for piece_type, count in hand.items():
        given = len(placed.get(piece_type, []))
        if given != count:
            raise InvalidSetupError(
                f"{side} setup: {given} {PIECE_NAMES[piece_type]}(s) placed, but {side} holds "
                f"{count} in hand"
            )
    return [
        Move(square, square, drop=piece_type)
        for piece_type in DROP_ORDER
        for square in sorted(placed.get(piece_type, []))
    ]
