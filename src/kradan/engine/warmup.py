"""The search made ready in the background from the moment ``kradan uci``, ``kradan xboard`` or
``kradan play`` starts, so that a GUI's handshake (``uciok``, ``readyok``, ``pong``) is answered
at once, a player can move meanwhile, and the first move waits only for what is left of the
compilation, not all of it.

On a first run numba compiles the search (tens of seconds, see ``benchmarks/first_compile.py``);
later runs load it from numba's cache in about a second. Commands that need the search wait for
the warm-up; the others (the handshake, options that only store a value) do not.
"""

from __future__ import annotations

import threading
from typing import Any

from numba.core import event


class _CompileWatch(event.Listener):
    """Notes that numba really compiles (a cache load sends no such event), and says so once."""

    def __init__(self, say: Any) -> None:
        self.say = say
        self.compiled = False

    def on_start(self, data: event.Event) -> None:
        if not self.compiled:
            self.compiled = True
            self.say()

    def on_end(self, data: event.Event) -> None:
        pass


class Warmup:
    """Compiles (or loads) the search for ``board``'s game in a thread of its own.

    :param searchers: the session's :class:`~kradan.engine.searchers.Searchers`.
    :param board: a position of the game to make ready (a copy the session no longer uses).
    :param announce: called once, in the warm-up thread, when numba starts compiling.
    """

    def __init__(self, searchers: Any, board: Any, announce: Any) -> None:
        self._searchers = searchers
        self._board = board
        self._watch = _CompileWatch(announce)
        self._thread = threading.Thread(target=self._run, name="kradan-warmup", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        event.register("numba:compile", self._watch)  # type: ignore[no-untyped-call]
        try:
            self._searchers.warm(self._board)
        except Exception:  # the first search will meet the same problem and say it
            pass
        finally:
            event.unregister("numba:compile", self._watch)  # type: ignore[no-untyped-call]

    @property
    def running(self) -> bool:
        """Whether the warm-up is still at work."""
        return self._thread.is_alive()

    @property
    def compiling(self) -> bool:
        """Whether numba is compiling (not loading) the search now."""
        return self._watch.compiled and self.running

    def wait(self) -> None:
        """Until the search is ready."""
        self._thread.join()

    def wait_unless_compiling(self) -> None:
        """Until the search is ready, or as soon as numba is found compiling it: loading from
        the cache takes a second, compiling takes long enough to make a GUI give up."""
        while self._thread.is_alive() and not self._watch.compiled:
            self._thread.join(0.02)


__all__ = ["Warmup"]
