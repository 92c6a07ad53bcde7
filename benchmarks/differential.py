"""Random playouts against Fairy-Stockfish (pyffish), compared after every ply: the legal moves,
the FEN with promoted pieces marked, the SAN of the move played (Thai SAN too for the games that
use it), whether it gives check, and the end of the game. A long run for issue notes (the suite
plays a small sample of the same in tests/test_differential_pyffish.py).

    python benchmarks/differential.py                  # 2,000 playouts, 500 a game
    python benchmarks/differential.py --games 50 --plies 120

Prints a table per game (playouts, plies compared, playouts that agree) and the first
disagreements found, each with the position, the moves and what differed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _table import print_table

from kradan import new_board

GAMES = ("makruk", "cambodian", "karouk", "sittuyin")
#: the games whose moves Thai SAN writes (Fairy-Stockfish's Thai notations)
THAI = ("makruk", "cambodian", "karouk")


def playout(sf: object, game: str, seed: int, plies: int) -> tuple[int, str | None]:
    """One random playout (captures favoured, so that endgames and counts appear); returns the
    plies compared and the first disagreement, or ``None``."""
    rng = random.Random(seed)
    board = new_board(game)
    start = board.fen()
    played: list[str] = []
    for ply in range(plies):
        ours = sorted(move.uci() for move in board.legal_moves)
        theirs = sorted(sf.legal_moves(game, start, played))  # type: ignore[attr-defined]
        if ours != theirs:
            return ply, f"legal moves after {played}: ours {ours}, theirs {theirs}"
        fen = board.fen(show_promoted=True)
        expected = sf.get_fen(game, start, played, False, False, True)  # type: ignore[attr-defined]
        if fen != expected:
            return ply, f"FEN after {played}: ours {fen!r}, theirs {expected!r}"
        if not ours:
            return ply, None
        moves = list(board.legal_moves)
        captures = [move for move in moves if board.is_capture(move)]
        move = rng.choice(captures if captures and rng.random() < 0.5 else moves)
        notations = [("san", sf.NOTATION_SAN)]  # type: ignore[attr-defined]
        if game in THAI:
            notations.append(("thai", sf.NOTATION_THAI_SAN))  # type: ignore[attr-defined]
        for name, code in notations:
            san = sf.get_san(game, fen, move.uci(), False, code)  # type: ignore[attr-defined]
            ours_san = board.san(move, name)
            if ours_san != san:
                return ply, f"{name} of {move.uci()} in {fen!r}: ours {ours_san!r}, theirs {san!r}"
        check = sf.gives_check(game, fen, [move.uci()])  # type: ignore[attr-defined]
        if board.gives_check(move) != check:
            return ply, f"gives_check of {move.uci()} in {fen!r}: ours {not check}, theirs {check}"
        board.push(move)
        played.append(move.uci())
        if board.is_game_over():
            return ply + 1, None
    return plies, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="playouts of each game (500)")
    parser.add_argument("--plies", type=int, default=200, help="longest playout in plies (200)")
    args = parser.parse_args()
    try:
        import pyffish as sf
    except ImportError:
        print("pyffish is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    rows, problems = [], []
    for game in GAMES:
        start = time.perf_counter()
        compared = agreed = 0
        for seed in range(args.games):
            plies, problem = playout(sf, game, seed, args.plies)
            compared += plies
            if problem is None:
                agreed += 1
            else:
                problems.append(f"{game} seed {seed}: {problem}")
        seconds = time.perf_counter() - start
        rows.append([game, str(args.games), f"{compared:,}", str(agreed), f"{seconds:.0f}"])
    total = [str(sum(int(row[i].replace(",", "")) for row in rows)) for i in (1, 2, 3)]
    rows.append(["all", *total, ""])
    print_table(
        "Random playouts against Fairy-Stockfish (pyffish)",
        ["game", "playouts", "plies compared", "agree", "seconds"],
        rows,
    )
    for problem in problems[:20]:
        print(f"- {problem}")
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())
