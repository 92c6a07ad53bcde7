"""The engine's declarations in declared counting (docs/rules.md 2.6.4): it declares a count when it
is not ahead, starts its lone king's count, stops its own count once it is winning, and never
declares in automatic counting. ``kradan play`` shows what it did."""

from __future__ import annotations

import argparse

import pytest

from kradan import Board
from kradan.cli.play import TerminalGame
from kradan.engine.counting_policy import (
    STOP_MARGIN,
    apply_count_decision,
    count_decision,
    material_balance,
)
from kradan.engine.types import Limit
from kradan.outcome import Termination
from kradan.runners.players import KradanPlayer

# Black has a rook against White's two rooks and a knight: no pawns, a piece on each side
BEHIND = "8/8/4k3/8/1r6/8/8/R2K1N1R b - - 0 40"


def test_material_balance_is_for_the_side_to_move() -> None:
    assert material_balance(Board(BEHIND)) == -(520 + 320)
    assert material_balance(Board(BEHIND.replace(" b ", " w "))) == 520 + 320


def test_the_side_behind_declares_boards_honour_and_the_side_ahead_does_not() -> None:
    board = Board(BEHIND, counting="declared")
    assert count_decision(board) == "declare"
    assert apply_count_decision(board) == "declare"
    state = board.counting_state()
    assert state is not None and state.honour == "board's honour" and not state.counting_side
    ahead = Board(BEHIND.replace(" b ", " w "), counting="declared")
    assert count_decision(ahead) is None


def test_no_declaration_in_automatic_counting_or_with_pawns() -> None:
    assert count_decision(Board(BEHIND)) is None
    with_pawn = Board("8/8/4k3/8/1r6/8/P7/R2K1N1R b - - 0 40", counting="declared")
    assert count_decision(with_pawn) is None


def test_the_counter_stops_its_count_once_it_is_ahead() -> None:
    # Black (a rook against rook and knight) declares, then wins White's rook with check
    board = Board("4k3/8/8/8/8/8/r7/R2K1N2 b - - 0 40", counting="declared")
    assert apply_count_decision(board) == "declare"
    board.push_uci("a2a1")
    board.push_uci("d1e2")
    assert material_balance(board) >= STOP_MARGIN
    assert count_decision(board) == "stop"
    assert apply_count_decision(board) == "stop"
    assert board.counting_state() is None
    assert count_decision(board) is None  # ahead: no new declaration either


def test_a_counter_that_is_only_a_little_ahead_keeps_counting() -> None:
    # a rook against a knight and a met: 520 - 540, not ahead
    board = Board("4k3/8/8/8/8/8/r7/3K1NM1 b - - 0 40", counting="declared")
    assert apply_count_decision(board) == "declare"
    board.push_uci("a2a3")
    board.push_uci("d1e2")
    assert count_decision(board) is None


def test_the_lone_king_declares_its_count_when_it_may() -> None:
    strict = Board("8/8/4k3/8/8/8/8/R2K1N1R b - - 0 40", counting="declared")
    assert count_decision(strict) is None  # pieces' honour starts by itself
    optional = Board(
        "8/8/4k3/8/8/8/8/R2K1N1R b - - 0 40", counting="declared", pieces_count_optional=True
    )
    assert apply_count_decision(optional) == "declare"
    state = optional.counting_state()
    assert state is not None and state.honour == "pieces' honour"
    assert count_decision(optional) is None  # running already; a restart needs the option


def test_the_engine_declares_before_its_move() -> None:
    board = Board(BEHIND, counting="declared")
    answer = KradanPlayer(level=20).choose_move(board, Limit(depth=2))
    assert answer.count == "declare"
    assert board.counting_state() is None  # the caller makes the declaration
    board.declare_count()
    assert answer.move is not None and board.is_legal(answer.move)


# Black's rook takes White's on a1 with mate: White's king on h1 has g1 (the rook), g2 and h2
# (Black's king) covered
MATE_BY_CAPTURE = "N7/8/8/8/8/6k1/r7/R6K b - - 0 40"


def test_a_side_with_a_mate_in_one_does_not_declare() -> None:
    board = Board(MATE_BY_CAPTURE, counting="declared")
    assert material_balance(board) < 0
    assert count_decision(board) is None


@pytest.mark.parametrize("level", [3, 20])
def test_a_counter_with_a_mate_in_one_stops_its_count_and_wins(level: int) -> None:
    board = Board(MATE_BY_CAPTURE, counting="declared")
    board.declare_count()  # declared, say, by a person playing Black before this position
    mated_while_counting = board.copy()
    mated_while_counting.push_uci("a2a1")
    outcome = mated_while_counting.outcome()
    assert outcome is not None and outcome.result() == "1/2-1/2"  # the counter's mate draws
    answer = KradanPlayer(level=level, seed=1).choose_move(board, Limit(depth=3))
    assert answer.count == "stop"
    board.stop_count()
    assert answer.move is not None
    board.push(answer.move)
    outcome = board.outcome()
    assert outcome is not None and outcome.result() == "0-1"
    assert outcome.termination is Termination.CHECKMATE


def test_kradan_play_shows_the_engines_declaration() -> None:
    args = argparse.Namespace(
        variant="makruk", color="white", level=20, time=0.05, counting="declared",
        fen="8/8/4k3/8/1r6/8/8/R2K1N1R w - - 0 40", no_color=True,
    )  # fmt: skip
    inputs = iter(["Ra2"])

    def read(prompt: str) -> str:
        try:
            return next(inputs)
        except StopIteration:
            raise EOFError from None

    output: list[str] = []
    session = TerminalGame(args, read, output.append)
    session.run()
    text = "\n".join(output)
    assert "kradan declares a count: board's honour: Black counts" in text
    state = session.board.counting_state()
    assert state is not None and state.declared and not state.counting_side


def test_a_side_ahead_makes_no_declaration_and_the_board_is_unchanged() -> None:
    ahead = Board(BEHIND.replace(" b ", " w "), counting="declared")
    assert apply_count_decision(ahead) is None
    assert ahead.counting_state() is None and ahead.fen() == BEHIND.replace(" b ", " w ")


RESTART = {"counting": "declared", "pieces_count_optional": True, "allow_voluntary_restart": True}


def test_the_lone_king_restarts_only_to_shorten_its_count() -> None:
    """Declared at once, the count leaves White 3 moves (8 - 5); two plies later a restart would
    give 3 again, more than the 2 left: the lone king keeps its count."""
    board = Board("8/8/4k3/8/8/8/8/R2K1N1R b - - 0 40", **RESTART)
    assert apply_count_decision(board) == "declare"
    board.push_uci("e6e5")
    board.push_uci("a1a2")
    state = board.counting_state()
    assert state is not None and state.moves_left == 2
    assert count_decision(board) is None


def test_a_lone_king_left_with_the_long_count_restarts_it_short() -> None:
    """Black counts board's honour (64); losing its rook it is a lone king whose count still
    runs to 64, and pieces' honour (a rook: 16 - 3 = 13 moves) is shorter: it restarts."""
    board = Board("8/8/4k3/8/8/6K1/r7/R6R b - - 0 40", **RESTART)
    assert apply_count_decision(board) == "declare"
    board.push_uci("a2a1")
    board.push_uci("h1a1")
    state = board.counting_state()
    assert state is not None and state.moves_left == 63
    assert apply_count_decision(board) == "declare"
    state = board.counting_state()
    assert state is not None and state.honour == "pieces' honour" and state.moves_left == 13
