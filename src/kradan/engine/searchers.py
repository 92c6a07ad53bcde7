"""One engine instance's searches, one per game family, each made on first use. Front ends that
play any game (players, ``kradan uci``, ``kradan xboard``, analysis) hold a :class:`Searchers`.

The searcher classes are named by lazy references (``"module:Class"``), so importing this module
loads no compiled search; :func:`searcher_reference` is the one place that picks a game's.
"""

from __future__ import annotations

import importlib
from typing import cast

from ..alquerque.board import Board as AlquerqueBoard
from .types import GameSearch, Limit

CHESS_SEARCHER = "kradan.engine.chess:Searcher"
ALQUERQUE_SEARCHER = "kradan.engine.alquerque:AlquerqueSearcher"


def searcher_reference(board: object) -> str:
    """The lazy reference (``"module:Class"``) to the searcher class that plays ``board``."""
    return ALQUERQUE_SEARCHER if isinstance(board, AlquerqueBoard) else CHESS_SEARCHER


def load_searcher(reference: str, hash_mb: int) -> GameSearch:
    """A new searcher from a ``"module:Class"`` reference, with a ``hash_mb`` megabyte table."""
    module, _, name = reference.partition(":")
    searcher_class = getattr(importlib.import_module(module), name)
    return cast(GameSearch, searcher_class(hash_mb))


class Searchers:
    """The searches of one engine instance, all with tables of ``hash_mb`` megabytes."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
        self._made: dict[str, GameSearch] = {}

    def _get(self, reference: str) -> GameSearch:
        searcher = self._made.get(reference)
        if searcher is None:
            searcher = self._made[reference] = load_searcher(reference, self.hash_mb)
        return searcher

    @property
    def chess(self) -> GameSearch:
        """The chess family's search."""
        return self._get(CHESS_SEARCHER)

    def for_board(self, board: object) -> GameSearch:
        """The search that plays ``board``'s game."""
        return self._get(searcher_reference(board))

    def warm(self, board: object) -> None:
        """Compile or load ``board``'s search now, before any clock runs (a short search)."""
        searcher = self.for_board(board)
        searcher.best_move(board, Limit(depth=1))
        list(searcher.search_multipv(board, Limit(depth=1), 2))

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


__all__ = ["GameSearch", "Searchers", "load_searcher", "searcher_reference"]
