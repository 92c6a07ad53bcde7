"""What the first search compiles: each function numba compiles (not loads from its cache) on
the way to the first move, with its seconds, when the cache is empty.

    python benchmarks/first_compile.py                  # Makruk's start, a depth-1 search
    python benchmarks/first_compile.py --game sittuyin --network off

It runs in a fresh process with an empty ``NUMBA_CACHE_DIR``: importing the searcher, making it
and searching to depth 1, as ``kradan uci`` does before its first move. Seconds are inclusive (a
function's time holds the functions it compiles), so the table lists the outermost ones and
the total; "own" is the time left after the nested compilations.

The move generator is compiled by a second process meanwhile
(:mod:`kradan.engine.kernels.precompile`), so it is missing from the table; "whole run" holds
the wait for it. ``KRADAN_COMPILE_HELPER=0 python benchmarks/first_compile.py`` shows the
compilation in one process, as before.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _table import print_table

#: the measured process: prints one JSON list of [depth, name, seconds] after its search
CHILD = r"""
import json, sys, time
from numba.core import event

stack, found = [], []

class Timer(event.Listener):
    def on_start(self, data):
        stack.append(time.perf_counter())
    def on_end(self, data):
        began = stack.pop()
        dispatcher = data.data["dispatcher"]
        found.append([len(stack), dispatcher.py_func.__module__ + "." + dispatcher.__name__,
                      time.perf_counter() - began])

event.register("numba:compile", Timer())
began = time.perf_counter()
from kradan.games import find_game
from kradan.engine.searchers import Searchers
from kradan.engine.types import Limit
imported = time.perf_counter() - began
game = find_game(sys.argv[1])
searchers = Searchers(hash_mb=16)
if sys.argv[2] == "off":
    searchers.use_network(False)
board = game.new_board()
searchers.for_board(board).best_move(board, Limit(depth=1))
print(json.dumps({"found": found, "imported": imported, "total": time.perf_counter() - began}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="makruk", help="the game searched (makruk)")
    parser.add_argument("--network", choices=["on", "off"], default="on",
                        help="search with the evaluation network (on) or without")  # fmt: skip
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kradan-numba-") as folder:
        environment = dict(os.environ, NUMBA_CACHE_DIR=folder)
        done = subprocess.run(
            [sys.executable, "-c", CHILD, args.game, args.network],
            env=environment, check=False, capture_output=True, text=True,
        )  # fmt: skip
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    report = json.loads(done.stdout.strip().splitlines()[-1])
    found = report["found"]
    rows = []
    for index, (depth, name, seconds) in enumerate(found):
        if depth != 0:
            continue
        # the nested compilations reported just before this one, one level down
        nested = 0.0
        for inner_depth, _, inner_seconds in reversed(found[:index]):
            if inner_depth == 0:
                break
            if inner_depth == 1:
                nested += inner_seconds
        rows.append([name, f"{seconds:.2f}", f"{seconds - nested:.2f}"])
    rows.sort(key=lambda row: -float(row[1]))
    compiled = sum(seconds for depth, _, seconds in found if depth == 0)
    rows.append(["all compilations", f"{compiled:.2f}", ""])
    rows.append(["import of the searcher (compilations on import included)",
                 f"{report['imported']:.2f}", ""])  # fmt: skip
    rows.append(["whole run to the first move", f"{report['total']:.2f}", ""])
    print_table(
        f"First search of {args.game} (network {args.network}), empty numba cache: "
        f"{len(found)} functions compiled",
        ["function", "seconds", "own"],
        rows,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
