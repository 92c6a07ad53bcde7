"""Never a blind move, and endgame tables read once per process (issue 44).

A stop (``stop``, the clock, an armed stop) that comes before the first depth is complete waits
for it, so every answer is the move a completed depth-1 search makes, or the tables' move, or
that of a deeper search; never one from a search cut off after a node. And a table is read
(decompressed and checked) once per process: not again for the next search, nor for another
searcher of the same directory, nor on the move's time when the front end read it ahead.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import kradan
import kradan.egtb.tables
from kradan.egtb import Tablebase, parse_key
from kradan.egtb.generate import generate, generate_one
from kradan.egtb.material import Material
from kradan.engine.chess import Searcher
from kradan.engine.driver import StopClock
from kradan.engine.protocol.uci import UciEngine, format_info
from kradan.engine.types import Limit

from .protocol_session import Session

#: positions the tables answer (3 and 4 pieces, with and without a count running), mates the
#: search finds, counts, and the position of issue 44 (6 pieces, a6a2 mates in 2)
TABLES = [
    "8/8/3k4/8/8/3K4/8/R7 w - - 0 1",
    "8/8/8/4k3/8/8/8/R3K3 b - 32 10 40",
    "8/8/8/4k3/8/8/8/R3K3 w - 32 30 40",
    "k7/8/1K6/8/8/8/8/7R w - - 0 1",
    "8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1",
    "8/8/8/4k3/8/8/3n4/R3K3 w - 128 120 1",
    "8/8/8/8/8/8/8/K1k1nR2 w - 128 0 1",
    "8/8/3k4/8/8/3K4/8/MM6 w - - 0 1",
]
MATES = [
    "k7/2K5/8/8/8/8/7R/8 w - - 0 1",
    "8/8/r5p1/7p/5kn1/7K/8/8 b - - 6 93",
    "8/8/r5p1/7p/5kn1/7K/8/8 b - 64 20 93",
    "6k1/8/6K1/8/8/8/8/R7 w - - 0 1",
]
COUNTS = [
    "8/8/8/4k3/8/2p5/3n4/R3K3 w - 128 60 30",
    "8/3k4/8/8/2S5/3K4/2M5/8 b - 88 40 50",
    "4k3/8/8/3p4/3P4/8/2R5/4K3 w - - 0 40",
]


def random_positions(count: int, seed: int) -> list[str]:
    """Positions of random games of Makruk, from the opening to the ending."""
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        board = kradan.Board()
        for _ in range(rng.randrange(4, 120)):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        if board.outcome() is None and any(board.legal_moves):
            found.append(board.fen())
    return found


POSITIONS = TABLES + MATES + COUNTS + random_positions(24, seed=44)


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 3-piece tables, KMMvK and KRvKN (the other 4-piece tables are missing)."""
    folder = tmp_path_factory.mktemp("egtb-never-blind")
    base = Tablebase(folder)
    generate(3, folder, load=base.values)
    for key in ("KMMvK", "KRvKN"):
        generate_one(parse_key(key), folder, load=base.values)
    return folder


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], int]]:
    """How many table files have been read (decompressed and checked) so far."""
    count = [0]
    read = kradan.egtb.tables.read_table

    def counted(path: Path, material: Material, kind: str = "") -> np.ndarray:
        count[0] += 1
        return read(path, material, kind)

    monkeypatch.setattr(kradan.egtb.tables, "read_table", counted)
    yield lambda: count[0]


def copy_of(directory: Path, name: str) -> Path:
    """A copy of the tables of ``directory``, which this process has not read yet."""
    target = directory.parent / name
    target.mkdir()
    for path in directory.glob("*.ktb"):
        (target / path.name).write_bytes(path.read_bytes())
    return target


def depth_one(searcher: Searcher, board: kradan.Board) -> tuple[str, str, str]:
    """What a completed depth-1 search (or the tables) answers: the move, the score, the line,
    after forgetting what earlier searches learnt (as ``ucinewgame`` does)."""
    searcher.clear()
    result = searcher.best_move(board, Limit(depth=1))
    assert result.move is not None and result.info is not None
    line = " ".join(move.uci() for move in result.info.pv)
    return result.move.uci(), str(result.info.score), line


def test_a_stop_before_the_first_depth_waits_for_it() -> None:
    """A stop armed before the search starts, and a clock that runs out at once, still leave
    the first depth complete: the same move, score and nodes as a search to depth 1."""
    searcher, reference = Searcher(1), Searcher(1)
    for engine in (searcher, reference):
        engine.use_tables(False)
    for fen in POSITIONS:
        board = kradan.Board(fen)
        reference.clear()
        expected = reference.best_move(board, Limit(depth=1))
        assert expected.info is not None
        for limit in (Limit(time=60.0), Limit(time=1e-9), Limit(nodes=1)):
            searcher.clear()
            searcher.arm()
            searcher.stop()
            result = searcher.best_move(board, limit, armed=True)
            assert [info.depth for info in result.history] == [1], fen
            assert result.info is not None and result.move == expected.move, fen
            assert result.info.score == expected.info.score, fen
            assert result.info.nodes == expected.info.nodes, fen


def test_a_multipv_search_stopped_at_once_completes_its_first_depth() -> None:
    searcher = Searcher(1)
    searcher.use_tables(False)
    for fen in POSITIONS[-6:]:
        board = kradan.Board(fen)
        searcher.arm()
        searcher.stop()
        found = list(searcher.search_multipv(board, Limit(time=1e-9), 3, armed=True))
        assert len(found) == 1 and all(line.depth == 1 for line in found[0])
        assert len(found[0]) == min(3, len(list(board.legal_moves)))


def test_go_movetime_1_and_stop_at_once_answer_from_a_completed_depth(
    directory: Path, reads: Callable[[], int]
) -> None:
    """Over UCI, ``go movetime 1`` and an immediate ``stop`` in every position: an ``info``
    line of depth 1 or more comes first, and ``bestmove`` is its line's first move; at depth 1
    that is the move (and score, and line) of a depth-1 search with the same tables: the
    tables' move where they answer. The tables were read at ``isready``, none on the move."""
    reference = Searcher(1)
    reference.use_tables(directory)
    session = Session(UciEngine)
    session.send("uci", f"setoption name EgtbPath value {directory}")
    session.send("position startpos", "go depth 1", "isready")  # makes the search
    deeper = 0
    for fen in POSITIONS:
        session.send("ucinewgame", f"position fen {fen}", "isready")
        read = reads()
        session.lines.clear()
        session.send("go movetime 1", "stop")
        assert reads() == read, fen  # the tables were read ahead, none on the move's time
        infos = [line.split() for line in session.lines if line.startswith("info depth")]
        best = [line for line in session.lines if line.startswith("bestmove")]
        assert infos and len(best) == 1, (fen, session.lines)
        last = infos[-1]
        depth = int(last[2])
        assert depth >= 1 and best[0].split()[1] == last[last.index("pv") + 1], session.lines
        if depth > 1:
            deeper += 1
            continue
        move, score, line = depth_one(reference, kradan.Board(fen))
        shown = " ".join(last)
        assert best[0].split()[1] == move, (fen, session.lines)
        assert f"score {score} " in shown and shown.endswith(f"pv {line}"), (fen, shown)
    assert deeper < len(POSITIONS) // 2  # most were stopped within the first depth


def test_the_tables_are_read_once_per_process(directory: Path, reads: Callable[[], int]) -> None:
    """The second search of a position reads no table, nor does another searcher of the same
    directory, on the clock or not; and the position of issue 44 is mated in 2 each time."""
    board = kradan.Board("8/8/r5p1/7p/5kn1/7K/8/8 b - - 6 93")
    directory = copy_of(directory, "egtb-once")  # not read yet in this process
    first = Searcher(1)
    first.use_tables(directory)
    result = first.best_move(board, Limit(depth=6))
    assert result.info is not None and result.info.score.mate == 2
    tables = first.endgame_tables
    assert tables is not None and tables.wait_loaded(60)
    read = reads()
    assert read > 0  # KMMvK and the 3-piece tables (the other 4-piece ones are missing)
    second = Searcher(1)
    second.use_tables(directory)
    assert second.endgame_tables is tables
    for searcher in (first, second, first):
        for limit in (Limit(time=1.0), Limit(depth=6)):
            result = searcher.best_move(board, limit)
            assert result.move is not None and result.move.uci() == "a6a2"
            assert result.info is not None and result.info.score.mate == 2
    assert reads() == read


def test_a_table_on_the_clock_is_read_in_the_background(
    directory: Path, reads: Callable[[], int]
) -> None:
    """A searcher of a directory not yet read answers on the clock from a search (the root's
    tables are not in memory: reading them is held up here until the search is over), while
    the loader reads them; the next search is answered from the tables, reading nothing."""
    target = copy_of(directory, "egtb-background")
    board = kradan.Board("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1")
    expected = Tablebase(target).probe(board).best_move
    searcher = Searcher(1)
    searcher.use_tables(target)
    tables = searcher.endgame_tables
    assert tables is not None
    release = threading.Event()
    load = tables.load

    def held_up(material: Material, kind: str = "") -> np.ndarray:
        assert release.wait(60)
        return load(material, kind)

    tables.load = held_up  # type: ignore[method-assign]
    read = reads()
    result = searcher.best_move(board, Limit(time=0.05))
    assert result.info is not None and result.info.nodes > 0  # searched, not from the tables
    assert result.history[0].depth == 1 and reads() == read
    release.set()
    assert tables.wait_loaded(60)
    read = reads()
    assert read > 0
    result = searcher.best_move(board, Limit(time=0.05))
    assert result.info is not None and result.info.nodes == 0  # the tables' answer
    assert result.move == expected and reads() == read
    assert format_info(result.info).startswith("info depth 1 ")


def test_the_stop_clock_stops_each_search_that_runs_out_of_time() -> None:
    """One waiting thread serves every search of a searcher: it stops each one due, and a
    cancelled one not (cancelled before it was due)."""
    stopped = threading.Semaphore(0)
    clock = StopClock(stopped.release)
    for _ in range(3):
        assert clock.start(0.0)
        assert stopped.acquire(timeout=60)
    assert clock.start(1e6)
    clock.cancel()
    assert clock.due is None and not stopped.acquire(blocking=False)
