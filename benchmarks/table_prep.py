"""What the endgame tables cost a move (issue 44): the preparation before the search, the time
to the first completed depth, and over UCI whether any answer comes from less than a completed
depth-1 search.

    python benchmarks/table_prep.py --dir DIR                 # this tree
    python benchmarks/table_prep.py --dir DIR --before TREE   # and another kradan tree

``DIR`` holds the 4-piece tables (``kradan egtb generate --pieces 4 --dir DIR``); ``TREE`` is
the root of another kradan source tree (``git archive REV src | tar -x -C TREE``), measured
the same way in the same run.

Part 1: each position in a process of its own (numba's cache warm, the searcher made and its
kernels loaded first), two ``Searcher.best_move(board, Limit(time=...))`` calls one after the
other. "prep" is the clock time from the call to the first root search (the tables' work
included: the search's clock and the table work are one clock here); "depth 1" to the end of
the first root search, or to the tables' answer; "read" the table files read during the call.

Part 2: one ``kradan uci`` process per tree and move time (the compiled search called once
first) plays itself from random table positions (3 to 6 pieces, a few pawns) for up to 10
plies each, ``position fen P moves ...`` + ``go movetime N`` a move, no ``isready`` between
them, as a match runner plays, until ``--moves`` answers ("slowest": ``go`` to ``bestmove``).
An answer is "blind" when its last ``info`` is depth 1 with fewer nodes than the position has
moves (a search cut off before its first depth was complete); "tables" counts answers from the
tables (``nodes 0``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _table import print_table

ROOT = Path(__file__).resolve().parent.parent

#: (name, FEN): the position of issue 44 (6 pieces: a6a2 mates in 2), and others with tables
POSITIONS = [
    ("issue 44: KRNMM v K (a6a2#2)", "8/8/r5p1/7p/5kn1/7K/8/8 b - - 6 93"),
    ("KRvKN, in the tables", "8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1"),
    ("KRvK, in the tables", "8/8/3k4/8/8/3K4/8/R7 w - - 0 1"),
    ("KSM v KP, 5 pieces", "8/2k5/8/3p4/8/2SK4/2M5/8 w - - 0 50"),
]
#: part 2's games are at most this many moves (plies) long
PLIES = 10
#: the material of part 2's positions: White's pieces, Black's (kings besides)
MATERIALS = [
    ("RN", "P"), ("R", "NP"), ("SM", "P"), ("RP", "S"), ("R", "N"), ("RS", ""), ("NM", "M"),
    ("RP", "R"), ("MM", "P"), ("R", "RP"), ("RP", "NP"), ("SS", "P"), ("R", "M"), ("SN", "P"),
]  # fmt: skip


def environment(tree: Path, directory: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(tree / "src"), KRADAN_EGTB_DIR=str(directory))


def child(fen: str, seconds: float) -> None:
    """Part 1 in this process (run with the measured tree's ``kradan``): prints JSON."""
    import kradan
    import kradan.egtb.tables
    from kradan.engine.chess import Searcher
    from kradan.engine.types import Limit

    reads = [0]
    read_table = kradan.egtb.tables.read_table

    def counted(*args: Any) -> Any:
        reads[0] += 1
        return read_table(*args)

    kradan.egtb.tables.read_table = counted  # type: ignore[assignment]
    searcher = Searcher()
    searcher.best_move(kradan.Board(), Limit(depth=1))  # load the kernels
    adapter = searcher.adapter
    root_search = adapter.search_root
    marks: list[float] = []

    def timed(*args: Any, **kwargs: Any) -> int:
        if not marks:
            marks.append(time.perf_counter())
        score = root_search(*args, **kwargs)
        if len(marks) == 1:
            marks.append(time.perf_counter())
        return score

    adapter.search_root = timed  # type: ignore[method-assign]
    board = kradan.Board(fen)
    calls = []
    for _ in range(2):
        marks.clear()
        before = reads[0]
        began = time.perf_counter()
        result = searcher.best_move(board, Limit(time=seconds))
        ended = time.perf_counter()
        info = result.info
        first = result.history[0] if result.history else None
        calls.append({
            "prep": (marks[0] if marks else ended) - began,
            "depth1": (marks[1] if len(marks) > 1 else ended) - began,
            "nodes1": first.nodes if first else 0,
            "depth": info.depth if info else 0,
            "tables": bool(info is not None and info.nodes == 0),
            "mate": bool(info is not None and info.score.mate is not None),
            "move": result.move.uci() if result.move else "-",
            "read": reads[0] - before,
        })  # fmt: skip
    print(json.dumps(calls))


def part_one(tree: Path, directory: Path, seconds: float) -> list[list[str]]:
    rows = []
    for name, fen in POSITIONS:
        found = subprocess.run(
            [sys.executable, __file__, "--child", fen, "--time", str(seconds)],
            env=environment(tree, directory), check=True, capture_output=True, text=True,
        )  # fmt: skip
        calls = json.loads(found.stdout.strip().splitlines()[-1])
        for number, call in enumerate(calls, start=1):
            rows.append([
                tree.name, name, str(number), f"{call['prep'] * 1000:.2f}",
                f"{call['depth1'] * 1000:.2f}", str(call["nodes1"]), str(call["depth"]),
                "tables" if call["tables"] else "search", "yes" if call["mate"] else "no",
                call["move"], str(call["read"]),
            ])  # fmt: skip
    return rows


def random_positions(count: int, seed: int) -> list[str]:
    """Legal positions of :data:`MATERIALS` (pawns on their own halves), White or Black to
    move, neither side in check, the game not over."""
    import kradan

    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        white, black = rng.choice(MATERIALS)
        if rng.random() < 0.5:
            white, black = black, white
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board = ["."] * 64
        pieces = ["K", "k", *white, *(letter.lower() for letter in black)]
        for piece, square in zip(pieces, squares, strict=True):
            board[square] = piece
        rows = ["".join(board[rank * 8 : rank * 8 + 8]) for rank in range(7, -1, -1)]
        placement = "/".join(rows)
        for digit in range(8, 0, -1):
            placement = placement.replace("." * digit, str(digit))
        fen = f"{placement} {rng.choice('wb')} - - 0 40"
        try:
            position = kradan.Board(fen)
        except ValueError:
            continue
        if position.is_valid() and not position.is_check() and position.outcome() is None:
            found.append(position.fen())
    return found


def part_two(tree: Path, directory: Path, fens: list[str], moves: int, movetime: int) -> list[str]:
    """Games of the engine against itself from ``fens`` (each for at most :data:`PLIES` moves,
    a new one when it ends), one ``go`` a move, until ``moves`` answers."""
    import kradan

    process = subprocess.Popen(
        [sys.executable, "-m", "kradan", "uci"], env=environment(tree, directory),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )  # fmt: skip
    assert process.stdin is not None and process.stdout is not None

    def send(line: str) -> None:
        assert process.stdin is not None
        process.stdin.write(line + "\n")
        process.stdin.flush()

    def until(prefix: str) -> list[str]:
        assert process.stdout is not None
        lines = []
        for line in process.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError(f"the engine ended before {prefix!r}")

    send("uci")
    until("uciok")
    send("position startpos")
    send("go depth 1")  # the first call of the compiled search, before the clock matters
    until("bestmove")
    send("isready")
    until("readyok")
    depths, blind, tables, slowest, mates = [], 0, 0, 0.0, 0
    starts = iter(fens)
    board: Any = None
    played: list[str] = []
    while len(depths) < moves:
        if board is None or len(played) >= PLIES or board.outcome() is not None:
            start = next(starts)
            board, played = kradan.Board(start), []
        send(f"position fen {start}" + (" moves " + " ".join(played) if played else ""))
        began = time.perf_counter()
        send(f"go movetime {movetime}")
        lines = until("bestmove")
        slowest = max(slowest, time.perf_counter() - began)
        infos = [line.split() for line in lines if line.startswith("info depth")]
        depth, nodes = (
            (int(infos[-1][2]), int(infos[-1][infos[-1].index("nodes") + 1])) if infos else (0, 0)
        )
        depths.append(depth)
        tables += bool(infos) and nodes == 0
        blind += depth < 1 or 0 < nodes < len(list(board.legal_moves))
        mates += bool(infos) and "mate" in infos[-1]
        move = lines[-1].split()[1]
        board.push_uci(move)
        played.append(move)
    send("quit")
    process.wait(timeout=60)
    return [
        tree.name, str(len(depths)), str(min(depths)), f"{sum(depths) / len(depths):.1f}",
        str(blind), str(tables), str(mates), f"{slowest * 1000:.0f}",
    ]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, required=False, help="the 4-piece tables")
    parser.add_argument("--before", type=Path, action="append", default=[],
                        help="another kradan tree to measure (repeatable)")  # fmt: skip
    parser.add_argument("--time", type=float, default=1.0, help="part 1's move time (1.0 s)")
    parser.add_argument("--moves", type=int, default=50, help="part 2's moves (50)")
    parser.add_argument("--movetime", default="100,1",
                        help="part 2's movetimes, milliseconds (100,1)")  # fmt: skip
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.time)
        return 0
    if args.dir is None:
        parser.error("--dir is required")
    trees = [*(tree.resolve() for tree in args.before), ROOT]
    rows = [row for tree in trees for row in part_one(tree, args.dir, args.time)]
    print_table(
        f"Part 1: best_move(Limit(time={args.time})), twice in a fresh process (ms)",
        ["tree", "position", "call", "prep", "depth 1", "depth-1 nodes", "depth", "answer",
         "mate", "move", "read"],
        rows,
    )  # fmt: skip
    fens = random_positions(args.moves, seed=44)  # more than enough games
    for movetime in (int(text) for text in args.movetime.split(",")):
        print_table(
            f"Part 2: {args.moves} x 'go movetime {movetime}' over UCI in table positions",
            ["tree", "answers", "least depth", "mean depth", "blind", "tables", "mates",
             "slowest (ms)"],
            [part_two(tree, args.dir, fens, args.moves, movetime) for tree in trees],
        )  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
