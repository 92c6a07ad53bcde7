"""Once per worker process: load kradan's compiled code before the first task needs it.

numba compiles on a function's first call, or loads the machine code from its on-disk cache
(``NUMBA_CACHE_DIR``, else ``__pycache__`` beside kradan's sources). Either way it happens once
per process: a worker that serves many tasks pays it on its first task only, and a task's clock
(a game's) never sees it."""

from __future__ import annotations

import signal
import threading

_warm = False


def _ignore(_signal: int, _frame: object) -> None:
    """Ctrl-C in a worker: nothing (the parent cancels the tasks and ends the workers)."""


def warm_worker() -> None:
    """Compile or load the move generator and both searches, once in this process."""
    global _warm
    if _warm:
        return
    # started with SIGINT ignored (LocalExecutor); a handler of its own instead, as engines this
    # worker starts get SIGINT's default back (a handled signal is reset by exec, an ignored is not)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN and threading.current_thread() is (
        threading.main_thread()
    ):
        signal.signal(signal.SIGINT, _ignore)
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
