"""Every game kradan plays, behind one door: the chess family (:class:`kradan.Board`) and
Alquerque (:class:`kradan.alquerque.Board`). Front ends that take a game name (``kradan match``,
``kradan play``, the players) open boards here instead of choosing the class themselves.

>>> new_board("alquerque-bell").variant.name, new_board("makruk").variant.name
('alquerque-bell', 'makruk')
"""

from __future__ import annotations

from typing import Any, TypeAlias

from . import alquerque
from .board import Board
from .variants import find_variant, variant_names

AnyBoard: TypeAlias = Board | alquerque.Board


def game_names() -> list[str]:
    """The names of every game: the chess variants, then the Alquerque games."""
    return [*variant_names(), *alquerque.GAMES]


def canonical_name(name: str) -> str:
    """The canonical name of the game called ``name`` (an alias such as ``"thai"`` works).

    :raises VariantError: for a name no game answers to.
    """
    if alquerque.is_alquerque_name(name):
        return alquerque.find_game(name).name
    return find_variant(name).name


def new_board(name: str, text: str | None = None, **options: Any) -> AnyBoard:
    """A board of the game called ``name``, at ``text`` (a FEN or Alquerque position text) or
    the start; ``options`` are the game's rule options.

    :raises VariantError: for an unknown game or option;
    :raises InvalidFenError: for a malformed position.
    """
    if alquerque.is_alquerque_name(name):
        return alquerque.Board(text, variant=name, **options)
    return Board(text, variant=name, **options)


def is_alquerque(board: object) -> bool:
    """Whether ``board`` is an Alquerque board."""
    return isinstance(board, alquerque.Board)


__all__ = ["AnyBoard", "canonical_name", "game_names", "is_alquerque", "new_board"]
