"""The search's parts on their own (issue 16): the static exchange evaluation, the two-way
transposition table, the move ordering with its histories, and the contempt for draws."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kradan import Board
from kradan.engine import Limit, Searcher
from kradan.engine.kernels import ordering as O
from kradan.engine.kernels import transposition as T
from kradan.engine.kernels.exchange import exchange_at_least, exchange_value, loses_material
from kradan.engine.searchers import Searchers


def _exchange(fen: str, uci: str) -> int:
    board = Board(fen)
    bbs, info = board.kernel_arrays()
    code = board.encode_move(board.parse_uci(uci))
    assert code is not None
    return int(exchange_value(bbs, info, code))


@pytest.mark.parametrize(
    ("fen", "uci", "value", "why"),
    [
        ("4k3/8/8/3p4/2n5/1P6/8/4K3 w - - 0 1", "b3c4", 320 - 100, "pawn takes a defended knight"),
        ("4k3/8/8/3p4/2p5/8/8/2R1K3 w - - 0 1", "c1c4", 100 - 520, "rook takes a defended pawn"),
        ("4k3/8/8/8/2p5/8/8/2R1K3 w - - 0 1", "c1c4", 100, "rook takes a loose pawn"),
        ("2r1k3/8/8/2p5/8/8/2R5/2R1K3 w - - 0 1", "c2c5", 100, "the rook behind comes in"),
        ("2r1k3/8/8/2p5/8/8/2R5/4K3 w - - 0 1", "c2c5", 100 - 520, "no rook behind"),
        ("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1c3", -320, "a knight steps where a pawn takes it"),
        ("4k3/8/8/8/3p4/8/8/1N2K3 w - - 0 1", "b1a3", 0, "a knight steps where it is safe"),
        ("4k3/8/8/2P5/8/8/8/4K3 w - - 0 1", "c5c6m", 220 - 100, "a safe promotion makes a met"),
        ("4k3/8/7r/2P5/8/8/8/4K3 w - - 0 1", "c5c6m", -100, "the new met is taken"),
        ("4k3/8/8/3p4/2p5/8/8/2K5 w - - 0 1", "c1c2", 0, "a king's quiet step"),
    ],
)
def test_exchange_value(fen: str, uci: str, value: int, why: str) -> None:
    assert _exchange(fen, uci) == value, why


def test_a_king_never_recaptures_into_an_attack() -> None:
    # the black king defends d5, but the rook behind on d1 would take the king: it cannot
    assert _exchange("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100
    assert _exchange("8/8/4k3/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5") == 100 - 520


@pytest.mark.parametrize("game", ["makruk", "cambodian", "sittuyin"])
def test_the_threshold_test_agrees_with_the_exchange_value(game: str) -> None:
    """``exchange_at_least(move, t)`` is ``exchange_value(move) >= t`` for every legal move of
    random games and thresholds on either side of the piece values (the search asks only the
    threshold question, without building the list of captures)."""
    rng = random.Random(7)
    thresholds = (-1000, -521, -520, -300, -221, -220, -100, -1, 0, 1, 100, 220, 320, 520, 620)
    asked = 0
    for _game in range(12):
        board = Board(variant=game)
        for _ply in range(rng.randrange(20, 100)):
            moves = list(board.legal_moves)
            if not moves:
                break
            bbs, info = board.kernel_arrays()
            for move in moves:
                code = board.encode_move(move)
                value = exchange_value(bbs, info, code)
                for threshold in thresholds:
                    assert exchange_at_least(bbs, info, code, threshold) == (value >= threshold), (
                        board.fen(), move.uci(), value, threshold
                    )  # fmt: skip
                    asked += 1
            board.push(rng.choice(moves))
    assert asked > 10_000


def test_loses_material_only_for_losing_captures() -> None:
    board = Board("4k3/8/8/3p4/2p5/1P6/8/2R1K3 w - - 0 1")
    bbs, info = board.kernel_arrays()
    rook_takes = board.encode_move(board.parse_uci("c1c4"))
    pawn_takes = board.encode_move(board.parse_uci("b3c4"))
    assert loses_material(bbs, info, rook_takes)
    assert not loses_material(bbs, info, pawn_takes)


def _table(entries: int = 1024) -> tuple[np.ndarray, np.ndarray]:
    return np.zeros(entries, dtype=np.uint64), np.full(entries, -1, dtype=np.int64)


def test_table_round_trip() -> None:
    keys, data = _table()
    key = np.uint64(0x1234_5678_9ABC_DEF0)
    assert T.tt_probe(keys, data, key) == -1
    T.tt_store(keys, data, key, 4321, -250, 9, T.BOUND_LOWER, 3)
    entry = T.tt_probe(keys, data, key)
    assert (T.entry_move(entry), T.entry_score(entry)) == (4321, -250)
    assert (T.entry_depth(entry), T.entry_bound(entry)) == (9, T.BOUND_LOWER)


def test_a_bucket_holds_two_positions_and_replaces_the_stale_one() -> None:
    keys, data = _table()
    first, second, third = (np.uint64(1024 * n + 6) for n in (1, 2, 3))  # one bucket
    T.tt_store(keys, data, first, 1, 10, 12, T.BOUND_EXACT, 1)
    T.tt_store(keys, data, second, 2, 20, 3, T.BOUND_EXACT, 2)
    assert T.entry_move(T.tt_probe(keys, data, first)) == 1
    assert T.entry_move(T.tt_probe(keys, data, second)) == 2
    # at age 2 the deep entry of age 1 counts as 12 - 8 = 4 plies, more than the current 3
    T.tt_store(keys, data, third, 3, 30, 1, T.BOUND_EXACT, 2)
    assert T.tt_probe(keys, data, second) == -1
    assert T.entry_move(T.tt_probe(keys, data, first)) == 1
    # a later search: now the first is stale by 8 plies too, and the shallower one goes
    T.tt_store(keys, data, second, 2, 20, 5, T.BOUND_EXACT, 9)
    assert T.tt_probe(keys, data, third) == -1
    assert T.tt_probe(keys, data, first) >= 0


def test_no_move_keeps_the_move_known() -> None:
    keys, data = _table()
    key = np.uint64(77)
    T.tt_store(keys, data, key, 555, 40, 4, T.BOUND_LOWER, 0)
    T.tt_store(keys, data, key, -1, -60, 6, T.BOUND_UPPER, 0)
    entry = T.tt_probe(keys, data, key)
    assert (T.entry_move(entry), T.entry_score(entry), T.entry_depth(entry)) == (555, -60, 6)


def test_a_deeper_bound_is_kept_but_learns_the_move() -> None:
    keys, data = _table()
    key = np.uint64(99)
    T.tt_store(keys, data, key, 10, 40, 12, T.BOUND_LOWER, 0)
    T.tt_store(keys, data, key, 20, -5, 2, T.BOUND_UPPER, 0)
    entry = T.tt_probe(keys, data, key)
    assert (T.entry_move(entry), T.entry_score(entry), T.entry_depth(entry)) == (20, 40, 12)


def test_mate_scores_are_kept_as_distance_from_the_node() -> None:
    assert T.score_from_tt(T.score_to_tt(29990, 7), 3) == 29994
    assert T.score_from_tt(T.score_to_tt(-29990, 7), 3) == -29994
    assert T.score_from_tt(T.score_to_tt(150, 7), 3) == 150


def test_ordering_puts_the_table_move_first_and_losing_captures_last() -> None:
    board = Board("4k3/8/8/3p4/2p5/1P6/8/2R1K3 w - - 0 1")
    bbs, info = board.kernel_arrays()
    moves = np.array([board.encode_move(m) for m in board.legal_moves], dtype=np.int32)
    codes = {board.decode_move(int(c)).uci(): int(c) for c in moves}
    scores = np.zeros(len(moves), dtype=np.int64)
    killers = np.zeros((4, 2), dtype=np.int32)
    history = np.zeros((2, 64, 64), dtype=np.int64)
    cont = np.zeros((O.PIECE_TO_NB, O.PIECE_TO_NB), dtype=np.int32)
    tt_move = codes["e1f2"]
    O.order_moves(bbs, info, moves, scores, len(moves), tt_move, killers, history, cont, -1, -1, 0)
    order = [board.decode_move(int(O.pick(moves, scores, i, len(moves)))).uci()
             for i in range(len(moves))]  # fmt: skip
    assert order[0] == "e1f2"
    assert order[1] == "b3c4"  # the pawn takes: it wins material
    assert order[-1] == "c1c4"  # the rook takes a defended pawn: it loses material


def test_history_stays_within_its_bound() -> None:
    board = Board()
    _, info = board.kernel_arrays()
    moves = np.array([board.encode_move(m) for m in board.legal_moves], dtype=np.int32)
    scores = np.zeros(len(moves), dtype=np.int64)
    killers = np.zeros((4, 2), dtype=np.int32)
    history = np.zeros((2, 64, 64), dtype=np.int64)
    cont = np.zeros((O.PIECE_TO_NB, O.PIECE_TO_NB), dtype=np.int32)
    best, previous = int(moves[3]), O.piece_to(info, int(moves[0]))
    for _ in range(200):
        O.reward_quiet(info, moves, scores, 3, best, 20, killers, history, cont, previous, -1, 0)
    assert killers[0, 0] == best
    assert 0 < O.quiet_score(info, best, history, cont, previous, -1) <= 2 * O.HISTORY_MAX
    for tried in moves[:3]:
        score = O.quiet_score(info, int(tried), history, cont, previous, -1)
        assert -2 * O.HISTORY_MAX <= score < 0


def _repeating_board() -> Board:
    """White's king on a1 has one move, a2, and it repeats the position after 1. Ka2: a
    draw, where every other outcome is a loss for white (a rook down)."""
    board = Board("1r6/8/8/8/8/2k5/8/K7 w - - 0 1")
    for uci in ("a1a2", "b8b7", "a2a1", "b7b8"):
        board.push_uci(uci)
    assert [move.uci() for move in board.legal_moves] == ["a1a2"]
    return board


@pytest.mark.parametrize("contempt", [0, 35, 100])
def test_contempt_counts_a_repetition_worse_than_even_for_the_root_side(contempt: int) -> None:
    searcher = Searcher(hash_mb=1)
    searcher.use_tables(False)  # the tables would answer from the position alone: a mate
    searcher.use_contempt(contempt)
    result = searcher.best_move(_repeating_board(), Limit(depth=4))
    assert result.info is not None and result.info.score.cp == -contempt


def test_contempt_outside_its_range_is_refused() -> None:
    searcher = Searcher(hash_mb=1)
    with pytest.raises(ValueError, match="101"):
        searcher.use_contempt(101)
    with pytest.raises(ValueError, match="-5"):
        Searchers().use_contempt(-5)
