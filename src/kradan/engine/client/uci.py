"""Drive an engine that speaks UCI: Fairy-Stockfish, or ``kradan uci`` itself.

>>> with UciClient.popen("kradan uci") as engine:  # doctest: +SKIP
...     engine.play(Board(), Limit(depth=4)).move
Move.from_uci('b1d2')
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from typing import Any

from ...errors import EngineError
from ..types import Limit, PlayResult, SearchInfo
from .info import line_moves, uci_info
from .options import EngineOption, find_option, uci_option
from .process import STARTUP_GRACE, Client, outcome, think_time


def root_and_moves(board: Any) -> tuple[Any, list[Any]]:
    """The position ``board``'s game started from, and the moves played since."""
    root = board.copy()
    moves = []
    while root.move_stack:
        moves.append(root.pop())
    moves.reverse()
    return root, moves


def answer(move: Any, lines: dict[int, SearchInfo[Any]], **extra: Any) -> PlayResult:
    """A :class:`PlayResult` for ``move``: the best line's report as its info (python-chess's
    keys) and the reply it expects as ``ponder``, when that line starts with ``move``."""
    best = lines.get(1)
    info: dict[str, object] = best.as_dict() if best is not None else {}
    ponder = None
    if best is not None and len(best.pv) > 1 and best.pv[0] == move:
        ponder = best.pv[1]
    return PlayResult(move, info, ponder=ponder, **extra)


class UciClient(Client):
    """An engine that speaks UCI."""

    def handshake(self) -> None:
        self.process.send("uci")
        self.answered_ping = False
        deadline = self.deadline(STARTUP_GRACE)
        #: the engine's options by name
        self.options: dict[str, EngineOption] = {}
        #: the game and the number of lines the engine was last told (``None``: not yet)
        self.variant: str | None = None
        self.lines = 1
        #: the number of lines configured (``MultiPV``), for a search that names none
        self.multipv = 1
        while True:
            line = self.process.readline(deadline)
            if line.startswith("id "):
                key, _, value = line[3:].strip().partition(" ")
                self.id[key] = value.strip()
                if key == "name":
                    self.name = value.strip()
            elif line.startswith("option name "):
                option = uci_option(line)
                self.options[option.name] = option
            elif line.strip() == "uciok":
                return

    def configure(self, options: dict[str, object]) -> None:
        """Set options (``{"Hash": 64, "UCI_Variant": "makruk"}``), each checked against what
        the engine declared.

        :raises InvalidArgumentError: for an option the engine lacks or a value it does not
            take, quoted.
        """
        for name, value in options.items():
            option = find_option(self.options, name, self.name)
            text = option.text(value)
            if option.name.lower() == "uci_variant":
                self.variant = text
            elif option.name.lower() == "multipv":
                self.lines = self.multipv = int(text)
            self.process.send(f"setoption name {option.name}" + (f" value {text}" if text else ""))
        self.ping()

    def ping(self) -> None:
        self.process.send("isready")
        deadline = self.deadline(0.0 if self.answered_ping else STARTUP_GRACE)
        while self.process.readline(deadline).strip() != "readyok":
            pass
        self.answered_ping = True

    def new_game(self) -> None:
        self.process.send("ucinewgame")
        self.ping()

    def think(
        self, board: Any, limit: Limit, lines: int | None = None
    ) -> Generator[SearchInfo[Any], None, PlayResult]:
        """Search ``board`` under ``limit`` for ``lines`` best moves (``None``: as many as
        ``MultiPV`` was set to, 1 unless configured): yields each report the
        engine gives (a :class:`SearchInfo` per ``info`` line with a score), and returns its
        move. Closing the generator early stops the engine and reads its move.

        :raises EngineError: for an engine that cannot show ``lines`` lines, or plays an
            illegal move.
        """
        if "UCI_Variant" in self.options and self.variant != board.variant.name:
            self.process.send(f"setoption name UCI_Variant value {board.variant.name}")
            self.variant = board.variant.name
        lines = self.multipv if lines is None else lines
        if lines != self.lines:
            if "MultiPV" not in self.options:
                raise EngineError(f"{self.name} has no MultiPV option to show {lines} lines")
            self.process.send(f"setoption name MultiPV value {lines}")
            self.lines = lines
        root, moves = root_and_moves(board)
        position = f"position fen {root.fen()}"
        if moves:
            position += " moves " + " ".join(move.uci() for move in moves)
        self.process.send(position)
        self.process.send("go " + uci_limit(limit))
        deadline = self.deadline(think_time(limit, board.turn))
        best: dict[int, SearchInfo[Any]] = {}
        try:
            while True:
                line = self.process.readline(deadline)
                if line.startswith("info "):
                    info = uci_info(line, board)
                    if info is not None:
                        best[info.multipv] = info
                        yield info
                elif line.startswith("bestmove"):
                    return self._played(board, line, best)
        except GeneratorExit:  # the caller stopped listening: stop the engine, drop its move
            with contextlib.suppress(EngineError):
                self.process.send("stop")
                deadline = self.deadline()
                while not self.process.readline(deadline).startswith("bestmove"):
                    pass
            raise

    def _played(self, board: Any, line: str, best: dict[int, SearchInfo[Any]]) -> PlayResult:
        words = line.split()
        if len(words) < 2 or words[1] in ("0000", "(none)"):
            return answer(None, best)
        try:
            move = board.parse_uci(words[1])
        except ValueError as error:
            raise EngineError(f"{self.name} played {words[1]!r}: {error}") from None
        result = answer(move, best)
        if len(words) > 3 and words[2] == "ponder":
            after = board.copy()
            after.push(move)
            reply = line_moves(after, words[3:4])
            result.ponder = reply[0] if reply else None
        return result

    def play(self, board: Any, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` under ``limit``."""
        return outcome(self.think(board, limit))


def uci_limit(limit: Limit) -> str:
    """``limit`` as the words of a ``go`` command (``infinite`` when nothing binds)."""
    parts = []
    if limit.depth is not None:
        parts.append(f"depth {limit.depth}")
    if limit.nodes is not None:
        parts.append(f"nodes {limit.nodes}")
    if limit.time is not None:
        parts.append(f"movetime {int(limit.time * 1000)}")
    if limit.white_clock is not None:
        parts.append(f"wtime {int(limit.white_clock * 1000)} winc {int(limit.white_inc * 1000)}")
    if limit.black_clock is not None:
        parts.append(f"btime {int(limit.black_clock * 1000)} binc {int(limit.black_inc * 1000)}")
    if limit.moves_to_go is not None:
        parts.append(f"movestogo {limit.moves_to_go}")
    return " ".join(parts) or "infinite"


__all__ = ["UciClient", "answer", "root_and_moves", "uci_limit"]
