"""Why a move is refused (issue 43): ``parse_uci``, ``push`` and ``parse_san`` say why in words a
player understands, for every kind of refusal, and the reason never changes what is legal."""

from __future__ import annotations

import random

import pytest

from kradan import new_board
from kradan.errors import IllegalMoveError
from kradan.move import Move

START = None


@pytest.mark.parametrize(
    ("game", "fen", "uci", "reason"),
    [
        ("makruk", START, "e2e3", "there is no piece on e2"),
        ("makruk", START, "e6e5", "the pawn on e6 is Black's, and White is to move"),
        ("makruk", START, "b1b3", "White's own pawn stands on b3"),
        ("makruk", START, "f1c4", "the khon on f1 can go to e2, f2, g2"),
        # (a1a1 is the null move's squares: parse_uci refuses it so, push passes, as in
        # python-chess; test_conveniences covers it)
        ("makruk", START, "h1h1",
         "the rook on h1 stays where it is (a move goes to another square)"),
        ("makruk", "4k3/8/8/8/3r4/8/3R4/3K4 w - - 0 1", "d2e2",
         "the rook on d2 would leave White's king in check"),
        ("makruk", "4k3/8/8/8/8/8/3R4/r2K4 w - - 0 1", "d2e2",
         "White's king is in check, and after the rook on d2 moves it still is"),
        ("makruk", "7k/8/8/4P3/8/8/r7/7K w - - 0 1", "e5e6", "write it as e5e6m"),
        ("makruk", "k7/8/8/8/8/8/8/K6R w - - 0 1", "R@a2",
         "no piece is dropped now (pieces are dropped only while setting up)"),
        ("makruk", "k7/1R6/K7/8/8/8/8/8 b - - 0 1", "a8b8", "the game is over (stalemate)"),
        ("sittuyin", START, "R@e5", "a rook is not dropped on e5 (outside White's camp)"),
        ("sittuyin", "7k/8/8/8/3F4/8/r3P3/7K[] w - - 0 1", "e2e2f",
         "the pawn on e2 cannot promote now"),
        ("sittuyin", "8/8/4pppp/pppp4/4PPPP/PPPP4/3K4/8[SSFRRNNkssfrrnn] w - - 0 1", "K@e2",
         "White has no king in hand"),
    ],
)  # fmt: skip
def test_each_refusal_says_why(game: str, fen: str | None, uci: str, reason: str) -> None:
    board = new_board(game, fen)
    with pytest.raises(IllegalMoveError) as refused:
        board.parse_uci(uci)
    assert str(refused.value).endswith(f": {reason}")
    before = board.fen()
    with pytest.raises(IllegalMoveError) as pushed:
        board.push(Move.from_uci(uci))
    assert str(pushed.value).endswith(f": {reason}") and board.fen() == before


@pytest.mark.parametrize(
    ("san", "reason"),
    [
        ("Nd4", "no knight of White's can go to d4"),
        ("e5", "no pawn of White's can go to e5"),
        ("Rd4", "no rook of White's can go to d4"),
    ],
)
def test_a_refused_san_says_why(san: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as refused:
        new_board("makruk").parse_san(san)
    assert str(refused.value).endswith(f": {reason}")


def test_squares_alone_read_as_uci_in_parse_san() -> None:
    board = new_board("makruk")
    assert board.parse_san("b1d2") == board.parse_uci("b1d2") == board.parse_san("Nd2")


@pytest.mark.parametrize("game", ["makruk", "cambodian", "karouk", "sittuyin"])
def test_every_refusal_gives_a_reason_in_random_games(game: str) -> None:
    """Random games: every legal move is taken, and every other move between two squares is
    refused with a reason after the usual words (no refusal is silent)."""
    rng = random.Random(43)
    board = new_board(game)
    for _ in range(40):
        legal = list(board.legal_moves)
        if not legal or board.is_game_over():
            break
        for move in legal[:5]:
            assert board.parse_uci(move.uci()) == move
        for _ in range(5):
            other = Move(rng.randrange(64), rng.randrange(64))
            if other in legal:
                continue
            with pytest.raises(IllegalMoveError) as refused:
                board.push(other)
            usual = f"illegal move {other.uci()!r} in {board.fen()!r}"
            assert str(refused.value).startswith(usual + ": ")
        board.push(rng.choice(legal))
