"""kradan.runners.sprt and the match's testing options (issue 16, item 1): the SPRT on game pairs
(pentanomial), a match that stops once the test decides, and per-player time controls."""

from __future__ import annotations

import math
import re

import pytest

from kradan.cli.main import main
from kradan.errors import UsageError
from kradan.runners.match import (
    GameTask,
    TimeControl,
    play_game,
    run_match,
    split_player_time,
    tasks,
)
from kradan.runners.sprt import Sprt, SprtBounds, expected_score


def test_bounds_parse_and_their_llr_limits() -> None:
    bounds = SprtBounds.parse("0,10")
    assert (bounds.elo0, bounds.elo1, bounds.alpha, bounds.beta) == (0, 10, 0.05, 0.05)
    assert bounds.upper == pytest.approx(math.log(19))
    assert bounds.lower == pytest.approx(-math.log(19))
    assert SprtBounds.parse("-5, 5, 0.1, 0.2").lower == pytest.approx(math.log(0.2 / 0.9))


@pytest.mark.parametrize(
    ("text", "words"),
    [("10", "ELO0,ELO1"), ("a,b", "ELO0,ELO1"), ("5,1", "below ELO1"), ("0,5,0.7,0.1", "ALPHA"),
     ("0,inf", "ELO0,ELO1"), ("0,5,0.05", "ELO0,ELO1")],
)  # fmt: skip
def test_bad_bounds_are_usage_errors_that_quote_them(text: str, words: str) -> None:
    with pytest.raises(UsageError, match=re.escape(f"--sprt {text!r}")) as caught:
        SprtBounds.parse(text)
    assert words in str(caught.value)


def test_one_won_pair_proves_little_and_a_run_of_them_decides() -> None:
    test = Sprt(SprtBounds(0, 50))
    test.add_pair(2)
    assert 0 < test.llr() < 0.5 and test.verdict is None
    while test.verdict is None:
        test.add_pair(2)
    # each won pair adds about log(s1 / s0) under the worst case for H0: 0.134
    assert test.verdict == "H1" and test.pairs == 23


def test_the_llr_matches_the_normal_approximation_on_many_pairs() -> None:
    test = Sprt(SprtBounds(0, 10), [100, 800, 2000, 900, 200])
    counts = [c + 1e-3 for c in test.pentanomial]
    total, scores = sum(counts), [0, 0.25, 0.5, 0.75, 1]
    mean = sum(c * x for c, x in zip(counts, scores, strict=True)) / total
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, scores, strict=True)) / total
    s0, s1 = expected_score(0), expected_score(10)
    normal = total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)
    assert test.llr() == pytest.approx(normal, rel=0.01)
    assert test.verdict == "H1"


def test_the_llr_is_antisymmetric_under_swapping_the_players() -> None:
    counts = [30, 150, 300, 180, 40]
    forward = Sprt(SprtBounds(0, 10), counts).llr()
    backward = Sprt(SprtBounds(-10, 0), counts[::-1]).llr()
    assert backward == pytest.approx(-forward, rel=1e-6)


def test_equal_players_accept_h0_against_a_gain() -> None:
    test = Sprt(SprtBounds(5, 15), [50, 250, 400, 250, 50])
    assert test.llr() < test.bounds.lower and test.verdict == "H0"


def test_the_logistic_expected_score() -> None:
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11, rel=1e-12)  # 10^(400/400) : 1
    assert expected_score(-400) == pytest.approx(1 / 11, rel=1e-12)


def test_no_pairs_no_evidence() -> None:
    test = Sprt(SprtBounds(0, 10))
    assert test.llr() == 0.0 and test.verdict is None and test.pairs == 0


def test_each_pair_score_has_its_bin() -> None:
    test = Sprt(SprtBounds(0, 10))
    for points in (0, 0.5, 1, 1.5, 2):
        test.add_pair(points)
    assert test.pentanomial == [1, 1, 1, 1, 1]
    for bad in (-0.5, 2.5):
        with pytest.raises(ValueError, match="a pair scores"):
            test.add_pair(bad)


def test_a_run_of_lost_pairs_decides_for_h0_as_fast_as_won_pairs_for_h1() -> None:
    """The mirror of 23 won pairs accepting H1 at [0, 50]: 23 lost pairs accept H0 at
    [-50, 0] (the bisection must reach the far end of its bracket)."""
    test = Sprt(SprtBounds(-50, 0))
    while test.verdict is None:
        test.add_pair(0)
    assert test.verdict == "H0" and test.pairs == 23


@pytest.mark.parametrize("text", ["0,5,0,0.05", "0,5,0.05,0", "0,5,0.5,0.05", "0,5,0.05,0.5",
                                  "0,5,-0.1,0.05", "0,5,0.05,-0.1", "0,5,0.6,0.05"])  # fmt: skip
def test_error_rates_must_lie_strictly_between_0_and_a_half(text: str) -> None:
    with pytest.raises(UsageError, match=r"ALPHA and BETA must be between 0 and 0\.5"):
        SprtBounds.parse(text)
    assert SprtBounds.parse("0,5,0.01,0.49").beta == 0.49


def test_a_pair_scores_in_half_points_only() -> None:
    with pytest.raises(ValueError, match=r"0\.3"):
        Sprt(SprtBounds(0, 5)).add_pair(0.3)


def test_a_match_with_sprt_stops_once_decided(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "kradan:level=3", "random", "--sprt", "0,50", "--games", "400", "--tc",
            "2+0.02", "--max-plies", "80"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    games = int(re.search(r"(\d+) games", out).group(1))  # type: ignore[union-attr]
    assert games < 400 and games % 2 == 0  # whole pairs, far fewer than the cap
    assert "H1 accepted" in out and f"pairs {games // 2}" in out


def test_run_match_stops_where_told_and_keeps_round_order() -> None:
    games = tasks("random", "random", "makruk", 10, TimeControl(10, 0), max_plies=20)
    result = run_match(games, stop=lambda so_far: len(so_far.games) == 4)
    assert [g.pgn.count('[Round "') for g in result.games] == [1, 1, 1, 1]
    assert len(result.games) == 4


# --- per-player time controls (time odds) ------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "player", "control"),
    [
        ("kradan", "kradan", None),
        ("kradan:tc=10+0.1", "kradan", TimeControl(10, 0.1)),
        ("kradan:level=5,tc=4+0.04", "kradan:level=5", TimeControl(4, 0.04)),
        ("kradan:tc=3,hash=32", "kradan:hash=32", TimeControl(3, 0)),
        ("uci:/opt/fsf:tc=2.5+0.025", "uci:/opt/fsf", TimeControl(2.5, 0.025)),
        ("xboard:/usr/games/fairymax", "xboard:/usr/games/fairymax", None),
        ("random:tc=1", "random", TimeControl(1, 0)),
    ],
)  # fmt: skip
def test_a_player_spec_may_carry_its_own_time_control(
    spec: str, player: str, control: TimeControl | None
) -> None:
    assert split_player_time(spec) == (player, control)


@pytest.mark.parametrize("spec", ["kradan:tc=fast", "uci:/e:tc=-1", "kradan:tc=nan"])
def test_a_bad_player_time_control_is_a_usage_error(spec: str) -> None:
    with pytest.raises(UsageError, match="time control"):
        split_player_time(spec)


@pytest.mark.parametrize("text", ["abc", "inf", "10+nan", "0", "5+-1"])
def test_a_bad_match_time_control_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match=re.escape(repr(text))):
        TimeControl.parse(text)


def test_time_odds_give_each_colour_its_own_clock() -> None:
    games = tasks("random:tc=2+0.5", "random", "makruk", 2, TimeControl(60, 0), max_plies=4)
    assert games[0].first_control == TimeControl(2, 0.5) and games[0].second_control is None
    assert games[0].controls() == {True: TimeControl(2, 0.5), False: TimeControl(60, 0)}
    assert games[1].controls() == {False: TimeControl(2, 0.5), True: TimeControl(60, 0)}
    first, second = (play_game(task).pgn for task in games)
    assert '[WhiteTimeControl "2+0.5"]' in first and '[BlackTimeControl "60+0"]' in first
    assert '[WhiteTimeControl "60+0"]' in second and '[BlackTimeControl "2+0.5"]' in second
    assert "[TimeControl " not in first


def test_a_player_out_of_its_own_time_loses_on_time() -> None:
    """A clock of a few milliseconds for the first player only: it loses on time, and the
    other player, on a minute, never does."""
    task = GameTask("kradan:level=20", "random", "makruk", (), True, TimeControl(60, 0), 200,
                    seed=1, first_control=TimeControl(0.001, 0))  # fmt: skip
    record = play_game(task)
    assert record.termination == "time forfeit" and record.result == "0-1"
