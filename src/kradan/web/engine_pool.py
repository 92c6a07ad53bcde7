"""The engine pool of ``kradan serve``: the engine thinks in worker processes, so that the event
loop never waits for a search, and several games (and analyses) think at once.

:class:`EnginePool` owns the queue (:mod:`.engine_queue`: play before analysis, fair across
games and clients, a quick lane for short searches, analysis in slices) and up to ``workers``
processes (:mod:`.engine_worker`), started when work first needs them (all at once, and warmed
up, by :meth:`EnginePool.warm`). Each request carries its kind and its game or client; a request
nobody waits for any more is dropped from the queue, or stopped if it runs (the latest analysis
of a client replaces the one before). A worker that dies is replaced, and its job runs again
(at most :data:`ATTEMPTS` times).

The tasks themselves are in :mod:`.engine_tasks` (play) and :mod:`.analysis_work`.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import Any

from ..errors import EngineError
from .analysis_work import AnalysisRequest
from .engine_queue import FIRST_GLANCE_SECONDS, SLICE_SECONDS, EngineQueue, Job, Kind
from .engine_tasks import (
    DEFAULT_SECONDS,
    EngineAnswer,
    EngineRequest,
    HistoryEntry,
    accepts_draw,
    choose_move,
    estimated_seconds,
    rebuild,
    warm,
)
from .engine_worker import WorkerProcess

log = logging.getLogger("kradan.web")

#: times a job is run when its worker dies under it
ATTEMPTS = 3
#: the most workers the default starts (each holds its own tables: about 100 MB)
MAX_DEFAULT_ENGINES = 8
#: an analysis with less time left than this ends instead of waiting for another slice
LEAST_SLICE = 0.05
#: seconds between two looks at the queue while work waits (an analysis's slice may be up)
TICK_SECONDS = 0.25


def default_engines(cores: int | None = None) -> int:
    """The pool's size when none is given: one worker per core, at least two (one of them
    kept for quick work, :mod:`.engine_queue`) and at most :data:`MAX_DEFAULT_ENGINES`."""
    found = cores if cores is not None else (os.cpu_count() or 1)
    return max(2, min(MAX_DEFAULT_ENGINES, found))


class WorkerDied(BrokenProcessPool):
    """A job's worker died :data:`ATTEMPTS` times under it."""


class AnalysisJob:
    """An analysis submitted to the pool: ``job`` (to stop or cancel it) and ``result``, the
    deepest lines once it ends."""

    def __init__(self, job: Job, result: asyncio.Future[Any]) -> None:
        self.job = job
        self.result = result


class EnginePool:
    """The engine's worker processes and their queue (see the module's docstring)."""

    def __init__(self, workers: int | None = None) -> None:
        self.size = workers if workers is not None else default_engines()
        self.queue = EngineQueue(self.size)
        self.workers: list[WorkerProcess] = []
        self.running: dict[int, Job] = {}
        self.closed = False
        self._numbers = itertools.count(1)
        self._timer: asyncio.TimerHandle | None = None
        self._ready: list[asyncio.Future[bool]] = []

    # --- asking -------------------------------------------------------------------------------

    async def choose_move(self, request: EngineRequest, key: str = "") -> EngineAnswer:
        """The engine's move in ``request``'s game (``key``: the game, for fairness)."""
        job = Job(Kind.PLAY, "game:" + key, "choose_move", request, estimated_seconds(request))
        answer: EngineAnswer = await self._wait(job)
        return answer

    async def accepts_draw(self, request: EngineRequest, key: str = "") -> bool:
        """Whether the engine accepts a draw in ``request``'s game."""
        seconds = estimated_seconds(request, draw=True)
        job = Job(Kind.PLAY, "game:" + key, "accepts_draw", request, seconds)
        return bool(await self._wait(job))

    def analyse(
        self,
        request: AnalysisRequest,
        key: str,
        on_lines: Callable[[dict[str, Any]], None] | None = None,
        *,
        replaces: bool = False,
    ) -> AnalysisJob:
        """Queue an analysis for client ``key``; ``on_lines`` gets each deeper set of lines as
        it comes (in the event loop). With ``replaces``, the client's earlier analyses are
        cancelled: the latest request wins."""
        if replaces:
            self.cancel_key(Kind.ANALYSIS, key)
        cost = min(request.seconds, FIRST_GLANCE_SECONDS)
        job = Job(Kind.ANALYSIS, key, "analyse", request, cost)
        job.extra.update(on_lines=on_lines, seconds=request.seconds)
        future = self._submit(job)
        return AnalysisJob(job, future)

    async def _wait(self, job: Job) -> Any:
        future = self._submit(job)
        try:
            return await future
        except asyncio.CancelledError:
            self.cancel(job)
            raise

    def _submit(self, job: Job) -> asyncio.Future[Any]:
        if self.closed:
            raise EngineError("the engine pool is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job.extra["future"] = future
        job.extra.setdefault("attempts", 0)
        self.queue.push(job)
        self._schedule()
        return future

    # --- stopping -----------------------------------------------------------------------------

    def stop(self, job: Job) -> None:
        """End ``job`` now with what it found (an analysis's deepest lines so far)."""
        if self.queue.remove(job):
            self._finish(job, job.extra.get("best") or _nothing(job), None)
        elif job.id in self.running and not job.cancelled:
            job.preempted = False
            self._send_stop(job)

    def cancel(self, job: Job) -> None:
        """Nobody wants ``job``'s answer: drop it from the queue, or stop it if it runs."""
        if job.cancelled:
            return
        job.cancelled = True
        future: asyncio.Future[Any] = job.extra["future"]
        if not future.done():
            future.cancel()
        if not self.queue.remove(job) and job.id in self.running:
            self._send_stop(job)
        self._schedule()

    def cancel_key(self, kind: Kind, key: str) -> None:
        """Cancel every job of ``kind`` for ``key``, waiting or running."""
        for job in [*self.queue.of_key(kind, key), *self.running.values()]:
            if job.kind == kind and job.key == key:
                self.cancel(job)

    def _send_stop(self, job: Job) -> None:
        job.stopping = True
        worker = job.extra.get("worker")
        if worker is not None:
            worker.send(("stop", job.id))

    # --- the workers --------------------------------------------------------------------------

    def _spawn(self, *, warm: bool) -> WorkerProcess:
        worker = WorkerProcess(next(self._numbers), self._on_message, self._on_lost, warm=warm)
        self.workers.append(worker)
        return worker

    async def warm(self) -> bool:
        """Start every worker now and load its searches (``kradan serve`` does, at start): the
        first alone (it compiles what the cache lacks), then the others, which find it there."""
        if self.closed:
            return False
        loop = asyncio.get_running_loop()
        waited: list[asyncio.Future[bool]] = []
        first = True
        while len(self.workers) < self.size and not self.closed:
            waiter: asyncio.Future[bool] = loop.create_future()
            self._ready.append(waiter)
            self._spawn(warm=True)
            if first:
                first = False
                if not await waiter:
                    return False
            else:
                waited.append(waiter)
        return all(await asyncio.gather(*waited))

    def _on_message(self, worker: WorkerProcess, message: tuple[Any, ...]) -> None:
        kind = message[0]
        if kind == "ready":
            worker.ready = True
            if worker.warming and self._ready:
                worker.warming = False
                waiter = self._ready.pop(0)
                if not waiter.done():
                    waiter.set_result(True)
        elif kind == "progress":
            job = self.running.get(message[1])
            if job is not None and not job.cancelled:
                self._progress(job, message[2])
            return
        else:
            job = self.running.pop(message[1], None)
            worker.job = None
            if job is not None:
                job.extra.pop("worker", None)
                if kind == "done":
                    self._finish(job, message[2], None)
                else:
                    self._finish(job, None, EngineError(str(message[2])))
        self._schedule()

    def _progress(self, job: Job, data: dict[str, Any]) -> None:
        best = job.extra.get("best")
        if best is not None and data.get("depth", 0) <= best.get("depth", 0):
            return
        job.extra["best"] = data
        on_lines = job.extra.get("on_lines")
        if on_lines is not None:
            on_lines(data)

    def _finish(self, job: Job, answer: Any, error: Exception | None) -> None:
        """``job`` came back from its worker (or left the queue): answer whoever waits, or queue
        a preempted analysis again with the time it has left."""
        future: asyncio.Future[Any] = job.extra["future"]
        if job.started is not None:
            job.ran += time.monotonic() - job.started
            job.started = None
        if job.cancelled or future.done():
            return
        if error is not None:
            future.set_exception(error)
            return
        if job.kind == Kind.ANALYSIS:
            best = job.extra.get("best")
            if best is not None and (answer is None or answer["depth"] <= best["depth"]):
                answer = best
            else:
                job.extra["best"] = answer
            if job.preempted and job.extra["seconds"] - job.ran > LEAST_SLICE:
                job.extra["preemptions"] = job.extra.get("preemptions", 0) + 1
                self._again(job)
                return
        future.set_result(answer)

    def _again(self, job: Job) -> None:
        """Queue ``job`` again (an analysis preempted, or a job whose worker died); an analysis
        with the time it has left, sending nothing shallower than it sent."""
        if job.started is not None:
            job.ran += time.monotonic() - job.started
            job.started = None
        if job.kind == Kind.ANALYSIS:
            left = max(LEAST_SLICE, job.extra["seconds"] - job.ran)
            best = job.extra.get("best")
            shown = int(best["depth"]) if best else 0
            job.payload = replace(job.payload, seconds=left, shown_depth=shown)
            job.cost = min(left, SLICE_SECONDS)
        job.stopping = job.preempted = False
        self.queue.push(job)

    def _on_lost(self, worker: WorkerProcess) -> None:
        if worker in self.workers:
            self.workers.remove(worker)
        if worker.warming and self._ready:
            waiter = self._ready.pop(0)
            if not waiter.done():
                waiter.set_result(False)
        job = worker.job
        worker.job = None
        if job is not None and not self.closed:
            self.running.pop(job.id, None)
            job.extra.pop("worker", None)
            job.extra["attempts"] += 1
            attempts = job.extra["attempts"]
            log.warning("an engine worker died (%s, attempt %s)", job.key, attempts)
            if job.extra["attempts"] >= ATTEMPTS:
                error = WorkerDied(f"the engine's worker died {attempts} times")
                self._finish(job, None, error)
            elif job.stopping and not job.preempted:  # stopped: what it found so far is wanted
                self._finish(job, job.extra.get("best") or _nothing(job), None)
            else:  # (a preempted analysis too: it goes on where it would have)
                self._again(job)
        self._schedule()

    # --- the scheduler ------------------------------------------------------------------------

    def _idle_worker(self) -> WorkerProcess | None:
        return next((w for w in self.workers if w.ready and w.job is None), None)

    def _schedule(self) -> None:
        """Start what may start; stop an analysis that must give way; look again soon while
        work waits."""
        if self.closed:
            return
        while self.queue:
            worker = self._idle_worker()
            if worker is None:
                full = len(self.workers) >= self.size
                if full or not self.queue.startable(self.running.values()):
                    break
                worker = self._spawn(warm=False)
            job = self.queue.next(self.running.values())
            if job is None:
                break
            self._start(worker, job)
        if self.queue:
            victim = self.queue.victim(self.running.values(), time.monotonic())
            if victim is not None:
                victim.preempted = True
                self._send_stop(victim)
            if self._timer is None:
                loop = asyncio.get_running_loop()
                self._timer = loop.call_later(TICK_SECONDS, self._tick)

    def _tick(self) -> None:
        self._timer = None
        self._schedule()

    def _start(self, worker: WorkerProcess, job: Job) -> None:
        job.started = time.monotonic()
        job.stopping = job.preempted = False
        worker.job = job
        job.extra["worker"] = worker
        self.running[job.id] = job
        worker.send(("run", job.id, job.task, job.payload))  # a dead one reports its loss

    def close(self) -> None:
        """End every worker; whoever waits for an answer gets ``CancelledError``."""
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for job in [*self.queue.waiting, *self.running.values()]:
            future = job.extra.get("future")
            if future is not None and not future.done():
                future.cancel()
        self.queue.waiting.clear()
        self.running.clear()
        for waiter in self._ready:
            if not waiter.done():
                waiter.set_result(False)
        self._ready.clear()
        for worker in self.workers:
            worker.close()
        self.workers.clear()


def _nothing(job: Job) -> dict[str, Any]:
    """The answer of an analysis stopped before it ran: no lines."""
    return {"depth": 0, "lines": [], "table": None, "nodes": 0}


__all__ = [
    "DEFAULT_SECONDS",
    "AnalysisJob",
    "EngineAnswer",
    "EnginePool",
    "EngineRequest",
    "HistoryEntry",
    "WorkerDied",
    "accepts_draw",
    "choose_move",
    "default_engines",
    "rebuild",
    "warm",
]
