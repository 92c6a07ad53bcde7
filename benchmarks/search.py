"""Search speed of kradan's engine: nodes/s and time to depth, optionally against a UCI peer
searching the same positions to the same depth in the same run.

    python benchmarks/search.py                       # kradan only
    python benchmarks/search.py --vs /path/to/fairy-stockfish --depth 10
    python benchmarks/search.py --no-network         # Makruk and Ouk with the weighted terms

Alquerque positions are searched 6 plies deeper (its tree is narrow) and have no peer column.

The peer's figures are what it reports on its last ``info`` line (nodes, nps, time).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Iterator

from _table import peak_memory_mb, print_table

from kradan.alquerque.variant import is_alquerque_name
from kradan.engine import Limit
from kradan.engine.searchers import Searchers
from kradan.games import new_board

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
    ("sittuyin", "middlegame", "1rr5/3k3s/f1ns1ppp/pp6/2p2PPP/PPPP2NN/S2R1S2/1KR1F3[] w - - 0 18"),
    ("alquerque", "start", "ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1"),
    ("alquerque-bell", "start", "ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1"),
]
ALQUERQUE_EXTRA_DEPTH = 6  # Alquerque's tree is narrow: the same time buys deeper searches


class UciPeer:
    def __init__(self, path: str) -> None:
        self.process = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.name = path
        self.send("uci")
        for line in self.lines():
            if line.startswith("id name "):
                self.name = line[8:].strip()
            if line.strip() == "uciok":
                break

    def send(self, command: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def lines(self) -> Iterator[str]:
        assert self.process.stdout is not None
        yield from iter(self.process.stdout.readline, "")

    def search(self, variant: str, fen: str, depth: int) -> tuple[int, float]:
        self.send(f"setoption name UCI_Variant value {variant}")
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("isready")
        for line in self.lines():
            if line.strip() == "readyok":
                break
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        nodes = 0
        for line in self.lines():
            words = line.split()
            if "nodes" in words:
                nodes = int(words[words.index("nodes") + 1])
            if line.startswith("bestmove"):
                return nodes, time.perf_counter() - start
        raise RuntimeError("the peer stopped answering")

    def close(self) -> None:
        self.send("quit")
        self.process.wait(timeout=10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=10, help="depth to search each position to")
    parser.add_argument("--vs", metavar="PATH", help="a UCI engine to search the same positions")
    parser.add_argument("--hash", type=int, default=64, help="hash table size in MB")
    parser.add_argument("--no-network", action="store_true",
                        help="evaluate with the weighted terms, not the network")  # fmt: skip
    args = parser.parse_args()

    searchers = Searchers(args.hash)
    if args.no_network:
        searchers.use_network(False)
    # load the compiled searches before timing: each game's (Sittuyin searches without a
    # network, which is a compiled copy of its own)
    for variant in dict.fromkeys(variant for variant, _, _ in POSITIONS):
        searchers.warm(new_board(variant))
    peer = UciPeer(args.vs) if args.vs else None
    header = ["game", "position", "depth", "nodes", "seconds", "nodes/s", "best"]
    if peer:
        header += ["peer nodes", "peer s", "peer n/s", "n/s ratio"]
    rows = []
    for variant, name, fen in POSITIONS:
        board = new_board(variant, fen)
        is_alquerque = is_alquerque_name(variant)
        depth = args.depth + ALQUERQUE_EXTRA_DEPTH if is_alquerque else args.depth
        searcher = searchers.for_board(board)
        searcher.clear()
        start = time.perf_counter()
        result = searcher.best_move(board, Limit(depth=depth))
        seconds = time.perf_counter() - start
        assert result.info is not None and result.move is not None
        nodes = result.info.nodes
        row = [variant, name, str(depth), f"{nodes:,}", f"{seconds:.2f}",
               f"{nodes / seconds / 1e6:.2f}M", result.move.uci()]  # fmt: skip
        if peer and is_alquerque:
            row += ["-", "-", "-", "-"]  # no UCI engine but kradan plays Alquerque
        elif peer:
            their_nodes, their_seconds = peer.search(variant, fen, args.depth)
            rate, their_rate = nodes / seconds, their_nodes / their_seconds
            row += [f"{their_nodes:,}", f"{their_seconds:.2f}", f"{their_rate / 1e6:.2f}M",
                    f"{rate / their_rate:.2f}x"]  # fmt: skip
        rows.append(row)
    evaluation = "weighted terms" if args.no_network else "network in Makruk and Ouk"
    title = (f"Search to depth {args.depth} (single thread, hash {args.hash} MB, a fresh table "
             f"each; {evaluation})")  # fmt: skip
    print_table(title, header, rows)
    print(f"\nPeak memory of this process: {peak_memory_mb():.0f} MB")
    if peer:
        peer.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
