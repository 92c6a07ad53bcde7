"""The engine's search (issue 6): mates, material, limits, stop, MultiPV, levels, legality."""

from __future__ import annotations

import random
import threading
import time

import pytest

from kradan import Board
from kradan.engine import Limit, Score, Searcher
from kradan.engine.kernels import node
from kradan.engine.levels import MAX_LEVEL, level_limit, pick_move


def mates_in(board: Board, n: int) -> bool:
    """Brute force: can the side to move force mate within ``n`` of its moves?"""
    for move in list(board.legal_moves):
        board.push(move)
        try:
            if board.is_checkmate() or (
                board.outcome() is not None
                and board.outcome().winner is not None
                and board.outcome().winner != board.turn
            ):
                return True
            if (
                n > 1
                and board.legal_moves
                and all(_defended(board, reply, n - 1) for reply in list(board.legal_moves))
            ):
                return True
        finally:
            board.pop()
    return False


def _defended(board: Board, reply: object, n: int) -> bool:
    board.push(reply)  # type: ignore[arg-type]
    try:
        return mates_in(board, n)
    finally:
        board.pop()


MATES = [
    ("makruk", "k7/2K5/8/8/8/8/7R/8 w - - 0 1", 1),
    ("makruk", "7k/8/5K2/8/8/8/8/R7 w - - 0 1", 2),
    ("cambodian", "7k/8/6K1/8/8/8/8/R7 w - - 0 1", 1),
    ("sittuyin", "k7/2K5/8/8/8/8/7R/8[] w - - 0 1", 1),
    ("karouk", "4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", 1),  # any check wins
]


@pytest.mark.parametrize(("variant", "fen", "n"), MATES)
def test_finds_mates(variant: str, fen: str, n: int) -> None:
    board = Board(fen, variant=variant)
    assert mates_in(board, n)
    result = Searcher(4).best_move(board, Limit(depth=2 * n + 2))
    assert result.info is not None and result.info.score.relative == Score(mate=n)
    board.push(result.move)  # type: ignore[arg-type]
    if n == 1:
        assert board.outcome() is not None and board.outcome().winner is not None


@pytest.mark.parametrize("variant", ["makruk", "cambodian", "sittuyin"])
def test_mate_in_three(variant: str) -> None:
    hand = "[]" if variant == "sittuyin" else ""
    board = Board(f"7k/8/8/5K2/8/8/8/R7{hand} w - - 0 1", variant=variant)
    result = Searcher(4).best_move(board, Limit(depth=8))
    assert result.info is not None and result.info.score.mate is not None
    assert result.info.score.mate <= 3
    assert mates_in(board, result.info.score.mate)


@pytest.mark.parametrize("variant", ["makruk", "cambodian", "karouk"])
def test_wins_hanging_material(variant: str) -> None:
    fen = "r3k3/8/8/8/8/8/8/R2K4 w - - 0 1"  # the rooks face each other: take it
    if variant == "karouk":
        fen = "r3k3/8/8/8/8/8/8/R2K4 w - - 1+1 0 1"
    board = Board(fen, variant=variant)
    result = Searcher(4).best_move(board, Limit(depth=4))
    assert result.move is not None and result.move.uci() == "a1a8"


def test_sittuyin_setup_is_searched_as_drops() -> None:
    board = Board(variant="sittuyin")
    result = Searcher(4).best_move(board, Limit(depth=2))
    assert result.move is not None and result.move.drop is not None


def test_limits_and_stop() -> None:
    searcher = Searcher(4)
    infos = list(searcher.search(Board(), Limit(depth=4)))
    assert [info.depth for info in infos] == [1, 2, 3, 4]
    limited = list(searcher.search(Board(), Limit(nodes=5000)))
    assert limited and limited[-1].nodes <= 5000 + 4096
    results: list[object] = []

    def think() -> None:
        results.append(searcher.best_move(Board(), Limit(), armed=True))  # until stopped

    searcher.arm()
    thread = threading.Thread(target=think)
    thread.start()
    searcher.stop()  # even a stop that comes before the search starts is kept
    thread.join(timeout=60)
    assert not thread.is_alive() and results and results[0].move is not None  # type: ignore[attr-defined]


def test_a_clock_in_its_reserve_spends_less_than_the_increment() -> None:
    """At 1+0.01 a clock that has run down into its reserve thinks for less than the
    increment, even at the hard limit, so that it fills again (issue 13 item 4: no time
    losses); a healthy clock still spends most of the increment."""
    from kradan.engine.types import time_budget

    for clock in (0.0, 0.05, 0.11, 0.12):
        soft, hard = time_budget(Limit(white_clock=clock, white_inc=0.01), True)
        assert soft is not None and hard is not None and soft <= hard < 0.01
    soft, _ = time_budget(Limit(white_clock=1.0, white_inc=0.01), True)
    assert soft is not None and soft > 0.007


def test_a_large_increment_on_a_short_clock_caps_the_hard_limit() -> None:
    """1 s on the clock and 1 s a move: the hard limit is a third of the clock left after the
    reserve (0.85 s) plus half the increment, about 0.78 s, so one move cannot spend more than
    the clock it will get back."""
    from kradan.engine.types import time_budget

    soft, hard = time_budget(Limit(white_clock=1.0, white_inc=1.0), True)
    assert hard == pytest.approx(0.85 / 3 + 0.5)
    assert soft == pytest.approx(0.85 / 35 + 0.7)


def test_clock_limit_returns_a_move_within_its_share_of_the_clock() -> None:
    """Half a second on the clock: a legal move, and the search stops near its budget (a few
    hundredths of a second), not at the end of the clock. The margin is wide, for a busy
    machine; a search that spent its whole clock would still fail."""
    from kradan.engine.types import time_budget

    limit = Limit(white_clock=0.5, black_clock=0.5)
    _, hard = time_budget(limit, white_to_move=True)
    assert hard is not None and hard < 0.2
    started = time.perf_counter()
    result = Searcher(4).best_move(Board(), limit)
    spent = time.perf_counter() - started
    assert result.move is not None and result.move in Board().legal_moves
    assert result.info is not None and result.info.seconds <= hard + 0.25
    assert spent < 0.5 + 0.25


def test_multipv_gives_distinct_sorted_lines() -> None:
    *_, lines = Searcher(4).search_multipv(Board(), Limit(depth=4), 3)
    firsts = [line.pv[0] for line in lines]
    assert len(firsts) == 3 == len(set(firsts))
    values = [line.score.cp for line in lines]
    assert values == sorted(values, reverse=True)


def test_no_legal_move() -> None:
    result = Searcher(4).best_move(Board("k1K5/7R/8/8/8/8/8/8 b - - 0 1"), Limit(depth=3))
    assert result.move is None


def test_score_from_internal() -> None:
    assert Score.from_internal(node.MATE - 1) == Score(mate=1)
    assert Score.from_internal(node.MATE - 3) == Score(mate=2)
    assert Score.from_internal(-(node.MATE - 2)) == Score(mate=-1)
    assert str(Score(cp=12)) == "cp 12" and str(Score(mate=-3)) == "mate -3"


def test_levels() -> None:
    assert level_limit(1, Limit()).nodes == 400 and level_limit(1, Limit()).depth is None
    assert level_limit(MAX_LEVEL - 1, Limit(depth=3)).depth == 3
    board = Board()
    lines = next(iter(Searcher(4).search_multipv(board, Limit(depth=3), 4)))
    assert pick_move(board, lines, MAX_LEVEL, random.Random(1)) == lines[0].pv[0]
    chosen = {pick_move(board, lines, 1, random.Random(seed)) for seed in range(40)}
    assert len(chosen) > 1 and chosen <= {line.pv[0] for line in lines}


@pytest.mark.parametrize("variant", ["makruk", "cambodian", "karouk", "sittuyin"])
def test_fast_games_never_play_an_illegal_move(variant: str) -> None:
    """Engine against itself at a hundred nodes a move; push() rejects illegal moves."""
    searcher = Searcher(1)
    rng = random.Random(variant)
    for _ in range(25):
        board = Board(variant=variant)
        for _ in range(4):  # a random opening so that the games differ
            moves = list(board.legal_moves)
            board.push(rng.choice(moves))
        while board.outcome(claim_draw=True) is None and len(board.move_stack) < 300:
            result = searcher.best_move(board, Limit(nodes=100))
            assert result.move in board.legal_moves, (board.fen(), result.move)
            board.push(result.move)


def _static(fen: str) -> int:
    from kradan.engine.kernels.evaluate import evaluate
    from kradan.engine.weights import DEFAULT, SET_MAKRUK

    board = Board(fen)
    return int(evaluate(board._bbs, board._info, DEFAULT[SET_MAKRUK]))


def test_mets_of_one_colour_cannot_mate() -> None:
    """Two mets on squares of one colour never mate (docs/rules.md 2.7, insufficient material), so
    the evaluation gives their extra material little weight; on both colours they can."""
    same = _static("8/8/8/3k4/8/2M5/1M6/4K3 w - - 0 1")  # c3 and b2: one colour
    both = _static("8/8/8/3k4/8/2M5/2M5/4K3 w - - 0 1")  # c3 and c2: both colours
    assert same < 150 < both


def test_a_winning_side_drives_the_king_to_the_edge() -> None:
    """Far ahead against pieces only, the evaluation prefers the weaker king on the edge: more
    than the endgame king table alone (which gives this pair of positions 24 centipawns)."""
    centre = _static("8/8/8/3k4/3m4/8/8/R2MK3 w - - 0 1")
    edge = _static("3k4/8/8/8/3m4/8/8/R2MK3 w - - 0 1")
    assert edge - centre >= 40


def test_searchers_pick_each_game_by_a_lazy_reference() -> None:
    """One function names a board's searcher class as ``"module:Class"``; every searcher class
    is made as ``SearcherClass(hash_mb)``."""
    from kradan.alquerque import Board as AlquerqueBoard
    from kradan.engine.alquerque import AlquerqueSearcher
    from kradan.engine.searchers import Searchers, load_searcher, searcher_reference

    assert isinstance(load_searcher(searcher_reference(Board()), 1), Searcher)
    assert isinstance(load_searcher(searcher_reference(AlquerqueBoard()), 1), AlquerqueSearcher)
    searchers = Searchers(1)
    assert searchers.for_board(Board()) is searchers.chess
    assert isinstance(searchers.for_board(AlquerqueBoard()), AlquerqueSearcher)


def test_score_value_orders_every_score() -> None:
    """``Score.value``, the one number a score becomes: quicker wins first, quicker losses last."""
    order = [Score(mate=1), Score(mate=3), Score(cp=900), Score(cp=0), Score(cp=-900)]
    order += [Score(mate=-5), Score(mate=-1), Score(mate=0)]
    values = [score.value for score in order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
