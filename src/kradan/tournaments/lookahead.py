"""A Swiss round's look-ahead: whether the rounds after it can still be paired without a rematch.

A Swiss of ``rounds >= players - 1`` can paint itself into a corner: six players, five rounds,
and after three rounds the games not yet played may hold no perfect matching, so round four or
five cannot be paired at all. The rounds left can all be paired exactly when the games not yet
played (with a bye vertex in an odd field, joined to whoever may still take the pairing bye)
split into that many disjoint perfect matchings: a search by backtracking, cheap for the small
fields where the corner exists (:data:`MAX_VERTICES`), and cut off after :data:`MAX_STEPS`
steps (then the rounds are taken to be pairable, as they almost always are in a larger field).

Results and colours are not foreseen: only rematches (and a second pairing bye) are; the colour
rule may still refuse a later round, which the caller's colour fallback then pairs.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

#: the largest field (the bye's vertex counted) that the look-ahead searches
MAX_VERTICES = 12
#: the search steps one question may take before the answer is taken to be "pairable"
MAX_STEPS = 20000


class _Budget(Exception):
    """The search ran out of steps."""


def rounds_pairable(adjacency: Sequence[int], rounds: int, search: Search | None = None) -> bool:
    """Whether the graph (``adjacency[v]``: a bitmask of v's neighbours) holds ``rounds``
    disjoint perfect matchings. Taken to be true when the search runs past :data:`MAX_STEPS`
    (counted over every question asked of one ``search``: a round that weighs many candidate
    pairings shares one budget)."""
    search = search or Search()
    try:
        return search.holds(tuple(adjacency), rounds)
    except _Budget:
        return True


class Search:
    """The backtracking search, with the graphs already known to fail remembered."""

    def __init__(self) -> None:
        self.steps = 0
        self.failed: set[tuple[tuple[int, ...], int]] = set()

    def holds(self, adjacency: tuple[int, ...], rounds: int) -> bool:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Budget
        if rounds == 0:
            return True
        if (adjacency, rounds) in self.failed:
            return False
        if any(bin(mask).count("1") < rounds for mask in adjacency):
            return False
        for matching in self._matchings(adjacency, (1 << len(adjacency)) - 1):
            rest = list(adjacency)
            for v, w in matching:
                rest[v] &= ~(1 << w)
                rest[w] &= ~(1 << v)
            if self.holds(tuple(rest), rounds - 1):
                return True
        self.failed.add((adjacency, rounds))
        return False

    def _matchings(self, adjacency: tuple[int, ...], free: int) -> Iterator[list[tuple[int, int]]]:
        """The perfect matchings of the vertices in ``free``, the lowest vertex matched first."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise _Budget
        if not free:
            yield []
            return
        v = (free & -free).bit_length() - 1
        options = adjacency[v] & free & ~(1 << v)
        while options:
            w = (options & -options).bit_length() - 1
            options &= options - 1
            for rest in self._matchings(adjacency, free & ~(1 << v) & ~(1 << w)):
                yield [(v, w), *rest]


def adjacency_after(
    may_meet: Sequence[Sequence[bool]], pairs: Sequence[tuple[int, int]]
) -> list[int]:
    """The bitmask graph of the games still allowed once ``pairs`` are played."""
    n = len(may_meet)
    masks = [sum(1 << j for j in range(n) if j != i and may_meet[i][j]) for i in range(n)]
    for i, j in pairs:
        masks[i] &= ~(1 << j)
        masks[j] &= ~(1 << i)
    return masks


def perfect_matchings(adjacency: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of a small graph (for the choice of a round when the Dutch pairing
    would leave the later rounds unpairable)."""
    search = Search()
    search.steps = -(10**9)  # enumeration is bounded by the field's size, not by the budget
    yield from search._matchings(tuple(adjacency), (1 << len(adjacency)) - 1)
