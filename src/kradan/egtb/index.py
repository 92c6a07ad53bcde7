"""Where a position sits in its table, in plain Python (probing needs no compiled code).

The compiled generator (``_kernel.encode``) computes the same index; a test checks both agree.
Index = side to move (0 White), White's king on files a-d (32 squares), then each other
piece's square (Black's king first, then the table's pieces), 64 each. A position whose White
king is on files e-h is mirrored left-right first: the only symmetry that holds (the khon's
forward step breaks the up-down one).
"""

from __future__ import annotations

from collections.abc import Sequence


def table_size(pieces: int) -> int:
    """Entries of a table of ``pieces`` pieces, kings included."""
    return 1 << (6 * pieces)  # 2 sides x 32 king squares x 64 per other piece


def index_of(stm: int, squares: Sequence[int]) -> int:
    """The index of the position with ``squares`` in slot order (White's king, Black's king,
    the other pieces) and ``stm`` to move (0 White, 1 Black)."""
    flip = 7 if squares[0] & 7 >= 4 else 0
    king = squares[0] ^ flip
    index = stm * 32 + (king >> 3) * 4 + (king & 7)
    for square in squares[1:]:
        index = index * 64 + (square ^ flip)
    return index
