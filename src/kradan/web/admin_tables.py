"""The admin's tables (issue 47 item 2): ``admin_actions``, the audit trail (who did what to
whom, when), and ``server_settings``, the settings an admin changes while the server runs (one
row per setting, its value as JSON). They share the schema's metadata (:mod:`.schema`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from .schema import Base, JSONType


class AdminActionRow(Base):
    """One admin action: when, by whom (the account, and its name as it was then: the row
    outlives the account), what (``disable``, ``adjudicate``...), to what (a username, a game's
    id, a message's id, a setting) and the details (a result, a setting's new value)."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime, index=True)
    admin_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    admin_name: Mapped[str] = mapped_column(String(32))
    action: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(64))
    detail: Mapped[dict[str, Any]] = mapped_column(JSONType, default=dict)


class ServerSettingRow(Base):
    """A setting changed at run time (``sign_up_open``, ``notice``): it replaces the
    command line's default until changed again."""

    __tablename__ = "server_settings"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[Any] = mapped_column(JSONType)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


__all__ = ["AdminActionRow", "ServerSettingRow"]
