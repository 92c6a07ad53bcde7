"""Reads of an Alquerque game's end that work on the kernel's arrays: when a position repeats,
and Bell's penalty points (docs/rules.md 6.5)."""

from __future__ import annotations

import numpy as np

from ..outcome import Outcome, Termination
from . import _kernel as K
from .variant import BellScoring


def position_rows(rows: np.ndarray, rules: np.ndarray) -> np.ndarray:
    """What makes two positions of the state rows ``rows`` the same: pieces, side, huffs, and
    the part of the pieces' histories that the no-return rule of ``rules`` can use (none
    without it)."""
    columns = [K.S_WHITE, K.S_BLACK, K.S_KINGS, K.S_STM, K.S_HUFF]
    mode = int(rules[K.R_NO_RETURN])
    history = rows[:, K.S_HISTORY : K.STATE_NB]
    if mode == K.NO_RETURN_ANY:
        history = history & K.HISTORY_MASK
    elif mode == K.NO_RETURN_START:
        history = history >> K.START_SHIFT
    else:
        history = history[:, :0]
    return np.concatenate([rows[:, columns], history], axis=1)


def occurrences(stack: np.ndarray, ply: int, rules: np.ndarray) -> int:
    """How often the position of ``stack[ply]`` has stood since the last capture, itself
    included."""
    rows = position_rows(stack[: ply + 1], rules)
    window = min(int(stack[ply, K.S_NO_CAPTURE]), ply)
    recent = rows[ply - window :]
    return int((recent == rows[-1]).all(axis=1).sum())


def penalty(found: Outcome, winners: int, losers: int, scoring: BellScoring) -> tuple[int, int]:
    """Bell's penalty points (White's, Black's) for the decided game ``found``, whose winner
    has ``winners`` pieces left and whose loser ``losers``."""
    if found.termination is Termination.CAPTURED_ALL:
        points = 2 + winners
    elif scoring is BellScoring.WINNER_AHEAD_ONLY:
        points = 2 + max(winners - losers, 0)
    else:
        points = 2 + abs(winners - losers)
    return (0, -points) if found.winner else (-points, 0)


__all__ = ["occurrences", "penalty", "position_rows"]
