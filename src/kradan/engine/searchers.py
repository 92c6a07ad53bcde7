"""One search per family of games, chosen by the board it is given: :class:`Searcher` for the
chess family, :class:`AlquerqueSearcher` for Alquerque (made on first use). Front ends that
play any game (players, ``kradan uci``) hold a :class:`Searchers`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from ..alquerque.board import Board as AlquerqueBoard
from .alquerque import AlquerqueSearcher
from .search import Limit, Searcher, SearchInfo, SearchResult


class GameSearch(Protocol):
    """What both searches offer (each takes its own game's boards)."""

    def best_move(
        self, board: Any, limit: Limit | None = None, *, armed: bool = False
    ) -> SearchResult[Any]: ...

    def search(
        self, board: Any, limit: Limit | None = None, *, armed: bool = False
    ) -> Iterator[SearchInfo[Any]]: ...

    def search_multipv(
        self, board: Any, limit: Limit | None, lines: int, *, armed: bool = False
    ) -> Iterator[list[SearchInfo[Any]]]: ...

    def arm(self) -> None: ...

    def stop(self) -> None: ...

    def clear(self) -> None: ...

    def resize(self, hash_mb: int) -> None: ...


class Searchers:
    """The searches of one engine instance, all with tables of ``hash_mb`` megabytes."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.hash_mb = hash_mb
        self.chess = Searcher(hash_mb)
        self._alquerque: AlquerqueSearcher | None = None

    def _all(self) -> list[GameSearch]:
        return [self.chess] if self._alquerque is None else [self.chess, self._alquerque]

    def for_board(self, board: object) -> GameSearch:
        """The search that plays ``board``'s game."""
        if not isinstance(board, AlquerqueBoard):
            return self.chess
        if self._alquerque is None:
            self._alquerque = AlquerqueSearcher(self.hash_mb)
        return self._alquerque

    def warm(self, board: object) -> None:
        """Compile or load ``board``'s search now, before any clock runs (a short search)."""
        searcher = self.for_board(board)
        searcher.best_move(board, Limit(depth=1))
        list(searcher.search_multipv(board, Limit(depth=1), 2))

    def stop(self) -> None:
        """Stop whichever search is running."""
        for searcher in self._all():
            searcher.stop()

    def clear(self) -> None:
        for searcher in self._all():
            searcher.clear()

    def resize(self, hash_mb: int) -> None:
        self.hash_mb = hash_mb
        for searcher in self._all():
            searcher.resize(hash_mb)


__all__ = ["GameSearch", "Searchers"]
