"""The game registry: every game kradan plays, behind one door.

One :class:`Game` entry per game holds its rules (name, title, aliases and rule options), its
board class, and each tool's hook for it: the terminal picture, the SVG drawer, PGN move
reading and writing, the engine's search and the openings a match starts from. Hooks that live
in higher layers (pictures, PGN, the engine) are named as ``"module:attribute"`` and imported
on first use, so the rules never import the search. Code that would ask "which game is this?"
asks the registry instead:

>>> new_board("alquerque-bell").variant.name, new_board("thai").variant.name
('alquerque-bell', 'makruk')
>>> game_of(new_board("ouk")).title
'Ouk Chatrang'

A new game is a board class that satisfies :class:`GameBoard`, a rule set, and one
:func:`register` call; ``kradan perft``, ``kradan match``, PGN and SVG then know it. What only
some boards can do is a capability: a protocol here (:class:`CountingBoard`,
:class:`CheckBoard`, :class:`MaterialBoard`, :class:`SetupBoard`, :class:`KernelBoard`) that a
tool tests with
``isinstance``, never a test of the board's class or a comparison with the game's name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, TypedDict, runtime_checkable

from .alquerque.variant import GAMES as ALQUERQUE_GAMES
from .alquerque.variant import OPTIONS as ALQUERQUE_OPTIONS
from .counting import CountAction, CountingState
from .errors import VariantError
from .outcome import Outcome
from .rulesets import Option, RuleSet, normalise_name
from .variants import OPTIONS as CHESS_OPTIONS
from .variants import VARIANTS, SetupRule

# --- what every board offers --------------------------------------------------------------------


class MoveList(Protocol):
    """A board's legal moves: iterate, count, test membership."""

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...

    def __contains__(self, move: object) -> bool: ...

    def count(self) -> int: ...


class GameBoard(Protocol):
    """What every board offers, whatever the game, in python-chess's vocabulary. Moves are
    the game's own move objects; each has ``uci()``."""

    @property
    def variant(self) -> Any:
        """The board's rule set (a :class:`~kradan.rulesets.RuleSet`)."""

    move_stack: list[Any]

    @property
    def turn(self) -> bool: ...

    @property
    def fullmove_number(self) -> int: ...

    @property
    def legal_moves(self) -> MoveList: ...

    def fen(self, *, show_promoted: bool | None = None) -> str:
        """The position; ``show_promoted`` marks promoted pieces (``M~``) where a game has
        them."""
        ...

    def set_fen(self, fen: str) -> None: ...

    def is_legal(self, move: Any) -> bool: ...

    def push(self, move: Any) -> None: ...

    def pop(self) -> Any: ...

    def peek(self) -> Any: ...

    def copy(self) -> Any: ...

    def parse_uci(self, text: str) -> Any: ...

    def push_uci(self, text: str) -> Any: ...

    def san(self, move: Any) -> str: ...

    def parse_san(self, text: str) -> Any: ...

    def push_san(self, text: str) -> Any: ...

    def variation_san(self, moves: Any) -> str: ...

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None: ...

    def result(self, *, claim_draw: bool = False) -> str: ...

    def is_game_over(self, *, claim_draw: bool = False) -> bool: ...

    def can_claim_draw(self) -> bool: ...

    def is_repetition(self, count: int) -> bool: ...

    def resign(self, color: bool) -> Outcome: ...

    def agree_draw(self) -> Outcome: ...

    def perft(self, depth: int, *, bulk: bool = True) -> int: ...

    def perft_divide(self, depth: int, *, bulk: bool = True) -> Mapping[Any, int]: ...


@runtime_checkable
class CountingBoard(Protocol):
    """A board whose players may declare and stop counts (the chess family)."""

    def declare_count(self) -> CountAction: ...

    def stop_count(self) -> CountAction: ...

    def counting_state(self) -> CountingState | None: ...


@runtime_checkable
class CheckBoard(Protocol):
    """A board whose game has check: a king the side to move must keep out of attack."""

    def is_check(self) -> bool: ...

    def king(self, color: bool) -> int | None: ...


@runtime_checkable
class MaterialBoard(Protocol):
    """A board that knows when a side can no longer mate (a fallen flag then draws)."""

    def has_insufficient_material(self, color: bool) -> bool: ...


@runtime_checkable
class SetupBoard(Protocol):
    """A board whose pieces start in hand: dropped one by one, or, in a screened setup, handed
    in as whole camps (Sittuyin)."""

    @property
    def screened_setup(self) -> bool: ...

    def hand(self, color: bool) -> Mapping[int, int]: ...

    def submit_setup(self, color: bool, arrangement: Mapping[str, str] | str) -> bool: ...


@runtime_checkable
class StatusBoard(Protocol):
    """A board that says what is odd about a position it loaded (python-chess's ``status()``):
    the side not to move in check, impossible counting fields, too many pieces."""

    def is_valid(self) -> bool: ...

    def status_text(self) -> list[str]: ...


@runtime_checkable
class KernelBoard(Protocol):
    """A board whose position lives in the chess family's numba kernel, as bitboard and info
    arrays: what the search's network, its self-play, the evaluation's tuning and the endgame
    tables read."""

    def kernel_arrays(self, *, room: int = 0) -> tuple[Any, Any]: ...


#: any board of any game (kept for older imports; :class:`GameBoard` is the protocol)
AnyBoard: TypeAlias = GameBoard


class BrowserBoard(TypedDict):
    """What the web app's board needs to draw a game and take its moves: the answer of a
    game's ``browser`` hook (the web pages add the game's title)."""

    #: how the browser takes moves: ``"chess"`` (moves, drops and promotions of chessgroundx)
    #: or ``"alquerque"`` (points along the lines, capture chains)
    family: str
    #: the picture under the pieces: ``"plain"``, ``"sittuyin"`` (with its diagonals) or
    #: ``"alquerque"`` (:data:`kradan.web.assets.BOARDS`)
    board: str
    #: files and ranks
    width: int
    height: int
    #: chessgroundx's premove rules (its variant name); ``None``: no premoves
    premove: str | None
    #: the letters of the pieces in hand, in the pocket's order; ``None``: no pocket
    pocket: list[str] | None
    #: the letter of the piece a pawn promotes to; ``None``: no promotion
    promoted: str | None
    #: the letters of the pieces that can be in check
    kings: list[str]
    #: whether a hop captures the piece it jumps over (Alquerque's chains)
    jump_captures: bool
    #: whether a promoting move the player need not make is confirmed first (Sittuyin)
    confirm_promotion: bool
    #: which field of the position text holds the move number (negative: from the end)
    move_number_field: int
    #: for a game set up from the pockets, its camp: ``{"ranks": 3, "back_rank": ["r"]}``
    #: (how many ranks deep, the pieces kept to the back rank); ``None`` otherwise
    camp: dict[str, Any] | None
    #: the letters of every piece of the game, for the board editor's palette
    roles: list[str]


# --- the registry -------------------------------------------------------------------------------

#: a hook: the object itself (a function, a class, an object with methods), or its name as
#: ``"package.module:attribute"``, imported on first use; ``None`` where a game has none
Hook: TypeAlias = Any


@dataclass(frozen=True)
class Game:
    """One game: its rules, its board class, and each tool's hook for it.

    Hooks (each a callable or a ``"module:attribute"`` reference):

    * ``text(board, flipped=False, colour=False) -> str``: the terminal picture;
    * ``svg(board, options, *, lastmove, check, arrows, fill) -> str``: the SVG drawer, called by
      :func:`kradan.svg.board` with its checked options;
    * ``pgn``: an object with ``move_text(board, move, notation)`` and
      ``parse_move(board, text)``; ``None`` writes ``board.san(move)`` and reads
      ``board.parse_san(text)``;
    * ``searcher``: the engine's search class, made as ``searcher(hash_mb)``; ``None``: no
      engine plays the game;
    * ``openings(game, count) -> list[list[str]]``: a match's start lines as UCI moves;
      ``None``: every line of two plies;
    * ``browser(rules) -> BrowserBoard``: what the web app's board needs of the game (its
      shape, pocket, promotion, pieces, premoves); ``None``: the browser does not offer it.

    The rule options (``options``) carry their own labels, help and value labels
    (:class:`~kradan.rulesets.Option`), which the web pages show.
    """

    #: the default rules; the name, title and aliases are the rule set's
    rules: RuleSet
    #: makes boards: ``board(text, variant=rules)`` (``text`` ``None``: the start); like the
    #: hooks, a ``"module:attribute"`` string is imported on first use, so that the registry
    #: loads no board (and no compiled kernel) until a board is made
    board: Callable[..., GameBoard] | str
    #: the rule options the game takes
    options: Mapping[str, Option] = field(default_factory=dict)
    text: Hook = None
    svg: Hook = None
    pgn: Hook = None
    searcher: Hook = None
    openings: Hook = None
    browser: Hook = None
    #: whether engines outside kradan (over UCI or XBoard) play it
    external_engines: bool = False
    #: the notations ``board.san(move, notation)`` takes, the first the default
    notations: tuple[str, ...] = ("san",)

    @property
    def name(self) -> str:
        """The canonical name (``UCI_Variant``, PGN ``[Variant]``)."""
        return self.rules.name

    @property
    def title(self) -> str:
        """The name people use."""
        return self.rules.title

    def rules_with(self, **options: Any) -> Any:
        """The game's rule set with ``options`` set.

        :raises VariantError: for an unknown option or a bad value.
        """
        return self.rules.with_options(**options) if options else self.rules

    def new_board(self, text: str | None = None, **options: Any) -> GameBoard:
        """A board of this game at ``text`` (its FEN or position text), or at the start.

        :raises VariantError: for a bad option; :raises InvalidFenError: for a bad position.
        """
        return self.board_with_rules(text, self.rules_with(**options))

    def board_with_rules(self, text: str | None, rules: Any) -> GameBoard:
        """A board of this game at ``text`` (``None``: the start) under ``rules``, a rule set
        of the game (another board's ``variant``, say)."""
        make: Callable[..., GameBoard] = self.hook("board")
        return make(text, variant=rules)

    def hook(self, name: str) -> Any:
        """The hook ``name`` (see the class docstring), imported on first use; ``None`` when
        the game has none."""
        value = getattr(self, name)
        if not isinstance(value, str):
            return value
        loaded = _LOADED.get(value)
        if loaded is None:
            module, _, attribute = value.partition(":")
            loaded = _LOADED[value] = getattr(importlib.import_module(module), attribute)
        return loaded

    def option_defaults(self) -> dict[str, object]:
        """Each option's value in the default rules."""
        return {name: getattr(self.rules, name) for name in self.options}

    def applicable_options(self, **options: Any) -> dict[str, Any]:
        """Those of ``options`` that the game takes and that apply to its rules: a tool with
        one setting for every game (``--counting``) passes it on only where it means
        something, without asking which game this is."""
        return {
            name: value
            for name, value in options.items()
            if (option := self.options.get(name)) is not None and option.applies(self.rules)
        }

    def browser_board(self) -> BrowserBoard | None:
        """What the web app's board needs of this game (the ``browser`` hook's answer);
        ``None`` for a game the browser does not offer."""
        describe = self.hook("browser")
        return None if describe is None else describe(self.rules)


_GAMES: dict[str, Game] = {}
_NAMES: dict[str, Game] = {}
_LOADED: dict[str, Any] = {}  # hooks named as "module:attribute", once imported


def _keys(game: Game) -> list[str]:
    names = (game.name, game.title, *game.rules.aliases)
    keys = [normalise_name(name) for name in names]
    return [*keys, *(key.replace(" ", "") for key in keys)]


def register(game: Game) -> Game:
    """Add ``game`` to the registry; every tool that takes a game name then knows it.

    :raises VariantError: when one of its names is taken by another game.
    """
    for key in _keys(game):
        other = _NAMES.get(key)
        if other is not None and other.name != game.name:
            raise VariantError(f"the name {key!r} of {game.name!r} is taken by {other.name!r}")
    _GAMES[game.name] = game
    for key in _keys(game):
        _NAMES[key] = game
    return game


def unregister(name: str) -> None:
    """Remove the game called ``name`` (its canonical name) from the registry."""
    game = _GAMES.pop(name, None)
    if game is not None:
        for key in _keys(game):
            if _NAMES.get(key) is game:
                del _NAMES[key]


def find_game(name: str | RuleSet) -> Game:
    """The game called ``name`` (any name or alias, any case; or a rule set).

    :raises VariantError: for a name no game answers to, listing the known ones.
    """
    if not isinstance(name, str):
        found = _GAMES.get(getattr(name, "name", ""))
    else:
        key = normalise_name(name)
        found = _NAMES.get(key) or _NAMES.get(key.replace(" ", ""))
    if found is None:
        raise VariantError(f"unknown variant {name!r}; known variants: {', '.join(game_names())}")
    return found


def game_of(board: GameBoard) -> Game:
    """The game ``board`` is a board of."""
    return _GAMES.get(board.variant.name) or find_game(board.variant.name)


def game_names() -> list[str]:
    """The canonical names of every game, in the order they were registered."""
    return list(_GAMES)


def games() -> list[Game]:
    """Every registered game."""
    return list(_GAMES.values())


def canonical_name(name: str) -> str:
    """The canonical name of the game called ``name`` (an alias such as ``"thai"`` works).

    :raises VariantError: for a name no game answers to.
    """
    return find_game(name).name


def new_board(name: str, text: str | None = None, **options: Any) -> GameBoard:
    """A board of the game called ``name``, at ``text`` (a FEN or Alquerque position text) or
    the start; ``options`` are the game's rule options.

    :raises VariantError: for an unknown game or option;
    :raises InvalidFenError: for a malformed position.
    """
    return find_game(name).new_board(text, **options)


def replay_options(board: GameBoard, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` (rule options by name) as a board needs them to replay ``board``'s moves one
    by one from its start: a screened setup's camps, handed in whole, were played as the same
    drops the alternate setup makes move by move, so that setup gives way to the default."""
    if isinstance(board, SetupBoard) and board.screened_setup:
        return {name: value for name, value in options.items() if name != "sittuyin_setup"}
    return dict(options)


# --- the games kradan ships ---------------------------------------------------------------------

_CHESS_NOTATIONS = ("san", "lan", "thai", "thai_lan")

for _variant in sorted(VARIANTS.values(), key=lambda variant: variant.name):
    register(
        Game(
            rules=_variant,
            board="kradan.board:Board",
            options=CHESS_OPTIONS,
            text="kradan.cli.render:chess_text",
            svg="kradan.svg.chess:draw",
            pgn="kradan.pgn.moves:CHESS_MOVES",
            searcher="kradan.engine.chess:Searcher",
            openings=(
                "kradan.runners.match:setup_openings"
                if _variant.setup is SetupRule.DROPS
                else "kradan.runners.match:quiet_openings"
            ),
            browser="kradan.web.boards:chess",
            external_engines=True,
            notations=_CHESS_NOTATIONS,
        )
    )

for _game in ALQUERQUE_GAMES.values():
    register(
        Game(
            rules=_game,
            board="kradan.alquerque.board:Board",
            options=ALQUERQUE_OPTIONS,
            text="kradan.cli.render:alquerque_text",
            svg="kradan.svg.alquerque:draw",
            pgn="kradan.pgn.moves:ALQUERQUE_MOVES",
            searcher="kradan.engine.alquerque:AlquerqueSearcher",
            browser="kradan.web.boards:alquerque",
        )
    )


__all__ = [
    "AnyBoard",
    "BrowserBoard",
    "CheckBoard",
    "CountingBoard",
    "Game",
    "GameBoard",
    "Hook",
    "KernelBoard",
    "MaterialBoard",
    "MoveList",
    "SetupBoard",
    "StatusBoard",
    "canonical_name",
    "find_game",
    "game_names",
    "game_of",
    "games",
    "new_board",
    "register",
    "replay_options",
    "unregister",
]
