"""Array layout of a kernel position, piece codes and the packed move format.

A position is two NumPy arrays so that every kernel call unboxes only two arguments:

* ``bbs`` (``uint64``): bitboards, variant masks and the undo stack for bitboard-valued state;
* ``info`` (``int64``): the mailbox, scalar state, variant parameters and the undo stack for
  integer state.

Everything here is a plain module-level integer so numba folds it into the compiled code.
"""

from __future__ import annotations

# --- colours and piece types (kernel numbering; the public API adds 1 to types) -----------------
WHITE = 0
BLACK = 1

PAWN = 0
KNIGHT = 1
KHON = 2  # Makruk khon / Sittuyin sin: one step diagonally or straight forward
MET = 3  # Makruk met / Sittuyin sit-ke: one step diagonally
ROOK = 4
KING = 5
PIECE_TYPE_NB = 6

NO_PIECE = 0


def piece_code(color: int, piece_type: int) -> int:
    """Mailbox code of a piece: 1..6 for White, 9..14 for Black, 0 for empty."""
    return (color << 3) | (piece_type + 1)


# --- bbs: uint64 array ---------------------------------------------------------------------------
BB_TYPE = 0  # 6 bitboards, one per piece type (both colours)
BB_COLOR = 6  # 2 bitboards, one per colour
BB_PROMOTED = 8  # pieces that are promoted pawns (written ``M~``)
BB_GATES = 9  # squares whose piece still holds a first-move right (Ouk gates, sutras)
BB_KEY = 10  # Zobrist key of the position
BB_PROMO_ZONE = 11  # 2 masks: squares where a pawn of each colour promotes
BB_DROP_ZONE = 13  # 2 masks: squares where each colour may drop (setup phase)
BB_ROOK_DROP_ZONE = 15  # 2 masks: squares where each colour may drop a rook
BB_STATE_NB = 17  # size of the position part of ``bbs``

# the bitboard part of one undo record
UB_KEY = 0
UB_GATES = 1
UB_PROMOTED = 2
UNDO_BB_NB = 3

# --- info: int64 array --------------------------------------------------------------------------
I_BOARD = 0  # 64 mailbox entries
I_STM = 64  # side to move
I_RULE50 = 65  # plies since the last capture or pawn move
I_COUNT_LIMIT = 66  # counting limit in plies (0: no count running)
I_COUNT_PLY = 67  # counting ply
I_GAME_PLY = 68  # plies since the start (fullmove = 1 + game_ply // 2)
I_CHECKS = 69  # 2 entries: checks a side still needs to give to win (Kar Ouk); 0 = unused
I_HAND = 71  # 12 entries: pieces in hand, [colour * 6 + type]
I_SP = 83  # undo stack pointer (number of moves made with this array)
V_NO_STALEMATING = 84  # variant parameter: 1 when a move that stalemates is illegal

# variant parameters, copied into every position when it is set up
V_PROMOTION = 90  # one of PROMOTION_*
V_COUNTING = 91  # one of COUNTING_*
V_GATES = 92  # one of GATES_*
V_CHECK_WINS = 93  # 1 when giving check ends the game (Kar Ouk)
V_DROPS = 94  # 1 when pieces in hand must be dropped before any move (Sittuyin setup)
V_PROMOTED_TYPE = 95  # the type a pawn promotes to
V_LEAP_FLAGS = 96  # LEAP_* bits: the Ouk options
V_SUTRAS = 97  # SUTRA_* bits: the Makruk sutras switched on
V_SUTRA_WINDOW = 98  # one of WINDOW_*
V_COUNT_FLAGS = 99  # COUNT_* bits: counting options
INFO_STATE_NB = 100  # size of the position part of ``info``

# the integer part of one undo record
UI_MOVE = 0
UI_CAPTURED = 1
UI_RULE50 = 2
UI_COUNT_LIMIT = 3
UI_COUNT_PLY = 4
UI_CHECKS_W = 5
UI_CHECKS_B = 6
UNDO_INFO_NB = 7

# variant parameter values
PROMOTION_NONE = 0
PROMOTION_ON_MOVE = 1  # Makruk: a pawn entering the zone becomes a met in the same move
PROMOTION_SITTUYIN = 2  # a separate move, in place or one diagonal step

COUNTING_NONE = 0
COUNTING_MAKRUK = 1
COUNTING_CAMBODIAN = 2
COUNTING_ASEAN = 3
COUNTING_SITTUYIN_SEED = 4
COUNTING_SITTUYIN_SEED_LITERAL = 5  # the seed's countdown, pawns or not

COUNT_KHON_FIRST = 1  # pieces' honour: rooks, then khons, then knights (not the smallest limit)
COUNT_DECLARED = 2  # players declare board's honour; only pieces' honour starts by itself
COUNT_PIECES_OPTIONAL = 4  # declared mode: pieces' honour starts only when declared
COUNT_SOONER = 8  # Ouk: pieces' honour arising under board's honour keeps the sooner end

GATES_NONE = 0
GATES_OUK = 1

LEAP_REQUIRE_NO_CAPTURE = 1  # leaps only while all 32 pieces are on the board
LEAP_KING_ANY_KNIGHT = 2  # the king may leap to any knight square, not just the rank ahead
LEAP_MET_CLEAR_PATH = 4  # the met's two-square move needs the square in between empty
LEAP_ROOK_AIM_CANCELS = 8  # an enemy rook reaching the king's rank or file cancels its leap

SUTRA_KHUN = 1
SUTRA_MET = 2
SUTRA_MA = 4

WINDOW_UNMOVED_AND_NO_CAPTURE = 0
WINDOW_UNMOVED = 1
WINDOW_FIRST_MOVE_ONLY = 2

FULL_ARMY = 32  # pieces on the board when nothing has been captured

# --- packed moves (int32 inside the kernel) -------------------------------------------------------
MOVE_NONE = 0
MOVE_TO_MASK = 0x3F
MOVE_FROM_SHIFT = 6
MOVE_KIND_SHIFT = 12
MOVE_KIND_MASK = 0x7
MOVE_PIECE_SHIFT = 15
MOVE_PIECE_MASK = 0x7

KIND_NORMAL = 0
KIND_PROMOTION = 1  # promotion as part of a pawn move (Makruk)
KIND_DROP = 2
KIND_PIECE_PROMOTION = 3  # Sittuyin: a move of its own, the pawn becomes a ferz
KIND_SUTRA = 4  # Makruk sutras: a pawn step, then a piece onto the square it left

MAX_MOVES = 256  # more than any legal position of these games can have
MAX_SEARCH_PLY = 256  # undo records reserved beyond a game's history for perft and search
