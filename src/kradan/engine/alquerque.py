"""Alquerque's search: the iterative-deepening driver with the compiled kernel of
:mod:`kradan.engine.kernels.alquerque_search`, behind the same interface as the chess family's
:class:`~kradan.engine.chess.Searcher`, so the players, ``kradan match`` and ``kradan play`` drive
both games alike.

>>> from kradan.alquerque import Board
>>> result = AlquerqueSearcher().best_move(Board(), Limit(depth=2))
>>> result.move is not None
True
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..alquerque import _kernel as K
from ..alquerque.board import Board
from ..alquerque.move import Move as AlquerqueMove
from ..alquerque.variant import NoCaptureAdjudication
from . import alquerque_tables
from .driver import GameAdapter, IterativeDeepening, Report, Tables
from .kernels import alquerque_search as A
from .types import MATE, Limit, PovScore, Score, SearchInfo

assert A.MATE == MATE, "the kernel's mate score must be the one Score.from_internal reads"

_ROWS = A.MAX_PLY + 2


class AlquerqueAdapter(GameAdapter[Board, AlquerqueMove]):
    """The Alquerque kernel: full-window searches, fresh killers for each search, and MultiPV
    by searching each root move on its own (Alquerque has few moves at the root)."""

    ctx_size = A.CTX_NB
    stop_slot = A.C_STOP
    nodes_slot = A.C_NODES
    node_limit_slot = A.C_NODE_LIMIT
    seldepth_slot = A.C_SELDEPTH
    max_depth = A.MAX_PLY - 4
    infinite = A.INFINITE
    mate = A.MATE
    mate_bound = A.MATE_BOUND
    aspiration = None
    soft_fraction = 0.5
    mate_depth_factor = 1

    def __init__(self) -> None:
        self._stack = np.zeros((0, K.STATE_NB), dtype=np.int64)
        self._ply = 0
        self._rules = np.zeros(0, dtype=np.int64)
        self._killers = self._pv = self._stack
        self._pv_length = np.zeros(0, dtype=np.int64)
        self._roots: list[tuple[AlquerqueMove, int]] = []
        #: Alfonso X's table: its directory (``None``: the default one; ``False``: none)
        self.alfonso_tables: str | Path | bool | None = None
        _, self._table_values, self._table_offsets = alquerque_tables.NO_TABLE
        #: answer proven Bell positions from the solved strategy (UCI ``SolvedTable``)
        self.solved = True

    def prepare(self, board: Board, tables: Tables, *, multipv: bool, clocked: bool) -> None:
        ctx = tables.ctx
        variant = board.variant
        ctx[A.C_BELL] = int(variant.bell)
        ctx[A.C_LIMIT] = 2 * (variant.no_capture_limit or 0)
        more_wins = variant.no_capture_adjudication is NoCaptureAdjudication.MORE_PIECES_WINS
        ctx[A.C_MORE_WINS] = int(more_wins)
        self._rules = board.kernel_rules
        ctx[A.C_HISTORY] = int(self._rules[K.R_NO_RETURN] != 0)
        self._stack, self._ply = board.kernel_history(room=A.MAX_PLY + 3)
        self._killers = np.zeros((_ROWS, 2), dtype=np.int64)
        self._pv = np.zeros((_ROWS, A.MAX_PLY + 1), dtype=np.int64)
        self._pv_length = np.zeros(_ROWS, dtype=np.int64)
        if multipv:
            self._roots = [(move, board.encode_move(move) or 0) for move in board.legal_moves]
        found = alquerque_tables.search_table(board, self.alfonso_tables)
        ctx[A.C_TABLE], self._table_values, self._table_offsets = found

    def playable(self, board: Board) -> bool:
        return bool(board.legal_moves) and board.outcome() is None

    def root_answer(self, board: Board, *, clocked: bool) -> SearchInfo[AlquerqueMove] | None:
        """Alfonso X's table's move and exact score, where it has them; a Bell position with
        a proven value (:func:`solved_answer`) when ``solved`` is on; else ``None`` (search)."""
        answer = alquerque_tables.root_answer(board, self.alfonso_tables)
        if answer is None and self.solved:
            answer = solved_answer(board, search=not clocked)
        return answer

    def search_root(self, depth: int, alpha: int, beta: int, tables: Tables) -> int:
        """The kernel's root search always searches the full window (``alpha``/``beta`` unused)."""
        return self._search_from(self._ply, depth, tables)

    def _search_from(self, ply: int, depth: int, tables: Tables) -> int:
        return int(
            A.search_root(
                self._stack, ply, depth, self._rules, tables.ctx, tables.tt_keys, tables.tt_data,
                self._killers, self._pv, self._pv_length, self._table_values, self._table_offsets,
            )
        )  # fmt: skip

    def _line(self, board: Board) -> list[AlquerqueMove]:
        line = [board.decode_move(int(code)) for code in self._pv[0, : int(self._pv_length[0])]]
        return _legal_prefix(board, line)

    def principal_variation(self, board: Board) -> list[AlquerqueMove]:
        return self._line(board)

    def root_lines(
        self, board: Board, depth: int, lines: int, tables: Tables, report: Report[AlquerqueMove]
    ) -> list[SearchInfo[AlquerqueMove]]:
        """Every root move's line: the move made on the stack, the rest searched one ply less."""
        found: list[SearchInfo[AlquerqueMove]] = []
        for move, code in self._roots:
            K.make(self._stack, self._ply, self._rules, code)
            child = self._search_from(self._ply + 1, depth - 1, tables)
            if tables.ctx[A.C_STOP]:
                break
            score = -child
            score += -1 if score > A.MATE_BOUND else 1 if score < -A.MATE_BOUND else 0
            after = board.copy()
            after.push(move)
            found.append(report(depth, score, [move, *self._line(after)], 1))
        return found


class AlquerqueSearcher(IterativeDeepening[Board, AlquerqueMove]):
    """An Alquerque search instance with its move-ordering table (``hash_mb`` megabytes)."""

    adapter: AlquerqueAdapter

    def __init__(self, hash_mb: int = 16) -> None:
        super().__init__(AlquerqueAdapter(), hash_mb)

    def use_solved(self, on: bool) -> None:
        """Answer proven Bell positions from the solved strategy (on by default), or search
        them like any other."""
        self.adapter.solved = on

    def use_tables(self, directory: str | Path | bool | None, probe_depth: int = 1) -> None:
        """Answer the root from Alfonso X's table of ``directory`` (``None`` or ``True``: the
        default one, :func:`kradan.egtb.default_directory`; ``False``: never) where it is
        exact, and probe it in the search at the nodes a capture has just reached
        (docs/egtb.md); ``probe_depth`` is there for the chess family's searcher's signature."""
        self.adapter.alfonso_tables = directory


def solved_answer(board: Board, *, search: bool = True) -> SearchInfo[AlquerqueMove] | None:
    """The proven value of a Bell position (:func:`kradan.solve.answers.proven`: the shipped
    strategy table, or with ``search`` a short df-pn search of a late position) as one report:
    a mate score in the plies the proof takes, its line as the principal variation, no nodes.
    A search on the move's clock asks the table only: the df-pn's 50,000 nodes would cost a
    fast game a tenth of a second a move, where the alpha-beta search finds those wins too."""
    import time

    from ..solve.answers import proven

    began = time.perf_counter()
    verdict = proven(board, search=search)
    if verdict is None or verdict.move is None:
        return None
    internal = MATE - verdict.plies if verdict.win else -(MATE - verdict.plies)
    score = PovScore(Score.from_internal(internal), board.turn)
    line = list(verdict.line) or [verdict.move]
    return SearchInfo(1, verdict.plies, score, line, 0, time.perf_counter() - began)


def _legal_prefix(board: Board, line: list[AlquerqueMove]) -> list[AlquerqueMove]:
    """The moves of ``line`` that are legal one after the other (a line is always checked
    before it is shown: huffs are decoded in the position they are played in)."""
    work = board.copy()
    legal = []
    for move in line:
        if not work.is_legal(move):
            break
        work.push(move)
        legal.append(move)
    return legal


__all__ = ["AlquerqueAdapter", "AlquerqueSearcher", "Limit"]
