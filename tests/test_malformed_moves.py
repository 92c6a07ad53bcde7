"""Malformed moves get typed errors that name them (issue 13 item 2): a ``Move`` with a square off
the board, an unknown promotion or drop piece, or something that is not a ``Move`` at all, given
to the chess board's and Alquerque board's methods. Never IndexError, KeyError or
AttributeError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from kradan import Board, Move
from kradan.alquerque import Board as AlquerqueBoard
from kradan.alquerque import Move as AlquerqueMove
from kradan.errors import InvalidMoveError, KradanError

NOT_MOVES: list[Any] = ["e3e4", None, 12, (12, 20), object()]


def chess_methods(board: Board) -> list[Callable[[Any], object]]:
    return [board.push, board.san, board.is_legal, board.gives_check, board.is_capture,
            board.gives_checkmate, board.encode_move]  # fmt: skip


@pytest.mark.parametrize("thing", NOT_MOVES, ids=repr)
def test_the_chess_board_names_what_is_not_a_move(thing: Any) -> None:
    board = Board()
    for method in chess_methods(board):
        with pytest.raises(InvalidMoveError, match="expected a Move, got") as caught:
            method(thing)
        assert repr(thing) in str(caught.value), method.__name__
    assert board.move_stack == [] and board.fen() == Board().fen()  # nothing changed


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"from_square": -1, "to_square": 20}, "from_square -1 is not a square"),
        ({"from_square": 12, "to_square": 64}, "to_square 64 is not a square"),
        ({"from_square": 12, "to_square": -8}, "to_square -8 is not a square"),
        ({"from_square": "e3", "to_square": 20}, "from_square 'e3' is not a square"),
        ({"from_square": True, "to_square": 20}, "from_square True is not a square"),
        ({"from_square": 12, "to_square": 20, "promotion": 99}, "promotion 99 is not a piece"),
        ({"from_square": 12, "to_square": 12, "drop": "R"}, "drop 'R' is not a piece"),
        ({"from_square": 12, "to_square": 20, "pawn_step": "e3e4"}, "pawn_step 'e3e4' is not"),
    ],
)
def test_a_malformed_move_is_refused_when_it_is_built(fields: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidMoveError, match=words):
        Move(**fields)


def test_numpy_squares_become_plain_integers() -> None:
    move = Move(np.int64(20), np.int32(28))  # e3e4
    assert type(move.from_square) is int and move == Move(20, 28)
    assert Board().is_legal(move)


def test_a_move_no_piece_of_the_game_can_make_is_illegal_not_a_crash() -> None:
    from kradan.pieces import FERZ, KING

    board = Board()
    for move in (Move(12, 20, promotion=KING), Move(20, 20, drop=FERZ), Move(0, 63)):
        assert not board.is_legal(move)
        for method in (board.push, board.san, board.gives_check):
            with pytest.raises(KradanError, match="illegal move"):
                method(move)


@pytest.mark.parametrize("thing", [*NOT_MOVES, Move(12, 20)], ids=repr)
def test_the_alquerque_board_names_what_is_not_its_move(thing: Any) -> None:
    board = AlquerqueBoard()
    for method in (board.push, board.san, board.is_legal, board.encode_move):
        with pytest.raises(InvalidMoveError, match="expected an Alquerque Move, got"):
            method(thing)
    assert board.move_stack == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((-1, (5,)), "origin -1 is not a point"),
        ((25, (5,)), "origin 25 is not a point"),
        ((7, ()), "path \\(\\) is not a non-empty tuple"),
        ((7, [12]), "path \\[12\\] is not a non-empty tuple"),
        ((7, (12, 30)), "path point 30 is not a point"),
        ((7, (12,), -2), "huff -2 is not a point"),
    ],
)
def test_a_malformed_alquerque_move_is_refused_when_it_is_built(
    args: tuple[Any, ...], words: str
) -> None:
    with pytest.raises(InvalidMoveError, match=words):
        AlquerqueMove(*args)
