"""Accounts, sessions and ratings; a game's rated flag, its seats' accounts and its ratings'
changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("admin", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_accounts_key", "accounts", ["key"], unique=True)
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("family", sa.String(20), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("white_account_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("black_account_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rating_changes", JSONType, nullable=True))
        batch.create_foreign_key(
            "fk_games_white_account", "accounts", ["white_account_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_foreign_key(
            "fk_games_black_account", "accounts", ["black_account_id"], ["id"], ondelete="SET NULL"
        )
        batch.create_index("ix_games_white_account_id", ["white_account_id"])
        batch.create_index("ix_games_black_account_id", ["black_account_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_black_account_id")
        batch.drop_index("ix_games_white_account_id")
        batch.drop_constraint("fk_games_black_account", type_="foreignkey")
        batch.drop_constraint("fk_games_white_account", type_="foreignkey")
        batch.drop_column("rating_changes")
        batch.drop_column("black_account_id")
        batch.drop_column("white_account_id")
        batch.drop_column("rated")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("ix_accounts_key", "accounts")
    op.drop_table("accounts")
