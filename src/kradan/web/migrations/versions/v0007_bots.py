"""Bots: an account's bot flag, and personal API tokens.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # a plain ALTER TABLE: SQLite adds the column in place (no copy of the table)
    op.add_column(
        "accounts", sa.Column("bot", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_table(
        "api_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_api_tokens_account_id", "api_tokens", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_account_id", table_name="api_tokens")
    op.drop_table("api_tokens")
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("bot")
