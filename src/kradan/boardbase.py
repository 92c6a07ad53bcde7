"""What every board does the same way, whatever its game: :class:`BoardBase` and the
legal-move view :class:`LegalMoveView`.

The chess family's :class:`kradan.Board` and Alquerque's :class:`kradan.alquerque.Board` are
built on it. Each keeps its position in its own kernel's arrays and gives the few methods that
read them (legal move codes, push, pop, FEN, outcome); parsing and playing moves by text, the
game's end as a result string, resignations and agreed draws, the move stack, perft split by
the first move, equality and printing are written here once. Nothing here stands between a
board and its kernel on the hot paths: push, pop and move generation are each board's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Generic, TypeVar

from .arguments import MAX_PERFT_DEPTH, check_color, check_number
from .errors import EmptyMoveStackError, IllegalMoveError, InvalidArgumentError, InvalidMoveError
from .movebase import MoveBase
from .outcome import Outcome, Termination
from .pieces import Color

#: the game's move class
MoveT = TypeVar("MoveT", bound=MoveBase)
#: what the move stack holds: the moves, and for the chess family its count actions too
EntryT = TypeVar("EntryT")


class LegalMoveView(Generic[MoveT]):
    """The legal moves of a board: iterate, ``len``, ``count()``, ``bool``, and
    ``move in board.legal_moves``. Generated once per position, when first asked for."""

    __slots__ = ("_board",)

    def __init__(self, board: BoardBase[MoveT, Any]) -> None:
        self._board = board

    def __iter__(self) -> Iterator[MoveT]:
        return iter(self._board._legal_move_list())

    def __len__(self) -> int:
        return len(self._board._legal_codes())

    def count(self) -> int:
        """Number of legal moves."""
        return len(self._board._legal_codes())

    def __bool__(self) -> bool:
        return bool(self._board._legal_codes())

    def __contains__(self, move: object) -> bool:
        board = self._board
        return isinstance(move, board._move_class) and board.is_legal(move)

    def __repr__(self) -> str:
        board = self._board
        sans = ", ".join(board.san(move) for move in self)
        return f"<{type(self).__name__} at {id(self):#x} ({sans})>"


class BoardBase(Generic[MoveT, EntryT]):
    """A position of some game with the moves that led to it (see the module docstring).

    A subclass sets ``_move_class`` and ``_legal_view`` and gives the methods below that raise
    ``NotImplementedError``; it keeps ``move_stack`` and ``_ended`` (a resignation or an agreed
    draw, cleared by every push and pop).
    """

    #: the rule set, with its options
    variant: Any
    #: the moves played, oldest first
    move_stack: list[EntryT]
    _ended: Outcome | None
    _move_class: type[MoveT]
    _legal_view: type[LegalMoveView[MoveT]]
    #: file letters, for :meth:`__str__`
    _files: str

    # --- what each board gives -------------------------------------------------------------------

    def _legal_codes(self) -> list[int]:
        """The kernel codes of the legal moves (cached until the position changes)."""
        raise NotImplementedError

    def _legal_move_list(self) -> list[MoveT]:
        """The legal moves, in the order of :meth:`_legal_codes`."""
        raise NotImplementedError

    def is_legal(self, move: MoveT) -> bool:
        """Whether ``move`` is legal in this position."""
        raise NotImplementedError

    def push(self, move: MoveT) -> None:
        """Play ``move``.

        :raises IllegalMoveError: when the move is not legal here; the board is unchanged.
        """
        raise NotImplementedError

    def fen(self, *, show_promoted: bool | None = None) -> str:
        """The position as text; ``show_promoted`` marks promoted pieces where a game has
        them."""
        raise NotImplementedError

    def san(self, move: MoveT) -> str:
        """``move`` as people write it."""
        raise NotImplementedError

    def parse_san(self, san: str) -> MoveT:
        """The legal move written ``san`` as people write it."""
        raise NotImplementedError

    def variation_san(self, moves: Iterable[MoveT]) -> str:
        """``moves``, played in turn from here, as a numbered line: ``1. e4 d5 2. exd5``.

        :raises IllegalMoveError: at the first move that is not legal where it stands;
        :raises InvalidArgumentError: when ``moves`` is not a sequence of moves.
        """
        return self._numbered_line(moves, lambda board, move: board.san(move))

    def _numbered_line(self, moves: Iterable[MoveT], write: Callable[[Any, MoveT], str]) -> str:
        """``moves`` from here, each written by ``write(board, move)`` before it is played,
        with move numbers (``3...`` when Black moves first)."""
        if isinstance(moves, str | bytes) or not isinstance(moves, Iterable):
            raise InvalidArgumentError(f"moves {moves!r}: expected Move objects, in order")
        board: Any = self.copy()
        words: list[str] = []
        for index, move in enumerate(moves):
            number = board.fullmove_number
            if board.turn:
                words.append(f"{number}.")
            elif index == 0:
                words.append(f"{number}...")
            words.append(write(board, move))
            board.push(move)
        return " ".join(words)

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on."""
        raise NotImplementedError

    def perft(self, depth: int, *, bulk: bool = True) -> int:
        """Number of leaf nodes of the legal move tree ``depth`` plies deep."""
        raise NotImplementedError

    def copy(self) -> BoardBase[MoveT, EntryT]:
        """An independent copy, history included."""
        raise NotImplementedError

    def _perft_after(self, code: int, depth: int, bulk: bool) -> int:
        """Perft ``depth`` plies below the legal move ``code``, the board left as it was."""
        raise NotImplementedError

    def _identity(self) -> tuple[object, ...]:
        """What makes two boards equal: the rule set and what the position text shows."""
        raise NotImplementedError

    def _symbol_at(self, square: int) -> str:
        """The letter of the piece on ``square`` (``.`` when it is empty), for printing."""
        raise NotImplementedError

    def _illegal_reason(self, move: MoveT) -> str:
        """Why ``move`` is not legal, as ``": reason"``, or ``""`` when the board does not say."""
        return ""

    # --- moves by text ---------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveView[MoveT]:
        """The legal moves, generated lazily: ``count()``, ``in``, iteration yields moves."""
        return self._legal_view(self)

    def uci(self, move: MoveT) -> str:
        """The UCI string of ``move`` (Fairy-Stockfish's form for the chess family).

        :raises InvalidMoveError: when ``move`` is not a move of this game.
        """
        if not isinstance(move, self._move_class):
            raise InvalidMoveError(
                f"expected a {self._move_class.__name__} of this game, got "
                f"{type(move).__name__} {move!r}"
            )
        return move.uci()

    def parse_uci(self, uci: str) -> MoveT:
        """The legal move written ``uci``, in the form the game's ``Move.from_uci`` reads.

        :raises InvalidMoveError: for a malformed string;
        :raises IllegalMoveError: for a move that is not legal here.
        """
        move = self._move_class.from_uci(uci)
        if uci == "0000":
            raise IllegalMoveError(
                f"illegal move {uci!r} in {self.fen()!r}: the null move is no legal move "
                "(push Move.null() to pass on purpose)"
            )
        if not self.is_legal(move):
            reason = self._illegal_reason(move)
            raise IllegalMoveError(f"illegal move {uci!r} in {self.fen()!r}{reason}")
        return move

    def push_uci(self, uci: str) -> MoveT:
        """Parse a UCI move string as :meth:`parse_uci` does, play it and return the move."""
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def push_san(self, san: str) -> MoveT:
        """Parse a move as :meth:`parse_san` does, play it and return the move."""
        move = self.parse_san(san)
        self.push(move)
        return move

    def peek(self) -> EntryT:
        """The last move played.

        :raises EmptyMoveStackError: (an ``IndexError``) when no move has been played.
        """
        if not self.move_stack:
            raise EmptyMoveStackError("peek at a board with an empty move stack")
        return self.move_stack[-1]

    # --- end of game -----------------------------------------------------------------------------

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` reports an end."""
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        found = self.outcome(claim_draw=claim_draw)
        return "*" if found is None else found.result()

    def resign(self, color: Color) -> Outcome:
        """``color`` resigns; the game is over until a move is taken back."""
        self._ended = Outcome(Termination.RESIGNATION, not check_color(color))
        return self._ended

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw; the game is over until a move is taken back."""
        self._ended = Outcome(Termination.AGREEMENT, None)
        return self._ended

    # --- perft -----------------------------------------------------------------------------------

    def perft_divide(self, depth: int, *, bulk: bool = True) -> dict[MoveT, int]:
        """Perft split by the first move: each legal move and the leaves below it.

        :raises InvalidArgumentError: for a depth outside 1..100.
        """
        depth = check_number(depth, "depth", 1, MAX_PERFT_DEPTH)
        codes, moves = self._legal_codes(), self._legal_move_list()
        return {
            move: self._perft_after(code, depth - 1, bulk)
            for code, move in zip(codes, moves, strict=True)
        }

    # --- copying, comparing, printing ------------------------------------------------------------

    def __copy__(self) -> BoardBase[MoveT, EntryT]:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoardBase):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash(self._identity())

    def __str__(self) -> str:
        files = self._files
        width = len(files)
        rows = []
        for rank in range(width - 1, -1, -1):
            cells = " ".join(self._symbol_at(rank * width + file) for file in range(width))
            rows.append(f"{rank + 1} {cells}")
        rows.append("  " + " ".join(files))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.fen()!r}, variant={self.variant.name!r})"


__all__ = ["BoardBase", "EntryT", "LegalMoveView", "MoveT"]
