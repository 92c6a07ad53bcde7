"""The solved Bell Alquerque shipped (issue 48 items 4 and 6): the strategy table's format
round trip, damaged and truncated files refused with a typed error, the checker walking a table
with the public board (and refusing a planted wrong move or depth), the shipped table's root
proven, the on-line df-pn beyond the table, and the engine, ``kradan analyse`` and
``POST /api/analysis`` answering from them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest

from kradan.alquerque import Board
from kradan.cli.main import main
from kradan.engine.alquerque import AlquerqueSearcher
from kradan.engine.types import Limit
from kradan.solve.answers import PACKAGED, packaged_table, proven, search_tree
from kradan.solve.check import ProofError, check_table
from kradan.solve.export import extract
from kradan.solve.keys import text_key
from kradan.solve.proofdb import ProofDatabase
from kradan.solve.solver import Solver
from kradan.solve.table import LOSS, StrategyTable, StrategyTableError, read_table

from .web_helpers import database_url, serving

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

#: White to move loses, proven in a few hundred nodes (tests/test_solve.py); 9 pieces
SMALL = "P2p1/p1p2/p3p/P4/P4 w - 0 12 e3:e5c1,a5:e3c3,d5:c5"
#: the shipped table's root: the start, then White's d2-c3
AFTER_D2C3 = ["d2c3"]


def _bell(text: str | None = None, moves: list[str] | None = None) -> Board:
    board = Board(text, variant="alquerque-bell")
    for uci in moves or []:
        board.push_uci(uci)
    return board


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> StrategyTable:
    """SMALL solved into a proof database and exported."""
    directory = tmp_path_factory.mktemp("small-db")
    database = ProofDatabase(directory)
    board = _bell(SMALL)
    outcome = Solver(database, database.writer("t"), table_bits=14).solve(board)
    assert outcome.win is False
    database.reload()

    def lookup(key: int) -> tuple[bool, int] | None:
        entry = database.get(key)
        return None if entry is None else (entry.win, entry.move)

    return extract(board, lookup)


# --- the format -------------------------------------------------------------------------------


def test_a_table_survives_writing_and_reading(small: StrategyTable, tmp_path: Path) -> None:
    path = tmp_path / "small.kst"
    size = small.write(path)
    assert size == path.stat().st_size
    again = read_table(path)
    assert (again.game, again.root) == ("alquerque-bell", SMALL)
    assert np.array_equal(again.keys, small.keys) and np.array_equal(again.moves, small.moves)
    assert np.array_equal(again.depths, small.depths)
    root = again.get(text_key(SMALL))
    assert root is not None and not root.win and root.move is None
    present = set(small.keys.tolist())
    assert again.get(next(k for k in range(1, 1000) if k not in present)) is None
    assert 0 < again.wins < len(again)
    assert not list(tmp_path.glob("*.partial"))


def _refused(data: bytes, match: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.kst"
    path.write_bytes(data)
    with pytest.raises(StrategyTableError, match=match) as caught:
        read_table(path)
    assert repr(str(path)) in str(caught.value)


def test_damaged_truncated_and_foreign_files_are_refused(
    small: StrategyTable, tmp_path: Path
) -> None:
    data = small.to_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0x40
    _refused(bytes(flipped), "damaged", tmp_path)
    _refused(data[:-1], "truncated", tmp_path)
    _refused(data + b"\x00", "truncated", tmp_path)
    _refused(data[:20], "too short", tmp_path)
    _refused(b"KRSOLV01" + bytes(80), "not a strategy table", tmp_path)
    newer = bytearray(data)
    newer[8] = 2
    newer[-32:] = hashlib.sha256(bytes(newer[:-32])).digest()
    _refused(bytes(newer), "version 2", tmp_path)


def test_unsorted_keys_are_refused() -> None:
    keys = np.array([5, 3], dtype=np.uint64)
    with pytest.raises(StrategyTableError, match="not sorted"):
        StrategyTable("alquerque-bell", SMALL, keys, np.zeros(2, np.uint8), np.ones(2, np.uint8))


# --- the checker on a table -------------------------------------------------------------------


def test_the_checker_walks_a_table_and_refuses_a_planted_error(small: StrategyTable) -> None:
    report = check_table(small)
    assert not report.side_to_move_wins and report.positions == len(small)
    assert report.longest == small.get(text_key(SMALL)).depth  # type: ignore[union-attr]
    won = int(np.flatnonzero(small.moves != LOSS)[0])
    board_moves = small.moves.copy()
    board_moves[won] = 200  # no position has 200 moves
    with pytest.raises(ProofError, match="not one of its"):
        check_table(StrategyTable(small.game, small.root, small.keys, board_moves, small.depths))
    depths = small.depths.copy()
    depths[won] += 2
    with pytest.raises(ProofError, match="the table says"):
        check_table(StrategyTable(small.game, small.root, small.keys, small.moves, depths))
    lost = int(np.flatnonzero(small.moves == LOSS)[-1])
    moves = small.moves.copy()
    moves[lost] = 0  # a lost position claimed won
    with pytest.raises(ProofError):
        check_table(StrategyTable(small.game, small.root, small.keys, moves, small.depths))


def test_the_command_exports_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, out_file = str(tmp_path / "db"), str(tmp_path / "s.kst")
    common = ["solve", "alquerque-bell", "--db", db, "--position", SMALL]
    assert main([*common, "--depth", "1"]) == 0
    capsys.readouterr()
    assert main([*common, "--export", out_file]) == 0
    table = read_table(out_file)
    assert f"wrote {out_file}: {len(table):,} positions" in capsys.readouterr().out
    assert main(["solve", "alquerque-bell", "--check", "--table", out_file]) == 0
    assert "proven: White to move loses" in capsys.readouterr().out
    Path(out_file).write_bytes(Path(out_file).read_bytes()[:-3])
    assert main(["solve", "alquerque-bell", "--check", "--table", out_file]) == 2
    assert "truncated" in capsys.readouterr().err


# --- the shipped table ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> StrategyTable:
    table = packaged_table()
    assert table is not None, f"kradan/solve/data/{PACKAGED} is not installed"
    return table


def test_the_shipped_table_proves_d2_c3_loses(shipped: StrategyTable) -> None:
    root = _bell(None, AFTER_D2C3)
    assert shipped.root == root.text() and shipped.game == "alquerque-bell"
    entry = shipped.get(text_key(root.text()))
    assert entry is not None and entry.win  # Black, to move, wins
    assert proven(_bell()) is None  # the start position is not proven


def test_the_checker_walks_the_whole_shipped_proof(shipped: StrategyTable) -> None:
    """Every position of the table, from its root, with the public board (about 25 s)."""
    report = check_table(shipped)
    root = shipped.get(text_key(shipped.root))
    assert root is not None and report.side_to_move_wins == root.win
    assert report.positions == len(shipped) and report.winner_moves == shipped.wins
    assert report.longest == root.depth


def test_the_verdict_and_line_follow_the_table(shipped: StrategyTable) -> None:
    board = _bell(None, AFTER_D2C3)
    verdict = proven(board)
    entry = shipped.get(text_key(board.text()))
    assert verdict is not None and entry is not None and entry.move is not None
    assert verdict.win and verdict.source == "table" and verdict.plies == entry.depth
    assert verdict.move == list(board.legal_moves)[entry.move]
    assert verdict.text() == f"proven win in {entry.depth}"
    assert len(verdict.line) == verdict.plies
    for move in verdict.line:
        board.push(move)
    assert board.outcome() is not None and board.outcome().winner is False  # type: ignore[union-attr]


# --- beyond the table: the on-line df-pn ------------------------------------------------------


def test_a_late_position_is_proven_on_line(small: StrategyTable) -> None:
    board = _bell(SMALL)
    verdict = proven(board)
    assert verdict is not None and verdict.source == "search" and not verdict.win
    tree = search_tree(board)
    assert tree is not None and check_table(tree).longest == verdict.plies
    assert proven(board, search=False) is None


def test_other_rules_get_no_verdict() -> None:
    assert proven(Board(SMALL, variant="alquerque")) is None


# --- the engine, analyse, the web -------------------------------------------------------------


def test_the_engine_plays_the_tables_move() -> None:
    board = _bell(None, AFTER_D2C3)
    verdict = proven(board)
    assert verdict is not None
    searcher = AlquerqueSearcher()
    result = searcher.best_move(board, Limit(depth=4))
    assert result.move == verdict.move
    assert result.info is not None and result.info.nodes == 0
    assert result.info.score.relative.mate == (verdict.plies + 1) // 2
    searcher.use_solved(False)
    searched = searcher.best_move(board, Limit(depth=2))
    assert searched.info is not None and searched.info.nodes > 0


def test_on_the_clock_the_engine_asks_the_table_only() -> None:
    """A late position the table lacks: off the clock the engine answers from the on-line
    df-pn (no search nodes); on the move's clock it searches, never spending the df-pn's
    50,000 nodes a move (a fast game's time)."""
    board = _bell(SMALL)
    assert proven(board, search=False) is None and proven(board) is not None
    searcher = AlquerqueSearcher()
    analysed = searcher.best_move(board, Limit(depth=3))
    assert analysed.info is not None and analysed.info.nodes == 0
    clocked = searcher.best_move(board, Limit(time=0.2))
    assert clocked.info is not None and clocked.info.nodes > 0


def test_the_uci_option_turns_the_table_off() -> None:
    from kradan.engine.protocol.uci import UciEngine

    from .protocol_session import Session

    session = Session(UciEngine)
    session.send("uci")
    assert "option name SolvedTable type check default true" in session.lines
    session.send("setoption name UCI_Variant value alquerque-bell", "position startpos moves d2c3")
    session.send("go depth 3")
    verdict = proven(_bell(None, AFTER_D2C3))
    assert verdict is not None
    assert session.wait_for("bestmove").split()[1] == verdict.move.uci()  # type: ignore[union-attr]
    assert any(f"score mate {(verdict.plies + 1) // 2}" in line for line in session.lines)
    assert not any(line.startswith("info depth 2") for line in session.lines)  # no search
    session.send("setoption name SolvedTable value false")
    assert session.engine.options.solved_table is False  # type: ignore[attr-defined]
    session.lines.clear()
    session.send("go depth 2")
    session.wait_for("bestmove")
    assert any(line.startswith("info depth 2") for line in session.lines)  # searched


def test_the_xboard_option_turns_the_table_off() -> None:
    """XBoard offers the switch as ``feature option="SolvedTable -check 1"`` and takes
    ``option SolvedTable=0``: then the engine searches the proven position instead of answering
    from the table; a value that is not 0 or 1 is refused and changes nothing."""
    from kradan.engine.protocol.xboard import XBoardEngine

    from .protocol_session import Session

    session = Session(XBoardEngine)
    session.send("xboard", "protover 2")
    assert any('option="SolvedTable -check 1"' in line for line in session.lines)
    board = _bell(None, AFTER_D2C3)
    verdict = proven(board)
    assert verdict is not None and verdict.move is not None
    session.send("new", "variant alquerque-bell", "force", "usermove d2c3", "post", "sd 2", "go")
    assert session.wait_for("move ").split()[1] == verdict.move.uci()
    assert not any(line.startswith("2 ") for line in session.lines)  # answered, not searched
    session.send("option SolvedTable=2")
    assert session.lines[-1].startswith("Error (2 is outside 0..1)")
    assert session.engine.searchers.solved  # type: ignore[attr-defined]
    session.send("option SolvedTable=false", "option SolvedTable=true")  # UCI's words too
    assert session.engine.searchers.solved  # type: ignore[attr-defined]
    session.send("option SolvedTable=0")
    assert not session.engine.searchers.solved  # type: ignore[attr-defined]
    session.lines.clear()
    session.send("new", "variant alquerque-bell", "force", "usermove d2c3", "sd 2", "go")
    session.wait_for("move ")
    assert any(line.startswith("2 ") for line in session.lines)  # searched to depth 2


def test_analyse_prints_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    board = _bell(None, AFTER_D2C3)
    verdict = proven(board)
    assert verdict is not None and verdict.move is not None
    assert main(["analyse", "--variant", "alquerque-bell", board.text()]) == 0
    out = capsys.readouterr().out
    assert f"proven win in {verdict.plies} plies for Black to move" in out
    assert f"best move: {board.san(verdict.move)}" in out
    assert main(["analyse", "--variant", "alquerque-bell", SMALL]) == 0
    assert "proven loss in" in capsys.readouterr().out


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with serving(database_url(tmp_path_factory.mktemp("solved"))) as client:
        yield client


def test_the_analysis_api_carries_the_verdict(client: TestClient) -> None:
    board = _bell(None, AFTER_D2C3)
    verdict = proven(board)
    assert verdict is not None and verdict.move is not None
    body = {"variant": "alquerque-bell", "moves": AFTER_D2C3, "movetime_ms": 100}
    answer = client.post("/api/analysis", json=body).json()
    assert answer["proven"] == {
        "result": "win", "plies": verdict.plies, "text": verdict.text(), "source": "table",
        "best_move": verdict.move.uci(), "best_san": board.san(verdict.move),
        "line": [move.uci() for move in verdict.line],
    }  # fmt: skip
    start = client.post("/api/analysis", json={**body, "moves": []}).json()
    assert start["proven"] is None
    schema = client.get("/openapi.json").json()
    assert "ProvenView" in schema["components"]["schemas"]
