"""The chess family's search (Makruk, Cambodian, Kar Ouk, Sittuyin): the iterative-deepening
driver with the compiled kernel of :mod:`kradan.engine.kernels.search`.

>>> from kradan import Board
>>> engine = Searcher(hash_mb=1)
>>> result = engine.best_move(Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1"), Limit(depth=3))
>>> result.move.uci(), result.info.score.mate
('h2a2', 1)
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..board import Board
from ..move import Move
from ..variants import CountingMode, StalemateRule
from . import weights as W
from .driver import GameAdapter, IterativeDeepening, Report, Tables
from .kernels import nnue, node
from .kernels import search as S
from .kernels.ordering import PIECE_TO_NB
from .network import Network, default_network, load_network
from .tablebase import EngineTables, TableView, shared_tables, table_line
from .types import MATE, MAX_CONTEMPT, Limit, PovScore, Score, SearchInfo

assert node.MATE == MATE, "the kernel's mate score must be the one Score.from_internal reads"

_NOTHING = np.zeros(0, dtype=np.int32)
_NO_SLAB = np.zeros(0, dtype=np.uint8)
_NO_SLOTS = np.zeros(0, dtype=np.int64)
_NO_NET = np.zeros((0, 1), dtype=nnue.NO_NETWORK_DTYPE)
#: moves of the tables' line shown as the principal variation
TABLE_LINE = 10
_STALEMATE_SCORE = {
    StalemateRule.DRAW: 0,
    StalemateRule.STALEMATER_LOSES: 1,
    StalemateRule.REPLAY: 0,
    StalemateRule.ILLEGAL: 0,  # only when every move stalemated: a draw
}


class ChessAdapter(GameAdapter[Board, Move]):
    """The chess-family kernel: aspiration windows, and killers, history and continuation
    history that persist from one search to the next within a game (the history halves at
    each new single-line search); the transposition table's age counts the searches."""

    ctx_size = node.CTX_NB
    stop_slot = node.C_STOP
    nodes_slot = node.C_NODES
    node_limit_slot = node.C_NODE_LIMIT
    seldepth_slot = node.C_SELDEPTH
    max_depth = node.MAX_PLY - 2
    infinite = node.INFINITE
    mate = node.MATE
    mate_bound = node.MATE_BOUND
    aspiration = 50
    soft_fraction = 0.6
    mate_depth_factor = 2

    def __init__(self) -> None:
        self._killers = np.zeros((node.MAX_PLY + 1, 2), dtype=np.int32)
        self._history = np.zeros((2, 64, 64), dtype=np.int64)
        self._cont = np.zeros((PIECE_TO_NB, PIECE_TO_NB), dtype=np.int32)
        self._age = 0
        self._pv = np.zeros((node.MAX_PLY + 1, node.MAX_PLY + 1), dtype=np.int32)
        self._pv_length = np.zeros(node.MAX_PLY + 1, dtype=np.int64)
        self._bbs = self._info = _NOTHING
        #: the endgame tables the search probes (``None``: none), and its view of them
        self.egtb: EngineTables | None = None
        self.egtb_view: TableView | None = None
        #: the least depth left at which the search probes them
        self.egtb_depth = 1
        self._slab, self._slots = _NO_SLAB, _NO_SLOTS
        #: the evaluation's weights, a row per game (:mod:`.weights`)
        self.weights = W.DEFAULT
        self._row = W.DEFAULT[W.SET_MAKRUK]
        #: centipawns a draw by repetition or count is worse than even for the engine
        self.contempt = 0
        #: the evaluation network (``None``: the weighted terms everywhere)
        self.network: Network | None = None
        #: the network's rows and then two accumulators a ply, for the kernel (one array: a
        #: recursive kernel pays for each array it passes on)
        self._nnue = self._nnue_net = _NO_NET
        self._nnue_of: Network | None = None

    def clear(self) -> None:
        self._history[:] = 0
        self._cont[:] = 0
        self._killers[:] = 0

    def prepare(self, board: Board, tables: Tables, *, multipv: bool, clocked: bool) -> None:
        self._bbs, self._info = board.kernel_arrays(room=2 * node.MAX_PLY)  # undo records fit
        eval_set = W.eval_set(self._info)
        self._row = self.weights[eval_set]
        network = self.network
        if network is not None and network.evaluates(eval_set):
            if self._nnue_of is not network:
                room = np.zeros((2 * (node.MAX_PLY + 2), network.hidden), dtype=np.int32)
                self._nnue_of, self._nnue_net = network, np.vstack([network.weights, room])
            self._nnue = self._nnue_net
            tables.ctx[node.C_NET_BIAS] = network.bias
        else:
            self._nnue = _NO_NET
        S.compile_for(self._nnue)  # the search for this network type only
        variant = board.variant
        self._age = (self._age + 1) & 255
        tables.ctx[node.C_AGE] = self._age
        tables.ctx[node.C_CONTEMPT] = self.contempt
        tables.ctx[node.C_STALEMATE] = _STALEMATE_SCORE[variant.stalemate]
        tables.ctx[node.C_DRAW_PLY] = int(variant.counting is CountingMode.DECLARED)
        egtb, view = self.egtb, self.egtb_view
        most = 0
        if egtb is not None and view is not None:
            most = egtb.prepare(board, wait=not clocked, view=view)
        tables.ctx[node.C_EGTB_PIECES] = most
        tables.ctx[node.C_EGTB_DEPTH] = self.egtb_depth
        tables.ctx[node.C_EGTB_CLOCK] = 2 * variant.n_move_rule
        self._slab, self._slots = _NO_SLAB, _NO_SLOTS
        if most and egtb is not None and view is not None:
            self._slab, self._slots = egtb.slab, view.slots
        if not multipv:
            self._history //= 2

    def playable(self, board: Board) -> bool:
        return bool(board.legal_moves)

    def root_answer(self, board: Board, *, clocked: bool) -> SearchInfo[Move] | None:
        """A position the endgame tables call won or lost is answered from them: the fastest
        mate the count allows, or the longest resistance (one report, the tables' line as its
        principal variation, no nodes). On the clock only tables in memory answer (the others
        are being read for a later move)."""
        tables = self.egtb
        if tables is None or len(board.piece_map()) > 5:
            return None
        began = time.perf_counter()
        found = tables.root(board, load=not clocked)
        if found is None or found.wdl == 0 or found.best_move is None:
            return None
        moves = found.mate_moves or 0
        score = Score(mate=moves * found.result) if found.result else Score(cp=0)
        line = table_line(tables, board, found, TABLE_LINE, load=not clocked)
        seconds = time.perf_counter() - began
        return SearchInfo(1, found.dtm or 0, PovScore(score, board.turn), line, 0, seconds)

    def search_root(
        self, depth: int, alpha: int, beta: int, tables: Tables, excluded: np.ndarray = _NOTHING
    ) -> int:
        return int(
            S.search_root(
                self._bbs, self._info, depth, alpha, beta, tables.ctx, tables.tt_keys,
                tables.tt_data, self._killers, self._history, self._cont, self._pv,
                self._pv_length, excluded, self._slab, self._slots, self._row, self._nnue,
            )
        )  # fmt: skip

    def principal_variation(self, board: Board) -> list[Move]:
        length = int(self._pv_length[0])
        return [board.decode_move(int(code)) for code in self._pv[0, :length]]

    def root_lines(
        self, board: Board, depth: int, lines: int, tables: Tables, report: Report[Move]
    ) -> list[SearchInfo[Move]]:
        """The best move, then the best of the others, and so on: each a full-window root search
        with the moves already found excluded."""
        found: list[SearchInfo[Move]] = []
        excluded: list[int] = []
        for _ in range(lines):
            score = self.search_root(
                depth, -node.INFINITE, node.INFINITE, tables, np.array(excluded, dtype=np.int32)
            )
            length = int(self._pv_length[0])
            if tables.ctx[node.C_STOP] or length == 0:
                break
            excluded.append(int(self._pv[0, 0]))
            found.append(report(depth, score, self.principal_variation(board), 0))
        return found


class Searcher(IterativeDeepening[Board, Move]):
    """A chess-family search instance with its transposition table (``hash_mb`` megabytes) and
    the endgame tables of the user's data directory (:meth:`use_tables`)."""

    adapter: ChessAdapter

    def __init__(self, hash_mb: int = 16) -> None:
        super().__init__(ChessAdapter(), hash_mb)
        self.use_tables(None)
        self.use_network(None)

    def use_tables(self, directory: str | Path | bool | None, probe_depth: int = 1) -> None:
        """Probe the endgame tables of ``directory`` (``None`` or ``True``: the default one,
        :func:`kradan.egtb.default_directory`, with the 3-piece tables kradan ships; ``False``:
        no tables) at the root, and in the search where at least ``probe_depth`` plies are left.
        """
        adapter = self.adapter
        if directory is False:
            adapter.egtb = adapter.egtb_view = None
        else:
            path = None if directory is None or directory is True else Path(directory)
            tables = shared_tables(path)  # read once per process, whichever searcher asks
            tables.refresh()  # a table made since is found, a rebuilt one read again
            if adapter.egtb is not tables or adapter.egtb_view is None:
                adapter.egtb, adapter.egtb_view = tables, tables.view()
        adapter.egtb_depth = max(1, probe_depth)

    def preload(self, board: Board | None = None) -> None:
        """Start reading the endgame tables that a search of ``board`` would use, in the
        background (the 3-piece ones without a board): before the clock runs, so that the
        search finds them in memory."""
        if self.adapter.egtb is not None:
            self.adapter.egtb.preload(board)

    def wait_for_tables(self, timeout: float | None = None) -> bool:
        """Wait until the endgame tables being read are in memory; ``False`` when ``timeout``
        seconds passed first."""
        tables = self.adapter.egtb
        return tables is None or tables.wait_loaded(timeout)

    def use_weights(self, weights: str | Path | np.ndarray | None) -> None:
        """Evaluate with ``weights``: the file of that path (the form of
        ``kradan/engine/eval_weights.json``; sets it leaves out keep the packaged weights), a
        table :func:`kradan.engine.weights.load` read, or the packaged ones (``None``).
        Raises ``ValueError`` on a file that is not a weights file."""
        if weights is None:
            weights = W.DEFAULT
        elif isinstance(weights, (str, Path)):
            weights = W.load(weights)
        elif weights.shape != W.DEFAULT.shape:
            raise ValueError(f"a weights table has shape {W.DEFAULT.shape}, not {weights.shape}")
        self.adapter.weights = weights

    def use_network(self, network: str | Path | Network | bool | None) -> None:
        """Evaluate with an evaluation network (:mod:`kradan.engine.network`) in the games it
        was trained for: the file of that path, a :class:`Network`, kradan's own (``None`` or
        ``True``: the packaged one, if kradan ships one), or none (``False``: the weighted
        terms everywhere).

        :raises InputFileError: for a file that holds no network.
        """
        if network is False:
            self.adapter.network = None
        elif network is None or network is True:
            self.adapter.network = default_network()
        elif isinstance(network, Network):
            self.adapter.network = network
        else:
            self.adapter.network = load_network(network)

    def use_contempt(self, centipawns: int) -> None:
        """Count a draw by repetition or by the count ``centipawns`` worse than an even
        position for the side to move (0: a draw is even; the default). Against a weaker
        opponent a contempt keeps the engine from repeating in a level position."""
        if not 0 <= centipawns <= MAX_CONTEMPT:
            raise ValueError(f"a contempt is 0..{MAX_CONTEMPT} centipawns, not {centipawns!r}")
        self.adapter.contempt = int(centipawns)

    @property
    def endgame_tables(self) -> EngineTables | None:
        """The endgame tables in use (``None``: none)."""
        return self.adapter.egtb


ChessSearcher = Searcher

__all__ = ["ChessAdapter", "ChessSearcher", "Limit", "Searcher"]
