"""Tournaments as pure functions of their records: round robins by FIDE's Berger tables
(:mod:`.berger`), Swiss rounds by a Dutch-system pairing (:mod:`.swiss`), tie-breaks, standings
and crosstables (:mod:`.tiebreaks`, :mod:`.standings`), and a lichess-style arena (:mod:`.arena`).
Nothing here reads a clock, a file or a database: a server keeps the rounds and asks for the
next pairing or the standings (docs/tournaments.md)."""

from __future__ import annotations

from .arena import ArenaGame, ArenaScore, arena_scores, pair_arena
from .berger import berger_round, berger_table, round_robin
from .crosstable import Cell, crosstable
from .records import (
    Bye,
    ByeKind,
    Colour,
    Game,
    PairingError,
    Points,
    Result,
    Round,
    TournamentError,
    by_rating,
    scores,
)
from .standings import DEFAULT_TIEBREAKS, Standing, standings
from .swiss import SwissPairing, pair_round
from .tiebreaks import TIEBREAKS, TieBreak

__all__ = [
    "DEFAULT_TIEBREAKS",
    "TIEBREAKS",
    "ArenaGame",
    "ArenaScore",
    "Bye",
    "ByeKind",
    "Cell",
    "Colour",
    "Game",
    "PairingError",
    "Points",
    "Result",
    "Round",
    "Standing",
    "SwissPairing",
    "TieBreak",
    "TournamentError",
    "arena_scores",
    "berger_round",
    "berger_table",
    "by_rating",
    "crosstable",
    "pair_arena",
    "pair_round",
    "round_robin",
    "scores",
    "standings",
]
