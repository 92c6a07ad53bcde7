"""Engines driven from Python, in python-chess's ``chess.engine`` shape: :class:`SimpleEngine`
plays and analyses with a UCI engine (Fairy-Stockfish, ``kradan uci``), an XBoard engine
(Fairy-Max, ``kradan xboard``) or kradan's own search in this process, and answers in kradan's
types whichever it is: a :class:`~kradan.engine.types.SearchInfo` whose ``score`` is a
:class:`~kradan.engine.types.PovScore` and whose ``pv`` holds the board's own moves, as
:class:`~kradan.engine.Searcher` reports, and a :class:`~kradan.engine.types.PlayResult`.

>>> from kradan import Board
>>> from kradan.engine import Limit, SimpleEngine
>>> board = Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1")
>>> with SimpleEngine.builtin(hash_mb=1) as engine:
...     info = engine.analyse(board, Limit(depth=3))
...     lines = engine.analyse(board, Limit(depth=3), multipv=2)
...     played = engine.play(board, Limit(depth=3))
>>> info.score.white(), info.score.black(), info.pv[0]
(Score(cp=None, mate=1), Score(cp=None, mate=-1), Move.from_uci('h2a2'))
>>> [line.multipv for line in lines], played.move, played.info["score"].relative
([1, 2], Move.from_uci('h2a2'), Score(cp=None, mate=1))

The same code drives a process: ``SimpleEngine.popen_uci("kradan uci")`` (or
``popen_xboard("fairymax")``) in place of ``SimpleEngine.builtin()``:

>>> with SimpleEngine.popen_uci("kradan uci") as engine:  # doctest: +SKIP
...     engine.configure({"Hash": 32})
...     engine.analyse(board, Limit(depth=3)).score.white()
Score(cp=None, mate=1)

Every read from a process has a timeout; a dead, silent or misbehaving engine raises
:class:`~kradan.errors.EngineError`; a bad board, limit, option or value raises
:class:`~kradan.errors.InvalidArgumentError` quoting it. :class:`UciClient` and
:class:`XBoardClient` are the protocol clients beneath, which the match runner's players use.
"""

from __future__ import annotations

from ...errors import EngineError
from ..types import Limit, PlayResult, PovScore, Score, SearchInfo
from .options import EngineOption
from .simple import Analysis, SimpleEngine
from .uci import UciClient
from .xboard import XBoardClient

__all__ = [
    "Analysis",
    "EngineError",
    "EngineOption",
    "Limit",
    "PlayResult",
    "PovScore",
    "Score",
    "SearchInfo",
    "SimpleEngine",
    "UciClient",
    "XBoardClient",
]
