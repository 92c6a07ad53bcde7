"""Proven answers for Alquerque under Bell's rules: who wins a position with perfect play, in
how many plies, and the move, from the shipped strategy table (the proof that White's first
move d2-c3 loses; docs/alquerque-solved.md) or, for a late position the table lacks, from a
short df-pn search made on the spot.

>>> from kradan.alquerque import Board
>>> board = Board(variant="alquerque-bell")
>>> board.push(board.parse_san("d2-c3"))
>>> verdict = proven(board)
>>> verdict.win, verdict.source, verdict.plies > 0
(True, 'table', True)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..alquerque import Board
from ..alquerque.move import Move
from . import dfpn as D
from .export import ExportError, extract
from .keys import text_key
from .table import StrategyTable, read_table

#: the packaged strategy table (in kradan/solve/data)
PACKAGED = "alquerque-bell-d2c3.kst"
#: the on-line search's node budget (a few tenths of a second)
SEARCH_NODES = 50_000
#: the on-line search runs for positions with at most this many pieces on the board
SEARCH_PIECES = 10
_TABLE_BITS = 16
#: the proof trees of the last few on-line searches: a game's later positions are mostly in them
_RECENT = 4
_recent: list[StrategyTable] = []


@dataclass(frozen=True)
class Verdict:
    """A proven value for the side to move: ``win``, the ``plies`` to the end (the winner
    following the proof, the loser holding out longest), the ``move`` (the winning one, or for
    a loss the one that holds out longest) and where it came from (``"table"``, ``"search"``)."""

    win: bool
    plies: int
    move: Move | None
    source: str
    #: the proven line from here to the end (the winner's proven moves, the loser's longest)
    line: tuple[Move, ...] = ()

    def text(self) -> str:
        """``proven win in N`` or ``proven loss in N`` (N in plies)."""
        return f"proven {'win' if self.win else 'loss'} in {self.plies}"


@functools.cache
def packaged_table() -> StrategyTable | None:
    """The strategy table shipped with kradan, read once (``None`` when it is not installed)."""
    data = resources.files("kradan.solve").joinpath("data", PACKAGED)
    if not data.is_file():
        return None
    with resources.as_file(data) as path:
        return read_table(path)


def is_bell(board: object) -> bool:
    """Whether ``board`` plays Alquerque under Bell's default rules (what the proofs are of)."""
    return bool(getattr(board, "variant", None) == _bell_variant())


@functools.cache
def _bell_variant() -> object:
    return Board(variant="alquerque-bell").variant


def proven(board: Board, *, table: StrategyTable | None = None, search: bool = True,
           nodes: int = SEARCH_NODES) -> Verdict | None:  # fmt: skip
    """The proven value of ``board`` for the side to move, or ``None`` when unknown (another
    rule set, the game over, a position outside the table that the short search does not
    settle). ``table`` defaults to the packaged one; ``search`` allows the on-line df-pn (of
    ``nodes`` nodes) for positions of at most :data:`SEARCH_PIECES` pieces."""
    if not is_bell(board) or board.outcome() is not None:
        return None
    table = table if table is not None else packaged_table()
    if table is not None:
        found = _from_table(table, board, "table")
        if found is not None:
            return found
    if not search or _pieces(board) > SEARCH_PIECES:
        return None
    for recent in reversed(_recent):
        found = _from_table(recent, board, "search")
        if found is not None:
            return found
    tree = search_tree(board, nodes)
    if tree is None:
        return None
    _recent.append(tree)
    del _recent[:-_RECENT]
    return _from_table(tree, board, "search")


def _pieces(board: Board) -> int:
    return sum(board.pieces(color) for color in (True, False))


def _from_table(table: StrategyTable, board: Board, source: str) -> Verdict | None:
    first = _step(table, board)
    if first is None:
        return None
    win, plies, move = first
    line: list[Move] = []
    work = board.copy()
    step: tuple[bool, int, Move | None] | None = first
    while step is not None and step[2] is not None and len(line) < plies:
        line.append(step[2])
        work.push(step[2])
        step = _step(table, work)
    return Verdict(win, plies, move, source, tuple(line))


def _step(table: StrategyTable, board: Board) -> tuple[bool, int, Move | None] | None:
    """The table's value of ``board`` (won, plies) and its move (the loser's longest)."""
    entry = table.get(text_key(board.text()))
    if entry is None:
        return None
    moves = list(board.legal_moves)
    if entry.move is not None:
        if entry.move >= len(moves):
            return None  # a table of another board's move order: no answer rather than a wrong one
        return True, entry.depth, moves[entry.move]
    best: Move | None = None
    longest = -1
    for move in moves:  # the loser's move that holds out longest
        child = board.copy()
        child.push(move)
        after = table.get(text_key(child.text()))
        plies = after.depth if after is not None and after.win else 0
        if plies > longest:
            best, longest = move, plies
    return False, entry.depth, best


def search_tree(board: Board, nodes: int = SEARCH_NODES) -> StrategyTable | None:
    """A df-pn search of ``board`` of at most ``nodes`` nodes, its proof tree as a strategy
    table rooted at ``board`` (``None`` when the search proves nothing)."""
    stack, ply = board.kernel_history(room=D.MAX_DEPTH + 4)
    size = 1 << _TABLE_BITS
    tt_key = np.zeros(size, dtype=np.uint64)
    tt_num = np.zeros((size, 4), dtype=np.int64)
    capacity = 2 * nodes + 4 * D.MAX_DEPTH
    found_keys = np.zeros(capacity, dtype=np.uint64)
    found_recs = np.zeros(capacity, dtype=np.int64)
    none = np.zeros(0, dtype=np.uint64)
    ctx = np.zeros(D.NB_CONTEXT, dtype=np.int64)
    ctx[D.C_EPS_NUM] = 16
    ctx[D.C_LIMIT] = nodes
    result = np.zeros(3, dtype=np.int64)
    D.search(stack, ply, board.kernel_rules, tt_key, tt_num, none, none.view(np.int64),
             found_keys, found_recs, ctx, result)  # fmt: skip
    if result[0] != 0 and result[1] != 0:
        return None
    count = int(ctx[D.C_FOUND])
    recorded = {int(k): int(r) for k, r in zip(found_keys[:count], found_recs[:count], strict=True)}
    shift, mask = D.VALUE_SHIFT, (1 << D.VALUE_SHIFT) - 1

    def lookup(key: int) -> tuple[bool, int] | None:
        rec = recorded.get(key)
        return None if rec is None else (rec >> shift == D.WIN, rec & mask)

    try:
        return extract(board, lookup)
    except ExportError:
        return None  # the search's record is incomplete (it never is when it proved the root)


__all__ = ["PACKAGED", "SEARCH_NODES", "SEARCH_PIECES", "Verdict", "is_bell", "packaged_table",
           "proven", "search_tree"]  # fmt: skip
