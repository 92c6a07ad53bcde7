"""Fit the winning-chance curve of game review (:mod:`kradan.engine.winning`) to kradan's own
self-play games, and print the fit and its calibration table (docs/review.md).

The data are ``kradan tune selfplay`` files: quiet positions of engine-vs-engine games from
random 8-ply openings, each with the engine's score for White and the game's result for White
(draws by the count, by repetition and after 400 plies are 1/2). For each game family::

    kradan tune selfplay -o makruk.npz --variant makruk --games 300 --nodes 4000 --seed 45
    python benchmarks/fit_winning_curve.py makruk=makruk.npz cambodian=cambodian.npz ...

Each ``NAME=FILE[,FILE...]`` is fitted on its own; the scale goes into
``kradan.engine.winning.SCALES`` for every game of that family.
"""

from __future__ import annotations

import argparse
import math

from _table import print_table

from kradan.engine.winning import BLUNDER, INACCURACY, MISTAKE
from kradan.training.winning_fit import calibration, fit_scale, selfplay_positions

#: White's score bins of the calibration table, in centipawns
EDGES = [-3000, -800, -400, -250, -150, -75, -25, 25, 75, 150, 250, 400, 800, 3001]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", metavar="NAME=FILE[,FILE...]")
    args = parser.parse_args()
    rows = []
    for spec in args.sets:
        name, _, files = spec.partition("=")
        cp, results, games = selfplay_positions(files.split(","))
        fit = fit_scale(cp, results, games)
        # centipawns from an even game that cost each mark's drop of expected score
        even = [math.log((0.5 + d) / (0.5 - d)) / fit.scale for d in (INACCURACY, MISTAKE, BLUNDER)]
        rows.append([name, f"{fit.games:,}", f"{fit.positions:,}", f"{100 * fit.draws:.0f}%",
                     f"{fit.scale:.5f} ± {fit.stderr:.5f}", f"{100 * fit.pawn:.1f}%",
                     " / ".join(f"{cp_:.0f}" for cp_ in even)])  # fmt: skip
        bins = calibration(cp, results, fit.scale, EDGES)
        table = [[f"{b.low:+.0f}..{b.high:+.0f}", f"{b.positions:,}", f"{b.observed:.3f}",
                  f"{b.expected:.3f}"] for b in bins]  # fmt: skip
        print_table(f"{name}: White's mean result by White's score",
                    ["score (cp)", "positions", "observed", "fitted"], table)  # fmt: skip
    print_table(
        "The fitted curves: E(cp) = 1 / (1 + exp(-scale * cp))",
        ["family", "games", "positions", "drawn", "scale (per cp)", "a pawn up",
         "cp from even for ?! / ? / ??"],
        rows,
    )  # fmt: skip


if __name__ == "__main__":
    main()
