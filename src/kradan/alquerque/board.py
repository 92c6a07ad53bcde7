"""The Alquerque :class:`Board`, with the same public shape as the chess family's.

>>> board = Board(variant="alquerque-bell")
>>> sorted(m.uci() for m in board.legal_moves)
['b2c3', 'c2c3', 'd2c3', 'd3c3']
>>> board.push_uci("d3c3")
Move.from_uci('d3c3')
>>> [m.readable() for m in board.legal_moves]
['b3xd3']

What it shares with the chess family's board (moves by text, the result, resigning, the move
stack, perft by first move, equality, printing) is :class:`~kradan.boardbase.BoardBase`'s; the
kernel's move codes, the reasons a move is illegal and the end-of-game reads on the kernel's
arrays are in :mod:`.codec`, :mod:`.explain` and :mod:`.endings`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..arguments import (
    MAX_PERFT_DEPTH,
    check_color,
    check_number,
    check_square,
    check_text,
    decode_checked,
)
from ..boardbase import BoardBase, LegalMoveView
from ..errors import EmptyMoveStackError, IllegalMoveError, KradanError
from ..outcome import Outcome, Termination
from ..pieces import BLACK, KING, PAWN, WHITE, Color, Piece
from . import _kernel as K
from . import codec
from .endings import occurrences, penalty
from .explain import explain, huff_liable
from .geometry import POINTS
from .move import Move, require_move
from .text import parse_text, write_text
from .variant import (
    AlquerqueVariant,
    CaptureRule,
    ChainContinuation,
    HuffTarget,
    NoCaptureAdjudication,
    NoReturn,
    NoReturnScope,
    find_game,
)

_MARGIN = 16  # free rows kept beyond the game for perft and generation scratch


def compile_rules(variant: AlquerqueVariant) -> np.ndarray:
    """The kernel's rules array for ``variant``."""
    rules = np.zeros(K.RULES_NB, dtype=np.int64)
    rules[K.R_BELL] = int(variant.bell)
    rules[K.R_FORCED] = int(variant.capture_rule is CaptureRule.FORCED)
    rules[K.R_HUFF_ALL] = int(variant.huff_target is HuffTarget.ALL)
    rules[K.R_CHAIN_MANDATORY] = int(variant.chain_continuation is ChainContinuation.MANDATORY)
    rules[K.R_CAPTURE_FORWARD] = int(variant.bell_capture_directions.value == "forward_sideways")
    modes = {NoReturn.OFF: 0, NoReturn.START_POINT: 1, NoReturn.ANY_PREVIOUS: 2}
    rules[K.R_NO_RETURN] = modes[variant.no_return] if variant.bell else 0
    rules[K.R_NO_RETURN_ALL] = int(variant.no_return_scope is NoReturnScope.ALL_MOVES)
    rules[K.R_KINGS] = int(variant.alquerque_kings)
    return rules


class GameNotOverError(KradanError, ValueError):
    """A score asked of a game that has not ended, or of a game without Bell's scoring."""


class LegalMoves(LegalMoveView[Move]):
    """The legal moves of an Alquerque board: iterate, count, ``in``."""

    __slots__ = ()


class Board(BoardBase[Move, Move]):
    """An Alquerque position with its history.

    :param text: a position text (see :mod:`kradan.alquerque.text`); the start when ``None``.
    :param variant: ``"alquerque"`` (Alfonso X) or ``"alquerque-bell"``, or a variant object.
    :param options: the options of :mod:`kradan.alquerque.variant`.
    :raises InvalidFenError: for a malformed position text.
    :raises VariantError: for an unknown game or option.
    """

    _move_class = Move
    _legal_view = LegalMoves
    _files = "abcde"

    def __init__(
        self,
        text: str | None = None,
        *,
        variant: str | AlquerqueVariant = "alquerque",
        **options: Any,
    ) -> None:
        self.variant: AlquerqueVariant = find_game(variant, **options)
        self._rules = compile_rules(self.variant)
        self._buffer = np.empty(K.MAX_MOVES, dtype=np.int64)
        self._work = K.new_work()
        self.set_text(self.variant.start_text if text is None else text)

    # --- position --------------------------------------------------------------------------------

    def set_text(self, text: str) -> None:
        """Replace the position (and clear the history) with ``text``."""
        state = parse_text(text)
        self._stack = np.zeros((64 + _MARGIN, K.STATE_NB), dtype=np.int64)
        self._stack[0] = state
        self._ply = 0
        self.move_stack: list[Move] = []
        self._codes_cache: list[int] | None = None
        self._ended: Outcome | None = None

    def text(self) -> str:
        """The position text, with the no-return history when a piece has moved."""
        return write_text(self._state)

    def fen(self, *, show_promoted: bool | None = None) -> str:
        """The position text, as :meth:`text` (the name every board shares).
        ``show_promoted`` is there for the same reason: Alquerque has no promoted piece to
        mark."""
        return self.text()

    set_fen = set_text

    @property
    def _state(self) -> np.ndarray:
        state: np.ndarray = self._stack[self._ply]
        return state

    @property
    def fullmove_number(self) -> int:
        """The move number: 1 at the start, increased after each Black move."""
        return int(self._state[K.S_PLY]) // 2 + 1

    @property
    def turn(self) -> Color:
        """The side to move: ``WHITE`` (``True``) or ``BLACK`` (``False``)."""
        return WHITE if self._state[K.S_STM] == 0 else BLACK

    def piece_at(self, point: int) -> Piece | None:
        """The piece on ``point`` (men are ``PAWN``, kings ``KING``), or ``None``.

        :raises InvalidSquareError: when ``point`` is not 0..24.
        """
        point = check_square(point, POINTS, "point")
        state = self._state
        for color, index in ((WHITE, 0), (BLACK, 1)):
            if (int(state[K.S_WHITE + index]) >> point) & 1:
                king = (int(state[K.S_KINGS]) >> point) & 1
                return Piece(KING if king else PAWN, color)
        return None

    def pieces(self, color: Color) -> int:
        """How many pieces ``color`` has."""
        return bin(int(self._state[K.S_WHITE + (0 if check_color(color) else 1)])).count("1")

    def huff_liable(self) -> list[int]:
        """Points of the opponent's pieces to be huffed before the side to move plays."""
        return huff_liable(self._state)

    def _symbol_at(self, square: int) -> str:
        piece = self.piece_at(square)
        if piece is None:
            return "."
        letter = "k" if piece.piece_type == KING else "p"
        return letter.upper() if piece.color else letter

    # --- moves ------------------------------------------------------------------------------------

    def _legal_codes(self) -> list[int]:
        if self._codes_cache is None:
            n = K.generate(self._stack, self._ply, self._rules, self._buffer, False, self._work)
            self._codes_cache = self._buffer[:n].tolist()
        return self._codes_cache

    def _legal_move_list(self) -> list[Move]:
        decode, rules = codec.decode, self._rules
        return [decode(code, rules) for code in self._legal_codes()]

    # --- the kernel's view, for code that works on its arrays (the engine) ----------------------

    @property
    def kernel_rules(self) -> np.ndarray:
        """The compiled rules array the kernel reads (read-only by convention)."""
        return self._rules

    def kernel_history(self, *, room: int = 0) -> tuple[np.ndarray, int]:
        """A copy of the state stack up to this position, with ``room`` free rows after it, and
        the index of this position's row: the engine searches on the copy."""
        stack = np.zeros((self._ply + 1 + room, K.STATE_NB), dtype=np.int64)
        stack[: self._ply + 1] = self._stack[: self._ply + 1]
        return stack, self._ply

    def decode_move(self, code: int) -> Move:
        """The :class:`Move` of a kernel move code in this position.

        :raises InvalidMoveError: for a number that is no move code.
        """
        return decode_checked(lambda number: codec.decode(number, self._rules), code)

    def encode_move(self, move: Move) -> int | None:
        """The kernel move code of ``move`` here (``None`` when it cannot be one)."""
        return codec.encode(move, self._state, self._rules)

    # --- making and taking back moves ----------------------------------------------------------

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal in this position."""
        code = codec.encode(move, self._state, self._rules)
        return code is not None and code in self._legal_codes()

    def push(self, move: Move) -> None:
        """Play ``move``.

        :raises IllegalMoveError: explaining why the move is not legal here.
        """
        code = codec.encode(move, self._state, self._rules)
        if code is None or code not in self._legal_codes():
            raise IllegalMoveError(
                f"illegal move {move.uci()!r} in {self.text()!r}{self._illegal_reason(move)}"
            )
        if self._ply + _MARGIN >= len(self._stack):
            grown = np.zeros((2 * len(self._stack), K.STATE_NB), dtype=np.int64)
            grown[: len(self._stack)] = self._stack
            self._stack = grown
        K.make(self._stack, self._ply, self._rules, code)
        self._ply += 1
        self.move_stack.append(move)
        self._codes_cache = None
        self._ended = None

    def pop(self) -> Move:
        """Take back the last move.

        :raises EmptyMoveStackError: (an ``IndexError``) when there is none.
        """
        if not self.move_stack:
            raise EmptyMoveStackError("pop from a board with an empty move stack")
        self._ply -= 1
        self._codes_cache = None
        self._ended = None
        return self.move_stack.pop()

    def parse_move(self, text: str) -> Move:
        """The legal move written ``text``, UCI-style or readable (as :meth:`parse_uci`).

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: explaining why it is not legal here.
        """
        return self.parse_uci(text)

    def parse_san(self, text: str) -> Move:
        """The legal move written ``text`` as PGN and people write it (``c2-c3``, ``b3xd3xd5``,
        ``hc3,b2-c3``, UCI strings too); trailing ``!``, ``?``, ``+`` and ``#`` are ignored.

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: explaining why it is not legal here.
        """
        return self.parse_uci(check_text(text, "move").rstrip("!?+#"))

    def san(self, move: Move) -> str:
        """The readable form, ``c2-c3`` or ``b3xd3xd5``.

        :raises InvalidMoveError: when ``move`` is not an Alquerque :class:`Move`.
        """
        return require_move(move).readable()

    def _illegal_reason(self, move: Move) -> str:
        """Why ``move`` is not legal: the first rule it breaks."""
        return ": " + explain(move, self._state, self._rules, self._legal_move_list())

    # --- end of game ----------------------------------------------------------------------------

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position (pieces, side, huffs, no-return histories) occurred ``count``
        times since the last capture."""
        count = check_number(count, "count", 1)
        return occurrences(self._stack, self._ply, self._rules) >= count

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or ``None`` (all of Alquerque's ends are automatic)."""
        if self._ended is not None:
            return self._ended
        side = self.turn
        for color in (side, not side):  # decided before immobilisation (Decision 10)
            if self.pieces(color) == 0:
                return Outcome(Termination.CAPTURED_ALL, not color)
        if not self._legal_codes():
            if self.variant.bell:
                return Outcome(Termination.IMMOBILISED, not side)
            return Outcome(Termination.STALEMATE, None)  # Alfonso X: blocked, a draw [proj]
        if self.is_repetition(3):
            return Outcome(Termination.REPETITION, None)
        limit = self.variant.no_capture_limit
        if limit and int(self._state[K.S_NO_CAPTURE]) >= 2 * limit:
            mine, theirs = self.pieces(WHITE), self.pieces(BLACK)
            rule = self.variant.no_capture_adjudication
            if mine == theirs:
                return Outcome(Termination.NO_CAPTURE_LIMIT, None)
            if rule is NoCaptureAdjudication.MORE_PIECES_WINS:
                return Outcome(Termination.NO_CAPTURE_LIMIT, mine > theirs)
        return None

    def can_claim_draw(self) -> bool:
        """Always ``False``: Alquerque has no draw to claim, all of its ends are automatic."""
        return False

    def score(self) -> tuple[int, int]:
        """Bell's penalty points (White's, Black's) for a finished game (docs/rules.md 6.5).

        The winner scores 0 and the loser is charged: 2 + W after capturing everything (W the
        winner's pieces left), ``2 + |W - L|`` after an immobilisation
        (``bell_scoring="seed"``, as the seed writes it) or ``2 + max(W - L, 0)``
        (``"winner_ahead_only"``). Draws score (0, 0). Points add up over a series.

        :raises GameNotOverError: for a game still going on or one without Bell's rules.
        """
        if not self.variant.bell:
            raise GameNotOverError("scoring is one of Bell's rules: use 'alquerque-bell'")
        found = self.outcome()
        if found is None:
            raise GameNotOverError(f"the game is not over: {self.text()!r}")
        if found.winner is None:
            return (0, 0)
        winners, losers = self.pieces(found.winner), self.pieces(not found.winner)
        return penalty(found, winners, losers, self.variant.bell_scoring)

    # --- perft, copies, printing ------------------------------------------------------------------

    def perft(self, depth: int, *, bulk: bool = True) -> int:
        """Leaf nodes of the legal move tree ``depth`` plies deep.

        :raises InvalidArgumentError: for a depth outside 0..100.
        """
        depth = check_number(depth, "depth", 0, MAX_PERFT_DEPTH)
        self._room_for(depth)
        return int(K.perft(self._stack, self._ply, self._rules, depth, bulk))

    def _room_for(self, depth: int) -> None:
        """Grow the state stack so that ``depth`` more plies fit, with the margin free."""
        if self._ply + depth + _MARGIN >= len(self._stack):
            grown = np.zeros((self._ply + depth + 2 * _MARGIN, K.STATE_NB), dtype=np.int64)
            grown[: len(self._stack)] = self._stack
            self._stack = grown

    def _perft_after(self, code: int, depth: int, bulk: bool) -> int:
        self._room_for(depth + 1)
        K.make(self._stack, self._ply, self._rules, code)
        return int(K.perft(self._stack, self._ply + 1, self._rules, depth, bulk))

    def copy(self) -> Board:
        """An independent copy, history included."""
        board = Board.__new__(Board)
        board.variant = self.variant
        board._rules = self._rules
        board._buffer = np.empty(K.MAX_MOVES, dtype=np.int64)
        board._work = K.new_work()
        board._stack = self._stack.copy()
        board._ply = self._ply
        board.move_stack = list(self.move_stack)
        board._codes_cache = self._codes_cache
        board._ended = self._ended
        return board

    def _identity(self) -> tuple[object, ...]:
        return (self.variant, self.text())
