"""Players: one protocol, ``choose_move(board, limit)``, for the kradan engine at a level, an
external UCI or XBoard engine, and a random mover (DESIGN.md, layer "players").

Players are named by short specs on the command line:

* ``kradan`` or ``kradan:level=7`` (``hash=64``, ``book=FILE``, an opening book, and
  ``weights=FILE``, the evaluation's weights, also accepted: ``kradan:level=7,book=makruk.book``,
  ``kradan:weights=tuned.json``; ``contempt=20``, centipawns a draw by repetition or count
  is worse than even for it, 0-100, default 0; ``network=FILE``, an evaluation network, or
  ``network=none``, the weighted terms without one);
* ``uci:/path/to/engine`` and ``xboard:/usr/games/fairymax`` (an argument list may follow);
* ``random``.
"""

from __future__ import annotations

import random
import shlex
from typing import Any, Protocol, cast

import numpy as np

from ..board import Board
from ..engine.book import Book
from ..engine.client import UciClient, XBoardClient
from ..engine.counting_policy import apply_count_decision, count_decision
from ..engine.levels import MAX_LEVEL, level_limit, level_lines, pick_move
from ..engine.network import Network, load_network
from ..engine.searchers import Searchers
from ..engine.types import MAX_CONTEMPT, GameSearch, Limit, PlayResult, SearchInfo
from ..engine.weights import load as load_weights
from ..errors import EngineError, InputFileError, KradanError
from ..games import AnyBoard, CountingBoard, find_game, new_board


class PlayerSpecError(KradanError, ValueError):
    """A player spec that names no known kind of player."""


class Player(Protocol):
    name: str

    def choose_move(self, board: Any, limit: Limit) -> PlayResult: ...

    def new_game(self) -> None: ...

    def close(self) -> None: ...


class KradanPlayer:
    """kradan's own engine, at ``level`` 1..20, for every game (the chess family and
    Alquerque: the search is chosen by the board it is given).

    :param game: the game it will play, so that its search is compiled or loaded now, before
        any clock runs (``None``: the chess family's).
    :param warm: ``False`` leaves that to the caller (``kradan play`` does it in the
        background, see :class:`kradan.engine.warmup.Warmup`).
    """

    def __init__(
        self,
        level: int = MAX_LEVEL,
        hash_mb: int = 16,
        seed: int | None = None,
        game: str | None = None,
        book: Book | None = None,
        weights: str | None = None,
        weights_table: np.ndarray | None = None,
        contempt: int = 0,
        network: Network | bool | None = None,
        network_name: str | None = None,
        warm: bool = True,
    ) -> None:
        self.level = level
        #: an opening book: its moves are played while it knows the position
        self.book = book
        self.searchers = Searchers(hash_mb)
        self.searchers.use_weights(weights_table if weights_table is not None else weights)
        self.searchers.use_contempt(contempt)
        self.searchers.use_network(network)
        self.searcher = self.searchers.chess
        self.random = random.Random(seed)
        self.name = "kradan" if level == MAX_LEVEL else f"kradan level {level}"
        if weights:
            self.name += f" ({weights})"
        if contempt:
            self.name += f" (contempt {contempt})"
        if network_name:
            self.name += f" (network {network_name})"
        if warm:  # compile or load the search now, before any clock runs
            self.searchers.warm(new_board(game) if game else Board())

    def searcher_for(self, board: AnyBoard) -> GameSearch:
        """The search that plays ``board``'s game."""
        return self.searchers.for_board(board)

    def choose_move(self, board: AnyBoard, limit: Limit) -> PlayResult:
        """The engine's move, and in declared counting the count it declares or stops first
        (``PlayResult.count``; the caller makes it before the move)."""
        if self.book is not None and self.book.game == board.variant.name:
            book_move = self.book.choose(board, self.random)
            if book_move is not None:
                return PlayResult(book_move, {"book": True})
        count = None
        if isinstance(board, CountingBoard):  # the engine's counting policy: the chess family's
            count = count_decision(cast(Board, board))
            if count is not None:
                board = board.copy()
                apply_count_decision(cast(Board, board))
        searcher = self.searcher_for(board)
        if self.level >= MAX_LEVEL:
            result = searcher.best_move(board, limit)
            info = result.info.as_dict() if result.info else {}
            return PlayResult(result.move, info, count=count, ponder=result.ponder)
        lines: list[SearchInfo[Any]] = []
        limit = level_limit(self.level, limit)
        for found in searcher.search_multipv(board, limit, level_lines(self.level)):
            lines = found  # the deepest completed iteration wins
        move = pick_move(board, lines, self.level, self.random)
        chosen = [line for line in lines if line.pv and line.pv[0] == move]
        return PlayResult(move, chosen[0].as_dict() if chosen else {}, count=count)

    def new_game(self) -> None:
        self.searchers.clear()

    def close(self) -> None:
        pass


class EnginePlayer:
    """An external engine over UCI or XBoard."""

    def __init__(self, client: UciClient | XBoardClient) -> None:
        self.client = client
        self.name = client.name

    def choose_move(self, board: Board, limit: Limit) -> PlayResult:
        return self.client.play(board, limit)

    def new_game(self) -> None:
        self.client.new_game()

    def close(self) -> None:
        self.client.quit()


class RandomPlayer:
    """Plays a uniformly random legal move."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)
        self.name = "random"

    def choose_move(self, board: AnyBoard, limit: Limit) -> PlayResult:
        moves: list[Any] = list(board.legal_moves)
        return PlayResult(self.random.choice(moves) if moves else None)

    def new_game(self) -> None:
        pass

    def close(self) -> None:
        pass


def make_player(spec: str, seed: int | None = None, game: str | None = None) -> Player:
    """The player a spec names (see the module docstring), ready to play ``game``.

    :raises PlayerSpecError: for an unknown spec or bad option;
    :raises EngineError: when an external engine cannot be started.
    """
    kind, _, rest = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "kradan":
        options = dict(part.split("=", 1) for part in rest.split(",") if "=" in part)
        book_file = options.pop("book", None)
        weights = options.pop("weights", None)
        network_name = options.pop("network", None)
        unknown = set(options) - {"level", "hash", "contempt"}
        if unknown or any(not v.isdecimal() for v in options.values()):  # int() refuses "²"
            raise PlayerSpecError(
                f"bad kradan options in {spec!r}: use "
                "kradan:level=1..20,hash=MB,book=FILE,weights=FILE,contempt=0..100,"
                "network=FILE|none"
            )
        level = int(options.get("level", MAX_LEVEL))
        if not 1 <= level <= MAX_LEVEL:
            raise PlayerSpecError(f"level {level} in {spec!r} is outside 1..{MAX_LEVEL}")
        if game is not None and find_game(game).searcher is None:
            raise PlayerSpecError(f"{spec!r}: kradan's engine does not play {game} yet")
        book = Book.read(book_file) if book_file else None
        table = None
        if weights:
            try:
                table = load_weights(weights)  # a bad file is said here, with the spec
            except (OSError, ValueError) as error:
                raise PlayerSpecError(f"bad weights file in {spec!r}: {error}") from error
        network: Network | bool | None = None
        if network_name is not None:
            try:
                network = False if network_name == "none" else load_network(network_name)
            except InputFileError as error:
                raise PlayerSpecError(f"bad network file in {spec!r}: {error}") from error
        hash_mb = int(options.get("hash", 16))
        contempt = int(options.get("contempt", 0))
        if contempt > MAX_CONTEMPT:
            raise PlayerSpecError(f"contempt {contempt} in {spec!r} is outside 0..{MAX_CONTEMPT}")
        return KradanPlayer(
            level, hash_mb, seed, game, book, weights, weights_table=table, contempt=contempt,
            network=network, network_name=network_name,
        )  # fmt: skip
    if kind == "random":
        return RandomPlayer(seed)
    if kind in ("uci", "xboard"):
        if game is not None and not find_game(game).external_engines:
            raise PlayerSpecError(f"{spec!r}: external engines do not play {game}; use kradan")
        command = shlex.split(rest)
        if not command:
            raise PlayerSpecError(f"{spec!r} names no engine command (e.g. 'uci:/path/to/engine')")
        client: UciClient | XBoardClient
        client = UciClient.popen(command) if kind == "uci" else XBoardClient.popen(command)
        return EnginePlayer(client)
    raise PlayerSpecError(
        f"unknown player {spec!r}; use kradan[:level=N], uci:COMMAND, xboard:COMMAND or random"
    )


__all__ = [
    "EngineError",
    "EnginePlayer",
    "KradanPlayer",
    "Player",
    "PlayerSpecError",
    "RandomPlayer",
    "make_player",
]
