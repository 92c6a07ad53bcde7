"""The numba kernel: bitboards, legal move generation, make/unmake, hashing, perft.

Only NumPy arrays and integers cross into it (DESIGN.md). ``NUMBA_DISABLE_JIT=1`` runs the same
code as plain Python.
"""

from __future__ import annotations

from ._cache import drop_stale_cache

drop_stale_cache()

from .compile import apply_variant  # noqa: E402
from .counting import start_pieces_honour  # noqa: E402
from .makemove import last_move, make_move, make_null, unmake_move, unmake_null  # noqa: E402
from .perft import perft  # noqa: E402
from .position import capacity, compute_key, grown, new_arrays  # noqa: E402
from .queries import (  # noqa: E402
    checkers,
    count_legal_moves,
    legal_moves,
    side_in_check,
    side_not_to_move_in_check,
)

__all__ = [
    "apply_variant",
    "capacity",
    "checkers",
    "compute_key",
    "count_legal_moves",
    "grown",
    "last_move",
    "legal_moves",
    "make_move",
    "make_null",
    "new_arrays",
    "perft",
    "side_in_check",
    "side_not_to_move_in_check",
    "start_pieces_honour",
    "unmake_move",
    "unmake_null",
]
