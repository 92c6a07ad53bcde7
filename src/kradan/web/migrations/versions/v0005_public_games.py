"""A game's ``public`` flag: only public games are listed (``GET /api/games``, the PGN export,
other people's view of an account); a private one is read by whoever has its id.

The games already stored become public where nobody can have expected them to be private: the
games against the engine (a seat without a token) and the rated games (only the lobby makes
those between people). Every other game between people becomes private: it may have been an
invitation, which the player took for private although the old lists showed it, and its link
still opens it. (A guest's unrated lobby game cannot be told apart from an invitation; it
becomes private too, the safe side.)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # plain ALTER TABLE, which SQLite makes in place (no copy of the table)
    op.add_column(
        "games", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.create_index("ix_games_public_created", "games", ["public", "created_at", "id"])
    games = sa.table(
        "games",
        sa.column("public", sa.Boolean()),
        sa.column("rated", sa.Boolean()),
        sa.column("white_token", sa.String()),
        sa.column("black_token", sa.String()),
    )
    op.execute(
        games.update()
        .where(
            sa.or_(
                games.c.white_token.is_(None),
                games.c.black_token.is_(None),
                games.c.rated == sa.true(),
            )
        )
        .values(public=True)
    )


def downgrade() -> None:
    op.drop_index("ix_games_public_created", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("public")
