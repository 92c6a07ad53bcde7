"""Alfonso X's Alquerque tables (docs/egtb.md, "Alfonso X's tables"): what making the table of up
to N pieces takes, for N = 3, 4, 5 (6 with ``--pieces 6``).

    python benchmarks/alquerque_tables.py [--pieces 3 4 5]

Each count is built in a process of its own (after a 2-piece table has loaded the compiled
code), so that its peak memory is its own. Prints positions, moves, wall and CPU seconds, the
file's size, the peak resident memory, the longest win and the share of each result.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _table import peak_memory_mb, print_table


def measure(pieces: int) -> dict[str, float]:
    """Build the table of up to ``pieces`` pieces here and write it to a scratch directory."""
    from kradan.egtb.alquerque import generate
    from kradan.egtb.alquerque_file import read_table, table_path, write_table

    generate(2)  # load the compiled code first
    wall, cpu = time.perf_counter(), time.process_time()
    made = generate(pieces)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    with tempfile.TemporaryDirectory() as scratch:
        path = table_path(scratch)
        size = write_table(path, pieces, made.values)
        began = time.perf_counter()
        read_table(path)
        load = time.perf_counter() - began
    values = made.values
    return {
        "pieces": pieces,
        "positions": len(values),
        "moves": made.moves,
        "wall": wall,
        "cpu": cpu,
        "bytes": size,
        "load": load,
        "peak": peak_memory_mb(),
        "longest": made.longest,
        "wins": float((values > 0).mean()),
        "losses": float((values < 0).mean()),
        "draws": float((values == 0).mean()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pieces", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one)))
        return
    rows = []
    for pieces in args.pieces:
        out = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--one", str(pieces)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        found = json.loads(out.strip().splitlines()[-1])
        rows.append([
            str(pieces),
            f"{found['positions']:,}",
            f"{found['moves']:,}",
            f"{found['wall']:.1f}",
            f"{found['cpu']:.1f}",
            f"{found['bytes'] / 2**20:.2f}",
            f"{found['load'] * 1000:.0f}",
            f"{found['peak']:.0f}",
            str(found["longest"]),
            f"{100 * found['wins']:.1f} / {100 * found['losses']:.1f} / {100 * found['draws']:.1f}",
        ])  # fmt: skip
    print_table(
        "Alfonso X's Alquerque tables (side to move's view; one process per count)",
        ["pieces", "positions", "moves", "wall s", "CPU s", "file MiB", "load ms",
         "peak MB", "longest win (plies)", "win / loss / draw %"],
        rows,
    )  # fmt: skip


if __name__ == "__main__":
    main()
