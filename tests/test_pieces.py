"""Squares and pieces: absolute coordinates, a1 = 0 (docs/rules.md 1, DESIGN.md)."""

from __future__ import annotations

import pytest

from kradan import (
    BLACK,
    KHON,
    MET,
    WHITE,
    InvalidSquareError,
    Piece,
    parse_square,
    piece_name,
    square,
    square_file,
    square_name,
    square_rank,
)


def test_square_names_are_absolute() -> None:
    assert parse_square("a1") == 0
    assert parse_square("h8") == 63
    assert square_name(parse_square("e3")) == "e3"
    assert square(4, 2) == parse_square("e3")
    assert (square_file(parse_square("e3")), square_rank(parse_square("e3"))) == (4, 2)


@pytest.mark.parametrize("name", ["i1", "a9", "", "A1", "e", None])
def test_bad_square_names_raise(name: object) -> None:
    with pytest.raises(InvalidSquareError) as info:
        parse_square(name)  # type: ignore[arg-type]
    assert repr(name) in str(info.value)


def test_piece_symbols() -> None:
    assert Piece(MET, WHITE).symbol() == "M"
    assert Piece(KHON, BLACK).symbol() == "s"
    assert str(Piece(MET, BLACK, promoted=True)) == "m"
    assert piece_name(KHON) == "khon"
