"""``kradan play VARIANT``: a game against the engine in the terminal.

Type moves in SAN (``e4``, ``Nd2``, ``cxb6``), in UCI (``e3e4``, ``R@a1``), or in Thai SAN; in
Alquerque as the points visited (``c2c3``, ``b3xd3xd5``, ``hc3,b2c3`` to huff c3 first). Other
commands: ``hint``, ``undo``, ``moves``, ``count`` (declare a count), ``stop`` (stop your count),
``draw`` (claim or offer a draw), ``resign``, ``flip``, ``help``, ``quit``.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections.abc import Callable
from typing import Any

from .._core.warmup import announce_compilation

HELP = """commands:
  <move>    a move in SAN (e4, Nd2, cxb6=M), UCI (e3e4, R@a1) or Thai SAN;
            in Alquerque the points visited (c2c3, b3xd3xd5, hc3,b2c3)
  hint      suggest a move          undo    take back your last move
  moves     list the legal moves    flip    turn the board around
  count     declare a count         stop    stop your count (declared counting)
  draw      claim (or offer) a draw resign  give up
  help      this text               quit    leave"""

_RESET = "\033[0m"
_LIGHT, _DARK = "\033[48;5;180m", "\033[48;5;137m"
_WHITE_PIECE, _BLACK_PIECE = "\033[1;97m", "\033[1;30m"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game against the engine in the terminal",
        description="Play against kradan's engine. " + __doc__.split("\n\n")[1].replace("\n", " "),
        epilog="Example: kradan play makruk --color black --level 8 --time 2",
    )
    parser.add_argument("variant", nargs="?", default="makruk", help="the game (default makruk)")
    parser.add_argument("--color", choices=["white", "black", "random"], default="white")
    parser.add_argument("--level", type=int, default=10, help="engine strength 1..20 (default 10)")
    parser.add_argument("--time", type=float, default=2.0, help="engine seconds per move (2)")
    parser.add_argument("--counting", choices=["auto", "declared"], default="auto")
    parser.add_argument("--fen", help="start from this position")
    parser.add_argument("--no-color", action="store_true", help="plain text, no ANSI colours")
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
        from .. import alquerque
        from ..engine.levels import MAX_LEVEL
        from ..games import new_board
        from ..players import KradanPlayer

        self.read = read
        self.write = write
        self.colour = not args.no_color
        self.alquerque = alquerque.is_alquerque_name(args.variant)
        options = {} if self.alquerque else {"counting": args.counting}
        self.board: Any = new_board(args.variant, args.fen, **options)
        side = args.color if args.color != "random" else random.choice(["white", "black"])
        self.human = side == "white"
        self.flipped = not self.human
        level = max(1, min(MAX_LEVEL, args.level))
        self.level = level
        self.engine = KradanPlayer(level, game=self.board.variant.name)
        self.seconds = args.time

    def pgn(self) -> str:
        """The game so far as PGN, the player and the engine named."""
        from ..pgn import game_text

        engine = f"kradan (level {self.level})"
        white, black = ("player", engine) if self.human else (engine, "player")
        return game_text(self.board, {"Event": "kradan play", "White": white, "Black": black})

    # --- drawing ----------------------------------------------------------------------------------

    def render(self) -> str:
        if self.alquerque:
            return render_alquerque(self.board, self.flipped)
        return render_chess(self.board, self.flipped, self.colour)

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
                answer = self.engine.choose_move(self.board, Limit(time=self.seconds))
                if answer.move is None:
                    self.write("The engine has no move.")
                    return str(self.board.result())
                self.write(f"kradan plays {self.board.san(answer.move)}")
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
        from ..engine.types import Limit
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
            answer = self.engine.choose_move(self.board, Limit(time=min(self.seconds, 1.0)))
            if answer.move is not None:
                self.write(f"hint: {self.board.san(answer.move)}")
        elif word in ("undo", "takeback"):
            self._undo()
        elif self.alquerque and word in ("count", "declare", "stop"):
            self.write("Alquerque has no counting")
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
            move = self.board.parse_uci(text) if self.alquerque else self.board.parse_san(text)
        except KradanError as error:
            self.write(str(error))
            return
        self.board.push(move)
        self.write(self.render())

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


def render_chess(board: Any, flipped: bool = False, colour: bool = True) -> str:
    """A chess-family board as text, from White's side (Black's when ``flipped``), with ANSI
    colours when ``colour``: the last move's squares marked, and a status line."""
    from ..move import Move

    rows = []
    ranks = range(8) if flipped else range(7, -1, -1)
    files = range(7, -1, -1) if flipped else range(8)
    moves = [entry for entry in board.move_stack if isinstance(entry, Move)]
    last = moves[-1] if moves else None
    for rank in ranks:
        cells = []
        for file in files:
            square = rank * 8 + file
            piece = board.piece_at(square)
            text = f" {piece.symbol() if piece else '.'} "
            if colour:
                background = _LIGHT if (rank + file) % 2 else _DARK
                if last is not None and square in (last.from_square, last.to_square):
                    background = "\033[48;5;143m"
                fg = _WHITE_PIECE if piece and piece.color else _BLACK_PIECE
                text = f"{background}{fg}{text}{_RESET}"
            cells.append(text)
        rows.append(f"{rank + 1} " + "".join(cells))
    rows.append("  " + "".join(f" {'abcdefgh'[f]} " for f in files))
    state = board.counting_state()
    status = [f"{'White' if board.turn else 'Black'} to move"]
    if board.is_check():
        status.append("check")
    if state is not None:
        status.append(str(state))
    rows.append("  " + "; ".join(status))
    return "\n".join(rows)


def render_alquerque(board: Any, flipped: bool = False) -> str:
    """The 25 points and the lines between them, White's men ``P`` and kings ``K``, Black's
    ``p`` and ``k``; ``flipped`` turns the board around (Black's view)."""
    from ..alquerque import point_name
    from ..pieces import KING

    ys = range(5) if flipped else range(4, -1, -1)
    xs = list(range(4, -1, -1) if flipped else range(5))
    rows = []
    for index, y in enumerate(ys):
        cells = []
        for x in xs:
            piece = board.piece_at(y * 5 + x)
            letter = "." if piece is None else ("k" if piece.piece_type == KING else "p")
            cells.append(letter.upper() if piece is not None and piece.color else letter)
        rows.append(f"{y + 1}  " + "---".join(cells))
        if index < 4:
            below = y - 1 if not flipped else y + 1
            low_y = min(y, below)
            links = []
            for a, b in itertools.pairwise(xs):
                links.append("/" if (min(a, b) + low_y) % 2 == 0 else "\\")
            rows.append("   " + "".join(f"| {link} " for link in links) + "|")
    rows.append("   " + "   ".join("abcde"[x] for x in xs))
    status = [f"{'White' if board.turn else 'Black'} to move"]
    liable = board.huff_liable()
    if liable:
        status.append("may huff " + ", ".join(point_name(p) for p in liable))
    rows.append("   " + "; ".join(status))
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    announce_compilation()
    game = TerminalGame(args)
    game.run()
    if getattr(args, "pgn", None):
        try:
            with open(args.pgn, "a", encoding="utf-8") as handle:
                handle.write(game.pgn() + "\n")
        except OSError as error:
            print(f"kradan: error: cannot save the game to {args.pgn!r}: {error.strerror}",
                  file=sys.stderr)  # fmt: skip
            print(game.pgn())
            return 2
        print(f"game saved to {args.pgn}")
    return 0


__all__ = ["HELP", "TerminalGame", "add_parser", "render_alquerque", "render_chess", "run"]
