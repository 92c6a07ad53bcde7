"""Streaming a big PGN file: games/s, MB/s and peak memory for a 10 MB and a 100 MB file of
Makruk games with garbage between them, read game after game with ``pgn.read_game``.

    python benchmarks/pgn_stream.py [--mb 10 100] [--garbage-every 500] [--keep DIR]

The files are made from a pool of random legal games (seeded), each written with its own
``[Round]``, and every ``--garbage-every`` games one piece of garbage in turn: stray text,
binary bytes that are not UTF-8, a half game, broken tags, an unclosed comment, an unclosed
variation, a 2 MB line. Each file is then read in a fresh process (so that its peak resident
memory is its own): every game tree built, every move checked. The reading must find every good
game, and each piece of garbage as one broken game (the run fails otherwise). Peak memory that
does not grow from 10 MB to 100 MB shows that reading streams; a last row reads the whole
largest file into one string, for contrast.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _table import print_table

GARBAGE: list[tuple[str, bytes]] = [
    ("stray text", b"this line is not PGN, nor the next\nsee you\n\n"),
    ("binary bytes", bytes(b for b in range(256) if b not in b"\r\n") + b"\xfe\xc3\x28\n\n"),
    ("half game", b'[Event "half"]\n[Variant "makruk"]\n\n1. e4 d5 2. ex'),
    ("broken tags", b'[Event "broken\n[Site ?]\n\n1. e4 *\n\n'),
    ("unclosed comment", b'[Event "comment"]\n\n1. e4 {never closed\n'),
    ("unclosed variation", b'[Event "variation"]\n\n1. e4 (1. d4 d5\n\n'),
    ("2 MB line", b"x" * 2_000_000 + b"\n\n"),
]


def game_pool(count: int, plies: int, seed: int) -> list[bytes]:
    """``count`` random legal Makruk games as PGN, with ``{round}`` where the round goes."""
    from kradan import Board, pgn

    rng = random.Random(seed)
    texts = []
    for _ in range(count):
        board = Board()
        for _ in range(rng.randint(plies // 2, plies)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        text = pgn.game_text(board, {"Round": "@ROUND@"}) + "\n"
        texts.append(text.replace("{", "{{").replace("}", "}}").replace("@ROUND@", "{round}"))
    return [text.encode() for text in texts]


def write_file(path: Path, megabytes: float, pool: list[bytes], every: int) -> tuple[int, int]:
    """Write about ``megabytes`` MB of games from ``pool`` with garbage every ``every`` games;
    return the numbers of good games and of garbage pieces written."""
    target = int(megabytes * 1_000_000)
    size = games = pieces = 0
    with path.open("wb") as out:
        while size < target:
            text = pool[games % len(pool)].decode().format(round=games + 1).encode()
            out.write(text)
            size += len(text)
            games += 1
            if every and games % every == 0:
                garbage = GARBAGE[pieces % len(GARBAGE)][1]
                out.write(garbage)
                size += len(garbage)
                pieces += 1
    return games, pieces


def rss_mb() -> float:
    """This process's resident memory now, from /proc (Linux)."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def read_file(path: str, whole: bool) -> dict[str, float]:
    """Read ``path`` game by game (or whole into one string) in this process; what it cost."""
    from kradan import pgn

    pgn.read_game(io.StringIO("1. e4 *"))  # load the compiled kernel first
    start_rss = rss_mb()
    start = time.perf_counter()
    games = broken = moves = 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        if whole:
            text = handle.read()
            del text
        else:
            while (game := pgn.read_game(handle)) is not None:
                games += 1
                broken += bool(game.errors)
                moves += len(game.mainline_moves())
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"games": games, "broken": broken, "moves": moves, "seconds": seconds,
            "start_rss": start_rss, "peak_rss": peak}  # fmt: skip


def measure(path: Path, whole: bool = False) -> dict[str, float]:
    """:func:`read_file` in a fresh process, so that its peak memory is its own."""
    command = [sys.executable, __file__, "--read", str(path)] + (["--whole"] if whole else [])
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, nargs="+", default=[10, 100], help="file sizes")
    parser.add_argument("--garbage-every", type=int, default=500, help="0: no garbage")
    parser.add_argument("--pool", type=int, default=300, help="distinct games")
    parser.add_argument("--plies", type=int, default=100, help="the longest game")
    parser.add_argument("--keep", metavar="DIR", help="write the files here and keep them")
    parser.add_argument("--read", help=argparse.SUPPRESS)
    parser.add_argument("--whole", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        print(json.dumps(read_file(args.read, args.whole)))
        return 0
    folder = Path(args.keep or tempfile.mkdtemp(prefix="pgn_stream_"))
    folder.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    pool = game_pool(args.pool, args.plies, seed=1)
    rows = []
    largest = None
    try:
        for megabytes in args.mb:
            path = folder / f"games-{megabytes:g}mb.pgn"
            good, pieces = write_file(path, megabytes, pool, args.garbage_every)
            print(f"{path}: {good:,} games and {pieces} pieces of garbage "
                  f"({time.perf_counter() - start:.0f} s so far)", flush=True)  # fmt: skip
            result = measure(path)
            found_good = result["games"] - result["broken"]
            if found_good != good or result["broken"] != pieces:
                print(f"FAIL: {found_good:,} good games read of {good:,}, {result['broken']:,} "
                      f"broken for {pieces} pieces of garbage")  # fmt: skip
                return 1
            size = path.stat().st_size / 1e6
            rows.append([f"{size:,.1f}", f"{result['games']:,.0f}", f"{result['broken']:,.0f}",
                         f"{result['moves']:,.0f}", f"{result['seconds']:,.1f}",
                         f"{result['games'] / result['seconds']:,.0f}",
                         f"{size / result['seconds']:,.2f}", f"{result['start_rss']:,.0f}",
                         f"{result['peak_rss']:,.0f}"])  # fmt: skip
            largest = path
        if largest is not None:
            whole = measure(largest, whole=True)
            size = largest.stat().st_size / 1e6
            rows.append([f"{size:,.1f}", "(f.read())", "", "", f"{whole['seconds']:,.1f}", "",
                         f"{size / whole['seconds']:,.0f}", f"{whole['start_rss']:,.0f}",
                         f"{whole['peak_rss']:,.0f}"])  # fmt: skip
    finally:
        if not args.keep:
            for path in folder.glob("games-*.pgn"):
                path.unlink()
            folder.rmdir()
    print_table(
        f"Streaming PGN files with garbage every {args.garbage_every} games "
        f"(read_game, every move checked; RSS in MiB)",
        ["MB", "games", "broken", "moves", "seconds", "games/s", "MB/s", "RSS at start",
         "peak RSS"],
        rows,
    )  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
