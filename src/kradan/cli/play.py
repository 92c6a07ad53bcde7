"""``kradan play VARIANT``: a game against the engine in the terminal.

Type moves in SAN (``e4``, ``Nd2``, ``cxb6``), in UCI (``e3e4``, ``R@a1``), or in Thai SAN; in
Alquerque as the points visited (``c2c3``, ``b3xd3xd5``, ``hc3,b2c3`` to huff c3 first). Other
commands: ``hint``, ``undo``, ``moves``, ``count`` (declare a count), ``stop`` (stop your count),
``draw`` (claim or offer a draw), ``resign``, ``flip``, ``help``, ``quit``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import Any

from .common import (
    EXIT_BAD_INPUT,
    add_game_argument,
    announce_compilation,
    fail,
    level,
    seconds,
    wants_colour,
    warn_if_odd,
)
from .render import text_board

HELP = """commands:
  <move>    a move in SAN (e4, Nd2, cxb6=M), UCI (e3e4, R@a1) or Thai SAN;
            in Alquerque the points visited (c2c3, b3xd3xd5, hc3,b2c3)
  hint      suggest a move          undo    take back your last move
  moves     list the legal moves    flip    turn the board around
  count     declare a count         stop    stop your count (declared counting)
  draw      claim (or offer) a draw resign  give up
  help      this text               quit    leave"""


#: the engine accepts no draw offer before this ply of the game (move 10), as players do not
EARLIEST_DRAW_PLY = 20


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game against the engine in the terminal",
        description="Play against kradan's engine. " + __doc__.split("\n\n")[1].replace("\n", " "),
        epilog="Example: kradan play makruk --color black --level 8 --time 2",
    )
    add_game_argument(parser, positional=True)
    parser.add_argument("--color", choices=["white", "black", "random"], default="white")
    parser.add_argument(
        "--level", type=level, default=10, help="engine strength 1..20 (default 10)"
    )
    parser.add_argument("--time", type=seconds, default=2.0, help="engine seconds per move (2)")
    parser.add_argument("--book", metavar="BOOK", help="the engine plays from this opening book")
    parser.add_argument("--counting", choices=["auto", "declared"], default="auto",
                        help="counting rules, for the games that count (auto)")  # fmt: skip
    parser.add_argument("--fen", help="start from this position")
    parser.add_argument("--no-color", action="store_true",
                        help="plain text, no ANSI colours (also when NO_COLOR is set or the "
                             "output is not a terminal)")  # fmt: skip
    parser.add_argument("--pgn", metavar="FILE", help="add the game to this PGN file at the end")
    parser.set_defaults(run=run)


class TerminalGame:
    """The play loop, with input and output injected so that it can be tested."""

    def __init__(
        self,
        args: argparse.Namespace,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        from ..games import CountingBoard, find_game
        from ..runners.players import KradanPlayer

        self.read = read
        self.write = write
        self.colour = wants_colour(args.no_color)
        game = find_game(args.variant)
        options = game.applicable_options(counting=args.counting)
        self.board: Any = game.new_board(args.fen, **options)
        warn_if_odd(self.board)
        self.counting = isinstance(self.board, CountingBoard)
        side = args.color if args.color != "random" else random.choice(["white", "black"])
        self.human = side == "white"
        self.flipped = not self.human
        self.level = args.level
        from ..engine.book import Book

        book_file = getattr(args, "book", None)
        book = Book.read(book_file) if book_file else None
        self.engine = KradanPlayer(self.level, game=self.board.variant.name, book=book, warm=False)
        self.seconds = args.time
        from .._core.warmup import compile_all, stop_announcing
        from ..engine.warmup import Warmup

        # the move generator first, here (announced when it compiles): the board, the player's
        # moves and their SAN need it, and numba compiles one function at a time
        compile_all()
        stop_announcing()
        # then the search compiles (a first run) or loads while the player reads the board
        self._warmup: Warmup | None = Warmup(self.engine.searchers, self.board.copy(), _silent)

    def engine_ready(self) -> None:
        """Wait until the engine's search is ready (saying why when it compiles)."""
        warmup, self._warmup = self._warmup, None
        if warmup is None:
            return
        if warmup.compiling:
            self.write("kradan is compiling its search, once after an install; a moment ...")
        warmup.wait()

    def pgn(self) -> str:
        """The game so far as PGN, the player and the engine named."""
        from ..pgn import game_text

        engine = f"kradan (level {self.level})"
        white, black = ("player", engine) if self.human else (engine, "player")
        return game_text(self.board, {"Event": "kradan play", "White": white, "Black": black})

    # --- drawing ----------------------------------------------------------------------------------

    def render(self) -> str:
        return text_board(self.board, flipped=self.flipped, colour=self.colour)

    # --- the loop ---------------------------------------------------------------------------------

    def run(self) -> str:
        """Play until the game ends or the player leaves; returns the result."""
        from ..engine.types import Limit
        from ..outcome import Outcome

        side = "White" if self.human else "Black"
        self.write(
            f"kradan: {self.board.variant.title}. You play {side}. Type 'help' for commands."
        )
        self.write(self.render())
        while True:
            outcome: Outcome | None = self.board.outcome()
            if outcome is not None:
                self.write(f"Game over: {outcome.result()} ({outcome.termination.value})")
                return outcome.result()
            if self.board.turn != self.human:
                self.engine_ready()
                answer = self.engine.choose_move(self.board, Limit(time=self.seconds))
                if answer.move is None:
                    self.write("The engine has no move.")
                    return str(self.board.result())
                if answer.count == "declare":
                    self.board.declare_count()
                    self.write(f"kradan declares a count: {self.board.counting_state()}")
                elif answer.count == "stop":
                    self.board.stop_count()
                    self.write("kradan stops its count")
                from_book = " (book)" if answer.info.get("book") else ""
                self.write(f"kradan plays {self.board.san(answer.move)}{from_book}")
                self.board.push(answer.move)
                self.write(self.render())
                continue
            try:
                line = self.read("your move> ").strip()
            except EOFError:
                return "*"
            if not line:
                continue
            result = self.command(line)
            if result is not None:
                return result

    def command(self, line: str) -> str | None:
        """Carry out one line of input; returns a result when the game is over."""
        from ..errors import KradanError

        word = line.lower()
        if word in ("quit", "exit"):
            return "*"
        if word == "help":
            self.write(HELP)
        elif word == "moves":
            self.write(" ".join(sorted(self.board.san(m) for m in self.board.legal_moves)))
        elif word == "flip":
            self.flipped = not self.flipped
            self.write(self.render())
        elif word == "hint":
            self._hint()
        elif word in ("undo", "takeback"):
            self._undo()
        elif not self.counting and word in ("count", "declare", "stop"):
            self.write(f"{self.board.variant.title} has no counting")
        elif word in ("count", "declare"):
            try:
                self.board.declare_count()
                self.write(str(self.board.counting_state()))
            except KradanError as error:
                self.write(f"cannot declare: {error}")
        elif word == "stop":
            try:
                self.board.stop_count()
                self.write("count stopped")
            except KradanError as error:
                self.write(f"cannot stop: {error}")
        elif word == "resign":
            outcome = self.board.resign(self.human)
            result: str = outcome.result()
            self.write(f"You resign: {result}")
            return result
        elif word == "draw":
            return self._draw()
        else:
            self._move(line)
        return None

    def _move(self, text: str) -> None:
        from ..errors import KradanError

        try:
            move = self.board.parse_san(text)
        except KradanError as error:
            self.write(str(error))
            return
        self.board.push(move)
        self.write(self.render())

    def _hint(self) -> None:
        """The endgame tables' move when they know the position (with their verdict, the count
        included), else the engine's after a short search."""
        from ..engine.tablebase import table_answer
        from ..engine.types import Limit

        found = table_answer(self.board)
        if found is not None and found.best_move is not None:
            self.write(f"hint: {self.board.san(found.best_move)} (endgame table: {found})")
            return
        self.engine_ready()
        answer = self.engine.choose_move(self.board, Limit(time=min(self.seconds, 1.0)))
        if answer.move is not None:
            self.write(f"hint: {self.board.san(answer.move)}")

    def _undo(self) -> None:
        from ..counting import CountAction

        undone = 0
        while self.board.move_stack:
            entry = self.board.pop()
            is_move = not isinstance(entry, CountAction)
            undone += is_move
            if is_move and self.board.turn == self.human:
                break
        self.write(self.render() if undone else "nothing to take back")

    def _draw(self) -> str | None:
        from ..engine.types import Limit

        claim = self.board.outcome(claim_draw=True)
        if claim is not None and claim.winner is None:
            self.write(f"Draw claimed: {claim.termination.value}")
            return "1/2-1/2"
        if self.board.ply < EARLIEST_DRAW_PLY:
            self.write(
                f"kradan declines the draw: too early (before move {EARLIEST_DRAW_PLY // 2})"
            )
            return None
        self.engine_ready()
        searcher = self.engine.searcher_for(self.board)
        answer = searcher.best_move(self.board, Limit(time=min(self.seconds, 1.0)))
        score = answer.info.score if answer.info else None
        if score is not None and score.mate is None and (score.cp or 0) >= -50:
            # the engine's score is for the side to move, you: it accepts when it is not ahead
            self.board.agree_draw()
            self.write("kradan accepts the draw: 1/2-1/2")
            return "1/2-1/2"
        self.write("kradan declines the draw")
        return None


def _silent() -> None:
    """The warm-up says nothing when it starts compiling: the player may be typing."""


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    game = TerminalGame(args)
    game.run()
    if getattr(args, "pgn", None):
        try:
            with open(args.pgn, "a", encoding="utf-8") as handle:
                handle.write(game.pgn() + "\n")
        except OSError as error:
            fail(f"cannot save the game to {args.pgn!r}: {error.strerror}")
            print(game.pgn())
            return EXIT_BAD_INPUT
        print(f"game saved to {args.pgn}")
    return 0


__all__ = ["HELP", "TerminalGame", "add_parser", "run"]
