"""``kradan uci`` (issue 6): scripted sessions, line by line, including stop, quit mid-search and
garbage input, as the UCI protocol describes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kradan import Board, Move
from kradan.engine.protocol.uci import UciEngine

from .protocol_session import Session as ProtocolSession


def new_session() -> ProtocolSession:
    return ProtocolSession(UciEngine)


def test_handshake_lists_every_variant() -> None:
    session = new_session()
    session.send("uci")
    assert session.lines[0].startswith("id name kradan")
    variant_line = next(line for line in session.lines if "UCI_Variant" in line)
    for name in ("makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"):
        assert f"var {name}" in variant_line
    assert session.lines[-1] == "uciok"
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_position_go_depth_gives_info_and_a_legal_bestmove() -> None:
    session = new_session()
    session.send("position startpos moves e3e4 d6d5", "go depth 5")
    best = session.wait_for("bestmove")
    infos = [line for line in session.lines if line.startswith("info depth")]
    assert len(infos) == 5
    for word in ("seldepth", "score", "nodes", "nps", "time", "pv"):
        assert f" {word} " in infos[-1]
    board = Board()
    board.push_uci("e3e4")
    board.push_uci("d6d5")
    assert Move.from_uci(best.split()[1]) in board.legal_moves


def test_variant_option_and_fen() -> None:
    session = new_session()
    session.send(
        "setoption name UCI_Variant value sittuyin",
        "position fen k7/2K5/8/8/8/8/7R/8[] w - - 0 1",
        "go depth 3",
    )
    assert session.wait_for("bestmove") == "bestmove h2a2"
    assert any("score mate 1" in line for line in session.lines)


def test_alquerque_over_uci() -> None:
    """Alquerque through the same protocol: its position text after ``position fen``, moves as
    the points visited, ``go perft``, MultiPV, and bad moves reported without ending."""
    session = new_session()
    session.send(
        "setoption name UCI_Variant value alquerque",
        "position fen 5/5/1p3/5/P1P2 w - 0 1",
        "setoption name MultiPV value 2",
        "go depth 4",
    )
    assert session.wait_for("bestmove") == "bestmove c1b2 ponder b3b1"
    assert any("multipv 1 score mate 2" in line for line in session.lines)
    assert any("multipv 2 " in line for line in session.lines)
    session.send("setoption name UCI_Variant value alquerque-bell", "position startpos moves c2c3")
    session.send("go perft 2")
    assert session.lines[-1] == "Nodes searched: 1"  # the capture is compulsory: c4xc2, c1xc3
    session.send("position startpos moves c2c2")
    assert "invalid Alquerque move" in session.lines[-1] or "illegal" in session.lines[-1]
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_stop_ends_an_infinite_search() -> None:
    session = new_session()
    session.send("position startpos", "go infinite")
    session.wait_for("info depth 3")
    session.send("stop")
    assert session.lines[-1].startswith("bestmove ")


def test_quit_mid_search_ends_the_session() -> None:
    session = new_session()
    session.send("go infinite")
    assert session.send("quit") is False


def test_garbage_is_reported_and_the_session_goes_on() -> None:
    session = new_session()
    for command in (
        "bogus",
        "go wtime x",
        "go depth",
        "position fen 8/8 w",
        "position startpos moves e3e5",
        "setoption name Hash value lots",
        "setoption name Colour value red",
        "setoption name UCI_Variant value chess",
        "position",
    ):
        assert session.send(command) is True
        assert session.lines[-1].startswith("info string "), command
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_go_perft_multipv_and_clock() -> None:
    session = new_session()
    session.send("go perft 2")
    assert session.lines[-1] == "Nodes searched: 529"
    session.lines.clear()
    session.send("setoption name MultiPV value 3", "position startpos", "go depth 3")
    session.wait_for("bestmove")
    assert {line.split(" multipv ")[1][0] for line in session.lines if " multipv " in line} == {
        "1",
        "2",
        "3",
    }
    session.lines.clear()
    session.send("setoption name MultiPV value 1", "go wtime 1000 btime 1000 winc 10 binc 10")
    session.wait_for("bestmove")


@pytest.mark.parametrize("options", [("Skill Level", "1"), ("UCI_LimitStrength", "true")])
def test_weaker_levels_still_play_legal_moves(options: tuple[str, str]) -> None:
    session = new_session()
    name, value = options
    session.send(f"setoption name {name} value {value}", "setoption name UCI_Elo value 600")
    session.send("position startpos", "go movetime 200")
    best = session.wait_for("bestmove").split()[1]
    assert Move.from_uci(best) in Board().legal_moves


def test_the_command_over_pipes() -> None:
    script = "uci\nisready\nposition startpos\ngo depth 4\nisready\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "kradan.cli.main", "uci"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert "uciok" in lines and any(line.startswith("bestmove ") for line in lines)


BINARY_GARBAGE = bytes(range(256)).decode("utf-8", errors="surrogateescape")


@pytest.mark.parametrize(
    "command",
    [
        "x" * 1_000_000,  # a 1 MB line
        "position fen " + "p" * 1_000_000,
        "position startpos moves " + "e3e4 " * 200_000,
        BINARY_GARBAGE,
        "position startpos moves e3e4 d6d5 e4",  # a truncated move
    ],
    ids=["1MB", "1MB-fen", "1MB-moves", "binary", "truncated"],
)
def test_huge_and_binary_lines_get_a_short_error_and_the_engine_keeps_serving(
    command: str,
) -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT

    session = new_session()
    assert session.send(command) is True
    answer = session.lines[-1]
    assert answer.startswith("info string ")
    assert len(answer) <= len("info string ") + MAX_COMPLAINT + 40  # the input is not echoed
    session.send("position startpos moves e3e4", "go depth 2")
    assert session.wait_for("bestmove").split()[1] in {
        move.uci() for move in _after("e3e4").legal_moves
    }


def _after(moves: str) -> Board:
    board = Board()
    for uci in moves.split():
        board.push_uci(uci)
    return board
