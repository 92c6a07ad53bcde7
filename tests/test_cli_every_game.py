"""Every command with every game (issue 43): what works for Makruk works for Ouk, Kar Ouk,
Sittuyin and both Alquerques, or says in one line why it does not apply (status 2)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from kradan import game_names, new_board, pgn
from kradan.cli.main import main

GAMES = game_names()


def _game_file(game: str, folder: Path) -> Path:
    """A short random game of ``game`` as a PGN file."""
    rng, board = random.Random(5), new_board(game)
    for _ in range(12):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))
    path = folder / f"{game}.pgn"
    path.write_text(pgn.game_text(board, {"Result": "1-0"}), encoding="utf-8")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_perft_show_and_analyse(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    start = new_board(game).fen()
    assert main(["perft", game, "2"]) == 0
    assert main(["show", "--variant", game, start]) == 0
    assert main(["analyse", "--variant", game, start, "--depth", "2"]) == 0
    out = capsys.readouterr().out
    assert f"nodes {new_board(game).perft(2)} " in out and "best move: " in out


@pytest.mark.parametrize("game", GAMES)
def test_play_takes_a_move_and_quits(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    board = new_board(game)
    first = next(iter(board.legal_moves))
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{board.uci(first)}\nquit\n"))
    assert main(["play", game, "--time", "0.05", "--level", "1"]) == 0


@pytest.mark.parametrize("game", GAMES)
def test_validate_convert_and_book(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _game_file(game, tmp_path)
    assert main(["validate", str(path)]) == 0
    fens = tmp_path / "positions.fen"
    assert main(["convert", str(path), "--to", "fen", "-o", str(fens)]) == 0
    assert main(["convert", str(fens), "--variant", game, "--to", "pgn"]) == 0
    assert (
        main(["book", "build", str(path), "-o", str(tmp_path / "x.book"), "--min-weight", "1"]) == 0
    )
    assert "no problems" in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_a_match_of_random_players(game: str, tmp_path: Path) -> None:
    games = tmp_path / "games.pgn"
    assert main(["match", "random", "random", "--variant", game, "--games", "2",
                 "--max-plies", "40", "--pgn", str(games)]) == 0  # fmt: skip
    assert games.read_text(encoding="utf-8").count(f'[Variant "{game}"]') == 2


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_protocols_name_every_game(game: str) -> None:
    from kradan.engine.protocol.uci import UciEngine
    from kradan.engine.protocol.xboard import XBoardEngine

    lines: list[str] = []
    uci = UciEngine(lines.append)
    uci.handle(f"setoption name UCI_Variant value {game}")
    uci.handle("position startpos")
    uci.handle("go depth 2")
    uci.wait()
    assert lines[-1].startswith("bestmove ")
    lines.clear()
    xboard = XBoardEngine(lines.append)
    for command in ("xboard", "protover 2", f"variant {game}", "new", "force", "go"):
        xboard.handle(command)
    xboard.wait()
    assert any(line.startswith("move ") for line in lines), lines


@pytest.mark.parametrize("game", GAMES)
def test_endgame_tables_answer_or_say_why(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A start position has too many pieces for the tables, and Kar Ouk and Alquerque have
    none: each says so in one error line (argparse's usage line before it for a game the
    command does not take), status 2."""
    try:
        status = main(["egtb", "probe", "--variant", game, new_board(game).fen()])
    except SystemExit as stopped:
        status = int(stopped.code or 0)
    errors = [line for line in capsys.readouterr().err.splitlines() if "error: " in line]
    assert status == 2 and len(errors) == 1
    assert game in errors[0] or "tables" in errors[0] or "pieces" in errors[0], errors
