"""The archive: archive_players, archive_games and the explorer's position index,
archive_positions (WITHOUT ROWID on SQLite; a primary key that INCLUDEs the explorer's columns on
PostgreSQL).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "archive_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
    )
    op.create_table(
        "archive_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_hash", sa.String(32), nullable=False, unique=True),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("start_fen", sa.String(200), nullable=False),
        sa.Column("white_id", sa.Integer(), sa.ForeignKey("archive_players.id"), nullable=True),
        sa.Column("black_id", sa.Integer(), sa.ForeignKey("archive_players.id"), nullable=True),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("date_key", sa.Integer(), nullable=False),
        sa.Column("ply_count", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Text(), nullable=False),
        sa.Column("counts", JSONType, nullable=True),
        sa.Column("headers", JSONType, nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_archive_games_date", "archive_games", ["date_key", "id"])
    op.create_index("ix_archive_games_variant", "archive_games", ["variant", "date_key", "id"])
    op.create_index("ix_archive_games_white", "archive_games", ["white_id", "date_key", "id"])
    op.create_index("ix_archive_games_black", "archive_games", ["black_id", "date_key", "id"])
    op.create_table(
        "archive_positions",
        sa.Column("pos_key", sa.BigInteger(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("ply", sa.SmallInteger(), nullable=False),
        sa.Column("next_move", sa.String(64), nullable=True),
        sa.Column("result", sa.SmallInteger(), nullable=True),
        sa.PrimaryKeyConstraint(
            "pos_key", "game_id", postgresql_include=["ply", "next_move", "result"]
        ),
        sqlite_with_rowid=False,
    )


def downgrade() -> None:
    op.drop_table("archive_positions")
    for name in ("black", "white", "variant", "date"):
        op.drop_index(f"ix_archive_games_{name}", "archive_games")
    op.drop_table("archive_games")
    op.drop_table("archive_players")
