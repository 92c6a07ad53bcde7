"""SIGTERM as an interrupt that waits for numba's compiler to finish (the command line's stop).

The command line turns SIGTERM into :class:`Terminated`, raised like Ctrl-C so that a command
stops the way it does on Ctrl-C. Raised in the middle of a numba compilation it does harm:
numba's compiler calls back into Python through ctypes, where an exception is printed as
"Exception ignored" and lost, and the half-built kernel then fails with a traceback of its
own. So a stop that finds the main thread holding numba's compiler lock is held: a watcher
thread waits for the lock to be free and sends SIGTERM again, to be raised then. Seconds, at
most, on a first run; nothing at all once numba's cache holds the kernels.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that a command stops the same way: a match cancels its
    games and ends its workers and their engines, files are closed, the games so far kept."""


def _compiler_lock() -> Any | None:
    """numba's global compiler lock, if numba is loaded (it is never imported here)."""
    module = sys.modules.get("numba.core.compiler_lock")
    return None if module is None else module.global_compiler_lock


def compiling() -> bool:
    """Whether this thread is inside a numba compilation (it holds the compiler lock)."""
    lock = _compiler_lock()
    return lock is not None and bool(lock.is_locked())


def _send_again_when_compiled(lock: Any) -> None:
    """Wait until no thread compiles (the lock is free), then send SIGTERM to this process
    again."""
    lock.acquire()
    lock.release()
    os.kill(os.getpid(), signal.SIGTERM)


def stop(signum: int, frame: object) -> None:
    """The SIGTERM handler: :class:`Terminated` now, or once the compilation under way ends."""
    lock = _compiler_lock()
    if lock is not None and lock.is_locked():
        watcher = threading.Thread(target=_send_again_when_compiled, args=(lock,),
                                   name="kradan-stop-after-compiling", daemon=True)  # fmt: skip
        watcher.start()
        return
    raise Terminated


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While a command runs, SIGTERM (``kill``, a service manager) raises :class:`Terminated`
    (held while numba compiles); only the main thread can catch signals, so elsewhere nothing
    changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


__all__ = ["Terminated", "compiling", "sigterm_as_interrupt", "stop"]
