"""RULES.md Decisions 8-10 and the options section 8 marks "added" (issue 13): the seed's
declared pieces' honour, and every reading of the seeds as an option, each tested for each
setting."""

from __future__ import annotations

import pytest

from kradan import Board
from kradan.engine.chess import Searcher
from kradan.engine.types import Limit
from kradan.outcome import Termination


def play(board: Board, moves: str) -> Board:
    for uci in moves.split():
        board.push_uci(uci)
    return board


# --- Decision 8: declared pieces' honour gives the stronger side L - N moves ----------------------

# White's a1 rook takes Black's last piece: two rooks and a knight (L = 8) against a lone king,
# five pieces on the board (N = 5): White has 8 - 5 = 3 moves to mate
TWO_ROOKS = "7k/8/8/r7/8/8/1R6/R3K1N1 w - - 0 40"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_two_rooks_and_a_knight_have_three_moves_to_mate(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5")
    state = board.counting_state()
    assert state is not None and state.honour == "pieces' honour"
    assert (state.count, state.limit, state.moves_left) == (5, 8, 3)
    play(board, "h8g8 a5a7 g8f8 b2b3 f8e8 b3b8")  # the third move mates
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.result() == "1-0"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_the_count_draws_after_the_stronger_sides_three_moves(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5 h8g8 e1e2 g8h8 e2e1 h8g8 e1e2")
    assert board.outcome() is None  # White made its three moves; the lone king's reply ends it
    state = board.counting_state()
    assert state is not None and state.moves_left == 0
    board.push_uci("g8h8")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.COUNTING_LIMIT


def test_a_voluntary_restart_gives_the_new_l_minus_n() -> None:
    # the lone king takes the knight: two rooks (L = 8), four pieces left (N = 4): 4 moves
    board = Board(
        "8/8/8/8/5N2/4k3/8/R2K3R b - - 0 50", counting="declared", pieces_count_optional=True,
        allow_voluntary_restart=True,
    )  # fmt: skip
    board.declare_count()
    first = board.counting_state()
    assert first is not None and (first.count, first.limit, first.moves_left) == (5, 8, 3)
    play(board, "e3f4 a1a2")
    board.declare_count()
    state = board.counting_state()
    assert state is not None and (state.count, state.limit, state.moves_left) == (4, 8, 4)
    play(board, "f4f5 d1c1 f5f4 c1d1 f4f5 d1c1 f5f4 c1d1")  # White's four moves, no mate
    assert board.outcome() is None
    board.push_uci("f4f5")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.COUNTING_LIMIT


def test_the_search_scores_the_counters_mate_as_a_draw() -> None:
    # Black counts board's honour and could mate by taking the rook: the mate would draw
    fen = "N7/8/8/8/8/6k1/r7/R6K b - - 0 40"
    counted = Board(fen, counting="declared")
    counted.declare_count()
    free = Board(fen, counting="declared")
    found = Searcher().best_move(counted, Limit(depth=2))
    assert found.info is not None and found.info.score.mate is None
    assert Searcher().best_move(free, Limit(depth=2)).info.score.mate == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_the_search_finds_the_mate_on_the_last_move_the_count_allows(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5 h8g8 a5a7 g8f8 b2b3 f8e8")
    found = Searcher().best_move(board, Limit(depth=3))
    assert found.move is not None and found.move.uci() == "b3b8"
    assert found.info is not None and found.info.score.mate == 1
