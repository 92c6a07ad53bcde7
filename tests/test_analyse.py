"""``kradan analyse`` and kradan.engine.annotate: the engine's lines for a position, and a game
with every move judged."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kradan import Board, pgn
from kradan.cli.main import main
from kradan.engine import Limit
from kradan.engine.annotate import annotate, eval_text, score_value
from kradan.engine.types import Score


def test_scores_become_one_number_and_lichess_eval_text() -> None:
    assert score_value(Score(cp=35)) == 35
    assert score_value(Score(mate=2)) > score_value(Score(mate=5)) > 10_000
    assert score_value(Score(mate=-2)) < score_value(Score(mate=-5)) < -10_000
    assert score_value(Score(mate=0)) < -10_000  # the side to move is mated
    assert eval_text(Score(cp=35), True) == "0.35" and eval_text(Score(cp=35), False) == "-0.35"
    assert eval_text(Score(mate=3), False) == "#-3"


#: losing the rook here loses the game: the pawns keep the count (and the endgame tables) out.
#: Without them KR v K after ...Rxa1+ is a counting draw (mate takes 14 moves, the count leaves
#: 13), which the engine's tables know, so Kd1 would rightly be no blunder.
BLUNDER_START = "4k3/4p3/8/8/8/4P3/r7/R3K3 w - - 0 1"


def test_a_blunder_is_marked_and_the_better_line_given() -> None:
    board = Board(BLUNDER_START)
    board.push_san("Kd1")  # leaves the rook on a1 to be taken, instead of Rxa2
    board.push_san("Rxa1+")
    game = pgn.Game.from_board(board)
    annotate(game, Limit(depth=4))
    first = game.next()
    assert first is not None and 4 in first.nags  # ??
    assert first.comment.startswith("[%eval ")
    assert [child.san() for child in game.variations] == ["Kd1", "Rxa2"]
    assert game.headers["Annotator"] == "kradan"
    again = pgn.read_game(io.StringIO(str(game)))
    assert again is not None and again.errors == [] and 4 in again.next().nags  # type: ignore[union-attr]


def test_good_moves_get_no_mark() -> None:
    board = Board(BLUNDER_START)
    board.push_san("Rxa2")
    game = annotate(pgn.Game.from_board(board), Limit(depth=4))
    assert game.next() is not None and game.next().nags == set()  # type: ignore[union-attr]
    assert len(game.variations) == 1


def test_the_command_prints_lines_depth_by_depth(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "k7/2K5/8/8/8/7P/7R/8 w - - 0 1"  # the pawn keeps the endgame tables out
    assert main(["analyse", *fen.split(), "--depth", "4", "--multipv", "2"]) == 0
    out = capsys.readouterr().out
    assert "mate 1" in out and "1. Ra2#" in out
    assert "2 best lines:" in out and "best move: Ra2#" in out


@pytest.mark.parametrize(
    ("fen", "verdict", "best"),
    [
        (
            "8/8/3k4/8/8/3K4/8/R7 w - 32 3 40",
            "endgame table: win: mate in 12 (23 plies, KRvK), the count allows 15",
            "Kd4",
        ),
        (
            "8/8/8/4k3/8/8/8/R3K3 b - 32 10 40",
            "endgame table: draw: the count runs out first (mated in 14 (28 plies, KRvK), "
            "the count allows 11",
            "Kd4",
        ),
        (  # the blunder above without the pawns: the count saves White
            "4k3/8/8/8/8/8/8/r2K4 w - 32 6 2",
            "endgame table: draw: the count runs out first (mated in 14 (28 plies, KRvK), "
            "the count allows 13",
            "Kc2",
        ),
    ],
)
def test_the_command_gives_the_endgame_tables_verdict_with_the_count(
    capsys: pytest.CaptureFixture[str], fen: str, verdict: str, best: str
) -> None:
    """Issue 14 "use everywhere": a position the shipped 3-piece tables hold is answered from
    them, the count included (docs/rules.md 2.6.2, pieces' honour: 16 moves for a rook)."""
    assert main(["analyse", *fen.split(), "--depth", "4"]) == 0
    out = capsys.readouterr().out
    assert verdict in out and f"best move: {best}" in out
    assert "depth" not in out  # no search: the table is exact


def test_multipv_from_the_tables_ranks_every_move(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 43: ``--multipv`` on a position the tables hold prints that many lines, ranked by
    the tables: the fastest mates first, each with the mover's distance to mate."""
    fen = "4k3/8/8/8/8/8/3R4/4K3 w - - 0 1"
    assert main(["analyse", *fen.split(), "--multipv", "3"]) == 0
    out = capsys.readouterr().out
    ranked = out.split("3 best lines:\n")[1].splitlines()[:3]
    assert [line.split()[0] for line in ranked] == ["1.", "2.", "3."]
    mates = [int(line.split("mate in ")[1].split()[0]) for line in ranked]
    assert mates == sorted(mates) and mates[0] == 12
    assert ranked[0].split("  ")[-1].startswith("1. Ke2")


def test_the_command_annotates_a_pgn_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = Board(BLUNDER_START)
    board.push_san("Kd1")
    source, target = tmp_path / "game.pgn", tmp_path / "annotated.pgn"
    source.write_text(pgn.game_text(board))
    assert main(["analyse", str(source), "--annotate", str(target), "--depth", "3"]) == 0
    assert "1 move judged, 1 marked" in capsys.readouterr().out  # one move: no plural
    text = target.read_text()
    assert "1. Kd1 $4" in text and "(1. Rxa2" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["analyse", "--depth", "99"], "--depth 99 is outside 1..60"),
        (["analyse", "--time", "0"], "argument --time: '0': seconds must be above 0"),
        (["analyse", "--multipv", "0", "--depth", "2"], "--multipv 0"),
        (["analyse", "--annotate", "out.pgn"], "--annotate needs a PGN file"),
        (["analyse", "/no/such.pgn", "--annotate", "out.pgn"], "cannot read '/no/such.pgn'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = main(argv)
    except SystemExit as stopped:  # refused by the argument parser itself (--time 0)
        status = int(stopped.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
