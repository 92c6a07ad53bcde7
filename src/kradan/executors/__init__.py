"""Where kradan's parallel work runs: one seam, two backends.

``kradan match``, ``kradan analyse FILE.pgn --annotate`` and the end-game table generator hand
their work to an :class:`Executor` and get each result back as it completes:

* ``local`` (the default): the standard library's process pool on this machine's cores; it
  needs nothing beyond kradan;
* ``ray``: tasks on a Ray cluster (``pip install 'kradan[ray]'``), chosen by
  ``--executor ray [--address ray://HOST:PORT]`` or by the ``RAY_ADDRESS`` variable.

:func:`run_tasks` is the loop they all use: it keeps a bounded number of tasks in flight, and a
task whose worker died (a killed process, a lost node) is submitted again, so that every task's
result arrives exactly once. :func:`in_order` turns results that arrive in any order into the
tasks' order (a match's PGN in round order). docs/cluster.md tells how to run a cluster.
"""

from __future__ import annotations

import os
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TypeVar

from ..errors import UsageError
from .base import Executor, ExecutorError, WorkerLost

T = TypeVar("T")
R = TypeVar("R")

#: the backends ``--executor`` names
EXECUTORS = ("local", "ray")
#: times one task may lose its worker before the run gives up on it
ATTEMPTS = 3


def default_executor_name() -> str:
    """``ray`` when ``RAY_ADDRESS`` names a cluster, else ``local``."""
    return "ray" if os.environ.get("RAY_ADDRESS") else "local"


def make_executor(
    name: str | None = None, workers: int | None = None, address: str | None = None
) -> Executor:
    """The executor ``name`` names (:func:`default_executor_name` when ``None``).

    ``workers`` is the number of processes of the local pool (default 1), and the number of
    CPUs of a Ray instance started here when there is no ``address`` and no ``RAY_ADDRESS``
    (default: this machine's cores); a cluster brings its own CPUs.

    :raises UsageError: for an unknown name, a count below 1, or ``address`` without Ray;
    :raises ExecutorError: when Ray is not installed or the cluster cannot be reached.
    """
    chosen = (name or default_executor_name()).strip().lower()
    if chosen not in EXECUTORS:
        raise UsageError(f"unknown executor {name!r}; use one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise UsageError(f"{workers} workers: at least 1 is needed")
    if chosen == "local":
        if address:
            raise UsageError(f"--address {address!r} names a Ray cluster: add --executor ray")
        from .local import LocalExecutor

        return LocalExecutor(workers or 1)
    from .ray_cluster import RayExecutor

    return RayExecutor(address, workers or os.cpu_count() or 1)


def run_tasks(
    executor: Executor,
    function: Callable[[T], R],
    items: Sequence[T],
    *,
    in_flight: int | None = None,
    attempts: int = ATTEMPTS,
) -> Iterator[tuple[int, R]]:
    """``(index, function(items[index]))`` for every item, as each completes.

    At most ``in_flight`` tasks (the executor's slots by default) are submitted at a time. A
    task whose worker was lost is submitted again, up to ``attempts`` times; any other error
    from a task is raised here. Closing the iterator (or Ctrl-C) cancels what is still running.

    :raises WorkerLost: for a task that lost its worker ``attempts`` times.
    """
    waiting = deque(range(len(items)))
    running: dict[Future[R], int] = {}
    losses: Counter[int] = Counter()
    limit = max(1, in_flight or executor.slots)
    try:
        while waiting or running:
            while waiting and len(running) < limit:
                index = waiting.popleft()
                running[executor.submit(function, items[index])] = index
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=running.__getitem__):
                index = running.pop(future)
                error = future.exception()
                if error is None:
                    yield index, future.result()
                elif executor.is_worker_loss(error):
                    losses[index] += 1
                    executor.replayed += 1
                    if losses[index] >= attempts:
                        raise WorkerLost(
                            f"task {index + 1} lost its worker {attempts} times (last: {error})"
                        ) from error
                    waiting.appendleft(index)
                else:
                    raise error
    finally:
        if running:
            executor.cancel(list(running))


def in_order(
    results: Iterable[tuple[int, R]], start: int = 0
) -> Generator[tuple[int, R], None, None]:
    """``results`` (index, value) that arrive in any order, given back in index order: each as
    soon as every earlier one has arrived. Closing it closes ``results`` (cancelling the tasks
    of :func:`run_tasks`)."""
    held: dict[int, R] = {}
    following = start
    try:
        for index, value in results:
            held[index] = value
            while following in held:
                yield following, held.pop(following)
                following += 1
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()


__all__ = [
    "ATTEMPTS",
    "EXECUTORS",
    "Executor",
    "ExecutorError",
    "WorkerLost",
    "default_executor_name",
    "in_order",
    "make_executor",
    "run_tasks",
]
