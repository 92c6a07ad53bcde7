"""Engine discipline over a long fast match (issue 13 item 4): no time losses, no illegal moves,
no hung or crashed engine, and memory bounded by ``Hash`` over the whole run.

    python benchmarks/engine_discipline.py --games 1000 --opponent kradan --tc 1+0.01
    python benchmarks/engine_discipline.py --games 200 --opponent fairymax --tc 1+0.01
    python benchmarks/engine_discipline.py --games 10                  # a quick check

It runs ``kradan match`` as a child process (saving every game to a PGN file), samples the
resident memory of that process and of every process below it (match workers, external
engines) from ``/proc`` while it runs, and afterwards counts the games' terminations in the PGN.
A watchdog ends the match when no game has finished for ``--hang-seconds``: that counts as a
hung process. kradan's engine plays in the match's worker processes (``--kradan inprocess``,
what ``kradan match kradan ...`` does) or as a ``kradan uci`` child per game (``--kradan uci``).
Fairy-Max is Debian's ``fairymax`` (``apt-get install fairymax``).

The exit status is 1 when a game was lost by kradan's time forfeit, illegal move or failure,
when any engine hung, or when the match did not finish, so that the script can gate a release.
The opponent's failures are shown but do not fail the run.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from _table import print_table

FAIRYMAX_PATHS = ("fairymax", "/usr/games/fairymax")
#: the kinds of process below the match, by what their command line says
KINDS = ("match runner", "match worker", "kradan uci", "fairymax", "other")


@dataclass
class Sample:
    """One process's memory (kB) and the number of finished games when it was read."""

    games: int
    rss_kb: int
    hwm_kb: int


@dataclass
class Tracked:
    """One process seen below the match, with its memory over time."""

    pid: int
    kind: str
    samples: list[Sample] = field(default_factory=list)


def read_status(pid: int) -> tuple[int, int] | None:
    """``(VmRSS, VmHWM)`` of ``pid`` in kB, or ``None`` once it has gone."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    values: dict[str, str] = dict(re.findall(r"^(VmRSS|VmHWM):\s+(\d+) kB", text, re.MULTILINE))
    if "VmRSS" not in values:
        return None  # a zombie
    return int(values["VmRSS"]), int(values.get("VmHWM", values["VmRSS"]))


def descendants(root: int) -> set[int]:
    """``root`` and every live process below it (parents read from ``/proc/PID/stat``)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # the command name in parentheses may hold spaces: the parent is after the last ")"
        parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found = {root}
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in found and pid not in found:
                found.add(pid)
                changed = True
    return found


def kind_of(pid: int, root: int) -> str:
    """What process ``pid`` is, from its command line."""
    if pid == root:
        return "match runner"
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return "other"
    line = " ".join(words)
    if "fairymax" in os.path.basename(words[0]):
        return "fairymax"
    if "kradan.cli.main uci" in line or line.rstrip().endswith("kradan uci"):
        return "kradan uci"
    if "spawn_main" in line or "--multiprocessing-fork" in line:
        return "match worker"
    return "other"  # the multiprocessing resource tracker and the like


def games_in(pgn: Path) -> int:
    """How many games the match has written so far."""
    try:
        with pgn.open("rb") as handle:
            return sum(1 for line in handle if line.startswith(b"[Result "))
    except OSError:
        return 0


@dataclass
class Game:
    """What the PGN says about one game."""

    white: str
    black: str
    result: str
    termination: str


def read_games(pgn: Path) -> list[Game]:
    """The games' players, results and terminations (their headers only)."""
    games: list[Game] = []
    headers: dict[str, str] = {}
    for line in pgn.read_text(encoding="utf-8", errors="replace").splitlines():
        found = re.match(r'\[(\w+) "(.*)"\]\s*$', line)
        if found:
            if found.group(1) == "Event" and headers:
                games.append(_game(headers))
                headers = {}
            headers[found.group(1)] = found.group(2)
    if headers:
        games.append(_game(headers))
    return games


def _game(headers: dict[str, str]) -> Game:
    return Game(
        headers.get("White", "?"),
        headers.get("Black", "?"),
        headers.get("Result", "*"),
        headers.get("Termination", ""),
    )


def category(termination: str) -> str:
    """A game's ending as the discipline counts it."""
    if termination == "time forfeit":
        return "time loss"
    if termination.startswith("illegal move") or " played '" in termination:
        return "illegal move"
    if " failed: " in termination:
        return "hang" if "did not answer in time" in termination else "crash"
    return "fair"


def loser(game: Game) -> str:
    """The name of the side that lost ``game`` (``""`` for a draw)."""
    return {"1-0": game.black, "0-1": game.white}.get(game.result, "")


def opponent_spec(name: str, fairymax: str | None) -> str:
    if name == "kradan":
        return ""
    path = fairymax or next((p for p in map(shutil.which, FAIRYMAX_PATHS) if p), None)
    if path is None:
        raise SystemExit("fairymax is not installed: apt-get install fairymax")
    return f"xboard:{path}"


def kradan_spec(mode: str, hash_mb: int) -> str:
    if mode == "uci":  # the protocol engine keeps its default Hash, which the table names
        return f"uci:{sys.executable} -m kradan.cli.main uci"
    return f"kradan:hash={hash_mb}"


@dataclass
class Run:
    """A finished match: its processes, the games written, how it ended."""

    tracked: dict[int, Tracked]
    games: int
    seconds: float
    status: int | None
    hung: bool


def run_match(command: list[str], pgn: Path, log: Path, hang_seconds: float) -> Run:
    """Run ``command`` (a ``kradan match``), sampling memory until it ends or hangs."""
    tracked: dict[int, Tracked] = {}
    started = time.monotonic()
    with log.open("wb") as errors:
        process = subprocess.Popen(
            command, stdout=errors, stderr=errors, start_new_session=True
        )  # its own process group, so that a hang can be ended whole
        last_count, last_progress, hung = 0, time.monotonic(), False
        while process.poll() is None:
            count = games_in(pgn)
            if count != last_count:
                last_count, last_progress = count, time.monotonic()
            for pid in descendants(process.pid):
                memory = read_status(pid)
                if memory is None:
                    continue
                if pid not in tracked:
                    tracked[pid] = Tracked(pid, kind_of(pid, process.pid))
                tracked[pid].samples.append(Sample(count, *memory))
            if time.monotonic() - last_progress > hang_seconds:
                hung = True
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
                break
            time.sleep(0.2)
    exit_status = None if hung else process.returncode
    return Run(tracked, games_in(pgn), time.monotonic() - started, exit_status, hung)


def memory_rows(run: Run, args: argparse.Namespace) -> list[list[str]]:
    """Per kind of process: how many, peak RSS, RSS early in the run and at its end."""
    inprocess = args.kradan == "inprocess"
    engines = "kradan's engine" + (" x2" if args.opponent == "kradan" else "")
    players = engines if inprocess else "clients of the engines"
    if args.opponent == "fairymax" and inprocess:
        players += ", a Fairy-Max client"
    holds = {
        "match runner": players if args.concurrency == 1 else "the match (games run in workers)",
        "match worker": players,
        "kradan uci": "one kradan engine",
        "fairymax": "one Fairy-Max engine",
        "other": "(the multiprocessing resource tracker)",
    }
    hash_mb = args.hash if inprocess else 16  # 'kradan uci' keeps its default Hash
    holds_kradan = {"kradan uci"}
    if inprocess:
        holds_kradan |= {"match worker"} | ({"match runner"} if args.concurrency == 1 else set())
    expected = args.games
    early_games = max(1, expected // 10)
    rows = []
    for kind in KINDS:
        processes = [t for t in run.tracked.values() if t.kind == kind and t.samples]
        if not processes:
            continue
        peak = max(s.hwm_kb for t in processes for s in t.samples)
        early = [  # each process's first reading once that many games have finished
            next(s.rss_kb for s in t.samples if s.games >= early_games)
            for t in processes
            if t.samples[-1].games >= early_games
        ]
        last = [t.samples[-1].rss_kb for t in processes]
        rows.append(
            [
                kind,
                holds[kind],
                str(len(processes)),
                f"{peak / 1024:.0f}",
                f"{max(early) / 1024:.0f}" if early else "-",
                f"{max(last) / 1024:.0f}",
                f"{hash_mb} each" if kind in holds_kradan else "-",
            ]
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--opponent", choices=("kradan", "fairymax"), default="kradan")
    parser.add_argument("--tc", default="1+0.01", help="time control SECONDS[+INC] (1+0.01)")
    parser.add_argument("--concurrency", type=int, default=1, help="games played at once")
    parser.add_argument("--hash", type=int, default=16, help="kradan's Hash in MB (16)")
    parser.add_argument("--kradan", choices=("inprocess", "uci"), default="inprocess",
                        help="kradan in the match's workers, or as 'kradan uci'")  # fmt: skip
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--fairymax", help="the Fairy-Max binary (found on PATH or /usr/games)")
    parser.add_argument("--hang-seconds", type=float, default=120.0,
                        help="no game finished for this long: a hang (120)")  # fmt: skip
    parser.add_argument("--pgn", help="keep the games in this PGN file")
    args = parser.parse_args()

    if args.kradan == "uci" and args.hash != 16:
        parser.error("--hash sets the in-process engine's table; 'kradan uci' keeps 16 MB")
    first = kradan_spec(args.kradan, args.hash)
    second = opponent_spec(args.opponent, args.fairymax) or first
    workdir = Path(tempfile.mkdtemp(prefix="kradan-discipline-"))
    pgn = Path(args.pgn) if args.pgn else workdir / "games.pgn"
    log = workdir / "match.log"
    command = [sys.executable, "-m", "kradan.cli.main", "match", first, second,
               "--variant", args.variant, "--games", str(args.games), "--tc", args.tc,
               "--concurrency", str(args.concurrency), "--pgn", str(pgn)]  # fmt: skip
    print("$ " + " ".join(command[1:]), flush=True)
    run = run_match(command, pgn, log, args.hang_seconds)
    games = read_games(pgn) if pgn.exists() else []

    results = Counter(game.result for game in games)
    terminations = Counter(game.termination for game in games)
    failures = Counter((loser(game), category(game.termination)) for game in games)
    players = sorted({game.white for game in games} | {game.black for game in games})
    hung = " (and the match hung: killed)" if run.hung else ""
    print_table(
        f"Engine discipline: {args.variant}, {args.tc}, kradan vs {args.opponent}, "
        f"concurrency {args.concurrency}, {run.seconds:.0f} s{hung}",
        ["games", "1-0", "0-1", "draws", "match exit status"],
        [[f"{len(games)}/{args.games}", str(results["1-0"]), str(results["0-1"]),
          str(results["1/2-1/2"]), "killed" if run.hung else str(run.status)]],
    )  # fmt: skip
    print_table(
        "Games lost by a failure of discipline",
        ["player", "time losses", "illegal moves", "crashes", "hangs"],
        [[name] + [str(failures[name, kind]) for kind in ("time loss", "illegal move", "crash",
                                                         "hang")] for name in players],
    )  # fmt: skip
    print_table(
        "Terminations",
        ["termination", "games"],
        [[name or "(none)", str(count)] for name, count in terminations.most_common()],
    )
    rows = memory_rows(run, args)
    if rows:
        print_table(
            f"Memory (resident, MB; 'early' after {max(1, args.games // 10)} games)",
            ["process", "holds", "processes", "peak RSS", "early RSS", "last RSS", "Hash MB"],
            rows,
        )
    print(f"\nPGN: {pgn}\nmatch log: {log}")
    kradan = [name for name in players if name.startswith("kradan")]
    failed = sum(count for (name, kind), count in failures.items() if kind != "fair" and (
        name in kradan or kind == "hang"))  # fmt: skip
    complete = run.status == 0 and not run.hung and len(games) == args.games
    return 0 if complete and not failed else 1


if __name__ == "__main__":
    sys.exit(main())
