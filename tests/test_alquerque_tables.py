"""Alfonso X's Alquerque tables (kradan.egtb.alquerque, docs/egtb.md): the index, the values
against a search of the public ``alquerque.Board`` that knows nothing of the tables, the file
and its checks, the engine's root answer and the command line."""

from __future__ import annotations

import hashlib
import zlib
from math import comb
from pathlib import Path

import numpy as np
import pytest

from kradan.alquerque import Board
from kradan.cli.main import main
from kradan.egtb import alquerque as A
from kradan.egtb.alquerque_file import (
    AlfonsoTable,
    Verdict,
    load,
    read_table,
    table_path,
    write_table,
)
from kradan.engine.alquerque import AlquerqueSearcher
from kradan.engine.types import Limit
from kradan.errors import CorruptTableError, InvalidArgumentError, MissingTableError

#: a White win in 31 plies (2 men against 1) found by the 4-piece table
LONG_WIN = "5/5/5/2p2/1P1P1 w - 0 1"


@pytest.fixture(scope="module")
def three() -> AlfonsoTable:
    return AlfonsoTable(3, A.generate(3).values)


@pytest.fixture(scope="module")
def four() -> AlfonsoTable:
    return AlfonsoTable(4, A.generate(4).values)


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory, four: AlfonsoTable) -> Path:
    where = tmp_path_factory.mktemp("alfonso")
    write_table(table_path(where), 4, four.values)
    return where


def text_of(mover: int, opponent: int, white_moves: bool, quiet: int = 0) -> str:
    """The position text with ``mover``'s men (White's when ``white_moves``) to move."""
    white, black = (mover, opponent) if white_moves else (opponent, mover)
    rows = []
    for y in range(4, -1, -1):
        row = ""
        for x in range(5):
            bit = 1 << (y * 5 + x)
            row += "P" if white & bit else "p" if black & bit else "1"
        rows.append(row)
    return "/".join(rows) + f" {'w' if white_moves else 'b'} - {quiet} 1"


def board_at(index: int, pieces: int, white_moves: bool = True) -> Board:
    """The board of table position ``index``."""
    table = A.offsets(pieces)
    for m, o in A.classes(pieces):
        if table[m, o] <= index < table[m, o] + comb(25, m) * comb(25 - m, o):
            mover, opponent = A.position_of(index, m, o, table)
            return Board(text_of(mover, opponent, white_moves), variant="alquerque")
    raise AssertionError(index)


# --- the index ------------------------------------------------------------------------------


def test_sizes_count_every_placement_once() -> None:
    for pieces in (2, 3, 4, 5):
        expected = sum(
            comb(25, m) * comb(25 - m, total - m)
            for total in range(2, pieces + 1)
            for m in range(1, total)
        )
        assert A.table_size(pieces) == expected
    assert A.table_size(5) == 1_785_400


@pytest.mark.parametrize("pieces", [0, 1, 7, True, "4"])
def test_a_piece_count_outside_the_tables_is_refused(pieces: object) -> None:
    with pytest.raises(InvalidArgumentError, match=repr(pieces)):
        A.check_pieces(pieces)  # type: ignore[arg-type]


def test_the_index_is_a_bijection() -> None:
    table = A.offsets(4)
    seen = set()
    rng = np.random.default_rng(7)
    for m, o in A.classes(4):
        start, size = int(table[m, o]), comb(25, m) * comb(25 - m, o)
        for index in {start, start + size - 1, *rng.integers(start, start + size, 300).tolist()}:
            mover, opponent = A.position_of(index, m, o, table)
            assert mover & opponent == 0
            assert (bin(mover).count("1"), bin(opponent).count("1")) == (m, o)
            assert A.index_of(mover, opponent, table) == index
            seen.add((mover, opponent))
    assert len(seen) > 1000
    assert A.index_of(0b111, 0b11000, A.offsets(5)) >= 0
    assert A.index_of(0b111, 0b11000, table) == -1  # 5 pieces: not in a 4-piece table
    assert A.index_of(0b111, 0b111000, A.offsets(5)) == -1


# --- the values against a search of the public board ----------------------------------------


def bounded(board: Board, plies: int, memo: dict[tuple[str, int], int]) -> int:
    """The side to move's value when it is decided within ``plies`` plies: ``+d`` wins in ``d``
    (the quickest), ``-d`` loses in ``d`` (the longest), else 0. A plain search on the public
    board's moves: a side with no man left has lost, a side with no move draws."""
    key = (" ".join(board.text().split()[:2]), plies)
    if key in memo:
        return memo[key]
    wins: list[int] = []
    losses: list[int] = []
    moves = list(board.legal_moves)
    for move in moves:
        board.push(move)
        if board.pieces(board.turn) == 0:
            wins.append(1)
        elif plies >= 2:
            child = bounded(board, plies - 1, memo)
            if child < 0:
                wins.append(1 - child)
            elif child > 0:
                losses.append(child + 1)
        board.pop()
    if wins:
        found = min(wins)
    elif moves and len(losses) == len(moves):
        found = -max(losses)
    else:
        found = 0
    memo[key] = found
    return found


@pytest.mark.parametrize(("pieces", "depth", "samples"), [(3, 8, 40), (4, 6, 24)])
def test_values_match_a_plain_search(
    pieces: int, depth: int, samples: int, request: pytest.FixtureRequest
) -> None:
    """Every sampled position decided within ``depth`` plies has the table's distance; every
    other one has a longer distance or is a draw. Wins, losses and draws are all sampled."""
    table: AlfonsoTable = request.getfixturevalue("three" if pieces == 3 else "four")
    values = table.values.astype(np.int16)
    rng = np.random.default_rng(pieces)
    kinds = [
        np.flatnonzero((values > 0) & (values <= depth)),
        np.flatnonzero((values < 0) & (values >= -depth)),
        np.flatnonzero(np.abs(values) > depth),
        np.flatnonzero(values == 0),
    ]
    memo: dict[tuple[str, int], int] = {}
    checked = 0
    for kind in kinds:
        assert len(kind), "every kind of value is there to sample"
        for index in rng.choice(kind, min(samples // 4, len(kind)), replace=False):
            board = board_at(int(index), pieces, white_moves=bool(index % 2))
            value = int(values[index])
            expected = value if abs(value) <= depth else 0
            assert bounded(board, depth, memo) == expected, board.text()
            checked += 1
    assert checked == samples


def test_every_value_follows_from_its_moves(four: AlfonsoTable) -> None:
    """The retrograde equations on the public board: a sampled position's value is the best of
    its moves' (a capture of the last piece wins in 1, a position without a move draws)."""
    rng = np.random.default_rng(11)
    for index in rng.integers(0, len(four.values), 400):
        board = board_at(int(index), 4, white_moves=bool(index % 2))
        judged = four.moves(board)
        value = four.value(board)
        if not judged:
            assert value == 0 and not list(board.legal_moves)
            continue
        best = judged[0][1]
        assert value == (best.result * (best.plies or 0)), board.text()


def test_the_longest_wins(four: AlfonsoTable) -> None:
    """Measured, not asserted elsewhere: 2 men beat 1 in at most 31 plies, and the longest win
    of up to 4 pieces is 35 plies."""
    assert int(np.abs(four.values.astype(np.int16)).max()) == 35
    assert four.probe(Board(LONG_WIN, variant="alquerque")) == Verdict(1, 31)


# --- the file -------------------------------------------------------------------------------


def test_round_trip(directory: Path, four: AlfonsoTable) -> None:
    read = read_table(table_path(directory))
    assert read.pieces == 4 and np.array_equal(read.values, four.values)
    assert load(directory) is load(directory)  # read once


def test_damaged_files_are_refused(tmp_path: Path, directory: Path) -> None:
    blob = table_path(directory).read_bytes()
    damaged = tmp_path / "damaged.akt"
    changed = bytearray(blob)
    changed[20] ^= 1  # the entries field
    for content in (blob[:30], blob[:-5], bytes(changed), b"NOTATABLE" + blob[9:]):
        damaged.write_bytes(content)
        with pytest.raises(CorruptTableError, match=str(damaged)):
            read_table(damaged)
    # values that decompress but are not those written: the checksum tells
    values = bytearray(zlib.decompress(blob[51:]))
    values[100] = (values[100] + 3) % 256
    assert hashlib.sha256(values).digest() != blob[19:51]
    damaged.write_bytes(blob[:51] + zlib.compress(bytes(values)))
    with pytest.raises(CorruptTableError, match="SHA-256"):
        read_table(damaged)
    with pytest.raises(MissingTableError, match=str(tmp_path / "nowhere")):
        load(tmp_path / "nowhere")


# --- what a verdict is worth with a history ---------------------------------------------------


def test_exactness_follows_the_no_capture_limit(four: AlfonsoTable) -> None:
    # 2 against 2: the limit (100 plies) draws equal counts
    equal = "5/5/3p1/2P2/1P1p1 w - {} 40"
    verdict = four.probe(Board(equal.format(0), variant="alquerque"))
    assert verdict == Verdict(1, 35)
    assert four.probe(Board(equal.format(65), variant="alquerque")) == Verdict(1, 35)
    assert four.probe(Board(equal.format(66), variant="alquerque")) == Verdict(1, 35, False)
    # 2 against 1: no limit draws unequal counts, and only a capture makes them equal
    assert four.probe(Board("5/5/5/2p2/1P1P1 w - 99 60", variant="alquerque")) == Verdict(1, 31)
    # without any limit
    free = Board(equal.format(99), variant="alquerque", no_capture_limit=0)
    assert four.probe(free) == Verdict(1, 35)
    # the other rule sets are not in the table
    assert four.probe(Board(LONG_WIN, variant="alquerque-bell")) is None
    assert four.probe(Board(LONG_WIN, variant="alquerque", alquerque_kings=True)) is None
    assert four.probe(Board(LONG_WIN, variant="alquerque", capture_rule="huff")) is None


def test_exactness_follows_the_positions_since_the_last_capture(four: AlfonsoTable) -> None:
    """Along the won 2-against-1 ending White once plays a slower win: a position already seen
    is then won in fewer plies than the one now, so it could come back on the winning line
    (a threefold repetition); the same position without that history is exact."""
    board = Board(LONG_WIN, variant="alquerque")
    for _ in range(12):
        if board.turn:
            slower = [
                (move, verdict)
                for move, verdict in four.moves(board)
                if verdict.result == 1 and (verdict.plies or 0) >= (four.value(board) + 2)
            ]
            if slower:
                move, verdict = slower[0]
                board.push(move)
                found = four.probe(board)
                assert found == Verdict(-1, (verdict.plies or 0) - 1, False)
                fresh = Board(" ".join(board.text().split()[:2]) + " - 0 1", variant="alquerque")
                assert four.probe(fresh) == Verdict(-1, (verdict.plies or 0) - 1)
                return
        found = four.probe(board)
        assert found is not None and found.exact
        best = four.best_move(board)
        assert best is not None
        board.push(best)
    raise AssertionError("no slower win along the line")


# --- engine and command line ----------------------------------------------------------------


def test_the_engine_plays_the_winning_table_move(directory: Path, four: AlfonsoTable) -> None:
    board = Board(LONG_WIN, variant="alquerque")
    searcher = AlquerqueSearcher()
    searcher.use_tables(directory)
    result = searcher.best_move(board, Limit(depth=3))
    assert result.move == four.best_move(board)
    assert result.info is not None and result.info.score.relative.mate == 16  # 31 plies
    assert result.info.nodes == 0  # answered from the table
    searcher.use_tables(False)
    searched = searcher.best_move(board, Limit(depth=3))
    assert searched.info is not None and searched.info.nodes > 0


def test_the_search_probes_the_table_after_a_capture(directory: Path) -> None:
    """5 pieces (not in the 4-piece table): every move captures, into a 4-piece position the
    table knows. At depth 2 the search reads the win's length from the table; without the
    table it sees no win."""
    board = Board("5/1P2P/5/1p1p1/3P1 w - 0 1", variant="alquerque")
    table = read_table(table_path(directory))
    assert table.probe(board) is None
    plies = []
    for move in board.legal_moves:
        assert "x" in board.san(move)
        child = board.copy()
        child.push(move)
        plies.append(-table.value(child) + 1 if table.value(child) < 0 else None)
    quickest = min(p for p in plies if p is not None)  # White wins in 11 plies
    searcher = AlquerqueSearcher()
    searcher.use_tables(directory)
    found = searcher.best_move(board, Limit(depth=2))
    assert found.info is not None and found.info.score.relative.mate == (quickest + 1) // 2
    searcher.use_tables(False)
    blind = searcher.best_move(board, Limit(depth=2))
    assert blind.info is not None and blind.info.score.relative.mate is None


def test_the_engine_searches_where_the_history_could_change_the_verdict(
    directory: Path,
) -> None:
    searcher = AlquerqueSearcher()
    searcher.use_tables(directory)
    late = Board("5/5/3p1/2P2/1P1p1 w - 90 40", variant="alquerque")
    searched = searcher.best_move(late, Limit(depth=2))
    assert searched.info is not None and searched.info.nodes > 0


def test_cli_generate_and_probe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egtb", "generate", "--game", "alquerque", "--pieces", "3",
                 "--dir", str(tmp_path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "14,400 positions of up to 3 pieces" in out and "longest win 32 plies" in out
    assert "alquerque-alfonso.akt: 0.01 MiB, built in" in out
    assert main(["egtb", "probe", "5/5/5/2p2/1P1P1 w - 0 1", "--variant", "alquerque",
                 "--dir", str(tmp_path)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Alfonso X table (3 pieces): win in 31 plies" in out
    assert "best move: " in out
    assert main(["egtb", "probe", "5/5/5/2p2/PP1p1 w - 0 1", "--variant", "alquerque",
                 "--dir", str(tmp_path)]) == 2  # fmt: skip
    assert "is not in the Alfonso X table: 4 pieces (it holds up to 3" in capsys.readouterr().err
    assert main(["egtb", "probe", LONG_WIN, "--variant", "alquerque",
                 "--dir", str(tmp_path / "none")]) != 0  # fmt: skip
    assert str(tmp_path / "none") in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--game", "alquerque", "--pieces", "7"], "pieces '7': 2 to 6"),
        (["--game", "alquerque", "--pieces", "1"], "pieces '1': 2 to 6"),
        (["--pieces", "6"], "pieces '6': 3, 4 or 5"),  # the chess family's tables
    ],
)
def test_cli_generate_refuses_piece_counts_outside_the_tables(
    argv: list[str], words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status: object
    try:
        status = main(["egtb", "generate", *argv, "--dir", str(tmp_path)])
    except SystemExit as stop:  # argparse refuses the value itself
        status = stop.code
    assert status == 2
    assert words in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_analyse_prints_the_verdict(
    directory: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("KRADAN_EGTB_DIR", str(directory))
    assert main(["analyse", LONG_WIN, "--variant", "alquerque", "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert "Alfonso X table (4 pieces): win in 31 plies" in out
    assert "depth" not in out  # exact: no search
    assert main(["analyse", "5/5/3p1/2P2/1P1p1 w - 90 40", "--variant", "alquerque",
                 "--depth", "2"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "win in 35 plies (without the repetition and no-capture rules)" in out
    assert "depth" in out  # searched as well


@pytest.mark.slow
def test_the_five_piece_table_against_the_public_board() -> None:
    """The 5-piece table (about 10 s of CPU to make): 3,000 sampled positions satisfy the
    retrograde equations on the public board's moves, and 60 (wins, losses, draws and long
    distances) equal the plain search within 5 plies."""
    five = AlfonsoTable(5, A.generate(5).values)
    rng = np.random.default_rng(5)
    for index in rng.integers(0, len(five.values), 3000):
        board = board_at(int(index), 5, white_moves=bool(index % 2))
        judged = five.moves(board)
        best = judged[0][1] if judged else Verdict(0, None)
        assert five.value(board) == best.result * (best.plies or 0), board.text()
    values = five.values.astype(np.int16)
    memo: dict[tuple[str, int], int] = {}
    for kind in (
        np.flatnonzero((values > 0) & (values <= 5)),
        np.flatnonzero((values < 0) & (values >= -5)),
        np.flatnonzero(np.abs(values) > 5),
        np.flatnonzero(values == 0),
    ):
        for index in rng.choice(kind, 15, replace=False):
            board = board_at(int(index), 5, white_moves=bool(index % 2))
            value = int(values[index])
            assert bounded(board, 5, memo) == (value if abs(value) <= 5 else 0), board.text()
