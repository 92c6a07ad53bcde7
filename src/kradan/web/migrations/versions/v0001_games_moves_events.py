"""The first schema: games, moves and events.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("public_id", sa.String(12), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("options", JSONType, nullable=False),
        sa.Column("start_fen", sa.String(200), nullable=False),
        sa.Column("white_token", sa.String(64), nullable=True),
        sa.Column("black_token", sa.String(64), nullable=True),
        sa.Column("players", JSONType, nullable=False),
        sa.Column("clock", JSONType, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.String(8), nullable=False),
        sa.Column("termination", sa.String(40), nullable=True),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_games_public_id", "games", ["public_id"], unique=True)
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_created_at", "games", ["created_at"])
    op.create_table(
        "moves",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("ply", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("uci", sa.String(64), nullable=False),
        sa.Column("white_ms", sa.Integer(), nullable=True),
        sa.Column("black_ms", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column(
            "game_id",
            sa.Integer(),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("side", sa.String(5), nullable=False),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("payload", JSONType, nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("moves")
    op.drop_index("ix_games_created_at", "games")
    op.drop_index("ix_games_status", "games")
    op.drop_index("ix_games_public_id", "games")
    op.drop_table("games")
