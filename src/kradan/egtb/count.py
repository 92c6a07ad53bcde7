"""Whether a mate the table finds falls within the moves the count leaves (docs/rules.md 2.6).

The table gives the distance to mate ``d`` in plies with best play and no count. A running count
draws the game at a fixed counting ply (the limit + 1; a declared board's-honour count at the
limit - 1, when its counter completes move 64), and the mating move counts only if it is made
before that ply. So with the count at ply ``p`` and the draw at ply ``D`` the win stands
exactly when ``d <= D - p``, as long as nothing on the way restarts the count:

* Against a lone king nothing does: the lone king's captures leave the count as it is (docs/rules.md
  2.6.2, "a lone king capturing a non-pawn piece changes nothing"), so the answer is exact.
* With pieces on both sides (board's honour) a capture that leaves a lone king starts pieces'
  honour afresh, with new limits. The best line by distance to mate may be cut short by the new
  count, and a slower line through an early capture may win where it does not. The conversion
  table (:mod:`kradan.egtb.conversion`) gives the distance to the first mate or capture that
  wins its new count; that distance against the running count is exact. Without that table the
  answer falls back to ``d`` and is marked ``exact=False``.

With no count running (automatic counting) one starts after the next move or the one after;
the answer then looks one or two plies ahead over every move.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..board import Board
from ..counting import BOARD_HONOUR, counting_state
from ..pieces import KING
from ..variants import CountingMode

#: what a verdict calls the n-move rule (Sittuyin's, docs/rules.md 5.6)
N_MOVE_RULE = "the 50-move rule"


@dataclass(frozen=True)
class CountVerdict:
    """What the count does to the table's result."""

    #: moves the winning side may still make, its mating move included
    moves_left: int
    #: whether the table's mate comes within them
    fits: bool
    #: ``False`` when a capture on the way could restart the count (pieces on both sides), or
    #: in declared counting when the winner is the counter, which may stop and start again
    exact: bool
    #: the count that applies, e.g. "pieces' honour" (the one that starts, if none runs yet)
    honour: str
    #: plies the winner needs under the count: to mate, or with pieces on both sides to the
    #: first mate or capture that wins the count it starts (``None``: it cannot force one)
    needed: int | None = None

    def __str__(self) -> str:
        verb = "allows" if self.fits else "runs out first: it allows"
        exact = f" ({self.caveat()})" if not self.exact else ""
        return f"{self.honour}: the count {verb} {self.moves_left} moves{exact}"

    def caveat(self) -> str:
        """Why the verdict is not exact ("" when it is)."""
        if self.exact:
            return ""
        what = "reset its clock" if self.honour == N_MOVE_RULE else "restart the count"
        return f"not exact: a capture may {what}"


#: ``value(board) -> (wdl, dtm)`` for the side to move, from the tables
ValueOf = Callable[[Board], tuple[int, int | None]]
#: ``conversion(board) -> (wdl, plies)`` from the conversion table, ``None`` when the board
#: needs none (a lone king) or its table is missing
ConversionOf = Callable[[Board], tuple[int, int | None] | None]


def _both_sides_have_pieces(board: Board) -> bool:
    sides = {p.color for p in board.piece_map().values() if p.piece_type != KING}
    return len(sides) == 2


def _moves_for(plies: int, winner_to_move: bool) -> int:
    """Moves the winner makes in the next ``plies`` plies."""
    return (plies + 1) // 2 if winner_to_move else plies // 2


def running(
    board: Board, dtm: int, winner_to_move: bool, conversion: ConversionOf | None = None
) -> CountVerdict | None:
    """The verdict of a running count (``None`` when none runs)."""
    state = counting_state(board)
    if state is None:
        return None
    limit, ply = board.counting_fields()
    declared = board.variant.counting is CountingMode.DECLARED
    board_honour = state.honour == BOARD_HONOUR
    # the ply at which the game is drawn: counting._draw_ply, from the rules' side
    draw = limit - 1 if declared and board_honour else limit + 1
    winner = board.turn if winner_to_move else not board.turn
    counter_wins = declared and board_honour and state.counting_side == winner
    plies = max(draw - ply, 0)
    needed: int | None = dtm
    exact = not counter_wins
    if _both_sides_have_pieces(board):
        converted = conversion(board) if conversion is not None else None
        if converted is None:
            exact = False
        else:
            wdl, distance = converted
            needed = distance if wdl == (1 if winner_to_move else -1) else None
    return CountVerdict(
        moves_left=_moves_for(plies, winner_to_move),
        fits=needed is not None and needed <= plies,
        exact=exact,
        honour=state.honour,
        needed=needed,
    )


def verdict(
    board: Board,
    wdl: int,
    dtm: int | None,
    value_of: ValueOf,
    conversion: ConversionOf | None = None,
) -> CountVerdict | None:
    """The count's verdict on a won or lost position (``None`` for a draw, or when no count runs
    and none starts by itself: declared counting before anyone declares)."""
    if wdl == 0 or dtm is None:
        return None
    found = running(board, dtm, wdl > 0, conversion)
    if found is None and board.variant.counting is not CountingMode.DECLARED:
        found = _ahead(board, wdl, value_of, conversion, depth=2)
    return _within_clock(board, dtm, wdl > 0, found)


def _within_clock(
    board: Board, dtm: int, winner_to_move: bool, found: CountVerdict | None
) -> CountVerdict | None:
    """``found`` with the game's n-move rule (Sittuyin: 100 plies without a capture or pawn
    move, running on while a count runs) applied: the mate must also come before that clock
    runs out. A mate that fits is a win; one that does not is a draw unless a capture resets
    the clock on the way, which the tables cannot see, so not exact."""
    rule = board.variant.n_move_rule
    if rule == 0:
        return found
    plies = max(2 * rule - board.halfmove_clock, 0)
    needed = dtm if found is None or found.needed is None else found.needed
    if needed <= plies and found is not None:
        return found
    return CountVerdict(
        moves_left=_moves_for(plies, winner_to_move),
        fits=needed <= plies and (found is None or found.fits),
        exact=needed <= plies and (found is None or found.exact),
        honour=N_MOVE_RULE if found is None or needed > plies else found.honour,
        needed=needed,
    )


def _ahead(
    board: Board, wdl: int, value_of: ValueOf, conversion: ConversionOf | None, depth: int
) -> CountVerdict | None:
    """No count runs yet (automatic counting): the winner wins within the count when it has a
    winning move after which it does (winner to move), or when every move leads to such a
    position (loser to move). The moves left are the best line's, plus the winner's uncounted
    first move."""
    winner_to_move = wdl > 0
    options: list[tuple[int, CountVerdict]] = []
    for move in list(board.legal_moves):
        board.push(move)
        try:
            child_wdl, child_dtm = value_of(board)
            if child_wdl != -wdl or child_dtm is None:
                if not winner_to_move:
                    return None  # cannot happen: the table says every move loses
                continue
            child = running(board, child_dtm, not winner_to_move, conversion)
            if child is None and depth > 1:
                child = _ahead(board, child_wdl, value_of, conversion, depth - 1)
        finally:
            board.pop()
        if child is None:
            if not winner_to_move:
                return None  # a line the look-ahead cannot see the count of
            continue
        options.append((child.needed or child_dtm, _plus(child, 1 if winner_to_move else 0)))
    if not options:
        return None
    if winner_to_move:
        fitting = [option for option in options if option[1].fits]
        _, best = min(fitting or options, key=lambda option: option[0])
        exact = best.exact if fitting else all(v.exact for _, v in options)
        return _with(best, fits=bool(fitting), exact=exact, plies=1)
    _, worst = max(options, key=lambda option: option[0])
    fits = all(v.fits for _, v in options)
    exact = all(v.exact for _, v in options)
    return _with(worst, fits=fits, exact=exact, plies=1)


def _plus(verdict: CountVerdict, moves: int) -> CountVerdict:
    return replace(verdict, moves_left=verdict.moves_left + moves)


def _with(verdict: CountVerdict, *, fits: bool, exact: bool, plies: int) -> CountVerdict:
    """``verdict`` one ply earlier, with the look-ahead's ``fits`` and ``exact``."""
    needed = None if verdict.needed is None else verdict.needed + plies
    return replace(verdict, fits=fits, exact=exact, needed=needed)
