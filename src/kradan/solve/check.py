"""The proof checker, apart from the solver: it walks a proof with the public
:class:`kradan.alquerque.Board` alone, reading the database only for the winner's moves.

For a position claimed won for the side to move it plays the database's move (the board
refuses an illegal one) and checks that the position after it is lost for the side then to
move; for a position claimed lost it plays every legal move and checks each position after it
is won. Lines end where the board says the game is over, and the winner must be the claimed
one. Positions already checked (transpositions) are not walked twice. Keys come from the
position text (:func:`~kradan.solve.keys.text_key`), not from the solver's kernel rows.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from ..alquerque import Board
from ..errors import KradanError
from .keys import text_key
from .proofdb import ProofDatabase

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


def check(database: ProofDatabase, board: Board) -> CheckReport:
    """Walk the proof of ``board``'s value that ``database`` holds (its own entry says which
    value is claimed; without one, a loss is tried).

    :raises ProofError: naming the line where the proof fails.
    """
    walk = _Walk(database, board.copy())
    entry = database.get(text_key(board.text()))
    claims_win = entry is not None and entry.win
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, _DEPTH * 4))
    try:
        walk.win() if claims_win else walk.lost_check()
    finally:
        sys.setrecursionlimit(limit)
    positions = len(walk.won) + len(walk.lost)
    return CheckReport(board.text(), claims_win, positions, walk.winner_moves, walk.longest)
