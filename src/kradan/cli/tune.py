"""``kradan tune openings | positions | fit``: fit the evaluation's weights to game results
(the Texel method)."""

from __future__ import annotations

import argparse
from typing import Any

from .progress import open_text

EXAMPLES = """examples (docs/tuning.md):
  kradan tune openings -o openings.txt --count 4000           random 8-ply starts
  kradan match kradan kradan --openings openings.txt --games 4000 --tc 0.5+0.005 \\
      --resign 4,700 --draw 30,8,10 --concurrency 2 --pgn self.pgn
  kradan tune positions self.pgn -o makruk.npz                the quiet positions, labelled
  kradan tune fit makruk.npz -o tuned.json                   every weight fitted
  kradan match kradan:weights=tuned.json,network=none kradan:network=none --sprt 0,10 \\
      --games 20000 --concurrency 2                           Makruk's weights, without the network
  kradan tune selfplay -o data.npz --games 6000 --nodes 5000 --concurrency 2
  kradan tune train data.npz -o network.npz                  the evaluation network
  kradan match kradan:network=network.npz kradan --nodes 5000 --games 200 --concurrency 2"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "tune",
        help="fit the evaluation's weights to game results (the Texel method), or train its "
        "network on self-play",
        description="Collect the quiet positions of games, labelled with their results, then fit\n"
        "every weight of the evaluation so that it predicts those results best. The weights\n"
        "file it writes plays with kradan:weights=FILE.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="tune_command", metavar="ACTION", required=True)
    openings = actions.add_parser("openings", help="random starts for self-play games")
    openings.add_argument(
        "-o", "--output", required=True, metavar="FILE",
        help="the lines, one a line in UCI moves (for kradan match --openings)",
    )  # fmt: skip
    openings.add_argument("--variant", default="makruk", help="the game (makruk)")
    openings.add_argument("--count", type=int, default=4000, help="how many lines (4000)")
    openings.add_argument("--plies", type=int, default=8, help="the length of each (8)")
    openings.add_argument("--seed", type=int, default=1, help="the random seed (1)")
    openings.set_defaults(run=run_openings)
    positions = actions.add_parser("positions", help="quiet positions of PGN games, labelled")
    positions.add_argument("files", nargs="+", metavar="FILE.pgn", help="the games")
    positions.add_argument("-o", "--output", required=True, metavar="FILE.npz")
    positions.add_argument(
        "--set", default="makruk", choices=["makruk", "ouk", "sittuyin"],
        help="the weight set: makruk, ouk (Cambodian and Kar Ouk) or sittuyin (makruk)",
    )  # fmt: skip
    positions.add_argument("--skip-plies", type=int, default=8, metavar="N",
                           help="plies at the start of each game left out (8)")  # fmt: skip
    positions.set_defaults(run=run_positions)
    selfplay = actions.add_parser(
        "selfplay", help="self-play positions, scored and labelled, to train the network"
    )
    selfplay.add_argument("-o", "--output", required=True, metavar="FILE.npz")
    selfplay.add_argument("--variant", default="makruk", help="the game (makruk)")
    selfplay.add_argument("--games", type=int, default=1000, help="how many games (1000)")
    selfplay.add_argument("--nodes", type=int, default=5000,
                          help="the search's node budget a move (5000)")  # fmt: skip
    selfplay.add_argument("--plies", type=int, default=8,
                          help="random plies that start each game (8)")  # fmt: skip
    selfplay.add_argument("--seed", type=int, default=1, help="the openings' random seed (1)")
    selfplay.add_argument("--concurrency", type=int, default=1, metavar="N",
                          help="games played at a time, a process each (1)")  # fmt: skip
    selfplay.add_argument("--save-every", type=int, default=100, metavar="GAMES",
                          help="write the file after every this many games (100)")  # fmt: skip
    selfplay.set_defaults(run=run_selfplay)
    train = actions.add_parser("train", help="train the evaluation network on self-play")
    train.add_argument("positions", nargs="+", metavar="FILE.npz",
                       help="from 'kradan tune selfplay'")  # fmt: skip
    train.add_argument("-o", "--output", required=True, metavar="NETWORK.npz")
    train.add_argument(
        "--sets", default="makruk,ouk,sittuyin",
        help="the weight sets the network evaluates (makruk,ouk,sittuyin)",
    )  # fmt: skip
    train.add_argument("--hidden", type=int, default=128, help="hidden width (128)")
    train.add_argument("--epochs", type=int, default=20, help="passes over the data (20)")
    train.add_argument("--batch", type=int, default=16384, help="positions a step (16384)")
    train.add_argument("--rate", type=float, default=0.001, help="Adam's step size (0.001)")
    train.add_argument(
        "--lam", type=float, default=0.85,
        help="the score's share of the target, the result's the rest (0.85)",
    )  # fmt: skip
    train.add_argument(
        "--scale", default="420", metavar="CP|fit",
        help="centipawns a unit of the logistic that turns scores into results (420, the "
        "weighted evaluation's; 'fit': fitted to these games)",
    )  # fmt: skip
    train.add_argument("--seed", type=int, default=1, help="the random seed (1)")
    train.add_argument(
        "--init", metavar="NETWORK.npz",
        help="start from this network's weights, not random ones ('default': the network "
        "kradan plays with); its hidden width replaces --hidden",
    )  # fmt: skip
    train.set_defaults(run=run_train)
    fit = actions.add_parser("fit", help="fit the weights to labelled positions")
    fit.add_argument("positions", metavar="FILE.npz", help="from 'kradan tune positions'")
    fit.add_argument("-o", "--output", required=True, metavar="WEIGHTS.json")
    fit.add_argument("--start", metavar="WEIGHTS.json",
                     help="the weights to start from (default: kradan's own)")  # fmt: skip
    fit.add_argument(
        "--l2", type=float, default=None,
        help="pull toward the starting weights, per squared centipawn (default 3e-9, the "
        "value Makruk's games chose: docs/tuning.md)",
    )  # fmt: skip
    fit.set_defaults(run=run_fit)


def run_openings(args: argparse.Namespace) -> int:
    from ..errors import InputFileError
    from ..training.tuning import random_openings

    lines = random_openings(args.variant, args.count, args.plies, args.seed)
    try:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.writelines(" ".join(line) + "\n" for line in lines)
    except OSError as error:
        raise InputFileError(f"cannot write {args.output!r}: {error.strerror}") from error
    print(f"{args.output}: {len(lines):,} different {args.plies}-ply {args.variant} openings")
    return 0


def run_positions(args: argparse.Namespace) -> int:
    from .. import pgn
    from ..errors import UsageError
    from ..training.tuning import collect

    if args.skip_plies < 0:
        raise UsageError("--skip-plies must be 0 or more")

    def games() -> Any:
        for path in args.files:
            with open_text(path) as handle:
                while (game := pgn.read_game(handle)) is not None:
                    yield game

    found = collect(games(), args.set, skip_plies=args.skip_plies)
    if not len(found):
        raise UsageError(f"no quiet {args.set} positions in games with a result")
    found.save(args.output)
    print(f"{args.output}: {len(found):,} quiet positions of {len(set(found.games)):,} games "
          f"({args.set} weights)")  # fmt: skip
    return 0


def run_fit(args: argparse.Namespace) -> int:
    from ..engine import weights as W
    from ..errors import InputFileError, UsageError
    from ..training.tuning import DEFAULT_L2, Positions, fit

    try:
        import scipy  # noqa: F401
    except ImportError as error:
        raise UsageError("fitting needs scipy: pip install 'kradan[tune]'") from error
    try:
        positions = Positions.load(args.positions)
    except (OSError, ValueError, KeyError) as error:
        raise InputFileError(f"cannot read positions from {args.positions!r}: {error}") from error
    try:
        table = W.load(args.start) if args.start else W.DEFAULT.copy()
    except (OSError, ValueError) as error:
        raise InputFileError(f"cannot read weights from {args.start!r}: {error}") from error
    index = W.SETS.index(positions.set_name)
    l2 = DEFAULT_L2 if args.l2 is None else args.l2
    result = fit(positions, table[index], l2=l2)
    table[index] = result.row
    about = (f"{positions.set_name} fitted to {result.positions + result.held_out:,} positions "
             f"(kradan tune fit, K={result.k:.3f}, l2 {l2:g})")  # fmt: skip
    try:
        W.dump(table, args.output, about)
    except OSError as error:
        raise InputFileError(f"cannot write {args.output!r}: {error.strerror}") from error
    print(f"{positions.set_name}: {result.positions:,} positions fitted, {result.held_out:,} held "
          f"out; K = {result.k:.3f}; {result.iterations} iterations")  # fmt: skip
    print("mean squared error   before    after")
    print(f"  fitted positions    {result.train_before:.5f}  {result.train_after:.5f}")
    print(f"  held-out positions  {result.held_out_before:.5f}  {result.held_out_after:.5f}")
    changed = W.from_array(result.row)["material"]
    print("material: " + ", ".join(f"{name} {value}" for name, value in changed.items()))
    print(f"written to {args.output}; play it with kradan:weights={args.output}")
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    import time

    from ..errors import InputFileError, UsageError
    from ..executors import make_executor
    from ..runners.selfplay import SelfPlayTask, TrainingPositions, play_games
    from ..training.tuning import random_openings

    if args.games < 1 or args.nodes < 1 or args.save_every < 1:
        raise UsageError("--games, --nodes and --save-every must be 1 or more")
    openings = random_openings(args.variant, args.games, args.plies, args.seed)
    tasks = [SelfPlayTask(args.variant, tuple(line), args.nodes) for line in openings]
    parts: list[TrainingPositions] = []
    started = time.perf_counter()

    def save() -> int:
        joined = TrainingPositions.join(parts)
        try:
            joined.save(args.output)
        except OSError as error:
            raise InputFileError(f"cannot write {args.output!r}: {error.strerror}") from error
        return len(joined)

    with make_executor("local", args.concurrency) as executor:
        for done, (_index, positions) in enumerate(play_games(tasks, executor), 1):
            parts.append(positions)
            if done % args.save_every == 0 or done == len(tasks):
                kept = save()
                rate = kept / (time.perf_counter() - started)
                print(f"{done:,}/{len(tasks):,} games, {kept:,} positions "
                      f"({rate:,.0f} a second) in {args.output}", flush=True)  # fmt: skip
    return 0


def run_train(args: argparse.Namespace) -> int:
    from ..engine.network import DEFAULT_NETWORK_FILE, load_network, save_network
    from ..engine.weights import SETS
    from ..errors import UsageError
    from ..runners.selfplay import TrainingPositions
    from ..training.nnue import FloatNetwork, TrainingReport, quantize, train

    try:
        scale = None if args.scale == "fit" else float(args.scale)
    except ValueError as error:
        raise UsageError(f"--scale {args.scale!r}: a number of centipawns or 'fit'") from error
    sets = tuple(name.strip() for name in args.sets.split(",") if name.strip())
    if not sets or any(name not in SETS for name in sets):
        raise UsageError(f"--sets {args.sets!r}: name some of {', '.join(SETS)}")
    init, init_name = None, ""
    if args.init is not None:
        init_name = "the default network" if args.init == "default" else args.init
        source = DEFAULT_NETWORK_FILE if args.init == "default" else args.init
        init = FloatNetwork.from_network(load_network(source))
    hidden = args.hidden if init is None else init.w1.shape[1]
    parts = [TrainingPositions.load(path) for path in args.positions]
    for number, part in enumerate(parts):
        part.games = part.games + number * 10_000_000  # games of different files stay apart
    positions = TrainingPositions.join(parts)
    print(f"{len(positions):,} positions of {len(set(positions.games.tolist())):,} games")

    def report(line: TrainingReport) -> None:
        print(f"epoch {line.epoch:3d}  loss {line.train_loss:.5f}  held out "
              f"{line.held_out_loss:.5f}", flush=True)  # fmt: skip

    network, scale = train(
        positions, hidden=hidden, epochs=args.epochs, batch=args.batch, rate=args.rate,
        lam=args.lam, scale=scale, seed=args.seed, report=report, init=init,
    )  # fmt: skip
    about = (f"kradan tune train: {len(positions):,} positions, hidden {hidden}, "
             f"{args.epochs} epochs, lam {args.lam}, S {scale:.0f}")  # fmt: skip
    if init_name:
        about += f", from {init_name}"
    save_network(quantize(network, sets, about), args.output)
    print(f"S = {scale:.0f} centipawns a unit; written to {args.output}; play it with "
          f"kradan:network={args.output}")  # fmt: skip
    return 0
