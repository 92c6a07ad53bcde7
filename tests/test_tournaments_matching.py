"""The matching code the Swiss pairing stands on (:mod:`kradan.tournaments.matching`): Edmonds'
blossom algorithm against a brute force on thousands of random small graphs, odd cycles
(blossoms) included, and the bipartite check."""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from kradan.tournaments.matching import (
    covers_rows,
    matching_size,
    maximum_matching,
    perfect_matching,
)


def _brute_force(n: int, edges: list[tuple[int, int]]) -> int:
    """The size of a maximum matching, by trying every way (memoised on the vertices left)."""
    near = [set() for _ in range(n)]
    for a, b in edges:
        near[a].add(b)
        near[b].add(a)

    @functools.cache
    def best(left: int) -> int:
        if not left:
            return 0
        v = (left & -left).bit_length() - 1
        rest = left & ~(1 << v)
        found = best(rest)
        for w in near[v]:
            if rest >> w & 1:
                found = max(found, 1 + best(rest & ~(1 << w)))
        return found

    return best((1 << n) - 1)


def _graph(n: int, edges: list[tuple[int, int]], rng: random.Random) -> list[list[int]]:
    graph: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        graph[a].append(b)
        graph[b].append(a)
    for near in graph:
        rng.shuffle(near)
    return graph


def _check(mate: list[int], graph: list[list[int]]) -> None:
    for v, w in enumerate(mate):
        if w != -1:
            assert mate[w] == v and w in graph[v]


@pytest.mark.parametrize("seed", range(4))
def test_maximum_matching_against_a_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(1500):
        n = rng.randint(1, 12)
        density = rng.random()
        edges = [(a, b) for a, b in itertools.combinations(range(n), 2) if rng.random() < density]
        graph = _graph(n, edges, rng)
        best = _brute_force(n, edges)
        for start in (None, [-1] * n):  # from a greedy start and from nothing
            mate = maximum_matching(graph, start)
            _check(mate, graph)
            assert matching_size(mate) == best, (n, edges)
        perfect = perfect_matching(graph)
        assert (perfect is not None) == (2 * best == n)
        if perfect is not None:
            _check(perfect, graph)


def test_a_blossom_must_be_shrunk() -> None:
    """A stem 0-1=2 into the triangle 2-3=4-2, and 5 hanging from 3: searching from 0, vertex 3
    is reached first as an inner vertex, so 5 is found only once the triangle is shrunk into 2."""
    graph = [[1], [0, 2], [1, 3, 4], [2, 4, 5], [2, 3], [3]]
    start = [-1, 2, 1, 4, 3, -1]
    mate = maximum_matching(graph, start)
    assert mate == [1, 0, 4, 5, 2, 3]
    _check(mate, graph)


def test_covers_rows() -> None:
    assert covers_rows([[0, 1], [0], [1, 2]])
    assert not covers_rows([[0], [0], [1, 2]])
    assert covers_rows([])
