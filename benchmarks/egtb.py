"""Endgame tables: build time, file size and probe speed per table.

    python benchmarks/egtb.py [--pieces 3] [--dir DIR] [--probes 2000]

Builds every table of 3 to ``--pieces`` pieces into ``DIR`` (a fresh temporary directory by
default, so every table is timed; the solver is compiled, or loaded from numba's cache, before
the clock starts), then probes random legal positions of each table from a ``kradan.Board``:
the value alone (``Tablebase.value``) and the full probe (best move and the count's verdict).
Prints a Markdown table and the totals.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from _table import peak_memory_mb, print_table

import kradan
from kradan.egtb import Material, Tablebase, build_order
from kradan.egtb.generate import children_of, solve
from kradan.egtb.storage import file_name, write_table


def random_fens(material: Material, values: np.ndarray, count: int, seed: int) -> list[str]:
    """FENs of ``count`` random legal positions of the table (no count running)."""
    rng = np.random.default_rng(seed)
    letters = "KK" + material.letters()
    white = [True, False] + [True] * len(material.white) + [False] * len(material.black)
    fens: list[str] = []
    while len(fens) < count:
        index = int(rng.integers(0, values.size))
        if values[index] == 255:
            continue
        rest = index
        squares = []
        for _ in range(material.pieces - 1):
            squares.append(rest % 64)
            rest //= 64
        king = rest % 32
        squares = [(king // 4) * 8 + king % 4, *reversed(squares)]
        placed = zip(letters, white, squares, strict=True)
        board = {s: (c if w else c.lower()) for c, w, s in placed}
        rows = []
        for rank in range(7, -1, -1):
            row = "".join(board.get(rank * 8 + f, "1") for f in range(8))
            for run in range(8, 1, -1):
                row = row.replace("1" * run, str(run))
            rows.append(row)
        fens.append(f"{'/'.join(rows)} {'wb'[rest // 32]} - - 0 1")
    return fens


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pieces", type=int, default=3, choices=(3, 4))
    parser.add_argument("--dir", help="table directory (default: a fresh temporary one)")
    parser.add_argument("--probes", type=int, default=2000, help="positions probed per table")
    args = parser.parse_args()
    directory = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="kradan-egtb-"))
    tables = Tablebase(directory)
    solve(build_order(3)[0], {})  # compile or load the solver before timing
    rows = []
    total_seconds = total_bytes = 0.0
    for material in build_order(args.pieces):
        children = children_of(material, tables.values)
        start = time.perf_counter()
        values = solve(material, children)
        seconds = time.perf_counter() - start
        size = write_table(directory / file_name(material), material, values)
        total_seconds += seconds
        total_bytes += size
        boards = [kradan.Board(f) for f in random_fens(material, values, args.probes, seed=1)]
        tables.value(boards[0])  # load the table before timing
        start = time.perf_counter()
        for board in boards:
            tables.value(board)
        value_rate = len(boards) / (time.perf_counter() - start)
        sample = boards[: max(1, len(boards) // 20)]
        start = time.perf_counter()
        for board in sample:
            tables.probe(board)
        probe_rate = len(sample) / (time.perf_counter() - start)
        rows.append(
            [material.key, f"{seconds:.2f}", f"{size / 2**20:.2f}", f"{value_rate:,.0f}",
             f"{probe_rate:,.0f}"]
        )  # fmt: skip
    print_table(
        f"kradan endgame tables of up to {args.pieces} pieces ({directory})",
        ["table", "build s", "file MiB", "values/s", "full probes/s"],
        rows,
    )
    print(
        f"\n{len(rows)} tables: {total_seconds:.1f} s, {total_bytes / 2**20:.1f} MiB, "
        f"peak memory {peak_memory_mb():.0f} MB"
    )


if __name__ == "__main__":
    main()
