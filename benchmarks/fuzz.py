"""Fuzz every way into kradan (issue 13 item 3) and print the table: target, engine, inputs,
inputs/s, crashes, hangs (over 1 s per input, twice running) and peak memory (RSS, MB; for
``uci`` and ``xboard`` the engine process's too).

    python benchmarks/fuzz.py                                  # 2,000 inputs, every target
    python benchmarks/fuzz.py --targets fen pgn --inputs 50000 --engines atheris
    python benchmarks/fuzz.py --list                           # the targets
    python benchmarks/fuzz.py --targets web --engines mutate --kinds line pgn-read --inputs 100000

The campaign of issue 13, 10^6 inputs per target (about 3 hours of one core; nice it). The
library's parsers get libFuzzer, the engines, the command line and the web app the mutator
(their work is in other processes or a server thread, out of libFuzzer's sight, and each input
costs milliseconds); ``--jobs 2`` runs two targets at a time, the slowest first:

    nice -n 19 python benchmarks/fuzz.py --campaign --inputs 1000000 --jobs 2 \\
        --log fuzz-campaign.jsonl --save fuzz-findings.json

Targets: ``fen``, ``alquerque`` (position texts), ``san``, ``uci-move``, ``thai-san`` (moves parsed
on real positions), ``pgn``, ``options`` (option strings and ``[VariantOptions]``),
``uci-engine`` and ``xboard-engine`` (command lines sent to a running ``kradan uci`` /
``kradan xboard``), ``cli`` (every ``kradan`` command's words and input file) and ``web``
(``kradan serve``'s API and socket). The ``fuzz/`` package holds them;
``tests/test_fuzz_short.py`` is the short pass CI runs.

``--kinds`` runs the ``web`` target once for each kind of request it names (``fuzz/web.py``
lists them: ``line``, ``pgn-read``, ``analysis``, ...; ``--list`` prints them too), each run
with that kind's seeds, grammar and inputs alone, and its own row (``web:line``): so that each
endpoint gets its count of inputs. It sets ``KRADAN_FUZZ_WEB_KINDS`` for the run.

Engines: ``mutate`` (random edits of the seeds), ``hypothesis`` (structured inputs from each
target's grammar) and ``atheris`` (coverage-guided libFuzzer; ``pip install atheris``). Each
target runs in a process of its own, so that its peak memory is its own and libFuzzer can end
it. A crash is any exception other than kradan's typed errors (or a dead or silent engine, a
500 answer); the first few are printed as they happen and ``--save`` keeps them with their inputs.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# this script is benchmarks/fuzz.py: its folder must not hide the fuzz package
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from benchmarks._table import print_table  # noqa: E402
from fuzz.base import Target  # noqa: E402
from fuzz.engines import ENGINES, Stats  # noqa: E402

#: the library targets, then the processes, the command line and the web app
TARGETS = ["fen", "alquerque", "san", "uci-move", "thai-san", "pgn", "options", "uci-engine",
           "xboard-engine", "cli", "web"]  # fmt: skip
#: ``--campaign``: each target with the engine that suits it, the slowest (per input) first
CAMPAIGN = [("cli", "mutate"), ("web", "mutate"), ("pgn", "atheris"), ("options", "atheris"),
            ("san", "atheris"), ("thai-san", "atheris"), ("xboard-engine", "mutate"),
            ("uci-engine", "mutate"), ("fen", "atheris"), ("uci-move", "atheris"),
            ("alquerque", "atheris")]  # fmt: skip


def worker(name: str, engine: str, inputs: int, seed: int, stats_path: Path) -> None:
    """Run one target in this process and leave its :class:`Stats` in ``stats_path``."""
    from fuzz import engines
    from fuzz.targets import all_targets

    def make_target() -> Target:
        return all_targets()[name]

    if engine == "atheris":
        engines.run_atheris(make_target, inputs, seed, stats_path)
        return
    from kradan import Board
    from kradan.alquerque import Board as AlquerqueBoard

    Board().perft(1)  # load the kernels before the clock runs
    AlquerqueBoard().perft(1)
    stats = engines.run(make_target(), engine, inputs, seed)
    stats.target = name
    stats_path.write_text(json.dumps(asdict(stats)), encoding="utf-8")


def run_isolated(name: str, engine: str, inputs: int, seed: int, kind: str = "") -> Stats:
    """One target in a child process (see :func:`worker`); ``kind``: the web target's kind
    of request that the run is kept to (none: every kind)."""
    from fuzz.web import KINDS_VARIABLE

    environment = {**os.environ}
    if kind:
        environment[KINDS_VARIABLE] = kind
    with tempfile.TemporaryDirectory() as folder:
        stats_path = Path(folder) / "stats.json"
        command = [sys.executable, __file__, "--worker", name, engine, str(inputs), str(seed),
                   str(stats_path)]  # fmt: skip
        log = Path(folder) / "libfuzzer.log"
        with open(log, "wb") as errors:
            # libFuzzer's own progress goes to the log; the worker's findings to our stderr
            stderr = errors if engine == "atheris" else None
            began = time.perf_counter()
            status = subprocess.run(command, stderr=stderr, env=environment).returncode
            seconds = time.perf_counter() - began
        if engine == "atheris":
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                if ": CRASH " in line or ": HANG " in line or "Traceback" in line:
                    print(line, file=sys.stderr)
        if kind:
            name = f"{name}:{kind}"
        if not stats_path.exists():
            stats = Stats(name, engine, seconds=seconds, crashes=1)
            stats.examples.append((f"CRASH the worker ended with status {status}", ""))
            return stats
        data = json.loads(stats_path.read_text(encoding="utf-8"))
        data["examples"] = [tuple(pair) for pair in data["examples"]]
        stats = Stats(**data)
        stats.target = name
        if status != 0 and stats.inputs < inputs:
            stats.crashes += 1
            stats.examples.append((f"CRASH the worker ended with status {status}", ""))
        return stats


def row(stats: Stats) -> list[str]:
    child = f"{stats.child_peak_mb:.0f}" if stats.child_peak_mb else "-"
    return [stats.target, stats.engine, f"{stats.inputs:,}", f"{stats.seconds:.1f}",
            f"{stats.rate:,.0f}", str(stats.crashes), str(stats.hangs), f"{stats.peak_mb:.0f}",
            child]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per target (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", nargs="+", default=TARGETS, metavar="TARGET")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=["mutate", "hypothesis"])
    parser.add_argument(
        "--campaign",
        action="store_true",
        help="each target with the engine that suits it (issue 13's run)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="targets run at a time (1)")
    parser.add_argument("--save", metavar="FILE.json", help="keep the findings with their inputs")
    parser.add_argument(
        "--log", metavar="FILE.jsonl", help="add each target's count to this file as it finishes"
    )
    parser.add_argument(
        "--kinds",
        nargs="+",
        default=[],
        metavar="KIND",
        help="run the web target once per kind of request named, each alone (see --list)",
    )
    parser.add_argument("--list", action="store_true", help="list the targets and web kinds")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        name, engine, inputs, seed, path = args.worker
        worker(name, engine, int(inputs), int(seed), Path(path))
        return
    from fuzz.web import KINDS

    if args.list:
        print("\n".join(TARGETS))
        print("web kinds (--kinds):", " ".join(KINDS))
        return
    names = args.targets
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        parser.error(f"unknown targets {unknown}; --list lists them")
    unknown = sorted(set(args.kinds) - set(KINDS))
    if unknown:
        parser.error(f"unknown web kinds {unknown}; --list lists them")
    if args.campaign:
        pairs = [(n, e) for n, e in CAMPAIGN if n in names]
    else:
        pairs = [(n, e) for n in names for e in args.engines]
    runs = [
        (n, e, kind)
        for n, e in pairs
        for kind in (args.kinds if n == "web" and args.kinds else [""])
    ]

    def one(run: tuple[str, str, str]) -> Stats:
        name, engine, kind = run
        stats = run_isolated(name, engine, args.inputs, args.seed, kind)
        print(" | ".join(row(stats)), flush=True)
        if args.log:
            with open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps(asdict(stats)) + "\n")
        return stats

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(one, runs))
    print_table(
        "Fuzzing (kradan's typed errors pass, but out of the web app; any other exception, a "
        "dead or silent engine, or a 500 is a crash; a hang is over 1 s per input)",
        ["target", "engine", "inputs", "seconds", "inputs/s", "crashes", "hangs", "peak MB",
         "engine MB"],
        [row(stats) for stats in results],
    )  # fmt: skip
    if args.save:
        findings = [asdict(s) for s in results if s.crashes or s.hangs]
        Path(args.save).write_text(json.dumps(findings, indent=1), encoding="utf-8")
    if any(stats.crashes or stats.hangs for stats in results):
        sys.exit(1)


if __name__ == "__main__":
    main()
