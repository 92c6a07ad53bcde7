"""``kradan play`` (issue 6 item 6): the terminal game, driven through injected input and output,
and once in a real terminal through tmux when it is installed."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kradan.cli.play import HELP, TerminalGame


def game(lines: list[str], **options: object) -> tuple[TerminalGame, list[str], str]:
    args = argparse.Namespace(
        variant="makruk", color="white", level=3, time=0.05, counting="auto", fen=None,
        no_color=True, book=None,
    )  # fmt: skip
    for key, value in options.items():
        setattr(args, key, value)
    inputs = iter(lines)
    output: list[str] = []

    def read(prompt: str) -> str:
        try:
            return next(inputs)
        except StopIteration:
            raise EOFError from None

    session = TerminalGame(args, read, output.append)
    result = session.run()
    return session, output, result


def test_moves_hint_undo_help_and_quit() -> None:
    session, output, result = game(["help", "e4", "hint", "moves", "undo", "xyz", "quit"])
    text = "\n".join(output)
    assert HELP in text and "kradan plays " in text and "hint: " in text
    assert "invalid SAN 'xyz'" in text
    assert result == "*"
    assert len(session.board.move_stack) == 0  # undo took back both moves


def test_the_hint_comes_from_the_endgame_tables_with_their_verdict() -> None:
    """Issue 14: in KR v K with 15 counted moves left the hint is the tables' fastest mate."""
    _, output, _ = game(["hint", "quit"], fen="8/8/3k4/8/8/3K4/8/R7 w - 32 3 40")
    hints = [line for line in output if line.startswith("hint: ")]
    assert hints == [
        "hint: Kd4 (endgame table: win: mate in 12 (23 plies, KRvK), the count allows 15 "
        "(pieces' honour))"
    ]


def test_the_engine_plays_from_a_book(tmp_path: Path) -> None:
    """``kradan play --book``: a book that knows one answer to c4 gives it at once."""
    import io

    from kradan import pgn
    from kradan.engine.book import build

    games = io.StringIO('[Result "0-1"]\n\n1. c4 a5 0-1\n')
    path = tmp_path / "m.book"
    build([pgn.read_game(games)], "makruk").write(path)
    session, output, _ = game(["c4", "quit"], book=str(path))
    assert [move.uci() for move in session.board.move_stack] == ["c3c4", "a6a5"]
    assert "kradan plays a5 (book)" in output


def test_playing_black_lets_the_engine_start() -> None:
    session, output, _ = game(["quit"], color="black")
    assert output[1].startswith("1 ")  # Black's view: rank 1 on top
    assert len(session.board.move_stack) == 1


def test_resign_and_draw() -> None:
    _, output, result = game(["resign"])
    assert result == "0-1" and "You resign: 0-1" in output
    # before move 10 the engine declines, even when it is not ahead (issue 43)
    _, output, result = game(["draw", "quit"])
    assert result == "*" and "kradan declines the draw: too early (before move 10)" in output
    # later, with a rook each, it is not ahead and accepts
    _, output, result = game(["draw", "quit"], fen="k7/8/8/8/8/8/r7/4K2R w - - 0 30")
    assert result == "1/2-1/2" and "kradan accepts the draw: 1/2-1/2" in output
    # a rook up, the engine is ahead and plays on
    _, output, result = game(["draw", "quit"], color="black", fen="k7/8/8/8/8/8/8/1R2K3 w - - 0 1")
    assert result == "*" and not any("accepts the draw" in line for line in output)


def test_game_over_by_mate() -> None:
    _, output, result = game(["Ra1"], fen="k7/2K5/8/8/8/8/8/7R w - - 0 1")
    assert result == "1-0" and output[-1] == "Game over: 1-0 (checkmate)"


def test_declared_counting_from_the_terminal() -> None:
    fen = "k6m/2K5/8/8/8/8/7R/8 w - - 0 1"
    _, output, _ = game(["count", "stop", "stop", "quit"], fen=fen, counting="declared")
    text = "\n".join(output)
    assert "board's honour: White counts 0 of 64" in text
    assert "count stopped" in text and "cannot stop: no count is running" in text


def _pane(name: str) -> str:
    return subprocess.run(
        ["tmux", "capture-pane", "-p", "-S", "-200", "-t", name], capture_output=True, text=True
    ).stdout


def _wait_for(name: str, text: str, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = _pane(name)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared:\n{_pane(name)}")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_in_a_real_terminal() -> None:
    """The README's ``kradan play makruk`` in a real terminal: a move, the engine's reply."""
    name = "kradan-play-test"
    command = f"{sys.executable} -m kradan.cli.main play makruk --level 1 --time 0.1"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", name, "-x", "100", "-y", "50", command], check=True
    )
    try:
        _wait_for(name, "your move>")
        subprocess.run(["tmux", "send-keys", "-t", name, "e4", "Enter"], check=True)
        screen = _wait_for(name, "kradan plays")
        assert "You play White" in screen
        subprocess.run(["tmux", "send-keys", "-t", name, "quit", "Enter"], check=True)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


def test_alquerque_in_the_terminal() -> None:
    """``kradan play alquerque``: the 25-point board with its lines, moves as points visited,
    the engine answering, undo, and no counting."""
    session, output, result = game(
        ["moves", "c2-c3", "count", "undo", "flip", "d3c3", "quit"], variant="alquerque"
    )
    text = "\n".join(output)
    assert "Alquerque (Alfonso X)" in output[0]
    assert "a   b   c   d   e" in text and "| \\ | / | \\ | / |" in text
    assert "kradan plays " in text and "Alquerque (Alfonso X) has no counting" in text
    assert "e   d   c   b   a" in text  # flipped
    assert result == "*"
    assert [m.uci() for m in session.board.move_stack][:1] == ["d3c3"]
    assert len(session.board.move_stack) == 2


def test_the_game_is_saved_as_pgn() -> None:
    import io

    from kradan import pgn

    session, _, result = game(["e4", "resign"])
    text = session.pgn()
    saved = pgn.read_game(io.StringIO(text))
    assert saved is not None and saved.errors == []
    assert saved.headers["White"] == "player" and saved.headers["Black"] == "kradan (level 3)"
    assert saved.headers["Result"] == result == "0-1"
    assert saved.headers["Termination"] == "resignation"
    assert saved.mainline_moves() == session.board.move_stack


def test_sittuyin_in_the_terminal_takes_no_counting_option() -> None:
    """``kradan play sittuyin``: ``--counting`` is passed on only to the games that take it
    (it used to reach Sittuyin's rules and stop the game before it began)."""
    session, output, result = game(["quit"], variant="sittuyin", counting="declared")
    assert "Sittuyin" in output[0] and result == "*"
    assert session.board.variant.name == "sittuyin"


# --- issue 43: UCI and SAN for every game, reasons, levels, colours, the end of a game ----------


@pytest.mark.parametrize(
    ("variant", "moves", "played"),
    [
        ("makruk", ["b1d2"], "b1d2"),  # a knight's move in UCI
        ("makruk", ["Nd2"], "b1d2"),  # and in SAN
        ("cambodian", ["g1e2"], "g1e2"),
        ("karouk", ["d1b2"], "d1b2"),  # the king's first-move leap, in UCI
        ("makruk", ["ม-ง๒"], "b1d2"),  # Thai SAN
        ("sittuyin", ["K@d2"], "K@d2"),  # a drop while setting up
        ("alquerque", ["c2c3"], "c2c3"),
    ],
)
def test_kradan_play_takes_uci_and_san_in_every_game(
    variant: str, moves: list[str], played: str
) -> None:
    session, output, _ = game([*moves, "quit"], variant=variant)
    assert session.board.move_stack[0].uci() == played, output


def test_a_refused_move_says_why() -> None:
    _, output, _ = game(["b1b3", "Nd4", "quit"])
    assert any(line.endswith(": White's own pawn stands on b3") for line in output), output
    assert any(line.endswith(": no knight of White's can go to d4") for line in output), output


@pytest.mark.parametrize("level", ["0", "25", "-3", "x"])
def test_kradan_play_checks_the_level_as_match_does(
    level: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from kradan.cli.main import main

    with pytest.raises(SystemExit) as stopped:
        main(["play", "makruk", "--level", level])
    assert stopped.value.code == 2
    assert "argument --level: " in capsys.readouterr().err


def test_colours_only_on_a_terminal_and_never_with_no_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io

    from kradan.cli.common import wants_colour

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert wants_colour(False, Terminal())
    assert not wants_colour(True, Terminal())
    assert not wants_colour(False, io.StringIO())  # a pipe or a file: no escapes
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour(False, Terminal())


def test_kradan_play_into_a_pipe_writes_no_escape_codes() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kradan", "play", "makruk", "--time", "0.05"],
        input="quit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "\033[" not in done.stdout and "White to move" in done.stdout


def test_after_a_mate_the_status_line_shows_the_result_not_a_count() -> None:
    # a rook against a lone king: the count runs until the mate, and not after it
    _, output, result = game(["Ra1"], fen="k7/2K5/8/8/8/8/8/7R w - 32 6 40")
    assert result == "1-0"
    assert "  game over: 1-0 (checkmate)" in output[-2]
    assert "moves left to mate" not in output[-2]
