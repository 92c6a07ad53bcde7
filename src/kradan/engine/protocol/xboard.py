"""``kradan xboard``: the engine over the XBoard/WinBoard protocol (CECP, version 2).

Games are chosen with ``variant makruk`` (or cambodian, karouk, sittuyin); moves are the same
strings as UCI's. Unknown commands are answered ``Error (unknown command): ...`` and illegal
moves ``Illegal move: ...``; nothing ends the process but ``quit``. The engine thinks in its
own thread, so ``?`` (move now), ``ping`` and ``quit`` are answered while it searches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TextIO

from .. import __version__
from ..board import Board
from ..errors import KradanError
from ..move import Move
from ..variants import find_variant, variant_names
from .search import Limit, Searcher, SearchInfo
from .serve import serve

#: commands that need no answer from this engine
IGNORED = frozenset(
    {"random", "hard", "easy", "computer", "name", "rating", "result", "draw", "ics", "cores",
     "memory", "option", "white", "black", "accepted", "rejected", "xboard"}
)  # fmt: skip


class XBoardEngine:
    """One XBoard session."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._lock = threading.Lock()
        self.searcher = Searcher(16)
        self.variant = "makruk"
        self.board = Board(variant=self.variant)
        self.engine_side: bool | None = False  # the side the engine plays; None in force mode
        self.post = False
        self.base = 300.0
        self.increment = 0.0
        self.moves_per_session = 0
        self.fixed_time: float | None = None
        self.depth: int | None = None
        self.clock = 300.0
        self.opponent_clock = 300.0
        self._thread: threading.Thread | None = None

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    # --- commands -------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Execute one command; returns ``False`` after ``quit``."""
        text = line.strip()
        if not text:
            return True
        command, _, rest = text.partition(" ")
        if command in IGNORED:
            return True
        handler = getattr(self, f"cmd_{command.replace('?', 'now')}", None)
        try:
            if handler is not None:
                return handler(rest.strip()) is not False
            if self._looks_like_move(command):
                self.cmd_usermove(command)
                return True
            self.send(f"Error (unknown command): {text}")
        except (KradanError, ValueError) as error:
            self.send(f"Error ({error}): {text}")
        return True

    def _looks_like_move(self, text: str) -> bool:
        return len(text) >= 4 and (text[1].isdigit() or "@" in text)

    def cmd_protover(self, rest: str) -> None:
        names = ",".join(variant_names())
        self.send(
            f'feature myname="kradan {__version__}" variants="{names}" setboard=1 usermove=1 '
            "ping=1 sigint=0 sigterm=0 colors=0 analyze=0 reuse=1 done=1"
        )

    def cmd_new(self, rest: str) -> None:
        self._stop()
        self.board = Board(variant=self.variant)
        self.engine_side = False  # the engine plays Black after "new"
        self.fixed_time = None
        self.depth = None
        self.searcher.clear()

    def cmd_variant(self, rest: str) -> None:
        self._stop()
        self.variant = find_variant(rest).name
        self.board = Board(variant=self.variant)

    def cmd_force(self, rest: str) -> None:
        self._stop()
        self.engine_side = None

    def cmd_go(self, rest: str) -> None:
        self._stop()
        self.engine_side = self.board.turn
        self._think()

    def cmd_playother(self, rest: str) -> None:
        self._stop()
        self.engine_side = not self.board.turn

    def cmd_usermove(self, rest: str) -> None:
        self._stop()
        try:
            move = self.board.parse_uci(rest)
        except ValueError:
            self.send(f"Illegal move: {rest}")
            return
        self.board.push(move)
        if self.engine_side is not None and self.board.turn == self.engine_side:
            self._think()

    def cmd_setboard(self, rest: str) -> None:
        self._stop()
        try:
            self.board = Board(rest, variant=self.variant)
        except ValueError as error:
            self.send(f"tellusererror Illegal position: {error}")

    def cmd_level(self, rest: str) -> None:
        parts = rest.split()
        if len(parts) != 3:
            raise ValueError("level needs MPS BASE INC")
        self.moves_per_session = int(parts[0])
        minutes, _, seconds = parts[1].partition(":")
        self.base = 60 * float(minutes) + float(seconds or 0)
        self.increment = float(parts[2])
        self.clock = self.opponent_clock = self.base
        self.fixed_time = None

    def cmd_st(self, rest: str) -> None:
        self.fixed_time = float(rest)

    def cmd_sd(self, rest: str) -> None:
        self.depth = int(rest)

    def cmd_time(self, rest: str) -> None:
        self.clock = int(rest) / 100

    def cmd_otim(self, rest: str) -> None:
        self.opponent_clock = int(rest) / 100

    def cmd_ping(self, rest: str) -> None:
        self._wait()
        self.send(f"pong {rest}")

    def cmd_post(self, rest: str) -> None:
        self.post = True

    def cmd_nopost(self, rest: str) -> None:
        self.post = False

    def cmd_undo(self, rest: str) -> None:
        self._stop()
        if self.board.move_stack:
            self.board.pop()

    def cmd_remove(self, rest: str) -> None:
        self._stop()
        for _ in range(2):
            if self.board.move_stack:
                self.board.pop()

    def cmd_now(self, rest: str) -> None:
        self.searcher.stop()

    def cmd_quit(self, rest: str) -> bool:
        self._stop()
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
        board = self.board.copy()
        limit = self._limit()
        self.searcher.arm()
        self._thread = threading.Thread(target=self._search, args=(board, limit), daemon=True)
        self._thread.start()

    def _search(self, board: Board, limit: Limit) -> None:
        last: SearchInfo[Move] | None = None
        for info in self.searcher.search(board, limit, armed=True):
            last = info
            if self.post:
                cp = info.score.cp if info.score.cp is not None else (
                    100000 - abs(info.score.mate or 0) if (info.score.mate or 0) > 0
                    else -100000 + abs(info.score.mate or 0)
                )  # fmt: skip
                pv = " ".join(move.uci() for move in info.pv)
                self.send(f"{info.depth} {cp} {int(info.seconds * 100)} {info.nodes} {pv}")
        if last is not None and last.pv:
            move = last.pv[0]
        else:
            moves = list(board.legal_moves)
            if not moves:
                return
            move = moves[0]
        if board is not None and self.board.fen() == board.fen():
            self.board.push(move)
            self.send(f"move {move.uci()}")
            outcome = self.board.outcome(claim_draw=True)
            if outcome is not None:
                self.send(f"{outcome.result()} {{{outcome.termination.value}}}")

    def _stop(self) -> None:
        self.searcher.stop()
        self._wait()

    def shutdown(self) -> None:
        """Stop any search and wait for it (the input has ended)."""
        self._stop()

    def _wait(self) -> None:
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None


def run(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve XBoard on ``stdin``/``stdout`` until ``quit`` or end of input."""
    return serve(XBoardEngine, stdin, stdout)
