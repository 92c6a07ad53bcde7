"""An arena, as lichess runs them (lichess's arena FAQ): players are paired again as soon as
they are free, until the clock ends the tournament, and score:

* a win 2 points, a draw 1, a loss 0;
* *on fire*: after two wins in a row, each game's points are doubled (a win 4, a draw 2) until a
  game is not won;
* *berserk*: a player who halved their own clock gets 1 point more for a win of at least
  :data:`BERSERK_MOVES` moves (not doubled).

(lichess's further rules on repeated quick draws are not applied.)

:func:`pair_arena` pairs the players waiting now: ranked by arena points, then rating, each
with the nearest-ranked free player who was not their last opponent; White to the one who has
had fewer Whites (then to the one who had Black last, then to the higher-ranked).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .records import Game, TournamentError

WIN, DRAW, LOSS = 2, 1, 0
#: a berserk win earns its extra point only if the game lasted this many moves
BERSERK_MOVES = 7
#: wins in a row that set a player on fire
FIRE_AFTER = 2


@dataclass(frozen=True)
class ArenaGame(Game):
    """A game of the arena, in the order the games ended; ``berserk`` names who went berserk
    and ``moves`` counts the game's full moves."""

    berserk: frozenset[str] = field(default_factory=frozenset)
    moves: int = 0


@dataclass(frozen=True)
class ArenaScore:
    """A player's arena points, games, whether on fire now, and the score sheet (each game's
    points, as lichess shows them)."""

    player: str
    points: int
    games: int
    on_fire: bool
    sheet: tuple[int, ...]


def arena_scores(players: Sequence[str], games: Sequence[ArenaGame]) -> list[ArenaScore]:
    """Every player's arena score after ``games`` (unfinished ones are skipped), best first
    (ties in the field's order)."""
    known = set(players)
    streak = dict.fromkeys(players, 0)
    sheet: dict[str, list[int]] = {player: [] for player in players}
    for game in games:
        for name in (game.white, game.black):
            if name not in known:
                raise TournamentError(f"an arena game names {name!r}, who is not entered")
        share = (game.fraction(game.white), game.fraction(game.black))
        if share[0] is None or share[1] is None:
            continue
        for name, mine in zip((game.white, game.black), share, strict=True):
            fire = streak[name] >= FIRE_AFTER
            if mine == 1.0:
                gained = WIN * (2 if fire else 1)
                if name in game.berserk and game.moves >= BERSERK_MOVES:
                    gained += 1
                streak[name] += 1
            else:
                gained = (DRAW if mine == 0.5 else LOSS) * (2 if fire else 1)
                streak[name] = 0
            sheet[name].append(gained)
    order = {player: index for index, player in enumerate(players)}
    scores = [
        ArenaScore(p, sum(sheet[p]), len(sheet[p]), streak[p] >= FIRE_AFTER, tuple(sheet[p]))
        for p in players
    ]
    return sorted(scores, key=lambda score: (-score.points, order[score.player]))


def pair_arena(
    waiting: Sequence[str],
    players: Sequence[str],
    games: Sequence[ArenaGame],
    ratings: Mapping[str, float] | None = None,
) -> list[Game]:
    """Pairs among the ``waiting`` players (the others are still playing), given the games so
    far; a player whose only free neighbours were their last opponent waits for the next call."""
    known = set(players)
    for name in waiting:
        if name not in known:
            raise TournamentError(f"{name!r} is waiting but is not entered")
    points = {score.player: score.points for score in arena_scores(players, games)}
    last: dict[str, str] = {}
    whites = dict.fromkeys(players, 0)
    last_colour: dict[str, str] = {}
    for game in games:
        last[game.white], last[game.black] = game.black, game.white
        whites[game.white] += 1
        whites[game.black] -= 1
        last_colour[game.white], last_colour[game.black] = "white", "black"
    rating = ratings or {}
    ranked = sorted(
        dict.fromkeys(waiting), key=lambda p: (-points[p], -rating.get(p, 0.0), players.index(p))
    )
    free = list(ranked)
    pairs: list[Game] = []
    while len(free) >= 2:
        head = free.pop(0)
        partner = next((p for p in free if last.get(head) != p), None)
        if partner is None:
            continue
        free.remove(partner)
        higher, lower = head, partner
        if whites[higher] != whites[lower]:
            white_first = whites[higher] < whites[lower]
        elif last_colour.get(higher) != last_colour.get(lower):
            white_first = last_colour.get(higher) == "black"
        else:
            white_first = True
        pairs.append(Game(higher, lower) if white_first else Game(lower, higher))
    return pairs
