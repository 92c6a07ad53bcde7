"""Endgame tables (kradan.egtb): generated values against kradan's own move generator and a
brute-force search, known results, the file format, symmetry, the count, and the command line.

The 3-piece tables are generated afresh here (well under a second); one 4-piece table (KRvKN)
and its conversion table are generated once for the module.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import kradan
from kradan.cli.main import main
from kradan.egtb import (
    CorruptTableError,
    MissingTableError,
    Tablebase,
    TablebaseError,
    all_materials,
    parse_key,
    probe,
)
from kradan.egtb.conversion import KIND, OUK_KIND, fresh_count_plies
from kradan.egtb.generate import children_of, generate, verify
from kradan.egtb.index import index_of, table_size
from kradan.egtb.material import Material, build_order, canonical, capture_child
from kradan.egtb.stats import table_stats
from kradan.egtb.storage import read_table, write_table
from kradan.egtb.tables import PACKAGED

DRAW, ILLEGAL = 254, 255


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Tablebase:
    """The 3-piece tables, KRvKN and its conversion tables (Makruk's and Ouk's), generated into
    a fresh directory."""
    directory = tmp_path_factory.mktemp("egtb")
    base = Tablebase(directory)
    generate(3, directory, load=base.values)
    from kradan.egtb.generate import generate_one

    generate_one(parse_key("KRvKN"), directory, load=base.values)
    generate_one(parse_key("KRvKN"), directory, load=base.values, kind=KIND)
    generate_one(parse_key("KRvKN"), directory, load=base.values, kind=OUK_KIND)
    return Tablebase(directory)


def decode(index: int, pieces: int) -> tuple[int, list[int]]:
    """The inverse of :func:`index_of`, written out separately."""
    squares = []
    for _ in range(pieces - 1):
        squares.append(index % 64)
        index //= 64
    king = index % 32
    return index // 32, [(king // 4) * 8 + king % 4, *reversed(squares)]


def fen_of(material: Material, stm: int, squares: list[int], *, flip: bool = False) -> str:
    """A FEN with the table's pieces on ``squares``; ``flip`` swaps the colours and turns the
    board upside down (the same position seen from the other side)."""
    letters = "KK" + material.letters()
    colours = [True, False] + [True] * len(material.white) + [False] * len(material.black)
    board: dict[int, str] = {}
    for letter, white, square in zip(letters, colours, squares, strict=True):
        if flip:
            white, square = not white, square ^ 56
        board[square] = letter if white else letter.lower()
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get(rank * 8 + file)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    side = "wb"[stm ^ int(flip)]
    return f"{'/'.join(rows)} {side} - - 0 1"


def sample(values: np.ndarray, material: Material, count: int, seed: int) -> list[int]:
    """``count`` random indices of legal positions."""
    rng = np.random.default_rng(seed)
    found: list[int] = []
    while len(found) < count:
        picks = rng.integers(0, values.size, size=count * 2)
        found += [int(i) for i in picks if values[i] != ILLEGAL]
    return found[:count]


# --- material and index -------------------------------------------------------------------------


def test_the_tables_of_three_and_four_pieces() -> None:
    assert [m.key for m in all_materials(3)] == ["KMvK", "KNvK", "KRvK", "KSvK"]
    four = [m.key for m in all_materials(4)]
    assert len(four) == 20 and "KRvKN" in four and "KSSvK" in four and "KNvKS" not in four
    assert canonical("N", "S") == (Material("S", "N"), True)
    assert canonical("R", "R") == (Material("R", "R"), False)
    assert parse_key("knvks").key == "KSvKN"
    with pytest.raises(ValueError, match="at most 5"):
        parse_key("KRRRvKR")


def test_a_capture_leads_to_the_right_table() -> None:
    # KRvKN: the knight (slot 3) taken -> KRvK as it stands; the rook taken -> KNvK flipped,
    # whose White king is this table's Black king
    assert capture_child(parse_key("KRvKN"), 3) == (Material("R", ""), False, [0, 1, 2])
    assert capture_child(parse_key("KRvKN"), 2) == (Material("N", ""), True, [1, 0, 3])
    assert capture_child(parse_key("KSvK"), 2) == (None, False, [])


def test_the_python_index_is_the_kernels() -> None:
    from kradan.egtb import _kernel

    rng = random.Random(1)
    for pieces in (3, 4, 5):
        assert _kernel.table_size(pieces) == table_size(pieces)
        for _ in range(200):
            squares = rng.sample(range(64), pieces)
            stm = rng.randrange(2)
            index = index_of(stm, squares)
            array = np.array(squares, dtype=np.int64)
            assert _kernel.encode(stm, array, pieces) == index
            back = np.zeros(pieces, dtype=np.int64)
            assert _kernel.decode(index, back, pieces) == stm
            mirrored = [s ^ 7 for s in squares] if squares[0] & 7 >= 4 else squares
            assert list(back) == mirrored == decode(index, pieces)[1]


# --- the values against kradan's own rules ------------------------------------------------------


def _check_against_board(tables: Tablebase, material: Material, count: int) -> None:
    """Each sampled value is what kradan.Board's legal moves and the tables' values of the
    positions after them say: mate, stalemate, and the fastest win or slowest loss."""
    values = tables.values(material)
    for index in sample(values, material, count, seed=len(material.key)):
        stm, squares = decode(index, material.pieces)
        board = kradan.Board(fen_of(material, stm, squares))
        value = int(values[index])
        moves = list(board.legal_moves)
        if not moves:
            assert value == (0 if board.is_checkmate() else DRAW), board.fen()
            assert board.is_checkmate() or board.is_stalemate()
            continue
        children = []
        for move in moves:
            board.push(move)
            wdl, dtm = tables.value(board)
            board.pop()
            children.append((wdl, dtm))
        losses = [dtm for wdl, dtm in children if wdl < 0]
        if losses:
            expected = 1 + min(d for d in losses if d is not None)
        elif all(wdl > 0 for wdl, _ in children):
            expected = 1 + max(d for _, d in children if d is not None)
        else:
            expected = DRAW
        assert value == expected, board.fen()


@pytest.mark.parametrize("key", ["KRvK", "KSvK", "KMvK", "KNvK"])
def test_three_piece_values_agree_with_the_move_generator(tables: Tablebase, key: str) -> None:
    _check_against_board(tables, parse_key(key), 600)


def test_a_four_piece_table_agrees_with_the_move_generator(tables: Tablebase) -> None:
    _check_against_board(tables, parse_key("KRvKN"), 400)


#: the long check of issue 14 ("10,000 random positions per table"): set to a directory that
#: holds the generated tables, e.g. ``KRADAN_EGTB_CHECK_DIR=~/.local/share/kradan/egtb``
CHECK_DIR = os.environ.get("KRADAN_EGTB_CHECK_DIR")
CHECK_SAMPLES = int(os.environ.get("KRADAN_EGTB_CHECK_SAMPLES", "10000"))


@pytest.mark.skipif(
    CHECK_DIR is None,
    reason="the 10,000-positions-per-table check runs on generated 4-piece tables: set "
    "KRADAN_EGTB_CHECK_DIR to their directory (a long run, not CI)",
)
@pytest.mark.parametrize("material", build_order(4), ids=lambda m: m.key)
def test_every_table_agrees_with_the_move_generator_at_scale(material: Material) -> None:
    tables = Tablebase(CHECK_DIR)
    if not tables.path(material).exists() and material.pieces > 3:
        pytest.skip(f"{material.key} is not in {CHECK_DIR}")
    _check_against_board(tables, material, CHECK_SAMPLES)


def test_every_value_agrees_with_its_successors(tables: Tablebase) -> None:
    """The compiled verification pass: every position of the 3-piece tables and KRvKN."""
    for material in [*all_materials(3), parse_key("KRvKN")]:
        values = tables.values(material)
        assert verify(material, values, children_of(material, tables.values)) == []
    krkn = parse_key("KRvKN")
    for kind in (KIND, OUK_KIND):
        conversion = tables.values(krkn, kind)
        assert verify(krkn, conversion, children_of(krkn, tables.values), kind) == []
    # and it notices a wrong value
    krk = tables.values(parse_key("KRvK")).copy()
    index = int(np.flatnonzero(krk == 11)[0])
    krk[index] = 13
    assert index in verify(parse_key("KRvK"), krk, {})


def test_the_shipped_tables_are_the_generated_ones(tables: Tablebase) -> None:
    for material in all_materials(3):
        shipped = read_table(PACKAGED / f"{material.key}.ktb", material)
        assert np.array_equal(shipped, tables.values(material))


def _mate_within(board: kradan.Board, plies: int) -> int | None:
    """Brute force: the fewest plies (at most ``plies``) in which the side to move mates, as a
    positive number; as a negative one those in which it is mated whatever it does."""
    moves = list(board.legal_moves)
    if not moves:
        return 0 if board.is_checkmate() else None
    if plies == 0:
        return None
    wins, losses = [], []
    for move in moves:
        board.push(move)
        result = _mate_within(board, plies - 1)
        board.pop()
        if result is not None and result <= 0:
            wins.append(1 - result)  # the opponent is mated in -result plies
        elif result is not None:
            losses.append(result + 1)
    if wins:
        return min(wins)
    return -max(losses) if len(losses) == len(moves) else None


@pytest.mark.parametrize("key", ["KRvK", "KSvK"])
def test_short_mates_agree_with_brute_force(tables: Tablebase, key: str) -> None:
    material = parse_key(key)
    values = tables.values(material)
    short = [int(i) for i in np.flatnonzero(values <= 3)]
    rng = random.Random(7)
    picks = rng.sample(short, 40) + sample(values, material, 20, seed=3)
    for index in picks:
        stm, squares = decode(index, material.pieces)
        board = kradan.Board(fen_of(material, stm, squares))
        value = int(values[index])
        found = _mate_within(board, 3)
        if value <= 3:
            assert found == (value if value % 2 else -value), board.fen()
        else:
            assert found is None or found == 0, board.fen()


# --- known results (/work/shared/research/egtb-facts.md) ---------------------------------------


def _white_wins(values: np.ndarray, stm: int) -> float:
    half = values[stm * values.size // 2 : (stm + 1) * values.size // 2]
    legal = half[half != ILLEGAL]
    wins = (legal < DRAW) & (legal % 2 == (1 if stm == 0 else 0))
    return 100 * float(wins.sum()) / legal.size


def test_known_results(tables: Tablebase) -> None:
    krk = tables.values(parse_key("KRvK"))
    assert (int(krk[krk < DRAW].max()) + 1) // 2 == 16  # the longest mate: 16 moves
    assert _white_wins(krk, 0) == 100.0
    assert round(_white_wins(krk, 1), 2) == 90.07
    ksk = tables.values(parse_key("KSvK"))
    assert (int(ksk[ksk < DRAW].max()) + 1) // 2 == 4
    assert round(_white_wins(ksk, 0), 2) == 0.08
    for key in ("KMvK", "KNvK"):
        assert not (tables.values(parse_key(key)) < DRAW).any()
    krkn = tables.values(parse_key("KRvKN"))
    assert (int(krkn[krkn < DRAW].max()) + 1) // 2 == 40
    assert round(_white_wins(krkn, 0), 2) == 48.34
    assert round(_white_wins(krkn, 1), 2) == 10.89


# --- symmetry -----------------------------------------------------------------------------------


def test_colour_flip_and_mirror_give_the_same_answer(tables: Tablebase) -> None:
    for key in ("KSvK", "KRvKN"):
        material = parse_key(key)
        values = tables.values(material)
        for index in sample(values, material, 60, seed=11):
            stm, squares = decode(index, material.pieces)
            plain = tables.value(kradan.Board(fen_of(material, stm, squares)))
            flipped = tables.value(kradan.Board(fen_of(material, stm, squares, flip=True)))
            mirrored = [s ^ 7 for s in squares]
            mirror = tables.value(kradan.Board(fen_of(material, stm, mirrored)))
            assert plain == flipped == mirror
    # the khon breaks the up-down symmetry: stepping forward it mates, its mirror image cannot
    up = probe(kradan.Board("k7/8/1KS5/8/8/8/8/8 w - - 0 1"))
    assert up.wdl == 1 and up.dtm == 1 and up.best_move == kradan.Move.from_uci("c6b7")
    assert probe(kradan.Board("8/8/8/8/8/1KS5/8/k7 w - - 0 1")).wdl == 0


# --- files --------------------------------------------------------------------------------------


def test_a_damaged_file_is_refused(tables: Tablebase, tmp_path: Path) -> None:
    material = parse_key("KRvK")
    values = tables.values(material)
    path = tmp_path / "KRvK.ktb"
    write_table(path, material, values)
    assert np.array_equal(read_table(path, material), values)
    blob = bytearray(path.read_bytes())
    blob[-20] ^= 0xFF
    path.write_bytes(bytes(blob))
    with pytest.raises(CorruptTableError, match="damaged"):
        read_table(path, material)
    path.write_bytes(b"KRADANTB")
    with pytest.raises(CorruptTableError, match="damaged"):
        Tablebase(tmp_path).probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1"))
    write_table(path, material, values)
    with pytest.raises(CorruptTableError, match="holds 'KRvK'"):
        read_table(path, parse_key("KSvK"))
    # the checksum covers the values: another table's values under the right header fail too
    other = tmp_path / "other.ktb"
    write_table(other, material, np.where(values == 0, 1, values).astype(np.uint8))
    header = 8 + 2 + 1 + len("KRvK") + 1 + 8 + 32
    path.write_bytes(path.read_bytes()[:header] + other.read_bytes()[header:])
    with pytest.raises(CorruptTableError, match="checksum"):
        read_table(path, material)


def test_a_missing_table_is_a_clear_error(tmp_path: Path) -> None:
    board = kradan.Board("8/8/8/4k3/8/8/8/RR2K3 b - - 0 1")
    with pytest.raises(MissingTableError, match=r"KRRvK.*kradan egtb generate --pieces 4"):
        Tablebase(tmp_path).probe(board)
    # the packaged 3-piece tables answer without any file in the directory
    assert Tablebase(tmp_path).probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1")).wdl == 1


def test_a_missing_table_can_be_built_on_first_use(tmp_path: Path) -> None:
    board = kradan.Board("8/8/3k4/8/3n4/8/3S4/3K4 w - - 0 1")
    found = Tablebase(tmp_path, generate_missing=True).probe(board)
    assert (tmp_path / "KSvKN.ktb").exists() and found.table == "KSvKN"
    assert Tablebase(tmp_path).probe(board) == found


def test_positions_the_tables_do_not_cover(tmp_path: Path) -> None:
    with pytest.raises(TablebaseError, match="pawnless"):
        probe(kradan.Board("8/8/8/4k3/8/4P3/8/R3K3 w - - 0 1"), directory=tmp_path)
    with pytest.raises(TablebaseError, match="at most 5"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/RRSNK3 w - - 0 1"), directory=tmp_path)
    with pytest.raises(TablebaseError, match=r"not Kar Ouk \(the first check wins there\)"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", variant="karouk"))
    with pytest.raises(TablebaseError, match="every piece on the board"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3[F] w - - 0 1", variant="sittuyin"))
    with pytest.raises(TablebaseError, match="Ouk positions without leap rights"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/R2K4 w D - 0 1", variant="cambodian"))
    with pytest.raises(TablebaseError, match="sut_khun"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/R2K4 w D - 0 1", sut_khun=True))
    assert probe(kradan.Board("8/8/8/4k3/8/8/8/R2K4 w - - 0 1", sut_khun=True)).wdl == 1
    with pytest.raises(TablebaseError, match="stalemate"):
        probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", stalemate="stalemater_loses"))
    assert probe(kradan.Board("8/8/8/4k3/8/8/8/4K3 w - - 0 1")).table == "KvK"


# --- the count ----------------------------------------------------------------------------------


def _decided_by_rules(board: kradan.Board, plies: int) -> int:
    """Brute force with kradan's own game end (the count included): 1 when the side to move
    mates within ``plies``, -1 when it is mated, 0 otherwise."""
    outcome = board.outcome()
    if outcome is not None:
        if outcome.winner is None:
            return 0
        return 1 if outcome.winner == board.turn else -1
    if plies == 0:
        return 0
    results = []
    for move in list(board.legal_moves):
        board.push(move)
        results.append(-_decided_by_rules(board, plies - 1))
        board.pop()
    return max(results)


@pytest.mark.parametrize(
    ("fen", "result", "moves_left"),
    [
        ("k7/8/1K6/8/8/8/8/7R w - 32 31 40", 1, 1),  # mate with the last counted move
        ("k7/8/1K6/8/8/8/8/7R w - 32 33 40", 0, 0),  # the count has run out
        ("8/8/8/4k3/8/8/8/R3K3 b - 32 10 40", 0, 11),  # mated in 14, 11 moves left: a draw
        ("8/8/8/4k3/8/8/8/R3K3 b - 32 6 40", 0, 13),  # even a fresh count is too short
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 40", 1, 14),  # none yet: 13 + White's first move
        ("1k6/8/1K6/8/8/8/8/7R b - 32 28 40", 1, 2),  # mated in 2 moves with 2 left
        ("1k6/8/1K6/8/8/8/8/7R b - 32 30 40", 0, 1),  # ... one move left: a draw
        ("1k6/8/2K5/8/8/8/8/7R w - 32 29 40", 1, 2),  # mate in 2 with 2 left
        ("1k6/8/2K5/8/8/8/8/7R w - 32 31 40", 0, 1),  # ... with 1 left: a draw
    ],
)
def test_the_count_decides(fen: str, result: int, moves_left: int) -> None:
    board = kradan.Board(fen)
    found = probe(board)
    assert found.count is not None and found.count.exact
    assert found.count.moves_left == moves_left
    assert abs(found.result) == result
    state = board.counting_state()
    if state is not None and found.wdl != 0:
        winner = board.turn if found.wdl > 0 else not board.turn
        if winner != state.counting_side:
            assert state.moves_left == moves_left
    if found.dtm is not None and found.dtm <= 3:  # kradan's own game end agrees
        assert _decided_by_rules(board, 3) == found.result


def test_the_count_texts() -> None:
    assert str(probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 b - 32 10 40"))) == (
        "draw: the count runs out first (mated in 14 (28 plies, KRvK), the count allows 11; "
        "pieces' honour)"
    )
    win = probe(kradan.Board("k7/8/1K6/8/8/8/8/7R w - 32 31 40"))
    assert str(win) == "win: mate in 1 (1 plies, KRvK), the count allows 1 (pieces' honour)"
    assert probe(kradan.Board("8/8/8/4k3/8/8/8/S3K3 w - - 0 1")).count is None


def test_a_fresh_count_is_what_kradan_starts() -> None:
    """The conversion tables' fresh count: after a capture that leaves a lone king, the
    stronger side has 2L + 1 - 2N plies (docs/rules.md 2.6.2), read from kradan's own board."""
    for letter, limit in (("R", 16), ("S", 44), ("N", 64), ("M", 64)):
        board = kradan.Board(f"8/8/8/4k3/8/8/3n4/{letter}3K3 w - 128 10 1")
        board.push_uci("e1d2")  # the king takes the knight: Black is a lone king
        limit_plies, ply = board.counting_fields()
        assert limit_plies == 2 * limit and ply == 6
        expected = fresh_count_plies(Material(letter, ""))
        assert limit_plies + 1 - ply == expected == 2 * limit + 1 - 6


def _play_out(tables: Tablebase, fen: str) -> kradan.Outcome:
    """Both sides play the probe's best move until kradan's own rules end the game."""
    board = kradan.Board(fen)
    while board.outcome() is None:
        move = tables.probe(board).best_move
        assert move is not None
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    return outcome


def test_board_honour_is_exact_with_the_conversion_table(tables: Tablebase) -> None:
    # 5 moves left of board's honour: the fastest mate (15 moves) does not fit, but taking the
    # knight within 3 plies starts pieces' honour, whose 13 moves the KRvK mate fits
    fen = "8/8/8/4k3/8/8/3n4/R3K3 w - 128 120 1"
    found = tables.probe(kradan.Board(fen))
    assert found.table == "KRvKN" and found.dtm == 29 and found.result == 1
    assert found.count is not None and found.count.exact and found.count.needed == 3
    assert "a capture within 3 plies" in str(found)
    outcome = _play_out(tables, fen)
    assert outcome.termination is kradan.Termination.CHECKMATE and outcome.winner is True
    # 65 moves left, the mate takes 16, yet it is a draw: White must take the knight, and
    # every KRvK position that leaves takes longer than the new count's 13 moves
    fen = "8/8/8/8/8/8/8/K1k1nR2 w - 128 0 1"
    found = tables.probe(kradan.Board(fen))
    assert found.wdl == 1 and found.dtm == 31 and found.result == 0
    assert found.count is not None and found.count.exact and found.count.needed is None
    assert "every win passes a capture" in str(found)
    outcome = _play_out(tables, fen)
    assert outcome.termination is kradan.Termination.COUNTING_LIMIT
    # no count running: board's honour starts after the first move
    fresh = tables.probe(kradan.Board("8/8/8/4k3/8/8/3n4/R3K3 w - - 0 1"))
    assert fresh.count is not None and fresh.count.honour == "board's honour"
    assert fresh.count.exact


def test_with_no_count_yet_the_best_move_is_the_one_that_wins_within_the_count(
    tables: Tablebase,
) -> None:
    """Found by benchmarks/egtb_convert.py: with no count running, the fastest mate here takes
    the knight at once (Kxa4), which starts a pieces'-honour count the KRvK mate does not fit.
    The probe's move must be one after which the win stands under the count."""
    fen = "5R2/8/8/1K6/n7/8/4k3/8 w - - 0 1"
    board = kradan.Board(fen)
    found = tables.probe(board)
    assert found.result == 1 and found.best_move is not None
    assert found.best_move.uci() != "b5a4"
    board.push_uci("b5a4")
    assert tables.probe(board).result == 0  # the capture throws the win away
    outcome = _play_out(tables, fen)
    assert outcome.termination is kradan.Termination.CHECKMATE and outcome.winner is True


def test_board_honour_without_the_conversion_table_is_flagged(
    tables: Tablebase, tmp_path: Path
) -> None:
    material = parse_key("KRvKN")
    write_table(tmp_path / "KRvKN.ktb", material, tables.values(material))
    found = Tablebase(tmp_path).probe(kradan.Board("8/8/8/4k3/8/8/3n4/R3K3 w - 128 0 1"))
    assert found.count is not None and not found.count.exact and "not exact" in str(found)
    assert found.count.moves_left == 65  # White counts too: its move at ply 128 may still mate


# --- Ouk Chatrang: the same tables once no leap rights remain (docs/rules.md 3.2, 3.3) ------------


@pytest.mark.parametrize(
    ("fen", "result", "moves_left"),
    [
        # Ouk's pieces' honour is one move shorter (a rook: 15 moves, the limit field 30)
        ("k7/8/1K6/8/8/8/8/7R w - 30 29 40", 1, 1),
        ("k7/8/1K6/8/8/8/8/7R w - 30 31 40", 0, 0),  # Makruk's "32 31" still mates
        ("8/8/8/4k3/8/8/8/R3K3 b - 30 2 40", -1, 14),  # mated in 14 with 14 left
        ("8/8/8/4k3/8/8/8/R3K3 b - 30 4 40", 0, 13),  # Makruk's "32 4" is still lost
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 40", 0, 13),  # no count yet: Makruk gives 14
    ],
)
def test_ouk_reads_the_tables_under_its_own_count(fen: str, result: int, moves_left: int) -> None:
    board = kradan.Board(fen, variant="cambodian")
    found = probe(board)
    assert found.count is not None and found.count.exact
    assert (found.result, found.count.moves_left) == (result, moves_left)
    if found.dtm is not None and found.dtm <= 3:
        assert _decided_by_rules(board, 3) == found.result


def _random_counted(tables: Tablebase, key: str, variant: str, count: int, seed: int) -> list[str]:
    """FENs of random legal ``key`` positions of ``variant`` with board's honour running."""
    material = parse_key(key)
    values = tables.values(material)
    rng = random.Random(seed)
    fens: list[str] = []
    limit = 126 if variant == "cambodian" else 128
    while len(fens) < count:
        index = rng.randrange(values.size)
        if values[index] >= DRAW:
            continue
        stm, squares = decode(index, material.pieces)
        fen = fen_of(material, stm, squares).replace(
            "- - 0 1", f"- {limit} {rng.randrange(limit)} 1"
        )
        if kradan.Board(fen, variant=variant).outcome() is None:
            fens.append(fen)
    return fens


# --- Sittuyin: the sit-ke read as a met, its count and its 50-move rule (docs/rules.md 5.6) -------


@pytest.mark.parametrize(
    ("fen", "table", "result", "exact", "words"),
    [
        # no count yet: it starts at 0 once the lone king is to move, 16 moves for a rook
        ("8/8/3k4/8/8/3K4/8/R7[] w - - 0 1", "KRvK", 1, True, "the count allows 17"),
        ("8/8/8/4k3/8/8/8/R3K3[] b - 32 10 40", "KRvK", 0, True, "the count allows 11"),
        # 10 plies left on the 50-move clock, the mate takes 23: a draw, unless a capture
        # resets the clock, which the tables cannot see
        ("8/8/3k4/8/8/3K4/8/R7[] w - - 90 70", "KRvK", 0, False, "the 50-move rule comes first"),
        ("8/8/3k4/8/8/3K4/8/R7[] w - - 70 70", "KRvK", 1, True, "mate in 12"),
        # the sit-ke moves as the met: K+F v K is the KMvK table, a draw
        ("8/8/3k4/8/8/3K4/8/F7[] w - - 0 1", "KMvK", 0, True, "draw (KMvK)"),
    ],
)
def test_sittuyin_reads_the_tables_under_its_count_and_50_move_rule(
    fen: str, table: str, result: int, exact: bool, words: str
) -> None:
    board = kradan.Board(fen, variant="sittuyin")
    found = probe(board)
    assert (found.table, found.result) == (table, result)
    assert found.count is None or found.count.exact == exact
    assert words in str(found)


def test_a_sittuyin_ending_played_out_with_the_probe_is_mate() -> None:
    fen = "8/8/3k4/8/8/3K4/8/R7[] w - - 0 1"
    board = kradan.Board(fen, variant="sittuyin")
    while board.outcome(claim_draw=True) is None:
        move = probe(board).best_move
        assert move is not None
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is kradan.Termination.CHECKMATE


@pytest.mark.parametrize("variant", ["makruk", "cambodian"])
def test_two_sided_counts_play_out_as_the_probe_says(tables: Tablebase, variant: str) -> None:
    """KR v KN under a running board's honour, each game's conversion table: both sides play the
    probe's move until kradan's own rules end the game; a win is a mate, a draw no mate."""
    results = []
    for fen in _random_counted(tables, "KRvKN", variant, 12, seed=11):
        board = kradan.Board(fen, variant=variant)
        found = tables.probe(board)
        assert found.count is not None and found.count.exact, fen
        winner = board.turn if found.result > 0 else not board.turn
        while board.outcome() is None:
            move = tables.probe(board).best_move
            assert move is not None
            board.push(move)
        outcome = board.outcome()
        assert outcome is not None
        if found.result == 0:
            assert outcome.winner is None, fen
        else:
            assert outcome.termination is kradan.Termination.CHECKMATE, fen
            assert outcome.winner == winner, fen
        results.append(found.result)
    assert 0 in results and any(results)  # both verdicts were put to the test


def _winner_moves_before_the_count_draws(board: kradan.Board, winner: bool) -> int:
    """Play quiet moves (no capture, no check) for both sides until kradan's rules draw the
    game by the count; how many moves the winner made meanwhile."""
    made = 0
    while board.outcome() is None:
        quiet = [move for move in board.legal_moves
                 if not board.is_capture(move) and not board.gives_check(move)]  # fmt: skip
        assert quiet, board.fen()
        made += board.turn == winner
        board.push(quiet[0])
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is kradan.Termination.COUNTING_LIMIT
    return made


@pytest.mark.parametrize("ply", [114, 119, 120, 123, 124])
def test_a_declared_board_honour_count_ends_where_the_rules_end_it(
    tables: Tablebase, ply: int
) -> None:
    """Issue 49's gap, docs/rules.md 2.6.4: a declared board's-honour count draws
    when its counter completes its 64th move (counting ply L - 1), not at L + 1 as the other
    counts do.
    The table's verdict leaves the winner exactly the moves kradan's own rules leave it."""
    fen = f"k7/8/1K6/8/8/8/6n1/7R {'b' if ply % 2 == 0 else 'w'} - 128 {ply} 1"
    board = kradan.Board(fen, counting="declared")
    state = board.counting_state()
    assert state is not None and state.honour == "board's honour"
    assert state.counting_side is False  # Black (the knight) counts: the winner does not
    found = tables.probe(board)
    assert found.count is not None and found.count.exact
    assert found.count.moves_left == state.moves_left
    assert found.count.moves_left == _winner_moves_before_the_count_draws(board.copy(), True)


def test_declared_counting_without_a_count_leaves_the_result() -> None:
    found = probe(kradan.Board("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", counting="declared"))
    assert found.count is None and found.result == 1


# --- the command line and imports ---------------------------------------------------------------


def test_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["egtb", "generate", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "KRvK" in out and "4 tables" in out
    assert len(list(tmp_path.glob("*.ktb"))) == 4
    assert main(["egtb", "verify", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    assert "4 tables checked, 0 with errors" in capsys.readouterr().out
    fen = "8/8/8/4k3/8/8/8/R3K3 b - 32 10 40"
    assert main(["egtb", "probe", fen, "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "draw: the count runs out first" in out and "best move: Kd4" in out
    assert main(["egtb", "probe", "8/8/8/4k3/8/8/8/RR2K3 w - - 0 1", "--dir", str(tmp_path)]) == 2
    assert "kradan egtb generate --pieces 4" in capsys.readouterr().err
    ouk = "8/8/8/4k3/8/8/8/R3K3 b - 30 4 40"
    assert main(["egtb", "probe", ouk, "--variant", "cambodian", "--dir", str(tmp_path)]) == 0
    assert "the count allows 13" in capsys.readouterr().out
    assert main(["egtb", "stats", "--pieces", "3", "--dir", str(tmp_path)]) == 0
    rows = {line.split(" | ")[0].strip("| "): line for line in capsys.readouterr().out.splitlines()}
    assert set(rows) >= {"KRvK", "KSvK", "KMvK", "KNvK"}
    # Makruk's fresh count leaves 13 moves, Ouk's 12 (docs/rules.md 2.6.2, 3.3)
    assert "| 16 - 3 = 13 | 12.73% / 28.12% | 15 - 3 = 12 | 22.90% / 44.73% |" in rows["KRvK"]
    assert main(["egtb", "stats", "--pieces", "3", "--dir", str(tmp_path / "none")]) == 0


def test_the_statistics_of_a_two_sided_table(tables: Tablebase) -> None:
    """KR v KN: the share of White's wins that board's honour turns into draws comes from each
    game's conversion table, and Ouk's shorter fresh count takes more of them."""
    material = parse_key("KRvKN")
    found = table_stats(
        material, tables.values(material), lambda kind: tables.values(material, kind)
    )
    assert found.longest == (40, 40)
    assert found.counts["makruk"][0] == "64 (board's)"
    makruk, ouk = found.counts["makruk"][1], found.counts["cambodian"][1]
    assert makruk is not None and ouk is not None
    assert [round(100 * x, 1) for x in makruk] == [23.8, 25.6]  # docs/egtb.md, "Results"
    assert ouk[0] > makruk[0] and ouk[1] > makruk[1]


def test_importing_loads_no_compiled_code() -> None:
    code = (
        "import sys, kradan.egtb, kradan.cli.main;"
        "print([m for m in sys.modules if m.endswith('_kernel') or m == 'numba'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "kradan.egtb._kernel" not in out.stdout


def test_with_no_count_yet_the_loser_escapes_into_a_count_that_runs_out(
    tables: Tablebase,
) -> None:
    """docs/rules.md 2.6: before any count runs, the losing side's best move is one after which
    the count runs out before the winner can convert, rather than the longest resistance by the
    distance to mate (KR v KN: of Black's moves only Ke2 escapes; Kf2 resists as long)."""
    board = kradan.Board("8/1n6/8/6R1/8/8/2K5/4k3 b - - 0 1")
    found = tables.probe(board)
    assert found.wdl == -1 and found.best_move == board.parse_uci("e1e2")
    escapes = []
    for move in list(board.legal_moves):
        board.push(move)
        child = tables.probe(board).count
        board.pop()
        assert child is not None
        if not child.fits:
            escapes.append(move.uci())
    assert escapes == ["e1e2"]
