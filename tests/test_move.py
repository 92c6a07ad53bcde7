"""``Move`` and its UCI form (docs/rules.md 1, "Move strings")."""

from __future__ import annotations

import pytest

from kradan import FERZ, MET, ROOK, InvalidMoveError, Move, parse_square


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("e3e4", Move(parse_square("e3"), parse_square("e4"))),
        ("b4c3m", Move(parse_square("b4"), parse_square("c3"), promotion=MET)),
        ("d5d5f", Move(parse_square("d5"), parse_square("d5"), promotion=FERZ)),
        ("R@a1", Move(parse_square("a1"), parse_square("a1"), drop=ROOK)),
    ],
)
def test_uci_round_trip(text: str, move: Move) -> None:
    assert Move.from_uci(text) == move
    assert move.uci() == text
    assert str(move) == text


@pytest.mark.parametrize(
    "text", ["", "e3", "e3e9", "i1a1", "e3e4q", "e3e4k", "X@a1", "e3-e4", " e3e4", 42]
)
def test_malformed_uci_raises_invalid_move_error_quoting_it(text: object) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Move.from_uci(text)  # type: ignore[arg-type]
    assert repr(text) in str(info.value)


def test_moves_are_frozen_and_hashable() -> None:
    move = Move.from_uci("e3e4")
    with pytest.raises(AttributeError):
        move.to_square = 0  # type: ignore[misc]
    assert {move: 1}[Move.from_uci("e3e4")] == 1
