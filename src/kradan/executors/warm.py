"""Once per worker process: load kradan's compiled code before the first task needs it.

numba compiles on a function's first call, or loads the machine code from its on-disk cache
(``NUMBA_CACHE_DIR``, else ``__pycache__`` beside kradan's sources). Either way it happens once
per process: a worker that serves many tasks pays it on its first task only, and a task's clock
(a game's) never sees it."""

from __future__ import annotations

_warm = False


def warm_worker() -> None:
    """Compile or load the move generator and both searches, once in this process."""
    global _warm
    if _warm:
        return
    from ..alquerque import Board as AlquerqueBoard
    from ..board import Board
    from ..engine.searchers import Searchers

    searchers = Searchers()
    searchers.warm(Board())
    searchers.warm(AlquerqueBoard())
    _warm = True


def call_warm(function, item):  # type: ignore[no-untyped-def]
    """``function(item)`` in a warm worker (the task every backend sends)."""
    warm_worker()
    return function(item)
