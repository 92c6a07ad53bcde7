"""Drive external engines over UCI or XBoard (CECP) from Python: Fairy-Stockfish, Fairy-Max, or
``kradan uci`` itself.

>>> with UciClient.popen(["kradan", "uci"]) as engine:  # doctest: +SKIP
...     engine.play(Board(), Limit(depth=4)).move
Move.from_uci('b1d2')

Every read has a timeout; a dead or silent engine raises :class:`EngineError`; ``quit()`` (or
leaving the ``with`` block) ends the process cleanly, killing it if it does not exit.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
import time
from types import TracebackType

from ..board import Board
from ..engine.types import Limit, PlayResult
from ..errors import EngineError
from ..move import Move

__all__ = ["EngineError", "PlayResult", "UciClient", "XBoardClient"]


class _Process:
    """A child process with a reader thread, so that every read can time out."""

    def __init__(self, command: list[str]) -> None:
        try:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start engine {command!r}: {error}") from None
        self.command = command
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        try:
            assert self.process.stdin is not None
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError) as error:
            raise EngineError(f"engine {self.command!r} is gone: {error}") from None

    def readline(self, deadline: float) -> str:
        timeout = deadline - time.monotonic()
        if timeout <= 0:
            raise EngineError(f"engine {self.command!r} did not answer in time")
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"engine {self.command!r} did not answer in time") from None
        if line is None:
            raise EngineError(f"engine {self.command!r} exited")
        return line

    def close(self, grace: float = 2.0) -> None:
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


#: more time for an engine's first answers (``uci``, the first ``isready``): an engine may load
#: or compile its code then, slowly on a machine busy with other games
STARTUP_GRACE = 90.0


class _Client:
    """What both protocols share: the process, context management, a name."""

    name: str

    def __init__(self, command: list[str], timeout: float) -> None:
        self.timeout = timeout
        self._process = _Process(command)
        self.name = command[-1]

    def __enter__(self) -> _Client:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.quit()

    def _deadline(self, extra: float = 0.0) -> float:
        return time.monotonic() + self.timeout + extra

    def quit(self) -> None:
        """End the engine (politely, then by force)."""
        with contextlib.suppress(EngineError):
            self._process.send("quit")
        self._process.close()


def _words(command: str | list[str]) -> list[str]:
    """A command as the words of a process: a string is split as a shell splits it.

    :raises EngineError: for anything else, or for an empty command.
    """
    words = shlex.split(command) if isinstance(command, str) else command
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        raise EngineError(f"cannot start engine {command!r}: expected a command line")
    return words


def _think_time(limit: Limit, white: bool) -> float:
    if limit.time is not None:
        return limit.time
    clock = limit.white_clock if white else limit.black_clock
    return clock if clock is not None else 3600.0


class UciClient(_Client):
    """An engine that speaks UCI."""

    @classmethod
    def popen(cls, command: str | list[str], timeout: float = 30.0) -> UciClient:
        """Start ``command`` (a list of words, or one line split as a shell would:
        ``"kradan uci"``) and complete the ``uci`` handshake."""
        client = cls(_words(command), timeout)
        client._handshake()
        return client

    def _handshake(self) -> None:
        self._process.send("uci")
        self._answered_ping = False
        deadline = self._deadline(STARTUP_GRACE)
        self.options: set[str] = set()
        while True:
            line = self._process.readline(deadline)
            if line.startswith("id name "):
                self.name = line[8:].strip()
            elif line.startswith("option name "):
                self.options.add(line[12:].split(" type ")[0].strip())
            elif line.strip() == "uciok":
                return

    def configure(self, options: dict[str, object]) -> None:
        """Set options (``{"Hash": 64, "UCI_Variant": "makruk"}``)."""
        for name, value in options.items():
            if isinstance(value, bool):
                value = "true" if value else "false"
            self._process.send(f"setoption name {name} value {value}")
        self.ping()

    def ping(self) -> None:
        self._process.send("isready")
        deadline = self._deadline(0.0 if self._answered_ping else STARTUP_GRACE)
        while self._process.readline(deadline).strip() != "readyok":
            pass
        self._answered_ping = True

    def new_game(self) -> None:
        self._process.send("ucinewgame")
        self.ping()

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` under ``limit``."""
        if "UCI_Variant" in self.options:
            self._process.send(f"setoption name UCI_Variant value {board.variant.name}")
        root = board.copy()
        moves = []
        while root.move_stack:
            moves.append(root.pop())
        moves.reverse()
        position = f"position fen {root.fen()}"
        if moves:
            position += " moves " + " ".join(move.uci() for move in moves)
        self._process.send(position)
        self._process.send("go " + _uci_limit(limit))
        deadline = self._deadline(_think_time(limit, board.turn))
        info: dict[str, object] = {}
        while True:
            line = self._process.readline(deadline)
            if line.startswith("info "):
                info.update(_parse_uci_info(line))
            elif line.startswith("bestmove"):
                words = line.split()
                if len(words) < 2 or words[1] in ("0000", "(none)"):
                    return PlayResult(None, info)
                try:
                    return PlayResult(board.parse_uci(words[1]), info)
                except ValueError as error:
                    raise EngineError(f"{self.name} played {words[1]!r}: {error}") from None


def _uci_limit(limit: Limit) -> str:
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


def _parse_uci_info(line: str) -> dict[str, object]:
    words = line.split()[1:]
    info: dict[str, object] = {}
    i = 0
    while i < len(words):
        key = words[i]
        if key == "pv":
            info["pv"] = words[i + 1 :]
            break
        if key == "score" and i + 2 < len(words):
            info["score"] = (words[i + 1], int(words[i + 2]))
            i += 3
            continue
        if key in ("depth", "seldepth", "nodes", "nps", "time", "multipv") and i + 1 < len(words):
            with contextlib.suppress(ValueError):
                info[key] = int(words[i + 1])
            i += 2
            continue
        i += 1
    return info


class XBoardClient(_Client):
    """An engine that speaks XBoard/CECP (protocol 2), such as Fairy-Max."""

    @classmethod
    def popen(cls, command: str | list[str], timeout: float = 30.0) -> XBoardClient:
        """Start ``command`` (words, or one line: ``"fairymax"``) and complete the
        handshake."""
        client = cls(_words(command), timeout)
        client._handshake()
        return client

    def _handshake(self) -> None:
        self.features: dict[str, str] = {}
        self._process.send("xboard")
        self._process.send("protover 2")
        deadline = time.monotonic() + min(self.timeout, 5.0)
        while True:
            try:
                line = self._process.readline(deadline)
            except EngineError:
                return  # an old engine without "feature done=1": carry on
            if line.startswith("feature "):
                for part in _features(line[8:]):
                    key, _, value = part.partition("=")
                    self.features[key] = value.strip('"')
                    self._process.send(f"accepted {key}")
                if self.features.get("done") == "1":
                    break
        if "myname" in self.features:
            self.name = self.features["myname"]
        # what the engine's game holds: variant, start, moves, and how it was told to think
        self._game: tuple[str, str, list[str], tuple[bool, int | None]] | None = None

    def play(self, board: Board, limit: Limit) -> PlayResult:
        """The engine's move: in force mode, the moves the engine has not seen yet, then ``go``.

        The engine's game goes on from one call to the next while ``board`` continues it
        (same variant and start, the engine's moves played); otherwise it is replayed from its
        start after ``new``. Replaying every move would cost a ``new`` and a ``variant`` each
        time, which an engine such as Fairy-Max pays with a table reset (over 0.1 s): too
        much at fast time controls.
        """
        root = board.copy()
        moves = []
        while root.move_stack:
            moves.append(root.pop())
        moves.reverse()
        played = [move.uci() for move in moves]
        thinking = (limit.time is not None or limit.white_clock is None, limit.depth)
        send = self._process.send
        known = self._game
        self._game = None  # until the engine has answered
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
            if root.fen() != Board(variant=board.variant).fen():
                if self.features.get("setboard") != "1":
                    raise EngineError(f"{self.name} cannot start from a FEN (no setboard)")
                send(f"setboard {root.fen()}")
        send("post")
        seconds = _think_time(limit, board.turn)
        if limit.time is not None or limit.white_clock is None:
            send(f"st {max(1, int(seconds))}" if seconds >= 1 else "st 1")
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
        deadline = self._deadline(seconds)
        info: dict[str, object] = {}
        while True:
            line = self._process.readline(deadline).strip()
            words = line.split()
            if not words:
                continue
            if words[0] == "move" and len(words) > 1:
                move = _parse_xboard_move(board, words[1], self.name)
                self._game = (board.variant.name, root.fen(), [*played, move.uci()], thinking)
                return PlayResult(move, info)
            if words[0] == "resign" or (line.startswith(("0-1", "1-0")) and "resign" in line):
                return PlayResult(None, info, resigned=True)
            if words[0] == "offer" and len(words) > 1 and words[1] == "draw":
                info["draw_offered"] = True
            if words[0].isdigit() and len(words) >= 5:
                info.update(depth=int(words[0]), score=("cp", _int(words[1])), pv=words[4:])
            if words[0] in ("Illegal", "Error"):
                raise EngineError(f"{self.name} complained: {line!r}")


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


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def _parse_xboard_move(board: Board, text: str, name: str) -> Move:
    """An XBoard move: long algebraic, with the promotion suffix added when it was left out."""
    try:
        return board.parse_uci(text)
    except ValueError:
        pass
    promotions = [m for m in board.legal_moves if m.promotion and m.uci().startswith(text)]
    if len(promotions) == 1:
        return promotions[0]
    try:
        return board.parse_san(text)
    except ValueError as error:
        raise EngineError(f"{name} played {text!r}: {error}") from None
