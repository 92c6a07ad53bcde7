"""``kradan xboard``: the engine over the XBoard/WinBoard protocol (CECP, version 2).

Every game kradan plays: ``variant makruk`` (or cambodian, karouk, sittuyin, alquerque,
alquerque-bell: the names UCI's ``UCI_Variant`` takes). Moves are the same strings as UCI's:
long algebraic for the chess family, the points visited for Alquerque (``c2c3``, ``b3d3d5``,
a huff first as ``hc3,b2c3``); ``setboard`` takes a FEN or an Alquerque position. Unknown
commands are answered ``Error (unknown command): ...`` and illegal moves ``Illegal move: ...``;
nothing ends the process but ``quit``. The engine thinks in its own thread, so ``?`` (move now),
``ping`` and ``quit`` are answered while it searches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TextIO

from ... import __version__
from ...games import AnyBoard, game_names
from ..types import MATE_VALUE, MAX_CONTEMPT, Limit, Score, SearchInfo
from .serve import serve
from .session import (
    EngineSession,
    clipped,
    describe_tables,
    seconds_value,
    tables_directory,
    whole_number,
)

#: commands that need no answer from this engine
IGNORED = frozenset(
    {"random", "hard", "easy", "computer", "name", "rating", "result", "draw", "ics", "cores",
     "memory", "white", "black", "accepted", "rejected", "xboard"}
)  # fmt: skip


class XBoardEngine(EngineSession):
    """One XBoard session."""

    def __init__(self, write: Callable[[str], None]) -> None:
        super().__init__(write)
        self.engine_side: bool | None = False  # the side the engine plays; None in force mode
        self.post = False
        self.base = 300.0
        self.increment = 0.0
        self.moves_per_session = 0
        self.fixed_time: float | None = None
        self.depth: int | None = None
        self.clock = 300.0
        self.opponent_clock = 300.0
        self._moving = threading.Lock()
        self._move_wanted = False  # False once a command has cancelled the search's move

    INSTANT = frozenset({"quit", "protover", "ping"}) | IGNORED
    DEFERRED = frozenset(
        {"new", "variant", "force", "setboard", "level", "st", "sd", "time", "otim", "post",
         "nopost", "egtpath", "option"}
    )  # fmt: skip

    def complain(self, message: str) -> None:
        self.send(f"tellusererror {clipped(message)}")

    def notice(self, message: str) -> None:
        self.send(f"# {clipped(message)}")  # a comment line, which the GUI shows in its log

    def unknown(self, text: str) -> None:
        self.send(clipped(f"Error (unknown command): {text}"))

    def failed(self, text: str, error: Exception) -> None:
        self.send(clipped(f"Error ({error}): {text}"))

    def handler(self, command: str) -> Callable[[str], Any] | None:
        """XBoard's commands; a bare move is a user move, and some commands need no answer."""
        if command in IGNORED:
            return _ignore
        method = super().handler(command.replace("?", "now"))
        if method is None and _looks_like_move(command):
            return lambda rest: self.cmd_usermove(command)
        return method

    def stop(self) -> None:
        """Stop any search without playing its move: every command that stops thinking but
        ``?`` (``new``, ``force``, ``undo``, ``setboard``...) cancels the move, so that no stray
        ``move`` reaches the GUI after it."""
        with self._moving:
            self._move_wanted = False
        super().stop()

    # --- commands -------------------------------------------------------------------------

    def cmd_protover(self, rest: str) -> None:
        names = ",".join(game_names())
        self.send(
            f'feature option="Contempt -spin 0 0 {MAX_CONTEMPT}" option="SolvedTable -check 1"'
        )
        self.send(
            f'feature myname="kradan {__version__}" variants="{names}" setboard=1 usermove=1 '
            'ping=1 sigint=0 sigterm=0 colors=0 analyze=0 reuse=1 egt="kradan" done=1'
        )

    def cmd_option(self, rest: str) -> None:
        """``option NAME=VALUE``, the engine's settings offered by ``feature option``:
        ``Contempt`` (0-100 centipawns; as UCI's) and ``SolvedTable`` (1: answer proven Bell
        Alquerque positions from the solved strategy; 0: search them)."""
        name, equals, value = rest.strip().partition("=")
        name, value = name.strip(), value.strip()
        if name == "Contempt" and equals:
            contempt = whole_number(value, 0, MAX_CONTEMPT)
            self.wait()  # a search under way plays its move first
            self.searchers.use_contempt(contempt)
        elif name == "SolvedTable" and equals:
            words = {"true": "1", "false": "0"}  # what a UCI-minded GUI might send
            solved = whole_number(words.get(value.lower(), value), 0, 1)
            self.wait()
            self.searchers.use_solved(solved == 1)
        elif name in ("Contempt", "SolvedTable"):
            raise ValueError(f"option {name} takes a value: {name}=N")
        else:
            raise ValueError(f"unknown option {name!r}: the options are Contempt and SolvedTable")

    def cmd_egtpath(self, rest: str) -> None:
        """``egtpath kradan DIR``: probe the endgame tables of ``DIR`` (``<default>``: the
        default ones, ``<none>``: none)."""
        kind, _, path = rest.strip().partition(" ")
        if kind.lower() != "kradan":
            raise ValueError(f"kradan reads only its own endgame tables ('kradan'), not {kind!r}")
        self.stop()
        directory = tables_directory(path)
        self.searchers.use_tables(directory)
        self.send(f"# {describe_tables(directory)}")

    def cmd_new(self, rest: str) -> None:
        self.stop()
        self.set_position()
        self.engine_side = False  # the engine plays Black after "new"
        self.fixed_time = None
        self.depth = None
        self.searchers.clear()

    def cmd_variant(self, rest: str) -> None:
        self.stop()
        self.set_game(rest)

    def cmd_force(self, rest: str) -> None:
        self.stop()
        self.engine_side = None

    def cmd_go(self, rest: str) -> None:
        self.stop()
        self.engine_side = self.board.turn
        self._think()

    def cmd_playother(self, rest: str) -> None:
        self.stop()
        self.engine_side = not self.board.turn

    def cmd_usermove(self, rest: str) -> None:
        self.stop()
        try:
            self.board.push_uci(rest)
        except ValueError:
            self.send(clipped(f"Illegal move: {rest}"))
            return
        if self.engine_side is not None and self.board.turn == self.engine_side:
            self._think()

    def cmd_setboard(self, rest: str) -> None:
        self.stop()
        try:
            self.set_position(rest)
        except ValueError as error:
            self.complain(f"Illegal position: {error}")

    def cmd_level(self, rest: str) -> None:
        parts = rest.split()
        if len(parts) != 3:
            raise ValueError("level needs MPS BASE INC")
        self.moves_per_session = whole_number(parts[0], 0, 10**6)
        minutes, _, seconds = parts[1].partition(":")
        self.base = 60 * seconds_value(minutes) + seconds_value(seconds or "0")
        self.increment = seconds_value(parts[2])
        self.clock = self.opponent_clock = self.base
        self.fixed_time = None

    def cmd_st(self, rest: str) -> None:
        self.fixed_time = seconds_value(rest)

    def cmd_sd(self, rest: str) -> None:
        self.depth = whole_number(rest, 1, 10**6)

    def cmd_time(self, rest: str) -> None:
        self.clock = whole_number(rest, -(10**11), 10**11) / 100

    def cmd_otim(self, rest: str) -> None:
        self.opponent_clock = whole_number(rest, -(10**11), 10**11) / 100

    def cmd_ping(self, rest: str) -> None:
        self.wait()
        self.ready()
        self.send(clipped(f"pong {rest}"))

    def cmd_post(self, rest: str) -> None:
        self.post = True

    def cmd_nopost(self, rest: str) -> None:
        self.post = False

    def cmd_undo(self, rest: str) -> None:
        self.stop()
        if self.board.move_stack:
            self.board.pop()

    def cmd_remove(self, rest: str) -> None:
        self.stop()
        for _ in range(2):
            if self.board.move_stack:
                self.board.pop()

    def cmd_now(self, rest: str) -> None:
        self.searchers.stop()

    def cmd_quit(self, rest: str) -> bool:
        self.stop()
        return False

    # --- thinking -------------------------------------------------------------------------

    def _limit(self) -> Limit:
        if self.fixed_time is not None:
            return Limit(time=self.fixed_time, depth=self.depth)
        white = self.board.turn
        mine, theirs = self.clock, self.opponent_clock
        togo = None
        if self.moves_per_session:
            played = (len(self.board.move_stack) // 2) % self.moves_per_session
            togo = self.moves_per_session - played
        return Limit(
            depth=self.depth,
            white_clock=mine if white else theirs,
            black_clock=theirs if white else mine,
            white_inc=self.increment,
            black_inc=self.increment,
            moves_to_go=togo,
        )

    def _think(self) -> None:
        if self.board.outcome(claim_draw=True) is not None:
            return
        self._move_wanted = True
        self.start_thinking(self._limit())

    def think(self, board: AnyBoard, limit: Limit) -> None:
        last: SearchInfo[Any] | None = None
        for info in self.searchers.for_board(board).search(board, limit, armed=True):
            last = info
            if self.post:
                pv = " ".join(move.uci() for move in info.pv)
                seconds = int(info.seconds * 100)
                score = thinking_score(info.score.relative)
                self.send(f"{info.depth} {score} {seconds} {info.nodes} {pv}")
        for problem in self.table_news(board):
            self.send(clipped(f"# endgame tables: {problem}"))
        if last is not None and last.pv:
            move = last.pv[0]
        else:
            moves: list[Any] = list(board.legal_moves)
            if not moves:
                return
            move = moves[0]
        with self._moving:
            if not self._move_wanted or self.board.fen() != board.fen():
                return
            self._move_wanted = False
            self.board.push(move)
            self.send(f"move {move.uci()}")
            outcome = self.board.outcome(claim_draw=True)
            if outcome is not None:
                self.send(f"{outcome.result()} {{{outcome.termination.value}}}")


def _ignore(rest: str) -> None:
    pass


def _looks_like_move(text: str) -> bool:
    """A bare move without ``usermove``: ``e3e4``, a drop ``S@b2``, an Alquerque huff first."""
    return len(text) >= 4 and (text[1].isdigit() or "@" in text or "," in text)


def run(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve XBoard on ``stdin``/``stdout`` until ``quit`` or end of input."""
    return serve(XBoardEngine, stdin, stdout, warm=True)


def thinking_score(score: Score) -> int:
    """A score as XBoard's thinking output writes it: centipawns, ``100000 + n`` for a mate in
    ``n`` moves and ``-100000 - n`` for mated in ``n`` (the protocol's convention)."""
    if score.mate is None:
        return score.cp or 0
    return MATE_VALUE + score.mate if score.mate > 0 else -MATE_VALUE + score.mate
