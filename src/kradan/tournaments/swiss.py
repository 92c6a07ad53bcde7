"""The next round of a Swiss tournament, by a Dutch-system pairing (after FIDE C.04.3, the Dutch
system, and C.04.1, the basic rules).

**How it pairs.** The players are ranked by score, then pairing number. Each score group, from
the top down, is a *bracket*, joined by the players who floated down from the brackets above
(MDPs). In a bracket the pairer decides how many pairs it makes and who floats down
(the *floaters*), then pairs the rest in the Dutch order: the MDPs first, each with the first
resident it may meet; then the residents' top half S1 against their bottom half S2 (1 against
``h + 1``, 2 against ``h + 2``, ...), then the transpositions of S2 in order, then the exchanges
between S1 and S2 in FIDE's order (fewest players exchanged, smallest difference of their
numbers, ...). Every candidate keeps the *absolute criteria*, and the players left below must
still be able to pair among themselves (*completion*, checked exactly with Edmonds' matching
algorithm, :mod:`.matching`). So the pairing never runs into a dead end: it fails only when no
pairing of the round keeps the rules at all (:class:`~.records.PairingError`).

**The absolute criteria** (C.1-C.4), met exactly:

* no two players meet twice (a forfeited game was not played: they may meet again);
* a pairing-allocated bye goes to one player at most once, and never to one who has already
  scored a point without playing (a bye, a forfeit win); it is the last bracket's floater,
  chosen by the criteria below like any floater (the lowest score, then the quality criteria,
  then the lowest rank);
* no player's colour difference goes beyond ±2 and no player gets the same colour three times
  running, with one exception: in the last round (when ``total_rounds`` is given), if no pairing
  keeps that rule, it is lifted for the *topscorers* (more than half the points possible so far),
  as C.3 allows, and the result says so (``relaxed="topscorers"``). With
  ``colour_fallback=True`` a round that no colour-keeping pairing exists for is paired anyway
  without the colour rule (``relaxed="colours"``: beyond FIDE, for a club that must play on);
* completion: the pairing of a bracket leaves the rest pairable (C.4).

**The quality criteria**, in FIDE's order, and how closely they are met:

* C.5, the most pairs in each bracket, given the brackets above: **exact**. The floater sets
  of each size are tried, the smallest size first, each checked exactly (a perfect matching of
  the bracket without them, and completion below); a bracket with more than
  :data:`MAX_FLOATER_SETS` sets of one size tries only that many and reports ``exact=False``.
* C.6, the pairs' score differences (FIDE's PSD, a floater counted against one win below the
  bracket's lowest score): **exact** for FIDE's shape of a bracket (each MDP that stays paired
  meets a resident). Beyond FIDE, an MDP may meet another MDP when a completion needs it (tried
  after the MDP's residents).
* C.7 (floaters chosen for the next bracket's sake): **not applied**; the next bracket is
  only guaranteed to be pairable.
* C.8-C.9 (topscorers' colour excesses, last round only), C.10-C.11 (players who do not get
  their colour preference, their strong one), C.12-C.15 (the same downfloat or upfloat as one or
  two rounds before): **approximate**. Candidates are met floater set by floater set (the best
  PSD first, then the fewest repeated downfloats, then the lowest-ranked floaters: FIDE's order
  lets the floaters fall out of the transpositions instead), each set's pairings in the Dutch
  order (:mod:`.dutch`, exchanges capped at :data:`~.dutch.MAX_EXCHANGES` per size); the first
  candidate that reaches the lower bound of each criterion is taken, else the best of the first
  :data:`~.dutch.MAX_NODES` search steps. C.16-C.19 (the score differences of repeated floats)
  are not looked at.
* The colours within a pair follow E.1-E.5 **exactly** (:mod:`.colours`); the boards are ordered
  by the higher score, the sum of the scores, then the higher player's rank (C.04.1).

The round's board order, the bye and who was relaxed come back in a :class:`SwissPairing`;
``as_round()`` gives the :class:`~.records.Round` to record the results in.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from . import colours as colour_rules
from .dutch import BracketSearch, Pair
from .history import History, histories
from .lookahead import (
    MAX_VERTICES,
    Search,
    adjacency_after,
    perfect_matchings,
    rounds_pairable,
)
from .matching import matching_size, maximum_matching, perfect_matching
from .records import (
    DEFAULT_POINTS,
    Bye,
    Colour,
    Game,
    PairingError,
    Points,
    Round,
    TournamentError,
    check_players,
    check_rounds,
)

#: which absolute rule a pairing had to lift ("repeats": no pairing without a rematch existed)
Relaxation = Literal["none", "topscorers", "colours", "repeats"]
#: a floater set's order: its PSD, its repeated downfloats (one and two rounds back), its ranks
FloaterKey = tuple[tuple[float, ...], tuple[int, int], tuple[int, ...]]

#: the floater sets one bracket tries for one number of pairs before it gives up exactness
MAX_FLOATER_SETS = 3000


@dataclass(frozen=True)
class SwissPairing:
    """A round's pairing: the games (board 1 first, no results yet), the player with the
    pairing-allocated bye, the players not paired at their request, which colour rule was lifted,
    and whether every bracket's search was exhaustive where exactness was promised."""

    games: tuple[Game, ...]
    bye: str | None = None
    half_byes: tuple[str, ...] = ()
    zero_byes: tuple[str, ...] = ()
    relaxed: Relaxation = "none"
    exact: bool = True
    #: brackets that the Dutch-order search found no candidate for within :data:`MAX_NODES`
    #: steps, paired by the matching that proved them pairable instead
    fallbacks: int = 0
    #: the Dutch pairing would have left the later rounds unpairable, so another was taken
    #: (:mod:`.lookahead`): the score-group order is then kept only as far as that allows
    looked_ahead: bool = False

    def as_round(self) -> Round:
        """The round to record the results in (the byes included)."""
        byes = [Bye(self.bye, "pairing")] if self.bye is not None else []
        byes += [Bye(player, "half") for player in self.half_byes]
        byes += [Bye(player, "zero") for player in self.zero_byes]
        return Round(self.games, tuple(byes))


def pair_round(
    players: Sequence[str],
    rounds: Sequence[Round],
    *,
    total_rounds: int | None = None,
    points: Points = DEFAULT_POINTS,
    absent: Collection[str] = (),
    half_byes: Collection[str] = (),
    first_colour: Colour = "white",
    colour_fallback: bool = False,
    lookahead: bool = True,
    allow_repeats: bool = False,
) -> SwissPairing:
    """Pair the round after ``rounds`` (each finished) for ``players`` (in pairing-number order:
    the strongest first). ``absent`` players sit the round out for nothing, ``half_byes`` for a
    half point; ``first_colour`` is what player 1 gets in round 1; ``total_rounds`` lets the last
    round relax the colour rule for the topscorers (FIDE C.3). With ``total_rounds`` and
    ``lookahead`` a small field (:data:`~.lookahead.MAX_VERTICES`) gets a pairing after which
    the rounds left can still be paired without a rematch, whenever one exists. Raises
    :class:`PairingError` when no pairing keeps the rules, unless ``allow_repeats``: then the
    round is paired with the fewest rematches (``relaxed="repeats"``, colours unchecked)."""
    players = list(players)
    check_players(players)
    check_rounds(players, rounds)
    if first_colour not in ("white", "black"):
        raise TournamentError(f"the first colour is 'white' or 'black', not {first_colour!r}")
    if total_rounds is not None and len(rounds) >= total_rounds:
        raise TournamentError(f"all {total_rounds} rounds are already paired")
    known = set(players)
    for name in (*absent, *half_byes):
        if name not in known:
            raise TournamentError(f"{name!r} sits out a round but is not entered")
    found = histories(players, rounds, points)
    sitting_out = set(absent) | set(half_byes)
    field = sorted(
        (found[player] for player in players if player not in sitting_out),
        key=lambda history: (-history.score, history.number),
    )
    stages: list[Relaxation] = ["none"]
    if total_rounds is not None and len(rounds) + 1 == total_rounds:
        stages.append("topscorers")
    if colour_fallback:
        stages.append("colours")
    left = 0 if total_rounds is None else total_rounds - len(rounds) - 1
    look = lookahead and left > 0 and len(field) + len(field) % 2 <= MAX_VERTICES
    first: SwissPairing | None = None
    for stage in stages:
        pairer = _Pairer(field, stage, points, len(rounds), first_colour)
        if not pairer.complete(frozenset(range(len(field)))):
            continue
        pairs, floater = pairer.pair_vertices()
        looked_ahead = False
        if look and not leaves_pairable(pairer, pairs, floater, left):
            better = pair_looking_ahead(pairer, left)
            if better is None:
                first = first or _pairing(pairer, pairs, floater, players, absent, half_byes)
                continue
            (pairs, floater), looked_ahead = better, True
        return _pairing(pairer, pairs, floater, players, absent, half_byes, looked_ahead)
    if first is not None:
        return first  # no pairing keeps the later rounds pairable: they will have to repeat
    if allow_repeats:
        pairer = _Pairer(field, "colours", points, len(rounds), first_colour)
        pairs, floater = pair_fewest_repeats(pairer)
        pairing = _pairing(pairer, pairs, floater, players, absent, half_byes)
        return replace(pairing, relaxed="repeats")
    raise PairingError(_why(field, len(rounds) + 1))


def _pairing(
    pairer: _Pairer,
    pairs: Sequence[Pair],
    floater: int | None,
    players: Sequence[str],
    absent: Collection[str],
    half_byes: Collection[str],
    looked_ahead: bool = False,
) -> SwissPairing:
    """The :class:`SwissPairing` of ``pairs`` (places in the pairer's field)."""
    games, bye = pairer.games_of(pairs, floater)
    return SwissPairing(
        games,
        bye,
        tuple(p for p in players if p in set(half_byes)),
        tuple(p for p in players if p in set(absent) - set(half_byes)),
        pairer.stage,
        pairer.exact,
        pairer.fallbacks,
        looked_ahead,
    )


def _why(field: Sequence[History], round_number: int) -> str:
    """The message of a round that cannot be paired."""
    stuck = [
        history.player
        for history in field
        if all(other.player in history.opponents for other in field if other is not history)
    ]
    detail = f"; {', '.join(map(repr, stuck))} met everyone left" if stuck else ""
    return (
        f"no pairing of round {round_number} for {len(field)} players keeps the rules (no "
        f"rematch, one pairing bye at most, colours within ±2 and never three running){detail}"
    )


class _Pairer:
    """One attempt to pair ``field`` (ranked: score, then pairing number) under one ``stage``.
    Players are named by their place in ``field``; ``self.bye`` is the bye's vertex."""

    def __init__(
        self,
        field: Sequence[History],
        stage: Relaxation,
        points: Points,
        played: int,
        first_colour: Colour,
    ) -> None:
        self.field = list(field)
        self.stage = stage
        self.points = points
        self.first_colour = first_colour
        n = len(field)
        self.bye = n if n % 2 else None
        top = points.win * played / 2
        self.relaxed = [
            stage == "colours" or (stage == "topscorers" and h.score > top) for h in field
        ]
        self.preference = [colour_rules.preference(h) for h in field]
        self.colours_ok = [
            {
                colour: self.relaxed[i] or colour_rules.allowed(h, colour)
                for colour in ("white", "black")
            }
            for i, h in enumerate(field)
        ]
        self.may = [
            [
                i != j and self._compatible(i, j) and field[j].player not in field[i].opponents
                for j in range(n)
            ]
            for i in range(n)
        ]
        self.bye_ok = [not h.unplayed_point for h in field]
        self._complete: dict[frozenset[int], bool] = {}
        self.exact = True
        self.fallbacks = 0

    # --- the absolute criteria ----------------------------------------------------------------

    def _ok(self, i: int, colour: Colour) -> bool:
        return self.colours_ok[i][colour]

    def _compatible(self, i: int, j: int) -> bool:
        """Some colours for i and j keep the colour rule for both (or for the relaxed)."""
        return (self._ok(i, "white") and self._ok(j, "black")) or (
            self._ok(i, "black") and self._ok(j, "white")
        )

    def complete(self, players: frozenset[int]) -> bool:
        """Whether ``players`` (with the bye, in an odd field) can all be paired."""
        known = self._complete.get(players)
        if known is None:
            vertices = sorted(players)
            if self.bye is not None:
                vertices.append(self.bye)
            graph = self._graph(vertices)
            known = self._complete[players] = perfect_matching(graph) is not None
        return known

    def _graph(self, vertices: Sequence[int]) -> list[list[int]]:
        """The allowed games among ``vertices`` (the bye's vertex included) as neighbour lists
        over their positions."""
        graph: list[list[int]] = [[] for _ in vertices]
        for a, i in enumerate(vertices):
            for b in range(a + 1, len(vertices)):
                j = vertices[b]
                if i == self.bye:
                    edge = self.bye_ok[j]
                elif j == self.bye:
                    edge = self.bye_ok[i]
                else:
                    edge = self.may[i][j]
                if edge:
                    graph[a].append(b)
                    graph[b].append(a)
        return graph

    # --- the brackets -------------------------------------------------------------------------

    def pair_vertices(self) -> tuple[list[Pair], int | None]:
        """The pairs and the bye's holder (places in the field), bracket by bracket."""
        scores = sorted({h.score for h in self.field}, reverse=True)
        groups = [[i for i, h in enumerate(self.field) if h.score == s] for s in scores]
        floaters: list[int] = []
        pairs: list[Pair] = []
        for index, group in enumerate(groups):
            below = frozenset(i for later in groups[index + 1 :] for i in later)
            bracket = sorted(floaters + group)
            made, floaters = self._pair_bracket(bracket, set(floaters), below)
            pairs += made
        if len(floaters) > 1 or (floaters and (self.bye is None or not self.bye_ok[floaters[0]])):
            raise AssertionError(f"the brackets left {floaters} unpaired")  # completion forbids
        return pairs, (floaters[0] if floaters else None)

    def games_of(
        self, pairs: Sequence[Pair], floater: int | None
    ) -> tuple[tuple[Game, ...], str | None]:
        """The games of ``pairs`` in board order, and the bye's holder by name."""
        games = [self.game(i, j) for i, j in pairs]
        rank = {h.player: i for i, h in enumerate(self.field)}
        score = {h.player: h.score for h in self.field}

        def board(game: Game) -> tuple[float, float, int]:
            a, b = score[game.white], score[game.black]
            return -max(a, b), -(a + b), min(rank[game.white], rank[game.black])

        games.sort(key=board)
        bye = self.field[floater].player if floater is not None else None
        return tuple(games), bye

    def game(self, i: int, j: int) -> Game:
        """The game of i and j (``i`` ranked higher), colours by E.1-E.5 within the rules."""
        higher, lower = (i, j) if i < j else (j, i)
        colour = colour_rules.allocate(self.field[higher], self.field[lower], self.first_colour)
        if not (self._ok(higher, colour) and self._ok(lower, colour_rules.other(colour))):
            colour = colour_rules.other(colour)
        white, black = (higher, lower) if colour == "white" else (lower, higher)
        return Game(self.field[white].player, self.field[black].player)

    def _pair_bracket(
        self, bracket: list[int], mdps: set[int], below: frozenset[int]
    ) -> tuple[list[Pair], list[int]]:
        """The pairs of one bracket and its floaters (ranked), per the module's criteria."""
        local = [[b for b, j in enumerate(bracket) if self.may[i][j]] for i in bracket]
        most = matching_size(maximum_matching(local))
        # the players below who cannot pair among themselves need as many floaters at least
        vertices = sorted(below) + ([self.bye] if self.bye is not None else [])
        unmatched = len(vertices) - 2 * matching_size(maximum_matching(self._graph(vertices)))
        most = min(most, (len(bracket) - unmatched) // 2)
        # only a player who may meet someone below (or take the bye) can float
        reach = {
            i
            for i in bracket
            if any(self.may[i][j] for j in below) or (self.bye is not None and self.bye_ok[i])
        }
        lowest = min(self.field[i].score for i in bracket)
        for pairs in range(most, -1, -1):
            size = len(bracket) - 2 * pairs
            choices = self._floater_sets(bracket, size, mdps, lowest, reach)
            first = next(
                (
                    (index, witness)
                    for index, (_, floaters) in enumerate(choices)
                    if (witness := self._admissible(bracket, floaters, below)) is not None
                ),
                None,
            )
            if first is None:
                continue
            start, witness = first
            search = BracketSearch(self, bracket, mdps, lowest)
            for key, floaters in choices[start:]:
                if key[0] != choices[start][0][0] or search.done:
                    break
                if self._admissible(bracket, floaters, below) is not None:
                    search.run(floaters)
            if search.best is None:
                self.fallbacks += 1  # no Dutch-order candidate within the budget
                return witness, list(floaters_of(bracket, witness))
            return search.best, sorted(search.best_floaters)
        # only when the floater sets were cut short at every size: the completion's own matching
        self.exact = False
        self.fallbacks += 1
        vertices = [*bracket, *sorted(below), *([self.bye] if self.bye is not None else [])]
        mate = perfect_matching(self._graph(vertices))
        if mate is None:
            raise AssertionError("the brackets above left this one unpairable")  # C.4 forbids
        inside = len(bracket)
        made = [(vertices[a], vertices[b]) for a, b in enumerate(mate) if a < b < inside]
        return made, list(floaters_of(bracket, made))

    def _floater_sets(
        self, bracket: list[int], size: int, mdps: set[int], lowest: float, reach: set[int]
    ) -> list[tuple[FloaterKey, tuple[int, ...]]]:
        """The sets of ``size`` floaters to try, best first: the smallest score differences
        (PSD), then the fewest repeated downfloats, then the lowest-ranked (the Dutch order)."""
        win = self.points.win
        found: list[tuple[FloaterKey, tuple[int, ...]]] = []
        movable = [i for i in reversed(bracket) if i in reach]
        for count, floaters in enumerate(itertools.combinations(movable, size)):
            if count >= MAX_FLOATER_SETS:
                self.exact = False
                break
            ranked = sorted(floaters)
            diffs = [self.field[i].score - (lowest - win) for i in ranked]
            diffs += [self.field[i].score - lowest for i in mdps if i not in floaters]
            psd = tuple(sorted(diffs, reverse=True))
            repeats = (
                sum(self.field[i].float_before(1) == "down" for i in ranked),
                sum(self.field[i].float_before(2) == "down" for i in ranked),
            )
            found.append(((psd, repeats, tuple(-i for i in ranked)), tuple(ranked)))
        found.sort(key=lambda item: item[0])
        return found

    def _admissible(
        self, bracket: list[int], floaters: tuple[int, ...], below: frozenset[int]
    ) -> list[Pair] | None:
        """The pairs of one pairing of the bracket without ``floaters``, if one exists and the
        floaters with everyone below can still be paired; else ``None``."""
        if not self.complete(below | frozenset(floaters)):
            return None
        rest = [i for i in bracket if i not in floaters]
        mate = perfect_matching(self._graph(rest))
        if mate is None:
            return None
        return [(rest[a], rest[b]) for a, b in enumerate(mate) if a < b]


# --- the look-ahead and the last resort ---------------------------------------------------------


def _unmet(self: _Pairer) -> list[list[bool]]:
    """Who may still meet whom in some later round (the bye's vertex last, in an odd field):
    no rematch, no second point without play; colours are not foreseen."""
    n = len(self.field)
    size = n + (self.bye is not None)
    unmet = [[False] * size for _ in range(size)]
    for i in range(size):
        for j in range(size):
            if i == j:
                continue
            if i == self.bye or j == self.bye:
                unmet[i][j] = self.bye_ok[j if i == self.bye else i]
            else:
                unmet[i][j] = self.field[j].player not in self.field[i].opponents
    return unmet


def _with_bye(self: _Pairer, pairs: Sequence[Pair], floater: int | None) -> list[Pair]:
    if floater is None or self.bye is None:
        return list(pairs)
    return [*pairs, (floater, self.bye)]


def leaves_pairable(
    self: _Pairer,
    pairs: Sequence[Pair],
    floater: int | None,
    left: int,
    search: Search | None = None,
) -> bool:
    """Whether the ``left`` rounds after this pairing can be paired without a rematch."""
    graph = adjacency_after(_unmet(self), _with_bye(self, pairs, floater))
    return rounds_pairable(graph, left, search)


def pair_looking_ahead(self: _Pairer, left: int) -> tuple[list[Pair], int | None] | None:
    """The best pairing of this round (the smallest score differences, then the fewest
    colour preferences missed, then the bye to the lowest-ranked) after which the ``left``
    rounds can be paired without a rematch; ``None`` when there is none."""
    vertices = list(range(len(self.field))) + ([self.bye] if self.bye is not None else [])
    graph = self._graph(vertices)
    masks = [sum(1 << b for b in row) for row in graph]
    win = self.points.win
    lowest = min(h.score for h in self.field)
    ranked: list[tuple[tuple[object, ...], list[Pair], int | None]] = []
    for matching in perfect_matchings(masks):
        pairs: list[Pair] = []
        floater = None
        diffs: list[float] = []
        missed = 0
        for a, b in matching:
            i, j = vertices[a], vertices[b]
            if self.bye is not None and self.bye in (i, j):
                floater = j if i == self.bye else i
                diffs.append(self.field[floater].score - (lowest - win))
                continue
            pairs.append((min(i, j), max(i, j)))
            diffs.append(abs(self.field[i].score - self.field[j].score))
            mine, theirs = self.preference[i][0], self.preference[j][0]
            missed += mine is not None and mine == theirs
        key = (tuple(sorted(diffs, reverse=True)), missed, -(floater or 0), sorted(pairs))
        ranked.append((key, pairs, floater))
    ranked.sort(key=lambda item: item[0])
    search = Search()  # one budget for every candidate
    for _, pairs, floater in ranked:
        if leaves_pairable(self, pairs, floater, left, search):
            return pairs, floater
    return None


def pair_fewest_repeats(self: _Pairer) -> tuple[list[Pair], int | None]:
    """A pairing with the fewest rematches: a maximum matching of the games the rules allow
    (a rematch costs one pair it cannot be part of, so no pairing has fewer), the players it
    leaves paired in rank order, the bye (in an odd field) to the lowest-ranked of them."""
    n = len(self.field)
    vertices = list(range(n)) + ([self.bye] if self.bye is not None else [])
    mate = maximum_matching(self._graph(vertices))
    pairs: list[Pair] = []
    floater = None
    for a, b in enumerate(mate):
        if a < b:
            i, j = vertices[a], vertices[b]
            if self.bye is not None and self.bye in (i, j):
                floater = j if i == self.bye else i
            else:
                pairs.append((i, j))
    left = [i for a, i in enumerate(vertices) if mate[a] == -1 and i != self.bye]
    if self.bye is not None and floater is None:
        floater = left.pop()
    pairs += [(left[k], left[k + 1]) for k in range(0, len(left), 2)]
    return pairs, floater


def floaters_of(bracket: Sequence[int], pairs: Sequence[Pair]) -> Iterator[int]:
    """The bracket's players that ``pairs`` leaves out."""
    paired = {i for pair in pairs for i in pair}
    return (i for i in bracket if i not in paired)
