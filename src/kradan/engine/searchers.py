"""One engine instance's searches, one per game family, each made on first use. Front ends that
play any game (players, ``kradan uci``, ``kradan xboard``, analysis) hold a :class:`Searchers`.

The searcher classes are named by lazy references (``"module:Class"``), so importing this module
loads no compiled search; each game's entry in the registry (:mod:`kradan.games`) names it.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, cast

import numpy as np

from ..errors import EngineError
from ..games import Game, find_game, game_of
from .network import Network, load_network
from .types import MAX_CONTEMPT, GameSearch, Limit
from .weights import load as load_weights


def searcher_reference(board: Any) -> Any:
    """The game registry's reference to the searcher class that plays ``board`` (a
    ``"module:Class"`` string or the class itself).

    :raises EngineError: for a game kradan's engine does not play.
    """
    return _searching_game(game_of(board)).searcher


def _searching_game(game: Game) -> Game:
    if game.searcher is None:
        raise EngineError(f"kradan's engine does not play {game.name}")
    return game


def searcher_class(reference: Any) -> Any:
    """The searcher class a reference names (``"module:Class"``, imported now, or the class)."""
    if isinstance(reference, str):
        module, _, name = reference.partition(":")
        reference = getattr(importlib.import_module(module), name)
    return reference


def load_searcher(reference: Any, hash_mb: int) -> GameSearch:
    """A new searcher from a reference (``"module:Class"`` or a class), with a table of
    ``hash_mb`` megabytes."""
    return cast(GameSearch, searcher_class(reference)(hash_mb))


class Searchers:
    """The searches of one engine instance, all with tables of ``hash_mb`` megabytes."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
        self._made: dict[Any, GameSearch] = {}
        #: the endgame tables' directory (``None``: the default one; ``False``: none) and the
        #: least depth left at which the search probes them
        self.tables: str | Path | bool | None = None
        self.probe_depth = 1
        #: the evaluation's weights, read once for every search (``None``: the packaged ones)
        self.weights: np.ndarray | None = None
        #: centipawns a draw is worse than even, in the searches that have a contempt
        self.contempt = 0
        #: the evaluation network (``None``: the packaged one, if any; ``False``: none)
        self.network: Network | bool | None = None
        #: whether proven positions are answered from a solved game's strategy (Alquerque
        #: under Bell's rules; UCI ``SolvedTable``)
        self.solved = True

    def _get(self, reference: Any) -> GameSearch:
        searcher = self._made.get(reference)
        if searcher is None:
            searcher = self._made[reference] = load_searcher(reference, self.hash_mb)
            self._apply_tables(searcher)
            self._apply_weights(searcher)
            self._apply_contempt(searcher)
            self._apply_network(searcher)
            self._apply_solved(searcher)
        return searcher

    def use_solved(self, on: bool) -> None:
        """Answer proven positions from the solved strategy (in the searches that have one,
        see :meth:`kradan.engine.alquerque.AlquerqueSearcher.use_solved`), or search them."""
        self.solved = on
        for searcher in self._made.values():
            self._apply_solved(searcher)

    def _apply_solved(self, searcher: GameSearch) -> None:
        use = getattr(searcher, "use_solved", None)
        if use is not None:
            use(self.solved)

    def use_tables(self, directory: str | Path | bool | None, probe_depth: int = 1) -> None:
        """Probe the endgame tables of ``directory`` in the searches that use tables (see
        :meth:`kradan.engine.chess.Searcher.use_tables`)."""
        self.tables, self.probe_depth = directory, probe_depth
        for searcher in self._made.values():
            self._apply_tables(searcher)

    def _apply_tables(self, searcher: GameSearch) -> None:
        use = getattr(searcher, "use_tables", None)
        if use is not None:
            use(self.tables, self.probe_depth)

    def use_weights(self, weights: str | Path | np.ndarray | None) -> None:
        """Evaluate with ``weights`` (a weights file, read here once, or a table from
        :func:`kradan.engine.weights.load`; ``None``: the packaged ones) in the searches that
        have weights (see :meth:`kradan.engine.chess.Searcher.use_weights`).

        :raises OSError: for a file that cannot be read.
        :raises ValueError: for a file that is not a weights file.
        """
        self.weights = load_weights(weights) if isinstance(weights, (str, Path)) else weights
        for searcher in self._made.values():
            self._apply_weights(searcher)

    def _apply_weights(self, searcher: GameSearch) -> None:
        use = getattr(searcher, "use_weights", None)
        if use is not None:
            use(self.weights)

    def use_network(self, network: str | Path | Network | bool | None) -> None:
        """Evaluate with an evaluation network in the searches that have one (see
        :meth:`kradan.engine.chess.Searcher.use_network`): a file (read here once), a
        :class:`Network`, the packaged one (``None``) or none (``False``).

        :raises InputFileError: for a file that holds no network.
        """
        self.network = load_network(network) if isinstance(network, (str, Path)) else network
        for searcher in self._made.values():
            self._apply_network(searcher)

    def _apply_network(self, searcher: GameSearch) -> None:
        use = getattr(searcher, "use_network", None)
        if use is not None:
            use(self.network)

    def use_contempt(self, centipawns: int) -> None:
        """Count a draw by repetition or count ``centipawns`` worse than even in the searches
        that have a contempt (see :meth:`kradan.engine.chess.Searcher.use_contempt`).

        :raises ValueError: for a contempt outside 0..100.
        """
        if not 0 <= centipawns <= MAX_CONTEMPT:
            raise ValueError(f"a contempt is 0..{MAX_CONTEMPT} centipawns, not {centipawns!r}")
        self.contempt = centipawns
        for searcher in self._made.values():
            self._apply_contempt(searcher)

    def _apply_contempt(self, searcher: GameSearch) -> None:
        use = getattr(searcher, "use_contempt", None)
        if use is not None:
            use(self.contempt)

    @property
    def chess(self) -> GameSearch:
        """The chess family's search."""
        return self._get(_searching_game(find_game("makruk")).searcher)

    def for_board(self, board: object) -> GameSearch:
        """The search that plays ``board``'s game."""
        return self._get(searcher_reference(board))

    def preload(self, board: object) -> None:
        """Start reading, in the background, the endgame tables a search of ``board`` would
        use, in the search that plays it if it is made already (reading waits for no one)."""
        try:
            reference = searcher_reference(board)
        except EngineError:
            return
        use = getattr(self._made.get(reference), "preload", None)
        if use is not None:
            use(board)

    def wait_for_tables(self, timeout: float | None = None) -> bool:
        """Wait until the endgame tables being read are in memory; ``False`` when ``timeout``
        seconds passed first."""
        ready = True
        for searcher in self._made.values():
            wait = getattr(searcher, "wait_for_tables", None)
            if wait is not None:
                ready = wait(timeout) and ready
        return ready

    def warm(self, board: object) -> None:
        """Compile or load ``board``'s search now, before any clock runs (a short search)."""
        searcher = self.for_board(board)
        searcher.best_move(board, Limit(depth=1))
        list(searcher.search_multipv(board, Limit(depth=1), 2))
        self.preload(board)

    def stop(self) -> None:
        """Stop whichever search is running."""
        for searcher in self._made.values():
            searcher.stop()

    def clear(self) -> None:
        for searcher in self._made.values():
            searcher.clear()

    def resize(self, hash_mb: int) -> None:
        self.hash_mb = hash_mb
        for searcher in self._made.values():
            searcher.resize(hash_mb)


__all__ = ["GameSearch", "Searchers", "load_searcher", "searcher_class", "searcher_reference"]
