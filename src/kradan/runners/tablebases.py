"""Building the tables several at a time, on :mod:`kradan.executors` (the local cores, or a
Ray cluster): a table's captures lead to fewer pieces only, so the tables of one piece count
are independent of each other."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..egtb.generate import Built, children_of, jobs, solve
from ..egtb.material import Material
from ..egtb.storage import SUFFIX, file_name, read_table, write_table
from ..egtb.tables import TableSet
from ..errors import TablebaseError
from ..executors import Executor, run_tasks


@dataclass(frozen=True)
class TableJob:
    """One table to build in a worker: its pieces, its kind, and the directory that holds the
    tables it needs and gets it (the same path on every worker)."""

    material: Material
    kind: str
    directory: str


def build_table(job: TableJob) -> Built:
    """Build and write one table from the capture tables in its directory (a task)."""
    start = time.perf_counter()
    children = children_of(job.material, TableSet(job.directory).values)
    values = solve(job.material, children, kind=job.kind)
    path = Path(job.directory) / file_name(job.material, job.kind)
    size = write_table(path, job.material, values, kind=job.kind)
    return Built(path.name.removesuffix(SUFFIX), time.perf_counter() - start, size)


def generate_on(
    executor: Executor,
    pieces: int,
    directory: Path | str,
    *,
    force: bool = False,
    on_progress: Callable[[int, int, str, int], None] | None = None,
) -> list[Built]:
    """:func:`~kradan.egtb.generate.generate` on ``executor``: the tables of one piece count
    (and their conversion tables) are built at the same time, one task each, a piece count
    after the other. Each task reads the tables it needs from ``directory`` and writes its own
    there: on a cluster, a shared directory."""
    directory = Path(directory)
    order = jobs(pieces)
    built: list[Built | None] = [None] * len(order)
    done = 0
    for count in sorted({material.pieces for material, _ in order}):
        waiting = []
        for index, (material, kind) in enumerate(order):
            if material.pieces != count:
                continue
            path = directory / file_name(material, kind)
            if not force and _readable(path, material, kind):
                label = path.name.removesuffix(SUFFIX)
                built[index] = Built(label, 0.0, path.stat().st_size, skipped=True)
                done += 1
            else:
                waiting.append(index)
        work = [TableJob(order[i][0], order[i][1], str(directory)) for i in waiting]
        for position, table in run_tasks(executor, build_table, work):
            built[waiting[position]] = table
            done += 1
            if on_progress is not None:
                on_progress(done, len(order), table.label, -1)
    return [table for table in built if table is not None]


def _readable(path: Path, material: Material, kind: str) -> bool:
    """Whether ``path`` holds a sound table (its checksum checked)."""
    if not path.exists():
        return False
    try:
        read_table(path, material, kind)
    except TablebaseError:
        return False
    return True


__all__ = ["TableJob", "build_table", "generate_on"]
