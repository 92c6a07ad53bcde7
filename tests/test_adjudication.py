"""Match adjudication by the players' scores (issue 16 item 1: faster matches that decide):
resignation and draw rules, the scores they read, and real games they end."""

from __future__ import annotations

import pytest

from kradan import Board
from kradan.cli.main import main
from kradan.engine import Limit, PovScore, Score
from kradan.errors import UsageError
from kradan.runners.adjudication import MATE_CP, Adjudicator, DrawRule, ResignRule, centipawns
from kradan.runners.match import TimeControl, play_game, tasks
from kradan.runners.players import make_player


def test_scores_read_from_uci_engines_and_from_kradan() -> None:
    """Every player reports ``info["score"]`` as a ``PovScore`` for the mover (issue 43)."""
    assert centipawns({"score": PovScore(Score(cp=-35), False)}) == -35
    assert centipawns({"score": PovScore(Score(cp=120), True)}) == 120
    assert centipawns({"score": PovScore(Score(mate=3), False)}) == MATE_CP
    assert centipawns({"score": PovScore(Score(mate=-2), True)}) == -MATE_CP
    assert centipawns({"score": Score(cp=7)}) == 7
    for missing in ({}, {"book": True}, {"score": "cp 35"}, {"score": ("cp", 35)}):
        assert centipawns(missing) is None


def test_rules_parse_and_refuse_bad_text() -> None:
    assert ResignRule.parse("4,1000") == ResignRule(4, 1000)
    assert DrawRule.parse("40,8,10") == DrawRule(40, 8, 10)
    for bad in ("4", "4,x", "0,1000", "4,1000,3", "-1,5"):
        with pytest.raises(UsageError, match="--resign"):
            ResignRule.parse(bad)
    for bad in ("40,8", "40,0,10", "a,b,c"):
        with pytest.raises(UsageError, match=repr(bad)):
            DrawRule.parse(bad)


def test_resignation_needs_both_sides_for_the_whole_run() -> None:
    judge = Adjudicator(resign=ResignRule(moves=2, cp=500))
    assert judge.record(True, 600, 1) is None
    assert judge.record(False, -600, 1) is None
    assert judge.record(True, 700, 2) is None
    assert judge.record(False, -400, 2) is None  # Black not quite lost: the run starts again
    assert judge.record(True, 700, 3) is None
    assert judge.record(False, -MATE_CP, 3) is None  # one move of the new run
    assert judge.record(True, 800, 4) is None
    assert judge.record(False, -900, 4) == ("1-0", "adjudicated: both scores agree")


def test_one_side_alone_cannot_end_a_game() -> None:
    judge = Adjudicator(resign=ResignRule(moves=1, cp=300), draw=DrawRule(1, 1, 20))
    for move in range(1, 10):
        assert judge.record(True, -900, move) is None  # White thinks it is lost
        assert judge.record(False, 0, move) is None  # Black thinks it is level


def test_a_move_without_a_score_breaks_the_runs() -> None:
    judge = Adjudicator(resign=ResignRule(moves=2, cp=300))
    judge.record(True, -400, 1)
    judge.record(False, 400, 1)
    judge.record(True, None, 2)  # a book move
    assert judge.record(False, 400, 2) is None
    assert judge.record(True, -400, 3) is None  # White's run starts again
    assert judge.record(False, 400, 3) is None
    assert judge.record(True, -400, 4) == ("0-1", "adjudicated: both scores agree")


def test_draw_waits_for_its_move_and_for_level_scores() -> None:
    judge = Adjudicator(draw=DrawRule(from_move=4, moves=2, cp=10))
    assert judge.record(True, 0, 1) is None
    assert judge.record(False, 11, 1) is None  # outside the band
    for move in (2, 3):
        assert judge.record(True, 5, move) is None
        assert judge.record(False, -5, move) is None  # level long enough, but before move 4
    assert judge.record(True, 0, 4) == ("1/2-1/2", "adjudicated: both scores level")
    judge = Adjudicator(draw=DrawRule(from_move=1, moves=2, cp=10))
    for move in (1, 2):
        assert judge.record(True, 10, move) is None
        assert judge.record(False, -30 * (move - 1), move) is None  # Black's run broken
    assert judge.record(True, 0, 3) is None
    assert judge.record(False, -10, 3) is None  # one move of Black's new run
    assert judge.record(True, 0, 4) is None
    assert judge.record(False, -10, 4) == ("1/2-1/2", "adjudicated: both scores level")


def _game(start: str, **rules: object) -> tuple[str, str, int]:
    [task] = tasks("kradan", "kradan", "makruk", 1, TimeControl(60), max_plies=200,
                   openings=[(start, [])], nodes=3000, **rules)  # type: ignore[arg-type]  # fmt: skip
    record = play_game(task)
    return record.result, record.termination, record.pgn.count(".")


def test_a_real_game_a_rook_up_ends_when_both_engines_see_it() -> None:
    start = "1nsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"  # Black without a rook
    result, termination, _ = _game(start, resign=ResignRule(3, 300))
    assert (result, termination) == ("1-0", "adjudicated: both scores agree")


def test_a_real_locked_game_is_drawn_by_level_scores() -> None:
    start = "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"  # pawns locked: nobody can win
    result, termination, _ = _game(start, draw=DrawRule(1, 3, 30))
    assert (result, termination) == ("1/2-1/2", "adjudicated: both scores level")
    result, termination, _ = _game(start)
    assert termination != "adjudicated: both scores level"  # not asked: played on


def test_match_command_takes_the_rules_and_quotes_bad_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["match", "random", "random", "--games", "2", "--resign", "4;1000"]) == 2
    assert "'4;1000'" in capsys.readouterr().err
    code = main(["match", "random", "random", "--games", "2", "--resign", "2,300",
                 "--draw", "10,4,10"])  # fmt: skip
    assert code == 0 and "2 games" in capsys.readouterr().out  # random players give no score


def test_a_weak_level_reports_the_score_of_the_move_it_chose() -> None:
    player = make_player("kradan:level=5", seed=1)
    board = Board("1nsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1")  # Black without a rook
    answer = player.choose_move(board, Limit(nodes=3000))
    assert answer.move in board.legal_moves
    score = centipawns(answer.info)
    assert score is not None and score > 200  # a rook up, whichever of its lines it chose
