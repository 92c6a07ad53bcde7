"""The typed errors kradan raises for bad input (DESIGN.md: "Bad input gets a clear error").

All of them but :class:`ExecutorError`, :class:`EngineError` and :class:`EmptyMoveStackError`
subclass :class:`ValueError`, so ``except ValueError`` catches every bad-input case; the first two
are the machine's trouble (parallel work, another engine's process), not the input's, and the
third is an ``IndexError`` as in python-chess.
Messages quote the offending input with ``!r`` and, for moves, the position's FEN.
"""

from __future__ import annotations


class KradanError(Exception):
    """Base class of every error raised by kradan."""


class VariantError(KradanError, ValueError):
    """An unknown variant name or an invalid option value."""


class InvalidFenError(KradanError, ValueError):
    """A FEN that cannot describe a position of the chosen variant."""


class InvalidMoveError(KradanError, ValueError):
    """A move string that is not well formed (syntax)."""


class IllegalMoveError(KradanError, ValueError):
    """A well-formed move that is not legal in the current position."""


class AmbiguousMoveError(KradanError, ValueError):
    """A SAN move that more than one legal move matches."""


class CountingError(KradanError, ValueError):
    """A count declared or stopped against the counting rules (docs/rules.md 2.6.4)."""


class InvalidSetupError(KradanError, ValueError):
    """A Sittuyin arrangement that breaks a setup rule (square, camp, rook rank, piece counts)."""


class InvalidSquareError(KradanError, ValueError):
    """A square name such as ``'i9'`` that is not on the board."""


class InvalidArgumentError(KradanError, ValueError, TypeError):
    """An argument of the wrong kind or outside its range: a colour that is not ``True`` or
    ``False``, a depth that is not a whole number, an unknown notation name. It is also a
    ``TypeError``, the error Python gives for a wrong kind of argument."""


class EmptyMoveStackError(KradanError, IndexError):
    """``pop()`` or ``peek()`` on a board with no move played; also an ``IndexError``, as
    python-chess raises."""


class InputFileError(KradanError, ValueError):
    """A file named on the command line that cannot be opened or read."""


class UsageError(KradanError, ValueError):
    """A command-line option given a value outside its range."""


class PgnError(KradanError, ValueError):
    """PGN text that cannot be read: a bad header, an unknown or illegal move (strict mode)."""


class TablebaseError(KradanError, ValueError):
    """An endgame-table question kradan cannot answer: a position the tables do not cover
    (pawns, too many pieces, other rules), or a table that cannot be used."""


class MissingTableError(TablebaseError):
    """The endgame table a position needs is not in the table directory (generate it)."""


class CorruptTableError(TablebaseError):
    """An endgame-table file that is damaged: a wrong header, size or checksum."""


class ExecutorError(KradanError, RuntimeError):
    """Parallel work cannot run: Ray is not installed, a cluster cannot be reached, or a task
    kept losing its worker."""


class EngineError(KradanError, RuntimeError):
    """An engine cannot play: an external engine died, timed out or broke its protocol, or
    kradan's own engine was asked for a game it does not play."""


__all__ = [
    "AmbiguousMoveError",
    "CorruptTableError",
    "CountingError",
    "EmptyMoveStackError",
    "EngineError",
    "ExecutorError",
    "IllegalMoveError",
    "InputFileError",
    "InvalidArgumentError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidSetupError",
    "InvalidSquareError",
    "KradanError",
    "MissingTableError",
    "PgnError",
    "TablebaseError",
    "UsageError",
    "VariantError",
]
