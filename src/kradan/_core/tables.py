"""Attack, geometry and Zobrist tables, built once with NumPy when the kernel is imported.

Numba freezes these module-level arrays into the compiled code as constants. Rook attacks use
"kindergarten" lookups: the six inner squares of a rank or file select one of 64 precomputed
attack sets, so no large magic table is needed.
"""

from __future__ import annotations

import numpy as np

from .layout import BLACK, WHITE

_U64 = np.uint64


def _bb(squares: list[int]) -> int:
    value = 0
    for square in squares:
        value |= 1 << square
    return value


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < 8 and 0 <= rank < 8


def _steps(square: int, deltas: list[tuple[int, int]]) -> int:
    file, rank = square & 7, square >> 3
    targets = [(rank + dr) * 8 + file + df for df, dr in deltas if _on_board(file + df, rank + dr)]
    return _bb(targets)


KNIGHT_DELTAS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KING_DELTAS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]
DIAGONAL_DELTAS = [(1, 1), (-1, 1), (-1, -1), (1, -1)]
ORTHOGONAL_DELTAS = [(1, 0), (0, 1), (-1, 0), (0, -1)]


def _ray_attacks(square: int, occupied: int, deltas: list[tuple[int, int]]) -> int:
    """Slider attacks by walking rays; the slow, obvious definition the tables are built from."""
    result = 0
    for df, dr in deltas:
        file, rank = (square & 7) + df, (square >> 3) + dr
        while _on_board(file, rank):
            target = rank * 8 + file
            result |= 1 << target
            if occupied >> target & 1:
                break
            file, rank = file + df, rank + dr
    return result


def _table(values: list[int]) -> np.ndarray:
    return np.array(values, dtype=_U64)


def _forward(color: int) -> int:
    return 1 if color == WHITE else -1


KNIGHT_ATTACKS = _table([_steps(s, KNIGHT_DELTAS) for s in range(64)])
KING_ATTACKS = _table([_steps(s, KING_DELTAS) for s in range(64)])
FERZ_ATTACKS = _table([_steps(s, DIAGONAL_DELTAS) for s in range(64)])
WAZIR_ATTACKS = _table([_steps(s, ORTHOGONAL_DELTAS) for s in range(64)])

# [colour, square]
PAWN_ATTACKS = np.zeros((2, 64), dtype=_U64)
PAWN_PUSHES = np.zeros((2, 64), dtype=_U64)
KHON_ATTACKS = np.zeros((2, 64), dtype=_U64)
# the two knight squares on the rank ahead (Ouk king leap) and the square two ahead (Ouk met leap)
KING_LEAPS_FORWARD = np.zeros((2, 64), dtype=_U64)
TWO_AHEAD = np.zeros((2, 64), dtype=_U64)
for _color in (WHITE, BLACK):
    _f = _forward(_color)
    for _s in range(64):
        PAWN_ATTACKS[_color, _s] = _steps(_s, [(-1, _f), (1, _f)])
        PAWN_PUSHES[_color, _s] = _steps(_s, [(0, _f)])
        KHON_ATTACKS[_color, _s] = _steps(_s, [*DIAGONAL_DELTAS, (0, _f)])
        KING_LEAPS_FORWARD[_color, _s] = _steps(_s, [(-2, _f), (2, _f)])
        TWO_AHEAD[_color, _s] = _steps(_s, [(0, 2 * _f)])

# Kindergarten rook lookups. The file index multiplies the a-file-aligned occupancy by a constant
# whose partial products are distinct powers of two, so bits of ranks 2..7 land on bits 58..63.
A_FILE = _U64(0x0101010101010101)
FILE_MAGIC = _U64(sum(1 << (57 - 7 * r) for r in range(1, 7)))
RANK_LOOKUP = np.zeros((64, 64), dtype=_U64)
FILE_LOOKUP = np.zeros((64, 64), dtype=_U64)
for _s in range(64):
    _file, _rank = _s & 7, _s >> 3
    for _inner in range(64):
        _rank_occ = sum(1 << (_rank * 8 + 1 + j) for j in range(6) if _inner >> j & 1)
        _file_occ = sum(1 << ((1 + j) * 8 + _file) for j in range(6) if _inner >> j & 1)
        RANK_LOOKUP[_s, _inner] = _ray_attacks(_s, _rank_occ, [(1, 0), (-1, 0)])
        FILE_LOOKUP[_s, _inner] = _ray_attacks(_s, _file_occ, [(0, 1), (0, -1)])

ROOK_EMPTY_ATTACKS = _table([_ray_attacks(s, 0, ORTHOGONAL_DELTAS) for s in range(64)])

# BETWEEN[a, b]: squares strictly between two squares on one rank or file (else 0).
# LINE[a, b]: the whole rank or file through both squares (else 0).
BETWEEN = np.zeros((64, 64), dtype=_U64)
LINE = np.zeros((64, 64), dtype=_U64)
for _a in range(64):
    for _b in range(64):
        if _a == _b:
            continue
        if _a >> 3 == _b >> 3:
            LINE[_a, _b] = _U64(0xFF) << _U64(8 * (_a >> 3))
        elif _a & 7 == _b & 7:
            LINE[_a, _b] = A_FILE << _U64(_a & 7)
        else:
            continue
        _from_a = _ray_attacks(_a, 1 << _b, ORTHOGONAL_DELTAS)
        _from_b = _ray_attacks(_b, 1 << _a, ORTHOGONAL_DELTAS)
        BETWEEN[_a, _b] = _from_a & _from_b

RANK_MASKS = _table([0xFF << (8 * r) for r in range(8)])
# the two long diagonals a1-h8 and a8-h1 (Sittuyin's sit-ke lines)
LONG_DIAGONALS = _U64(_bb([9 * i for i in range(8)] + [7 * (i + 1) for i in range(8)]))
FILE_MASKS = _table([0x0101010101010101 << f for f in range(8)])

# Zobrist keys: fixed seed, so keys are the same in every process and release.
_rng = np.random.default_rng(0x6B72_6164_616E)  # "kradan"
ZOBRIST_PIECE = _rng.integers(0, 2**64, size=(16, 64), dtype=_U64, endpoint=False)
ZOBRIST_PIECE[0, :] = 0  # the empty code never contributes
ZOBRIST_SIDE = _rng.integers(0, 2**64, size=1, dtype=_U64, endpoint=False)  # one entry
ZOBRIST_GATE = _rng.integers(0, 2**64, size=64, dtype=_U64, endpoint=False)
ZOBRIST_HAND = _rng.integers(0, 2**64, size=(2, 6, 17), dtype=_U64, endpoint=False)
ZOBRIST_CHECKS = _rng.integers(0, 2**64, size=(2, 4), dtype=_U64, endpoint=False)
