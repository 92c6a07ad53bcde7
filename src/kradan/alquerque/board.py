"""The Alquerque :class:`Board`, with the same public shape as the chess family's.

>>> board = Board(variant="alquerque-bell")
>>> sorted(m.uci() for m in board.legal_moves)
['b2c3', 'c2c3', 'd2c3', 'd3c3']
>>> board.push_uci("d3c3")
Move.from_uci('d3c3')
>>> [m.readable() for m in board.legal_moves]
['b3xd3']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..errors import IllegalMoveError, KradanError
from ..outcome import Outcome, Termination
from ..pieces import BLACK, KING, PAWN, WHITE, Color, Piece
from . import _kernel as K
from .geometry import JUMP_OVER, JUMP_TO, STEP, point_name
from .move import Move, require_move
from .text import parse_text, write_text
from .variant import (
    AlquerqueVariant,
    BellScoring,
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


class LegalMoves:
    """The legal moves of an Alquerque board: iterate, count, ``in``."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._moves())

    def __len__(self) -> int:
        return len(self._board._codes())

    def count(self) -> int:
        return len(self._board._codes())

    def __bool__(self) -> bool:
        return bool(self._board._codes())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)


class Board:
    """An Alquerque position with its history.

    :param text: a position text (see :mod:`kradan.alquerque.text`); the start when ``None``.
    :param variant: ``"alquerque"`` (Alfonso X) or ``"alquerque-bell"``, or a variant object.
    :param options: the options of :mod:`kradan.alquerque.variant`.
    :raises InvalidFenError: for a malformed position text.
    :raises VariantError: for an unknown game or option.
    """

    def __init__(
        self,
        text: str | None = None,
        *,
        variant: str | AlquerqueVariant = "alquerque",
        **options: Any,
    ) -> None:
        self.variant = find_game(variant, **options)
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
        return WHITE if self._state[K.S_STM] == 0 else BLACK

    def piece_at(self, point: int) -> Piece | None:
        """The piece on ``point`` (men are ``PAWN``, kings ``KING``), or ``None``."""
        state = self._state
        for color, index in ((WHITE, 0), (BLACK, 1)):
            if (int(state[K.S_WHITE + index]) >> point) & 1:
                king = (int(state[K.S_KINGS]) >> point) & 1
                return Piece(KING if king else PAWN, color)
        return None

    def pieces(self, color: Color) -> int:
        """How many pieces ``color`` has."""
        return bin(int(self._state[K.S_WHITE + (0 if color else 1)])).count("1")

    def huff_liable(self) -> list[int]:
        """Points of the opponent's pieces to be huffed before the side to move plays."""
        liable = int(self._state[K.S_HUFF])
        return [p for p in range(25) if (liable >> p) & 1]

    # --- moves ------------------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def _codes(self) -> list[int]:
        if self._codes_cache is None:
            n = K.generate(self._stack, self._ply, self._rules, self._buffer, False, self._work)
            self._codes_cache = self._buffer[:n].tolist()
        return self._codes_cache

    def _moves(self) -> list[Move]:
        return [self._decode(code) for code in self._codes()]

    def _decode(self, code: int) -> Move:
        origin = code & 31
        jumps = (code >> K.M_JUMPS_SHIFT) & 15
        path = []
        pos = origin
        if jumps == 0:
            path.append(int(STEP[origin, (code >> K.M_DIRS_SHIFT) & 7]))
        for i in range(jumps):
            pos = int(JUMP_TO[pos, (code >> (K.M_DIRS_SHIFT + 3 * i)) & 7])
            path.append(pos)
        huff = None
        if code & K.HUFF_FLAG and not self._rules[K.R_HUFF_ALL]:
            huff = (code >> K.HUFF_SHIFT) & 31
        return Move(origin, tuple(path), huff)

    def _encode(self, move: Move) -> int | None:
        code = require_move(move).origin
        if not move.is_capture:
            if len(move.path) != 1:
                return None
            dirs = [d for d in range(8) if STEP[move.origin, d] == move.path[0]]
            if not dirs:
                return None
            code |= dirs[0] << K.M_DIRS_SHIFT
        else:
            pos = move.origin
            for i, landing in enumerate(move.path):
                dirs = [d for d in range(8) if JUMP_TO[pos, d] == landing]
                if not dirs or i >= 12:
                    return None
                code |= dirs[0] << (K.M_DIRS_SHIFT + 3 * i)
                pos = landing
            code |= len(move.path) << K.M_JUMPS_SHIFT
        if self._state[K.S_HUFF]:
            code |= K.HUFF_FLAG
            if not self._rules[K.R_HUFF_ALL]:
                if move.huff is None:
                    return None
                code |= move.huff << K.HUFF_SHIFT
        elif move.huff is not None:
            return None
        return code

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
        """The :class:`Move` of a kernel move code in this position."""
        return self._decode(code)

    def encode_move(self, move: Move) -> int | None:
        """The kernel move code of ``move`` here (``None`` when it cannot be one)."""
        return self._encode(move)

    def is_legal(self, move: Move) -> bool:
        code = self._encode(move)
        return code is not None and code in self._codes()

    def push(self, move: Move) -> None:
        """Play ``move``.

        :raises IllegalMoveError: explaining why the move is not legal here.
        """
        code = self._encode(move)
        if code is None or code not in self._codes():
            raise IllegalMoveError(
                f"illegal move {move.uci()!r} in {self.text()!r}: {self._explain(move)}"
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

        :raises IndexError: when there is none.
        """
        if not self.move_stack:
            raise IndexError("pop from a board with an empty move stack")
        self._ply -= 1
        self._codes_cache = None
        self._ended = None
        return self.move_stack.pop()

    def peek(self) -> Move:
        if not self.move_stack:
            raise IndexError("peek at a board with an empty move stack")
        return self.move_stack[-1]

    def parse_uci(self, text: str) -> Move:
        """The legal move written ``text`` (UCI-style or readable).

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: explaining why it is not legal here.
        """
        move = Move.from_uci(text)
        if not self.is_legal(move):
            raise IllegalMoveError(
                f"illegal move {text!r} in {self.text()!r}: {self._explain(move)}"
            )
        return move

    parse_move = parse_uci

    def parse_san(self, text: str) -> Move:
        """The legal move written ``text`` as PGN and people write it (``c2-c3``, ``b3xd3xd5``,
        ``hc3,b2-c3``, UCI strings too); trailing ``!``, ``?``, ``+`` and ``#`` are ignored.

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: explaining why it is not legal here.
        """
        return self.parse_uci(text.rstrip("!?+#"))

    def push_san(self, text: str) -> Move:
        """Parse a move as :meth:`parse_san` does, play it and return it."""
        move = self.parse_san(text)
        self.push(move)
        return move

    def push_uci(self, text: str) -> Move:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def san(self, move: Move) -> str:
        """The readable form, ``c2-c3`` or ``b3xd3xd5``.

        :raises InvalidMoveError: when ``move`` is not an Alquerque :class:`Move`.
        """
        return require_move(move).readable()

    def _explain(self, move: Move) -> str:
        """Why ``move`` is not legal: the first rule it breaks."""
        state = self._state
        us = int(state[K.S_STM])
        own = int(state[K.S_WHITE + us])
        opp = int(state[K.S_WHITE + 1 - us])
        if not (own >> move.origin) & 1:
            return f"{point_name(move.origin)} holds no piece of the side to move"
        if state[K.S_HUFF] and not self._rules[K.R_HUFF_ALL] and move.huff is None:
            liable = ", ".join(point_name(p) for p in self.huff_liable())
            return f"first huff one of the liable pieces ({liable}), e.g. 'h{liable[:2]},...'"
        pos = move.origin
        if not move.is_capture:
            if STEP[pos, :].tolist().count(move.path[0]) == 0:
                return (
                    f"{point_name(pos)} and {point_name(move.path[0])} are not neighbours on a line"
                    " (a step moves one point, a jump two)"
                )
            if any(m.is_capture for m in self.legal_moves):
                return "a capture is possible, and capturing is compulsory"
            return "that step breaks a movement rule (direction, far row or no return)"
        taken = 0
        for landing in move.path:
            dirs = [d for d in range(8) if JUMP_TO[pos, d] == landing]
            if not dirs:
                return f"no line leads from {point_name(pos)} to {point_name(landing)} by one jump"
            over = int(JUMP_OVER[pos, dirs[0]])
            if not ((own | opp) >> over) & 1 or ((opp >> over) & 1 and (taken >> over) & 1):
                return (
                    f"the move skips the empty point {point_name(over)}: a piece steps one point"
                    " or jumps over an enemy piece"
                )
            if (own >> over) & 1 and over != move.origin:
                return f"the jump {point_name(pos)}x{point_name(landing)} goes over its own piece"
            if not (opp >> over) & 1:  # a taken enemy was answered above
                return f"the jump {point_name(pos)}x{point_name(landing)} goes over no enemy piece"
            taken |= 1 << over
            pos = landing
        longer = [
            m
            for m in self.legal_moves
            if m.origin == move.origin and m.path[: len(move.path)] == move.path
        ]
        if longer:
            return f"the chain must go on: the piece can still jump from {point_name(pos)}"
        return "that capture breaks a movement rule (direction, no return or landing square)"

    # --- end of game ----------------------------------------------------------------------------

    def _identity_rows(self) -> np.ndarray:
        """What makes two positions the same: pieces, side, huffs, and the part of the pieces'
        histories that the no-return rule can use (none without it)."""
        rows = self._stack[: self._ply + 1]
        columns = [K.S_WHITE, K.S_BLACK, K.S_KINGS, K.S_STM, K.S_HUFF]
        mode = int(self._rules[K.R_NO_RETURN])
        history = rows[:, K.S_HISTORY : K.STATE_NB]
        if mode == K.NO_RETURN_ANY:
            history = history & K.HISTORY_MASK
        elif mode == K.NO_RETURN_START:
            history = history >> K.START_SHIFT
        else:
            history = history[:, :0]
        return np.concatenate([rows[:, columns], history], axis=1)

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the position (pieces, side, huffs, no-return histories) occurred ``count``
        times since the last capture."""
        rows = self._identity_rows()
        window = min(int(self._state[K.S_NO_CAPTURE]), self._ply)
        recent = rows[self._ply - window :]
        return int((recent == rows[-1]).all(axis=1).sum()) >= count

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or ``None`` (all of Alquerque's ends are automatic)."""
        if self._ended is not None:
            return self._ended
        side = self.turn
        for color in (side, not side):  # decided before immobilisation (Decision 10)
            if self.pieces(color) == 0:
                return Outcome(Termination.CAPTURED_ALL, not color)
        if not self._codes():
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

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome() is not None

    def can_claim_draw(self) -> bool:
        """Always ``False``: Alquerque has no draw to claim, all of its ends are automatic."""
        return False

    def result(self, *, claim_draw: bool = False) -> str:
        found = self.outcome()
        return "*" if found is None else found.result()

    def resign(self, color: Color) -> Outcome:
        self._ended = Outcome(Termination.RESIGNATION, not color)
        return self._ended

    def agree_draw(self) -> Outcome:
        self._ended = Outcome(Termination.AGREEMENT, None)
        return self._ended

    def score(self) -> tuple[int, int]:
        """Bell's penalty points (White's, Black's) for a finished game (RULES.md 6.5).

        The winner scores 0 and the loser is charged: 2 + W after capturing everything (W the
        winner's pieces left), 2 + |W - L| after an immobilisation (``bell_scoring="seed"``, as
        the seed writes it) or 2 + max(W - L, 0) (``"winner_ahead_only"``). Draws score (0, 0).
        Points add up over a series.

        :raises GameNotOverError: for a game still going on or one without Bell's rules.
        """
        if not self.variant.bell:
            raise GameNotOverError("scoring is one of Bell's rules: use 'alquerque-bell'")
        found = self.outcome()
        if found is None:
            raise GameNotOverError(f"the game is not over: {self.text()!r}")
        if found.winner is None:
            return (0, 0)
        winners = self.pieces(found.winner)
        losers = self.pieces(not found.winner)
        if found.termination is Termination.CAPTURED_ALL:
            penalty = 2 + winners
        elif self.variant.bell_scoring is BellScoring.WINNER_AHEAD_ONLY:
            penalty = 2 + max(winners - losers, 0)
        else:
            penalty = 2 + abs(winners - losers)
        return (0, -penalty) if found.winner else (-penalty, 0)

    # --- perft, copies, printing ------------------------------------------------------------------

    def perft(self, depth: int, *, bulk: bool = True) -> int:
        """Leaf nodes of the legal move tree ``depth`` plies deep."""
        if self._ply + depth + _MARGIN >= len(self._stack):
            grown = np.zeros((self._ply + depth + 2 * _MARGIN, K.STATE_NB), dtype=np.int64)
            grown[: len(self._stack)] = self._stack
            self._stack = grown
        return int(K.perft(self._stack, self._ply, self._rules, depth, bulk))

    def perft_divide(self, depth: int, *, bulk: bool = True) -> dict[Move, int]:
        """Perft split by the first move."""
        result = {}
        for move in list(self.legal_moves):
            self.push(move)
            result[move] = self.perft(depth - 1, bulk=bulk)
            self.pop()
        return result

    def copy(self) -> Board:
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

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.variant == other.variant and self.text() == other.text()

    def __hash__(self) -> int:
        return hash(self.text())

    def __str__(self) -> str:
        lines = []
        for y in range(4, -1, -1):
            cells = []
            for x in range(5):
                piece = self.piece_at(y * 5 + x)
                if piece is None:
                    cells.append(".")
                else:
                    letter = "k" if piece.piece_type == KING else "p"
                    cells.append(letter.upper() if piece.color else letter)
            lines.append(f"{y + 1} " + " ".join(cells))
        lines.append("  a b c d e")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.text()!r}, variant={self.variant.name!r})"
