"""What the UCI and XBoard servers share: the game and position, the searches, a thinking
thread that ``stop`` and ``quit`` can end, command dispatch and error reporting."""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ...errors import KradanError
from ...games import AnyBoard, canonical_name, new_board
from ..searchers import Searchers
from ..types import Limit
from ..warmup import Warmup

DEFAULT_HASH_MB = 16
DEFAULT_GAME = "makruk"
#: said once when a first run compiles the search (benchmarks/first_move.py measures it)
COMPILING = (
    "kradan is compiling its search, once after an install (about 15 seconds on two "
    "cores); the first move waits for it"
)
#: the longest ``isready`` waits for endgame tables being read (seconds; a 4-piece table takes
#: about 0.13 s)
TABLES_PATIENCE = 30.0
#: the longest complaint line an engine writes: a 1 MB input line is not echoed whole
MAX_COMPLAINT = 400


def clipped(message: str) -> str:
    """``message`` cut to :data:`MAX_COMPLAINT` characters, saying how long it was, with
    control characters and undecodable bytes escaped (``\\x00``): a GUI gets one printable
    line whatever the input was."""
    shown = printable(message[:MAX_COMPLAINT])
    if len(message) <= MAX_COMPLAINT and len(shown) <= MAX_COMPLAINT:
        return shown
    shown = shown[:MAX_COMPLAINT]
    return f"{shown}... ({len(message)} characters)"


def printable(text: str) -> str:
    """``text`` with every character that is not printable written as its escape."""
    if text.isprintable():
        return text
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


class EngineSession(ABC):
    """One protocol session: reads commands (``cmd_<name>`` methods), writes through ``write``.

    A command's handler gets the rest of its line; a bad command is reported, never fatal.
    """

    #: commands answered at once, even while the search is still being made ready
    INSTANT: frozenset[str] = frozenset({"quit"})
    #: commands that only set up (options, the position): while the search is being made
    #: ready they are kept, in order, and run before the next command that needs the search
    DEFERRED: frozenset[str] = frozenset()

    def __init__(self, write: Callable[[str], None]) -> None:
        self._write = write
        self._warmup: Warmup | None = None
        self._deferred: list[str] = []
        self._lock = threading.Lock()
        self.searchers = Searchers(DEFAULT_HASH_MB)
        self.variant = DEFAULT_GAME
        self.board: AnyBoard = new_board(self.variant)
        self._thread: threading.Thread | None = None
        self._endless = False  # the running search stops only when told (``go infinite``)
        self._counted = False  # the running search is limited by depth or nodes

    # --- output ----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        with self._lock:
            self._write(line)

    @abstractmethod
    def complain(self, message: str) -> None:
        """Tell the user something went wrong, the protocol's way."""

    @abstractmethod
    def unknown(self, text: str) -> None:
        """Answer a line that names no command."""

    @abstractmethod
    def failed(self, text: str, error: Exception) -> None:
        """Answer a command that failed with ``error``."""

    def table_news(self, board: AnyBoard) -> list[str]:
        """What went wrong with an endgame table since last asked, for ``board``'s searcher
        (a missing or damaged file; the search went on without it)."""
        tables = getattr(self.searchers.for_board(board), "endgame_tables", None)
        return tables.news() if tables is not None else []

    # --- commands --------------------------------------------------------------------------

    def handler(self, command: str) -> Callable[[str], Any] | None:
        """The method that executes ``command``, if any."""
        method: Callable[[str], Any] | None = getattr(self, f"cmd_{command}", None)
        return method

    def handle(self, line: str) -> bool:
        """Execute one command; returns ``False`` after ``quit``. While the search is being
        made ready (:meth:`begin_warmup`), set-up commands wait their turn and any other but
        the handshake waits for it."""
        text = line.strip()
        if not text:
            return True
        command = text.split(maxsplit=1)[0]
        if self._warmup is not None and command not in self.INSTANT:
            if self._warmup.running and command in self.DEFERRED:
                self._deferred.append(text)
                return True
            self._finish_warmup()
        return self._execute(text)

    def _execute(self, text: str) -> bool:
        command, *rest = text.split(maxsplit=1)
        handler = self.handler(command)
        try:
            if handler is None:
                self.unknown(text)
                return True
            return handler(rest[0] if rest else "") is not False
        except (KradanError, ValueError) as error:
            self.failed(text, error)
            return True
        except Exception as error:  # a bug must not end the engine: say so and go on
            self.failed(text, RuntimeError(f"internal error {type(error).__name__}: {error}"))
            return True

    # --- making the search ready -----------------------------------------------------------

    def begin_warmup(self) -> None:
        """Compile or load the current game's search in the background (the process has just
        started: ``kradan uci``/``xboard``)."""
        self._warmup = Warmup(self.searchers, self.board.copy(), self._say_compiling)

    def _say_compiling(self) -> None:
        self.notice(COMPILING)

    def notice(self, message: str) -> None:
        """Tell the GUI something it need not act on (UCI's ``info string``)."""
        self.complain(message)

    def _finish_warmup(self) -> None:
        """Wait for the warm-up, then run the commands kept meanwhile."""
        warmup, self._warmup = self._warmup, None
        if warmup is None:
            return
        warmup.wait()
        kept, self._deferred = self._deferred, []
        for text in kept:
            self._execute(text)

    # --- game and position -----------------------------------------------------------------

    def set_game(self, name: str) -> None:
        """Play the game called ``name`` from its start (an alias works); the caller stops or
        waits for a search first."""
        self.variant = canonical_name(name)
        self.board = new_board(self.variant)

    def set_position(
        self, text: str | None = None, moves: list[str] | tuple[str, ...] = ()
    ) -> None:
        """The current game at ``text`` (a FEN or Alquerque position; ``None``: the start),
        then ``moves`` (UCI-style strings)."""
        board = new_board(self.variant, text)
        for move in moves:
            board.push_uci(move)
        self.board = board
        self.searchers.preload(board)  # its endgame tables, before a clock runs

    def ready(self) -> None:
        """Wait for the endgame tables being read (``isready``, ``ping``), unless a search is
        running: the protocols answer at once then."""
        warmup = self._warmup
        if warmup is not None:
            warmup.wait_unless_compiling()
            if warmup.running:
                return  # compiling: answered at once, the tables are read after it
            self._finish_warmup()
        thread = self._thread
        if thread is None or not thread.is_alive():
            self.searchers.wait_for_tables(TABLES_PATIENCE)

    # --- thinking --------------------------------------------------------------------------

    def start_thinking(self, limit: Limit) -> None:
        """Search a copy of the current position in a thread (:meth:`think`)."""
        board = self.board.copy()
        self.searchers.for_board(board).arm()  # a stop from now on is kept
        self._endless = endless(limit)
        self._counted = limit.depth is not None or limit.nodes is not None
        self._thread = threading.Thread(target=self._run, args=(board, limit), daemon=True)
        self._thread.start()

    def _run(self, board: AnyBoard, limit: Limit) -> None:
        try:
            self.think(board, limit)
        except Exception as error:  # the search must never kill the session
            self.complain(f"search failed: {error}")

    @abstractmethod
    def think(self, board: AnyBoard, limit: Limit) -> None:
        """Search ``board`` within ``limit`` and announce the move (in the search thread)."""

    def stop(self) -> None:
        """Stop any search and wait until its thread has finished."""
        self.searchers.stop()
        self._join()

    def wait(self) -> None:
        """Wait for the search thread, if any, to finish. A search without limits would never
        finish: the command that waits (sent without ``stop`` first) is told so and stops it."""
        thread = self._thread
        if thread is not None and self._endless and thread.is_alive():
            self.complain("a search without limits is running: stopped it first")
            self.searchers.stop()
        self._join()

    def _join(self) -> None:
        thread = self._thread
        if thread is not None:
            thread.join()
            self._thread = None

    def shutdown(self) -> None:
        """The input has ended: a search limited by depth or nodes finishes and answers (so
        that ``printf 'position startpos\\ngo depth 8\\n' | kradan uci`` prints its move);
        any other is stopped, for its reader (a GUI that closed) may be gone for good. ``quit``
        stops at once, as the protocols say."""
        thread = self._thread
        if thread is not None and not self._counted and thread.is_alive():
            self.searchers.stop()
        self._join()


def endless(limit: Limit) -> bool:
    """Whether a search within ``limit`` runs until it is stopped (no depth, nodes, time or
    clock)."""
    bounds = (limit.depth, limit.nodes, limit.time, limit.white_clock, limit.black_clock)
    return all(bound is None for bound in bounds)


def seconds_value(text: str) -> float:
    """``text`` as a number of seconds: finite and not negative (``st inf`` is refused)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a number of seconds") from None
    if not 0 <= value < 1e9:
        raise ValueError(f"{text!r} is not a number of seconds from 0 to 10^9")
    return value


def whole_number(text: str, low: int, high: int) -> int:
    """``text`` as a whole number in ``low..high``."""
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None
    if not low <= value <= high:
        raise ValueError(f"{value} is outside {low}..{high}")
    return value


#: the ``EgtbPath`` value of the default tables: the user's data directory, then the 3-piece
#: tables kradan ships (:func:`kradan.egtb.default_directory`)
DEFAULT_TABLES = "<default>"
#: ``EgtbPath`` values that switch the tables off
NO_TABLES = ("<empty>", "<none>", "none", "off", "false")


def tables_directory(value: str) -> Path | bool | None:
    """An ``EgtbPath`` value as :meth:`Searchers.use_tables` takes it.

    :raises ValueError: for a directory that does not exist.
    """
    text = value.strip()
    if text in ("", DEFAULT_TABLES):
        return None
    if text.lower() in NO_TABLES:
        return False
    path = Path(text).expanduser()
    if not path.is_dir():
        raise ValueError(f"no directory {text!r} for the endgame tables")
    return path


def describe_tables(directory: Path | bool | None) -> str:
    """What the engine will probe, for an ``info string``."""
    if directory is False:
        return "endgame tables: off"
    from ...egtb.directory import default_directory

    path = default_directory() if directory is None or directory is True else directory
    files = len(list(path.glob("*.ktb"))) if path.is_dir() else 0
    return f"endgame tables: {files} files in {str(path)!r}, then the 3-piece tables kradan ships"
