"""The Bell solver (issue 48): df-pn agrees with plain minimax, its proofs are saved and pass
the checker, a planted wrong entry is refused, and a SIGKILLed run goes on from its last save."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kradan.alquerque import Board
from kradan.errors import UsageError
from kradan.solve.check import ProofError, check
from kradan.solve.keys import state_key, text_key
from kradan.solve.proofdb import ProofDatabase, pack
from kradan.solve.solver import Solver

ROOT = Path(__file__).resolve().parent.parent
#: a position 22 plies into a random game: White to move loses, proven in a few hundred nodes
SMALL = "P2p1/p1p2/p3p/P4/P4 w - 0 12 e3:e5c1,a5:e3c3,d5:c5"


def _random_board(seed: int, plies: int) -> Board:
    rng = random.Random(seed)
    board = Board(variant="alquerque-bell")
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.outcome() is not None:
            break
        board.push(rng.choice(moves))
    return board


def _minimax(board: Board, seen: dict[str, bool] | None = None) -> bool:
    """Whether the side to move wins, by walking every line (small positions only)."""
    seen = {} if seen is None else seen
    text = board.text()
    if text in seen:
        return seen[text]
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner == board.turn
    wins = False
    for move in list(board.legal_moves):
        board.push(move)
        replies = _minimax(board, seen)
        board.pop()
        if not replies:
            wins = True
            break
    seen[text] = wins
    return wins


def _ending(seed: int, before_end: int) -> Board:
    board = _random_board(seed, 200)
    for _ in range(min(before_end, len(board.move_stack))):
        board.pop()
    return board


def test_the_key_of_the_kernel_row_is_the_key_of_the_text() -> None:
    board = _random_board(3, 60)
    while board.move_stack:
        stack, ply = board.kernel_history()
        assert state_key(stack[ply]) == text_key(board.text())
        board.pop()


@pytest.mark.parametrize("seed", range(4))
def test_dfpn_agrees_with_minimax(seed: int, tmp_path: Path) -> None:
    board = _ending(seed, 5)
    database = ProofDatabase(tmp_path)
    outcome = Solver(database, database.writer("t"), table_bits=14).solve(board)
    assert outcome.win == _minimax(board)


def test_a_proof_is_saved_and_the_checker_walks_it(tmp_path: Path) -> None:
    board = Board(SMALL, variant="alquerque-bell")
    database = ProofDatabase(tmp_path)
    writer = database.writer("run")
    outcome = Solver(database, writer, table_bits=16).solve(board, chunk=100)
    writer.close()
    assert outcome.win is False and outcome.saved > 0
    again = ProofDatabase(tmp_path)
    assert len(again) == outcome.saved and again.conflicts == 0
    report = check(again, board)
    assert report.side_to_move_wins is False and report.positions > 1
    assert "White to move loses" in report.describe()
    # a second solve is answered by the database at once
    second = Solver(again, again.writer("run2"), table_bits=10).solve(board)
    assert second.win is False and second.nodes == 0


def test_the_checker_refuses_a_planted_wrong_entry(tmp_path: Path) -> None:
    board = Board(SMALL, variant="alquerque-bell")
    database = ProofDatabase(tmp_path)
    writer = database.writer("run")
    Solver(database, writer, table_bits=16).solve(board)
    database.reload()
    # the proof says every White move loses; claim one reply of Black's is lost instead
    move = next(iter(board.legal_moves))
    board.push(move)
    key = text_key(board.text())
    assert database.get(key) is not None and database.get(key).win  # type: ignore[union-attr]
    board.pop()
    index = int(np.searchsorted(database.keys, np.uint64(key)))
    database.recs[index] = pack(False, 0)
    with pytest.raises(ProofError, match=move.uci()):
        check(database, board)
    # and a winning move that is no legal move
    database.recs[index] = pack(True, 31 << 9)
    with pytest.raises(ProofError, match="refused"):
        check(database, board)


def test_alfonso_rules_are_refused(tmp_path: Path) -> None:
    database = ProofDatabase(tmp_path)
    with pytest.raises(UsageError, match="Bell"):
        Solver(database, database.writer("x"), table_bits=8).solve(Board())


def test_a_partial_record_left_by_a_kill_is_ignored_and_cut(tmp_path: Path) -> None:
    database = ProofDatabase(tmp_path)
    writer = database.writer("w")
    writer.append(np.array([5, 7], dtype=np.uint64), np.array([pack(True, 3), pack(False, 0)]))
    writer.close()
    path = tmp_path / "w.proofs"
    with path.open("ab") as handle:
        handle.write(b"\x01\x02\x03")  # a write cut short
    assert len(ProofDatabase(tmp_path)) == 2
    writer = ProofDatabase(tmp_path).writer("w")
    writer.append(np.array([9], dtype=np.uint64), np.array([pack(True, 4)]))
    writer.close()
    again = ProofDatabase(tmp_path)
    assert len(again) == 3 and again.get(9) is not None and again.get(7).win is False  # type: ignore[union-attr]


KILL_SCRIPT = """
import sys
from kradan.alquerque import Board
from kradan.solve.proofdb import ProofDatabase
from kradan.solve.solver import Solver
database = ProofDatabase(sys.argv[1])
print("loaded", len(database), flush=True)
board = Board(sys.argv[2], variant="alquerque-bell")
outcome = Solver(database, database.writer(sys.argv[3]), table_bits=18).solve(
    board, chunk=int(sys.argv[4]), on_progress=lambda p: print("saved", p.saved, flush=True))
print("value", outcome.win, outcome.nodes, flush=True)
"""


def test_a_sigkilled_solve_loses_only_the_work_since_its_last_save(tmp_path: Path) -> None:
    board = _random_board(11, 18)
    text = board.text()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    command = [sys.executable, "-c", KILL_SCRIPT, str(tmp_path), text]
    killed = subprocess.Popen([*command, "first", "2000"], stdout=subprocess.PIPE, text=True,
                              env=env)  # fmt: skip
    assert killed.stdout is not None
    lines = []
    for line in killed.stdout:
        lines.append(line)
        if line.startswith("saved") and int(line.split()[1]) > 0:
            break
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    assert not any(line.startswith("value") for line in lines), "solved before the kill"
    kept = len(ProofDatabase(tmp_path))
    assert kept > 0
    done = subprocess.run([*command, "second", "200000"], capture_output=True, text=True,
                          env=env, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"loaded {kept}" in done.stdout
    value = done.stdout.split("value ")[1].split()[0]
    fresh = ProofDatabase(tmp_path / "fresh")
    expected = Solver(fresh, fresh.writer("f"), table_bits=18).solve(board).win
    assert value == str(expected)
    final = ProofDatabase(tmp_path)
    assert final.conflicts == 0
    assert check(final, board).side_to_move_wins is expected
