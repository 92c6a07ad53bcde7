"""Drive an engine that speaks XBoard/CECP (protocol 2), such as Fairy-Max or ``kradan xboard``.

The engine thinks on its own move with ``post`` on; its thinking lines are its reports
(:func:`~kradan.engine.client.info.xboard_info`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Generator
from typing import Any

from ...errors import EngineError
from ...games import game_of
from ..types import Limit, PlayResult, SearchInfo
from .info import line_moves, xboard_info
from .options import EngineOption, find_option, xboard_option
from .process import Client, outcome, think_time
from .uci import answer, root_and_moves


class XBoardClient(Client):
    """An engine that speaks XBoard/CECP (protocol 2), such as Fairy-Max."""

    def handshake(self) -> None:
        #: the features the engine declared, and its options by name
        self.features: dict[str, str] = {}
        self.options: dict[str, EngineOption] = {}
        # what the engine's game holds: variant, start, moves, and how it was told to think
        self.game: tuple[str, str, list[str], tuple[bool, int | None]] | None = None
        self.pings = 0
        self.process.send("xboard")
        self.process.send("protover 2")
        deadline = time.monotonic() + min(self.timeout, 5.0)
        while True:
            try:
                line = self.process.readline(deadline)
            except EngineError:
                if self.process.process.poll() is not None:
                    raise
                break  # an old engine without "feature done=1": carry on
            if line.startswith("feature "):
                for part in _features(line[8:]):
                    key, _, value = part.partition("=")
                    value = value.strip('"')
                    if key == "option":
                        option = xboard_option(value)
                        if option is not None:
                            self.options[option.name] = option
                    else:
                        self.features[key] = value
                    self.process.send(f"accepted {key}")
                if self.features.get("done") == "1":
                    break
        if "myname" in self.features:
            self.name = self.id["name"] = self.features["myname"]

    def configure(self, options: dict[str, object]) -> None:
        """Set options the engine declared (``{"Resign Threshold": 900}``).

        :raises InvalidArgumentError: for an option the engine lacks or a value it does not
            take, quoted.
        """
        for name, value in options.items():
            option = find_option(self.options, name, self.name)
            text = option.text(value)
            if option.type == "check":  # XBoard's check boxes are 1 and 0, not UCI's words
                text = "1" if text == "true" else "0"
            self.process.send(f"option {option.name}" + (f"={text}" if text else ""))
        self.ping()

    def ping(self) -> None:
        """Wait until the engine has read everything sent (``ping``/``pong``, where it has
        them)."""
        if self.features.get("ping") != "1":
            return
        self.pings += 1
        self.process.send(f"ping {self.pings}")
        deadline = self.deadline()
        while self.process.readline(deadline).strip() != f"pong {self.pings}":
            pass  # what the engine said before is read and dropped

    def new_game(self) -> None:
        self.game = None  # the next search starts with "new"

    def think(
        self, board: Any, limit: Limit, lines: int | None = None
    ) -> Generator[SearchInfo[Any], None, PlayResult]:
        """Let the engine move in ``board`` under ``limit``: yields its thinking lines as
        :class:`SearchInfo` and returns its move (or its resignation).

        In force mode, the engine hears the moves it has not seen yet, then ``go``. The
        engine's game goes on from one call to the next while ``board`` continues it (same
        variant and start, the engine's moves played); otherwise it is replayed from its start
        after ``new``. Replaying every move would cost a ``new`` and a ``variant`` each time,
        which an engine such as Fairy-Max pays with a table reset (over 0.1 s): too much at fast
        time controls.

        :raises EngineError: for more than one line, a node limit alone (XBoard has neither),
            a position the engine cannot be given, or a move it should not have played.
        """
        if lines not in (None, 1):
            raise EngineError(f"{self.name} speaks XBoard, which shows one line, not {lines}")
        others = (limit.depth, limit.time, limit.white_clock, limit.black_clock)
        if limit.nodes is not None and all(value is None for value in others):
            raise EngineError(f"{self.name} speaks XBoard, which has no node limit: {limit}")
        root, moves = root_and_moves(board)
        played = [move.uci() for move in moves]
        thinking = (limit.time is not None or limit.white_clock is None, limit.depth)
        send = self.process.send
        known = self.game
        self.game = None  # until the engine has answered
        if (
            known is not None
            and known[:2] == (board.variant.name, root.fen())
            and played[: len(known[2])] == known[2]
            and known[3] == thinking  # "st" and "sd" last until "new"
        ):
            send("force")
            moves = moves[len(known[2]) :]
        else:
            send("new")
            if board.variant.name != "normal":
                send(f"variant {board.variant.name}")
            send("force")
            if root.fen() != game_of(board).board_with_rules(None, board.variant).fen():
                if self.features.get("setboard") != "1":
                    raise EngineError(f"{self.name} cannot start from a FEN (no setboard)")
                send(f"setboard {root.fen()}")
        send("post")
        seconds = think_time(limit, board.turn)
        if limit.time is not None or limit.white_clock is None:
            send(f"st {max(1, int(seconds))}")
        else:
            inc = limit.white_inc if board.turn else limit.black_inc
            mine = limit.white_clock if board.turn else limit.black_clock
            theirs = limit.black_clock if board.turn else limit.white_clock
            send(f"level 0 {_minutes(mine or 0)} {inc:g}")
            send(f"time {int((mine or 0) * 100)}")
            send(f"otim {int((theirs or 0) * 100)}")
        if limit.depth is not None:
            send(f"sd {limit.depth}")
        prefix = "usermove " if self.features.get("usermove") == "1" else ""
        for move in moves:
            send(prefix + move.uci())
        send("go")
        deadline = self.deadline(seconds)
        best: dict[int, SearchInfo[Any]] = {}
        draw_offered = False
        try:
            while True:
                line = self.process.readline(deadline).strip()
                words = line.split()
                if not words:
                    continue
                if words[0] == "move" and len(words) > 1:
                    move = _parse_xboard_move(board, words[1], self.name)
                    self.game = (board.variant.name, root.fen(), [*played, move.uci()], thinking)
                    result = answer(move, best, draw_offered=draw_offered)
                    if draw_offered:
                        result.info["draw_offered"] = True
                    return result
                if words[0] == "resign" or (line.startswith(("0-1", "1-0")) and "resign" in line):
                    return answer(None, best, resigned=True)
                if words[0] == "offer" and len(words) > 1 and words[1] == "draw":
                    draw_offered = True
                elif words[0] in ("Illegal", "Error"):
                    raise EngineError(f"{self.name} complained: {line!r}")
                else:
                    info = xboard_info(line, board)
                    if info is not None:
                        best[1] = info
                        yield info
        except GeneratorExit:  # the caller stopped listening: the engine moves now, unheard
            with contextlib.suppress(EngineError):
                send("?")
                deadline = self.deadline()
                while not self.process.readline(deadline).startswith("move"):
                    pass
                self.ping()  # and what it says after ("?" unknown once it has moved) is dropped
            raise

    def play(self, board: Any, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` under ``limit``."""
        return outcome(self.think(board, limit))


def _features(text: str) -> list[str]:
    parts, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == " " and not quoted:
            if current:
                parts.append(current)
            current = ""
        else:
            current += char
    if current:
        parts.append(current)
    return parts


def _minutes(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}:{rest:02d}" if rest else str(minutes)


def _parse_xboard_move(board: Any, text: str, name: str) -> Any:
    """An XBoard move: long algebraic, with the promotion suffix added when it was left out."""
    try:
        return board.parse_uci(text)
    except ValueError:
        pass
    promotions = [
        m for m in board.legal_moves if getattr(m, "promotion", None) and m.uci().startswith(text)
    ]
    if len(promotions) == 1:
        return promotions[0]
    moves = line_moves(board, [text])
    if not moves:
        raise EngineError(f"{name} played {text!r}, no legal move in {board.fen()!r}")
    return moves[0]


__all__ = ["XBoardClient"]
