"""The proof checker, apart from the solver: it walks a proof with the public
:class:`kradan.alquerque.Board` alone, reading the database (or a strategy table,
:func:`check_table`) only for the winner's moves.

For a position claimed won for the side to move it plays the database's move (the board
refuses an illegal one) and checks that the position after it is lost for the side then to
move; for a position claimed lost it plays every legal move and checks each position after it
is won. Lines end where the board says the game is over, and the winner must be the claimed
one. Positions already checked (transpositions) are not walked twice. Keys come from the
position text (:func:`~kradan.solve.keys.text_key`), not from the solver's kernel rows.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from ..alquerque import Board
from ..errors import KradanError
from .keys import text_key
from .proofdb import ProofDatabase
from .table import StrategyTable

_DEPTH = 400


class ProofError(KradanError, ValueError):
    """A proof that does not hold: a missing entry, an illegal move, a wrong ending."""


@dataclass(frozen=True)
class CheckReport:
    """What a walk proved: the position, who wins it, and how many positions it walked."""

    text: str
    side_to_move_wins: bool
    positions: int
    winner_moves: int
    longest: int

    def describe(self) -> str:
        mover = "White" if " w " in self.text else "Black"
        verdict = "wins" if self.side_to_move_wins else "loses"
        return (f"proven: {mover} to move {verdict} in {self.text!r} ({self.positions:,} "
                f"positions walked, {self.winner_moves:,} winner moves, longest line "
                f"{self.longest} plies)")  # fmt: skip


class _Walk:
    def __init__(self, database: ProofDatabase, board: Board) -> None:
        self.database = database
        self.board = board
        self.root_ply = len(board.move_stack)
        self.won: set[int] = set()
        self.lost: set[int] = set()
        self.winner_moves = 0
        self.longest = 0

    def fail(self, reason: str) -> ProofError:
        line = " ".join(m.uci() for m in self.board.move_stack[self.root_ply :]) or "(root)"
        return ProofError(f"the proof does not hold after {line}: {reason}")

    def ended(self, mover_should_win: bool) -> bool:
        outcome = self.board.outcome()
        if outcome is None:
            return False
        self.longest = max(self.longest, len(self.board.move_stack) - self.root_ply)
        if outcome.winner is None or (outcome.winner == self.board.turn) != mover_should_win:
            raise self.fail(f"the game ended ({outcome.termination.name}) the other way")
        return True

    def win(self) -> None:
        board = self.board
        if self.ended(True):
            return
        key = text_key(board.text())
        if key in self.won:
            return
        entry = self.database.get(key)
        if entry is None or not entry.win:
            what = "no entry" if entry is None else "an entry saying it is lost"
            raise self.fail(f"{board.text()!r} should be won, and the database has {what}")
        try:
            move = board.decode_move(entry.move)
            board.push(move)
        except KradanError as error:
            raise self.fail(f"the database's move is refused: {error}") from None
        try:
            self.lost_check()
        finally:
            board.pop()
        self.winner_moves += 1
        self.won.add(key)

    def lost_check(self) -> None:
        board = self.board
        if self.ended(False):
            return
        key = text_key(board.text())
        if key in self.lost:
            return
        for move in list(board.legal_moves):
            board.push(move)
            try:
                self.win()
            finally:
                board.pop()
        self.lost.add(key)


@contextmanager
def _deep_recursion() -> Iterator[None]:
    """Room on the stack for a walk down the longest line (the walks recurse a ply a level)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _DEPTH * 4))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def check(database: ProofDatabase, board: Board) -> CheckReport:
    """Walk the proof of ``board``'s value that ``database`` holds (its own entry says which
    value is claimed; without one, a loss is tried).

    :raises ProofError: naming the line where the proof fails.
    """
    walk = _Walk(database, board.copy())
    entry = database.get(text_key(board.text()))
    claims_win = entry is not None and entry.win
    with _deep_recursion():
        walk.win() if claims_win else walk.lost_check()
    positions = len(walk.won) + len(walk.lost)
    return CheckReport(board.text(), claims_win, positions, walk.winner_moves, walk.longest)


class _TableWalk:
    """The walk of a strategy table: the winner plays the table's move (its index in the
    board's legal-move order), the loser every legal move; each position's depth byte must be
    the plies to the end that the walk finds."""

    def __init__(self, table: StrategyTable, board: Board) -> None:
        self.table = table
        self.board = board
        self.root_ply = len(board.move_stack)
        self.plies: dict[tuple[int, bool], int] = {}
        self.winner_moves = 0

    def fail(self, reason: str) -> ProofError:
        line = " ".join(m.uci() for m in self.board.move_stack[self.root_ply :]) or "(root)"
        return ProofError(f"the table's proof does not hold after {line}: {reason}")

    def walk(self, should_win: bool) -> int:
        """The plies to the end of the board's position, claimed won or lost for its mover."""
        board = self.board
        outcome = board.outcome()
        if outcome is not None:
            if outcome.winner is None or (outcome.winner == board.turn) != should_win:
                raise self.fail(f"the game ended ({outcome.termination.name}) the other way")
            return 0
        key = text_key(board.text())
        done = self.plies.get((key, should_win))
        if done is not None:
            return done
        entry = self.table.get(key)
        if entry is None or entry.win != should_win:
            what = "no entry" if entry is None else "an entry saying the other"
            claim = "won" if should_win else "lost"
            raise self.fail(f"{board.text()!r} should be {claim}, and the table has {what}")
        moves = list(board.legal_moves)
        if entry.move is not None:
            if entry.move >= len(moves):
                raise self.fail(f"the table's move {entry.move} of {board.text()!r} is not one "
                                f"of its {len(moves)} legal moves")  # fmt: skip
            moves = [moves[entry.move]]
            self.winner_moves += 1
        plies = 0
        for move in moves:
            board.push(move)
            try:
                plies = max(plies, 1 + self.walk(not should_win))
            finally:
                board.pop()
        if plies != entry.depth:
            raise self.fail(f"{board.text()!r} ends in {plies} plies, the table says "
                            f"{entry.depth}")  # fmt: skip
        self.plies[(key, should_win)] = plies
        return plies


def check_table(table: StrategyTable, board: Board | None = None) -> CheckReport:
    """Walk the proof of ``board``'s value (default the table's root) that ``table`` holds,
    with the public board alone; every depth byte met is checked too.

    :raises ProofError: naming the line where the proof fails.
    """
    if board is None:
        board = Board(table.root, variant=table.game)
    walk = _TableWalk(table, board.copy())
    entry = table.get(text_key(board.text()))
    claims_win = entry is not None and entry.win
    with _deep_recursion():
        longest = walk.walk(claims_win)
    return CheckReport(board.text(), claims_win, len(walk.plies), walk.winner_moves, longest)
