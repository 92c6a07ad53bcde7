"""PGN for every game kradan knows, in python-chess's shape.

>>> import io
>>> from kradan import pgn
>>> game = pgn.read_game(io.StringIO('[Variant "makruk"]\\n\\n1. e4 d5 2. exd5 { open } *'))
>>> game.headers["Variant"], [node.san() for node in game.mainline()]
('makruk', ['e4', 'd5', 'exd5'])
>>> game.end().comment
'open'
>>> print(game)
[Result "*"]
[Variant "makruk"]
<BLANKLINE>
1. e4 d5 2. exd5 {open} *

Conventions, chosen so that kradan's own output reads back identically:

* ``[Variant]`` names the game (any name or alias: ``makruk``, ``Makruk``, ``thai``,
  ``alquerque-bell``); without it a game is Makruk (``default_variant``). ``[FEN]`` with
  ``[SetUp "1"]`` gives the start (Alquerque: its position text). Rule options that differ from
  the game's defaults travel in ``[VariantOptions "counting=declared sut_met=true"]``.
* Counting declarations and stops are comment commands after the move they follow (or before
  the first move): ``{[%count declare]}``, ``{[%count stop]}``; the older ``{declare count}``
  is read too. Sittuyin setup drops are ordinary moves (``R@a1``).
* Alquerque moves are ``c2-c3``, ``b3xd3xd5`` and, with a huff, ``hc3,b2-c3``.
* ``[Result]`` and ``[Termination]`` (``checkmate``, ``counting limit``, ...) come from the board.

Modules, each importing only those before it: ``dialects`` (the PGN dialects' names), ``moves``
(move tokens), ``headers`` (tags and the start position), ``visitor`` (the visit hooks),
``exporter`` (writing), ``tree`` (the game tree), ``builder`` (trees from a visit), ``reader``
(reading), ``formats`` (other shapes), ``text`` (a board's game as text). The package loads
each on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

#: names loaded on first use: the command line reads ``pgn.dialects`` for its help without
#: loading the boards
_LAZY: dict[str, str | None] = {
    "GameBuilder": ".builder",
    "FileExporter": ".exporter",
    "StringExporter": ".exporter",
    "SEVEN_TAGS": ".headers",
    "Headers": ".headers",
    "options_text": ".headers",
    "parse_options": ".headers",
    "move_text": ".moves",
    "parse_move": ".moves",
    "read_game": ".reader",
    "read_headers": ".reader",
    "skip_game": ".reader",
    "ChildNode": ".tree",
    "Game": ".tree",
    "GameNode": ".tree",
    "SKIP": ".visitor",
    "BaseVisitor": ".visitor",
    "HeadersBuilder": ".visitor",
    "ReadError": ".visitor",
    "SkipVisitor": ".visitor",
    "game_text": ".text",
}

if TYPE_CHECKING:
    from .builder import GameBuilder
    from .exporter import FileExporter, StringExporter
    from .headers import SEVEN_TAGS, Headers, options_text, parse_options
    from .moves import move_text, parse_move
    from .reader import read_game, read_headers, skip_game
    from .text import game_text
    from .tree import ChildNode, Game, GameNode
    from .visitor import SKIP, BaseVisitor, HeadersBuilder, ReadError, SkipVisitor

__getattr__, __dir__ = lazy_names(__name__, _LAZY)


__all__ = [
    "SEVEN_TAGS",
    "SKIP",
    "BaseVisitor",
    "ChildNode",
    "FileExporter",
    "Game",
    "GameBuilder",
    "GameNode",
    "Headers",
    "HeadersBuilder",
    "ReadError",
    "SkipVisitor",
    "StringExporter",
    "game_text",
    "move_text",
    "options_text",
    "parse_move",
    "parse_options",
    "read_game",
    "read_headers",
    "skip_game",
]
