"""``kradan match``: games between two players, in parallel, with an Elo estimate."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ..errors import UsageError
from .common import (
    add_executor_arguments,
    add_game_argument,
    announce_compilation,
    counted,
    executor_from_args,
)
from .progress import bar, end_progress, show_progress

if TYPE_CHECKING:
    from ..runners.match import GameTask

#: games in one run at most (each is a task description held until it is played)
MAX_GAMES = 1_000_000

EXAMPLES = """examples:
  kradan match kradan xboard:/usr/games/fairymax --games 20 --tc 10+0.1
  kradan match kradan:tc=10+0.1 uci:/usr/local/bin/fairy-stockfish:tc=2.5+0.025 --games 100
  kradan match kradan kradan:level=19 --sprt 0,10 --games 20000 --concurrency 2 --tc 10+0.1
  kradan match "uci:benchmarks/engine-at HEAD" "uci:benchmarks/engine-at main" --nodes 20000 \\
      --resign 4,1000 --draw 40,8,10 --sprt 0,10 --games 4000 --concurrency 2"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "match",
        help="play a match between two players (kradan at a level, external engines)",
        description="Play GAMES games between two players from a set of openings (each twice, "
        "colours swapped), adjudicated by kradan's rules, and estimate the Elo difference. "
        "Players: kradan[:level=N], uci:COMMAND, xboard:COMMAND, random; a player's own "
        "time control (time odds): kradan:tc=10+0.1, kradan:level=5,tc=4+0.04, "
        "uci:COMMAND:tc=2.5+0.025. With --sprt the match stops as soon as the test decides.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("first", help="the first player (its score is reported)")
    parser.add_argument("second", help="the second player")
    add_game_argument(parser)
    parser.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    parser.add_argument("--tc", default="10+0.1", help="time control SECONDS[+INC] (10+0.1)")
    parser.add_argument("--pgn", help="save every game to this PGN file")
    parser.add_argument(
        "--openings", metavar="FILE",
        help="start positions: a PGN file (each game's main line), or FENs or UCI lines",
    )  # fmt: skip
    parser.add_argument(
        "--nodes", type=int, default=0, metavar="N",
        help="think about N nodes a move (within 10%%, drawn per opening) instead of using a "
        "clock: games that other work on the machine cannot disturb, for testing a change that "
        "leaves the engine's speed alone; kradan and UCI players",
    )  # fmt: skip
    parser.add_argument(
        "--skip-openings", type=int, default=0, metavar="N",
        help="start N openings (2N games) into the schedule, as that far into a longer match: "
        "a second run goes on where the first stopped (with --nodes the games would repeat)",
    )  # fmt: skip
    parser.add_argument("--max-plies", type=int, default=400, help="adjudicate a draw after this")
    parser.add_argument(
        "--resign", metavar="MOVES,CP",
        help="adjudicate a loss when, for MOVES moves in a row each, the side's own score is CP "
        "centipawns or more below zero and its opponent's as far above (both must agree)",
    )  # fmt: skip
    parser.add_argument(
        "--draw", metavar="FROM_MOVE,MOVES,CP",
        help="from move FROM_MOVE on, adjudicate a draw when both players' scores have stayed "
        "within CP centipawns of zero for MOVES moves in a row each",
    )  # fmt: skip
    parser.add_argument(
        "--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
        help="test whether the first player is ELO1 stronger (H1) or at most ELO0 (H0) on "
        "game pairs (pentanomial); stop when decided; --games is then the most to play",
    )  # fmt: skip
    add_executor_arguments(parser, "games played")
    parser.set_defaults(run=run)


def check_players(task: GameTask, variant: str) -> None:
    """Start each player once before the match, so that a command that cannot start stops
    the match at once, with its error, instead of losing every game (during the match a
    player that fails loses its game and the match goes on). Skipped on a cluster, whose
    nodes, not this machine, run the players."""
    from ..runners.players import make_player

    for spec in dict.fromkeys((task.first, task.second)):
        make_player(spec, game=variant).close()


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    from ..executors.local import LocalExecutor
    from ..games import canonical_name
    from ..runners.adjudication import DrawRule, ResignRule
    from ..runners.match import (
        GameRecord,
        MatchResult,
        TimeControl,
        load_openings,
        run_match,
        tasks,
    )
    from ..runners.sprt import Sprt, SprtBounds

    variant = canonical_name(args.variant)
    control = TimeControl.parse(args.tc)
    if args.games < 1:
        raise UsageError(f"--games {args.games} must be at least 1")
    if args.games > MAX_GAMES:
        raise UsageError(f"--games {args.games}: at most {MAX_GAMES:,} in one run")
    openings = load_openings(args.openings, variant) if args.openings else None
    resign = ResignRule.parse(args.resign) if args.resign else None
    draw = DrawRule.parse(args.draw) if args.draw else None
    games = tasks(args.first, args.second, variant, args.games, control, args.max_plies, openings,
                  args.nodes, resign, draw, args.skip_openings)  # fmt: skip
    sprt = Sprt(SprtBounds.parse(args.sprt)) if args.sprt else None
    executor, concurrency = executor_from_args(args)
    if executor is None or isinstance(executor, LocalExecutor):
        check_players(games[0], variant)
    if executor is not None:
        print(f"kradan: {len(games)} games, {concurrency} at a time, on {executor.describe()}",
              file=sys.stderr, flush=True)  # fmt: skip
    handle = open(args.pgn, "w", encoding="utf-8") if args.pgn else None  # noqa: SIM115
    written = 0

    def on_game(record: GameRecord) -> None:  # in round order
        nonlocal written
        written += 1
        if handle is not None:
            handle.write(record.pgn + "\n")
            handle.flush()

    def on_done(done: int, record: GameRecord) -> None:  # as each game ends, anywhere
        llr = f" LLR {sprt.llr():+.2f}" if sprt is not None else ""
        show_progress(f"{bar(done, len(games))} last: {record.result} ({record.termination}){llr}")

    def decided(result: MatchResult) -> bool:
        """After each pair (an opening with both colours), the SPRT's verdict."""
        if sprt is None or len(result.games) % 2:
            return False
        sprt.add_pair(sum(g.first_player_points for g in result.games[-2:]))
        return sprt.verdict is not None

    try:
        result = run_match(games, concurrency, on_game, executor=executor, on_done=on_done,
                           stop=decided)  # fmt: skip
    except KeyboardInterrupt:
        saved = f"; {args.pgn} holds the first {written}" if handle is not None else ""
        print(f"\nkradan: match stopped after {written} games in round order{saved}",
              file=sys.stderr)  # fmt: skip
        raise
    finally:
        if handle is not None:
            handle.close()
        if executor is not None:
            executor.shutdown()
    end_progress()
    if executor is not None and executor.replayed:
        print(f"kradan: {executor.replayed} games replayed after their worker was lost",
              file=sys.stderr)  # fmt: skip
    elo, margin = result.elo()
    names = {g.white if g.first_is_white else g.black for g in result.games}
    first = names.pop() if len(names) == 1 else args.first
    width = max(28, len(first))  # a name with its spec (two builds) widens the column
    print(f"{'player':<{width}} {'wins':>5} {'draws':>6} {'losses':>7} {'score':>7}")
    print(f"{first:<{width}} {result.wins:>5} {result.draws:>6} {result.losses:>7} "
          f"{100 * result.score:>6.1f}%")  # fmt: skip
    print(
        f"Elo difference: {elo:+.0f} +/- {margin:.0f} (95%), {counted(len(result.games), 'game')}"
    )
    if sprt is not None:
        print(sprt.summary())
    return 0
