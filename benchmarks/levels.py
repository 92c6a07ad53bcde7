"""The Elo table of kradan's levels: each level plays the one below it, and each plays an
anchor engine, and the table says how far above the lowest each level stands.

    python benchmarks/levels.py                                  # levels 1-20, 100 games a pair
    python benchmarks/levels.py --levels 1-8 --games 40 --tc 2+0.02
    python benchmarks/levels.py --anchor xboard:/usr/games/fairymax --pgn-dir levels/

A level's rating is the sum of the Elo differences measured between neighbours from the lowest
level up (the lowest is 0), and its margin the root of the summed squares of theirs (95%).
Against the anchor each level's own score gives a second, independent estimate. With
``--pgn-dir`` a run reads back the games an earlier one saved there and plays only the rest, so
the table can be built over several sittings (``--levels 1-14`` today, ``--levels 14-20``
tomorrow: the second table's ratings then count from level 14's). Below the table,
the lowest level against a random mover: the floor a beginner stands on. Every match is
``kradan match`` at the given time control, each opening played with both colours. The anchor
matches run from the highest level down: the informative ones first (the lowest levels lose
nearly every game to any engine). ``--saved-only`` plays nothing and prints the table of what
``--pgn-dir`` holds (a match with fewer games than asked says how many).
"""

from __future__ import annotations

import argparse
import io
import math
import shutil
import time
from pathlib import Path

from _table import print_table

from kradan import pgn
from kradan.pgn.offsets import scan_offsets
from kradan.runners.match import GameRecord, MatchResult, TimeControl, run_match, tasks

FAIRY_MAX = "/usr/games/fairymax"


def level_range(text: str) -> list[int]:
    """``"1-20"`` or ``"3"``: the levels, at least two for a ladder."""
    low, _, high = text.partition("-")
    first, last = int(low), int(high or low)
    if not 1 <= first <= last <= 20:
        raise argparse.ArgumentTypeError(f"levels {text!r}: a range within 1-20")
    return list(range(first, last + 1))


def play(first: str, second: str, args: argparse.Namespace, label: str) -> MatchResult:
    """``args.games`` games of ``first`` against ``second``, saved under ``--pgn-dir``. Games
    already saved there (whole pairs, in round order) are read back rather than played again,
    so a table can be built over several runs."""
    started = time.perf_counter()
    path = args.pgn_dir / f"{label}.pgn" if args.pgn_dir else None
    done = saved_games(path, args.games) if path else []
    if args.saved_only:
        result = MatchResult(done)
        if done:
            print(f"{label}: {_cell(result)} ({100 * result.score:.1f}%), {len(done)} games saved")
        return result
    games = tasks(first, second, args.variant, args.games - len(done),
                  TimeControl.parse(args.tc), skip_openings=len(done) // 2)  # fmt: skip
    handle = None
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("w", encoding="utf-8")
        handle.writelines(record.pgn + "\n" for record in done)
    try:
        result = run_match(
            games, args.concurrency, (lambda r: handle.write(r.pgn + "\n")) if handle else None
        )
    finally:
        if handle is not None:
            handle.close()
    result.games[:0] = done
    seconds = time.perf_counter() - started
    again = f", {len(done)} read back" if done else ""
    print(f"{label}: {_cell(result)} ({100 * result.score:.1f}%), {seconds:.0f} s{again}",
          flush=True)  # fmt: skip
    return result


def saved_games(path: Path, limit: int) -> list[GameRecord]:
    """The whole pairs of games (at most ``limit``) a former run saved at ``path``: each game's
    round says which player came first (odd rounds: the first player has White)."""
    if not path.exists():
        return []
    data = path.read_bytes()
    offsets = list(scan_offsets(io.BytesIO(data)))  # the file read once
    records = []
    for start, end in zip(offsets, [*offsets[1:], len(data)][: len(offsets)], strict=True):
        text = data[start:end].decode("utf-8")
        headers = pgn.read_headers(io.StringIO(text))
        if headers is None or headers.get("Result", "*") == "*":
            break
        text_round = headers.get("Round", "")
        records.append(GameRecord(headers.get("White", "?"), headers.get("Black", "?"),
                                  headers["Result"], headers.get("Termination", ""), [], [],
                                  pgn=text.rstrip("\n") + "\n",
                                  first_is_white=not text_round.isdigit()
                                  or int(text_round) % 2 == 1))  # fmt: skip
    return records[: min(len(records), limit) // 2 * 2]


def _cell(result: MatchResult | None) -> str:
    if result is None or not result.games:
        return "-"
    elo, margin = result.elo()
    return f"+{result.wins} ={result.draws} -{result.losses}: {elo:+.0f} +/- {margin:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=level_range, default=level_range("1-20"))
    parser.add_argument("--games", type=int, default=100, help="games a match (default 100)")
    parser.add_argument("--tc", default="10+0.1", help="time control (default 10+0.1)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--variant", default="makruk")
    parser.add_argument("--anchor", default=None,
                        help=f"the engine every level also plays (default xboard:{FAIRY_MAX} "
                             "when it is installed; 'none': no anchor)")  # fmt: skip
    parser.add_argument("--pgn-dir", type=Path, default=None, help="save each match's games here")
    parser.add_argument("--saved-only", action="store_true",
                        help="play nothing: the table of the games --pgn-dir holds")  # fmt: skip
    args = parser.parse_args()
    anchor = args.anchor
    if anchor is None:
        anchor = f"xboard:{FAIRY_MAX}" if shutil.which(FAIRY_MAX) else "none"
    started = time.perf_counter()

    below: dict[int, MatchResult] = {}
    against_anchor: dict[int, MatchResult] = {}
    for level in args.levels[1:]:
        below[level] = play(f"kradan:level={level}", f"kradan:level={level - 1}", args,
                            f"level{level}-vs-level{level - 1}")  # fmt: skip
    if anchor != "none":
        for level in reversed(args.levels):
            against_anchor[level] = play(
                f"kradan:level={level}", anchor, args, f"level{level}-vs-anchor"
            )
    floor = play(
        f"kradan:level={args.levels[0]}", "random", args, f"level{args.levels[0]}-vs-random"
    )

    rows = []
    rating, variance, known = 0.0, 0.0, True
    for level in args.levels:
        step = below.get(level)
        if step is not None and step.games:
            elo, margin = step.elo()
            rating += elo
            variance += margin**2
        elif level != args.levels[0]:
            known = False  # a step not measured: no rating from here up
        rows.append([
            str(level), f"{rating:+.0f}" if known else "?",
            f"{math.sqrt(variance):.0f}" if known else "?", _cell(step),
            _cell(against_anchor.get(level)),
        ])  # fmt: skip
    print_table(
        f"kradan's levels in {args.variant} ({args.games} games a match at {args.tc}, "
        f"concurrency {args.concurrency}; anchor {anchor}; "
        f"{time.perf_counter() - started:.0f} s in all)",
        ["level", f"Elo over level {args.levels[0]}", "+/-", "against the level below",
         "against the anchor"],
        rows,
    )  # fmt: skip
    print(f"\nlevel {args.levels[0]} against a random mover: {_cell(floor)}")


if __name__ == "__main__":
    main()
