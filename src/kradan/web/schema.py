"""What every table of ``kradan serve`` shares: the declarative base whose metadata is the one
schema Alembic migrates (the live games' tables in :mod:`.tables`, the archive's in
:mod:`.archive_tables`), and the JSON column type (JSONB on PostgreSQL)."""

from __future__ import annotations

from sqlalchemy import JSON
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase

#: JSON columns: JSONB on PostgreSQL
JSONType = JSON().with_variant(JSONB(), "postgresql")


class Base(DeclarativeBase):
    pass


__all__ = ["Base", "JSONType"]
