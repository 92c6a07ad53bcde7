"""What every backend offers: submit a function on one item, say how many run at once, tell a
lost worker from a task's own error, and cancel."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

from ..errors import ExecutorError

T = TypeVar("T")
R = TypeVar("R")


__all__ = ["Executor", "ExecutorError", "WorkerLost"]


class WorkerLost(ExecutorError):
    """A task lost its worker (a killed process, a lost node) more often than it may."""


class Executor(ABC):
    """A place to run tasks: ``submit`` returns a standard :class:`~concurrent.futures.Future`.

    Use it as a context manager (or call :meth:`shutdown`). ``replayed`` counts the tasks that
    :func:`~kradan.executors.run_tasks` submitted again after their worker was lost.
    """

    #: the backend's name (``local``, ``ray``)
    name = ""

    def __init__(self) -> None:
        self.replayed = 0

    @property
    @abstractmethod
    def slots(self) -> int:
        """How many tasks run at once (processes, or the cluster's CPUs)."""

    @abstractmethod
    def submit(self, function: Callable[[T], R], item: T) -> Future[R]:
        """Run ``function(item)`` on a worker."""

    @abstractmethod
    def is_worker_loss(self, error: BaseException) -> bool:
        """Whether ``error`` says the worker was lost (the task may run again elsewhere) rather
        than that the task itself failed."""

    @abstractmethod
    def cancel(self, futures: list[Future[Any]]) -> None:
        """Stop these tasks, running or not (Ctrl-C, an error elsewhere)."""

    @abstractmethod
    def describe(self) -> str:
        """Where the work runs, in a few words (for the progress line)."""

    @abstractmethod
    def shutdown(self) -> None:
        """Let the workers go."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
