"""What an admin does to accounts (issue 47 item 2): list and search them, disable and enable
one, reset its password, give or take away the admin role.

- A disabled account cannot sign in; its sessions are closed at once (deleted), and its API
  tokens open nothing while it stays disabled (:meth:`ApiTokens.account_of` asks); its open
  seeks are taken off the lobby by the route. Its games stay. Enabled again, its tokens work
  again; its sessions do not come back (it signs in again).
- A password reset makes a new random password, shown once to the admin, who hands it to the
  member: kradan sends no mail, so a reset link would have to be handed over the same way,
  and a link would also need a table of pending resets and a page to use them. The account's
  sessions are closed.
- The last admin who can sign in is never disabled or demoted (409), so that a server always
  keeps one; an admin does not disable itself.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from .account_tables import AccountRow, SessionRow
from .accounts import Account, account_of_row, username_key
from .i18n import N_
from .model import GameError

_hasher = PasswordHasher()


def user_json(row: AccountRow) -> dict[str, Any]:
    return {
        "username": row.username,
        "admin": row.admin,
        "bot": row.bot,
        "disabled": row.disabled,
        "created": row.created_at.isoformat(timespec="seconds") + "Z",
    }


def _like(text: str) -> str:
    """``text`` as a LIKE pattern that matches it anywhere (its wildcards escaped)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


class UserAdmin:
    """The accounts of one server, as an admin changes them."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)

    async def search(self, text: str = "", limit: int = 100) -> list[dict[str, Any]]:
        """The accounts whose name holds ``text`` (any case), in name order."""
        query = select(AccountRow).order_by(AccountRow.key).limit(limit)
        if text:
            query = query.where(AccountRow.key.like(_like(username_key(text)), escape="\\"))
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [user_json(row) for row in rows]

    async def _row(self, session: AsyncSession, username: str) -> AccountRow:
        row = await session.scalar(
            select(AccountRow).where(AccountRow.key == username_key(username)[:64])
        )
        if row is None:
            raise GameError(404, N_("no account is named {name}"), name=repr(username[:64]))
        return row

    async def _keep_an_admin(self, session: AsyncSession, row: AccountRow) -> None:
        """409 when ``row`` is the last admin who can sign in."""
        if not row.admin or row.disabled:
            return
        others = await session.scalar(
            select(func.count()).select_from(AccountRow).where(
                AccountRow.admin.is_(True), AccountRow.disabled.is_(False),
                AccountRow.id != row.id,
            )
        )  # fmt: skip
        if not others:
            raise GameError(409, N_("{name} is the last admin: make another admin first"),
                            name=repr(row.username))  # fmt: skip

    async def set_disabled(self, username: str, disabled: bool, by: Account | None) -> Account:
        """Disable (closing its sessions) or enable ``username``; 404 for no such account,
        409 for oneself or the last admin."""
        async with self.sessions.begin() as session:
            row = await self._row(session, username)
            if disabled:
                if by is not None and row.id == by.id:
                    raise GameError(409, N_("an admin does not disable itself"))
                await self._keep_an_admin(session, row)
                await session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
            row.disabled = disabled
        return account_of_row(row)

    async def set_admin(self, username: str, admin: bool) -> Account:
        """Give ``username`` the admin role or take it away; 409 for the last admin."""
        async with self.sessions.begin() as session:
            row = await self._row(session, username)
            if not admin:
                await self._keep_an_admin(session, row)
            row.admin = admin
        return account_of_row(row)

    async def reset_password(self, username: str) -> tuple[Account, str]:
        """A new random password for ``username`` (its sessions closed): the account and the
        password, which is shown once and never stored."""
        password = secrets.token_urlsafe(12)
        digest = await asyncio.to_thread(_hasher.hash, password)
        async with self.sessions.begin() as session:
            row = await self._row(session, username)
            row.password_hash = digest
            await session.execute(delete(SessionRow).where(SessionRow.account_id == row.id))
        return account_of_row(row), password


__all__ = ["UserAdmin", "user_json"]
