"""What a tournament's page and ``GET /api/tournaments/{id}`` show: its settings, its rounds
(pairings with their games and results, byes), the standings with their tie-breaks and the
crosstable (an arena: its scores), computed from the stored pairings by
:mod:`kradan.tournaments`."""

from __future__ import annotations

import logging
from typing import Any

from ..tournaments import (
    ArenaGame,
    Bye,
    Game,
    Round,
    TournamentError,
    arena_scores,
    crosstable,
    standings,
)
from .tournament_store import TournamentStore
from .tournament_tables import TournamentGameRow, TournamentRow

log = logging.getLogger("kradan.web")


async def tournament_view(store: TournamentStore, row: TournamentRow) -> dict[str, Any]:
    """The tournament as ``GET /api/tournaments/{id}`` gives it."""
    games = await store.games(row.id)
    rounds: dict[int, dict[str, Any]] = {}
    for g in games:
        entry = rounds.setdefault(g.round, {"number": g.round, "pairings": [], "byes": []})
        if g.black is None:
            entry["byes"].append({"player": g.white, "kind": g.bye})
        else:
            entry["pairings"].append(
                {
                    "board": g.board,
                    "white": g.white,
                    "black": g.black,
                    "game": g.game,
                    "result": g.result,
                    "forfeit": g.forfeit,
                }
            )
    organiser = None
    if row.organiser_id is not None:
        organiser = await store.username_of(row.organiser_id)
    found: dict[str, Any] = {
        "id": row.public_id,
        "name": row.name,
        "variant": row.variant,
        "system": row.system,
        "rounds_planned": row.rounds,
        "double": row.double,
        "clock": row.clock,
        "players": list(row.players),
        "organiser": organiser,
        "status": row.status,
        "created_at": row.created_at.isoformat() + "Z",
        "ends_at": None if row.ends_at is None else row.ends_at.isoformat() + "Z",
        "rounds": [rounds[number] for number in sorted(rounds)],
    }
    found.update(table_of(row, games))
    return found


def rounds_of(row: TournamentRow, games: list[TournamentGameRow]) -> list[Round]:
    """The rounds played so far, as the pairing library reads them (results ``None`` while
    their games go on)."""
    by_round: dict[int, tuple[list[Game], list[Bye]]] = {}
    for g in games:
        played, byes = by_round.setdefault(g.round, ([], []))
        if g.black is None:
            byes.append(Bye(g.white, g.bye or "pairing"))  # type: ignore[arg-type]
        else:
            played.append(Game(g.white, g.black, g.result, g.forfeit))  # type: ignore[arg-type]
    return [Round(tuple(by_round[n][0]), tuple(by_round[n][1])) for n in sorted(by_round)]


def arena_games(games: list[TournamentGameRow]) -> list[ArenaGame]:
    """An arena's games in the order they were paired."""
    return [
        ArenaGame(g.white, g.black, g.result, g.forfeit)  # type: ignore[arg-type]
        for g in games
        if g.black is not None
    ]


def table_of(row: TournamentRow, games: list[TournamentGameRow]) -> dict[str, Any]:
    """The standings (with tie-breaks) and the crosstable."""
    if row.system == "arena":
        scores = arena_scores(row.players, arena_games(games))
        return {
            "standings": [
                {
                    "rank": rank,
                    "player": s.player,
                    "points": s.points,
                    "games": s.games,
                    "on_fire": s.on_fire,
                    "tiebreaks": {},
                    "sheet": list(s.sheet),
                }
                for rank, s in enumerate(scores, 1)
            ],
            "crosstable": [],
        }
    try:
        rounds = rounds_of(row, games)
        lines = standings(row.players, rounds)
        table = crosstable(row.players, rounds)
    except TournamentError as error:  # a stored record the library refuses: say so, no 500
        log.warning("tournament %s: %s", row.public_id, error)
        return {"standings": [], "crosstable": []}
    return {
        "standings": [
            {
                "rank": line.rank,
                "player": line.player,
                "points": line.points,
                "tiebreaks": dict(line.tiebreaks),
            }
            for line in lines
        ],
        "crosstable": [
            {
                "player": player,
                "cells": [
                    {
                        "kind": cell.kind,
                        "opponent": cell.opponent,
                        "colour": cell.colour,
                        "points": cell.points,
                    }
                    for cell in cells
                ],
            }
            for player, cells in table.items()
        ],
    }


__all__ = ["arena_games", "rounds_of", "table_of", "tournament_view"]
