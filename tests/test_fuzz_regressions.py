"""Every crash the fuzzers (``fuzz/``, ``benchmarks/fuzz.py``; issue 13 item 3) found, as the
input that caused it: each now gets kradan's typed error, quoting the input."""

from __future__ import annotations

import io

import pytest

from kradan import Board
from kradan.engine.driver import StopClock
from kradan.engine.protocol.xboard import XBoardEngine
from kradan.errors import InvalidFenError, PgnError
from kradan.games import find_game, new_board
from kradan.pgn import parse_options, read_game
from kradan.runners.players import PlayerSpecError, make_player

from .protocol_session import Session

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


def test_a_result_tag_that_is_no_result_does_not_end_the_movetext_as_moves() -> None:
    """The campaign's PGN target: ``[Result "e4 $1 {known(-1"]`` was written as the game's
    termination marker, so the game read back with a move e4 it never had. The tag keeps its
    text; the movetext ends with ``*``."""
    game = read_game(io.StringIO('[Eitk "?"][Result "e4 $1 {known(-1"]\n'))
    assert game is not None
    written = str(game)
    again = read_game(io.StringIO(written))
    assert again is not None
    assert list(again.mainline_moves()) == list(game.mainline_moves()) == []
    assert again.headers["Result"] == "e4 $1 {known(-1"
    assert written.rstrip().endswith("\n*")


@pytest.mark.parametrize(
    "command", ["st 1e300", "st inf", "st nan", "st -1", "level 40 1e300 0", "time 1e9", "sd 1e99"]
)
def test_an_xboard_time_no_timer_can_wait_is_refused_not_a_dead_thread(command: str) -> None:
    """The campaign's XBoard target: ``st 1e300`` armed a timer that overflowed in its own
    thread (a traceback on standard error, and no stop). Now the command is refused."""
    session = Session(XBoardEngine)
    session.send("xboard", "protover 2", command)
    assert session.lines[-1].startswith("Error (") and session.lines[-1].endswith(command)


def test_a_timer_past_what_threading_can_wait_is_not_armed() -> None:
    clock = StopClock(lambda: None)
    assert not clock.start(1e300)
    assert not clock.start(float("nan"))
    assert clock.start(1e6)
    clock.cancel()


def test_a_bad_match_time_control_is_an_error_line_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``kradan match random random --tc abc`` raised a bare ValueError out of the command
    (the CLI fuzzer's own --tc had hidden it; it now leaves a bad one in place)."""
    from fuzz.cli import _bounded
    from kradan.cli.main import main

    assert main(["match", "random", "random", "--tc", "abc"]) == 2
    assert "kradan: error: time control 'abc'" in capsys.readouterr().err
    assert "0.1+0" not in _bounded(["match", "random", "random", "--tc", "abc"])
    assert "kradan:tc=0.1" in _bounded(["match", "kradan:tc=600", "random"])


@pytest.mark.parametrize(
    "argv", [["analyse", "--time", "inf"], ["analyse", "--time", "nan"], ["play", "--time", "0"]]
)
def test_endless_thinking_is_refused_at_once(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``kradan analyse --time inf`` searched forever; the CLI fuzzer's own ``--time`` hid it
    (it now leaves a refused value in place)."""
    from fuzz.cli import _bounded
    from kradan.cli.main import main

    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "seconds must be above 0" in capsys.readouterr().err
    assert argv[-1] in _bounded(argv)


def test_a_match_of_millions_is_refused_before_the_first_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--games 2000000`` built two million game descriptions before playing one."""
    from fuzz.cli import _bounded
    from kradan.cli.main import main

    argv = ["match", "random", "random", "--games", "2000000"]
    assert main(argv) == 2
    assert "at most 1,000,000 in one run" in capsys.readouterr().err
    assert "2000000" in _bounded(argv)


@pytest.mark.parametrize(
    "command", [["convert", "FI\0LE", "--to", "fen"], ["show", "--svg", "a\0b"]]
)
def test_an_argument_with_a_nul_byte_is_an_error_line(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``main(["convert", "FI\\0LE", ...])`` raised open()'s ValueError (found by the CLI
    fuzzer; no shell can pass a NUL, but a program calling main() can)."""
    from kradan.cli.main import main

    assert main(command) == 2
    assert "kradan: error: an argument holds a NUL byte:" in capsys.readouterr().err


def test_the_cli_harness_bounds_every_spelling_of_a_deep_perft() -> None:
    """``perft makruk "12 "`` escaped the harness's depth cap (int() reads "12 ") and ran a
    depth-12 perft for ever in the campaign."""
    from fuzz.cli import _bounded

    for depth in ("12 ", "+12", "1_2", " 9", "\u0661\u0662"):
        assert _bounded(["perft", "makruk", depth])[2] == "2"
    assert _bounded(["perft", "makruk", "3"])[2] == "3"
