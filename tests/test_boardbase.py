"""kradan.boardbase, kradan.movebase and kradan.rulesets.RuleSetBase: what the chess and
Alquerque boards, moves and rule sets share behaves the same on both (issue 42, item 5)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import re

import pytest

from kradan import Board, Move, alquerque, find_game
from kradan.boardbase import BoardBase, LegalMoveView
from kradan.errors import IllegalMoveError, InvalidMoveError, VariantError
from kradan.movebase import MoveBase
from kradan.outcome import Termination
from kradan.rulesets import RuleSetBase
from kradan.variants import CAMBODIAN, KAROUK, MAKRUK, GateRule

BOARDS = [
    pytest.param(lambda: Board(), "e3e4", id="makruk"),
    pytest.param(lambda: alquerque.Board(variant="alquerque-bell"), "d3c3", id="alquerque-bell"),
]


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_both_boards_share_the_base_and_its_legal_move_view(make, uci: str) -> None:
    board = make()
    assert isinstance(board, BoardBase) and isinstance(board.legal_moves, LegalMoveView)
    moves = list(board.legal_moves)
    assert len(board.legal_moves) == board.legal_moves.count() == len(moves) > 0
    assert bool(board.legal_moves) and all(move in board.legal_moves for move in moves)
    assert "not a move" not in board.legal_moves
    sans = ", ".join(board.san(move) for move in moves)
    assert repr(board.legal_moves).endswith(f" ({sans})>")


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_moves_by_text_peek_and_uci(make, uci: str) -> None:
    board = make()
    move = board.push_uci(uci)
    assert board.peek() == move and board.uci(move) == uci and str(move) == uci
    board.pop()
    with pytest.raises(IndexError):
        board.peek()
    san = board.san(move)
    assert board.push_san(san) == move and board.move_stack == [move]


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_an_illegal_move_by_text_names_the_position(make, uci: str) -> None:
    board = make()
    with pytest.raises(IllegalMoveError, match=re.escape(f"'a1a5' in {board.fen()!r}")):
        board.parse_uci("a1a5")
    with pytest.raises(InvalidMoveError):
        board.push_uci("not a move")
    assert board.move_stack == []


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_resigning_and_agreeing_end_the_game_until_a_move_is_taken_back(make, uci: str) -> None:
    board = make()
    assert board.result() == "*" and not board.is_game_over()
    board.push_uci(uci)
    assert board.resign(board.turn).termination is Termination.RESIGNATION
    assert board.is_game_over() and board.result() == ("0-1" if board.turn else "1-0")
    board.pop()
    assert board.result() == "*"
    board.agree_draw()
    assert board.result() == "1/2-1/2"
    board.push_uci(uci)
    assert board.outcome() is None


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_perft_divide_sums_to_perft_and_leaves_the_board_alone(make, uci: str) -> None:
    board = make()
    before = board.fen()
    divided = board.perft_divide(3)
    assert set(divided) == set(board.legal_moves)
    assert sum(divided.values()) == board.perft(3) and board.fen() == before
    assert all(count == 1 for count in board.perft_divide(1).values())


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_copies_are_independent_equal_and_hash_alike(make, uci: str) -> None:
    board = make()
    board.push_uci(uci)
    for twin in (board.copy(), copy.copy(board), pickle.loads(pickle.dumps(board))):
        assert twin == board and hash(twin) == hash(board) and twin.move_stack == board.move_stack
        twin.push(next(iter(twin.legal_moves)))
        assert twin != board and len(board.move_stack) == 1
    assert board != make() and board.__eq__("a board") is NotImplemented


@pytest.mark.parametrize(("make", "uci"), BOARDS)
def test_printing(make, uci: str) -> None:
    board = make()
    lines = str(board).splitlines()
    files = lines[-1].split()
    assert len(lines) == len(files) + 1 and lines[0].startswith(f"{len(files)} ")
    assert repr(board) == f"Board({board.fen()!r}, variant={board.variant.name!r})"


def test_both_move_classes_share_str_repr_and_the_type_check() -> None:
    chess, alq = Move.from_uci("e3e4"), alquerque.Move.from_uci("hc3,b2c3")
    for move in (chess, alq):
        assert isinstance(move, MoveBase) and str(move) == move.uci()
        assert eval(repr(move), {"Move": type(move)}) == move
        assert type(move).require(move) is move
    with pytest.raises(InvalidMoveError, match="expected a Move, got Move"):
        Move.require(alq)
    with pytest.raises(InvalidMoveError, match="expected an Alquerque Move, got str"):
        alquerque.Move.require("c2c3")


def test_both_rule_sets_share_names_options_and_replace() -> None:
    bell = find_game("bell").rules
    for rules in (MAKRUK, bell):
        assert isinstance(rules, RuleSetBase) and rules.option_table()
        assert rules.replace(title="Other").title == "Other"
        with pytest.raises(VariantError, match="unknown variant field"):
            rules.replace(colour="red")
    assert bell.with_options(no_return="off").no_return.value == "off"
    with pytest.raises(VariantError, match="does not apply"):
        find_game("alquerque").rules.with_options(no_return="off")


def test_ouk_derives_from_makruk_as_kar_ouk_from_ouk() -> None:
    differences = {
        field.name
        for field in dataclasses.fields(MAKRUK)
        if getattr(MAKRUK, field.name) != getattr(CAMBODIAN, field.name)
    }
    assert differences == {"name", "title", "aliases", "start_fen", "gates", "counting_rule"}
    assert CAMBODIAN.gates is GateRule.KING_AND_MET_LEAPS
    assert dataclasses.replace(CAMBODIAN, name="karouk").checks_to_win == 0
    assert KAROUK.checks_to_win == 1 and KAROUK.gates is CAMBODIAN.gates
