"""The Dutch-order search of one Swiss bracket (FIDE C.04.3, B and D): given the floaters,
the MDPs pair first (each with the first resident it may meet, then with an MDP below it), then
the residents left pair top half S1 against bottom half S2, S2's transpositions in order, then
the exchanges between S1 and S2 in FIDE's order (D.2). Each candidate is scored on the quality
criteria (C.6, C.8-C.15); the search keeps the best, the first met among equals, and stops at
the first that reaches their lower bounds, or after :data:`MAX_NODES` steps. A bipartite check
(:func:`~.matching.covers_rows`) cuts every branch in which S1's players left cannot all find a
partner in S2, so the search never wanders into dead ends.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Protocol

from . import colours as colour_rules
from .history import History
from .matching import covers_rows
from .records import Colour, Game, Points

Pair = tuple[int, int]
#: a candidate's quality, lower is better: PSD, topscorers' colour excesses, colour preferences
#: missed, strong ones missed, downfloats and upfloats repeated from one and two rounds back
Quality = tuple[tuple[float, ...], int, int, int, int, int, int, int]

#: the search steps one bracket may take before it settles for the best candidate found
MAX_NODES = 5000
#: the exchange patterns of one size tried in a homogeneous remainder (FIDE D.2)
MAX_EXCHANGES = 2000


class Pairer(Protocol):
    """What the search reads of the round's pairer (:mod:`.swiss`): the ranked field, who may
    meet whom, the colour preferences, the points, the stage of relaxation, and a pair's game."""

    field: list[History]
    may: list[list[bool]]
    preference: list[tuple[Colour | None, colour_rules.Strength]]
    points: Points

    @property
    def stage(self) -> str: ...

    def game(self, i: int, j: int) -> Game: ...


class BracketSearch:
    """The Dutch-order search of one bracket's pairings for given floater sets, keeping the best
    candidate by the quality criteria (C.6, C.8-C.15) and stopping at the first that reaches their
    lower bounds or after :data:`MAX_NODES` steps."""

    def __init__(self, pairer: Pairer, bracket: list[int], mdps: set[int], lowest: float):
        self.pairer = pairer
        self.bracket = bracket
        self.mdps = mdps
        self.lowest = lowest
        self.nodes = 0
        self.best: list[Pair] | None = None
        self.best_floaters: tuple[int, ...] = ()
        self.best_quality: Quality | None = None
        self.done = False
        self.seen: set[frozenset[Pair]] = set()
        self.floaters: tuple[int, ...] = ()
        self.ideal: Quality = ((), 0, 0, 0, 0, 0, 0, 0)

    def run(self, floaters: tuple[int, ...]) -> None:
        """Search the pairings of the bracket without ``floaters``."""
        rest = [i for i in self.bracket if i not in floaters]
        heads = [i for i in rest if i in self.mdps]
        residents = [i for i in rest if i not in self.mdps]
        self.floaters = floaters
        self.ideal = self._ideal(rest, floaters)
        for pairs in self._mdp_pairings(heads, residents):
            self._leaf(pairs)
            if self.done:
                return
            if self.nodes > MAX_NODES:
                self.done = self.best is not None
                return

    def _ideal(self, rest: list[int], floaters: tuple[int, ...]) -> Quality:
        """The quality no candidate can beat: the floaters' PSD, each colour count at its lower
        bound, no repeated float."""
        count = len(rest) // 2
        wants: dict[tuple[Colour | None, bool], int] = {}
        for i in rest:
            colour, strength = self.pairer.preference[i]
            for only in (False, True):
                if not only or strength >= colour_rules.STRONG:
                    wants[colour, only] = wants.get((colour, only), 0) + 1
        missed, strong = (
            max(0, wants.get(("white", only), 0) - count)
            + max(0, wants.get(("black", only), 0) - count)
            for only in (False, True)
        )
        return (self._psd([], floaters, estimate=True), 0, missed, strong, 0, 0, 0, 0)

    def _psd(
        self, pairs: list[Pair], floaters: tuple[int, ...], estimate: bool = False
    ) -> tuple[float, ...]:
        """The PSD: the nonzero score differences, largest first (a floater's against one win
        below the bracket; ``estimate``: each MDP as if paired with a resident)."""
        field, win = self.pairer.field, self.pairer.points.win
        diffs = [field[i].score - (self.lowest - win) for i in floaters]
        if estimate:
            diffs += [field[i].score - self.lowest for i in self.mdps if i not in floaters]
        else:
            diffs += [abs(field[i].score - field[j].score) for i, j in pairs]
        return tuple(sorted((d for d in diffs if d), reverse=True))

    def _leaf(self, pairs: list[Pair]) -> None:
        key = frozenset(pairs)
        if key in self.seen:
            return
        self.seen.add(key)
        quality = self._quality(pairs)
        if self.best_quality is None or quality < self.best_quality:
            self.best, self.best_quality = list(pairs), quality
            self.best_floaters = self.floaters
            if quality[0] <= self.ideal[0] and all(
                have <= bound for have, bound in zip(quality[1:], self.ideal[1:], strict=True)
            ):
                self.done = True

    def _quality(self, pairs: list[Pair]) -> Quality:
        """C.6, C.8/C.9 (as one count), C.10, C.11, C.12-C.15 of a candidate (lower is better)."""
        pairer, field = self.pairer, self.pairer.field
        excess = missed = strong = 0
        up = [0, 0]
        for i, j in pairs:
            (mine, my_strength), (theirs, their_strength) = (
                pairer.preference[i],
                pairer.preference[j],
            )
            if mine is not None and mine == theirs:
                missed += 1
                if min(my_strength, their_strength) >= colour_rules.STRONG:
                    strong += 1
            if pairer.stage == "topscorers":
                game = pairer.game(i, j)
                excess += sum(
                    not colour_rules.allowed(field[k], game.colour_of(field[k].player))
                    for k in (i, j)
                )
            if field[i].score != field[j].score:
                lower = j if field[i].score > field[j].score else i
                up[0] += field[lower].float_before(1) == "up"
                up[1] += field[lower].float_before(2) == "up"
        down = [
            sum(field[i].float_before(back) == "down" for i in self.floaters) for back in (1, 2)
        ]
        return (
            self._psd(pairs, self.floaters),
            excess,
            missed,
            strong,
            down[0],
            up[0],
            down[1],
            up[1],
        )

    # --- the Dutch order ------------------------------------------------------------------------

    def _mdp_pairings(self, heads: list[int], residents: list[int]) -> Iterator[list[Pair]]:
        """The MDPs (in rank order) each take a partner: the residents in order, then the MDPs
        below them; the residents left are paired as a homogeneous remainder."""
        may = self.pairer.may

        def step(index: int, used: set[int], pairs: list[Pair]) -> Iterator[list[Pair]]:
            self.nodes += 1
            if self.nodes > MAX_NODES:
                return
            if index == len(heads):
                left = [i for i in residents if i not in used]
                yield from self._remainder(left, pairs)
                return
            head = heads[index]
            if head in used:
                yield from step(index + 1, used, pairs)
                return
            for partner in (*residents, *heads[index + 1 :]):
                if partner not in used and may[head][partner]:
                    used |= {head, partner}
                    yield from step(index + 1, used, [*pairs, (head, partner)])
                    used -= {head, partner}
                    if self.done or self.nodes > MAX_NODES:
                        return

        yield from step(0, set(), [])

    def _remainder(self, left: list[int], pairs: list[Pair]) -> Iterator[list[Pair]]:
        """A homogeneous remainder (an even number of players, all paired): S1 against S2 and
        the transpositions of S2, then the exchanges in FIDE's order (C.04.3 D.2)."""
        if len(left) % 2:
            return
        half = len(left) // 2
        for upper, lower in self._exchanges(left, half):
            yield from self._transpositions(upper, lower, pairs)
            if self.done or self.nodes > MAX_NODES:
                return

    def _exchanges(self, left: list[int], half: int) -> Iterator[tuple[list[int], list[int]]]:
        """S1 and S2: as they are, then with 1, 2, ... players exchanged, each size in FIDE's
        order (the smallest difference of the moved players' numbers, the highest one moved
        down from S1, the lowest one moved up from S2)."""
        s1, s2 = list(range(half)), list(range(half, len(left)))
        yield [left[b] for b in s1], [left[b] for b in s2]
        for size in range(1, half + 1):
            patterns = []
            for count, (down, up) in enumerate(
                itertools.product(
                    itertools.combinations(s1, size), itertools.combinations(s2, size)
                )
            ):
                if count >= MAX_EXCHANGES:
                    break
                order = (
                    sum(up) - sum(down),
                    tuple(-b for b in sorted(down, reverse=True)),
                    tuple(sorted(up)),
                )
                patterns.append((order, down, up))
            patterns.sort()
            for _, down, up in patterns:
                upper = sorted(set(s1) - set(down) | set(up))
                lower = sorted(set(s2) - set(up) | set(down))
                yield [left[b] for b in upper], [left[b] for b in lower]
                if self.done or self.nodes > MAX_NODES:
                    return

    def _transpositions(
        self, upper: list[int], lower: list[int], pairs: list[Pair]
    ) -> Iterator[list[Pair]]:
        """S1's players in order, each against the first S2 player left that they may meet and
        that leaves the rest of S1 a partner each (a bipartite check, so no branch dead-ends)."""
        may = self.pairer.may
        used = [False] * len(lower)

        def feasible(start: int) -> bool:
            free = [b for b, taken in enumerate(used) if not taken]
            return covers_rows([[b for b in free if may[i][lower[b]]] for i in upper[start:]])

        def step(index: int, made: list[Pair]) -> Iterator[list[Pair]]:
            self.nodes += 1
            if self.nodes > MAX_NODES:
                return
            if index == len(upper):
                yield made
                return
            head = upper[index]
            for b, partner in enumerate(lower):
                if not used[b] and may[head][partner]:
                    used[b] = True
                    if feasible(index + 1):
                        yield from step(index + 1, [*made, (head, partner)])
                    used[b] = False
                    if self.done or self.nodes > MAX_NODES:
                        return

        if feasible(0):
            yield from step(0, pairs)
