"""Measure the Bell solver's pieces (issue 48; docs/solving.md): df-pn's rate on positions from
random games, and the proof database's save rate as append-only record files against SQLite.

    python benchmarks/alquerque_solve.py [--records 200000] [--positions 4] [--ply 20]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import time
from pathlib import Path

import numpy as np

from kradan.alquerque import Board
from kradan.solve.proofdb import ProofDatabase
from kradan.solve.solver import Solver


def save_rates(records: int, batch: int = 20_000) -> tuple[float, float]:
    """Records per second saved (with fsync per batch) by the record files and by SQLite."""
    rng = np.random.default_rng(1)
    keys = rng.integers(0, 2**63, records, dtype=np.int64).astype(np.uint64)
    recs = rng.integers(0, 2**61, records, dtype=np.int64)
    with tempfile.TemporaryDirectory() as directory:
        writer = ProofDatabase(directory).writer("bench")
        start = time.perf_counter()
        for i in range(0, records, batch):
            writer.append(keys[i : i + batch], recs[i : i + batch])
        files = records / (time.perf_counter() - start)
        writer.close()
        connection = sqlite3.connect(str(Path(directory) / "bench.sqlite"))
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("CREATE TABLE proofs (key INTEGER PRIMARY KEY, rec INTEGER)")
        start = time.perf_counter()
        for i in range(0, records, batch):
            rows = zip(
                keys[i : i + batch].view(np.int64).tolist(),
                recs[i : i + batch].tolist(),
                strict=True,
            )
            with connection:
                connection.executemany("INSERT OR IGNORE INTO proofs VALUES (?, ?)", rows)
        sqlite = records / (time.perf_counter() - start)
        connection.close()
    return files, sqlite


def solve_rates(positions: int, ply: int, max_nodes: int) -> None:
    for seed in range(positions):
        rng = random.Random(seed)
        board = Board(variant="alquerque-bell")
        for _ in range(ply):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        with tempfile.TemporaryDirectory() as directory:
            database = ProofDatabase(directory)
            solver = Solver(database, database.writer("bench"), table_bits=22)
            found = solver.solve(board, max_nodes=max_nodes)
        rate = found.nodes / found.seconds if found.seconds else 0.0
        print(f"ply {ply} seed {seed}: {found.win} after {found.nodes:,} nodes, "
              f"{found.saved:,} positions saved, {rate:,.0f} nodes/s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--ply", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=5_000_000)
    args = parser.parse_args()
    files, sqlite = save_rates(args.records)
    print(f"save: record files {files:,.0f} records/s, SQLite (WAL, INTEGER PRIMARY KEY) "
          f"{sqlite:,.0f} records/s")  # fmt: skip
    solve_rates(args.positions, args.ply, args.nodes)


if __name__ == "__main__":
    main()
