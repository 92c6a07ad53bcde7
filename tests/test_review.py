"""kradan.runners.review, kradan.runners.review_pgn and ``kradan analyse --review``: a game's
every move judged by its loss of winning chances, the same wherever it runs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from kradan import Board, pgn
from kradan.cli.main import main
from kradan.engine.types import Limit, Score
from kradan.errors import InvalidArgumentError
from kradan.executors import make_executor
from kradan.runners.review import (
    board_of_pgn,
    evaluate_positions,
    move_stops,
    plan_tasks,
    review_game,
    review_pgn_game,
    score_json,
)
from kradan.runners.review_pgn import eval_text, write_review

#: White to move with K and R against K and R; every rook move off the first rank lets ...Rb1
#: mate (the black king on h3 holds g2 and h2), the rest holds the draw
MATE_START = "1r6/8/8/8/8/7k/8/R6K w - - 0 1"
LIMIT = Limit(depth=4)


def blundered() -> Board:
    board = Board(MATE_START)
    board.push_san("Ra2")  # ?? : allows mate at once
    board.push_san("Rb1#")
    return board


def allows_mate(fen: str, uci: str) -> bool:
    """Whether the move ``uci`` lets the other side mate at once."""
    board = Board(fen)
    board.push_uci(uci)
    for reply in list(board.legal_moves):
        board.push(reply)
        mated = board.is_checkmate()
        board.pop()
        if mated:
            return True
    return False


def engine_game(plies: int, limit: Limit) -> Board:
    """A game whose every move is the engine's own choice at ``limit``, each from a cleared
    search without tables: a review at the same limit finds nothing to mark."""
    from kradan.engine.searchers import Searchers

    searchers = Searchers()
    searchers.use_tables(False)
    board = Board()
    for _ in range(plies):
        search = searchers.for_board(board)
        search.clear()
        board.push(search.best_move(board, limit).move)
    return board


def test_a_move_that_allows_mate_is_a_blunder_and_the_better_move_is_given() -> None:
    review = review_game(blundered(), LIMIT)
    assert review.marks() == ["??", None]
    first, mate = review.plies
    assert (first.san, first.white, first.score) == ("Ra2", True, Score(mate=-1))
    assert first.expected == 0.0 and first.loss > 0.4
    assert first.best is not None and not allows_mate(MATE_START, first.best.uci)
    assert allows_mate(MATE_START, "a1a2")
    assert first.best.line[0] == first.best.uci and first.best.line_san[0] == first.best.san
    assert mate.san == "Rb1#" and mate.loss == 0.0 and mate.best is not None
    assert mate.best.uci == "b8b1"
    assert (review.white.blunders, review.white.moves, review.black.blunders) == (1, 1, 0)
    assert review.white.average_loss == pytest.approx(100 * first.loss)
    assert review.black.average_loss == 0.0


def test_the_engines_own_moves_get_no_mark() -> None:
    board = engine_game(10, LIMIT)
    review = review_game(board, LIMIT)
    assert len(review.plies) == 10
    assert all(ply.best is not None and ply.best.uci == ply.uci for ply in review.plies)
    assert review.marks() == [None] * 10
    assert review.white.average_loss == review.black.average_loss == 0.0


def test_a_review_is_the_same_however_its_positions_are_split_and_wherever_they_run() -> None:
    board = engine_game(6, Limit(depth=2))  # a game the depth-4 review has something to say of
    here = review_game(board, LIMIT)
    with make_executor("local", 2) as executor:
        pooled = review_game(board, LIMIT, executor=executor, chunk=3)
    assert pooled.as_json() == here.as_json()
    by_one = review_game(board, LIMIT, chunk=1)
    assert by_one.as_json() == here.as_json()


def test_progress_counts_the_positions_searched() -> None:
    seen: list[tuple[int, int]] = []
    review_game(blundered(), LIMIT, progress=lambda done, total: seen.append((done, total)),
                chunk=2)  # fmt: skip
    assert seen == [(2, 3), (3, 3)]


def test_the_tasks_cover_every_position_once_and_a_finished_game_is_not_searched() -> None:
    board = blundered()
    assert move_stops(board) == [0, 1, 2]
    tasks = plan_tasks(board, LIMIT, chunk=2)
    assert [task.stops for task in tasks] == [(0, 1), (2,)]
    (final,) = evaluate_positions(tasks[1])
    assert final.score == Score(mate=0) and final.line == () and final.nodes == 0


def test_counts_declared_during_the_game_are_replayed() -> None:
    board = Board("4k3/7n/8/8/8/8/8/R3K3 w - - 0 1", counting="declared")
    board.push_san("Ra2")
    board.declare_count()  # Black, the weaker side, counts the board's honour
    board.push_san("Kf8")
    assert move_stops(board) == [0, 2, 3]
    review = review_game(board, LIMIT)
    assert [ply.san for ply in review.plies] == ["Ra2", "Kf8"]


@pytest.mark.parametrize("limit", [Limit(time=1.0), Limit(), Limit(white_clock=60, black_clock=60),
                                   Limit(depth=0)])  # fmt: skip
def test_a_review_refuses_a_limit_that_is_not_reproducible(limit: Limit) -> None:
    with pytest.raises(InvalidArgumentError, match=r"depth|nodes"):
        review_game(blundered(), limit)


def test_scores_for_the_api_and_for_pgn() -> None:
    assert score_json(Score(cp=35)) == {"cp": 35} and score_json(Score(cp=9000)) == {"cp": 2000}
    assert score_json(Score(mate=-2)) == {"mate": -2}
    assert score_json(Score(mate=0)) == {"cp": -2000}  # White mated on the board
    assert score_json(-Score(mate=0)) == {"cp": 2000}  # Black mated on the board
    assert eval_text(Score(cp=-35)) == "-0.35" and eval_text(Score(mate=3)) == "#3"
    assert eval_text(Score(mate=0)) is None and eval_text(-Score(mate=0)) is None


def test_the_review_goes_into_the_pgn_and_reads_back() -> None:
    game = pgn.Game.from_board(blundered())
    review = review_pgn_game(game, LIMIT)
    write_review(game, review)
    text = str(game)
    assert "$4" in text or "??" in text
    back = pgn.read_game(io.StringIO(text))
    assert back is not None
    first = back.next()
    assert first is not None and 4 in first.nags and first.comment.startswith("[%eval #-1]")
    # the better move as a variation, with its evaluation
    assert len(back.variations) == 2
    better = back.variations[1]
    assert better.uci() == review.plies[0].best.uci  # type: ignore[union-attr]
    assert better.comment.startswith("[%eval ")
    assert "White 0 inaccuracies, 0 mistakes, 1 blunder" in back.comment
    assert back.headers["Annotator"] == "kradan"
    assert review_pgn_game(back, LIMIT).marks() == review.marks()


def test_a_review_of_another_game_cannot_annotate_this_one() -> None:
    review = review_game(blundered(), LIMIT)
    with pytest.raises(InvalidArgumentError, match="2 moves cannot annotate a game of 0"):
        write_review(pgn.Game(), review)


def test_board_of_pgn_keeps_the_counts() -> None:
    text = '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n[FEN "4k3/7n/8/8/8/8/8/R3K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Ra2 {[%count declare]} 1... Kf8 *'  # noqa: E501
    game = pgn.read_game(io.StringIO(text))
    assert game is not None
    board = board_of_pgn(game)
    assert move_stops(board) == [0, 2, 3]


# --- kradan analyse --review ----------------------------------------------------------------


def test_the_command_reviews_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, out = tmp_path / "g.pgn", tmp_path / "r.pgn"
    source.write_text(str(pgn.Game.from_board(blundered())) + "\n", encoding="utf-8")
    assert main(["analyse", str(source), "--review", str(out), "--depth", "4"]) == 0
    printed = capsys.readouterr().out
    assert "White    0   0   1" in printed and "Black    0   0   0" in printed
    assert "1. Ra2?? (lost" in printed and f"written to {out}" in printed
    written = pgn.read_game(io.StringIO(out.read_text(encoding="utf-8")))
    assert written is not None and 4 in written.next().nags  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("extra", "words"),
    [(["--time", "1"], "use --depth or --nodes, not --time"), (["--nodes", "0"], "--nodes 0"),
     (["--depth", "99"], "--depth 99"), (["--annotate", "x.pgn"], "choose one")],
)  # fmt: skip
def test_the_command_refuses_bad_review_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], words: str
) -> None:
    source = tmp_path / "g.pgn"
    source.write_text(str(pgn.Game.from_board(blundered())) + "\n", encoding="utf-8")
    out = tmp_path / "r.pgn"
    assert main(["analyse", str(source), "--review", str(out), *extra]) == 2
    assert words in capsys.readouterr().err
    assert not out.exists()
