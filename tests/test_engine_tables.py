"""The engine and the endgame tables (issue 14, "use everywhere"; docs/egtb.md "In the engine").

The compiled search's probe must agree with :mod:`kradan.egtb`'s exact answer (the count
included) on random positions; the root answers from the tables; the search reaches tables
through captures; and the UCI and XBoard options switch them. The 3-piece tables and two 4-piece
ones (KMMvK, two like pieces; KRvKN, pieces on both sides) are generated once for the module.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np
import pytest

import kradan
from kradan.egtb import Tablebase, parse_key
from kradan.egtb.conversion import KIND
from kradan.egtb.generate import generate, generate_one
from kradan.egtb.index import table_size
from kradan.egtb.material import Material
from kradan.egtb.storage import file_name, write_table
from kradan.engine.chess import Searcher
from kradan.engine.kernels import node
from kradan.engine.kernels.tablebase import NO_VALUE, probe
from kradan.engine.protocol.uci import UciEngine
from kradan.engine.protocol.xboard import XBoardEngine
from kradan.engine.table_memory import Slab
from kradan.engine.tablebase import (
    EngineTables,
    reachable,
    root_tables,
    signature,
    wanted_tables,
)
from kradan.engine.types import Limit

from .test_egtb import ILLEGAL, decode, fen_of

#: pieces' honour in plies for a lone king against each piece (docs/rules.md 2.6.2: R 16, S 44,
#: N and M 64 moves)
HONOUR_PLIES = {"R": 32, "S": 88, "N": 128, "M": 128, "MM": 64, "RN": 32}


@pytest.fixture(scope="module")
def directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("egtb-engine")
    base = Tablebase(folder)
    generate(3, folder, load=base.values)
    for key in ("KMMvK", "KRvKN"):
        generate_one(parse_key(key), folder, load=base.values)
    return folder


def kernel_value(tables: EngineTables, board: kradan.Board) -> int:
    """What the search's probe answers for ``board`` at the root."""
    most = tables.prepare(board)
    bbs, info = board.kernel_arrays(room=4)
    declared = board.variant.counting is kradan.variants.CountingMode.DECLARED
    clock = 2 * board.variant.n_move_rule
    return int(probe(bbs, info, tables.slab, tables.slots, most, declared, clock, node.MATE, 0))


def random_boards(
    tables: Tablebase,
    material: Material,
    count: int,
    seed: int,
    counting: str = "auto",
    variant: str = "makruk",
) -> list[kradan.Board]:
    """Random legal positions of ``material`` with a move to play, either colour the stronger,
    with a count at a random ply (or none) as their FEN."""
    rng = random.Random(seed)
    values = tables.values(material)
    boards = []
    while len(boards) < count:
        index = rng.randrange(values.size)
        if values[index] == ILLEGAL:
            continue
        stm, squares = decode(index, material.pieces)
        fen = fen_of(material, stm, squares, flip=rng.random() < 0.5)
        limit = HONOUR_PLIES.get(material.white, 128) if not material.black else 128
        limit -= 2 if variant == "cambodian" else 0  # Ouk's limits: a move fewer
        fields = "- 0" if rng.random() < 0.2 else f"{limit} {rng.randrange(limit + 2)}"
        if variant == "sittuyin":  # the sit-ke is the met; only a lone king is counted
            fen = fen.replace("M", "F").replace("m", "f").replace(" ", "[] ", 1)
            fields = "- 0" if material.black or material.white == "MM" else fields
        fen = fen.replace("- - 0 1", f"- {fields} 40")
        options = {"counting": counting} if variant != "sittuyin" else {}
        board = kradan.Board(fen, variant=variant, **options)
        if any(board.legal_moves):  # KNvK and KMvK are all insufficient material: kept
            boards.append(board)
    return boards


@pytest.mark.parametrize(
    ("key", "variant"),
    [
        *((key, "makruk") for key in ("KRvK", "KSvK", "KNvK", "KMvK", "KMMvK", "KRvKN")),
        *((key, "cambodian") for key in ("KRvK", "KSvK", "KMMvK", "KRvKN")),
        *((key, "sittuyin") for key in ("KRvK", "KSvK", "KMMvK", "KRvKN")),
    ],
)
def test_the_search_probe_agrees_with_the_library(directory: Path, key: str, variant: str) -> None:
    """Each answer the kernel gives is the exact one: a draw where the tables or the count say
    so, else the mate distance; and it answers every lone-king position with a count running.
    Ouk Chatrang (no leap rights left) and Sittuyin (the sit-ke as the met, its 50-move rule
    besides the count) read the same tables."""
    tables = EngineTables(directory)
    answered = 0
    for board in random_boards(tables, parse_key(key), 300, seed=len(key), variant=variant):
        found = tables.probe(board)
        value = kernel_value(tables, board)
        if value == NO_VALUE:
            lone = parse_key(key).black == ""
            assert found.wdl != 0 and (not lone or board.counting_state() is None), board.fen()
            continue
        answered += 1
        if found.result == 0:
            assert value == 0, board.fen()
        else:
            assert found.dtm is not None and found.count is not None and found.count.exact
            assert value == found.result * (node.MATE - found.dtm), board.fen()
    assert answered > 100


def test_declared_counting_without_a_count_is_the_mate_distance(directory: Path) -> None:
    tables = EngineTables(directory)
    for counted in random_boards(tables, parse_key("KRvKN"), 100, seed=5, counting="declared"):
        fields = counted.fen().split()
        fields[3:5] = ["-", "0"]
        board = kradan.Board(" ".join(fields), counting="declared")
        found = tables.probe(board)
        value = kernel_value(tables, board)
        if found.wdl == 0:
            assert value == 0
        elif board.counting_state() is None:
            assert found.dtm is not None and value == found.wdl * (node.MATE - found.dtm)


def test_an_ouk_position_with_leap_rights_gets_no_probes(directory: Path) -> None:
    """A right to leap may still be used, and the tables know no leaps: the search of such a
    position probes nothing, the root answers nothing."""
    tables = EngineTables(directory)
    board = kradan.Board("8/8/3k4/8/8/8/8/R2K4 w D - 0 1", variant="cambodian")
    assert tables.prepare(board) == 0 and tables.root(board) is None
    board = kradan.Board("8/8/3k4/8/8/8/8/R2K4 w - - 0 1", variant="cambodian")
    assert tables.prepare(board) == 3 and tables.root(board) is not None


def test_reachable_tables() -> None:
    keys = [m.key for m in reachable(kradan.Board("8/8/3k4/4m3/8/3K4/8/R6R w - - 0 1"))]
    assert keys == ["KRRvK", "KRvKM", "KMvK", "KRvK"]
    # a pawn may become a met: KMvK and KRvKM are within reach of KR v KP
    keys = [m.key for m in reachable(kradan.Board("8/8/3k4/4p3/8/3K4/8/R7 w - - 0 1"))]
    assert keys == ["KRvKM", "KMvK", "KRvK"]
    assert signature("RN", "") == 4**7 + 4**5 and signature("", "M") == 1


def test_with_too_few_pages_the_search_keeps_every_smaller_table() -> None:
    """More 4-piece tables within reach than pages: the first ``pages`` of them are probed, and
    every 3-piece table still is."""
    board = kradan.Board("8/8/3k4/4m3/8/3K4/8/R6R w - - 0 1")
    assert [m.key for m in wanted_tables(board, 2)] == ["KRRvK", "KRvKM", "KMvK", "KRvK"]
    assert [m.key for m in wanted_tables(board, 1)] == ["KRRvK", "KMvK", "KRvK"]


def test_refresh_forgets_a_table_whose_file_was_deleted(tmp_path: Path) -> None:
    """A table file deleted while the engine runs is no error (``refresh``); once no search
    uses the table, ``refresh`` forgets it and its values are not probed again."""
    write_table(tmp_path / "KRvK.ktb", parse_key("KRvK"), np.full(table_size(3), 1, np.uint8))
    tables = EngineTables(tmp_path, pages=1)
    board = kradan.Board("8/8/3k4/8/8/8/8/R2K4 w - - 0 1")
    assert tables.prepare(board) == 3 and tables.value(board) == (1, 1)  # the file's "mate in 1"
    (tmp_path / "KRvK.ktb").unlink()
    tables.refresh()  # still in use: kept, and no error
    assert tables.prepare(kradan.Board()) == 0  # no search wants it now
    tables.refresh()
    tables.prepare(board)
    assert tables.value(board) != (1, 1)


def test_the_roots_conversion_tables_are_read_once_and_kept(tmp_path: Path) -> None:
    """A table the search does not probe (here a conversion table, for the root's count
    verdict) is kept in memory once read: asked for again, it is not read again."""
    material = parse_key("KRvKM")
    values = np.full(table_size(4), 7, np.uint8)
    write_table(tmp_path / file_name(material, KIND), material, values, kind=KIND)
    tables = EngineTables(tmp_path, pages=1)
    first = tables.values(material, KIND)
    assert tables.reads == 1 and first.size == values.size and set(np.unique(first)) == {7}
    assert tables.values(material, KIND) is first and tables.reads == 1


def test_tables_are_probed_from_eight_pieces_down(tmp_path: Path) -> None:
    """A search of up to 8 pieces (REACH) probes the tables a capture can reach (here the
    packaged 3-piece ones); with 9 pieces none is within reach and none is probed."""
    tables = EngineTables(tmp_path, pages=1)
    eight = kradan.Board("8/8/3k4/pppp4/8/3K4/P7/R7 w - - 0 1")
    nine = kradan.Board("8/8/3k4/pppp4/8/3K4/PP6/R7 w - - 0 1")
    assert (len(eight.piece_map()), tables.prepare(eight)) == (8, 3)
    assert (len(nine.piece_map()), tables.prepare(nine)) == (9, 0)


def test_the_root_of_five_pieces_reads_its_own_table_when_there(tmp_path: Path) -> None:
    """The root's answer for a 5-piece position reads the tables its captures reach, with their
    conversion tables, and its own 5-piece table when that file exists; with 6 pieces, none."""
    board = kradan.Board("8/8/3k4/4m3/8/3K4/8/R6R w - - 0 1")
    reached = [("KRRvK", ""), ("KRvKM", ""), ("KMvK", ""), ("KRvK", ""), ("KRvKM", KIND)]
    absent = root_tables(board, lambda material: tmp_path / material.key)
    assert [(m.key, kind) for m, kind in absent] == reached
    present = root_tables(board, lambda material: tmp_path)
    assert [(m.key, kind) for m, kind in present] == [("KRRvKM", ""), *reached]
    six = kradan.Board("8/8/3k4/4m3/8/3K4/8/RR5R w - - 0 1")
    assert root_tables(six, lambda material: tmp_path) == []


def test_the_slab_evicts_the_least_recently_used_table(tmp_path: Path) -> None:
    """With one page, a second 4-piece table takes the first one's place and its slots."""
    for key, value in (("KRRvK", 1), ("KRvKM", 254)):  # all mates in 1 ply; all drawn
        material = parse_key(key)
        values = np.full(1 << 24, value, dtype=np.uint8)
        write_table(tmp_path / f"{key}.ktb", material, values)
    tables = EngineTables(tmp_path, pages=1)
    assert tables.prepare(kradan.Board("8/8/3k4/8/8/3K4/8/R6R w - - 0 1")) == 4
    first = signature("RR", "")
    assert tables.slots[first] >= 0
    assert tables.prepare(kradan.Board("8/8/3k4/4m3/8/3K4/8/R7 w - - 0 1")) == 4
    assert tables.slots[first] == -1 and tables.slots[signature("R", "M")] >= 0
    assert tables.slab.size == 4 * (1 << 18) + (1 << 24)  # the 3-piece MiB and one page
    board = kradan.Board("8/8/3k4/4m3/8/3K4/8/R7 w - - 0 40")
    assert kernel_value(tables, board) == 0  # the page now holds KRvKM's draws
    assert tables.value(board) == (0, None)


def test_each_three_piece_table_has_its_own_place_in_the_slab() -> None:
    """The four 3-piece tables sit side by side at the start of the slab: placing one never
    overwrites another, and each is read back as it was written."""
    slab = Slab(pages=1)
    small = table_size(3)
    keys = ["KRvK", "KSvK", "KNvK", "KMvK"]
    for value, key in enumerate(keys, start=1):
        assert slab.place(parse_key(key), np.full(small, value, dtype=np.uint8), ())
    assert sorted(slab.placed.values()) == [0, small, 2 * small, 3 * small]
    for value, key in enumerate(keys, start=1):
        table = slab.values(parse_key(key))
        assert table is not None and table.size == small and set(np.unique(table)) == {value}


def test_a_search_on_the_clock_never_waits_for_a_table(tmp_path: Path) -> None:
    """On the clock a table not yet in memory is read in the background, and the search
    probes it from the moment it is in place (its slots appear then); without a clock the
    search reads it first. Reading is held up here until the search has been prepared, so
    this shows that the preparation did not wait for it."""
    material = parse_key("KRRvK")
    write_table(tmp_path / "KRRvK.ktb", material, np.full(1 << 24, 1, dtype=np.uint8))
    board = kradan.Board("8/8/3k4/8/8/3K4/8/R6R w - - 0 1")
    tables = EngineTables(tmp_path)
    tables.prepare(kradan.Board("8/8/3k4/8/8/3K4/8/R7 w - - 0 1"))  # KRvK
    release = threading.Event()
    read = tables.load

    def held_up(material: Material, kind: str = "") -> np.ndarray:
        assert release.wait(60)
        return read(material, kind)

    tables.load = held_up  # type: ignore[method-assign]
    # 4: the search may probe KRRvK as soon as it arrives
    assert tables.prepare(board, wait=False) == 4
    assert tables.slots[signature("RR", "")] == -1 and tables.reads == 1
    release.set()
    assert tables.wait_loaded(60)
    assert tables.slots[signature("RR", "")] >= 0 and tables.reads == 2  # set by the loader
    assert tables.prepare(board, wait=False) == 4 and tables.reads == 2  # read: it stays
    # seven pieces, three captures from KRRvK: probed once read, not read for this position
    far = kradan.Board("8/2n5/3k4/2n5/8/3K4/2N5/R6R w - - 0 1")
    assert tables.prepare(far) == 4
    assert EngineTables(tmp_path).prepare(far) == 3
    # without a clock: read before the search
    fresh = EngineTables(tmp_path)
    assert fresh.prepare(board) == 4 and fresh.slots[signature("RR", "")] >= 0


def test_the_root_answers_from_the_tables(directory: Path) -> None:
    board = kradan.Board("8/8/3k4/8/8/3K4/8/R7 w - - 0 1")
    searcher = Searcher(1)
    searcher.use_tables(directory)
    found = Tablebase(directory).probe(board)
    result = searcher.best_move(board, Limit(depth=20))
    assert result.info is not None and result.info.nodes == 0
    assert result.move == found.best_move and result.info.score.mate == found.mate_moves
    assert result.info.pv[0] == found.best_move and len(result.info.pv) == 10
    # the count cuts the mate off: the fastest mate is still played, scored as a draw
    cut = kradan.Board("8/8/8/4k3/8/8/8/R3K3 b - 32 10 40")
    result = searcher.best_move(cut, Limit(depth=20))
    assert result.info is not None and result.info.score.cp == 0
    assert result.move == Tablebase(directory).probe(cut).best_move
    # without tables the search thinks
    searcher.use_tables(False)
    result = searcher.best_move(board, Limit(depth=3))
    assert result.info is not None and result.info.nodes > 0 and result.info.depth == 3


def test_the_search_reaches_a_table_through_a_capture(tmp_path: Path, directory: Path) -> None:
    """KR v KN without its own table: after the king takes the knight the KRvK table knows the
    mate, so a shallow search scores it as one; without tables it sees only material."""
    for path in directory.glob("K?vK.ktb"):
        (tmp_path / path.name).write_bytes(path.read_bytes())
    board = kradan.Board("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1")
    searcher = Searcher(1)
    searcher.use_tables(tmp_path)
    result = searcher.best_move(board, Limit(depth=4))
    assert result.info is not None and result.info.score.mate is not None
    assert result.info.score.mate > 0 and searcher.ctx[node.C_TB_HITS] > 0
    knight = kradan.parse_square("d2")
    assert any(move.to_square == knight for move in result.info.pv)  # the line takes it
    assert searcher.endgame_tables is not None and any(
        "KRvKN" in problem for problem in searcher.endgame_tables.problems
    )
    searcher.use_tables(False)
    result = searcher.best_move(board, Limit(depth=4))
    assert result.info is not None and result.info.score.mate is None


def test_uci_options(directory: Path) -> None:
    said: list[str] = []
    engine = UciEngine(said.append)
    engine.cmd_uci([])
    assert "option name EgtbPath type string default <default>" in said
    assert "option name EgtbProbeDepth type spin default 1 min 1 max 100" in said
    with pytest.raises(ValueError, match="no directory '/no/such/folder'"):
        engine.cmd_setoption(["name", "EgtbPath", "value", "/no/such/folder"])
    engine.cmd_setoption(f"name EgtbPath value {directory}".split())
    assert said[-1].startswith("info string endgame tables: 6 files in")
    engine.cmd_setoption(["name", "EgtbProbeDepth", "value", "3"])
    searcher = engine.searchers.chess
    assert isinstance(searcher, Searcher) and searcher.adapter.egtb_depth == 3
    assert searcher.endgame_tables is not None
    assert searcher.endgame_tables.directory == directory
    engine.cmd_setoption(["name", "EgtbPath", "value", "<empty>"])
    assert searcher.endgame_tables is None and said[-1] == "info string endgame tables: off"


def test_xboard_egtpath(directory: Path) -> None:
    said: list[str] = []
    engine = XBoardEngine(said.append)
    engine.cmd_protover("2")
    assert 'egt="kradan"' in said[-1]
    engine.cmd_egtpath(f"kradan {directory}")
    searcher = engine.searchers.chess
    assert isinstance(searcher, Searcher) and searcher.endgame_tables is not None
    assert searcher.endgame_tables.directory == directory
    with pytest.raises(ValueError, match="not 'syzygy'"):
        engine.cmd_egtpath("syzygy /tmp")


def test_a_missing_table_is_said_once_and_the_engine_plays_on(tmp_path: Path) -> None:
    """The KRvKN table is not there: UCI says so in one ``info string`` and still answers."""
    said: list[str] = []
    engine = UciEngine(said.append)
    engine.cmd_setoption(f"name EgtbPath value {tmp_path}".split())
    for _ in range(2):
        engine.cmd_position(["fen", "8/8/8/4k3/8/8/3n4/R3K3", "w", "-", "-", "0", "1"])
        engine.cmd_go(["depth", "2"])
        engine.wait()
    news = [line for line in said if line.startswith("info string endgame tables: ")]
    assert len([line for line in news if "KRvKN" in line]) == 1, news
    assert sum(line.startswith("bestmove ") for line in said) == 2
