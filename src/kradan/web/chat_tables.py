"""The table of a game's chat (issue 46): one row per message, in one of two rooms, the
players' or the spectators'. A message an admin removes keeps its row, marked removed, so the
record of what was said and who removed it stays."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .schema import Base


class ChatRow(Base):
    """One message: the game's public id, the room (``players`` or ``spectators``), who said it
    (a name, and the account when one was signed in) and its text."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    room: Mapped[str] = mapped_column(String(12))
    name: Mapped[str] = mapped_column(String(32))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    text: Mapped[str] = mapped_column(String(600))
    created_at: Mapped[datetime] = mapped_column(DateTime)
    removed: Mapped[bool] = mapped_column(Boolean, default=False)
    removed_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )


__all__ = ["ChatRow"]
