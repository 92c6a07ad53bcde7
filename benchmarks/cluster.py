"""The executor seam on this machine (issue 15): games/s of a match, annotation throughput and
the per-task overhead, on the local process pool and on Ray, side by side.

    python benchmarks/cluster.py                      # 200 games, 1,000 annotated, 2 workers
    python benchmarks/cluster.py --games 50 --annotate 200 --workers 2
    python benchmarks/cluster.py --address 127.0.0.1:6390    # Ray: a running cluster instead

Each backend runs the same work: ``--games`` games between ``--first`` and ``--second`` at
``--tc`` (kradan's fast games, level 1 against random moves by default), ``--annotate`` games
(written here by random players) annotated at depth ``--depth``, and ``--tasks`` empty tasks
one at a time (the round trip: submit, run, result back). Ray starts a private instance of
``--workers`` CPUs unless ``--address`` names a cluster; it skips, saying so, without the
``ray`` extra. The overhead is also given as a share of a 10+0.1 game, counted as the 20 s of
clock its two players get for 60 moves each (10 s + 60 x 0.1 s, minus what they keep).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from _table import peak_memory_mb, print_table

from kradan.engine.annotate_file import annotate_chunk, plan_chunks
from kradan.engine.types import Limit
from kradan.errors import ExecutorError
from kradan.executors import Executor, in_order, make_executor, run_tasks
from kradan.runners.match import TimeControl, run_match, tasks

#: seconds a 10+0.1 game lasts, at the least, for the overhead's share (see the docstring)
TEN_PLUS_TENTH = 20.0


def nothing(item: int) -> int:
    """The empty task of the overhead measurement."""
    return item


def pause(seconds: float) -> float:
    """Hold a worker for a moment: a few of these at once reach every worker (and warm it)."""
    time.sleep(seconds)
    return seconds


def games_file(path: Path, count: int) -> None:
    """``count`` games between random players (up to 80 plies), for the annotation run."""
    games = tasks("random", "random", "makruk", count, TimeControl(60, 0), max_plies=80)
    with open(path, "w", encoding="utf-8") as out:
        run_match(games, 1, lambda record: out.write(record.pgn + "\n"))


def measure(executor: Executor, args: argparse.Namespace, source: Path) -> list[str]:
    """One backend's row."""
    workers = executor.slots
    list(run_tasks(executor, pause, [0.5] * 2 * workers))  # every worker up and warm first
    games = tasks(args.first, args.second, "makruk", args.games, TimeControl.parse(args.tc),
                  max_plies=args.max_plies)  # fmt: skip
    start = time.perf_counter()
    result = run_match(games, workers, executor=executor)
    match_seconds = time.perf_counter() - start
    assert len(result.games) == args.games

    chunks = plan_chunks(str(source), "makruk", Limit(depth=args.depth), workers)
    start = time.perf_counter()
    annotated = moves = 0
    for _index, chunk_result in in_order(run_tasks(executor, annotate_chunk, chunks)):
        annotated += chunk_result.games
        moves += chunk_result.moves
    annotate_seconds = time.perf_counter() - start
    assert annotated == args.annotate

    start = time.perf_counter()
    for _ in range(args.tasks):
        next(run_tasks(executor, nothing, [1]))
    overhead = (time.perf_counter() - start) / args.tasks
    return [
        executor.describe(), f"{args.games / match_seconds:.2f}", f"{match_seconds:.1f}",
        f"{annotated / annotate_seconds:.1f}", f"{moves / annotate_seconds:,.0f}",
        f"{1000 * overhead:.2f}", f"{100 * overhead / TEN_PLUS_TENTH:.3f}%",
        f"{executor.replayed}", f"{peak_memory_mb():.0f}",
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", default="kradan:level=1")
    parser.add_argument("--second", default="random")
    parser.add_argument("--tc", default="1+0.01")
    parser.add_argument("--max-plies", type=int, default=200)
    parser.add_argument("--annotate", type=int, default=1000, help="games annotated (1,000)")
    parser.add_argument("--depth", type=int, default=1, help="annotation depth (1)")
    parser.add_argument("--tasks", type=int, default=200, help="empty tasks timed (200)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--address", help="a Ray cluster instead of a private Ray instance")
    parser.add_argument("--backends", nargs="+", default=["local", "ray"])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "games.pgn"
        games_file(source, args.annotate)
        for name in args.backends:
            try:
                address = args.address if name == "ray" else None
                executor = make_executor(name, args.workers, address)
            except ExecutorError as error:
                print(f"skipping {name}: {error}", file=sys.stderr)
                continue
            with executor:
                rows.append([name, *measure(executor, args, source)])
                print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print_table(
        f"The executor seam: {args.games} games ({args.first} v {args.second}, {args.tc}), "
        f"{args.annotate} games annotated at depth {args.depth}, {args.tasks} empty tasks",
        ["backend", "where", "games/s", "match s", "annotated games/s", "positions/s",
         "ms per task", "of a 10+0.1 game", "replayed", "driver MB"],
        rows,
    )  # fmt: skip


if __name__ == "__main__":
    main()
