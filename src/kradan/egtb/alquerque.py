"""Retrograde endgame tables for Alquerque under Alfonso X's rules (docs/egtb.md, "Alfonso X's
tables"): every position with up to N pieces in all, each side at least one, solved exactly.

What a table assumes (the rules of :data:`kradan.alquerque.ALFONSO`, read from its kernel):
steps and jumps along the lines in any direction, compulsory captures, capture chains that must
go on while they can, no kings. A side whose pieces are all captured has lost; a side to move
with no legal move draws (Alfonso X has no immobilisation win). A value is the *pure* game's:
the game without the threefold-repetition draw and without the no-capture limit, so a position
from which neither side can force the capture of every enemy piece (play cycles, or stalls) is
a draw. :mod:`kradan.egtb.alquerque_file` says when a pure value is the value under those two
rules as well (always for draws; for wins and losses when the game's history allows).

Positions are stored from the side to move's view (Alfonso's rules are the same for both
colours): *mover* points and *opponent* points. The index of a position is the offset of its
material class ``(m, o)`` (pieces of the mover, of the opponent), plus the colex rank of the
mover's point set among the 25 points times ``C(25 - m, o)``, plus the rank of the opponent's
set among the 25 - m points the mover leaves free. Every index is a position: nothing is wasted.

A value is an ``int8``: ``+d`` the side to move wins in ``d`` plies (the ply that captures the
last enemy piece included), ``-d`` it loses in ``d`` plies, 0 a draw. The winner takes the
shortest way, the loser the longest (distance to mate, counted in plies).

The moves are the compiled kernel's own (:mod:`kradan.alquerque._kernel`), walked over every
position by one compiled loop; the values are solved with numpy, one ply a pass: a position is
won in ``k`` when a move reaches one lost in ``k - 1``, lost in ``k`` when every move reaches one
won and the longest of them is won in ``k - 1``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb

import numpy as np

from ..alquerque.board import compile_rules
from ..alquerque.variant import ALFONSO
from ..errors import InvalidArgumentError
from ._alquerque_kernel import CAPTURED_ALL, MAX_PIECES, POINTS, index_of, position_of, walk

#: the value of a draw, and the greatest distance an int8 value holds
DRAW = 0
MAX_DISTANCE = 127


def check_pieces(pieces: int) -> int:
    """``pieces`` when a table can be built for it (2 .. :data:`MAX_PIECES`).

    :raises InvalidArgumentError: quoting any other value.
    """
    if isinstance(pieces, bool) or not isinstance(pieces, int) or not 2 <= pieces <= MAX_PIECES:
        raise InvalidArgumentError(
            f"pieces {pieces!r}: an Alquerque table holds 2 to {MAX_PIECES} pieces in all"
        )
    return pieces


def classes(pieces: int) -> list[tuple[int, int]]:
    """The material classes ``(mover, opponent)`` of a table of up to ``pieces`` pieces, in
    index order: fewer pieces first, then fewer of the mover's."""
    return [(m, total - m) for total in range(2, pieces + 1) for m in range(1, total)]


def offsets(pieces: int) -> np.ndarray:
    """``OFFSET[m, o]``: the index of class ``(m, o)``'s first position; ``OFFSET[0, 0]`` holds
    the table's size (the entries of classes outside the table are -1)."""
    table = np.full((MAX_PIECES + 1, MAX_PIECES + 1), -1, dtype=np.int64)
    start = 0
    for m, o in classes(pieces):
        table[m, o] = start
        start += comb(POINTS, m) * comb(POINTS - m, o)
    table[0, 0] = start
    return table


def table_size(pieces: int) -> int:
    """Positions in a table of up to ``pieces`` pieces (1,785,400 for 5)."""
    return int(offsets(check_pieces(pieces))[0, 0])


def move_graph(pieces: int) -> tuple[np.ndarray, np.ndarray]:
    """``(first, children)``: the moves of position ``i`` lead to ``children[first[i] :
    first[i + 1]]`` (indices, or :data:`CAPTURED_ALL`)."""
    table = offsets(pieces)
    size = int(table[0, 0])
    rules = compile_rules(ALFONSO)
    counts = np.zeros(size + 1, dtype=np.int64)
    walk(pieces, table, rules, counts, np.zeros(0, dtype=np.int32))
    first = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(counts[:size], out=first[1:])
    children = np.empty(int(first[-1]), dtype=np.int32)
    walk(pieces, table, rules, first, children)
    return first, children


# --- solving --------------------------------------------------------------------------------


def solve(first: np.ndarray, children: np.ndarray) -> np.ndarray:
    """The values (``int8``, see the module's text) of the move graph ``(first, children)``."""
    size = len(first) - 1
    degree = np.diff(first)
    # per position: +1 won, -1 lost, 0 not known (yet); the distance once known. One more entry
    # at the end stands for CAPTURED_ALL: the child's side has lost, 0 plies from now.
    result = np.zeros(size + 1, dtype=np.int8)
    distance = np.zeros(size + 1, dtype=np.int16)
    result[size] = -1
    targets = np.where(children < 0, size, children).astype(np.int32)
    movable = np.flatnonzero(degree > 0)  # positions without a move are draws
    starts = first[movable]
    edge_count = degree[movable]
    plies = 1
    while True:
        child_result = result[targets]
        child_distance = distance[targets]
        # won in `plies`: a move reaches a position lost in `plies - 1`
        losing = (child_result == -1) & (child_distance == plies - 1)
        win = np.logical_or.reduceat(losing, starts)
        # lost in `plies`: every move reaches a won position, the longest won in `plies - 1`
        won_children = np.add.reduceat(child_result == 1, starts)
        longest = np.maximum.reduceat(np.where(child_result == 1, child_distance, -1), starts)
        loss = (won_children == edge_count) & (longest == plies - 1)
        open_ = result[movable] == 0
        new_wins = movable[win & open_]
        new_losses = movable[loss & open_]
        if len(new_wins) == 0 and len(new_losses) == 0:
            break
        if plies > MAX_DISTANCE:
            raise OverflowError(f"a distance beyond {MAX_DISTANCE} plies does not fit an int8")
        result[new_wins], distance[new_wins] = 1, plies
        result[new_losses], distance[new_losses] = -1, plies
        plies += 1
    values = (result[:size].astype(np.int16) * distance[:size]).astype(np.int8)
    return values


@dataclass(frozen=True)
class Generated:
    """A table made by :func:`generate`, and what making it took."""

    pieces: int
    values: np.ndarray
    moves: int
    seconds: float

    @property
    def longest(self) -> int:
        """The longest win, in plies."""
        return int(np.abs(self.values.astype(np.int16)).max()) if len(self.values) else 0


def generate(pieces: int) -> Generated:
    """The table of every position with up to ``pieces`` pieces (both sides, each at least one).

    :raises InvalidArgumentError: for a count outside 2 .. :data:`MAX_PIECES`.
    """
    check_pieces(pieces)
    began = time.perf_counter()
    first, children = move_graph(pieces)
    values = solve(first, children)
    return Generated(pieces, values, len(children), time.perf_counter() - began)


__all__ = [
    "CAPTURED_ALL",
    "DRAW",
    "MAX_PIECES",
    "Generated",
    "check_pieces",
    "classes",
    "generate",
    "index_of",
    "move_graph",
    "offsets",
    "position_of",
    "solve",
    "table_size",
]
