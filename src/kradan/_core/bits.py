"""Bit tricks on ``uint64`` bitboards: popcount and bit scans through LLVM intrinsics.

With ``NUMBA_DISABLE_JIT=1`` the same names are plain Python functions, so the whole kernel runs
uncompiled (slowly) for debugging and coverage.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.core import config
from numba.extending import intrinsic

U64 = np.uint64
ZERO = np.uint64(0)
ONE = np.uint64(1)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)

jit = numba.njit(cache=True)
# tiny helpers are inlined into their callers at numba IR level; big functions are not, which keeps
# compile time low
jit_inline = numba.njit(cache=True, inline="always")
# long-running entry points release the GIL so other threads stay responsive
jit_nogil = numba.njit(cache=True, nogil=True)

if getattr(config, "DISABLE_JIT", 0):  # pragma: no cover - exercised by the NUMBA_DISABLE_JIT run

    def popcount(b: np.uint64) -> int:
        """Number of set bits."""
        return int(b).bit_count()

    def lsb(b: np.uint64) -> int:
        """Index of the lowest set bit (``b`` must not be 0)."""
        v = int(b)
        return (v & -v).bit_length() - 1

    def msb(b: np.uint64) -> int:
        """Index of the highest set bit (``b`` must not be 0)."""
        return int(b).bit_length() - 1

else:

    @intrinsic
    def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctpop(args[0])

        return sig, codegen

    @intrinsic
    def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            from llvmlite import ir

            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return sig, codegen

    @intrinsic
    def _ctlz(typingctx, x):  # type: ignore[no-untyped-def]
        sig = types.int64(types.uint64)

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            from llvmlite import ir

            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 1))

        return sig, codegen

    @jit_inline
    def popcount(b: np.uint64) -> int:
        """Number of set bits."""
        return _ctpop(b)  # type: ignore[call-arg]

    @jit_inline
    def lsb(b: np.uint64) -> int:
        """Index of the lowest set bit (``b`` must not be 0)."""
        return _cttz(b)  # type: ignore[call-arg]

    @jit_inline
    def msb(b: np.uint64) -> int:
        """Index of the highest set bit (``b`` must not be 0)."""
        return 63 - _ctlz(b)  # type: ignore[call-arg]


@jit_inline
def bit(square: int) -> np.uint64:
    """The bitboard with only ``square`` set."""
    return ONE << np.uint64(square)


@jit_inline
def pop_lsb(b: np.uint64) -> np.uint64:
    """``b`` without its lowest set bit."""
    return b & (b - ONE)
