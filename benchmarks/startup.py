"""Start-up times: how long the first things a user types take, with numba's cache warm, on
this tree and on an earlier revision in one run (alternately, medians of ``--runs`` runs).

    python benchmarks/startup.py                 # this tree against the revision named below
    python benchmarks/startup.py --against c597066 --runs 10

The last row is numba's own floor: a fresh process that imports numba and calls one cached
``@njit`` function. Any command that runs a compiled kernel (``perft``) pays it; kradan's own
part is the difference.

No release is tagged yet, so ``--against`` names the revision to compare with (default: the
tree before issue 43's start-up work). Figures are wall-clock seconds of whole processes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _table import print_table

ROOT = Path(__file__).resolve().parent.parent
#: the revision compared with when none is named: main before issue 43's start-up work
DEFAULT_AGAINST = "c597066"

COMMANDS = [
    ("python -c 'import kradan'", ["-c", "import kradan"]),
    ("kradan --version", ["-m", "kradan", "--version"]),
    ("kradan --help", ["-m", "kradan", "--help"]),
    ("kradan perft makruk 1", ["-m", "kradan", "perft", "makruk", "1"]),
    ("from kradan.engine import Searcher", ["-c", "from kradan.engine import Searcher"]),
]


def seconds(tree: Path, arguments: list[str]) -> float:
    """Wall time of one ``python ARGUMENTS`` importing ``tree``'s kradan."""
    environment = dict(os.environ, PYTHONPATH=str(tree / "src"))
    start = time.perf_counter()
    subprocess.run([sys.executable, *arguments], env=environment, check=True,
                   capture_output=True)  # fmt: skip
    return time.perf_counter() - start


#: numba's floor: import it and call one cached function (the file needs a place for its cache)
NUMBA_FLOOR = """import numba


@numba.njit(cache=True)
def one(x):
    return x + 1


one(1)
"""


def measure(
    trees: list[Path], runs: int, commands: list[tuple[str, list[str]]]
) -> list[list[float]]:
    """Median seconds per command and tree, the trees taking turns run by run."""
    for tree in trees:  # fill each tree's numba cache and the file system's
        for _, arguments in commands:
            seconds(tree, arguments)
    table = []
    for _, arguments in commands:
        samples: list[list[float]] = [[] for _ in trees]
        for run in range(runs):
            order = list(enumerate(trees))
            for index, tree in order if run % 2 == 0 else reversed(order):
                samples[index].append(seconds(tree, arguments))
        table.append([statistics.median(found) for found in samples])
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default=DEFAULT_AGAINST, help="an earlier revision")
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (10)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder) / "base"
        floor = Path(folder) / "numba_floor.py"
        floor.write_text(NUMBA_FLOOR)
        commands = [*COMMANDS, ("numba alone: one cached @njit call", [str(floor)])]
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
                        args.against], check=True, capture_output=True)  # fmt: skip
        try:
            figures = measure([base, ROOT], args.runs, commands)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False, capture_output=True)  # fmt: skip
    rows = [
        [name, f"{before:.3f}", f"{after:.3f}", f"{before / after:.2f}x"]
        for (name, _), (before, after) in zip(commands, figures, strict=True)
    ]
    print_table(
        f"Start-up, warm cache, median of {args.runs} runs (seconds)",
        ["command", args.against, "this tree", "faster by"],
        rows,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
