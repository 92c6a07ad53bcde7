"""Run the mutation configurations that a change touches (issue 49: the habit that keeps it).

A change to the rules, the tables, storage or the seats should say how many of the mutants of
the modules it touched its tests kill. This script finds the configurations in ``mutation/``
whose modules the change touched (the files ``git diff --name-only BASE`` lists, or the paths
given), and with ``--run`` runs each in a scratch clone of the committed repository: ``cosmic-ray
init``, the annotations skipped, a seeded sample of ``--per-module`` mutants of the touched
modules only (the configuration's other modules are left out), then ``exec``, and prints the
kill rate of each, the line a change's note quotes.

    python mutation/changed.py --base main~3                 # which configurations, and why
    python mutation/changed.py --base main~3 --run --per-module 20
    python mutation/changed.py src/kradan/egtb/count.py --run

Without ``--run`` it only prints; it needs no cosmic-ray then.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPOSITORY = Path(__file__).resolve().parents[1]
CONFIGURATIONS = REPOSITORY / "mutation"


@dataclass(frozen=True)
class Touched:
    """A configuration, and the modules of it that the change touched."""

    config: str  # relative to the repository, e.g. "mutation/egtb.toml"
    modules: tuple[str, ...]


def modules_of(config: Path) -> list[str]:
    """The module paths a configuration mutates (relative to the repository)."""
    with open(config, "rb") as handle:
        paths = tomllib.load(handle)["cosmic-ray"]["module-path"]
    return [paths] if isinstance(paths, str) else list(paths)


def touched(changed: list[str], directory: Path = CONFIGURATIONS) -> list[Touched]:
    """The configurations of ``directory`` with a module among ``changed`` (paths relative to
    the repository), in the configurations' name order. A configuration that runs the same
    modules on more workers (``*-two-workers.toml``) is left out: its twin is listed."""
    wanted = {Path(path).as_posix() for path in changed}
    found = []
    for config in sorted(directory.glob("*.toml")):
        if config.stem.endswith("-two-workers"):
            continue
        hit = tuple(module for module in modules_of(config) if module in wanted)
        if hit:
            found.append(Touched(f"mutation/{config.name}", hit))
    return found


def changed_files(base: str) -> list[str]:
    """The files changed between ``base`` and the working tree."""
    listed = subprocess.run(["git", "diff", "--name-only", base], cwd=REPOSITORY, check=True,
                            capture_output=True, text=True).stdout  # fmt: skip
    return [line for line in listed.splitlines() if line]


def _kill_rate(session: Path) -> tuple[int, int]:
    """(killed, run) of a session: mutants run, less the ones skipped or that failed to run."""
    with sqlite3.connect(session) as db:
        rows = db.execute("SELECT test_outcome, worker_outcome FROM work_results").fetchall()
    ran = [str(outcome).upper() for outcome, worker in rows if str(worker).upper() == "NORMAL"]
    return sum(outcome == "KILLED" for outcome in ran), len(ran)


def run(item: Touched, scratch: Path, per_module: int, seed: int) -> tuple[int, int]:
    """Run ``item``'s configuration on its touched modules only, sampled; (killed, run)."""
    shutil.rmtree(scratch, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(scratch)], check=True)
    with open(scratch / item.config, "rb") as handle:
        settings = tomllib.load(handle)
    settings["cosmic-ray"]["module-path"] = list(item.modules)
    config = scratch / "touched.toml"
    config.write_text(_toml(settings))
    session = scratch / "touched.sqlite"
    env = dict(os.environ, PYTHONPATH=str(scratch / "src"),
               NUMBA_CACHE_DIR=str(scratch / ".numba"))  # fmt: skip
    steps = [
        ["cosmic-ray", "init", str(config), str(session)],
        [sys.executable, "mutation/skip_annotations.py", str(session)],
        [sys.executable, "mutation/sample.py", str(session), "--per-module", str(per_module),
         "--seed", str(seed)],
        ["cosmic-ray", "exec", str(config), str(session)],
    ]  # fmt: skip
    for step in steps:
        subprocess.run(step, cwd=scratch, env=env, check=True)
    return _kill_rate(session)


def _toml(settings: dict[str, Any]) -> str:
    """The configuration written back (strings, numbers and lists of strings are all it has)."""
    lines = []
    for section, values in _sections(settings):
        lines.append(f"[{section}]")
        for key, value in values.items():
            lines.append(f"{key} = {_value(value)}")
        lines.append("")
    return "\n".join(lines)


def _sections(settings: dict[str, Any], prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Each table of ``settings`` by its dotted name, with its plain values."""
    plain = {key: value for key, value in settings.items() if not isinstance(value, dict)}
    found: list[tuple[str, dict[str, Any]]] = [(prefix, plain)] if prefix else []
    for key, value in settings.items():
        if isinstance(value, dict):
            found += _sections(value, f"{prefix}.{key}" if prefix else key)
    return found


def _value(value: object) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help="changed files (instead of --base)")
    parser.add_argument("--base", help="a commit: the files changed since it")
    parser.add_argument("--run", action="store_true", help="run the configurations found")
    parser.add_argument("--per-module", type=int, default=20, metavar="N")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--scratch", default="/tmp/kradan-mutation-changed")
    args = parser.parse_args(argv)
    if bool(args.paths) == bool(args.base):
        parser.error("give either changed paths or --base REV")
    changed = args.paths or changed_files(args.base)
    found = touched(changed)
    if not found:
        print("no mutation configuration covers the changed files")
        return 0
    for item in found:
        print(f"{item.config}: {', '.join(item.modules)}")
    if not args.run:
        return 0
    for item in found:
        killed, ran = run(item, Path(args.scratch), args.per_module, args.seed)
        share = f"{100 * killed / ran:.1f}%" if ran else "none run"
        print(f"{item.config} ({', '.join(item.modules)}; a sample of {args.per_module} a "
              f"module, seed {args.seed}): {killed} of {ran} killed, {share}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
