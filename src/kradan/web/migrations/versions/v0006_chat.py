"""A game's chat: the players' room and the spectators'.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("room", sa.String(12), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("text", sa.String(600), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("removed", sa.Boolean(), nullable=False),
        sa.Column(
            "removed_by",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
    )
    op.create_index("ix_chat_messages_game", "chat_messages", ["game"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_game", table_name="chat_messages")
    op.drop_table("chat_messages")
