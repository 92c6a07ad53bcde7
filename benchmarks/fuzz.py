"""A first mutation fuzzer for kradan's parsers (issue 13 item 3, a start): it mutates seed inputs
(the reference positions, SAN and UCI moves, a PGN game, option strings) byte by byte and feeds
them to each parser, counting what comes back.

    python benchmarks/fuzz.py                       # 2,000 inputs per target
    python benchmarks/fuzz.py --inputs 1000000 --seed 7 --targets fen pgn

A parser passes an input when it answers or raises one of kradan's typed errors (``KradanError``).
Anything else is a crash, printed with the input that caused it; an input that takes over a
second is a hang. The table gives inputs/s, crashes, hangs and the peak memory of the process.
Coverage-guided fuzzing (atheris) and the protocol and web targets are still to come.
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _table import peak_memory_mb, print_table  # noqa: E402

from kradan import Board  # noqa: E402
from kradan.alquerque import Board as AlquerqueBoard  # noqa: E402
from kradan.errors import KradanError  # noqa: E402
from kradan.pgn import parse_options, read_game  # noqa: E402

PGN_SEED = """[Event "fuzz"]
[Variant "makruk"]
[VariantOptions "counting=declared sut_met=true"]
[Result "*"]

1. e4 {a comment} d5 (1... g5 2. Nd2) 2. exd5 Mxd5 3. Nc3 {[%count declare]} *
"""
CHARS = "abcdefgh12345678/[]-~+#=x@,:; wbkKmMsSnNrRpPfF0\n\x00\xff\u0e01"


def fen_seeds() -> list[str]:
    seeds = [Board().fen()]
    for name in ("makruk", "cambodian", "sittuyin"):
        path = ROOT / "tests" / "reference" / f"{name}.jsonl"
        for line in path.read_text(encoding="utf-8").splitlines()[:50]:
            seeds.append(json.loads(line)["fen"])
    return seeds


def mutate(text: str, rng: random.Random) -> str:
    """``text`` with one to four random edits: a character replaced, inserted, deleted or a
    slice repeated."""
    chars = list(text)
    for _ in range(rng.randint(1, 4)):
        where = rng.randrange(len(chars) + 1)
        kind = rng.randrange(4)
        if kind == 0 and chars and where < len(chars):
            chars[where] = rng.choice(CHARS)
        elif kind == 1:
            chars.insert(where, rng.choice(CHARS))
        elif kind == 2 and chars and where < len(chars):
            del chars[where]
        elif chars:
            start = rng.randrange(len(chars))
            chars[where:where] = chars[start : start + rng.randint(1, 8)]
    return "".join(chars)


def parse_fen(text: str) -> None:
    board = Board(text)
    board.fen()
    list(board.legal_moves)
    board.outcome()


def parse_alquerque(text: str) -> None:
    board = AlquerqueBoard(text)
    list(board.legal_moves)
    board.outcome()


def parse_san(text: str) -> None:
    Board().parse_san(text)


def parse_uci(text: str) -> None:
    Board().parse_uci(text)


def parse_pgn(text: str) -> None:
    game = read_game(io.StringIO(text))
    if game is not None:
        str(game)


TARGETS: dict[str, tuple[Callable[[str], None], Callable[[], list[str]]]] = {
    "fen": (parse_fen, fen_seeds),
    "alquerque": (parse_alquerque, lambda: ["ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1"]),
    "san": (parse_san, lambda: ["e4", "Nd2", "Sxe5+", "e4,Me3", "จ๔", "Kb2", "O-O"]),
    "uci": (parse_uci, lambda: ["e3e4", "c5c6m", "R@a1", "e3e4,e1e3", "0000"]),
    "pgn": (parse_pgn, lambda: [PGN_SEED]),
    "options": (parse_options, lambda: ["counting=declared sut_met=true takhen_rua=a1,h1"]),
}


def fuzz(name: str, inputs: int, seed: int) -> list[str]:
    parse, seeds = TARGETS[name]
    corpus = seeds()
    rng = random.Random(seed)
    crashes = hangs = 0
    start = time.perf_counter()
    for _ in range(inputs):
        text = mutate(rng.choice(corpus), rng)
        began = time.perf_counter()
        try:
            parse(text)
        except KradanError:
            pass
        except Exception as error:  # a crash: any error that is not kradan's typed one
            crashes += 1
            if crashes <= 5:
                print(f"CRASH {name}: {type(error).__name__}: {error} on {text!r}", file=sys.stderr)
        if time.perf_counter() - began > 1.0:
            hangs += 1
            print(f"HANG {name}: {text!r}", file=sys.stderr)
    seconds = time.perf_counter() - start
    peak_mb = peak_memory_mb()
    return [name, f"{inputs:,}", f"{seconds:.1f}", f"{inputs / seconds:,.0f}", str(crashes),
            str(hangs), f"{peak_mb:.0f}"]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=2000, help="inputs per target (2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--targets", nargs="+", choices=sorted(TARGETS), default=list(TARGETS))
    args = parser.parse_args()
    Board().perft(1)  # compile or load the kernels before the clock runs
    rows = [fuzz(name, args.inputs, args.seed) for name in args.targets]
    print_table(
        "Mutation fuzzing (typed errors pass; anything else is a crash)",
        ["target", "inputs", "seconds", "inputs/s", "crashes", "hangs", "peak MB"],
        rows,
    )


if __name__ == "__main__":
    main()
