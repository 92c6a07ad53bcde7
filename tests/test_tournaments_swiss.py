"""Swiss pairings (issue 47, kradan.tournaments.swiss): hand-worked rounds, the colour rules,
byes, refusals, and 200 random tournaments checked by rules written out again in
benchmarks/swiss_check.py (which runs the full 1,000)."""

from __future__ import annotations

import importlib.util

import pytest

from benchmarks.swiss_check import tournament, violations
from kradan.tournaments import (
    Bye,
    Game,
    PairingError,
    Round,
    SwissPairing,
    TournamentError,
    by_rating,
    pair_round,
)
from kradan.tournaments.colours import ABSOLUTE, MILD, STRONG, allocate, allowed, preference
from kradan.tournaments.history import History

SCIPY = importlib.util.find_spec("scipy") is not None
SIX = ["p1", "p2", "p3", "p4", "p5", "p6"]


def _games(pairing: SwissPairing) -> list[tuple[str, str]]:
    return [(game.white, game.black) for game in pairing.games]


def _round(*games: tuple[str, str, str], byes: tuple[Bye, ...] = ()) -> Round:
    return Round(tuple(Game(white, black, result) for white, black, result in games), byes)  # type: ignore[arg-type]


# --- hand-worked rounds ----------------------------------------------------------------------


def test_round_one_is_the_top_half_against_the_bottom_half() -> None:
    """S1 = 1, 2, 3 against S2 = 4, 5, 6; player 1 gets the first colour and the boards
    alternate (FIDE E.5)."""
    assert _games(pair_round(SIX, [])) == [("p1", "p4"), ("p5", "p2"), ("p3", "p6")]
    assert _games(pair_round(SIX, [], first_colour="black")) == [
        ("p4", "p1"),
        ("p2", "p5"),
        ("p6", "p3"),
    ]


def test_pairing_numbers_from_ratings() -> None:
    """The highest rating is number 1; ties keep the order given; the unrated come last."""
    ratings = {"ann": 1500, "bo": 1720, "cy": 1500, "di": 1810}
    assert by_rating(["ann", "bo", "cy", "di", "ed"], ratings) == ["di", "bo", "ann", "cy", "ed"]


def test_round_one_of_an_odd_field_gives_the_last_player_the_bye() -> None:
    pairing = pair_round([*SIX, "p7"], [])
    assert _games(pairing) == [("p1", "p4"), ("p5", "p2"), ("p3", "p6")]
    assert pairing.bye == "p7"
    assert pairing.as_round().byes == (Bye("p7", "pairing"),)


def test_round_two_by_hand() -> None:
    """After 1-4 1-0, 5-2 0-1, 3-6 draw: the winners 1 and 2 meet, 2 with White (each prefers the
    colour not played); 3 and 6 have met, so both float into the last bracket and meet 4 and 5
    in order: 4-3 and 6-5 give everyone the colour they prefer. Boards by the higher score,
    then the sum, then the higher player's rank."""
    first = _round(("p1", "p4", "1-0"), ("p5", "p2", "0-1"), ("p3", "p6", "1/2-1/2"))
    assert _games(pair_round(SIX, [first])) == [("p2", "p1"), ("p4", "p3"), ("p6", "p5")]


def test_the_bye_goes_once_to_each_and_never_after_a_point_without_play() -> None:
    three = ["a", "b", "c"]
    first = pair_round(three, [])
    assert first.bye == "c" and _games(first) == [("a", "b")]
    rounds = [_round(("a", "b", "1-0"), byes=(Bye("c"),))]
    second = pair_round(three, rounds)
    assert second.bye == "b"  # c had it; a and c (one point each) meet
    assert sorted(_games(second)[0]) == ["a", "c"]
    rounds.append(_round((*_games(second)[0], "1/2-1/2"), byes=(Bye("b"),)))  # type: ignore[arg-type]
    third = pair_round(three, rounds)
    assert third.bye == "a" and sorted(_games(third)[0]) == ["b", "c"]
    # a forfeit win is a point without play: no pairing bye after it
    forfeit = Round((Game("a", "b", "1-0", forfeit=True),), (Bye("c"),))
    assert pair_round(three, [forfeit]).bye == "b"


def test_a_forfeited_game_is_no_meeting() -> None:
    """The two may be paired again, and the forfeit gave no one a colour (E.5 again)."""
    rounds = [Round((Game("a", "b", "1-0", forfeit=True),))]
    assert _games(pair_round(["a", "b"], rounds)) == [("a", "b")]


def test_players_sitting_out() -> None:
    """The colours of round 1 go by pairing number (E.5): p3's is odd, so p3 has White."""
    pairing = pair_round(SIX, [], absent=["p2"], half_byes=["p5"])
    assert _games(pairing) == [("p1", "p4"), ("p3", "p6")]
    assert pairing.bye is None
    assert pairing.as_round().byes == (Bye("p5", "half"), Bye("p2", "zero"))


def test_no_legal_pairing_is_a_pairing_error() -> None:
    """Four players who have all met each other."""
    rounds = [
        _round(("a", "d", "1-0"), ("b", "c", "1-0")),
        _round(("d", "c", "1-0"), ("a", "b", "1-0")),
        _round(("b", "d", "1-0"), ("c", "a", "1-0")),
    ]
    with pytest.raises(PairingError, match="no pairing of round 4 for 4 players") as caught:
        pair_round(["a", "b", "c", "d"], rounds)
    assert "'a', 'b', 'c', 'd' met everyone left" in str(caught.value)


def test_the_last_round_relaxes_the_colours_of_the_topscorers_only() -> None:
    """A and B both had Black twice, C and D White twice; the only pairs left are A-B and C-D.
    In the last round A and D (1.5 points of 2: topscorers) may take a third colour running;
    B and C may not, so B and C get what they must."""
    rounds = [
        _round(("D", "A", "1/2-1/2"), ("C", "B", "0-1")),
        _round(("C", "A", "0-1"), ("D", "B", "1-0")),
    ]
    players = ["A", "B", "C", "D"]
    pairing = pair_round(players, rounds, total_rounds=3)
    assert pairing.relaxed == "topscorers"
    assert sorted(_games(pairing)) == [("B", "A"), ("D", "C")]
    with pytest.raises(PairingError):
        pair_round(players, rounds)  # not known to be the last round
    with pytest.raises(PairingError):
        pair_round(players, rounds, total_rounds=4)


def test_colour_fallback_pairs_a_round_no_colour_keeping_pairing_exists_for() -> None:
    """B and D both had White twice and must meet (everyone else is met): only without the
    colour rule can the round be paired, and the result says so."""
    rounds = [
        _round(("D", "A", "1/2-1/2"), ("B", "C", "1-0")),
        _round(("D", "C", "0-1"), ("B", "A", "0-1")),
    ]
    players = ["A", "B", "C", "D"]
    with pytest.raises(PairingError):
        pair_round(players, rounds)
    pairing = pair_round(players, rounds, colour_fallback=True)
    assert pairing.relaxed == "colours"
    assert sorted(_games(pairing)) == [("A", "C"), ("D", "B")]


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TournamentError, match="round 1 names 'x', who is not entered"):
        pair_round(SIX, [_round(("p1", "x", "1-0"))])
    with pytest.raises(TournamentError, match="round 1 names 'p1' twice"):
        pair_round(SIX, [_round(("p1", "p2", "1-0"), ("p1", "p3", "1-0"))])
    with pytest.raises(TournamentError, match="round 1 has a game without a result"):
        pair_round(SIX, [Round((Game("p1", "p2"),))])
    with pytest.raises(TournamentError, match="'zz' sits out a round but is not entered"):
        pair_round(SIX, [], absent=["zz"])
    with pytest.raises(TournamentError, match="all 1 rounds are already paired"):
        pair_round(SIX, [_round(("p1", "p2", "1-0"))], total_rounds=1)
    with pytest.raises(TournamentError, match="'white' or 'black', not 'red'"):
        pair_round(SIX, [], first_colour="red")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="unknown result '2-0'"):
        Game("a", "b", "2-0")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="unknown bye 'full'"):
        Bye("a", "full")  # type: ignore[arg-type]


# --- the colour rules (FIDE C.04.3 A.6, C.3, E) ------------------------------------------------


def _history(colours: str, number: int = 0) -> History:
    named = {"w": "white", "b": "black"}
    return History("x", number, colours=[named[c] for c in colours])  # type: ignore[misc]


@pytest.mark.parametrize(
    ("colours", "expected"),
    [
        ("", (None, 0)),
        ("w", ("black", STRONG)),
        ("wb", ("white", MILD)),
        ("ww", ("black", ABSOLUTE)),
        ("bww", ("black", ABSOLUTE)),
        ("wbwb", ("white", MILD)),
        ("bwb", ("white", STRONG)),
        ("bbwb", ("white", ABSOLUTE)),
    ],
)
def test_colour_preferences(colours: str, expected: tuple[str | None, int]) -> None:
    assert preference(_history(colours)) == expected


@pytest.mark.parametrize(
    ("colours", "colour", "ok"),
    [
        ("ww", "white", False),  # three running
        ("wbw", "white", True),  # +2 is allowed
        ("wwbw", "white", False),  # +3 is not
        ("wwbw", "black", True),
        ("bb", "white", True),
    ],
)
def test_forbidden_colours(colours: str, colour: str, ok: bool) -> None:
    assert allowed(_history(colours), colour) is ok  # type: ignore[arg-type]


def test_colour_allocation() -> None:
    # E.1: both preferences granted
    assert allocate(_history("b"), _history("w", 1), "white") == "white"
    # E.2: the stronger preference (the lower player's strong one beats a mild one)
    assert allocate(_history("wb"), _history("bwb", 1), "white") == "black"
    # E.3: alternate from the latest round in which they had different colours
    assert allocate(_history("wbbw"), _history("bwbw", 1), "white") == "white"
    # E.4: identical histories: the higher-ranked player's preference
    assert allocate(_history("wb"), _history("wb", 1), "white") == "white"
    # E.5: no games: the initial colour to an odd pairing number (number 0 is pairing number 1)
    assert allocate(_history(""), _history("", 1), "white") == "white"
    assert allocate(_history("", 1), _history("", 2), "white") == "black"


# --- random tournaments ------------------------------------------------------------------------


@pytest.mark.parametrize("first", range(0, 200, 50))
def test_random_tournaments_keep_the_rules(first: int) -> None:
    """200 tournaments of 5-40 players and 5-9 rounds with random results (forfeits and
    absences now and then): no rematch, colours within ±2 and never three running (unless
    relaxed, and then only as allowed), one pairing bye each at most, never after a point
    without play; with scipy, every refusal is checked to have no legal pairing, and every
    fourth tournament's score-group order (each bracket pairs as many as possible)."""
    refusals = rounds = 0
    for seed in range(first, first + 50):
        outcome = tournament(seed, check_order=seed % 4 == 0, scipy=SCIPY)
        assert outcome.broken == [], (seed, outcome.broken)
        assert outcome.refused_wrongly == 0, seed
        refusals += outcome.refused
        rounds += outcome.paired
    assert rounds > 50 * 5 * 0.9  # the tournaments really ran
    assert refusals < 10


@pytest.mark.parametrize("budget", ["no search steps", "no floater sets"])
def test_the_fallbacks_keep_the_rules(budget: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no budget for the Dutch-order search (each bracket then takes the matching that
    proved it pairable) or none for the floater sets (each bracket takes the completion's own
    matching), the rounds still keep every absolute rule and are refused only when no legal
    pairing exists."""
    from kradan.tournaments import dutch, swiss

    if budget == "no search steps":
        monkeypatch.setattr(dutch, "MAX_NODES", 0)
    else:
        monkeypatch.setattr(swiss, "MAX_FLOATER_SETS", 0)
    fallbacks = 0
    for seed in range(30):
        outcome = tournament(seed, check_order=False, scipy=SCIPY)
        assert outcome.broken == [], (seed, outcome.broken)
        assert outcome.refused_wrongly == 0, seed
        fallbacks += outcome.fallbacks
        assert outcome.inexact == (outcome.paired if budget == "no floater sets" else 0)
    assert fallbacks > 100


def test_the_checks_catch_broken_pairings() -> None:
    """The random test's checks are not vacuous: a rematch, a third White running, a second
    bye and a bracket that floats players it could pair are each reported."""
    players = ["a", "b", "c", "d"]
    rounds = [_round(("a", "c", "1-0"), ("b", "d", "1-0"))]
    rematch = SwissPairing((Game("a", "c"), Game("b", "d")))
    assert any("rematch" in text for text in violations(players, rounds, rematch, set(), 5, False))
    twice = [
        _round(("a", "c", "1-0"), ("b", "d", "1-0")),
        _round(("a", "d", "1-0"), ("b", "c", "1-0")),
    ]
    third_white = SwissPairing((Game("a", "b"), Game("c", "d")))
    found = violations(players, twice, third_white, set(), 5, False)
    assert any("colour rule broken for a" in text for text in found)
    odd = ["a", "b", "c"]
    bye_twice = SwissPairing((Game("a", "b"),), bye="c")
    found = violations(
        odd, [_round(("a", "b", "1-0"), byes=(Bye("c"),))], bye_twice, set(), 5, False
    )
    assert any("second point without play for c" in text for text in found)
    if SCIPY:  # a and b (one point each) may meet, yet both float
        floated = SwissPairing((Game("d", "a"), Game("c", "b")))
        found = violations(players, rounds, floated, set(), 5, True)
        assert any("pairs 0, could pair 1" in text for text in found)


@pytest.mark.skipif(not SCIPY, reason="scipy (kradan[tune]) is the oracle of the order checks")
def test_the_score_group_order_is_checked_with_scipy() -> None:
    outcome = tournament(0, check_order=True, scipy=True)
    assert outcome.paired and outcome.broken == []


# --- the look-ahead (small fields of players - 1 rounds) ----------------------------------------


def _swiss_to_the_end(size: int, seed: int) -> list[SwissPairing]:
    """A Swiss of ``size`` players and ``size - 1`` rounds with random results, as a server runs
    it (the colour fallback on); every round's pairing."""
    import random
    from dataclasses import replace

    rng = random.Random(seed)
    players = [f"p{i}" for i in range(1, size + 1)]
    rounds: list[Round] = []
    pairings = []
    for _ in range(size - 1):
        pairing = pair_round(players, rounds, total_rounds=size - 1, colour_fallback=True)
        pairings.append(pairing)
        games = tuple(
            replace(game, result=rng.choice(["1-0", "0-1", "1/2-1/2"])) for game in pairing.games
        )
        rounds.append(Round(games, pairing.as_round().byes))
    return pairings


@pytest.mark.parametrize("size", [6, 7, 8])
def test_small_swiss_of_players_less_one_rounds_never_repeats(size: int) -> None:
    """Every 6-, 7- and 8-player Swiss of players - 1 rounds (100 random ones each) is paired to
    the end without a rematch or a second bye, and the look-ahead is what makes it so: it
    changes some rounds' pairings."""
    looked = 0
    for seed in range(100):
        pairings = _swiss_to_the_end(size, seed)
        met = [frozenset((g.white, g.black)) for p in pairings for g in p.games]
        assert len(met) == len(set(met)), seed
        byes = [p.bye for p in pairings if p.bye is not None]
        assert len(byes) == len(set(byes)), seed
        assert all(p.relaxed != "repeats" for p in pairings)
        looked += sum(p.looked_ahead for p in pairings)
    assert looked > 0


def test_without_the_look_ahead_six_players_paint_themselves_into_a_corner() -> None:
    """The corner is real: some 6-player Swiss of 5 rounds cannot be finished without it."""
    import random
    from dataclasses import replace

    refused = 0
    for seed in range(40):
        rng = random.Random(seed)
        rounds: list[Round] = []
        try:
            for _ in range(5):
                pairing = pair_round(SIX, rounds, total_rounds=5, lookahead=False)
                games = tuple(replace(g, result=rng.choice(["1-0", "0-1"])) for g in pairing.games)
                rounds.append(Round(games))
        except PairingError:
            refused += 1
    assert refused > 0


def test_fewest_repeats_when_no_rematch_free_pairing_exists() -> None:
    """Four players who all met: the round is refused, or with ``allow_repeats`` paired with two
    rematches (the fewest: every pair is one) and said to be so."""
    four = ["a", "b", "c", "d"]
    rounds = [
        _round(("a", "b", "1-0"), ("c", "d", "1-0")),
        _round(("c", "a", "1-0"), ("d", "b", "1-0")),
        _round(("a", "d", "1-0"), ("b", "c", "1-0")),
    ]
    with pytest.raises(PairingError):
        pair_round(four, rounds)
    pairing = pair_round(four, rounds, allow_repeats=True)
    assert pairing.relaxed == "repeats"
    assert sorted(p for g in pairing.games for p in (g.white, g.black)) == four
