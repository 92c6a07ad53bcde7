"""Alquerque perft speed: the compiled generator against the slow pure-Python reference of the
tests (``tests/alquerque_reference.py``), measured in the same run.

    python benchmarks/alquerque_perft.py

Prints nodes, seconds and nodes/s for bulk perft (leaf moves counted) and plain perft (every leaf
made) at the start position and in two middlegames under both rule sets, the reference's rate on
the smaller trees, the ratio, and peak memory.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import alquerque_reference as ref
from _table import peak_memory_mb, print_table

from kradan import alquerque

POSITIONS = [
    ("start", "ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1", (10, 12)),
    ("middlegame 1", "1pppp/p1p1p/p1p2/2P1P/PPP1P b - 0 5", (5, 7)),
    ("middlegame 2", "p1ppp/p1p1p/pp3/2P1P/PPP1P b - 0 5", (5, 7)),
]
REFERENCE_NODES = 200_000  # the pure-Python reference runs only on trees up to this size


def reference_position(text: str) -> ref.Pos:
    rows, side = text.split()[:2]
    pieces = {}
    for index, row in enumerate(rows.split("/")):
        x = 0
        for char in row:
            if char.isdigit():
                x += int(char)
                continue
            pieces[(4 - index) * 5 + x] = ("w" if char.isupper() else "b", char in "Kk")
            x += 1
    return ref.Pos(pieces, side)


def timed(function, *args):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = function(*args)
    return result, time.perf_counter() - start


def main() -> int:
    rows = []
    for variant, rules in (
        ("alquerque", ref.Rules(bell=False, no_return="off")),
        ("alquerque-bell", ref.Rules(bell=True)),
    ):
        for name, text, depths in POSITIONS:
            board = alquerque.Board(text, variant=variant)
            board.perft(2)  # load the compiled code before timing
            for depth in depths:
                nodes, bulk = timed(board.perft, depth)
                _, plain = timed(lambda b=board, d=depth: b.perft(d, bulk=False))
                row = [variant, name, str(depth), f"{nodes:,}", f"{bulk:.3f}",
                       f"{nodes / bulk / 1e6:.1f}M", f"{nodes / plain / 1e6:.1f}M"]  # fmt: skip
                if nodes <= REFERENCE_NODES:
                    theirs, seconds = timed(ref.perft, reference_position(text), rules, depth)
                    assert theirs == nodes, (variant, name, depth, theirs, nodes)
                    row += [f"{nodes / seconds / 1e3:.1f}k", f"{seconds / bulk:.0f}x"]
                else:
                    row += ["-", "-"]
                rows.append(row)
    header = ["game", "position", "depth", "nodes", "bulk s", "bulk n/s", "plain n/s",
              "reference n/s", "bulk/reference"]  # fmt: skip
    title = "Alquerque perft (single thread; the reference is the tests' pure-Python generator)"
    print_table(title, header, rows)
    print(f"\nPeak memory of this process: {peak_memory_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
