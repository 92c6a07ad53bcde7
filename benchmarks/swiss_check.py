"""Swiss pairings checked on random tournaments (issue 47): every round of each tournament is
paired by :func:`kradan.tournaments.pair_round` and checked here by rules written out again
independently of the pairer:

* each player still in the field is paired once (a game or the bye); no two players meet twice;
  a pairing bye goes only to a player who has had no point without play, in an odd field;
* no colour difference beyond ±2 and no colour three times running, except for the topscorers
  of a last round the result says was relaxed;
* *score-group order*: from the top score group down, each bracket (its group and the players
  who floated into it) pairs as many of its players as any legal pairing of everyone left
  allows; the bracket's best is found by an integer program (scipy's ``milp``, when scipy is
  installed), not by the pairer's own matching code;
* a round the pairer refuses (``PairingError``) has no legal pairing at all (the same integer
  program finds none).

Results are random: wins, draws and losses, and now and then a forfeit or a player who sits a
round out. ``tests/test_tournaments_swiss.py`` runs 200 tournaments; the full check is::

    python benchmarks/swiss_check.py --tournaments 1000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from kradan.tournaments import PairingError, Points, Round, SwissPairing, pair_round

POINTS = Points()
RESULTS = ("1-0", "0-1", "1/2-1/2")


# --- the rules, written out again ------------------------------------------------------------


@dataclass
class Record:
    """A player's past as these checks read it."""

    colours: str = ""  # "w" and "b" for the games played
    met: set[str] = field(default_factory=set)
    free_point: bool = False  # a pairing bye or a forfeit win
    score: float = 0.0
    last_float: str = ""  # "down" or "up" in the round before, else ""


def replay(players: Sequence[str], rounds: Sequence[Round]) -> dict[str, Record]:
    records = {player: Record() for player in players}
    for round_ in rounds:
        before = {p: r.score for p, r in records.items()}
        for record in records.values():
            record.last_float = ""
        for game in round_.games:
            white, black = records[game.white], records[game.black]
            if before[game.white] != before[game.black]:
                high, low = (
                    (white, black) if before[game.white] > before[game.black] else (black, white)
                )
                high.last_float, low.last_float = "down", "up"
            share = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[game.result or "1/2-1/2"]
            white.score += share
            black.score += 1 - share
            if game.forfeit:
                (white if game.result == "1-0" else black).free_point = True
            else:
                white.colours += "w"
                black.colours += "b"
                white.met.add(game.black)
                black.met.add(game.white)
        for bye in round_.byes:
            record = records[bye.player]
            record.score += {"pairing": 1.0, "half": 0.5}.get(bye.kind, 0.0)
            if bye.kind == "pairing":
                record.free_point = True
                record.last_float = "down"
    return records


def may_colour(record: Record, colour: str, relaxed: bool) -> bool:
    """Whether a player may get ``colour`` ("w"/"b"): always when relaxed; else when the history
    stays within the rule (or a difference already beyond it comes back)."""
    if relaxed:
        return True
    after = record.colours + colour
    before_diff = abs(record.colours.count("w") - record.colours.count("b"))
    after_diff = abs(after.count("w") - after.count("b"))
    if after[-3:] in ("www", "bbb"):
        return False
    return after_diff <= 2 or after_diff < before_diff


def legal_pair(a: Record, b: Record, a_name: str, b_name: str, relax: tuple[bool, bool]) -> bool:
    if b_name in a.met:
        return False
    return (may_colour(a, "w", relax[0]) and may_colour(b, "b", relax[1])) or (
        may_colour(a, "b", relax[0]) and may_colour(b, "w", relax[1])
    )


def relaxations(records: dict[str, Record], stage: str, played: int) -> dict[str, bool]:
    top = POINTS.win * played / 2
    return {
        p: stage == "colours" or (stage == "topscorers" and r.score > top)
        for p, r in records.items()
    }


def best_inside(
    remaining: Sequence[str],
    bracket: set[str],
    records: dict[str, Record],
    relaxed: dict[str, bool],
) -> int | None:
    """The most pairs inside ``bracket`` over the legal pairings of ``remaining`` (with the bye
    when their number is odd), by scipy's mixed-integer solver; ``None`` when none exists."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    names = list(remaining)
    bye = len(names) % 2 == 1
    edges: list[tuple[int, int]] = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            pa, pb = names[a], names[b]
            if legal_pair(records[pa], records[pb], pa, pb, (relaxed[pa], relaxed[pb])):
                edges.append((a, b))
        if bye and not records[names[a]].free_point:
            edges.append((a, len(names)))
    vertices = len(names) + bye
    if vertices == 0:
        return 0
    if not edges:
        return None
    matrix = np.zeros((vertices, len(edges)))
    for e, (a, b) in enumerate(edges):
        matrix[a, e] = matrix[b, e] = 1
    cost = np.array(
        [
            -1.0 if b < len(names) and names[a] in bracket and names[b] in bracket else 0.0
            for a, b in edges
        ]
    )
    found = milp(
        cost,
        constraints=LinearConstraint(matrix, 1, 1),
        integrality=np.ones(len(edges)),
        bounds=Bounds(0, 1),
    )
    if not found.success:
        return None
    return round(-found.fun)


def violations(
    players: Sequence[str],
    rounds: Sequence[Round],
    pairing: SwissPairing,
    sitting_out: set[str],
    total_rounds: int,
    check_order: bool,
) -> list[str]:
    """What the round ``pairing`` breaks, in words (nothing: an empty list)."""
    found: list[str] = []
    records = replay(players, rounds)
    active = [p for p in players if p not in sitting_out]
    named = [p for g in pairing.games for p in (g.white, g.black)]
    named += [pairing.bye] if pairing.bye else []
    if sorted(named) != sorted(active):
        found.append(f"not everyone paired once: {sorted(named)} vs {sorted(active)}")
    last = len(rounds) + 1 == total_rounds
    relaxed = relaxations(records, pairing.relaxed, len(rounds))
    if pairing.relaxed == "topscorers" and not last:
        found.append("topscorers relaxed before the last round")
    for game in pairing.games:
        white, black = records[game.white], records[game.black]
        if game.black in white.met:
            found.append(f"rematch {game.white}-{game.black}")
        for name, record, colour in ((game.white, white, "w"), (game.black, black, "b")):
            if not may_colour(record, colour, relaxed[name]):
                found.append(f"colour rule broken for {name}: {record.colours}+{colour}")
    if pairing.bye is not None:
        if len(active) % 2 == 0:
            found.append("a bye in an even field")
        if records[pairing.bye].free_point:
            found.append(f"second point without play for {pairing.bye}")
    elif len(active) % 2:
        found.append("no bye in an odd field")
    if check_order and not found and not pairing.looked_ahead:
        found += order_violations(active, pairing, records, relaxed)
    return found


def order_violations(
    active: Sequence[str],
    pairing: SwissPairing,
    records: dict[str, Record],
    relaxed: dict[str, bool],
) -> list[str]:
    """Score-group order: each bracket, from the top down, pairs as many as possible."""
    partner = {}
    for game in pairing.games:
        partner[game.white], partner[game.black] = game.black, game.white
    number = {p: i for i, p in enumerate(active)}
    ranked = sorted(active, key=lambda p: (-records[p].score, number[p]))
    groups: list[list[str]] = []
    for player in ranked:
        if groups and records[groups[-1][0]].score == records[player].score:
            groups[-1].append(player)
        else:
            groups.append([player])
    floating: list[str] = []
    remaining = list(ranked)
    found = []
    for group in groups:
        bracket = set(floating) | set(group)
        inside = sum(1 for p in bracket if partner.get(p) in bracket) // 2
        if 2 * inside + 1 < len(bracket):  # at most one left out: nothing better exists
            best = best_inside(remaining, bracket, records, relaxed)
            if best is None or best > inside:
                found.append(f"bracket {sorted(bracket)} pairs {inside}, could pair {best}")
        floating = [p for p in bracket if partner.get(p) not in bracket]
        remaining = [p for p in remaining if p not in bracket or p in floating]
    return found


def pairable(
    players: Sequence[str], rounds: Sequence[Round], sitting_out: set[str], stage: str
) -> bool:
    """Whether any legal pairing of the next round exists (by the integer program)."""
    records = replay(players, rounds)
    active = [p for p in players if p not in sitting_out]
    relaxed = relaxations(records, stage, len(rounds))
    return best_inside(active, set(), records, relaxed) is not None


# --- the random tournaments --------------------------------------------------------------------


@dataclass
class Outcome:
    """One tournament's check."""

    players: int
    rounds: int
    paired: int = 0
    refused: int = 0  # rounds the pairer refused
    refused_wrongly: int = 0  # ... although a legal pairing existed
    relaxed: int = 0
    inexact: int = 0
    fallbacks: int = 0
    broken: list[str] = field(default_factory=list)
    floats: int = 0  # pairs of unequal scores
    repeated_floats: int = 0  # players floating down in two rounds running
    missed_colours: int = 0  # players not given their preferred colour
    seconds: float = 0.0
    slowest: float = 0.0


def tournament(seed: int, *, check_order: bool = True, scipy: bool = True) -> Outcome:
    """One random tournament of 5-40 players and 5-9 rounds, paired and checked round by round."""
    rng = random.Random(seed)
    size, total = rng.randint(5, 40), rng.randint(5, 9)
    players = [f"p{i:02d}" for i in range(1, size + 1)]
    outcome = Outcome(size, total)
    rounds: list[Round] = []
    for _ in range(total):
        sitting_out = {p for p in players if rng.random() < 0.02}
        started = time.perf_counter()
        try:
            pairing = pair_round(players, rounds, total_rounds=total, absent=sitting_out)
        except PairingError:
            outcome.refused += 1
            if scipy:
                last = len(rounds) + 1 == total
                stages = ("none", "topscorers") if last else ("none",)
                if any(pairable(players, rounds, sitting_out, stage) for stage in stages):
                    outcome.refused_wrongly += 1
            break
        finally:
            spent = time.perf_counter() - started
            outcome.seconds += spent
            outcome.slowest = max(outcome.slowest, spent)
        outcome.paired += 1
        outcome.relaxed += pairing.relaxed != "none"
        outcome.inexact += not pairing.exact
        outcome.fallbacks += pairing.fallbacks
        outcome.broken += violations(
            players, rounds, pairing, sitting_out, total, check_order and scipy
        )
        _quality(outcome, players, rounds, pairing)
        games = []
        for game in pairing.games:
            result = rng.choice(RESULTS)
            forfeit = result != "1/2-1/2" and rng.random() < 0.02
            games.append(replace(game, result=result, forfeit=forfeit))
        round_ = pairing.as_round()
        rounds.append(Round(tuple(games), round_.byes))
    return outcome


def _quality(
    outcome: Outcome, players: Sequence[str], rounds: Sequence[Round], pairing: SwissPairing
) -> None:
    from kradan.tournaments.colours import preference
    from kradan.tournaments.history import histories

    found = histories(players, rounds, POINTS)
    records = replay(players, rounds)
    for game in pairing.games:
        if records[game.white].score != records[game.black].score:
            outcome.floats += 1
            high = (
                game.white if records[game.white].score > records[game.black].score else game.black
            )
            outcome.repeated_floats += records[high].last_float == "down"
        for player in (game.white, game.black):
            wanted, _ = preference(found[player])
            outcome.missed_colours += wanted is not None and wanted != game.colour_of(player)
    if pairing.bye is not None:
        outcome.repeated_floats += records[pairing.bye].last_float == "down"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=1000, help="how many (1000)")
    parser.add_argument("--seed", type=int, default=0, help="the first tournament's seed (0)")
    args = parser.parse_args(argv)
    try:
        import scipy  # noqa: F401

        scipy_found = True
    except ImportError:
        scipy_found = False
        print("scipy is not installed: the score-group order and refusals are not checked")
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
    from _table import print_table

    bands = [(5, 10), (11, 20), (21, 30), (31, 40)]
    totals = {band: Outcome(0, 0) for band in bands}
    counts = dict.fromkeys(bands, 0)
    broken: list[str] = []
    for seed in range(args.seed, args.seed + args.tournaments):
        outcome = tournament(seed, scipy=scipy_found)
        band = next(b for b in bands if b[0] <= outcome.players <= b[1])
        counts[band] += 1
        total = totals[band]
        for name in ("paired", "refused", "refused_wrongly", "relaxed", "inexact", "fallbacks",
                     "floats", "repeated_floats", "missed_colours"):  # fmt: skip
            setattr(total, name, getattr(total, name) + getattr(outcome, name))
        total.seconds += outcome.seconds
        total.slowest = max(total.slowest, outcome.slowest)
        broken += [f"seed {seed}: {text}" for text in outcome.broken]
    rows = []
    for band in bands:
        t = totals[band]
        rows.append([
            f"{band[0]}-{band[1]}", str(counts[band]), str(t.paired), str(t.refused),
            str(t.refused_wrongly), str(t.relaxed), str(t.inexact), str(t.fallbacks),
            f"{t.floats / max(t.paired, 1):.2f}", str(t.repeated_floats),
            f"{t.missed_colours / max(t.paired, 1):.2f}",
            f"{1000 * t.seconds / max(t.paired + t.refused, 1):.1f}", f"{1000 * t.slowest:.0f}",
        ])  # fmt: skip
    print_table(
        f"Swiss pairings of {args.tournaments} random tournaments (seeds {args.seed}-"
        f"{args.seed + args.tournaments - 1}); rule violations found: {len(broken)}",
        ["players", "tournaments", "rounds paired", "refused", "refused wrongly",
         "relaxed", "inexact", "fallbacks", "floats/round", "repeat downfloats",
         "colour misses/round", "ms/round", "slowest ms"],
        rows,
    )  # fmt: skip
    for text in broken[:20]:
        print(text)
    return 1 if broken or any(t.refused_wrongly for t in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
