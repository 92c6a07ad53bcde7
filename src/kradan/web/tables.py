"""The tables of ``kradan serve``: ``games`` (one row per game: its rules, start, seats, players,
clock settings, whether it is listed publicly and how it ended), ``moves`` (one row per ply, with
the clocks after the move), ``events`` (everything that is not a move: resignations, draw
offers, counts, takebacks, flags) and ``reviews`` (a finished game's review, :mod:`.review_api`),
as SQLAlchemy 2 ORM classes; and the small records the rooms and the store pass each other.

The schema is made and upgraded by the Alembic migrations in ``kradan/web/migrations``, which
compare against :data:`Base.metadata`; :mod:`.storage` reads and writes these tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from sqlalchemy import Boolean, DateTime, ForeignKey, Index, Integer, String, Table
from sqlalchemy.orm import Mapped, mapped_column

# the archive's, the accounts', the admin's and the chat's tables share the schema's metadata,
# so that Alembic compares one schema
from . import account_tables as _account_tables  # noqa: F401
from . import admin_tables as _admin_tables  # noqa: F401
from . import archive_tables as _archive_tables  # noqa: F401
from . import chat_tables as _chat_tables  # noqa: F401
from . import tournament_tables as _tournament_tables  # noqa: F401
from .schema import Base, JSONType


def utcnow() -> datetime:
    """The time now in UTC, without a zone (as every backend stores it)."""
    return datetime.now(UTC).replace(tzinfo=None)


class GameRow(Base):
    """One game: its rules, start, seats, players, clock settings and how it ended."""

    __tablename__ = "games"
    #: the public games in the order the lists and the PGN export walk them (:mod:`.listing`)
    __table_args__ = (Index("ix_games_public_created", "public", "created_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the id in URLs: 12 URL-safe characters
    public_id: Mapped[str] = mapped_column(String(12), unique=True, index=True)
    #: the game's canonical name in the registry (``makruk``, ``alquerque-bell``...)
    variant: Mapped[str] = mapped_column(String(40))
    #: the rule options that differ from the game's defaults, as JSON values
    options: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    start_fen: Mapped[str] = mapped_column(String(200))
    #: SHA-256 (hex) of each human seat's token; ``None`` for an engine's seat
    white_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    black_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: ``{"white": {"kind": "human"}, "black": {"kind": "engine", "level": 10}}``
    players: Mapped[dict[str, Any]] = mapped_column(JSONType)
    #: ``{"base_ms": 300000, "increment_ms": 2000}`` or ``None`` for no clock
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    #: ``playing`` or ``ended``
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[str] = mapped_column(String(8), default="*")
    termination: Mapped[str | None] = mapped_column(String(40), nullable=True)
    #: moves played so far (the length of the ``moves`` rows)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, index=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    #: a rated game between two accounts (the lobby's), whose end moves their ratings
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the accounts in the seats (``None``: a guest, or the engine)
    white_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    black_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: a rated game's ratings before and after it: ``{"white": {"before": 1500.0, "after":
    #: 1662.3}, "black": {...}}``, once it has ended
    rating_changes: Mapped[dict[str, Any] | None] = mapped_column(JSONType, nullable=True)
    #: listed publicly (``GET /api/games``, the PGN export, other people's view of an account);
    #: a private game is still read by whoever has its id
    public: Mapped[bool] = mapped_column(Boolean, default=False)


class MoveRow(Base):
    """One move: the key (game, ply) makes a re-sent move impossible to store twice."""

    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: 0 for the first move
    ply: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    uci: Mapped[str] = mapped_column(String(64))
    #: the clocks after the move (increment added); ``None`` without a clock
    white_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    black_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class EventRow(Base):
    """Everything that is not a move, in order: ``resign``, ``draw_offer``, ``draw_accept``,
    ``draw_decline``, ``draw_claim``, ``count_declare``, ``count_stop``, ``takeback``,
    ``flag``."""

    __tablename__ = "events"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(20))
    #: ``white`` or ``black``: who did it
    side: Mapped[str] = mapped_column(String(5))
    #: moves played when it happened
    ply: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class ReviewRow(Base):
    """A game's finished review (:mod:`kradan.runners.review`): what it was searched to and
    the review as the API sends it."""

    __tablename__ = "reviews"

    game_id: Mapped[int] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    #: ``depth 10``, ``nodes 200000``
    limit: Mapped[str] = mapped_column(String(40))
    #: :meth:`kradan.runners.review.Review.as_json`
    review: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime)


GAMES = cast(Table, GameRow.__table__)
MOVES = cast(Table, MoveRow.__table__)
EVENTS = cast(Table, EventRow.__table__)


@dataclass
class StoredGame:
    """A game as stored: its row, its moves in order and its events in order."""

    row: GameRow
    moves: list[MoveRow]
    events: list[EventRow]


@dataclass(frozen=True, slots=True)
class NewMove:
    """A move to store: the columns of :class:`MoveRow` without the ORM's bookkeeping, which
    costs more than the rest of a move's write."""

    game_id: int
    ply: int
    uci: str
    white_ms: int | None
    black_ms: int | None
    created_at: datetime


@dataclass(frozen=True)
class Ending:
    """How a game ended, written with the move or event that ended it."""

    result: str
    termination: str


__all__ = [
    "EVENTS",
    "GAMES",
    "MOVES",
    "Base",
    "Ending",
    "EventRow",
    "GameRow",
    "JSONType",
    "MoveRow",
    "NewMove",
    "ReviewRow",
    "StoredGame",
    "utcnow",
]
