"""The compiled Alquerque move generator: 25-bit masks, copy-make on a stack of states, perft.

A state is a row of ``STATE_NB`` int64s (see the ``S_*`` offsets); ``make`` writes the state after
a move into the next row, so undoing a move is stepping back one row. The rules are a small
int64 array (the ``R_*`` offsets) compiled from an :class:`AlquerqueVariant`.

Moves are int64: the origin, the number of jumps (0 for a step), one 3-bit direction per step or
jump, and the huff taken first (a flag and a point).
"""

from __future__ import annotations

import numba
import numpy as np

from .geometry import (
    DIRECTION_TO,
    FAR_ROW,
    FORWARD_OR_SIDEWAYS,
    FORWARD_STEPS,
    JUMP_OVER,
    JUMP_TO,
    NEIGHBOURS,
    STEP,
)

jit = numba.njit(cache=True)
jit_nogil = numba.njit(cache=True, nogil=True)

# --- state layout -----------------------------------------------------------------------------
S_WHITE = 0  # mask of White's pieces (men and kings)
S_BLACK = 1
S_KINGS = 2  # mask of the pieces (either colour) that are kings
S_STM = 3  # 0 White, 1 Black
S_NO_CAPTURE = 4  # plies since the last capture
S_PLY = 5  # plies since the start
S_HUFF = 6  # pieces of the side not to move that must be removed before this turn's move
S_HISTORY = 7  # 25 entries: for the piece on each point, points it stood on | start << 25
STATE_NB = S_HISTORY + 25
HISTORY_MASK = (1 << 25) - 1
START_SHIFT = 25

# --- rules layout -----------------------------------------------------------------------------
R_BELL = 0  # men step forward or sideways only and may leave the far row only by capturing
R_FORCED = 1  # a capture, when possible, is compulsory
R_HUFF_ALL = 2  # huffing removes every liable piece (else the opponent picks one)
R_CHAIN_MANDATORY = 3
R_CAPTURE_FORWARD = 4  # men also capture only forward or sideways
R_NO_RETURN = 5  # 0 off, 1 start point, 2 any previous point
R_NO_RETURN_ALL = 6  # no-return also binds the landing points of captures
R_KINGS = 7
RULES_NB = 8

NO_RETURN_OFF = 0
NO_RETURN_START = 1
NO_RETURN_ANY = 2

# --- move layout ------------------------------------------------------------------------------
M_JUMPS_SHIFT = 5
M_DIRS_SHIFT = 9
HUFF_FLAG = 1 << 52
HUFF_SHIFT = 53
MAX_CHAIN = 13
MAX_MOVES = 4096


@jit
def move_origin(move: int) -> int:
    return move & 31


@jit
def move_jumps(move: int) -> int:
    return (move >> M_JUMPS_SHIFT) & 15


@jit
def move_direction(move: int, index: int) -> int:
    return (move >> (M_DIRS_SHIFT + 3 * index)) & 7


@jit
def _lowest(mask: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    p = 0
    while (mask >> p) & 1 == 0:
        p += 1
    return p


@jit
def _jump_allowed(
    st: np.ndarray, rules: np.ndarray, origin: int, to: int, d: int, king: bool, visited: int
) -> bool:
    if king or rules[R_BELL] == 0:
        return True
    if rules[R_CAPTURE_FORWARD] and FORWARD_OR_SIDEWAYS[st[S_STM], d] == 0:
        return False
    if rules[R_NO_RETURN_ALL]:
        mode = rules[R_NO_RETURN]
        if mode == NO_RETURN_ANY and (visited >> to) & 1:
            return False
        if mode == NO_RETURN_START and to == (st[S_HISTORY + origin] >> START_SHIFT):
            return False
    return True


WORK_NB = 6 * MAX_CHAIN  # scratch space for the chain walk


def new_work() -> np.ndarray:
    """Scratch space for :func:`generate`."""
    return np.zeros(WORK_NB, dtype=np.int64)


@jit
def _captures_of(
    st: np.ndarray,
    rules: np.ndarray,
    p: int,
    out: np.ndarray,
    n: int,
    count_only: bool,
    all_prefixes: bool,
    work: np.ndarray,
) -> int:
    """Every capture chain of the piece on ``p``, by an explicit depth-first walk."""
    us = st[S_STM]
    own = st[S_WHITE + us]
    opp = st[S_WHITE + 1 - us]
    king = (st[S_KINGS] >> p) & 1 == 1
    promote_row = FAR_ROW[us] if rules[R_KINGS] and not king else 0
    others = own ^ (1 << p)  # the mover's own point is empty while it jumps
    pos = work[0:MAX_CHAIN]
    taken = work[MAX_CHAIN : 2 * MAX_CHAIN]
    visited = work[2 * MAX_CHAIN : 3 * MAX_CHAIN]
    code = work[3 * MAX_CHAIN : 4 * MAX_CHAIN]
    next_dir = work[4 * MAX_CHAIN : 5 * MAX_CHAIN]
    found = work[5 * MAX_CHAIN : 6 * MAX_CHAIN]
    pos[0] = p
    taken[0] = 0
    visited[0] = st[S_HISTORY + p] & HISTORY_MASK
    code[0] = p
    next_dir[0] = 0
    found[0] = 0
    depth = 0
    while depth >= 0:
        ended = depth > 0 and (promote_row >> pos[depth]) & 1 == 1  # a new king stops
        if next_dir[depth] == 8 or ended:
            if depth > 0 and (all_prefixes or found[depth] == 0):
                if not count_only:
                    out[n] = code[depth] | (depth << M_JUMPS_SHIFT)
                n += 1
            depth -= 1
            continue
        d = next_dir[depth]
        next_dir[depth] += 1
        here = pos[depth]
        over = JUMP_OVER[here, d]
        if over < 0:
            continue
        to = JUMP_TO[here, d]
        if (opp >> over) & 1 == 0 or (taken[depth] >> over) & 1:
            continue
        if ((others | (opp & ~taken[depth])) >> to) & 1:
            continue
        if not _jump_allowed(st, rules, p, to, d, king, visited[depth]):
            continue
        found[depth] = 1
        child = depth + 1
        pos[child] = to
        taken[child] = taken[depth] | (1 << over)
        visited[child] = visited[depth] | (1 << to)
        code[child] = code[depth] | (d << (M_DIRS_SHIFT + 3 * depth))
        next_dir[child] = 0
        found[child] = 0
        depth = child
    return n


@jit
def can_capture(st: np.ndarray, rules: np.ndarray, p: int) -> bool:
    """Whether the piece on ``p`` (of the side to move) has a first jump."""
    us = st[S_STM]
    own = st[S_WHITE + us]
    opp = st[S_WHITE + 1 - us]
    king = (st[S_KINGS] >> p) & 1 == 1
    occupied = own | opp
    visited = st[S_HISTORY + p] & HISTORY_MASK
    for d in range(8):
        over = JUMP_OVER[p, d]
        if over < 0 or (opp >> over) & 1 == 0:
            continue
        to = JUMP_TO[p, d]
        if (occupied >> to) & 1 == 0 and _jump_allowed(st, rules, p, to, d, king, visited):
            return True
    return False


@jit
def _generate_plain(
    st: np.ndarray,
    rules: np.ndarray,
    out: np.ndarray,
    n: int,
    count_only: bool,
    extra: int,
    work: np.ndarray,
) -> int:
    """Moves of the side to move in ``st`` (no huff pending), each or'ed with ``extra``."""
    us = st[S_STM]
    own = st[S_WHITE + us]
    occupied = own | st[S_WHITE + 1 - us]
    forced = rules[R_FORCED] != 0
    all_prefixes = rules[R_CHAIN_MANDATORY] == 0 or not forced
    start = n
    opp = st[S_WHITE + 1 - us]
    for p in range(25):
        if (own >> p) & 1 and NEIGHBOURS[p] & opp:  # a jump needs an enemy next to the piece
            n = _captures_of(st, rules, p, out, n, count_only, all_prefixes, work)
    if not count_only:
        for i in range(start, n):
            out[i] |= extra
    if forced and n > start:
        return n
    far_row = FAR_ROW[us]
    bell = rules[R_BELL] != 0
    no_return = rules[R_NO_RETURN]
    for p in range(25):
        if (own >> p) & 1 == 0:
            continue
        king = (st[S_KINGS] >> p) & 1 == 1
        targets = NEIGHBOURS[p] & ~occupied
        if bell and not king:
            if (far_row >> p) & 1:
                continue  # Bell: a man on the far row may move only by capturing
            targets &= FORWARD_STEPS[us, p]
            history = st[S_HISTORY + p]
            if no_return == NO_RETURN_ANY:
                targets &= ~history
            elif no_return == NO_RETURN_START:
                targets &= ~(1 << (history >> START_SHIFT))
        while targets:
            to = _lowest(targets)
            targets &= targets - 1
            if not count_only:
                out[n] = p | (DIRECTION_TO[p, to] << M_DIRS_SHIFT) | extra
            n += 1
    return n


@jit
def _remove(st: np.ndarray, color: int, p: int) -> None:
    bit = 1 << p
    st[S_WHITE + color] &= ~bit
    st[S_KINGS] &= ~bit
    st[S_HISTORY + p] = 0


@jit
def generate(
    stack: np.ndarray,
    ply: int,
    rules: np.ndarray,
    out: np.ndarray,
    count_only: bool,
    work: np.ndarray,
) -> int:
    """Write the legal moves of ``stack[ply]`` into ``out`` (or count them); returns how many.

    ``stack[ply + 1]`` is used as scratch space for positions after a huff.
    """
    st = stack[ply]
    liable = st[S_HUFF]
    if liable == 0:
        return _generate_plain(st, rules, out, 0, count_only, 0, work)
    them = 1 - st[S_STM]
    scratch = stack[ply + 1]
    if rules[R_HUFF_ALL]:
        scratch[:] = st
        for p in range(25):
            if (liable >> p) & 1:
                _remove(scratch, them, p)
        scratch[S_HUFF] = 0
        return _generate_plain(scratch, rules, out, 0, count_only, HUFF_FLAG, work)
    n = 0
    for p in range(25):
        if (liable >> p) & 1:
            scratch[:] = st
            _remove(scratch, them, p)
            scratch[S_HUFF] = 0
            extra = HUFF_FLAG | (p << HUFF_SHIFT)
            n = _generate_plain(scratch, rules, out, n, count_only, extra, work)
    return n


@jit
def make(stack: np.ndarray, ply: int, rules: np.ndarray, move: int) -> None:
    """Write the position after ``move`` (legal in ``stack[ply]``) into ``stack[ply + 1]``."""
    st = stack[ply + 1]
    st[:] = stack[ply]
    us = st[S_STM]
    them = 1 - us
    if move & HUFF_FLAG:
        liable = st[S_HUFF]
        if rules[R_HUFF_ALL]:
            for p in range(25):
                if (liable >> p) & 1:
                    _remove(st, them, p)
        else:
            _remove(st, them, (move >> HUFF_SHIFT) & 31)
    st[S_HUFF] = 0
    huff_mode = rules[R_FORCED] == 0
    origin = move_origin(move)
    jumps = move_jumps(move)
    liable = 0
    if huff_mode and jumps == 0:
        for p in range(25):
            if (st[S_WHITE + us] >> p) & 1 and can_capture(st, rules, p):
                liable |= 1 << p
    history = st[S_HISTORY + origin]
    king = (st[S_KINGS] >> origin) & 1
    pos = origin
    if jumps == 0:
        pos = STEP[origin, move_direction(move, 0)]
        history |= 1 << pos
        st[S_NO_CAPTURE] += 1
    else:
        for i in range(jumps):
            d = move_direction(move, i)
            _remove(st, them, JUMP_OVER[pos, d])
            pos = JUMP_TO[pos, d]
            history |= 1 << pos
        st[S_NO_CAPTURE] = 0
    _remove(st, us, origin)
    st[S_WHITE + us] |= 1 << pos
    st[S_HISTORY + pos] = history
    promoted = rules[R_KINGS] != 0 and king == 0 and (FAR_ROW[us] >> pos) & 1 == 1
    if king or promoted:
        st[S_KINGS] |= 1 << pos
    if huff_mode:
        if jumps == 0:
            if (liable >> origin) & 1:
                liable ^= (1 << origin) | (1 << pos)
        elif rules[R_CHAIN_MANDATORY] and not promoted and can_capture(st, rules, pos):
            liable = 1 << pos  # stopped a chain that had to go on
        else:
            liable = 0
        st[S_HUFF] = liable
    st[S_STM] = them
    st[S_PLY] += 1


@jit_nogil
def perft(stack: np.ndarray, ply: int, rules: np.ndarray, depth: int, bulk: bool) -> int:
    """Leaf nodes ``depth`` plies below ``stack[ply]`` (the stack needs ``depth + 1`` free rows)."""
    if depth <= 0:
        return 1
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    work = np.zeros(WORK_NB, dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    next_index = np.zeros(depth, dtype=np.int64)
    if bulk and depth == 1:
        return generate(stack, ply, rules, moves[0], True, work)
    counts[0] = generate(stack, ply, rules, moves[0], False, work)
    nodes = 0
    level = 0
    while True:
        if next_index[level] == counts[level]:
            if level == 0:
                return nodes
            level -= 1
            continue
        move = moves[level, next_index[level]]
        next_index[level] += 1
        make(stack, ply + level, rules, move)
        left = depth - level - 1
        if left == 0:
            nodes += 1
        elif left == 1 and bulk:
            nodes += generate(stack, ply + level + 1, rules, moves[level + 1], True, work)
        else:
            level += 1
            counts[level] = generate(stack, ply + level, rules, moves[level], False, work)
            next_index[level] = 0
