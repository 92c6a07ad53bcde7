"""kradan's own search behind the clients' interface, in this process: the same ``think``,
``configure`` and options as ``kradan uci`` offers (``Hash``, ``MultiPV``, ``Skill Level``,
``Contempt``), with no process and no protocol between.
"""

from __future__ import annotations

import random
from collections.abc import Generator
from typing import Any

from ... import __version__
from ...errors import EngineError
from ...games import game_of
from ..levels import MAX_LEVEL, level_limit, level_lines, pick_move
from ..searchers import Searchers, searcher_class, searcher_reference
from ..types import MAX_CONTEMPT, GameSearch, Limit, PlayResult, SearchInfo
from .options import EngineOption, find_option
from .process import outcome
from .uci import answer


class BuiltinClient:
    """kradan's search at ``level`` (1..20): every game's (``searcher=None``), or one
    searcher's, which plays its own game only."""

    def __init__(
        self,
        *,
        searcher: GameSearch | None = None,
        level: int = MAX_LEVEL,
        hash_mb: int = 16,
        seed: int | None = None,
    ) -> None:
        self.searcher = searcher
        self.searchers = Searchers(hash_mb) if searcher is None else None
        self.level = level
        self.lines = 1
        self.random = random.Random(seed)
        self.name = f"kradan {__version__}"
        self.id = {"name": self.name, "author": "the kradan developers"}
        self.options = {
            option.name: option
            for option in (
                EngineOption("Hash", "spin", hash_mb, 1, 4096),
                EngineOption("MultiPV", "spin", 1, 1, 64),
                EngineOption("Skill Level", "spin", level, 1, MAX_LEVEL),
                EngineOption("Contempt", "spin", 0, 0, MAX_CONTEMPT),
            )
        }

    def searcher_for(self, board: Any) -> GameSearch:
        """The search that plays ``board``'s game.

        :raises EngineError: for a game kradan's engine (or the one searcher) does not play.
        """
        if self.searchers is not None:
            return self.searchers.for_board(board)
        assert self.searcher is not None
        plays: type = searcher_class(searcher_reference(board))
        if not isinstance(self.searcher, plays):
            game = game_of(board).name
            raise EngineError(f"{type(self.searcher).__name__} does not play {game}")
        return self.searcher

    def configure(self, options: dict[str, object]) -> None:
        """Set ``Hash`` (megabytes), ``MultiPV``, ``Skill Level`` or ``Contempt``.

        :raises InvalidArgumentError: for another option or a value outside its range, quoted.
        """
        for name, value in options.items():
            option = find_option(self.options, name, self.name)
            number = int(option.text(value))
            if option.name == "Hash":
                if self.searchers is not None:
                    self.searchers.resize(number)
                else:
                    assert self.searcher is not None
                    self.searcher.resize(number)
            elif option.name == "MultiPV":
                self.lines = number
            elif option.name == "Skill Level":
                self.level = number
            elif self.searchers is not None:
                self.searchers.use_contempt(number)
            else:
                use = getattr(self.searcher, "use_contempt", None)
                if use is None:
                    raise EngineError(f"{type(self.searcher).__name__} has no contempt")
                use(number)

    def ping(self) -> None:
        pass

    def new_game(self) -> None:
        if self.searchers is not None:
            self.searchers.clear()
        else:
            assert self.searcher is not None
            self.searcher.clear()

    def quit(self) -> None:
        pass

    def think(
        self, board: Any, limit: Limit, lines: int | None = None
    ) -> Generator[SearchInfo[Any], None, PlayResult]:
        """Search ``board`` under ``limit``: yields the best ``lines`` lines (as configured
        when ``None``) of each depth, and returns the move the level picks, as ``kradan uci``
        plays it (a weaker level searches more lines to choose among, and fewer nodes)."""
        searcher = self.searcher_for(board)
        shown = self.lines if lines is None else lines
        level = self.level
        if level < MAX_LEVEL:
            limit = level_limit(level, limit)
        searched = max(shown, level_lines(level) if level < MAX_LEVEL else 1)
        last: list[SearchInfo[Any]] = []
        if searched <= 1:
            for info in searcher.search(board, limit):
                last = [info]
                yield info
        else:
            for found in searcher.search_multipv(board, limit, searched):
                last = found
                yield from found[:shown]
        move = pick_move(board, last, level, self.random)
        return answer(move, {info.multipv: info for info in last[:shown]})

    def play(self, board: Any, limit: Limit) -> PlayResult:
        """The engine's move in ``board`` under ``limit``."""
        return outcome(self.think(board, limit))


__all__ = ["BuiltinClient"]
