"""Maximum matchings in general graphs (Edmonds' blossom algorithm, unweighted), which the Swiss
pairing uses to tell whether the players left can still all be paired: a round's pairing is a
perfect matching of the graph whose edges are the games the rules allow.

The graph is a list of neighbour lists over the vertices ``0 .. n-1``. A matching is a list
``mate`` with ``mate[v]`` the vertex matched to ``v`` or ``-1``. The search grows an alternating
tree from each unmatched vertex (breadth first), shrinks each odd cycle it meets into its base
vertex (``base``), and flips the path when it reaches another unmatched vertex; a vertex from
which no augmenting path starts never gets one later (Edmonds), so one pass over the vertices
gives a maximum matching. O(n^3), a few milliseconds for a field of forty.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

Graph = Sequence[Sequence[int]]


def maximum_matching(graph: Graph, start: Sequence[int] | None = None) -> list[int]:
    """A maximum matching of ``graph``, grown from ``start`` (a matching) or from a greedy one."""
    mate = list(start) if start is not None else greedy_matching(graph)
    for root in range(len(graph)):
        if mate[root] == -1:
            _augment(graph, mate, root)
    return mate


def perfect_matching(graph: Graph, start: Sequence[int] | None = None) -> list[int] | None:
    """A matching that covers every vertex of ``graph``, or ``None`` when there is none."""
    if len(graph) % 2:
        return None
    mate = list(start) if start is not None else greedy_matching(graph)
    for root in range(len(graph)):
        if mate[root] == -1 and not _augment(graph, mate, root):
            return None
    return mate


def matching_size(mate: Sequence[int]) -> int:
    return sum(1 for v in mate if v != -1) // 2


def greedy_matching(graph: Graph) -> list[int]:
    """A maximal matching: the vertices with fewest neighbours first, each to its first free
    neighbour (a good start: usually few augmenting paths remain)."""
    mate = [-1] * len(graph)
    for v in sorted(range(len(graph)), key=lambda v: len(graph[v])):
        if mate[v] == -1:
            for w in graph[v]:
                if mate[w] == -1:
                    mate[v], mate[w] = w, v
                    break
    return mate


def _augment(graph: Graph, mate: list[int], root: int) -> bool:
    """Search an augmenting path from the unmatched ``root``; flip it into ``mate`` if found."""
    n = len(graph)
    base = list(range(n))
    parent = [-1] * n  # for an inner (odd) vertex: the outer vertex it was reached from
    outer = [False] * n
    outer[root] = True
    queue = deque([root])

    def common_base(a: int, b: int) -> int:
        """The base of the blossom that the edge between outer vertices a and b closes."""
        on_path = [False] * n
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] == -1:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, stem: int, child: int, inside: list[bool]) -> None:
        """Mark the blossom's bases from v down to ``stem``, pointing the inner vertices'
        parents the other way round the cycle."""
        while base[v] != stem:
            inside[base[v]] = inside[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    while queue:
        v = queue.popleft()
        for w in graph[v]:
            if base[v] == base[w] or mate[v] == w:
                continue
            if w == root or (mate[w] != -1 and parent[mate[w]] != -1):
                stem = common_base(v, w)
                inside = [False] * n
                mark(v, stem, w, inside)
                mark(w, stem, v, inside)
                for u in range(n):
                    if inside[base[u]]:
                        base[u] = stem
                        if not outer[u]:
                            outer[u] = True
                            queue.append(u)
            elif parent[w] == -1:
                parent[w] = v
                if mate[w] == -1:
                    while w != -1:
                        previous = mate[parent[w]]
                        mate[w], mate[parent[w]] = parent[w], w
                        w = previous
                    return True
                outer[mate[w]] = True
                queue.append(mate[w])
    return False


def covers_rows(rows: Sequence[Sequence[int]]) -> bool:
    """Whether each row can have a column of its own (``rows[i]``: the columns row ``i`` may
    take), by Kuhn's augmenting paths: the bipartite check that prunes the search of S1's
    partners in S2."""
    owner: dict[int, int] = {}

    def place(row: int, visited: set[int]) -> bool:
        for column in rows[row]:
            if column not in visited:
                visited.add(column)
                if column not in owner or place(owner[column], visited):
                    owner[column] = row
                    return True
        return False

    return all(place(row, set()) for row in range(len(rows)))
