"""``kradan convert``, ``kradan validate`` and ``kradan show FILE.pgn``; kradan.pgn.formats."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest

from kradan import PgnError, pgn
from kradan.cli.main import main
from kradan.games import AnyBoard, new_board
from kradan.pgn import formats


def _random_board(name: str, seed: int, plies: int = 40, **options: object) -> AnyBoard:
    rng = random.Random(seed)
    board = new_board(name, **options)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_game_over():
            break
        board.push(rng.choice(moves))  # type: ignore[arg-type]
    return board


def _games(text: str) -> list[pgn.Game]:
    handle, games = io.StringIO(text), []
    while (game := pgn.read_game(handle)) is not None:
        assert game.errors == []
        games.append(game)
    return games


@pytest.fixture
def pgn_file(tmp_path: Path) -> Path:
    path = tmp_path / "games.pgn"
    texts = [
        pgn.game_text(_random_board(name, seed), {"Round": str(seed)})
        for seed, name in enumerate(["makruk", "cambodian", "sittuyin", "alquerque-bell"])
    ]
    path.write_text("\n".join(texts), encoding="utf-8")
    return path


@pytest.mark.parametrize("target", ["fen", "uci"])
def test_pgn_to_another_format_and_back_keeps_every_move(
    pgn_file: Path, tmp_path: Path, target: str
) -> None:
    middle = tmp_path / f"games.{target}"
    back = tmp_path / "back.pgn"
    assert main(["convert", str(pgn_file), "--to", target, "-o", str(middle)]) == 0
    if target == "fen":  # a FEN list names no variant: keep the Makruk game (the default)
        blocks = middle.read_text().strip().split("\n\n")
        assert len(blocks) == 4
        middle.write_text(blocks[0] + "\n")
    else:
        lines = middle.read_text().strip().splitlines()
        assert len(lines) == 4 and lines[0].startswith("startpos moves ")
        middle.write_text("\n".join(lines[:1]) + "\n")
    assert main(["convert", str(middle), "--to", "pgn", "-o", str(back)]) == 0
    original = _games(pgn_file.read_text())
    again = _games(back.read_text())
    assert len(again) == 1
    for old, new in zip(original, again, strict=False):
        assert new.mainline_moves() == old.mainline_moves()


def test_fen_lists_need_moves_that_link_them() -> None:
    with pytest.raises(PgnError, match=r"position 2 .* no legal move leads to it"):
        formats.game_from_positions(
            [
                "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
                "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR w - - 0 1",
            ],
            "makruk",
        )


def test_a_declared_count_survives_the_fen_list() -> None:
    from kradan import Board

    board = Board("8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1", counting="declared")
    board.push_san("Rd4")
    board.declare_count()
    board.push_san("Ke5")
    game = pgn.Game.from_board(board)
    texts = formats.positions(game)
    again = formats.game_from_positions(texts, "makruk", counting="declared")
    assert again.next() is not None and again.next().count_actions == ["declare"]  # type: ignore[union-attr]


def test_uci_lines_with_a_fen_and_bad_moves() -> None:
    game = formats.game_from_uci("position fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1 moves a1a8", "makruk")
    assert game.headers["FEN"].startswith("7k/") and game.headers["Result"] == "1-0"
    assert formats.uci_line(game) == "fen 7k/8/6K1/8/8/8/8/R7 w - - 0 1 moves a1a8"
    with pytest.raises(PgnError, match="move 2 'e3e4'"):
        formats.game_from_uci("e3e4 e3e4", "makruk")


def test_thai_notation_and_the_dialects_read_back(pgn_file: Path, tmp_path: Path) -> None:
    original = _games(pgn_file.read_text())
    for options in (["--notation", "thai"], ["--dialect", "pychess"], ["--dialect", "cutechess"]):
        out = tmp_path / "out.pgn"
        assert main(["convert", str(pgn_file), "-o", str(out), *options]) == 0
        again = _games(out.read_text(encoding="utf-8"))
        assert [g.mainline_moves() for g in again] == [g.mainline_moves() for g in original]
        text = out.read_text(encoding="utf-8")
        if options[1] == "pychess":
            assert '[Variant "Makruk"]' in text and '[SetUp "1"]' in text
        if options[1] == "cutechess":
            assert "[PlyCount " in text


def test_cutechess_dialect_writes_the_short_sittuyin_promotion() -> None:
    board = new_board("sittuyin", "1r2rs2/k6n/1n1f1pRP/pPpP3P/P1pps3/2SP1R2/4K2S/7N[] w - - 0 35")
    board.push_uci("d5c6f")  # type: ignore[union-attr]
    game = pgn.Game.from_board(board)
    text = next(iter(formats.export([game], dialect="cutechess")))
    assert "35. c6=F" in text
    assert next(iter(formats.export([game]))).count("d5c6=F") == 1
    again = _games(text)[0]
    assert again.mainline_moves() == game.mainline_moves()


def test_validate_reports_every_problem_with_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.pgn"
    path.write_text(
        '[White "A"]\n[Black "B"]\n\n1. e4 Qh4 2. Nd2 *\n\n[Variant "shogi"]\n\n1. e4 *\n\n'
        '[Variant "makruk"]\n\n1. e4 d5 *\n'
    )
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:4: game 1 (A - B), move 1: " in out and "'Qh4'" in out
    assert "game 2" in out and "'shogi'" in out
    assert "3 games" in out and "2 problems in 2 games" in out
    good = tmp_path / "good.pgn"
    good.write_text('[Variant "makruk"]\n\n1. e4 d5 *\n')
    assert main(["validate", str(good)]) == 0
    assert "no problems" in capsys.readouterr().out
    assert main(["validate", str(tmp_path / "missing.pgn")]) == 2


def test_convert_reports_bad_input_with_a_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", str(tmp_path / "missing.pgn")]) == 2
    bad = tmp_path / "bad.uci"
    bad.write_text("startpos moves e3e4 e3e4\n")
    assert main(["convert", str(bad)]) == 1
    assert "'e3e4'" in capsys.readouterr().err


def test_show_takes_a_position_from_a_pgn_file(
    pgn_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["show", str(pgn_file), "--ply", "0"]) == 0
    start = capsys.readouterr().out
    assert main(["show", str(pgn_file), "--game", "2"]) == 0
    end = capsys.readouterr().out
    assert start != end and "White" in start
    assert main(["show", str(pgn_file), "--ply", "999"]) == 2
    assert "plies" in capsys.readouterr().err
    assert main(["show", str(pgn_file), "--game", "9"]) == 2
    assert main(["show", str(pgn_file), "--game", "0"]) == 2
    assert "numbered from 1" in capsys.readouterr().err
