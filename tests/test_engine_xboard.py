"""``kradan xboard`` (issue 6 item 3): a scripted CECP session, line by line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kradan import Board, Move
from kradan.engine.protocol.xboard import XBoardEngine
from kradan.games import game_names, new_board

from .protocol_session import Session as ProtocolSession


def new_session() -> ProtocolSession:
    return ProtocolSession(XBoardEngine)


def test_features_name_every_variant() -> None:
    session = new_session()
    session.send("xboard", "protover 2")
    features = session.lines[-1]
    assert features.startswith("feature ") and features.endswith("done=1")
    for name in ("makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"):
        assert name in features
    assert f'variants="{",".join(game_names())}"' in features  # the names UCI_Variant takes


def test_engine_answers_a_user_move_as_black() -> None:
    session = new_session()
    session.send("new", "variant makruk", "st 1", "usermove e3e4")
    move = session.wait_for("move ").split()[1]
    board = Board()
    board.push_uci("e3e4")
    assert Move.from_uci(move) in board.legal_moves


@pytest.mark.parametrize(
    "game", ["makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"]
)
def test_every_game_answers_a_user_move(game: str) -> None:
    """XBoard plays every game: ``variant``, a user move in the game's UCI-style notation,
    and the engine's reply is a legal move there."""
    board = new_board(game)
    first = sorted(board.legal_moves, key=lambda move: move.uci())[0]
    session = new_session()
    session.send(
        "xboard", "protover 2", "new", f"variant {game}", "sd 3", f"usermove {first.uci()}"
    )
    reply = session.wait_for("move ").split()[1]
    board.push(first)
    assert board.parse_uci(reply) in board.legal_moves
    assert session.engine.board.move_stack[-1].uci() == reply
    assert not any(line.startswith(("Error", "Illegal", "tellusererror")) for line in session.lines)


def test_alquerque_setboard_capture_and_post() -> None:
    """Alquerque over XBoard: a position from ``setboard``, ``go``, thinking output, and a
    multi-jump move written as the points visited."""
    session = new_session()
    session.send("new", "variant alquerque", "force", "post", "setboard 5/5/3p1/1p3/P4 w - 0 1")
    session.send("sd 3", "go")
    assert session.wait_for("move ") == "move a1c3e3"
    assert any(line.split()[0].isdigit() for line in session.lines)


def test_force_setboard_go_and_post() -> None:
    session = new_session()
    session.send("new", "force", "post", "setboard k7/2K5/8/8/8/8/7R/8 w - - 0 1", "sd 3", "go")
    assert session.wait_for("move ") == "move h2a2"
    assert any(line.split()[0].isdigit() for line in session.lines)  # thinking output
    assert session.wait_for("1-0") == "1-0 {checkmate}"


def test_errors_never_end_the_session() -> None:
    session = new_session()
    session.send("new", "force")
    assert session.send("usermove e3e5") is True
    assert session.lines[-1] == "Illegal move: e3e5"
    assert session.send("frobnicate") is True
    assert session.lines[-1] == "Error (unknown command): frobnicate"
    assert session.send("variant chess") is True
    assert session.lines[-1].startswith("Error (unknown variant 'chess'")
    assert session.send("level 40") is True
    assert session.lines[-1].startswith("Error (")
    session.send("ping 3")
    assert session.lines[-1] == "pong 3"


def test_undo_remove_and_quit_mid_search() -> None:
    session = new_session()
    session.send("new", "force", "e3e4", "d6d5", "remove")
    assert session.engine.board.fen() == Board().fen()
    session.send("e3e4", "undo")
    assert session.engine.board.fen() == Board().fen()
    session.send("level 0 5 0", "go")
    assert session.send("quit") is False


def test_the_command_over_pipes() -> None:
    script = "xboard\nprotover 2\nnew\nvariant sittuyin\nst 1\ngo\nping 1\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "kradan.cli.main", "xboard"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and "pong 1" in lines
    assert any(line.startswith("move ") and "@" in line for line in lines)  # a setup drop


@pytest.mark.parametrize(
    "command",
    ["x" * 1_000_000, "setboard " + "p" * 1_000_000, bytes(range(256)).decode("latin-1")],
    ids=["1MB", "1MB-setboard", "binary"],
)
def test_huge_and_binary_lines_get_a_short_error(command: str) -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT

    session = new_session()
    assert session.send(command) is True
    assert session.lines[-1].startswith(("Error", "tellusererror"))
    assert len(session.lines[-1]) <= MAX_COMPLAINT + 40
    session.send("ping 7")
    assert session.lines[-1] == "pong 7"
