"""Perft speed of kradan's Makruk kernel, start-up costs and Python API rates, with an optional
peer engine measured in the same run.

    python benchmarks/perft.py                       # kradan only
    python benchmarks/perft.py --vs /path/to/fairy-stockfish
    python benchmarks/perft.py --depths 5 --quick    # a short run

Prints tables: nodes, seconds, nodes/s for bulk perft (leaf moves counted, not made) and plain
perft (every leaf made and unmade), each engine's peak memory, the ratio kradan/peer, the cold
compile time of every kernel entry point (fresh numba cache), the warm start of
``kradan perft makruk 1``, and the rates of ``list(board.legal_moves)`` and ``push``/``pop``.
The peer answers UCI ``go perft N`` (Fairy-Stockfish does); its perft counts leaves in bulk.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from _table import peak_memory_mb, print_table

from kradan import Board
from kradan._core.warmup import compile_all

# (variant, name, FEN); the setup phase branches ~72 ways per ply, so it stops at a lower depth
MIDDLE_DEPTHS = (5, 6)
POSITIONS = [
    ("makruk", "start", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
    ("makruk", "middlegame 1", "r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11"),
    (
        "makruk",
        "middlegame 2",
        "rnkm2nr/4s3/1pp1p1pp/p1s2p2/P3pPPP/1PPP3R/1S1KN3/RN2MS2 w - - 1 15",
    ),
    ("makruk", "middlegame 3", "2sm1nn1/4ks1r/5p2/3r2Pp/1PPP4/4PPP1/3S1S2/1N1KM1NR b - - 0 19"),
    ("cambodian", "start", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"),
    ("cambodian", "middlegame", "rn1mk1nr/2s1s3/pp4p1/3pp2p/8/P1SPP1PP/R3K3/1N2MSNR w Ede - 0 10"),
    ("sittuyin", "setup phase", "r6r/8/4pppp/pppp4/4PPPP/PPPP4/8/R6R[KSSFNNkssfnn] w - - 0 3"),
    ("sittuyin", "middlegame", "1rr5/3k3s/f1ns1ppp/pp6/2p2PPP/PPPP2NN/S2R1S2/1KR1F3[] w - - 0 18"),
]
DEPTHS = {"setup phase": (3, 4)}


@dataclass
class Timing:
    nodes: int
    seconds: float

    @property
    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else float("nan")


def kradan_perft(variant: str, fen: str, depth: int, bulk: bool, threads: int = 1) -> Timing:
    board = Board(fen, variant=variant)
    start = time.perf_counter()
    nodes = board.perft(depth, bulk=bulk, threads=threads)
    return Timing(nodes, time.perf_counter() - start)


class UciPeer:
    """A UCI engine that answers ``go perft N``."""

    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.name = path
        self._send("uci")
        for line in self._lines():
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip()
            if line.strip() == "uciok":
                break
        self.variant = ""

    def _use_variant(self, variant: str) -> None:
        if variant != self.variant:
            self._send(f"setoption name UCI_Variant value {variant}")
            self._send("isready")
            for line in self._lines():
                if line.strip() == "readyok":
                    break
            self.variant = variant

    def _send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def _lines(self) -> Iterator[str]:
        assert self.process.stdout is not None
        # iterate with readline: leaving a loop early must not close the pipe
        yield from iter(self.process.stdout.readline, "")
        raise RuntimeError(f"{self.name} closed its output")

    def perft(self, variant: str, fen: str, depth: int) -> Timing:
        self._use_variant(variant)
        self._send(f"position fen {fen}")
        start = time.perf_counter()
        self._send(f"go perft {depth}")
        for line in self._lines():
            if line.startswith("Nodes searched"):
                return Timing(int(line.split()[-1]), time.perf_counter() - start)
        raise RuntimeError("no perft result")

    def peak_memory_mb(self) -> float:
        try:
            with open(f"/proc/{self.process.pid}/status", encoding="ascii") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except OSError:
            pass
        return float("nan")

    def close(self) -> None:
        self._send("quit")
        self.process.wait(timeout=10)


def mn(rate: float) -> str:
    return f"{rate / 1e6:.1f}M"


def cold_compile_seconds() -> float:
    """Compile every kernel entry point from scratch, in a fresh process and numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "from kradan._core.warmup import compile_all; compile_all()"],
            env=env,
            check=True,
        )
        return time.perf_counter() - start


def warm_start_seconds(runs: int = 5) -> float:
    """Median wall time of ``kradan perft makruk 1`` with the cache filled."""
    command = [sys.executable, "-m", "kradan.cli.main", "perft", "makruk", "1"]
    subprocess.run(command, check=True, capture_output=True)  # fill the cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def api_rates(seconds: float = 1.0) -> list[list[str]]:
    board = Board()
    rows = []

    def rate(action: Callable[[], object]) -> float:
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(200):
                action()
            calls += 200
        return calls / (time.perf_counter() - start)

    def generated() -> None:
        board._forget_legal()  # measure generation, not the per-position cache
        list(board.legal_moves)

    rows.append(["list(board.legal_moves), generated each call", f"{rate(generated):,.0f}"])
    rows.append(
        [
            "list(board.legal_moves), cached position",
            f"{rate(lambda: list(board.legal_moves)):,.0f}",
        ]
    )
    moves = list(board.legal_moves)
    index = [0]

    def push_pop() -> None:
        board.push(moves[index[0] % len(moves)])
        board.pop()
        index[0] += 1

    rows.append(["board.push(move); board.pop()", f"{rate(push_pop):,.0f}"])
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--depths", type=int, nargs="+", help="depths for every position (default: per position)"
    )
    parser.add_argument("--vs", metavar="PATH", help="a UCI engine that answers 'go perft N'")
    parser.add_argument(
        "--quick", action="store_true", help="only the start position, no plain perft at depth > 5"
    )
    parser.add_argument("--threads", type=int, default=2, help="threads for the parallel bulk row")
    parser.add_argument(
        "--variants", nargs="+", help="only these games (makruk, cambodian, sittuyin)"
    )
    args = parser.parse_args()

    compile_all()  # compile or load every kernel entry point before timing
    peer = UciPeer(args.vs) if args.vs else None
    positions = POSITIONS[:1] if args.quick else POSITIONS
    if args.variants:
        positions = [p for p in positions if p[0] in args.variants]
    header = [
        "game",
        "position",
        "depth",
        "nodes",
        "bulk s",
        "bulk n/s",
        "plain s",
        "plain n/s",
        f"bulk n/s {args.threads} thr",
    ]
    if peer:
        header += ["peer s", "peer n/s", "bulk/peer"]
    rows = []
    for variant, name, fen in positions:
        for depth in args.depths or DEPTHS.get(name, MIDDLE_DEPTHS):
            bulk = kradan_perft(variant, fen, depth, True)
            plain = None if args.quick and depth > 5 else kradan_perft(variant, fen, depth, False)
            parallel = kradan_perft(variant, fen, depth, True, args.threads)
            assert parallel.nodes == bulk.nodes and (plain is None or plain.nodes == bulk.nodes)
            row = [
                variant,
                name,
                str(depth),
                f"{bulk.nodes:,}",
                f"{bulk.seconds:.3f}",
                mn(bulk.rate),
                f"{plain.seconds:.3f}" if plain else "-",
                mn(plain.rate) if plain else "-",
                mn(parallel.rate),
            ]
            if peer:
                theirs = peer.perft(variant, fen, depth)
                if theirs.nodes != bulk.nodes:
                    print(
                        f"MISMATCH at {name} depth {depth}: "
                        f"peer {theirs.nodes}, kradan {bulk.nodes}"
                    )
                row += [f"{theirs.seconds:.3f}", mn(theirs.rate), f"{bulk.rate / theirs.rate:.1f}x"]
            rows.append(row)
    print_table(
        "Perft (single thread unless noted; 'bulk' counts the last ply's moves)",
        header,
        rows,
    )

    memory = [["kradan (this Python process)", f"{peak_memory_mb():.0f}"]]
    if peer:
        memory.append([peer.name, f"{peer.peak_memory_mb():.0f}"])
        peer.close()
    print_table("Peak memory", ["process", "MB"], memory)

    print_table(
        "Start-up",
        ["what", "seconds"],
        [
            [
                "cold compile of every kernel entry point (empty cache)",
                f"{cold_compile_seconds():.1f}",
            ],
            ["warm start: kradan perft makruk 1 (median of 5)", f"{warm_start_seconds():.2f}"],
        ],
    )
    print_table("Python API at the start position", ["operation", "calls/s"], api_rates())
    return 0


if __name__ == "__main__":
    sys.exit(main())
