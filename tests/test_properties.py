"""Hypothesis properties of the Makruk core (DESIGN.md, "Tests and benchmarks")."""

from __future__ import annotations

import pickle
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kradan import AmbiguousMoveError, Board, _core
from kradan._core import layout as L

PLY_CHOICES = st.lists(st.integers(min_value=0, max_value=10_000), min_size=0, max_size=160)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(choices: list[int]) -> Board:
    """The board after a random game: each number picks one legal move."""
    board = Board()
    for choice in choices:
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    return board


@SETTINGS
@given(PLY_CHOICES)
def test_fen_round_trip(choices: list[int]) -> None:
    board = play(choices)
    for show_promoted in (False, True):
        fen = board.fen(show_promoted=show_promoted)
        again = Board(fen)
        assert again.fen(show_promoted=show_promoted) == fen
        assert again == board
        assert hash(again) == hash(board)


@SETTINGS
@given(PLY_CHOICES)
def test_push_then_pop_restores_the_position(choices: list[int]) -> None:
    board = play(choices)
    before_fen = board.fen(show_promoted=True)
    before_hash = hash(board)
    before = board.copy()
    for move in list(board.legal_moves):
        board.push(move)
        assert board != before
        popped = board.pop()
        assert popped == move
        assert board == before
        assert hash(board) == before_hash
        assert board.fen(show_promoted=True) == before_fen


@SETTINGS
@given(PLY_CHOICES)
def test_no_legal_move_leaves_the_own_king_attacked(choices: list[int]) -> None:
    board = play(choices)
    for move in list(board.legal_moves):
        board.push(move)
        assert not _core.side_not_to_move_in_check(board._bbs, board._info), move
        board.pop()


@SETTINGS
@given(PLY_CHOICES)
def test_incremental_zobrist_key_equals_recomputation(choices: list[int]) -> None:
    board = Board()
    for choice in choices:
        assert board._bbs[L.BB_KEY] == _core.compute_key(board._bbs, board._info)
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[choice % len(moves)])
    assert board._bbs[L.BB_KEY] == _core.compute_key(board._bbs, board._info)
    while board.move_stack:
        board.pop()
        assert board._bbs[L.BB_KEY] == _core.compute_key(board._bbs, board._info)


@SETTINGS
@given(PLY_CHOICES)
def test_copy_and_pickle_keep_position_and_history(choices: list[int]) -> None:
    board = play(choices)
    for clone in (board.copy(), pickle.loads(pickle.dumps(board))):
        assert clone == board
        assert clone.move_stack == board.move_stack
        assert clone.fen(show_promoted=True) == board.fen(show_promoted=True)
    bare = board.copy(stack=False)
    assert bare == board and bare.move_stack == []


@SETTINGS
@given(PLY_CHOICES)
def test_san_and_uci_parse_back_to_the_same_move(choices: list[int]) -> None:
    board = play(choices)
    for move in board.legal_moves:
        for notation in ("san", "lan", "thai_lan"):
            assert board.parse_san(board.san(move, notation)) == move
        assert board.parse_uci(move.uci()) == move
        # Fairy-Stockfish's Thai SAN can give two moves one spelling: the khon (ค) and the
        # c-pawn (file ค) both write a capture on d4 as คxง๔. Then parsing must say so.
        thai = board.san(move, "thai")
        try:
            assert board.parse_san(thai) == move
        except AmbiguousMoveError as error:
            assert board.san(move) in str(error)


@SETTINGS
@given(PLY_CHOICES)
def test_bulk_and_plain_perft_agree(choices: list[int]) -> None:
    board = play(choices)
    assert board.perft(3) == board.perft(3, bulk=False)
    assert sum(board.perft_divide(3).values()) == board.perft(3)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["makruk", "cambodian", "karouk", "sittuyin"]),
    st.randoms(use_true_random=False),
)
def test_random_games_always_end(variant: str, rng: random.Random) -> None:
    """Issue 4: no infinite games. With draw claims, every random game ends: captures and pawn
    moves are finite, and after the last of them a position must repeat."""
    board = Board(variant=variant)
    for _ in range(6000):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            assert board.is_game_over(claim_draw=True)
            # the result says who won, and a checkmate is one (default rules: no replay)
            assert outcome.result() == {True: "1-0", False: "0-1", None: "1/2-1/2"}[outcome.winner]
            if outcome.termination.value == "checkmate":  # (Kar Ouk's first check comes first)
                assert board.is_checkmate()
            return
        board.push(rng.choice(list(board.legal_moves)))
    raise AssertionError(f"no outcome after 6000 plies: {board.fen()}")
