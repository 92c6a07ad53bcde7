"""The :class:`Board`: a position of a chess-family game plus the moves that led to it.

>>> board = Board()
>>> board.legal_moves.count()
23
>>> board.push_san("e4")
Move.from_uci('e3e4')
>>> board.fen()
'rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1'
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from . import _core, counting, game_end, material, sittuyin_setup
from ._core import layout as L
from .counting import CountAction, CountingState
from .errors import IllegalMoveError, InvalidSetupError
from .move import Move, require_move
from .movecodec import codec_for
from .notation import fen as fen_notation
from .notation import san as san_notation
from .outcome import Outcome, Termination
from .pieces import BLACK, SQUARE_NAMES, WHITE, Color, Piece, PieceType, Square
from .variants import SetupRule, SittuyinSetup, StalemateRule, Variant, find_variant

_GROWTH_MARGIN = 8  # undo records kept free beyond the game's history


class LegalMoveGenerator:
    """The legal moves of a board: iterate, count, test ``move in board.legal_moves``."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._legal_move_list())

    def __len__(self) -> int:
        return len(self._board._legal_codes())

    def count(self) -> int:
        """Number of legal moves."""
        return len(self._board._legal_codes())

    def __bool__(self) -> bool:
        return bool(self._board._legal_codes())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board.is_legal(move)

    def __repr__(self) -> str:
        board = self._board
        sans = ", ".join(board.san(move) for move in self)
        return f"<LegalMoveGenerator at {id(self):#x} ({sans})>"


class Board:
    """A position of ``variant`` with its move history.

    :param fen: the position; the variant's start position when ``None``.
    :param variant: a :class:`~kradan.variants.Variant` or a name such as ``"makruk"``.
    :param options: rule options of RULES.md section 8, e.g. ``sut_met=True``.
    :raises InvalidFenError: for a malformed or impossible FEN.
    :raises VariantError: for an unknown variant name or option.
    """

    def __init__(
        self, fen: str | None = None, *, variant: str | Variant = "makruk", **options: Any
    ) -> None:
        self.variant: Variant = find_variant(variant, **options)
        self._codec = codec_for(self.variant)
        self._buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
        self.move_stack: list[Move | CountAction] = []
        self._legal: list[int] | None = None
        self._legal_moves: list[Move] | None = None
        # per entry of move_stack: the legal-move caches before it, and for a count action the
        # counting fields it replaced
        self._saved: list[tuple[list[int] | None, list[Move] | None, tuple[int, int] | None]] = []
        self._ended: Outcome | None = None
        self._screened: dict[Color, list[Move]] = {}
        self.set_fen(self.variant.starting_fen if fen is None else fen)

    # --- position set-up and FEN -------------------------------------------------------------

    def set_fen(self, fen: str) -> None:
        """Replace the position (and clear the move history) with ``fen``.

        :raises InvalidFenError: for a malformed or impossible FEN; the board is left unchanged.
        """
        self._bbs, self._info = fen_notation.parse_fen(fen, self.variant)
        self.move_stack = []
        self._saved = []
        self._screened = {}
        self._ended = None
        self._forget_legal()

    def fen(self, *, show_promoted: bool | None = None) -> str:
        """The position as Fairy-Stockfish writes it; ``show_promoted`` writes promoted mets as
        ``M~`` (default: the variant's ``show_promoted``)."""
        if show_promoted is None:
            show_promoted = self.variant.show_promoted
        return fen_notation.write_fen(self._bbs, self._info, self.variant, show_promoted)

    def reset(self) -> None:
        """Back to the variant's start position, with no history."""
        self.set_fen(self.variant.starting_fen)

    # --- state -------------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move: ``WHITE`` (``True``) or ``BLACK`` (``False``)."""
        return WHITE if self._info[L.I_STM] == L.WHITE else BLACK

    @property
    def fullmove_number(self) -> int:
        """The move number, starting at 1 and increased after each Black move."""
        black = int(self._info[L.I_STM]) == L.BLACK
        return 1 + (int(self._info[L.I_GAME_PLY]) - black) // 2

    @property
    def ply(self) -> int:
        """Half-moves since the start of the game (derived from the fullmove number)."""
        return int(self._info[L.I_GAME_PLY])

    @property
    def halfmove_clock(self) -> int:
        """Plies since the last capture or pawn move (0 while a count runs, as in FSF's FEN)."""
        return int(self._info[L.I_RULE50])

    def piece_at(self, square: Square) -> Piece | None:
        """The piece on ``square``, or ``None`` when it is empty."""
        code = int(self._info[L.I_BOARD + square])
        if code == 0:
            return None
        promoted = bool(int(self._bbs[L.BB_PROMOTED]) >> square & 1)
        return Piece(self.variant.piece_types[(code & 7) - 1], code >> 3 == L.WHITE, promoted)

    def piece_map(self) -> dict[Square, Piece]:
        """Every occupied square and its piece."""
        codes = self._info[L.I_BOARD : L.I_BOARD + 64]
        promoted = int(self._bbs[L.BB_PROMOTED])
        types = self.variant.piece_types
        return {
            square: Piece(types[(code & 7) - 1], code >> 3 == L.WHITE, bool(promoted >> square & 1))
            for square, code in enumerate(codes.tolist())
            if code
        }

    def has_piece(self, piece_type: PieceType, color: Color) -> bool:
        """Whether ``color`` has a ``piece_type`` on the board (one bitboard test)."""
        types = self.variant.piece_types
        if piece_type not in types:
            return False
        index = L.WHITE if color else L.BLACK
        kernel_type = types.index(piece_type)
        return bool(int(self._bbs[L.BB_TYPE + kernel_type] & self._bbs[L.BB_COLOR + index]))

    def king(self, color: Color) -> Square | None:
        """The square of ``color``'s king (``None`` while it is still in hand)."""
        index = L.WHITE if color else L.BLACK
        kings = int(self._bbs[L.BB_TYPE + L.KING] & self._bbs[L.BB_COLOR + index])
        return kings.bit_length() - 1 if kings else None

    # --- legal moves -------------------------------------------------------------------------

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        """The legal moves, generated lazily: ``count()``, ``in``, iteration yields ``Move``."""
        return LegalMoveGenerator(self)

    def _forget_legal(self) -> None:
        self._legal = None
        self._legal_moves = None

    def _legal_codes(self) -> list[int]:
        if self._legal is None:
            n = _core.legal_moves(self._bbs, self._info, self._buffer, False)
            self._legal = self._buffer[:n].tolist()
        return self._legal

    def _legal_move_list(self) -> list[Move]:
        if self._legal_moves is None:
            self._legal_moves = self._codec.decode_all(self._legal_codes())
        return self._legal_moves

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` is legal in this position."""
        code = self._codec.encode(move)
        return code is not None and code in self._legal_codes()

    def _code_of(self, move: Move) -> int:
        code = self._codec.encode(move)
        if code is None or code not in self._legal_codes():
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()!r}")
        return code

    # --- the kernel's view, for code that works on its arrays (the engine, fast PGN reading) ----

    def kernel_arrays(self, *, room: int = 0) -> tuple[np.ndarray, np.ndarray]:
        """Copies of the kernel's bitboard and info arrays for this position, its history
        included (repetition needs it), with undo records free for ``room`` more plies.

        Numba code (search, table generation) makes and unmakes moves on these copies; the
        board itself never changes through them.
        """
        bbs, info = self._bbs.copy(), self._info.copy()
        used = int(info[L.I_SP])
        if _core.capacity(info) - used < room:
            bbs, info = _core.grown(bbs, info, max(2 * _core.capacity(info), used + room))
        return bbs, info

    def legal_codes(self) -> list[int]:
        """The legal moves as the kernel's packed move codes (see :meth:`decode_move`)."""
        return list(self._legal_codes())

    def decode_move(self, code: int) -> Move:
        """The :class:`Move` of a kernel move code of this variant."""
        return self._codec.decode(code)

    def encode_move(self, move: Move) -> int | None:
        """The kernel move code of ``move`` (``None`` when the kernel cannot express it)."""
        return self._codec.encode(move)

    # --- making and taking back moves ----------------------------------------------------------

    def push(self, move: Move) -> None:
        """Play ``move``.

        :raises IllegalMoveError: when the move is not legal here; the board is unchanged.
        """
        code = self._code_of(move)
        if move.drop is not None and self.variant.sittuyin_setup is SittuyinSetup.SCREENED:
            raise IllegalMoveError(
                f"illegal move {move.uci()!r} in {self.fen()!r}: in a screened setup each side "
                "submits its whole arrangement with submit_setup()"
            )
        self._push_code(code, move)

    def _ensure_room(self, plies: int) -> None:
        """Make sure ``plies`` more undo records fit (the kernel does not check)."""
        used = int(self._info[L.I_SP])
        if _core.capacity(self._info) - used < plies:
            need = max(2 * _core.capacity(self._info), used + plies)
            self._bbs, self._info = _core.grown(self._bbs, self._info, need)

    def _push_code(self, code: int, move: Move) -> None:
        self._ensure_room(_GROWTH_MARGIN)
        _core.make_move(self._bbs, self._info, code)
        self.move_stack.append(move)
        self._saved.append((self._legal, self._legal_moves, None))
        self._legal = None
        self._legal_moves = None
        self._ended = None

    def _push_count_action(self, action: CountAction) -> None:
        fields = (int(self._info[L.I_COUNT_LIMIT]), int(self._info[L.I_COUNT_PLY]))
        self.move_stack.append(action)
        self._saved.append((self._legal, self._legal_moves, fields))
        self._ended = None

    def pop(self) -> Move | CountAction:
        """Take back the last move and return it.

        :raises IndexError: when there is no move to take back.
        """
        if not self.move_stack:
            raise IndexError("pop from a board with an empty move stack")
        self._legal, self._legal_moves, fields = self._saved.pop()
        self._ended = None
        if fields is None:
            _core.unmake_move(self._bbs, self._info)
        else:
            self._info[L.I_COUNT_LIMIT], self._info[L.I_COUNT_PLY] = fields
        return self.move_stack.pop()

    def peek(self) -> Move | CountAction:
        """The last move played.

        :raises IndexError: when no move has been played.
        """
        if not self.move_stack:
            raise IndexError("peek at a board with an empty move stack")
        return self.move_stack[-1]

    def parse_uci(self, uci: str) -> Move:
        """The legal move written ``uci``.

        :raises InvalidMoveError: for a malformed string;
        :raises IllegalMoveError: for a move that is not legal here.
        """
        move = Move.from_uci(uci)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {uci!r} in {self.fen()!r}")
        return move

    def push_uci(self, uci: str) -> Move:
        """Parse a UCI move string, play it and return the move."""
        move = self.parse_uci(uci)
        self.push(move)
        return move

    def hand(self, color: Color) -> dict[int, int]:
        """Pieces ``color`` holds in hand, by piece type (only Sittuyin's setup has any)."""
        base = L.I_HAND + (L.WHITE if color else L.BLACK) * L.PIECE_TYPE_NB
        counts = {}
        for index, piece_type in enumerate(self.variant.piece_types):
            if int(self._info[base + index]):
                counts[piece_type] = int(self._info[base + index])
        return counts

    @property
    def screened_setup(self) -> bool:
        """Whether the camps are handed in whole with :meth:`submit_setup`, each unseen by the
        other side until both are in (Sittuyin's screened setup), rather than dropped one by
        one."""
        return self.variant.sittuyin_setup is SittuyinSetup.SCREENED

    def submit_setup(self, color: Color, arrangement: Mapping[str, str] | str) -> bool:
        """Sittuyin's screened setup: ``color`` hands in its whole arrangement unseen.

        ``arrangement`` maps squares to letters (``{"e2": "K", ...}``) or names a preset of
        :data:`kradan.sittuyin_setup.PRESETS`. Nothing changes on the board until both sides
        have submitted; then both arrangements are played as alternating drops. Returns whether
        that has happened.

        :raises InvalidSetupError: for an arrangement that breaks a rule (the message names the
            square and the rule), a game without a setup phase, or a second submission.
        """
        if self.variant.setup is not SetupRule.DROPS:
            raise InvalidSetupError(f"{self.variant.name} has no setup phase")
        side = "White" if color else "Black"
        if color in self._screened:
            raise InvalidSetupError(f"{side} has already submitted its setup")
        hand = self.hand(color)
        if not hand:
            raise InvalidSetupError(f"{side} has no pieces left to set up")
        occupied = {SQUARE_NAMES[sq] for sq in self.piece_map()}
        self._screened[color] = sittuyin_setup.arrangement_drops(hand, occupied, color, arrangement)
        if len(self._screened) < 2:
            return False
        queues = {WHITE: list(self._screened[WHITE]), BLACK: list(self._screened[BLACK])}
        self._screened = {}
        while queues[WHITE] or queues[BLACK]:
            move = queues[self.turn].pop(0)
            self._push_code(self._code_of(move), move)
        return True

    def uci(self, move: Move) -> str:
        """The UCI string of ``move`` (Fairy-Stockfish's form)."""
        return move.uci()

    def san(self, move: Move, notation: str = "san") -> str:
        """``move`` in SAN (``'san'``), long algebraic (``'lan'``), Thai SAN (``'thai'``) or Thai
        long algebraic (``'thai_lan'``), as Fairy-Stockfish writes them.

        :raises IllegalMoveError: when the move is not legal here.
        """
        return san_notation.move_to_san(self, move, notation)

    def parse_san(self, san: str) -> Move:
        """The legal move that the SAN (or Thai SAN) text ``san`` describes.

        Accepts what people type: with or without ``x``, ``+``, ``#``, ``=`` and ``-``.

        :raises InvalidMoveError: for text that is not a move;
        :raises IllegalMoveError: when no legal move matches;
        :raises AmbiguousMoveError: when several legal moves match.
        """
        return san_notation.parse_san(self, san)

    def push_san(self, san: str) -> Move:
        """Parse a SAN move, play it and return the move."""
        move = self.parse_san(san)
        self.push(move)
        return move

    # --- checks and game state ------------------------------------------------------------------

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return bool(_core.side_in_check(self._bbs, self._info))

    def checkers(self) -> list[Square]:
        """Squares of the pieces giving check to the side to move."""
        bits = int(_core.checkers(self._bbs, self._info, True))
        return [sq for sq in range(64) if bits >> sq & 1]

    def is_checkmate(self) -> bool:
        """Whether the side to move is in check and has no legal move."""
        return self.is_check() and not self._legal_codes()

    def is_stalemate(self) -> bool:
        """Whether the side to move is not in check and has no legal move."""
        return not self.is_check() and not self._legal_codes()

    def gives_check(self, move: Move) -> bool:
        """Whether the legal ``move`` puts the opponent's king in check.

        :raises IllegalMoveError: when the move is not legal here.
        """
        code = self._code_of(move)
        _core.make_move(self._bbs, self._info, code)
        try:
            return bool(_core.side_in_check(self._bbs, self._info))
        finally:
            _core.unmake_move(self._bbs, self._info)

    def gives_checkmate(self, move: Move) -> bool:
        """Whether the legal ``move`` leaves the opponent without a legal move while in check
        (SAN's ``#``).

        :raises IllegalMoveError: when the move is not legal here.
        """
        code = self._code_of(move)
        _core.make_move(self._bbs, self._info, code)
        try:
            if not _core.side_in_check(self._bbs, self._info):
                return False
            return _core.legal_moves(self._bbs, self._info, self._buffer, True) == 0
        finally:
            _core.unmake_move(self._bbs, self._info)

    def is_capture(self, move: Move) -> bool:
        """Whether ``move`` takes a piece (drops, sutras and promotions in place never do).

        :raises InvalidMoveError: when ``move`` is not a :class:`Move`.
        """
        require_move(move)
        if move.drop is not None or move.from_square == move.to_square or move.pawn_step:
            return False
        code = int(self._info[L.I_BOARD + move.to_square])
        return code != 0 and (code >> 3) != int(self._info[L.I_STM])

    # --- end of game ---------------------------------------------------------------------------

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game has ended, or ``None`` while it goes on.

        Without ``claim_draw`` this reports what ends a game by itself: checkmate, stalemate,
        Kar Ouk's first check, the counting limit, a dead position, a Korean table draw with
        ``korean_material_draws="auto"``, a resignation or an agreed draw. With ``claim_draw``
        it adds what a player may claim: repetition (or a perpetual-check loss), the n-move
        rule, Sittuyin's promotion-only draw and a Korean table draw with ``"claim"``.
        """
        if self._ended is not None:
            return self._ended
        return game_end.outcome(self, claim_draw=claim_draw)

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        """Whether :meth:`outcome` reports an end."""
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        found = self.outcome(claim_draw=claim_draw)
        return "*" if found is None else found.result()

    def can_claim_draw(self) -> bool:
        """Whether the side to move may claim a draw (or a perpetual-check win) now."""
        return game_end.claimable_draw(self) is not None

    def is_repetition(self, count: int | None = None) -> bool:
        """Whether this position has occurred ``count`` times (``repetition_count`` by default)
        since the last capture, pawn move or drop; pieces, side to move, gates, hands and
        check counts must all match, as in Fairy-Stockfish."""
        return game_end.is_repetition(self, count)

    def can_claim_threefold_repetition(self) -> bool:
        """Whether the position has occurred three times."""
        return game_end.is_repetition(self, 3)

    def is_n_move_rule(self) -> bool:
        """Whether the variant's n-move rule (Sittuyin: 50 moves) has been reached."""
        return game_end.is_n_move_rule(self)

    def is_counting_limit(self) -> bool:
        """Whether the running count has reached the point where the game is drawn."""
        return counting.counting_limit_reached(self)

    def has_insufficient_material(self, color: Color) -> bool:
        """Whether ``color`` cannot possibly mate (Fairy-Stockfish's rule, RULES.md 2.7)."""
        return material.has_insufficient_material(self, color)

    def is_insufficient_material(self) -> bool:
        """Whether neither side can possibly mate."""
        return game_end.is_insufficient_material(self)

    def is_korean_material_draw(self) -> bool:
        """Whether the material matches a row of the Korean table (RULES.md 2.7)."""
        return material.korean_material_draw(self)

    def is_promotion_only_draw(self) -> bool:
        """Sittuyin: king and pawn, not in check, only promotions legal (RULES.md 5.5)."""
        return game_end.is_promotion_only_draw(self)

    def has_first_move_rights(self) -> bool:
        """Whether a piece still holds a first-move right (FEN field 3 is not ``-``): an Ouk
        king's or met's leap, or a Makruk sutra."""
        return bool(self._bbs[L.BB_GATES])

    def counting_fields(self) -> tuple[int, int]:
        """The running count's limit and count in plies (FEN fields 4 and 5; 0 and 0 when no
        count runs)."""
        return int(self._info[L.I_COUNT_LIMIT]), int(self._info[L.I_COUNT_PLY])

    def remaining_checks(self, color: Color) -> int:
        """Checks ``color`` still has to give to win (Kar Ouk; the FEN's check field)."""
        return int(self._info[L.I_CHECKS + (L.WHITE if color else L.BLACK)])

    def repetitions(self) -> list[int]:
        """Plies back (2 = the position before the last two moves) at which this position
        stood before, counting only since the last capture, pawn move or drop, as
        Fairy-Stockfish does; the newest first."""
        sp = int(self._info[L.I_SP])
        start = L.BB_STATE_NB + L.UB_KEY
        keys = self._bbs[start : start + sp * L.UNDO_BB_NB : L.UNDO_BB_NB]
        window = min(int(self._info[L.I_RULE50]), len(keys))
        key = self._bbs[L.BB_KEY]
        return [back for back in range(2, window + 1, 2) if keys[len(keys) - back] == key]

    def counting_state(self) -> CountingState | None:
        """The running count in words and numbers, or ``None``."""
        return counting.counting_state(self)

    def declare_count(self) -> CountAction:
        """Declare a count for the side to move (``counting="declared"``); ``pop()`` undoes it.

        :raises CountingError: when the counting rules do not allow it now.
        """
        action, pieces_honour = counting.declaration(self)
        self._push_count_action(action)
        if pieces_honour:
            _core.start_pieces_honour(self._bbs, self._info, L.WHITE if self.turn else L.BLACK)
        else:
            self._info[L.I_COUNT_LIMIT] = 2 * counting.BOARD_HONOUR_MOVES
            self._info[L.I_COUNT_PLY] = 0
        return action

    def stop_count(self) -> CountAction:
        """Stop the side to move's board's-honour count (``counting="declared"``).

        :raises CountingError: when no count of the side to move can be stopped.
        """
        action = counting.stop(self)
        self._push_count_action(action)
        self._info[L.I_COUNT_LIMIT] = 0
        self._info[L.I_COUNT_PLY] = 0
        return action

    def resign(self, color: Color) -> Outcome:
        """``color`` resigns; the game is over until a move is taken back."""
        self._ended = Outcome(Termination.RESIGNATION, not color)
        return self._ended

    def agree_draw(self) -> Outcome:
        """Both players agree to a draw."""
        self._ended = Outcome(Termination.AGREEMENT, None)
        return self._ended

    # --- perft ----------------------------------------------------------------------------------

    def perft(self, depth: int, *, bulk: bool = True, threads: int = 1) -> int:
        """Number of leaf nodes of the legal move tree ``depth`` plies deep.

        ``bulk`` counts the moves at the last ply instead of making them. With ``threads`` > 1
        the first moves are shared out among threads; the kernel releases the GIL, so they run
        in parallel.
        """
        self._ensure_room(depth + _GROWTH_MARGIN)
        if self.variant.stalemate is StalemateRule.ILLEGAL:
            return self._filtered_perft(depth)
        if threads <= 1 or depth < 3:
            return int(_core.perft(self._bbs, self._info, depth, bulk))
        codes = self._legal_codes()

        def subtree(code: int) -> int:
            bbs, info = self._bbs.copy(), self._info.copy()
            _core.make_move(bbs, info, code)
            return int(_core.perft(bbs, info, depth - 1, bulk))

        with ThreadPoolExecutor(max_workers=threads) as pool:
            return sum(pool.map(subtree, codes))

    def _filtered_perft(self, depth: int) -> int:
        """Perft under ``stalemate="illegal"``, walked from Python over the kernel's filtered
        move lists: the compiled walk stays free of the option, which would slow it for every
        game (the option is for play; its perft is for tests)."""
        buffer = np.empty(L.MAX_MOVES, dtype=np.int64)
        n = _core.legal_moves(self._bbs, self._info, buffer, False)
        if depth <= 1:
            return n if depth == 1 else 1
        total = 0
        for code in buffer[:n].tolist():
            _core.make_move(self._bbs, self._info, code)
            total += self._filtered_perft(depth - 1)
            _core.unmake_move(self._bbs, self._info)
        return total

    def perft_divide(self, depth: int, *, bulk: bool = True) -> dict[Move, int]:
        """Perft split by the first move: each legal move and the leaves below it."""
        result = {}
        self._ensure_room(depth + _GROWTH_MARGIN)
        for code, move in zip(self._legal_codes(), self._legal_move_list(), strict=True):
            _core.make_move(self._bbs, self._info, code)
            if self.variant.stalemate is StalemateRule.ILLEGAL:
                result[move] = self._filtered_perft(depth - 1)
            else:
                result[move] = int(_core.perft(self._bbs, self._info, depth - 1, bulk))
            _core.unmake_move(self._bbs, self._info)
        return result

    # --- copying, comparing, printing -----------------------------------------------------------

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy; with ``stack=False`` the copy has no move history."""
        board = Board.__new__(Board)
        board.variant = self.variant
        board._codec = self._codec
        board._buffer = np.empty(L.MAX_MOVES, dtype=np.int32)
        board._bbs = self._bbs.copy()
        board._info = self._info.copy()
        board._legal = self._legal
        board._legal_moves = self._legal_moves
        board._ended = self._ended
        board._screened = {color: list(drops) for color, drops in self._screened.items()}
        if stack:
            board.move_stack = list(self.move_stack)
            board._saved = list(self._saved)
        else:
            board.move_stack = []
            board._saved = []
            board._info[L.I_SP] = 0
        return board

    def __copy__(self) -> Board:
        return self.copy()

    def _identity(self) -> tuple[object, ...]:
        """What the FEN shows, nothing it hides; like Fairy-Stockfish's position identity, whether
        a met was once a pawn (``M~``) does not count."""
        info = self._info
        counting = int(info[L.I_COUNT_LIMIT]) != 0
        return (
            self.variant,
            info[L.I_BOARD : L.I_BOARD + 64].tobytes(),
            info[L.I_HAND : L.I_HAND + 12].tobytes(),
            int(info[L.I_STM]),
            int(info[L.I_COUNT_LIMIT]),
            int(info[L.I_COUNT_PLY]) if counting else int(info[L.I_RULE50]),
            int(info[L.I_GAME_PLY]),
            int(info[L.I_CHECKS]),
            int(info[L.I_CHECKS + 1]),
            int(self._bbs[L.BB_GATES]),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return int(self._bbs[L.BB_KEY])

    def zobrist_key(self) -> int:
        """The position's 64-bit Zobrist key: the pieces, the side to move, Sittuyin's hands and
        gates (not the counts or clocks). The random numbers behind it are fixed, so a key is
        the same in every process (opening books are filed by it)."""
        return int(self._bbs[L.BB_KEY])

    def __reduce__(self) -> tuple[object, ...]:
        entries = [m.uci() if isinstance(m, Move) else m for m in self.move_stack]
        return (_rebuild, (self.variant, self._root_fen(), entries, self._ended))

    def _root_fen(self) -> str:
        board = self.copy()
        while board.move_stack:
            board.pop()
        return board.fen(show_promoted=True)

    def __str__(self) -> str:
        rows = []
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = self.piece_at(rank * 8 + file)
                cells.append(piece.symbol() if piece else ".")
            rows.append(f"{rank + 1} " + " ".join(cells))
        rows.append("  a b c d e f g h")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Board({self.fen()!r}, variant={self.variant.name!r})"


def _rebuild(
    variant: Variant, fen: str, entries: list[str | CountAction], ended: Outcome | None
) -> Board:
    board = Board(fen, variant=variant)
    for entry in entries:
        if isinstance(entry, CountAction):
            (board.declare_count if entry.kind == "declare" else board.stop_count)()
        else:
            move = Move.from_uci(entry)
            board._push_code(board._code_of(move), move)  # screened setups replay their drops
    board._ended = ended
    return board


__all__ = ["Board", "LegalMoveGenerator"]
