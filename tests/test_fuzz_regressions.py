"""Every crash the fuzzers (``fuzz/``, ``benchmarks/fuzz.py``; issue 13 item 3) found, as the
input that caused it: each now gets kradan's typed error, quoting the input."""

from __future__ import annotations

import io

import pytest

from kradan import Board
from kradan.errors import InvalidFenError, PgnError
from kradan.games import find_game, new_board
from kradan.pgn import parse_options, read_game
from kradan.players import PlayerSpecError, make_player

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - -"


@pytest.mark.parametrize(
    "fen",
    [
        f"{START} 99999999999999999999999 1",  # OverflowError into the position array
        f"{START} 0 99999999999999999999999",
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - 9999999999999999999999 0 1",
        f"{START} 0 ²",  # '²'.isdigit() is true, int('²') a ValueError
        "rnsmksnr/8/pp²ppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",  # an AssertionError
    ],
)
def test_a_fen_with_an_unreadable_or_huge_number_is_an_invalid_fen(fen: str) -> None:
    with pytest.raises(InvalidFenError) as raised:
        Board(fen)
    assert repr(fen) in str(raised.value)


def test_a_fen_counter_up_to_a_billion_still_reads() -> None:
    board = Board(f"{START} 1000000000 1000000000")
    assert board.fen().endswith(" 1000000000 1000000000")


@pytest.mark.parametrize(
    "text",
    ["5/5/5/1p3/P4 w - 099999999999999999999 1", "5/5/5/1p3/P4 w - 0 ²"],
)
def test_an_alquerque_text_with_an_unreadable_or_huge_number_is_invalid(text: str) -> None:
    with pytest.raises(InvalidFenError) as raised:
        new_board("alquerque", text)
    assert repr(text) in str(raised.value)


def test_an_option_value_like_a_superscript_digit_is_text_not_a_crash() -> None:
    """``n_move_rule=²`` was a ValueError out of ``int()``: now the value stays text and the
    option refuses it with kradan's error."""
    game = find_game("makruk")
    options = parse_options("n_move_rule=²", game.options)
    assert options == {"n_move_rule": "²"}
    with pytest.raises(ValueError, match="n_move_rule"):
        game.new_board(None, **options)
    pgn = '[Variant "makruk"]\n[VariantOptions "n_move_rule=²"]\n\n*\n'
    with pytest.raises(PgnError, match="n_move_rule"):
        read_game(io.StringIO(pgn), strict=True)


def test_a_kradan_player_with_a_superscript_level_is_a_bad_spec() -> None:
    with pytest.raises(PlayerSpecError, match="kradan:level=²"):
        make_player("kradan:level=²")
