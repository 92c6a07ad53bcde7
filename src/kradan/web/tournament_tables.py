"""The tables of tournaments (issue 47): ``tournaments`` (the settings, the field in pairing
order, the organiser and the state) and ``tournament_games`` (each round's pairings, a bye as a
row without Black, each game linked to an ordinary game of ``games`` by its public id). They
share the schema's metadata (:mod:`.schema`), so that Alembic compares one schema."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .schema import Base, JSONType


class TournamentRow(Base):
    """A tournament: ``system`` is ``round-robin``, ``swiss`` or ``arena``; ``status`` is
    ``created``, ``playing``, ``finished`` or ``cancelled``; ``players`` the usernames in
    pairing-number order; ``rounds`` the rounds (an arena: its length in minutes)."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    public_id: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(40))
    system: Mapped[str] = mapped_column(String(16))
    rounds: Mapped[int] = mapped_column(Integer)
    double: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the clock as the API takes it (``"3+2"``)
    clock: Mapped[str] = mapped_column(String(20))
    players: Mapped[list[Any]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(16), index=True)
    organiser_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: an arena's end (no new game is paired after it)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class TournamentGameRow(Base):
    """One pairing of a round: White and Black by username (``black`` ``None``: a bye of kind
    ``bye``), the game's public id, and the result once the game has ended (``forfeit``: the
    loser never moved). The seat tokens let each player's signed-in session take its seat."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    white: Mapped[str] = mapped_column(String(32))
    black: Mapped[str | None] = mapped_column(String(32), nullable=True)
    bye: Mapped[str | None] = mapped_column(String(12), nullable=True)
    game: Mapped[str | None] = mapped_column(String(12), nullable=True, index=True)
    result: Mapped[str | None] = mapped_column(String(8), nullable=True)
    forfeit: Mapped[bool] = mapped_column(Boolean, default=False)
    white_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    black_token: Mapped[str | None] = mapped_column(String(64), nullable=True)


__all__ = ["TournamentGameRow", "TournamentRow"]
