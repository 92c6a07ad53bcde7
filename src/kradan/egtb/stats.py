"""What each table holds: who wins, the longest mate, and how many wins each game's count turns
into draws (docs/egtb.md, "Results"; ``kradan egtb stats``).

"White" is the table's stronger side. Fractions are of the legal positions with that side to
move, counted over the stored positions (each stands for itself and its mirror image, so the
fractions are those of all positions). A win the count turns into a draw is one the table calls
won that the winner cannot convert within a count that starts now: against a lone king, a mate
that takes more than the ``L - N`` moves of pieces' honour; with pieces on both sides, no mate
or winning capture (the conversion table) within the plies of board's honour.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .conversion import KIND, OUK_KIND, pieces_limit, two_sided
from .material import Material
from .probing import DRAW, ILLEGAL

#: the games whose counts the statistics weigh, by conversion-table kind, and the plies of
#: board's honour each gives (Makruk 64 moves; Ouk 63, docs/rules.md 3.3)
GAMES = {"makruk": (KIND, 128), "cambodian": (OUK_KIND, 126)}


@dataclass(frozen=True)
class TableStats:
    """One table's figures, each pair for White to move, then Black."""

    key: str
    white_wins: tuple[float, float]
    black_wins: tuple[float, float]
    #: White's longest forced mate in its moves (``None``: it never wins)
    longest: tuple[int | None, int | None]
    #: per game: the count that starts (e.g. ``"16 - 3 = 13"``) and the fraction of White's wins
    #: that it turns into draws (``None`` when the game's conversion table is missing)
    counts: dict[str, tuple[str, tuple[float, float] | None]]


def _halves(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    half = values.size // 2
    return values[:half].astype(np.int64), values[half:].astype(np.int64)


def _white_wins(side: np.ndarray, white_to_move: bool) -> np.ndarray:
    """Positions White wins: an odd distance for the side to move when White moves; an even
    one (0 = Black is mated) when Black does."""
    decided: np.ndarray = side < DRAW
    parity: np.ndarray = side % 2 == (1 if white_to_move else 0)
    both: np.ndarray = np.logical_and(decided, parity)
    return both


def _black_wins(side: np.ndarray, white_to_move: bool) -> np.ndarray:
    return _white_wins(side, not white_to_move)


def _white_moves(side: np.ndarray, white_to_move: bool) -> np.ndarray:
    """White's moves to mate for each position White wins."""
    return (side + 1) // 2 if white_to_move else side // 2


def table_stats(
    material: Material,
    values: np.ndarray,
    conversion: Callable[[str], np.ndarray | None],
) -> TableStats:
    """The figures of ``material``'s table; ``conversion(kind)`` gives its conversion table of
    that kind (``None`` when missing; never asked for a lone-king table)."""
    white = [0.0, 0.0]
    black = [0.0, 0.0]
    longest: list[int | None] = [None, None]
    wins: list[np.ndarray] = []
    for stm, side in enumerate(_halves(values)):
        to_move = stm == 0
        legal = max(1, int((side != ILLEGAL).sum()))
        won = _white_wins(side, to_move)
        white[stm] = float(won.sum()) / legal
        black[stm] = float(_black_wins(side, to_move).sum()) / legal
        if won.any():
            longest[stm] = int(_white_moves(side[won], to_move).max())
        wins.append(won)
    counts: dict[str, tuple[str, tuple[float, float] | None]] = {}
    for game, (kind, board_plies) in GAMES.items():
        if not two_sided(material):
            limit = pieces_limit(material.white, kind)
            moves = limit - material.pieces
            label = f"{limit} - {material.pieces} = {moves}"
            cut = [
                _share(wins[stm] & (_white_moves(side, stm == 0) > moves), wins[stm])
                for stm, side in enumerate(_halves(values))
            ]
            counts[game] = (label, (cut[0], cut[1]))
            continue
        label = f"{board_plies // 2} (board's)"
        table = conversion(kind)
        if table is None:
            counts[game] = (label, None)
            continue
        cut = []
        for stm, side in enumerate(_halves(table)):
            converts = _white_wins(side, stm == 0) & (side <= board_plies)
            cut.append(_share(wins[stm] & ~converts, wins[stm]))
        counts[game] = (label, (cut[0], cut[1]))
    return TableStats(
        material.key, (white[0], white[1]), (black[0], black[1]), (longest[0], longest[1]), counts
    )


def _share(part: np.ndarray, whole: np.ndarray) -> float:
    total = int(whole.sum())
    return float(part.sum()) / total if total else 0.0


__all__ = ["GAMES", "TableStats", "table_stats"]
