"""The default backend: the standard library's process pool on this machine's cores.

Workers are started with ``spawn`` (a clean interpreter each, as on every platform) and warmed
once (:func:`~kradan.executors.warm.warm_worker`). A worker that dies breaks the whole pool in
the standard library: every task in flight fails with ``BrokenProcessPool``. The next
submission then starts a fresh pool, and :func:`~kradan.executors.run_tasks` submits those
tasks again.

Ctrl-C is the parent's to handle: it cancels the tasks and ends the workers. A worker is
started with SIGINT ignored (a terminal sends it to the whole process group, and a worker
still importing kradan would print a traceback of its own). A worker whose parent is gone
(killed, where it had no time to end its workers) ends itself within a second, rather than
play out the tasks it holds."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

from .base import Executor
from .warm import call_warm, warm_worker

#: how often a worker looks whether its parent still runs, in seconds
PARENT_POLL_SECONDS = 0.5

T = TypeVar("T")
R = TypeVar("R")


class LocalExecutor(Executor):
    """``workers`` processes on this machine."""

    name = "local"

    def __init__(self, workers: int) -> None:
        super().__init__()
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    @property
    def slots(self) -> int:
        return self.workers

    def _fresh_pool(self) -> ProcessPoolExecutor:
        if self._pool is not None:
            _quiet_wakeup(self._pool)
            self._pool.shutdown(wait=False, cancel_futures=True)
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
        )
        return self._pool

    def submit(self, function: Callable[[T], R], item: T) -> Future[R]:
        pool = self._pool or self._fresh_pool()
        with _sigint_ignored():  # a worker the pool starts now inherits it
            try:
                return pool.submit(call_warm, function, item)
            except BrokenProcessPool:  # a worker died since the last submission
                return self._fresh_pool().submit(call_warm, function, item)

    def is_worker_loss(self, error: BaseException) -> bool:
        return isinstance(error, BrokenProcessPool)

    def worker_pids(self) -> list[int]:
        """The pool's processes (for tests that kill one)."""
        if self._pool is None:
            return []
        processes = getattr(self._pool, "_processes", None) or {}
        return [process.pid for process in processes.values() if process.pid is not None]

    def cancel(self, futures: list[Future[Any]]) -> None:
        for future in futures:
            future.cancel()
        self._stop_workers()

    def _stop_workers(self) -> None:
        """End the workers now: a running task is dropped, not waited for (the pool has no
        public way to do that before Python 3.14's ``terminate_workers``)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        # taken before the shutdown, which lets go of both
        manager = getattr(pool, "_executor_manager_thread", None)
        _quiet_wakeup(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
        # the pool's manager thread closes its wake-up pipe as it ends: waited for here, so that
        # Python's exit does not write to that pipe while it closes ("Bad file descriptor")
        if manager is not None:
            manager.join(timeout=5)

    def describe(self) -> str:
        count = self.workers
        return f"{count} local process{'es' if count != 1 else ''}"

    def shutdown(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _quiet_wakeup(pool: ProcessPoolExecutor) -> None:
    """Called before a pool's shutdown. After it, the manager thread closes the pool's wake-up
    pipe, and Python's exit may write to that pipe at the same moment (its check for a closed
    pipe races with the closing: a SIGTERM on a loaded machine printed "OSError: Bad file
    descriptor" after a match had stopped cleanly). From here on a write to a closed pipe is
    ignored: nothing is left to wake."""
    wakeup = getattr(pool, "_executor_manager_thread_wakeup", None)
    send = getattr(wakeup, "wakeup", None)
    if wakeup is None or send is None:
        return

    def quiet() -> None:
        with contextlib.suppress(OSError):
            send()

    wakeup.wakeup = quiet


def start_worker(parent: int) -> None:
    """Each local worker's start: Ctrl-C left to the parent, a watch on the parent, and the
    compiled code loaded (:func:`~kradan.executors.warm.warm_worker`)."""
    # started with SIGINT ignored (_sigint_ignored); a handler that does nothing instead, as
    # the engines this worker starts get SIGINT's default back (exec resets a handled signal,
    # not an ignored one)
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, _ignore)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()
    warm_worker()


def _ignore(_signal: int, _frame: object) -> None:
    """Ctrl-C in a worker: nothing (the parent cancels the tasks and ends the workers)."""


def _exit_with(parent: int) -> None:
    """End this process once ``parent`` is no longer its parent (it died; the engines this
    worker runs read the end of their input and end too)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)  # at once, as the parent went: no task to finish


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored in this process for the moment it starts workers (the pool starts them on
    submission): an ignored signal stays ignored across ``exec``, so a worker is deaf to Ctrl-C
    from its first instruction. Only the main thread may change a handler."""
    if threading.current_thread() is not threading.main_thread() or (
        signal.getsignal(signal.SIGINT) is None  # a handler set outside Python: left alone
    ):
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
