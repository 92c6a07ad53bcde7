"""What the move classes of every game share: a text form that is also their ``str`` and
``repr``, read back by ``from_uci``, and a type check with a clear error.

The chess family's :class:`kradan.move.Move` and Alquerque's :class:`kradan.alquerque.Move`
are frozen dataclasses built on :class:`MoveBase`; each keeps only its fields and its text.
"""

from __future__ import annotations

from typing import ClassVar, Self

from .errors import InvalidMoveError


class MoveBase:
    """A move of some game, written and read in its UCI-style form.

    A subclass gives :meth:`uci` and :meth:`from_uci`; ``str(move)`` is the UCI form and
    ``repr(move)`` is ``Move.from_uci('...')``, which reads back as the same move. Dataclass
    subclasses pass ``repr=False`` so that this ``repr`` is kept.
    """

    __slots__ = ()

    #: what error messages call a move of this class ("a Move", "an Alquerque Move")
    kind: ClassVar[str] = "a Move"

    def uci(self) -> str:
        """The move's UCI-style text."""
        raise NotImplementedError

    @classmethod
    def from_uci(cls, text: str) -> Self:
        """The move written ``text``.

        :raises InvalidMoveError: when ``text`` is not a move of this game.
        """
        raise NotImplementedError

    @classmethod
    def require(cls, move: object) -> Self:
        """``move`` itself when it is a move of this class.

        :raises InvalidMoveError: naming what was given instead.
        """
        if not isinstance(move, cls):
            raise InvalidMoveError(f"expected {cls.kind}, got {type(move).__name__} {move!r}")
        return move

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        return f"{type(self).__name__}.from_uci({self.uci()!r})"


__all__ = ["MoveBase"]
