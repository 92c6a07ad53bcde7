"""Tournaments: their settings and state, and each round's pairings linked to their games.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("public_id", sa.String(12), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("variant", sa.String(40), nullable=False),
        sa.Column("system", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("double", sa.Boolean(), nullable=False),
        sa.Column("clock", sa.String(20), nullable=False),
        sa.Column("players", JSONType, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "organiser_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_tournaments_public_id", "tournaments", ["public_id"], unique=True)
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white", sa.String(32), nullable=False),
        sa.Column("black", sa.String(32), nullable=True),
        sa.Column("bye", sa.String(12), nullable=True),
        sa.Column("game", sa.String(12), nullable=True),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("forfeit", sa.Boolean(), nullable=False),
        sa.Column("white_token", sa.String(64), nullable=True),
        sa.Column("black_token", sa.String(64), nullable=True),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])
    op.create_index("ix_tournament_games_game", "tournament_games", ["game"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_game", table_name="tournament_games")
    op.drop_index("ix_tournament_games_tournament_id", table_name="tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_index("ix_tournaments_public_id", table_name="tournaments")
    op.drop_table("tournaments")
