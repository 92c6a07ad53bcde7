"""Marking mutants of a cosmic-ray session as skipped, shared by the filters in ``mutation/``."""

from __future__ import annotations

from collections.abc import Callable

from cosmic_ray.work_db import use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkItem, WorkResult


def skipped(reason: str) -> WorkResult:
    """The result that marks a mutant skipped, saying why."""
    return WorkResult(
        output=reason, test_outcome=None, diff=None, worker_outcome=WorkerOutcome.SKIPPED
    )


def skip_where(session: str, equivalent: Callable[[WorkItem], bool], reason: str) -> int:
    """Mark skipped every pending or surviving mutant for which ``equivalent`` holds; a mutant
    already killed or skipped keeps its result. Returns how many were marked."""
    count = 0
    with use_db(session) as db:
        done = dict(db.results)
        for item in db.work_items:
            result = done.get(item.job_id)
            if result is not None and result.test_outcome is not TestOutcome.SURVIVED:
                continue
            if equivalent(item):
                db.set_result(item.job_id, skipped(reason))
                count += 1
    return count
