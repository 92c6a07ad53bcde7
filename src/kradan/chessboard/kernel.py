"""The kernel's view of a chess-family board, for code that works on its arrays (the engine,
fast PGN reading, table generation), and perft, which walks the kernel's move tree."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import _core
from .._core import layout as L
from ..arguments import MAX_PERFT_DEPTH, check_number, decode_checked
from ..move import Move
from ..variants import StalemateRule
from .moves import GROWTH_MARGIN, BoardMoves


class KernelView(BoardMoves):
    """Copies of the kernel's arrays, its move codes, and perft."""

    def kernel_arrays(self, *, room: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the kernel's bitboard and info arrays for this position, its history
        included (repetition needs it), with undo records free for ``room`` more plies.

        Numba code (search, table generation) makes and unmakes moves on these copies; the
        board itself never changes through them.
        """
        bbs, info = self._bbs.copy(), self._info.copy()
        used = int(info[L.I_SP])
        if _core.capacity(info) - used < room:
            bbs, info = _core.grown(bbs, info, max(2 * _core.capacity(info), used + room))
        return bbs, info

    def legal_codes(self) -> list[int]:
        """The legal moves as the kernel's packed move codes (see :meth:`decode_move`)."""
        return list(self._legal_codes())

    def decode_move(self, code: int) -> Move:
        """The :class:`Move` of a kernel move code of this variant.

        :raises InvalidMoveError: for a number that is no move code of this variant.
        """
        return decode_checked(self._codec.decode, code)

    def encode_move(self, move: Move) -> int | None:
        """The kernel move code of ``move`` (``None`` when the kernel cannot express it)."""
        return self._codec.encode(move)

    # --- perft ----------------------------------------------------------------------------------

    def perft(self, depth: int, *, bulk: bool = True, threads: int = 1) -> int:
        """Number of leaf nodes of the legal move tree ``depth`` plies deep.

        ``bulk`` counts the moves at the last ply instead of making them. With ``threads`` > 1
        the first moves are shared out among threads; the kernel releases the GIL, so they run
        in parallel.

        :raises InvalidArgumentError: for a depth outside 0..100 or threads below 1.
        """
        depth = check_number(depth, "depth", 0, MAX_PERFT_DEPTH)
        threads = check_number(threads, "threads", 1, 4096)
        self._ensure_room(depth + GROWTH_MARGIN)
        if self.variant.stalemate is StalemateRule.ILLEGAL:
            return self._filtered_perft(depth)
        if threads <= 1 or depth < 3:
            return int(_core.perft(self._bbs, self._info, depth, bulk))
        codes = self._legal_codes()

        def subtree(code: int) -> int:
            bbs, info = self._bbs.copy(), self._info.copy()
            _core.make_move(bbs, info, code)
            return int(_core.perft(bbs, info, depth - 1, bulk))

        with ThreadPoolExecutor(max_workers=threads) as pool:
            return sum(pool.map(subtree, codes))

    def _filtered_perft(self, depth: int) -> int:
        """Perft under ``stalemate="illegal"``, walked from Python over the kernel's filtered
        move lists: the compiled walk stays free of the option, which would slow it for every
        game (the option is for play; its perft is for tests)."""
        buffer = np.empty(L.MAX_MOVES, dtype=np.int64)
        n = _core.legal_moves(self._bbs, self._info, buffer)
        if depth <= 1:
            return n if depth == 1 else 1
        total = 0
        for code in buffer[:n].tolist():
            _core.make_move(self._bbs, self._info, code)
            total += self._filtered_perft(depth - 1)
            _core.unmake_move(self._bbs, self._info)
        return total

    def _perft_after(self, code: int, depth: int, bulk: bool) -> int:
        self._ensure_room(depth + 1 + GROWTH_MARGIN)
        _core.make_move(self._bbs, self._info, code)
        if self.variant.stalemate is StalemateRule.ILLEGAL:
            nodes = self._filtered_perft(depth)
        else:
            nodes = int(_core.perft(self._bbs, self._info, depth, bulk))
        _core.unmake_move(self._bbs, self._info)
        return nodes
