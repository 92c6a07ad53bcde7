"""The kradan engine, by role: value types (:mod:`.types`), the iterative-deepening driver
(:mod:`.driver`) with one adapter per game (:mod:`.chess`, :mod:`.alquerque`), the compiled
kernels (:mod:`.kernels`), the protocol servers (:mod:`.protocol`) and its opening book
(:mod:`.book`). The searchers load on first use, so the value types come cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .types import Limit, PovScore, Score, SearchInfo, SearchResult

if TYPE_CHECKING:
    from .chess import Searcher


def __getattr__(name: str) -> Any:
    if name == "Searcher":
        from .chess import Searcher

        return Searcher
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Limit", "PovScore", "Score", "SearchInfo", "SearchResult", "Searcher"]
