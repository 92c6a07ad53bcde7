"""Compile (or load from numba's on-disk cache) every kernel entry point the Python API uses."""

from __future__ import annotations

import sys

import numpy as np
from numba.core import event

from . import layout as L
from .makemove import make_move, unmake_move
from .perft import perft
from .position import compute_key, new_arrays
from .queries import (
    checkers,
    count_legal_moves,
    legal_moves,
)

ENTRY_POINTS = (
    legal_moves,
    count_legal_moves,
    make_move,
    unmake_move,
    perft,
    compute_key,
    checkers,
)


class _CompileAnnouncer(event.Listener):
    """Prints one line on stderr the first time numba really compiles (not on cache loads)."""

    def __init__(self) -> None:
        self.announced = False

    def on_start(self, data: event.Event) -> None:
        if not self.announced:
            self.announced = True
            print(
                "kradan: compiling the move generator (first run only, about 15 s) ...",
                file=sys.stderr,
                flush=True,
            )

    def on_end(self, data: event.Event) -> None:
        pass


_announcer: _CompileAnnouncer | None = None


def announce_compilation() -> None:
    """From now on, say on stderr (once) when the kernel has to be compiled."""
    global _announcer
    if _announcer is None:
        _announcer = _CompileAnnouncer()
        event.register("numba:compile", _announcer)  # type: ignore[no-untyped-call]


def stop_announcing() -> None:
    """Say nothing more about compiling (what compiles from now on is announced elsewhere)."""
    global _announcer
    if _announcer is not None:
        event.unregister("numba:compile", _announcer)  # type: ignore[no-untyped-call]
        _announcer = None


def _tiny_position() -> tuple[np.ndarray, np.ndarray]:
    """Two kings and a pawn each: enough to run every entry point once."""
    bbs, info = new_arrays()
    for color, king_sq, pawn_sq in ((L.WHITE, 3, 19), (L.BLACK, 60, 44)):
        for ptype, sq in ((L.KING, king_sq), (L.PAWN, pawn_sq)):
            info[L.I_BOARD + sq] = L.piece_code(color, ptype)
            bit = np.uint64(1) << np.uint64(sq)
            bbs[L.BB_TYPE + ptype] |= bit
            bbs[L.BB_COLOR + color] |= bit
    bbs[L.BB_KEY] = compute_key(bbs, info)
    return bbs, info


def compile_all(announce: bool = False) -> None:
    """Run every entry point once so later calls are fast; optionally say so on stderr first."""
    if announce:
        announce_compilation()
    bbs, info = _tiny_position()
    buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
    n = legal_moves(bbs, info, buffer)
    count_legal_moves(bbs, info, buffer)
    move = int(buffer[0])
    make_move(bbs, info, move)
    unmake_move(bbs, info)
    perft(bbs, info, 1, True)
    checkers(bbs, info, True)
    assert n > 0
