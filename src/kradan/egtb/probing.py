"""Probing: the table's value of a board, its best move, and what the count makes of it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..board import Board
from ..errors import MissingTableError, TablebaseError
from ..move import Move
from .conversion import kind_for, two_sided
from .count import N_MOVE_RULE, CountVerdict, running, verdict
from .position import locate
from .tables import TableSet

DRAW = 254
ILLEGAL = 255


@dataclass(frozen=True)
class ProbeResult:
    """What the tables say about a position, for the side to move."""

    #: the table read, e.g. ``"KRvKN"`` (``"KvK"`` for bare kings)
    table: str
    #: 1 win, 0 draw, -1 loss with best play, ignoring the count
    wdl: int
    #: plies to mate with best play (0: checkmated now); ``None`` when drawn
    dtm: int | None
    #: the fastest win, the longest loss, or a move that keeps the draw; ``None`` when the game
    #: is over
    best_move: Move | None
    #: the count's verdict; ``None`` for a draw, or when no count runs and none starts by itself
    count: CountVerdict | None

    @property
    def mate_moves(self) -> int | None:
        """The distance to mate in moves of the winning side (``None`` when drawn)."""
        return None if self.dtm is None else (self.dtm + 1) // 2

    @property
    def result(self) -> int:
        """1 win, 0 draw, -1 loss under the rules: a mate that the count cuts off is a draw."""
        if self.count is not None and not self.count.fits:
            return 0
        return self.wdl

    def __str__(self) -> str:
        if self.wdl == 0:
            return f"draw ({self.table})"
        mate = "mate" if self.wdl > 0 else "mated"
        text = f"{mate} in {self.mate_moves} ({self.dtm} plies, {self.table})"
        if self.dtm == 0:
            text = f"checkmated ({self.table})"
        if self.count is None:
            return ("win: " if self.wdl > 0 else "loss: ") + text
        count = self.count
        allows = f"the count allows {count.moves_left}"
        exact = f"; {count.caveat()}" if not count.exact else ""
        if count.fits:
            head = "win: " if self.wdl > 0 else "loss: "
            how = ""
            if count.needed is not None and count.needed != self.dtm:
                how = f"; a capture within {count.needed} plies starts a count the mate fits"
            return f"{head}{text}, {allows} ({count.honour}{exact}){how}"
        why = ""
        if count.needed is None:
            why = ": every win passes a capture whose new count runs out first"
        first = "the 50-move rule comes" if count.honour == N_MOVE_RULE else "the count runs out"
        return f"draw: {first} first ({text}, {allows}; {count.honour}{exact}){why}"


class Tablebase(TableSet):
    """A set of tables to probe (see :class:`~kradan.egtb.tables.TableSet` for where they come
    from)."""

    def value(self, board: Board) -> tuple[int, int | None]:
        """``(wdl, dtm)`` of ``board`` for the side to move, from the table alone.

        :raises TablebaseError: for a position the tables do not cover, or an impossible one.
        :raises MissingTableError: when its table is not there.
        :raises CorruptTableError: when its table file is damaged.
        """
        located = locate(board)
        if located.material is None:
            return 0, None
        value = int(self.values(located.material)[located.index])
        if value == ILLEGAL:
            raise TablebaseError(f"the tables hold no such position: {board.fen()}")
        if value == DRAW:
            return 0, None
        return (1 if value % 2 else -1), value

    def conversion(self, board: Board) -> tuple[int, int | None] | None:
        """``(wdl, plies)`` from the conversion table (:mod:`kradan.egtb.conversion`): who can
        force a mate or a capture that wins the count it starts, and in how many plies;
        ``None`` for a lone king, or when the conversion table is not there.

        :raises CorruptTableError: when its file is damaged.
        """
        located = locate(board)
        material = located.material
        kind = kind_for(board.variant)
        if material is None or kind is None or not two_sided(material) or material.pieces > 4:
            return None
        try:
            value = int(self.values(material, kind)[located.index])
        except MissingTableError:
            return None
        if value >= DRAW:
            return 0, None
        return (1 if value % 2 else -1), value

    def probe(self, board: Board) -> ProbeResult:
        """The result of ``board``'s position with best play, its best move and the count's
        verdict (see :class:`ProbeResult`). ``board`` is not changed.

        :raises TablebaseError: as :meth:`value` does.
        """
        wdl, dtm = self.value(board)
        work = board.copy(stack=False)
        found = verdict(work, wdl, dtm, self.value, self.conversion)
        best = self._count_move(work, wdl) if wdl else None
        if best is None and found is not None and work.counting_state() is None:
            best = self._ahead_move(work, wdl)
        if best is None:
            best = self._best_move(work, wdl, dtm)
        located = locate(board)
        table = located.material.key if located.material is not None else "KvK"
        return ProbeResult(table, wdl, dtm, best, found)

    def _ahead_move(self, board: Board, wdl: int) -> Move | None:
        """No count runs yet but one starts with the next moves: the move after which the
        count's verdict is best for the mover (the winner's fastest win within the count, the
        loser's escape into a count that runs out, else its longest resistance). The fastest
        mate may be the wrong move here: a capture that starts a count too short for the mate
        (KR v KM: taking the met at once leaves a KR v K the new count cuts off)."""

        def key(after: Board) -> int | None:
            child_wdl, child_dtm = self.value(after)
            child = verdict(after, child_wdl, child_dtm, self.value, self.conversion)
            lost = child_wdl == -wdl and child_dtm is not None
            needed = (child.needed if child is not None else None) or child_dtm or 0
            escapes = not lost or (child is not None and not child.fits)
            if wdl > 0:
                return None if escapes else -needed  # the opponent loses within the count
            return 1 << 20 if escapes else needed  # the count saves the loser, or resist

        return _pick(board, key)

    def _best_move(self, board: Board, wdl: int, dtm: int | None) -> Move | None:
        """The move that keeps the value: the fastest mate, the slowest loss, or a drawing move."""

        def key(after: Board) -> int | None:
            child_wdl, child_dtm = self.value(after)
            if child_wdl != -wdl:
                return None
            return 0 if child_dtm is None else (-child_dtm if wdl > 0 else child_dtm)

        return _pick(board, key)

    def _count_move(self, board: Board, wdl: int) -> Move | None:
        """With pieces on both sides and a count running: the move that reaches the first mate
        or winning capture soonest (winner), or latest (loser), by the conversion table;
        ``None`` when that does not apply."""
        if board.counting_state() is None or self.conversion(board) is None:
            return None

        def key(after: Board) -> int | None:
            plies = self._success_after(after)
            if wdl > 0 and (plies is None or plies < 0):
                return None
            # the winner wants the fewest plies to its success; the loser none for its
            # opponent (a draw), else the most
            return 1000 if plies is None else -plies

        return _pick(board, key)

    def _success_after(self, board: Board) -> int | None:
        """After a move: plies to the mover's first success (positive), or to its opponent's
        (negative), ``None`` when neither can force one."""
        converted = self.conversion(board)
        if converted is not None:
            wdl, plies = converted
            return None if plies is None else (plies + 1 if wdl < 0 else -(plies + 1))
        wdl, dtm = self.value(board)  # a capture left a lone king: the fresh count decides
        if wdl >= 0 or dtm is None:
            return None
        fresh = running(board, dtm, winner_to_move=False)
        return 1 if fresh is None or fresh.fits else None


def _pick(board: Board, key: Callable[[Board], int | None]) -> Move | None:
    """The legal move of ``board`` whose position ``key`` ranks highest (``None``: not a
    candidate); the first of equals. ``board`` is left as it was."""
    best: Move | None = None
    best_key = 0
    for move in list(board.legal_moves):
        board.push(move)
        try:
            ranked = key(board)
        finally:
            board.pop()
        if ranked is not None and (best is None or ranked > best_key):
            best, best_key = move, ranked
    return best


_default: dict[Path, Tablebase] = {}


def probe(board: Board, *, directory: str | Path | None = None) -> ProbeResult:
    """Probe ``board`` in the tables of ``directory`` (default: the user's data directory, then
    the 3-piece tables shipped with kradan). Tables stay loaded between calls.

    >>> import kradan, kradan.egtb
    >>> str(kradan.egtb.probe(kradan.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1")))[:14]
    'win: mate in 1'

    :raises TablebaseError: for a position the tables do not cover (pawns, more pieces, other
        rules) or an impossible one.
    :raises MissingTableError: when the table is not there (make it with ``kradan egtb
        generate``).
    :raises CorruptTableError: when a table file is damaged.
    """
    tables = Tablebase(directory)
    key = tables.directory.resolve()
    if key not in _default:
        _default[key] = tables
    return _default[key].probe(board)
