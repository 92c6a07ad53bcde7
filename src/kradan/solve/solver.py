"""A resumable solver of one Alquerque position under Bell's rules: df-pn (:mod:`.dfpn`) in
chunks of nodes, the positions proven in each chunk saved to the proof database between them
(and when stopped), the database consulted before and during the search."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..alquerque import Board
from ..errors import UsageError
from . import dfpn as D
from .keys import state_key
from .proofdb import ProofDatabase, ProofWriter

#: positions proven per chunk at most (the buffer the compiled search fills)
FOUND_CAPACITY = 1 << 20


@dataclass(frozen=True)
class Progress:
    """Where a search stands: the root's numbers, nodes so far, records saved, seconds."""

    phi: int
    delta: int
    nodes: int
    saved: int
    seconds: float


@dataclass(frozen=True)
class Outcome:
    """A search's end: ``win`` is True/False when proven (for the side to move), else None."""

    key: int
    win: bool | None
    move: int
    phi: int
    delta: int
    nodes: int
    saved: int
    seconds: float


def require_bell(board: Board) -> None:
    """:raises UsageError: unless ``board`` plays Bell's default rules (no draws)."""
    if board.variant != Board(variant="alquerque-bell").variant:
        raise UsageError(
            f"the solver proves Bell's default rules only, not {board.variant.name!r} with options"
        )


class Solver:
    """df-pn with a transposition table of ``2**table_bits`` entries (32 bytes each) over the
    proof database ``database``; what it proves is appended by ``writer``."""

    def __init__(self, database: ProofDatabase, writer: ProofWriter, table_bits: int = 20,
                 epsilon: float = 0.25) -> None:  # fmt: skip
        self.database = database
        self.writer = writer
        self.tt_key = np.zeros(1 << table_bits, dtype=np.uint64)
        self.tt_num = np.zeros((1 << table_bits, 4), dtype=np.int64)
        self.found_keys = np.zeros(FOUND_CAPACITY, dtype=np.uint64)
        self.found_recs = np.zeros(FOUND_CAPACITY, dtype=np.int64)
        self.epsilon_64 = round(epsilon * 64)

    def solve(
        self,
        board: Board,
        *,
        max_nodes: int | None = None,
        chunk: int = 2_000_000,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> Outcome:
        """Search ``board`` until it is proven or ``max_nodes`` are spent, saving every
        ``chunk`` nodes; a KeyboardInterrupt between chunks saves first."""
        require_bell(board)
        stack, ply = board.kernel_history(room=D.MAX_DEPTH + 4)
        rules = board.kernel_rules
        key = state_key(stack[ply])
        ctx = np.zeros(D.NB_CONTEXT, dtype=np.int64)
        ctx[D.C_EPS_NUM] = self.epsilon_64
        result = np.zeros(3, dtype=np.int64)
        start = time.perf_counter()
        saved = 0
        while True:
            budget = chunk if max_nodes is None else min(chunk, max_nodes - int(ctx[D.C_NODES]))
            ctx[D.C_LIMIT] = ctx[D.C_NODES] + max(budget, 1)
            ctx[D.C_FOUND] = 0
            try:
                D.search(stack, ply, rules, self.tt_key, self.tt_num, self.database.keys,
                         self.database.recs, self.found_keys, self.found_recs, ctx,
                         result)  # fmt: skip
            finally:
                found = int(ctx[D.C_FOUND])
                self.writer.append(self.found_keys[:found], self.found_recs[:found])
                saved += found
            phi, delta = int(result[0]), int(result[1])
            nodes = int(ctx[D.C_NODES])
            seconds = time.perf_counter() - start
            if on_progress is not None:
                on_progress(Progress(phi, delta, nodes, saved, seconds))
            proven = phi == 0 or delta == 0
            if proven or (max_nodes is not None and nodes >= max_nodes):
                win = True if phi == 0 else False if delta == 0 else None
                move = int(result[2]) if win else 0
                return Outcome(key, win, move, phi, delta, nodes, saved, seconds)
