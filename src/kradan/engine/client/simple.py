"""One interface to every engine, in python-chess's ``chess.engine`` shape: :class:`SimpleEngine`
talks to a UCI engine, an XBoard engine or kradan's own search in this process, and answers in
kradan's types whichever it is (:class:`~kradan.engine.types.SearchInfo` with a
:class:`~kradan.engine.types.PovScore`, the board's own moves, :class:`PlayResult`).

An engine is used from one thread at a time.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Generator, Iterator, Mapping
from types import TracebackType
from typing import Any, Protocol, overload

from ...arguments import check_number
from ...errors import EngineError, InvalidArgumentError, KradanError
from ...games import find_game, game_of
from ..levels import MAX_LEVEL
from ..types import GameSearch, Limit, PlayResult, PovScore, SearchInfo, outcome_score
from .builtin import BuiltinClient
from .options import EngineOption
from .uci import UciClient
from .xboard import XBoardClient

#: the most lines ``analyse`` asks for
MAX_MULTIPV = 500


class EngineClient(Protocol):
    """What :class:`SimpleEngine` drives: a UCI or XBoard client, or kradan's search."""

    name: str
    id: dict[str, str]
    options: dict[str, EngineOption]

    def configure(self, options: dict[str, object]) -> None: ...

    def ping(self) -> None: ...

    def new_game(self) -> None: ...

    def think(
        self, board: Any, limit: Limit, lines: int | None = None
    ) -> Generator[SearchInfo[Any], None, PlayResult]: ...

    def quit(self) -> None: ...


class Analysis(Iterator[SearchInfo[Any]]):
    """A search going on: iterate for its reports as they come (a :class:`SearchInfo` each);
    ``stop()`` (or leaving the ``with`` block) ends it. ``multipv`` holds the latest report of
    each line by rank, ``info`` the best line's, and ``result`` the move once the search has
    ended by itself (``wait()`` waits for it)."""

    def __init__(self, thinking: Generator[SearchInfo[Any], None, PlayResult]) -> None:
        self.thinking = thinking
        self.multipv: dict[int, SearchInfo[Any]] = {}
        self.result: PlayResult | None = None
        self.stopped = False

    def __next__(self) -> SearchInfo[Any]:
        if self.stopped or self.result is not None:
            raise StopIteration
        try:
            info = next(self.thinking)
        except StopIteration as stop:
            self.result = stop.value
            raise StopIteration from None
        except BaseException:
            self.stopped = True
            raise
        latest = self.multipv.get(info.multipv)
        if not (info.lowerbound or info.upperbound) or latest is None or latest.depth < info.depth:
            self.multipv[info.multipv] = info  # a bound replaces only a shallower report
        return info

    @property
    def info(self) -> SearchInfo[Any] | None:
        """The best line's latest report (``None`` before the first)."""
        return self.multipv.get(1)

    def wait(self) -> PlayResult | None:
        """Read the search to its end: its move (``None`` when it was stopped)."""
        for _ in self:
            pass
        return self.result

    def stop(self) -> None:
        """End the search now (the engine's move is dropped)."""
        if not self.stopped and self.result is None:
            self.stopped = True
            self.thinking.close()

    def __enter__(self) -> Analysis:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


class SimpleEngine:
    """An engine, whichever it is, with python-chess's methods: ``play``, ``analyse`` (with
    ``multipv``), ``analysis``, ``configure``, ``options``, ``id``, ``quit``; a context manager.

    Make one with :meth:`popen_uci`, :meth:`popen_xboard`, :meth:`builtin` (kradan's search
    in this process, for every game) or :meth:`from_searcher` (one searcher you made).
    """

    def __init__(self, client: EngineClient, protocol: str) -> None:
        self.client = client
        #: ``"uci"``, ``"xboard"`` or ``"builtin"``
        self.protocol = protocol
        self.closed = False
        self.running: Analysis | None = None

    # --- making one ------------------------------------------------------------------------

    @classmethod
    def popen_uci(cls, command: str | list[str], *, timeout: float = 30.0) -> SimpleEngine:
        """Start a UCI engine: ``command`` is a list of words or one line split as a shell
        would (``"kradan uci"``, ``"fairy-stockfish"``). ``timeout``: seconds an answer may be
        late, besides the time a search is given.

        :raises EngineError: when it cannot be started or does not answer.
        """
        return cls(UciClient.popen(command, _seconds(timeout, "timeout")), "uci")

    @classmethod
    def popen_xboard(cls, command: str | list[str], *, timeout: float = 30.0) -> SimpleEngine:
        """Start an XBoard engine (``"fairymax"``, ``"kradan xboard"``), as :meth:`popen_uci`."""
        return cls(XBoardClient.popen(command, _seconds(timeout, "timeout")), "xboard")

    @classmethod
    def builtin(
        cls,
        *,
        level: int = MAX_LEVEL,
        hash_mb: int = 16,
        game: str | None = None,
        seed: int | None = None,
    ) -> SimpleEngine:
        """kradan's own search in this process, for every game it plays, at ``level`` 1..20
        with a table of ``hash_mb`` megabytes. Naming a ``game`` compiles (or loads) its search
        now rather than in the first search; ``seed`` fixes a weaker level's choices.

        :raises InvalidArgumentError: for a level or size out of range;
        :raises VariantError: for an unknown game; :raises EngineError: for one it does not play.
        """
        level = check_number(level, "level", 1, MAX_LEVEL)
        hash_mb = check_number(hash_mb, "hash_mb", 1, 4096)
        client = BuiltinClient(level=level, hash_mb=hash_mb, seed=seed)
        if game is not None:
            assert client.searchers is not None
            client.searchers.warm(find_game(game).new_board())
        return cls(client, "builtin")

    @classmethod
    def from_searcher(
        cls, searcher: GameSearch, *, level: int = MAX_LEVEL, seed: int | None = None
    ) -> SimpleEngine:
        """A searcher you made (``Searcher(hash_mb=64)``, with its weights or tables), behind
        the same interface; it plays its own game only.

        :raises InvalidArgumentError: for something that is no searcher, or a level out of
            range.
        """
        if not all(hasattr(searcher, name) for name in ("search", "search_multipv", "clear")):
            raise InvalidArgumentError(f"searcher {searcher!r}: expected a kradan searcher")
        level = check_number(level, "level", 1, MAX_LEVEL)
        return cls(BuiltinClient(searcher=searcher, level=level, seed=seed), "builtin")

    # --- what it is ------------------------------------------------------------------------

    @property
    def id(self) -> dict[str, str]:
        """What the engine says of itself: ``name``, and ``author`` where it says."""
        return dict(self.client.id)

    @property
    def name(self) -> str:
        return self.client.name

    @property
    def options(self) -> Mapping[str, EngineOption]:
        """The engine's options by name (an :class:`EngineOption` each)."""
        return dict(self.client.options)

    def __repr__(self) -> str:
        state = ", closed" if self.closed else ""
        return f"<SimpleEngine {self.name!r} ({self.protocol}{state})>"

    # --- using it --------------------------------------------------------------------------

    def configure(self, options: Mapping[str, object]) -> None:
        """Set options by name (``{"Hash": 64}``), checked against :attr:`options` first.

        :raises InvalidArgumentError: for an unknown option or a value it does not take.
        """
        if not isinstance(options, Mapping):
            raise InvalidArgumentError(f"options {options!r}: expected a mapping of names")
        self._ready().configure(dict(options))

    def ping(self) -> None:
        """Wait until the engine is ready."""
        self._ready().ping()

    def new_game(self) -> None:
        """Tell the engine that the next position is of another game."""
        self._ready().new_game()

    def play(self, board: Any, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` under ``limit``: ``move`` (``None`` when there is
        none to play), ``ponder`` (the reply it expects) and ``info`` (its best line's last
        report under python-chess's keys: ``info["score"].white()``).

        :raises InvalidArgumentError: for a bad board or limit;
        :raises EngineError: when the engine fails.
        """
        client = self._ready()
        _check_board(board)
        _check_limit(limit, bounded=True)
        if len(board.legal_moves) == 0:
            return PlayResult(None)
        return _finish(client.think(board, limit))

    @overload
    def analyse(self, board: Any, limit: Limit, *, multipv: None = None) -> SearchInfo[Any]: ...

    @overload
    def analyse(self, board: Any, limit: Limit, *, multipv: int) -> list[SearchInfo[Any]]: ...

    def analyse(
        self, board: Any, limit: Limit, *, multipv: int | None = None
    ) -> SearchInfo[Any] | list[SearchInfo[Any]]:
        """Search ``board`` under ``limit``: the best line's last report, or with ``multipv``
        the ``multipv`` best lines' (best first; fewer where there are fewer moves). A game
        already over is not searched: its report has depth 0, no line, and the score the
        rules give (a draw 0, a loss ``mate 0``).

        :raises InvalidArgumentError: for a bad board, limit or ``multipv``;
        :raises EngineError: when the engine fails or cannot show that many lines.
        """
        client = self._ready()
        _check_board(board)
        _check_limit(limit, bounded=True)
        lines = None if multipv is None else check_number(multipv, "multipv", 1, MAX_MULTIPV)
        ended = outcome_score(board)
        if ended is not None:
            final: SearchInfo[Any] = SearchInfo(0, 0, PovScore(ended, board.turn), [], 0, 0.0)
            return final if multipv is None else [final]
        analysis = Analysis(client.think(board, limit, lines))
        analysis.wait()
        if analysis.info is None:
            raise EngineError(f"{self.name} reported no score for {board.fen()!r}")
        if multipv is None:
            return analysis.info
        return [analysis.multipv[rank] for rank in sorted(analysis.multipv) if rank <= multipv]

    def analysis(
        self, board: Any, limit: Limit | None = None, *, multipv: int | None = None
    ) -> Analysis:
        """Start searching ``board`` (until ``limit`` ends, or until stopped when ``None``) and
        return the search going on: iterate for its reports.

        >>> with engine.analysis(board) as search:  # doctest: +SKIP
        ...     for info in search:
        ...         if info.depth >= 8:
        ...             break

        Any other call on the engine stops it first.

        :raises InvalidArgumentError: for a bad board, limit or ``multipv``.
        """
        client = self._ready()
        _check_board(board)
        if limit is not None:
            _check_limit(limit, bounded=False)
        lines = None if multipv is None else check_number(multipv, "multipv", 1, MAX_MULTIPV)
        self.running = Analysis(client.think(board, limit or Limit(), lines))
        return self.running

    def quit(self) -> None:
        """End the engine (its process, for one that has one); calls after this raise
        :class:`EngineError`."""
        if not self.closed:
            self._settle()
            self.closed = True
            self.client.quit()

    close = quit

    def __enter__(self) -> SimpleEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.quit()

    def _settle(self) -> None:
        """Stop an analysis left running."""
        if self.running is not None:
            running, self.running = self.running, None
            with contextlib.suppress(KradanError):  # a dead engine says so at the next command
                running.stop()

    def _ready(self) -> EngineClient:
        if self.closed:
            raise EngineError(f"engine {self.name!r} has quit")
        self._settle()
        return self.client


def _finish(thinking: Generator[SearchInfo[Any], None, PlayResult]) -> PlayResult:
    result = Analysis(thinking).wait()
    assert result is not None
    return result


def _seconds(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not value >= 0:
        raise InvalidArgumentError(f"{what} {value!r}: expected seconds, 0 or more")
    return float(value)


def _check_board(board: Any) -> None:
    try:
        game_of(board)
    except (AttributeError, KradanError):
        raise InvalidArgumentError(f"board {board!r}: expected a kradan board") from None


def _check_limit(limit: object, *, bounded: bool) -> None:
    """``limit`` is a :class:`Limit` of whole numbers and seconds; ``bounded``: one that ends.

    :raises InvalidArgumentError: otherwise, the limit quoted.
    """
    if not isinstance(limit, Limit):
        raise InvalidArgumentError(f"limit {limit!r}: expected a kradan.engine.Limit")
    for name in ("depth", "nodes", "moves_to_go"):
        value = getattr(limit, name)
        if value is not None:
            check_number(value, f"the limit's {name}", 1)
    for name in ("time", "white_clock", "black_clock", "white_inc", "black_inc"):
        value = getattr(limit, name)
        if value is not None and not (
            isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
        ):
            raise InvalidArgumentError(f"the limit's {name} {value!r}: expected seconds")
        if name in ("time", "white_inc", "black_inc") and value is not None and value < 0:
            raise InvalidArgumentError(f"the limit's {name} {value!r}: expected 0 or more")
    ends = (limit.depth, limit.nodes, limit.time, limit.white_clock, limit.black_clock)
    if bounded and all(value is None for value in ends):
        raise InvalidArgumentError(
            f"{limit!r} never ends: give a depth, nodes, time or a clock (or use analysis())"
        )


__all__ = ["MAX_MULTIPV", "Analysis", "EngineClient", "SimpleEngine"]
