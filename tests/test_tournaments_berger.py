"""Round robins (issue 47): FIDE's Berger tables (Handbook C.05, Annex 1) for 4, 6, 8 and 10
players written out as published, the table's formula checked against them, and the properties
of every table from 3 to 16 players, single and double."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from kradan.tournaments import TournamentError, berger_round, berger_table, round_robin

#: FIDE's published tables, round by round, "White-Black", board 1 first
PUBLISHED = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
    10: [
        "1-10 2-9 3-8 4-7 5-6",
        "10-6 7-5 8-4 9-3 1-2",
        "2-10 3-1 4-9 5-8 6-7",
        "10-7 8-6 9-5 1-4 2-3",
        "3-10 4-2 5-1 6-9 7-8",
        "10-8 9-7 1-6 2-5 3-4",
        "4-10 5-3 6-2 7-1 8-9",
        "10-9 1-8 2-7 3-6 4-5",
        "5-10 6-4 7-3 8-2 9-1",
    ],
}


def _parse(line: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (pair.split("-") for pair in line.split())]


@pytest.mark.parametrize("players", sorted(PUBLISHED))
def test_the_published_tables(players: int) -> None:
    assert berger_table(players) == [_parse(line) for line in PUBLISHED[players]]


def _by_formula(size: int, r: int) -> set[tuple[int, int]]:
    """The research note's formula (docs/tournaments.md): N meets (r+1)/2 with Black in odd
    rounds and N/2 + r/2 with White in even ones; the others pair with a + b = r + 1
    (mod N - 1), White to the player whose (opponent - self) mod (N - 1) is odd."""
    last = size - 1
    pairs = {((r + 1) // 2, size)} if r % 2 else {(size, size // 2 + r // 2)}
    for a, b in combinations(range(1, size), 2):
        if (a + b - r - 1) % last == 0:
            pairs.add((a, b) if (b - a) % last % 2 else (b, a))
    return pairs


@pytest.mark.parametrize("players", range(3, 21))
def test_every_table_follows_the_formula(players: int) -> None:
    size = players + players % 2
    for r, pairs in enumerate(berger_table(players), 1):
        assert set(pairs) == _by_formula(size, r)


@pytest.mark.parametrize("players", range(3, 17))
@pytest.mark.parametrize("double", [False, True])
def test_round_robin_properties(players: int, double: bool) -> None:
    names = [f"p{i}" for i in range(1, players + 1)]
    rounds = round_robin(names, double=double)
    cycles = 2 if double else 1
    per_cycle = players - 1 + players % 2
    assert len(rounds) == cycles * per_cycle
    for round_ in rounds:  # one game (or the free round) per player per round
        assert sorted(round_.players()) == sorted(names)
        assert len(round_.byes) == players % 2
        assert all(bye.kind == "free" for bye in round_.byes)
    for cycle in range(cycles):
        games = [g for r in rounds[cycle * per_cycle : (cycle + 1) * per_cycle] for g in r.games]
        met = Counter(frozenset((g.white, g.black)) for g in games)
        assert set(met) == {frozenset(p) for p in combinations(names, 2)}
        assert set(met.values()) == {1}  # everyone meets everyone exactly once
        whites = Counter(g.white for g in games)
        blacks = Counter(g.black for g in games)
        for name in names:
            difference = whites[name] - blacks[name]
            assert abs(difference) <= (1 if players % 2 == 0 else 0), (name, difference)
    if double:  # each pair once with each colour; no colour three times running
        colours = Counter((g.white, g.black) for r in rounds for g in r.games)
        assert set(colours.values()) == {1}
        for name in names:
            sequence = "".join(
                "w" if g.white == name else "b"
                for r in rounds
                for g in r.games
                if name in (g.white, g.black)
            )
            assert "www" not in sequence and "bbb" not in sequence, (name, sequence)


def test_a_double_round_robin_swaps_the_first_cycles_last_two_rounds() -> None:
    """FIDE's note: without the swap, the players of an even field would have a colour three
    times running where the cycles meet (player 1 of six: Black in rounds 5, 6 and 7)."""
    names = [f"p{i}" for i in range(1, 7)]
    rounds = round_robin(names, double=True)
    table = berger_table(6)
    first = [[(names[a - 1], names[b - 1]) for a, b in pairs] for pairs in table]
    games = [[(g.white, g.black) for g in r.games] for r in rounds]
    assert games[:5] == [*first[:3], first[4], first[3]]
    assert games[5:] == [[(b, a) for a, b in pairs] for pairs in first]
    unswapped = [*first, *([(b, a) for a, b in pairs] for pairs in first)]
    colours = "".join("w" if w == "p1" else "b" for r in unswapped for w, b in r if "p1" in (w, b))
    assert colours[4:7] == "bbb"


def test_an_odd_field_gives_each_player_one_free_round() -> None:
    names = ["a", "b", "c", "d", "e"]
    rounds = round_robin(names)
    free = Counter(bye.player for r in rounds for bye in r.byes)
    assert free == dict.fromkeys(names, 1)
    assert berger_round(5, 1) == [(1, 6), (2, 5), (3, 4)]  # 6 is the dummy: 1 is free


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(TournamentError, match="at least 2 players"):
        berger_round(1, 1)
    with pytest.raises(TournamentError, match=r"round 6 is not one of 1\.\.5"):
        berger_round(6, 6)
    with pytest.raises(TournamentError, match="a whole number, not '6'"):
        berger_table("6")  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="'a' is entered twice"):
        round_robin(["a", "b", "a"])
    with pytest.raises(TournamentError, match="non-empty string"):
        round_robin(["a", ""])
