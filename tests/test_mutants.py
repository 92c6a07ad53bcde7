"""Tests for the five planted bugs that the whole suite let pass (issue 17): each test here
fails on its mutant and names the rule or behaviour it guards.

1. Declared pieces' honour started one ply off (``_core/counting.py``).
2. Time management spending the whole clock (``engine/types.time_budget``).
3. UCI ``bestmove 0000`` written as ``bestmove (none)`` with no legal move.
4. A stalemate scored with the wrong sign in the search under ``stalemater_loses``
   (and in MultiPV searches, which the weaker levels use: the issue's MultiPV bug).
5. A result token inside a variation ending the game.
"""

from __future__ import annotations

import io

import pytest

from kradan import Board, pgn
from kradan.engine.chess import Searcher
from kradan.engine.protocol.uci import UciEngine
from kradan.engine.types import Limit, time_budget
from kradan.runners.players import KradanPlayer

from .protocol_session import Session

# --- 1. docs/rules.md 2.6.4 (declared mode) and Decision 8: pieces' honour as automatic counting --

LONE_AFTER_CAPTURE = "8/8/8/4k3/4P3/8/8/R2K4 b - - 0 1"  # Kxe4 leaves Black's king alone


@pytest.mark.parametrize("counting", ["declared", "auto"])
def test_pieces_honour_starts_on_the_right_ply_when_the_stronger_side_is_to_move(
    counting: str,
) -> None:
    """After Black's king takes the last pawn, White (the stronger side) is to move: the count
    stands at 3 of 16 (a rook), and the FEN's counting fields are Fairy-Stockfish's (pyffish:
    ``8/8/8/8/4k3/8/8/R2K4 w - 32 5 2``), the same in declared mode as in automatic."""
    board = Board(LONE_AFTER_CAPTURE, counting=counting)
    board.push_uci("e5e4")
    assert board.fen() == "8/8/8/8/4k3/8/8/R2K4 w - 32 5 2"
    assert str(board.counting_state()) == (
        "pieces' honour: Black counts 3 of 16; White has 14 moves left to mate"
    )
    board.push_uci("d1c1")
    assert board.fen() == "8/8/8/8/4k3/8/8/R1K5 b - 32 6 2"
    assert "White has 13 moves left" in str(board.counting_state())


@pytest.mark.parametrize("counting", ["declared", "auto"])
def test_pieces_honour_starts_on_the_right_ply_when_the_lone_king_is_to_move(
    counting: str,
) -> None:
    """The other branch: White's rook takes Black's last piece and Black's lone king moves next
    (pyffish gives ``4k3/8/8/8/R7/8/8/3K4 b - 32 6 1``: the count stands at 3 with Black to
    move, so White has 13 moves left)."""
    board = Board("4k3/8/8/8/r7/8/8/R2K4 w - - 0 1", counting=counting)
    board.push_uci("a1a4")
    assert board.fen() == "4k3/8/8/8/R7/8/8/3K4 b - 32 6 1"
    assert str(board.counting_state()) == (
        "pieces' honour: Black counts 3 of 16; White has 13 moves left to mate"
    )


# --- 2. time management ------------------------------------------------------------------------


def test_a_minute_on_the_clock_buys_a_thirty_fifth_and_a_cap() -> None:
    """60 s and no increment: keep 0.3 s in reserve, aim for a 35th of the rest (1.71 s) and
    never pass 2.5 times that (4.26 s); never the whole clock."""
    soft, hard = time_budget(Limit(white_clock=60), white_to_move=True)
    assert soft == pytest.approx(59.7 / 35, rel=1e-9)
    assert hard == pytest.approx(2.5 * 59.7 / 35, rel=1e-9)
    assert time_budget(Limit(white_clock=60), white_to_move=False) == (None, None)
    soft, hard = time_budget(Limit(black_clock=2, black_inc=0.1), white_to_move=False)
    assert 0 < soft < hard < 1.0  # a short clock: a small share, under half of it


# --- 3. UCI with no legal move -----------------------------------------------------------------


def test_uci_answers_bestmove_0000_when_there_is_no_move() -> None:
    """A checkmated side to move: UCI's null move, ``0000`` (not ``(none)``)."""
    session = Session(UciEngine)
    session.send("position fen k1R5/8/1K6/8/8/8/8/8 b - - 0 1", "go depth 3")
    assert session.wait_for("bestmove") == "bestmove 0000"


# --- 4. stalemate under stalemater_loses in the search -----------------------------------------

STALEMATE_TRAP = "8/8/8/8/8/8/8/k1KR4 w - - 0 1"  # d1d2 stalemates Black


def test_the_search_never_plays_a_stalemate_that_loses() -> None:
    """docs/rules.md 2.4, ``stalemate="stalemater_loses"``: Rd2 stalemates and so loses; the search
    at depth 4 picks another move, and scores Rd2 as lost (a draw under the default rule)."""
    board = Board(STALEMATE_TRAP, stalemate="stalemater_loses")
    assert Searcher().best_move(board, Limit(depth=4)).move.uci() != "d1d2"  # type: ignore[union-attr]
    for rule, lost in (("stalemater_loses", True), ("draw", False)):
        trap = Board(STALEMATE_TRAP, stalemate=rule)
        lines = list(Searcher().search_multipv(trap, Limit(depth=3), 30))[-1]  # the deepest
        score = next(line.score for line in lines if line.pv[0].uci() == "d1d2")
        assert (score.mate is not None and score.mate < 0) if lost else score.cp == 0


@pytest.mark.parametrize("level", [1, 5, 10])
def test_weak_levels_multipv_keeps_the_stalemate_rule(level: int) -> None:
    """The weaker levels choose among MultiPV lines: under ``stalemater_loses`` none of them
    may stalemate (their search must know the rule)."""
    for seed in range(8):
        player = KradanPlayer(level, seed=seed)
        board = Board(STALEMATE_TRAP, stalemate="stalemater_loses")
        assert player.choose_move(board, Limit(depth=3)).move.uci() != "d1d2"  # type: ignore[union-attr]


# --- 5. PGN: a result inside a variation -------------------------------------------------------


def test_a_result_inside_a_variation_does_not_end_the_game() -> None:
    game = pgn.read_game(io.StringIO("1. e4 (1. d4 d5 1-0) 1... d5 2. Nd2 *"))
    assert game is not None
    assert [move.uci() for move in game.mainline_moves()] == ["e3e4", "d6d5", "b1d2"]
    assert game.headers.get("Result", "*") == "*"
    assert str(game).endswith("1. e4 (1. d4 d5) 1... d5 2. Nd2 *")  # the variation kept
