"""Does the engine convert won endings within the count? (issue 14, "the engine converts")

Random won positions of up to 4 pieces (the side to move wins under automatic counting, by the
tables' own verdict, count included) are played out: kradan's engine plays the winning side,
the tables play the defence (the longest resistance, or the line the count favours), and
kradan's own rules end the game (mate, the count, repetition, stalemate). The run is made with
the engine's endgame tables and again without them, on the same positions.

    kradan egtb generate                                  # the 4-piece tables, once
    python benchmarks/egtb_convert.py --positions 200     # about 15 minutes of one core
    python benchmarks/egtb_convert.py --dir DIR --time 0.05 --positions 50 --variant cambodian
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass, field

import numpy as np
from _table import peak_memory_mb, print_table
from egtb import random_fens

import kradan
from kradan.egtb import MissingTableError, Tablebase, build_order, default_directory
from kradan.engine.chess import Searcher
from kradan.engine.types import Limit

#: the positions not won listed per run
SHOWN = 10


@dataclass
class Tally:
    """One run's results."""

    games: int = 0
    mates: int = 0
    count_draws: int = 0
    other_draws: int = 0
    plies: int = 0
    seconds: float = 0.0
    #: the positions not won, with how they ended
    failures: list[str] = field(default_factory=list)


def won_positions(tables: Tablebase, count: int, seed: int, variant: str) -> list[str]:
    """``count`` FENs, no count running, that the side to move wins within the count: an even
    share from each table that has such positions."""
    rng = random.Random(seed)
    pools: list[tuple[str, list[str]]] = []
    for material in build_order(4):
        try:
            values = tables.values(material)
        except MissingTableError:
            continue
        won = np.flatnonzero((values < 254) & (values % 2 == 1))
        if won.size == 0:
            continue
        fens = [f for f in random_fens(material, values, 400, seed=rng.randrange(1 << 30))]
        winning = [f for f in fens if tables.probe(kradan.Board(f, variant=variant)).result == 1]
        if winning:
            pools.append((material.key, winning))
    chosen: list[str] = []
    while len(chosen) < count:
        _, fens = pools[len(chosen) % len(pools)]
        chosen.append(rng.choice(fens))
    return chosen


def play_out(
    fen: str, variant: str, engine: Searcher, tables: Tablebase, limit: Limit, tally: Tally
) -> None:
    """The engine wins (or not) ``fen`` against the tables' defence."""
    board = kradan.Board(fen, variant=variant)
    winner = board.turn
    start = time.perf_counter()
    while board.outcome(claim_draw=True) is None:
        if board.turn == winner:
            move = engine.best_move(board, limit).move
        else:
            move = tables.probe(board).best_move
        assert move is not None, board.fen()
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    tally.games += 1
    tally.plies += len(board.move_stack)
    tally.seconds += time.perf_counter() - start
    if outcome.winner == winner:
        tally.mates += 1
    elif outcome.termination is kradan.Termination.COUNTING_LIMIT:
        tally.count_draws += 1
    else:
        tally.other_draws += 1
    if outcome.winner != winner:
        tally.failures.append(f"{fen} ({outcome.termination.value} at {board.fen()})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", help="the table directory (default: kradan's)")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--time", type=float, default=0.1, help="engine seconds per move (0.1)")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--variant", choices=("makruk", "cambodian"), default="makruk")
    args = parser.parse_args()
    directory = args.dir or str(default_directory())
    tables = Tablebase(directory)
    fens = won_positions(tables, args.positions, args.seed, args.variant)
    limit = Limit(time=args.time)
    rows = []
    failures: list[str] = []
    for label, use in (("with tables", directory), ("without tables", False)):
        engine = Searcher(16)
        engine.use_tables(use)
        tally = Tally()
        for fen in fens:
            play_out(fen, args.variant, engine, tables, limit, tally)
        failures += [f"{label}: {failure}" for failure in tally.failures[:SHOWN]]
        if len(tally.failures) > SHOWN:
            failures.append(f"{label}: ... and {len(tally.failures) - SHOWN} more")
        rows.append(
            [
                label,
                f"{tally.games}",
                f"{tally.mates} ({100 * tally.mates / tally.games:.1f}%)",
                f"{tally.count_draws}",
                f"{tally.other_draws}",
                f"{tally.plies / tally.games:.1f}",
                f"{tally.seconds:.1f}",
            ]
        )
    print_table(
        f"{args.variant}: won endings of up to 4 pieces played out against the tables' "
        f"defence ({args.time} s per engine move; tables in {directory}; "
        f"peak memory {peak_memory_mb():.0f} MB)",
        ["engine", "positions", "mated in time", "count draws", "other draws", "plies",
         "seconds"],
        rows,
    )  # fmt: skip
    print("\nnot won:" if failures else "", *failures, sep="\n")


if __name__ == "__main__":
    main()
