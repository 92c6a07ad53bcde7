"""The kradan engine, by role: value types (:mod:`.types`), the iterative-deepening driver
(:mod:`.driver`) with one adapter per game (:mod:`.chess`, :mod:`.alquerque`), the compiled
kernels (:mod:`.kernels`), the protocol servers (:mod:`.protocol`), the client that drives any
engine over them or kradan's own in-process (:mod:`.client`: :class:`SimpleEngine`, in
python-chess's ``chess.engine`` shape) and its opening book (:mod:`.book`). The searchers and
the client load on first use, so the value types come cheap."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .types import Limit, PlayResult, PovScore, Score, SearchInfo, SearchResult

if TYPE_CHECKING:
    from .chess import Searcher
    from .client import SimpleEngine


def __getattr__(name: str) -> Any:
    if name == "Searcher":
        from .chess import Searcher

        return Searcher
    if name == "SimpleEngine":
        from .client import SimpleEngine

        return SimpleEngine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Limit",
    "PlayResult",
    "PovScore",
    "Score",
    "SearchInfo",
    "SearchResult",
    "Searcher",
    "SimpleEngine",
]
