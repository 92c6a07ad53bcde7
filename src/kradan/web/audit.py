"""The audit trail of admin actions (issue 47 item 2): who did what to whom, when. Every
admin route and ``kradan admin disable-user``/``enable-user`` write one row
(:class:`~kradan.web.admin_tables.AdminActionRow`) once the action is done."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from .admin_tables import AdminActionRow
from .tables import utcnow

#: the name of the actor of the command line's actions (no account)
COMMAND_LINE = "(command line)"


def action_json(row: AdminActionRow) -> dict[str, Any]:
    return {
        "id": row.id,
        "at": row.at.isoformat(timespec="seconds") + "Z",
        "admin": row.admin_name,
        "action": row.action,
        "target": row.target,
        "detail": row.detail,
    }


class Audit:
    """The admin actions of one server's database."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)

    async def record(
        self,
        admin_id: int | None,
        admin_name: str,
        action: str,
        target: str,
        detail: dict[str, Any] | None = None,
    ) -> None:
        """Write that ``admin_name`` (account ``admin_id``) did ``action`` to ``target``."""
        row = AdminActionRow(at=utcnow(), admin_id=admin_id, admin_name=admin_name[:32],
                             action=action[:32], target=target[:64],
                             detail=detail or {})  # fmt: skip
        async with self.sessions.begin() as session:
            session.add(row)

    async def newest(self, limit: int = 100) -> list[dict[str, Any]]:
        """The newest ``limit`` actions, newest first."""
        query = select(AdminActionRow).order_by(AdminActionRow.id.desc()).limit(limit)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [action_json(row) for row in rows]


__all__ = ["COMMAND_LINE", "Audit", "action_json"]
