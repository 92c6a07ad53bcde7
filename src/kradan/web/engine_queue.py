"""The engine pool's queue: which waiting search runs next, and which running analysis gives
way. Pure bookkeeping, no processes and no clock of its own (the pool passes ``now``), so the
rules are tested with plain objects.

The rules:

* **Play before analysis.** A waiting move (or draw answer) is always chosen before any
  analysis; when it finds every worker busy and one of them analyses, that analysis is
  *preempted*: stopped, and put back at the head of its client's queue with the time it had
  left (:meth:`EngineQueue.victim`).
* **Fair across games, and across analysis clients.** Within a kind the queue is a weighted
  fair queue (start-time tags, as in a network router's): each job gets a *start tag*, the
  later of the kind's virtual time and its key's last *finish tag*, and a finish tag one
  estimated cost (seconds) further on; the job with the smallest finish tag goes first. A game
  that asks for many searches, or long ones, moves its own tags forward and so yields to the
  others: its share of the workers is no larger than theirs, and no key waits forever. A
  quick search (a low level's move) has a near finish tag and goes ahead of long ones.
* **A quick lane.** With two workers or more, long searches (estimated above
  :data:`QUICK_SECONDS`) may hold all workers but one: a low level's reply or a draw answer
  never waits behind the long searches of other games.
* **A first glance for analysis.** A new analysis is first weighed as a quick search of
  :data:`FIRST_GLANCE_SECONDS`, so that it may use the quick lane and its first lines come at
  once, even while long searches hold the other workers; when it has run longer than a quick
  search and other work waits, it is stopped and queued again as a long search.
* **Slices for analysis.** An analysis runs until its time is up, or until it has run
  :data:`SLICE_SECONDS` while another client's analysis waits for a worker: then it is stopped
  and queued again behind it (round robin).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

#: a search estimated to take at most this many seconds may use the quick lane
QUICK_SECONDS = 0.5
#: an analysis's first slice, weighed as a quick search
FIRST_GLANCE_SECONDS = 0.25
#: an analysis runs at least this long before another client's waiting analysis takes its place
SLICE_SECONDS = 2.0


class Kind(IntEnum):
    """What a search is for; the lower value goes first."""

    PLAY = 0
    ANALYSIS = 1


_ids = itertools.count(1)


@dataclass(eq=False)
class Job:
    """One search to run in a worker: ``task`` names the worker's function, ``payload`` its
    argument. ``key`` is the game or client it is for (fairness is across keys); ``cost`` the
    estimated seconds. The pool keeps its own state in ``future`` and ``extra``."""

    kind: Kind
    key: str
    task: str
    payload: Any
    cost: float
    id: int = field(default_factory=lambda: next(_ids))
    #: the fair queue's tags (set when queued)
    start_tag: float = 0.0
    finish_tag: float = 0.0
    #: when it started in its worker this time (``None``: not running)
    started: float | None = None
    #: seconds it ran in earlier slices (an analysis stopped and queued again)
    ran: float = 0.0
    #: a stop was sent to its worker (preempted, cancelled or replaced)
    stopping: bool = False
    #: it was stopped to give way, and goes back to the queue when its worker answers
    preempted: bool = False
    #: nobody wants its answer any more
    cancelled: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def quick(self) -> bool:
        return self.cost <= QUICK_SECONDS

    def running_for(self, now: float) -> float:
        return 0.0 if self.started is None else now - self.started


class EngineQueue:
    """The waiting jobs of every kind, and the rules that choose among them for ``workers``
    worker processes."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"an engine pool needs at least one worker, not {workers!r}")
        self.workers = workers
        self.waiting: list[Job] = []
        #: per kind: the virtual time (the start tag of the last job started)
        self._virtual = {kind: 0.0 for kind in Kind}
        #: per kind and key: the finish tag of that key's last job
        self._finish: dict[tuple[Kind, str], float] = {}

    def __len__(self) -> int:
        return len(self.waiting)

    def push(self, job: Job) -> None:
        """Queue ``job`` (again, after a preemption: tagged anew, behind the keys that waited)."""
        last = self._finish.get((job.kind, job.key), 0.0)
        job.start_tag = max(self._virtual[job.kind], last)
        job.finish_tag = job.start_tag + max(job.cost, 0.001)
        self._finish[(job.kind, job.key)] = job.finish_tag
        job.started = None
        self.waiting.append(job)

    def remove(self, job: Job) -> bool:
        """Take ``job`` out of the queue; ``False`` when it was not waiting."""
        if job in self.waiting:
            self.waiting.remove(job)
            return True
        return False

    def of_key(self, kind: Kind, key: str) -> list[Job]:
        return [job for job in self.waiting if job.kind == kind and job.key == key]

    def _long_slots(self, running: Iterable[Job]) -> int:
        """How many more long searches may start now."""
        long = sum(1 for job in running if not job.quick)
        limit = self.workers - 1 if self.workers > 1 else 1
        return limit - long

    def _eligible(self, running: list[Job]) -> list[Job]:
        long_free = self._long_slots(running) > 0
        return [job for job in self.waiting if job.quick or long_free]

    def startable(self, running: Iterable[Job]) -> bool:
        """Whether a waiting job could start now on a free worker."""
        return bool(self._eligible(list(running)))

    def next(self, running: Iterable[Job]) -> Job | None:
        """The job a free worker runs now (taken out of the queue), given the jobs the other
        workers run; ``None`` when none may start."""
        eligible = self._eligible(list(running))
        if not eligible:
            return None
        job = min(eligible, key=lambda job: (job.kind, job.finish_tag, job.id))
        self.waiting.remove(job)
        self._virtual[job.kind] = max(self._virtual[job.kind], job.start_tag)
        return job

    def victim(self, running: Iterable[Job], now: float) -> Job | None:
        """A running analysis to stop so that waiting work can start (asked once no waiting
        job can start on a free worker), or ``None``. For a waiting move: the analysis that ran
        longest (a long analysis where the move is long: it needs a long worker's place). For
        another client's waiting analysis: the longest one that has run its slice."""
        if not self.waiting:
            return None
        analyses = [job for job in running if job.kind == Kind.ANALYSIS and not job.stopping]
        analyses.sort(key=lambda job: -job.running_for(now))
        for job in analyses:
            if job.quick and job.running_for(now) > QUICK_SECONDS:
                return job  # its first glance is over: it goes on as a long search
        play = [job for job in self.waiting if job.kind == Kind.PLAY]
        if play:
            if any(job.quick for job in play):
                return analyses[0] if analyses else None
            return next((job for job in analyses if not job.quick), None)
        keys = {job.key for job in self.waiting}
        for job in analyses:
            if job.running_for(now) >= SLICE_SECONDS and keys - {job.key}:
                return job
        return None


__all__ = ["FIRST_GLANCE_SECONDS", "QUICK_SECONDS", "SLICE_SECONDS", "EngineQueue", "Job", "Kind"]
