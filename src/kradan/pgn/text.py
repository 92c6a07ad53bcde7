"""A board's game as PGN text in one call."""

from __future__ import annotations

from collections.abc import Mapping

from ..games import AnyBoard
from .tree import Game


def game_text(board: AnyBoard, headers: Mapping[str, str] | None = None) -> str:
    """The game that led to ``board`` as PGN text ending with a newline (see
    :meth:`Game.from_board`)."""
    return str(Game.from_board(board, headers)) + "\n"


__all__ = ["game_text"]
