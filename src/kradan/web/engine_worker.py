"""One engine worker of ``kradan serve``: a process (started with ``spawn``) that runs one task at
a time, and its handle in the server.

They talk over one duplex pipe, in tuples:

* server to worker: ``("run", job_id, task, request)``, ``("stop", job_id)``, ``("quit",)``;
* worker to server: ``("ready",)`` once it can take work (after loading every game's search
  when started to warm up), ``("progress", job_id, data)`` any number of times, then
  ``("done", job_id, answer)`` or ``("failed", job_id, text)``.

In the worker, a reader thread takes the server's messages while the main thread searches
(kradan's searches run without the GIL): a stop reaches the running search at once, through
its stop flag, and the search returns within milliseconds (never before its first depth is
complete). The reader thread also ends the worker when the pipe closes, so a worker never
outlives the server, even one killed with SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import queue
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("kradan.web")

#: seconds a closing worker is given to end before it is killed
QUIT_SECONDS = 5.0


# --- in the worker process ---------------------------------------------------------------------


def _tasks() -> dict[str, Callable[[Any, Any], Any]]:
    from .analysis_work import analyse
    from .engine_tasks import accepts_draw, choose_move, warm

    return {"choose_move": choose_move, "accepts_draw": accepts_draw, "warm": warm,
            "analyse": analyse}  # fmt: skip


class _Running:
    """The job the worker's main thread runs, and the stops the reader thread brings."""

    def __init__(self, connection: Connection) -> None:
        self.connection = connection
        self.lock = threading.Lock()
        self.job_id = 0
        self.searcher: Any = None
        self.stopped: set[int] = set()

    def begin(self, job_id: int) -> None:
        with self.lock:
            self.job_id, self.searcher = job_id, None

    def end(self) -> None:
        with self.lock:
            self.stopped.discard(self.job_id)
            self.job_id, self.searcher = 0, None

    def stop(self, job_id: int) -> None:
        """Stop job ``job_id``: now if it runs, else when it starts (a stop may overtake it)."""
        with self.lock:
            self.stopped.add(job_id)
            if self.job_id == job_id and self.searcher is not None:
                self.searcher.stop()

    # the task's context (see :class:`kradan.web.engine_tasks.TaskContext`)

    def emit(self, data: Any) -> None:
        self.connection.send(("progress", self.job_id, data))

    def arm(self, searcher: Any) -> bool:
        with self.lock:
            searcher.arm()
            self.searcher = searcher
            return self.job_id not in self.stopped


def _read(connection: Connection, jobs: queue.SimpleQueue[Any], running: _Running) -> None:
    """The worker's reader thread: jobs to the main thread, stops to the running search; the
    process ends when the server says so or its end of the pipe closes."""
    while True:
        try:
            message = connection.recv()
        except (EOFError, OSError):
            message = ("quit",)
        if message[0] == "run":
            jobs.put(message[1:])
        elif message[0] == "stop":
            running.stop(message[1])
        else:  # the main thread may be searching: end the process from here
            os.kill(os.getpid(), signal.SIGTERM)
            return


def worker_main(connection: Connection, warm: bool) -> None:
    """The worker process: load the searches when ``warm``, then run jobs until told to quit."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the server, which ends us
    tasks = _tasks()
    running = _Running(connection)
    jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
    threading.Thread(
        target=_read, args=(connection, jobs, running), name="kradan-worker-reader", daemon=True
    ).start()
    if warm:
        tasks["warm"](None, running)
    connection.send(("ready",))
    while True:
        job_id, name, request = jobs.get()
        running.begin(job_id)
        try:
            answer = tasks[name](request, running)
        except Exception as error:
            connection.send(("failed", job_id, f"{type(error).__name__}: {error}"))
        else:
            connection.send(("done", job_id, answer))
        finally:
            running.end()


# --- in the server -----------------------------------------------------------------------------


class WorkerProcess:
    """A worker process and the thread that brings its messages to the event loop:
    ``on_message(worker, message)`` for each, ``on_lost(worker)`` once when it dies (not when it
    is closed)."""

    def __init__(
        self,
        number: int,
        on_message: Callable[[WorkerProcess, tuple[Any, ...]], None],
        on_lost: Callable[[WorkerProcess], None],
        *,
        warm: bool = False,
    ) -> None:
        self.number = number
        self.loop = asyncio.get_running_loop()
        self.on_message = on_message
        self.on_lost = on_lost
        #: it takes work (a warming worker is not ready until it says so)
        self.ready = not warm
        self.warming = warm
        #: the job it runs (``None``: idle)
        self.job: Any = None
        self.closing = False
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe(duplex=True)
        self.process = context.Process(
            target=worker_main, args=(child, warm), name=f"kradan-engine-{number}", daemon=True
        )
        self.process.start()
        child.close()
        threading.Thread(target=self._listen, name=f"kradan-engine-{number}", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                message = self.connection.recv()
            except (EOFError, OSError):
                if not self.closing:
                    self._post(self.on_lost, self)
                return
            self._post(self.on_message, self, message)

    def _post(self, callback: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the event loop is closed: the server ended
            self.loop.call_soon_threadsafe(callback, *args)

    def send(self, message: tuple[Any, ...]) -> bool:
        """Send ``message``; ``False`` when the worker is gone (its loss is reported)."""
        try:
            self.connection.send(message)
        except (OSError, ValueError):
            return False
        return True

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def close(self) -> None:
        """End the worker (a search under way is abandoned), waiting at most
        :data:`QUIT_SECONDS`."""
        self.closing = True
        self.send(("quit",))
        self.process.join(QUIT_SECONDS)
        if self.process.is_alive():  # pragma: no cover - a worker that ignores the pipe
            self.process.kill()
            self.process.join(QUIT_SECONDS)
        self.connection.close()


__all__ = ["WorkerProcess", "worker_main"]
