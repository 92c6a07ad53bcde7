"""The numba kernel: bitboards, legal move generation, make/unmake, hashing, perft.

Only NumPy arrays and integers cross into it (DESIGN.md). ``NUMBA_DISABLE_JIT=1`` runs the same
code as plain Python.
"""

from __future__ import annotations

from .compile import apply_variant
from .makemove import last_move, make_move, unmake_move
from .movegen import generate_moves
from .perft import perft
from .position import capacity, compute_key, grown, new_arrays
from .queries import (
    checkers,
    move_gives_check,
    reply_count,
    side_in_check,
    side_not_to_move_in_check,
)

__all__ = [
    "apply_variant",
    "capacity",
    "checkers",
    "compute_key",
    "generate_moves",
    "grown",
    "last_move",
    "make_move",
    "move_gives_check",
    "new_arrays",
    "perft",
    "reply_count",
    "side_in_check",
    "side_not_to_move_in_check",
    "unmake_move",
]
