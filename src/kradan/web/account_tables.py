"""The tables of accounts (issue 46): ``accounts`` (a username, its Argon2 password hash, an
admin flag), ``sessions`` (a signed-in browser: the SHA-256 of its cookie) and ``ratings`` (an
account's Glicko-2 rating in one game family, :mod:`kradan.ratings`). They share the schema's
metadata (:mod:`.schema`), so that Alembic compares one schema."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .schema import Base


class AccountRow(Base):
    """An account: ``username`` as typed at sign-up, ``key`` its case-folded form (unique)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    #: Argon2id, in its PHC string form (parameters and salt included)
    password_hash: Mapped[str] = mapped_column(String(200))
    admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    #: an account an engine plays through the bot API
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    #: an account an admin disabled: it cannot sign in, and its sessions and tokens open nothing
    disabled: Mapped[bool] = mapped_column(Boolean, default=False)


class SessionRow(Base):
    """A signed-in browser or client: the SHA-256 (hex) of its session cookie's value."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime)
    expires_at: Mapped[datetime] = mapped_column(DateTime)


class ApiTokenRow(Base):
    """A personal API token of an account (a bot's, say): the SHA-256 (hex) of the token, which
    is shown once, when it is made."""

    __tablename__ = "api_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[datetime] = mapped_column(DateTime)


class RatingRow(Base):
    """An account's rating in one game family (``makruk``, ``ouk``, ``karouk``, ``sittuyin``,
    ``alquerque``): Glicko-2's three numbers, the rated games played and when it last moved."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    family: Mapped[str] = mapped_column(String(20), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


__all__ = ["AccountRow", "ApiTokenRow", "RatingRow", "SessionRow"]
