"""Tournaments as pure functions of their records: round robins by FIDE's Berger tables
(:mod:`.berger`), Swiss rounds by a Dutch-system pairing (:mod:`.swiss`), tie-breaks, standings
and crosstables (:mod:`.tiebreaks`, :mod:`.standings`), and a lichess-style arena (:mod:`.arena`).
Nothing here reads a clock, a file or a database: a server keeps the rounds and asks for the
next pairing or the standings (docs/tournaments.md)."""

from __future__ import annotations

from .berger import berger_round, berger_table, round_robin
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
    scores,
)
from .swiss import SwissPairing, pair_round

__all__ = [
    "Bye",
    "ByeKind",
    "Colour",
    "Game",
    "PairingError",
    "Points",
    "Result",
    "Round",
    "SwissPairing",
    "TournamentError",
    "berger_round",
    "berger_table",
    "pair_round",
    "round_robin",
    "scores",
]
