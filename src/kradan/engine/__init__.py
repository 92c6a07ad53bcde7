"""The kradan engine: search, evaluation, and the UCI/XBoard front ends."""

from __future__ import annotations

from .search import Limit, Score, Searcher, SearchInfo, SearchResult

__all__ = ["Limit", "Score", "SearchInfo", "SearchResult", "Searcher"]
