"""The Alquerque engine (issue 6): wins and losses found, the game's ends scored as the rules
(docs/rules.md 6.3-6.5) say, legal lines, MultiPV, levels, and Alquerque matches."""

from __future__ import annotations

import random

import numpy as np
import pytest

from kradan.alquerque import Board
from kradan.alquerque import _kernel as K
from kradan.engine import Limit
from kradan.engine.alquerque import AlquerqueSearcher
from kradan.engine.alquerque_tables import NO_TABLE
from kradan.engine.kernels import alquerque_search as A
from kradan.runners.match import GameTask, TimeControl, default_openings, play_game
from kradan.runners.players import KradanPlayer, PlayerSpecError, make_player


@pytest.fixture(scope="module")
def searcher() -> AlquerqueSearcher:
    return AlquerqueSearcher(hash_mb=1)


def test_takes_the_last_piece(searcher: AlquerqueSearcher) -> None:
    """docs/rules.md 6.3: a side that loses every piece loses; the search wins in one move."""
    board = Board("5/5/5/2p2/2P2 w - 0 1")
    result = searcher.best_move(board, Limit(depth=4))
    assert result.move is not None and result.move.uci() == "c1c3"
    assert result.info is not None and result.info.score.mate == 1


def test_finds_a_sacrifice_that_wins(searcher: AlquerqueSearcher) -> None:
    """Compulsory capture (docs/rules.md 6.3): giving up c1 forces b3 to take, then a1 takes the
    last."""
    board = Board("5/5/1p3/5/P1P2 w - 0 1")
    result = searcher.best_move(board, Limit(depth=6))
    assert result.info is not None and result.info.score.mate == 2
    assert [m.uci() for m in result.info.pv] == ["c1b2", "b3b1", "a1c1"]


def test_sees_a_lost_position(searcher: AlquerqueSearcher) -> None:
    """Bell (docs/rules.md 6.4): the lone man on c4 must step aside, and c5 then takes it."""
    board = Board("2p2/2P2/5/5/5 w - 0 1", variant="alquerque-bell")
    result = searcher.best_move(board, Limit(depth=6))
    assert result.info is not None and result.info.score.mate == -1


def test_immobilising_wins_under_bell_only() -> None:
    """docs/rules.md 6.4: a side with no move loses under Bell. White's man on c5 may leave the far
    row only by capturing, so any Black move that keeps out of reach wins; under Alfonso X the
    man moves freely and nothing is decided."""
    text = "2P2/5/p4/5/5 b - 0 1"
    bell = AlquerqueSearcher(hash_mb=1).best_move(
        Board(text, variant="alquerque-bell"), Limit(depth=3)
    )
    assert bell.info is not None and bell.info.score.mate == 1
    alfonso = AlquerqueSearcher(hash_mb=1).best_move(Board(text), Limit(depth=3))
    assert alfonso.info is not None and alfonso.info.score.mate is None


@pytest.mark.parametrize(("variant", "expected"), [("alquerque-bell", -A.MATE), ("alquerque", 0)])
def test_no_move_scores_as_the_rules_say(variant: str, expected: int) -> None:
    """The search's leaf score for a side with no move: a loss under Bell (docs/rules.md 6.4), a
    draw under Alfonso X (decision in kradan.alquerque.variant)."""
    board = Board("5/5/p1p2/pp3/Ppp2 w - 0 1", variant=variant)  # a1 hemmed in, no jump lands
    assert not board.legal_moves and board.outcome() is not None
    ctx = np.zeros(A.CTX_NB, dtype=np.int64)
    ctx[A.C_BELL] = int(board.variant.bell)
    stack = np.zeros((A.MAX_PLY + 4, K.STATE_NB), dtype=np.int64)
    stack[0] = board._stack[0]
    score = A.search_root(
        stack, 0, 2, board._rules, ctx, np.zeros(1024, dtype=np.uint64),
        np.full(1024, -1, dtype=np.int64), np.zeros((A.MAX_PLY + 2, 2), dtype=np.int64),
        np.zeros((A.MAX_PLY + 2, A.MAX_PLY + 1), dtype=np.int64),
        np.zeros(A.MAX_PLY + 2, dtype=np.int64), *NO_TABLE[1:],
    )  # fmt: skip
    assert score == expected


def test_repetition_is_seen_in_the_tree() -> None:
    """A position met again since the last capture scores as a draw inside the search."""
    board = Board("k4/5/5/5/K4 w - 0 1")
    for uci in ("a1b1", "a5b5", "b1a1", "b5a5"):
        board.push_uci(uci)
    assert A.repeated(board._stack, board._ply, False)
    board.pop()
    assert not A.repeated(board._stack, board._ply, False)


def test_no_capture_limit_more_pieces_wins() -> None:
    """docs/rules.md 6.3 option: at the no-capture limit the side with more pieces wins."""
    options = {"no_capture_limit": 1, "no_capture_adjudication": "more_pieces_wins"}
    # one ply played without a capture; the next quiet move reaches the limit (2 plies)
    board = Board("k4/5/5/5/K3K b - 1 1", variant="alquerque", **options)
    result = AlquerqueSearcher(hash_mb=1).best_move(board, Limit(depth=3))
    assert result.info is not None and result.info.score.mate is not None
    assert result.info.score.mate < 0  # Black (fewer pieces) loses at the limit
    equal = Board("k4/5/5/5/K4 b - 1 1", variant="alquerque", **options)
    result = AlquerqueSearcher(hash_mb=1).best_move(equal, Limit(depth=3))
    assert result.info is not None and result.info.score.cp == 0


@pytest.mark.parametrize("variant", ["alquerque", "alquerque-bell"])
def test_lines_are_legal_in_random_positions(searcher: AlquerqueSearcher, variant: str) -> None:
    rng = random.Random(7)
    for _ in range(12):
        board = Board(variant=variant)
        for _ in range(rng.randrange(0, 20)):
            moves = list(board.legal_moves)
            if not moves or board.outcome() is not None:
                break
            board.push(rng.choice(moves))
        if board.outcome() is not None:
            continue
        result = searcher.best_move(board, Limit(depth=5))
        assert result.move in board.legal_moves
        assert result.info is not None
        replay = board.copy()
        for move in result.info.pv:
            assert replay.is_legal(move), (board.text(), [m.uci() for m in result.info.pv])
            replay.push(move)


def test_multipv_orders_distinct_root_moves(searcher: AlquerqueSearcher) -> None:
    board = Board(variant="alquerque-bell")
    lines: list = []
    for found in searcher.search_multipv(board, Limit(depth=4), 3):
        lines = found
    assert len(lines) == 3  # the start has more than three moves
    roots = [line.pv[0] for line in lines]
    assert len(set(roots)) == len(roots) and all(m in board.legal_moves for m in roots)
    values = [line.score.cp for line in lines]
    assert values == sorted(values, reverse=True)


def test_node_limit_and_stop(searcher: AlquerqueSearcher) -> None:
    board = Board(variant="alquerque")
    infos = list(searcher.search(board, Limit(nodes=5000)))
    assert infos and infos[-1].nodes <= 5000  # the budget binds to the node
    searcher.stop()
    searcher.arm()
    assert list(searcher.search(board, Limit(depth=2), armed=True))


@pytest.mark.parametrize("level", [1, 20])
def test_player_levels_play_legal_moves(level: int) -> None:
    player = KradanPlayer(level, hash_mb=1, seed=3, game="alquerque")
    board = Board()
    for _ in range(6):
        answer = player.choose_move(board, Limit(time=0.05))
        assert answer.move in board.legal_moves
        board.push(answer.move)


def test_external_engines_are_refused_for_alquerque() -> None:
    with pytest.raises(PlayerSpecError, match="alquerque"):
        make_player("uci:/bin/true", game="alquerque")


def test_a_match_game_of_alquerque_ends_by_the_rules() -> None:
    opening = default_openings("alquerque-bell", 1)[0]
    task = GameTask("kradan", "random", "alquerque-bell", tuple(opening), True,
                    TimeControl(5, 0.05), 200, seed=1)  # fmt: skip
    record = play_game(task)
    assert record.result == "1-0", record.termination
    assert record.termination in ("captured all", "immobilised")
    assert '[Variant "alquerque-bell"]' in record.pgn
    assert record.pgn.startswith("[Event") and "1. " in record.pgn


@pytest.mark.parametrize("variant", ["alquerque", "alquerque-bell"])
def test_fast_games_never_play_an_illegal_move(searcher: AlquerqueSearcher, variant: str) -> None:
    """Engine against itself at a thousand nodes a move, from random openings, to the end of
    the game by the rules; push() rejects illegal moves."""
    rng = random.Random(variant)
    for _ in range(25):
        board = Board(variant=variant)
        for _ in range(2):
            board.push(rng.choice(list(board.legal_moves)))
        while board.outcome() is None and len(board.move_stack) < 400:
            result = searcher.best_move(board, Limit(nodes=1024))
            assert result.move is not None
            board.push(result.move)
        assert board.outcome() is not None, board.text()
