"""PGN reading speed: kradan reading Makruk games against python-chess reading chess games of
the same length, in the same run.

    python benchmarks/pgn_read.py [--games 10000] [--plies 80]

Both files are written first (random legal games, seeded), then read back in full, building
every game tree with its moves checked for legality. python-chess (``pip install chess``) is the
peer; without it that row is skipped. Prints games/s, moves/s, seconds and peak memory.
"""

from __future__ import annotations

import argparse
import io
import random
import time

from _table import peak_memory_mb, print_table

from kradan import Board, pgn


def makruk_file(games: int, plies: int, seed: int) -> str:
    rng = random.Random(seed)
    texts = []
    for index in range(games):
        board = Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        texts.append(pgn.game_text(board, {"Round": str(index + 1)}))
    return "\n".join(texts)


def chess_file(games: int, plies: int, seed: int) -> str | None:
    try:
        import chess
        import chess.pgn
    except ImportError:
        return None
    rng = random.Random(seed)
    texts = []
    for index in range(games):
        board = chess.Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Round"] = str(index + 1)
        texts.append(str(game) + "\n")
    return "\n".join(texts)


def read_all(read, text: str) -> tuple[int, int, float]:  # type: ignore[no-untyped-def]
    handle = io.StringIO(text)
    games = moves = 0
    start = time.perf_counter()
    while (game := read(handle)) is not None:
        games += 1
        moves += sum(1 for _ in game.mainline())
    return games, moves, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--plies", type=int, default=80)
    args = parser.parse_args()
    start = time.perf_counter()
    makruk = makruk_file(args.games, args.plies, seed=1)
    chess_text = chess_file(args.games, args.plies, seed=1)
    print(f"files written in {time.perf_counter() - start:.1f} s")
    rows = []
    games, moves, seconds = read_all(pgn.read_game, makruk)
    kradan_rate = games / seconds
    rows.append(["kradan (makruk)", str(games), str(moves), f"{seconds:.2f}",
                 f"{kradan_rate:,.0f}", f"{moves / seconds:,.0f}", "1.00"])  # fmt: skip
    if chess_text is None:
        print("python-chess is not installed (pip install chess): its row is skipped")
    else:
        import chess.pgn

        games, moves, seconds = read_all(chess.pgn.read_game, chess_text)
        rate = games / seconds
        ratio = rate / kradan_rate
        rows.append(["python-chess (chess)", str(games), str(moves), f"{seconds:.2f}",
                     f"{rate:,.0f}", f"{moves / seconds:,.0f}", f"{ratio:.2f}"])  # fmt: skip
    print_table(
        f"Reading {args.games} games of up to {args.plies} plies (peak memory "
        f"{peak_memory_mb():.0f} MB)",
        ["reader", "games", "moves", "seconds", "games/s", "moves/s", "rate / kradan"],
        rows,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
