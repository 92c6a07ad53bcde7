"""The compiled part of the endgame tables: index, moves, un-moves and the retrograde solver.

Everything compiled lives in this one file on purpose: numba's on-disk cache notices a change
to a function's own file only, so helpers split over several files could run stale code.

A position of ``n`` pieces is three small arrays: ``sq`` (square 0..63, a1 = 0; -1 once
captured), ``typ`` (kradan's piece types) and ``col`` (0 White, 1 Black). Slot 0 is always
White's king, slot 1 Black's king, slots 2.. the other pieces in the table's order.

Values (one byte per position, side to move's view): ``d`` <= 253 is the distance to mate in
plies, even = the side to move loses (0: it is mated), odd = it wins; ``DRAW`` and ``ILLEGAL``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DRAW = 254
ILLEGAL = 255
UNKNOWN = 255  # while solving: undecided (illegal positions are marked in ``cnt``)
_NO_LOSS = 255  # ``cnt`` value: the side to move cannot lose here (a capture draws or wins)
_SKIP = 254  # ``cnt`` value: an illegal position

KNIGHT = 2
KHON = 3
MET = 4
ROOK = 5
KING = 6

_ROOK_DF = np.array([1, -1, 0, 0], dtype=np.int64)
_ROOK_DR = np.array([0, 0, 1, -1], dtype=np.int64)


@njit(cache=True)
def table_size(n: int) -> int:
    """Entries of an ``n``-piece table: side to move x White king on files a-d x the rest."""
    size = 64
    for _ in range(n - 1):
        size *= 64
    return size


@njit(cache=True)
def encode(stm: int, sq: np.ndarray, n: int) -> int:
    """The index of a position, mirrored left-right so that White's king is on files a-d."""
    flip = 7 if (sq[0] & 7) >= 4 else 0
    wk = sq[0] ^ flip
    index = stm * 32 + (wk >> 3) * 4 + (wk & 7)
    for i in range(1, n):
        index = index * 64 + (sq[i] ^ flip)
    return index


@njit(cache=True)
def decode(index: int, sq: np.ndarray, n: int) -> int:
    """Fill ``sq`` from ``index``; returns the side to move."""
    for i in range(n - 1, 0, -1):
        sq[i] = index & 63
        index >>= 6
    wk = index & 31
    sq[0] = (wk >> 2) * 8 + (wk & 3)
    return index >> 5


@njit(cache=True)
def _occupant(sq: np.ndarray, n: int, target: int) -> int:
    for i in range(n):
        if sq[i] == target:
            return i
    return -1


def _leaper_table(steps: list[tuple[int, int]]) -> np.ndarray:
    """For each square, the bitboard of the squares ``steps`` reach from it."""
    table = np.zeros(64, dtype=np.uint64)
    for s in range(64):
        for df, dr in steps:
            f, r = (s & 7) + df, (s >> 3) + dr
            if 0 <= f < 8 and 0 <= r < 8:
                table[s] |= np.uint64(1) << np.uint64(r * 8 + f)
    return table


def _between_table() -> np.ndarray:
    """``[a, b]``: the squares strictly between ``a`` and ``b`` on a rank or file, plus bit 64's
    stand-in: ``_ALIGNED`` says whether they share one."""
    table = np.zeros((64, 64), dtype=np.uint64)
    for a in range(64):
        for b in range(64):
            fa, ra, fb, rb = a & 7, a >> 3, b & 7, b >> 3
            if a == b or (fa != fb and ra != rb):
                continue
            step = (1 if fb > fa else -1) if ra == rb else (8 if rb > ra else -8)
            for s in range(a + step, b, step):
                table[a, b] |= np.uint64(1) << np.uint64(s)
    return table


_DIAGONALS = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
_KING_ATTACKS = _leaper_table([(f, r) for f in (-1, 0, 1) for r in (-1, 0, 1) if f or r])
_KNIGHT_ATTACKS = _leaper_table(
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
)
_MET_ATTACKS = _leaper_table(_DIAGONALS)
_KHON_ATTACKS = np.stack(
    [_leaper_table([*_DIAGONALS, (0, 1)]), _leaper_table([*_DIAGONALS, (0, -1)])]
)
_BETWEEN = _between_table()
_ALIGNED = np.array(
    [
        [a != b and ((a & 7) == (b & 7) or (a >> 3) == (b >> 3)) for b in range(64)]
        for a in range(64)
    ]
)


@njit(cache=True)
def occupancy(sq: np.ndarray, n: int) -> np.uint64:
    """The bitboard of the occupied squares."""
    occ = np.uint64(0)
    for i in range(n):
        if sq[i] >= 0:
            occ |= np.uint64(1) << np.uint64(sq[i])
    return occ


@njit(cache=True)
def attacks(kind: int, color: int, s: int, target: int, occ: np.uint64) -> bool:
    """Whether a ``kind`` of ``color`` on ``s`` attacks ``target`` (``occ``: occupied squares)."""
    if kind == ROOK:
        return _ALIGNED[s, target] and (_BETWEEN[s, target] & occ) == 0
    if kind == KING:
        table = _KING_ATTACKS[s]
    elif kind == KNIGHT:
        table = _KNIGHT_ATTACKS[s]
    elif kind == MET:
        table = _MET_ATTACKS[s]
    else:
        table = _KHON_ATTACKS[color, s]
    return (table >> np.uint64(target)) & np.uint64(1) != 0


@njit(cache=True)
def attacked(
    target: int, by: int, sq: np.ndarray, typ: np.ndarray, col: np.ndarray, n: int
) -> bool:
    """Whether any piece of colour ``by`` attacks ``target``."""
    occ = occupancy(sq, n)
    for i in range(n):
        if (
            col[i] == by
            and sq[i] >= 0
            and sq[i] != target
            and attacks(typ[i], by, sq[i], target, occ)
        ):
            return True
    return False


@njit(cache=True)
def _rook_on_line(
    target: int, by: int, sq: np.ndarray, typ: np.ndarray, col: np.ndarray, n: int
) -> bool:
    """Whether a rook of colour ``by`` shares a rank or file with ``target``."""
    for i in range(n):
        if col[i] == by and typ[i] == ROOK and sq[i] >= 0 and _ALIGNED[sq[i], target]:
            return True
    return False


def _leap_lists() -> tuple[np.ndarray, np.ndarray]:
    """``[kind, square, k]``: the squares a leaper reaches, ``counts[kind, square]`` of them;
    kinds 0 king, 1 knight, 2 met, 3 White's khon, 4 Black's khon (a khon's un-moves are the
    other colour's khon moves)."""
    tables = [_KING_ATTACKS, _KNIGHT_ATTACKS, _MET_ATTACKS, _KHON_ATTACKS[0], _KHON_ATTACKS[1]]
    lists = np.zeros((5, 64, 8), dtype=np.int64)
    counts = np.zeros((5, 64), dtype=np.int64)
    for kind, table in enumerate(tables):
        for s in range(64):
            for t in range(64):
                if (int(table[s]) >> t) & 1:
                    lists[kind, s, counts[kind, s]] = t
                    counts[kind, s] += 1
    return lists, counts


_LEAPS, _LEAP_COUNTS = _leap_lists()


@njit(cache=True)
def targets(
    piece: int,
    sq: np.ndarray,
    typ: np.ndarray,
    col: np.ndarray,
    n: int,
    backwards: bool,
    out: np.ndarray,
    victims: np.ndarray,
) -> int:
    """Squares the piece in slot ``piece`` can step to (empty or enemy, not the enemy king), or
    with ``backwards`` the empty squares it can have come from (a khon's straight step
    reversed). Writes them to ``out`` and the slot of the piece standing there (-1: none) to
    ``victims``; returns how many."""
    s = sq[piece]
    kind, color = typ[piece], col[piece]
    occ = occupancy(sq, n)
    count = 0
    if kind == ROOK:
        f0, r0 = s & 7, s >> 3
        for d in range(4):
            f, r = f0 + _ROOK_DF[d], r0 + _ROOK_DR[d]
            while 0 <= f < 8 and 0 <= r < 8:
                t = r * 8 + f
                if (occ >> np.uint64(t)) & np.uint64(1):
                    other = _occupant(sq, n, t)
                    if not backwards and col[other] != color and typ[other] != KING:
                        out[count] = t
                        victims[count] = other
                        count += 1
                    break
                out[count] = t
                victims[count] = -1
                count += 1
                f += _ROOK_DF[d]
                r += _ROOK_DR[d]
        return count
    if kind == KING:
        leap = 0
    elif kind == KNIGHT:
        leap = 1
    elif kind == MET:
        leap = 2
    else:
        leap = 3 + (color if not backwards else 1 - color)
    for k in range(_LEAP_COUNTS[leap, s]):
        t = _LEAPS[leap, s, k]
        other = -1
        if (occ >> np.uint64(t)) & np.uint64(1):
            if backwards:
                continue
            other = _occupant(sq, n, t)
            if col[other] == color or typ[other] == KING:
                continue
        out[count] = t
        victims[count] = other
        count += 1
    return count


@njit(cache=True)
def is_legal(stm: int, sq: np.ndarray, typ: np.ndarray, col: np.ndarray, n: int) -> bool:
    """Distinct squares, and the side not to move is not in check (kings apart follows)."""
    for i in range(n):
        for j in range(i + 1, n):
            if sq[i] == sq[j]:
                return False
    return not attacked(sq[1 - stm], stm, sq, typ, col, n)


@njit(cache=True)
def child_value(
    stm: int,
    sq: np.ndarray,
    n: int,
    captured: int,
    children: np.ndarray,
    offsets: np.ndarray,
    sizes: np.ndarray,
    flips: np.ndarray,
    perms: np.ndarray,
    success: np.ndarray,
    scratch: np.ndarray,
) -> int:
    """The value (for the side to move after the capture, ``1 - stm``) of the position after a
    capture of slot ``captured``, read from the smaller table ``children`` holds for it.

    With ``success[captured] >= 0`` the table being built is a conversion table: a capture
    that leaves a lone king lost within that many plies (the fresh count's) is scored as that
    king mated at once (0), any other capture as a draw."""
    if sizes[captured] == 0:
        return DRAW  # bare kings
    m = n - 1
    for k in range(m):
        s = sq[perms[captured, k]]
        scratch[k] = s ^ 56 if flips[captured] else s
    child_stm = stm if flips[captured] else 1 - stm
    v = children[offsets[captured] + encode(child_stm, scratch, m)]
    limit = success[captured]
    if limit < 0:
        return v
    return 0 if v < DRAW and v % 2 == 0 and v <= limit else DRAW


@njit(cache=True)
def _append(items: np.ndarray, count: int, value: int) -> np.ndarray:
    """``items[count] = value``, in a larger copy when ``items`` is full."""
    if count == items.size:
        bigger = np.empty(items.size * 2, dtype=items.dtype)
        bigger[:count] = items[:count]
        items = bigger
    items[count] = value
    return items


@njit(cache=True)
def _schedule(val: np.ndarray, cnt: np.ndarray, aux: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The undecided positions a capture may decide, sorted by that layer: each with a winning
    capture (at the fastest one's layer) or a losing capture (at the slowest one's layer, which
    counts only if every quiet move is refuted by then). ``scheduled[starts[d]:starts[d + 1]]``
    are layer ``d``'s; ``starts`` ends one past the last layer used."""
    counts = np.zeros(256, dtype=np.int64)
    last = 0
    for index in range(val.size):
        if val[index] != UNKNOWN or cnt[index] == _SKIP:
            continue
        layer = aux[index]
        if (cnt[index] == _NO_LOSS and layer != 255) or (cnt[index] != _NO_LOSS and layer > 0):
            counts[layer] += 1
            last = max(last, layer)
    starts = np.zeros(last + 2, dtype=np.int64)
    for layer in range(last + 1):
        starts[layer + 1] = starts[layer] + counts[layer]
    scheduled = np.empty(starts[last + 1], dtype=np.uint32)
    fill = starts[:-1].copy()
    for index in range(val.size):
        if val[index] != UNKNOWN or cnt[index] == _SKIP:
            continue
        layer = aux[index]
        if (cnt[index] == _NO_LOSS and layer != 255) or (cnt[index] != _NO_LOSS and layer > 0):
            scheduled[fill[layer]] = index
            fill[layer] += 1
    return scheduled, starts


@njit(cache=True)
def _decides(val: np.ndarray, cnt: np.ndarray, aux: np.ndarray, before: int, layer: int) -> bool:
    """A move from ``before`` reaches a position decided at ``layer``: a loss there wins
    ``before`` at ``layer + 1``; a win takes one of its moves, and when none is left it is lost
    at ``layer + 1`` (or at its slowest capture's layer, then scheduled). Returns whether
    ``before`` is decided at ``layer + 1``."""
    if layer % 2 == 0:
        val[before] = layer + 1
        return True
    if cnt[before] == _NO_LOSS:
        return False
    cnt[before] -= 1
    if cnt[before] == 0 and aux[before] <= layer + 1:
        val[before] = layer + 1
        return True
    return False


@njit(cache=True, nogil=True)
def solve(
    typ: np.ndarray,
    col: np.ndarray,
    children: np.ndarray,
    offsets: np.ndarray,
    sizes: np.ndarray,
    flips: np.ndarray,
    perms: np.ndarray,
    success: np.ndarray,
    progress: np.ndarray,
) -> np.ndarray:
    """Solve one table by retrograde analysis; returns its values.

    One forward pass counts each position's quiet moves and reads its captures from the smaller
    tables; then, layer by layer (plies to mate 0, 1, 2 ...), un-moves from each position of
    the layer decide its predecessors: a loss at ``d`` makes a win at ``d + 1``; a win at ``d``
    takes one move off each predecessor, which is lost at ``d + 1`` when none is left (later, if
    a capture loses more slowly). ``progress[0]`` counts finished layers for a progress display.
    """
    n = typ.shape[0]
    size = table_size(n)
    val = np.full(size, UNKNOWN, dtype=np.uint8)
    cnt = np.zeros(size, dtype=np.uint8)
    aux = np.zeros(size, dtype=np.uint8)  # win candidate (cnt = _NO_LOSS) or slowest capture loss
    sq = np.empty(n, dtype=np.int64)
    scratch = np.empty(n, dtype=np.int64)
    out = np.empty(32, dtype=np.int64)
    victims = np.empty(32, dtype=np.int64)
    for index in range(size):
        stm = decode(index, sq, n)
        if not is_legal(stm, sq, typ, col, n):
            cnt[index] = _SKIP
            continue
        quiet = 0
        legal = 0
        no_loss = False
        win = 255
        slowest = 0
        in_check = attacked(sq[stm], 1 - stm, sq, typ, col, n)
        # only a rook on the king's line can attack it after another piece moves
        exposed = in_check or _rook_on_line(sq[stm], 1 - stm, sq, typ, col, n)
        for i in range(n):
            if col[i] != stm:
                continue
            origin = sq[i]
            check_needed = exposed or typ[i] == KING
            for k in range(targets(i, sq, typ, col, n, False, out, victims)):
                t = out[k]
                victim = victims[k]
                sq[i] = t
                if victim >= 0:
                    sq[victim] = -1
                ok = not (check_needed and attacked(sq[stm], 1 - stm, sq, typ, col, n))
                if ok and victim >= 0:
                    v = child_value(
                        stm, sq, n, victim, children, offsets, sizes, flips, perms, success, scratch
                    )
                    if v == DRAW:
                        no_loss = True
                    elif v % 2 == 0:
                        no_loss = True
                        win = min(win, v + 1)
                    else:
                        slowest = max(slowest, v + 1)
                sq[i] = origin
                if victim >= 0:
                    sq[victim] = t
                if ok:
                    legal += 1
                    if victim < 0:
                        quiet += 1
        if legal == 0:
            val[index] = 0 if in_check else DRAW
        elif no_loss:
            cnt[index] = _NO_LOSS
            aux[index] = win
        else:
            cnt[index] = quiet
            aux[index] = slowest
    progress[0] = 1
    scheduled, starts = _schedule(val, cnt, aux)
    current = np.flatnonzero(val == 0).astype(np.uint32)
    n_current = current.size
    following = np.empty(max(1024, n_current), dtype=np.uint32)
    layer = 0
    while layer < 254:
        # positions a capture decides at this layer: a win candidate, or a loss whose quiet
        # moves are all refuted and whose slowest capture loses now
        first, end = (starts[layer], starts[layer + 1]) if layer + 1 < starts.size else (0, 0)
        for k in range(first, end):
            index = scheduled[k]
            c = cnt[index]
            if val[index] == UNKNOWN and (c == _NO_LOSS or c == 0):
                val[index] = layer
                current = _append(current, n_current, index)
                n_current += 1
        n_following = 0
        for k in range(n_current):
            stm = decode(int(current[k]), sq, n)
            mover = 1 - stm
            for i in range(n):
                if col[i] != mover:
                    continue
                origin = sq[i]
                for t in range(targets(i, sq, typ, col, n, True, out, victims)):
                    sq[i] = out[t]
                    if not attacked(sq[stm], mover, sq, typ, col, n):
                        before = encode(mover, sq, n)
                        if val[before] == UNKNOWN and _decides(val, cnt, aux, before, layer):
                            following = _append(following, n_following, before)
                            n_following += 1
                sq[i] = origin
        progress[0] = layer + 2
        if n_following == 0 and layer >= starts.size - 2:
            break
        current, following = following, current
        n_current = n_following
        layer += 1
    for index in range(size):
        if val[index] == UNKNOWN and cnt[index] != _SKIP:
            val[index] = DRAW
    return val


@njit(cache=True, nogil=True)
def verify(
    values: np.ndarray,
    typ: np.ndarray,
    col: np.ndarray,
    children: np.ndarray,
    offsets: np.ndarray,
    sizes: np.ndarray,
    flips: np.ndarray,
    perms: np.ndarray,
    success: np.ndarray,
) -> np.ndarray:
    """Re-derive every value from the values after each legal move (this table's for quiet
    moves, the smaller tables' for captures) and return the indices where the stored value
    differs: an impossible position must be ``ILLEGAL``; a legal one is the fastest win, the
    slowest loss, or a draw, with no move: mate (0) or stalemate (``DRAW``)."""
    n = typ.shape[0]
    sq = np.empty(n, dtype=np.int64)
    scratch = np.empty(n, dtype=np.int64)
    out = np.empty(32, dtype=np.int64)
    victims = np.empty(32, dtype=np.int64)
    wrong = np.empty(16, dtype=np.int64)
    n_wrong = 0
    for index in range(values.size):
        stm = decode(index, sq, n)
        if not is_legal(stm, sq, typ, col, n):
            expected = ILLEGAL
        else:
            fastest_win = 1000
            slowest_loss = -1
            draws = False
            legal = 0
            for i in range(n):
                if col[i] != stm:
                    continue
                origin = sq[i]
                for k in range(targets(i, sq, typ, col, n, False, out, victims)):
                    t = out[k]
                    victim = victims[k]
                    sq[i] = t
                    if victim >= 0:
                        sq[victim] = -1
                    if not attacked(sq[stm], 1 - stm, sq, typ, col, n):
                        legal += 1
                        if victim >= 0:
                            v = child_value(
                                stm,
                                sq,
                                n,
                                victim,
                                children,
                                offsets,
                                sizes,
                                flips,
                                perms,
                                success,
                                scratch,
                            )
                        else:
                            v = values[encode(1 - stm, sq, n)]
                        if v >= DRAW:
                            draws = True
                        elif v % 2 == 0:
                            fastest_win = min(fastest_win, v + 1)
                        else:
                            slowest_loss = max(slowest_loss, v + 1)
                    sq[i] = origin
                    if victim >= 0:
                        sq[victim] = t
            if legal == 0:
                expected = 0 if attacked(sq[stm], 1 - stm, sq, typ, col, n) else DRAW
            elif fastest_win < 1000:
                expected = fastest_win
            elif draws:
                expected = DRAW
            else:
                expected = slowest_loss
        if values[index] != expected:
            wrong = _append(wrong, n_wrong, index)
            n_wrong += 1
    return wrong[:n_wrong]
