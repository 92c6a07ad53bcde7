"""Run a benchmark on an earlier revision and on the working tree in one run, alternately, and
print their tables merged: cells that agree once, cells that differ as ``before -> after``.

    python benchmarks/versus.py 9ce90c4 benchmarks/search.py
    python benchmarks/versus.py HEAD~3 benchmarks/perft.py --rounds 2

The earlier revision is checked out into a temporary git worktree and imported from there
(``PYTHONPATH``), each with its own numba cache; a first, unreported round of each compiles
or loads the kernels, and the rounds alternate which of the two runs first. Use it to show
that a change keeps the counts and the speed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_benchmark(tree: Path, script: str, arguments: list[str]) -> str:
    """The output of ``script`` (a path relative to the tree) run on ``tree``'s kradan."""
    environment = dict(os.environ, PYTHONPATH=str(tree / "src"))
    command = [sys.executable, str(tree / script), *arguments]
    done = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{command} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def merge(before: str, after: str) -> str:
    """``after``'s text with each table cell that differs from ``before``'s written as
    ``before -> after``; lines outside tables are ``after``'s."""
    old_lines, new_lines = before.splitlines(), after.splitlines()
    merged = []
    for index, line in enumerate(new_lines):
        old = old_lines[index] if index < len(old_lines) else ""
        is_row = line.lstrip().startswith("|") and not set(line) <= set("|-: ")
        if not is_row or not old.lstrip().startswith("|"):
            merged.append(line)
            continue
        cells = [
            new if new == was else f"{was} -> {new}"
            for was, new in zip(_cells(old), _cells(line), strict=False)
        ]
        merged.append("| " + " | ".join(cells) + " |")
    return "\n".join(merged)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revision", help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("script", help="the benchmark, e.g. benchmarks/search.py")
    parser.add_argument("--rounds", type=int, default=1, help="reported rounds (default 1)")
    known, rest = parser.parse_known_args()
    with tempfile.TemporaryDirectory(prefix="kradan-versus-") as folder:
        base = Path(folder) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base),
                        known.revision], check=True, capture_output=True)  # fmt: skip
        try:
            for tree in (base, ROOT):
                run_benchmark(tree, known.script, rest)  # compile or load the kernels
            for number in range(1, known.rounds + 1):
                # alternate which runs first, so that a drift of the machine favours neither
                if number % 2:
                    before = run_benchmark(base, known.script, rest)
                    after = run_benchmark(ROOT, known.script, rest)
                else:
                    after = run_benchmark(ROOT, known.script, rest)
                    before = run_benchmark(base, known.script, rest)
                first = known.revision if number % 2 else "the working tree"
                print(f"## round {number}: {known.revision} -> working tree ({first} ran first)\n")
                print(merge(before, after))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    main()
