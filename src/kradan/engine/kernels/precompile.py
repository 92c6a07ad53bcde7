"""A first search's compilation split over two processes, so that a fresh install answers its
first ``go`` in seconds rather than tens of seconds.

numba compiles a function the first time a caller is typed, one after another on one core:
about 21 s for the chess family's search on the 2-core machine (``benchmarks/first_compile.py``).
The search's own three recursive functions must come last and one after the other, but what
they call splits in two about equal halves that share nothing: the move generator (with
``make_move``), which a second process compiles (``python -m kradan.engine.kernels.precompile``)
and leaves in numba's on-disk cache, and the evaluation, ordering, exchange, tables and
transposition table, which this process compiles meanwhile. The search then finds the move
generator in the cache. Measured: 21 s of compilation become about 15 s.

Each plan names a function and the argument types its callers give it (numba's cache is keyed
by them; a test checks that the search then compiles none of these again).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from numba import types as T

#: set to 0 to compile in this process only
HELPER_SWITCH = "KRADAN_COMPILE_HELPER"
#: how long the search waits for the helper before it compiles what is left itself
HELPER_PATIENCE = 120.0

_BBS = T.Array(T.uint64, 1, "C")
_I64 = T.Array(T.int64, 1, "C")
_MOVES = T.Array(T.int32, 1, "C")
_ROWS32 = T.Array(T.int32, 2, "C")
_HISTORY = T.Array(T.int64, 3, "C")
_SLAB = T.Array(T.uint8, 1, "C")
_INT = T.int64


def _literal(value: object) -> Any:
    """numba's type of a constant argument (a callee is compiled once per constant)."""
    return T.literal(value)  # type: ignore[no-untyped-call]


def helper_plan() -> list[tuple[Any, tuple[Any, ...]]]:
    """The move generator, in the helper process: ``make_move`` first, because the evaluation's
    half needs it too and finds it in the cache by then."""
    from ..._core.attacks import in_check
    from ..._core.makemove import make_move
    from ..._core.movegen import drop_stalemating, generate_moves
    from ..._core.queries import legal_moves

    return [
        (make_move, (_BBS, _I64, _INT)),
        (generate_moves, (_BBS, _I64, _MOVES, _literal(False))),
        (drop_stalemating, (_BBS, _I64, _MOVES, _INT)),
        (legal_moves, (_BBS, _I64, _MOVES)),
        (in_check, (_BBS, _INT)),
    ]


def own_plan(network_dtype: str) -> list[tuple[Any, tuple[Any, ...]]]:
    """The rest of what the search calls, in this process, for a network array of
    ``network_dtype`` (int32 with a network, int8 without). ``make_and_update`` comes last:
    by then the helper has left ``make_move`` in the cache."""
    from ..._core.position import compute_key
    from . import exchange, nnue, node, ordering, tablebase, transposition

    network = T.Array(getattr(T, network_dtype), 2, "C")
    return [
        (node.static_value, (_BBS, _I64, _I64, network, _INT, _I64)),
        (ordering.order_captures, (_BBS, _I64, _MOVES, _I64, _INT, _INT)),
        (exchange.loses_material, (_BBS, _I64, T.int32)),
        (transposition.tt_store, (_BBS, _I64, T.uint64, _INT, _INT, _INT, _INT, _INT)),
        (transposition.tt_probe, (_BBS, _I64, T.uint64)),
        (node._no_move_score, (_BBS, _I64, _I64, _INT)),
        (node._is_draw, (_BBS, _I64, _I64)),
        (
            tablebase.probe,
            (_BBS, _I64, _SLAB, _I64, _INT, T.boolean, _INT, _literal(node.MATE), _INT),
        ),
        (
            ordering.order_moves,
            (_BBS, _I64, _MOVES, _I64, _INT, _INT, _ROWS32, _HISTORY, _ROWS32, _INT, _INT, _INT),
        ),
        (
            ordering.reward_quiet,
            (_I64, _MOVES, _I64, _INT, T.int32, _INT, _ROWS32, _HISTORY, _ROWS32, _INT, _INT, _INT),
        ),
        (ordering.pick, (_MOVES, _I64, _INT, _INT)),
        (nnue.refresh, (_BBS, network, network, _INT)),
        (compute_key, (_BBS, _I64)),
        (node.make_and_update, (_BBS, _I64, T.int32, network, _INT)),
    ]


def compile_plan(plan: list[tuple[Any, tuple[Any, ...]]]) -> None:
    """Compile (or load from the cache) each function of ``plan`` for its argument types."""
    for function, argument_types in plan:
        function.compile(argument_types)


def in_cache(function: Any, signature: Any) -> bool:
    """Whether numba's on-disk cache holds ``function`` for ``signature`` (found, not
    compiled). When numba's cache cannot be asked, it says yes: no helper is started."""
    try:
        return function._cache.load_overload(signature, function.targetctx) is not None
    except Exception:  # numba's cache object is not public: never fail a search over it
        return True


def start_helper() -> subprocess.Popen[bytes] | None:
    """The helper process compiling :func:`helper_plan`, or ``None`` when it is switched off
    or cannot start. Its output goes nowhere: it must never write into a UCI conversation."""
    if os.environ.get(HELPER_SWITCH, "1") == "0":
        return None
    try:
        return subprocess.Popen(
            [sys.executable, "-m", __name__],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    except OSError:
        return None


def compile_split(network_dtype: str) -> bool:
    """Compile what the search calls in two processes at once; ``True`` when a helper ran.
    Whatever the helper could not do, the search compiles itself afterwards."""
    helper = start_helper()
    compile_plan(own_plan(network_dtype))
    if helper is None:
        return False
    try:
        helper.wait(HELPER_PATIENCE)
    except subprocess.TimeoutExpired:
        helper.kill()
        helper.wait()
    return True


def main() -> int:
    """The helper process: compile the move generator into numba's cache."""
    compile_plan(helper_plan())
    return 0


if __name__ == "__main__":
    sys.exit(main())
