"""Why an Alquerque move is not legal: the first rule it breaks, in words, for the message of
:class:`~kradan.errors.IllegalMoveError`."""

from __future__ import annotations

import numpy as np

from . import _kernel as K
from .geometry import JUMP_OVER, JUMP_TO, STEP, point_name
from .move import Move


def huff_liable(state: np.ndarray) -> list[int]:
    """Points of the opponent's pieces to be huffed before the side to move plays, in the
    position ``state`` (a row of the state stack)."""
    liable = int(state[K.S_HUFF])
    return [p for p in range(25) if (liable >> p) & 1]


def explain(move: Move, state: np.ndarray, rules: np.ndarray, legal: list[Move]) -> str:
    """Why ``move`` is not legal in ``state`` under ``rules``, whose legal moves are ``legal``:
    the first rule it breaks."""
    us = int(state[K.S_STM])
    own = int(state[K.S_WHITE + us])
    opp = int(state[K.S_WHITE + 1 - us])
    if not (own >> move.origin) & 1:
        return f"{point_name(move.origin)} holds no piece of the side to move"
    if state[K.S_HUFF] and not rules[K.R_HUFF_ALL] and move.huff is None:
        liable = ", ".join(point_name(p) for p in huff_liable(state))
        return f"first huff one of the liable pieces ({liable}), e.g. 'h{liable[:2]},...'"
    pos = move.origin
    if not move.is_capture:
        if STEP[pos, :].tolist().count(move.path[0]) == 0:
            return (
                f"{point_name(pos)} and {point_name(move.path[0])} are not neighbours on a line"
                " (a step moves one point, a jump two)"
            )
        if any(m.is_capture for m in legal):
            return "a capture is possible, and capturing is compulsory"
        return "that step breaks a movement rule (direction, far row or no return)"
    taken = 0
    for landing in move.path:
        dirs = [d for d in range(8) if JUMP_TO[pos, d] == landing]
        if not dirs:
            return f"no line leads from {point_name(pos)} to {point_name(landing)} by one jump"
        over = int(JUMP_OVER[pos, dirs[0]])
        if not ((own | opp) >> over) & 1 or ((opp >> over) & 1 and (taken >> over) & 1):
            return (
                f"the move skips the empty point {point_name(over)}: a piece steps one point"
                " or jumps over an enemy piece"
            )
        if (own >> over) & 1 and over != move.origin:
            return f"the jump {point_name(pos)}x{point_name(landing)} goes over its own piece"
        if not (opp >> over) & 1:  # a taken enemy was answered above
            return f"the jump {point_name(pos)}x{point_name(landing)} goes over no enemy piece"
        taken |= 1 << over
        pos = landing
    longer = [m for m in legal if m.origin == move.origin and m.path[: len(move.path)] == move.path]
    if longer:
        return f"the chain must go on: the piece can still jump from {point_name(pos)}"
    return "that capture breaks a movement rule (direction, no return or landing square)"


__all__ = ["explain", "huff_liable"]
