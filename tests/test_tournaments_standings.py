"""Tie-breaks, standings and crosstables (issue 47), on small crosstables worked out by hand."""

from __future__ import annotations

import pytest

from kradan.tournaments import (
    Bye,
    Cell,
    Game,
    Points,
    Round,
    TournamentError,
    crosstable,
    round_robin,
    scores,
    standings,
)

PLAYERS = ["A", "B", "C", "D", "E"]
#: five players, three rounds, every kind of unplayed round:
#:   round 1: A-B 1-0, C-D draw, E a pairing bye
#:   round 2: E-A 0-1, B-C 1-0, D a half-point bye (asked for)
#:   round 3: A-D draw, C-E 1-0 by forfeit (E did not come), B a pairing bye
ROUNDS = [
    Round((Game("A", "B", "1-0"), Game("C", "D", "1/2-1/2")), (Bye("E", "pairing"),)),
    Round((Game("E", "A", "0-1"), Game("B", "C", "1-0")), (Bye("D", "half"),)),
    Round((Game("A", "D", "1/2-1/2"), Game("C", "E", "1-0", forfeit=True)), (Bye("B", "pairing"),)),
]
#: A 1+1+½ = 2.5, B 0+1+1 = 2, C ½+0+1 = 1.5, D ½+½+½ = 1.5, E 1+0+0 = 1
SCORES = {"A": 2.5, "B": 2.0, "C": 1.5, "D": 1.5, "E": 1.0}
#: by hand. Buchholz: the opponents' scores, an unplayed round counting the player's own score
#:   A: B 2 + E 1 + D 1.5 = 4.5          B: A 2.5 + C 1.5 + bye (own) 2 = 6
#:   C: D 1.5 + B 2 + forfeit (own) 1.5 = 5
#:   D: C 1.5 + half bye (own) 1.5 + A 2.5 = 5.5
#:   E: bye (own) 1 + A 2.5 + forfeit lost (own) 1 = 4.5
#: Cut-1 drops a voluntary unplayed round first (D's half bye, E's forfeit), else the lowest:
#:   A 4.5 - 1 = 3.5; B 6 - 1.5 = 4.5; C 5 - 1.5 = 3.5; D 5.5 - 1.5 = 4; E 4.5 - 1 = 3.5
#: Sonneborn-Berger: opponents' scores times the result (unplayed: own score times its share)
#:   A: 2×1 + 1×1 + 1.5×½ = 3.75      B: 2.5×0 + 1.5×1 + 2×1 = 3.5
#:   C: 1.5×½ + 2×0 + 1.5×1 = 2.25    D: 1.5×½ + 1.5×½ + 2.5×½ = 2.75
#:   E: 1×1 + 2.5×0 + 1×0 = 1
#: wins over the board: A 2, B 1, C 0 (the forfeit does not count), D 0, E 0
EXPECTED = {
    "A": {"buchholz": 4.5, "buchholz-cut1": 3.5, "sonneborn-berger": 3.75, "wins": 2},
    "B": {"buchholz": 6.0, "buchholz-cut1": 4.5, "sonneborn-berger": 3.5, "wins": 1},
    "C": {"buchholz": 5.0, "buchholz-cut1": 3.5, "sonneborn-berger": 2.25, "wins": 0},
    "D": {"buchholz": 5.5, "buchholz-cut1": 4.0, "sonneborn-berger": 2.75, "wins": 0},
    "E": {"buchholz": 4.5, "buchholz-cut1": 3.5, "sonneborn-berger": 1.0, "wins": 0},
}


def test_scores() -> None:
    assert scores(PLAYERS, ROUNDS) == SCORES


def test_tiebreaks_by_hand() -> None:
    lines = standings(
        PLAYERS, ROUNDS, tiebreaks=("buchholz", "buchholz-cut1", "sonneborn-berger", "wins")
    )
    assert {line.player: dict(line.tiebreaks) for line in lines} == EXPECTED
    assert {line.player: line.points for line in lines} == SCORES


def test_the_default_order() -> None:
    """Points, then Buchholz Cut-1: C and D share 1.5 points and D's Cut-1 (4) beats C's (3.5)."""
    lines = standings(PLAYERS, ROUNDS)
    assert [(line.rank, line.player) for line in lines] == [
        (1, "A"),
        (2, "B"),
        (3, "D"),
        (4, "C"),
        (5, "E"),
    ]
    assert list(lines[0].tiebreaks) == [
        "buchholz-cut1",
        "buchholz",
        "sonneborn-berger",
        "direct-encounter",
        "wins",
    ]


def test_a_tie_that_stands_shares_the_rank() -> None:
    """C and D drew their game: direct encounter leaves them tied, so they share third place
    (listed in pairing-number order)."""
    lines = standings(PLAYERS, ROUNDS, tiebreaks=("direct-encounter",))
    assert [(line.rank, line.player) for line in lines] == [
        (1, "A"),
        (2, "B"),
        (3, "C"),
        (3, "D"),
        (5, "E"),
    ]
    assert lines[2].tiebreaks == {"direct-encounter": 0.5}


#: a four-player round robin (Berger: 1-4 2-3, 4-3 1-2, 2-4 3-1) with A-D 1-0, B-C 1-0,
#: D-C draw, A-B 0-1, B-D 0-1, C-A draw: A and D tie on 1.5 points
ROBIN = [
    Round(tuple(Game(g.white, g.black, result) for g, result in zip(r.games, results, strict=True)))
    for r, results in zip(
        round_robin(["A", "B", "C", "D"]),
        [("1-0", "1-0"), ("1/2-1/2", "0-1"), ("0-1", "1/2-1/2")],
        strict=True,
    )
]


def test_the_order_of_the_tiebreaks_is_the_tournaments_choice() -> None:
    """A beat D, so direct encounter puts A first; Sonneborn-Berger puts D first (D beat the
    winner B: 2 + ½ = 2.5 against A's 1.5 + ½ = 2)."""
    assert [g.white + g.black for r in ROBIN for g in r.games] == [
        "AD",
        "BC",
        "DC",
        "AB",
        "BD",
        "CA",
    ]
    assert scores("ABCD", ROBIN) == {"A": 1.5, "B": 2.0, "C": 1.0, "D": 1.5}
    first = standings("ABCD", ROBIN, tiebreaks=("direct-encounter", "sonneborn-berger"))
    assert [line.player for line in first] == ["B", "A", "D", "C"]
    assert first[1].tiebreaks == {"direct-encounter": 1.0, "sonneborn-berger": 2.0}
    assert first[2].tiebreaks == {"direct-encounter": 0.0, "sonneborn-berger": 2.5}
    second = standings("ABCD", ROBIN, tiebreaks=("sonneborn-berger", "direct-encounter"))
    assert [line.player for line in second] == ["B", "D", "A", "C"]


def test_direct_encounter_needs_every_tied_pair_to_have_met() -> None:
    """Three players on one point each, of whom two never met: no one is separated."""
    rounds = [
        Round((Game("a", "b", "1-0"), Game("c", "d", "0-1"))),
        Round((Game("b", "c", "1-0"), Game("d", "a", "1-0"))),
    ]
    assert scores("abcd", rounds) == {"a": 1.0, "b": 1.0, "c": 0.0, "d": 2.0}
    lines = standings("abcd", rounds, tiebreaks=("direct-encounter",))
    assert {line.player: line.tiebreaks["direct-encounter"] for line in lines} == {
        "a": 1.0,  # a and b (tied on 1) met: a won
        "b": 0.0,
        "c": 0.0,
        "d": 0.0,
    }


def test_points_are_configurable() -> None:
    """Three points a win, one a draw; the pairing bye a draw's worth."""
    football = Points(win=3, draw=1, bye=1, forfeit_win=3)
    assert scores(PLAYERS, ROUNDS, football) == {"A": 7, "B": 4, "C": 4, "D": 2.5, "E": 1}
    lines = standings(PLAYERS, ROUNDS, points=football, tiebreaks=("sonneborn-berger",))
    # A: B 4×1 + E 1×1 + D 2.5×½ = 6.25 (a result's share does not change with the points)
    assert lines[0].player == "A" and lines[0].tiebreaks == {"sonneborn-berger": 6.25}


def test_unfinished_games_count_nothing_yet() -> None:
    live = [*ROUNDS[:2], Round((Game("A", "D"), Game("C", "E", "1-0", forfeit=True)), (Bye("B"),))]
    assert scores(PLAYERS, live)["A"] == 2.0
    a = next(line for line in standings(PLAYERS, live) if line.player == "A")
    # A's third round is still on: B 2 + E 1 only
    assert a.tiebreaks["buchholz"] == 3.0


def test_the_crosstable() -> None:
    table = crosstable(PLAYERS, ROUNDS)
    assert table["A"] == (
        Cell("game", "B", "white", 1.0, 1.0),
        Cell("game", "E", "black", 1.0, 1.0),
        Cell("game", "D", "white", 0.5, 0.5),
    )
    assert table["E"] == (
        Cell("pairing", points=1.0, share=1.0),
        Cell("game", "A", "white", 0.0, 0.0),
        Cell("forfeit", "C", "black", 0.0, 0.0),
    )
    assert table["D"][1] == Cell("half", points=0.5, share=0.5)
    late = crosstable([*PLAYERS, "F"], ROUNDS)  # F joined late: absent so far
    assert late["F"] == (Cell("absent"),) * 3


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TournamentError, match="unknown tie-break 'median'"):
        standings(PLAYERS, ROUNDS, tiebreaks=("median",))
    with pytest.raises(TournamentError, match="a list of names, not the text 'wins'"):
        standings(PLAYERS, ROUNDS, tiebreaks="wins")
    with pytest.raises(TournamentError, match="named twice"):
        standings(PLAYERS, ROUNDS, tiebreaks=("wins", "wins"))
    with pytest.raises(TournamentError, match="win must be worth more than 0"):
        Points(win=0)
    with pytest.raises(TournamentError, match="must be a number, not 'one'"):
        Points(draw="one")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="round 1 names 'Z'"):
        crosstable(PLAYERS, [Round((Game("A", "Z", "1-0"),))])
