"""Personal API tokens (issue 47 item 3): what a program (a bot, a script) shows instead of a
browser's session, ``Authorization: Bearer <token>``. A token is 256 random bits, shown once
when it is made; the server keeps only its SHA-256. An account holds at most
:data:`MAX_TOKENS`."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from starlette.requests import HTTPConnection

from .access_log import note_account
from .account_tables import AccountRow, ApiTokenRow
from .accounts import Account, account_of_row
from .i18n import N_
from .model import GameError, new_token, token_hash
from .tables import utcnow

#: the tokens one account may hold at once
MAX_TOKENS = 10


class ApiTokens:
    """The API tokens of one server's accounts."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)

    async def make(self, account: Account) -> str:
        """A new token of ``account`` (409 when it holds :data:`MAX_TOKENS` already)."""
        token = new_token()
        async with self.sessions.begin() as session:
            held = await session.scalar(
                select(func.count()).select_from(ApiTokenRow)
                .where(ApiTokenRow.account_id == account.id)
            )  # fmt: skip
            if (held or 0) >= MAX_TOKENS:
                raise GameError(409, N_("an account holds at most {count} tokens: revoke one"),
                                count=MAX_TOKENS)  # fmt: skip
            session.add(ApiTokenRow(token_hash=token_hash(token), account_id=account.id,
                                    created_at=utcnow()))  # fmt: skip
        return token

    async def account_of(self, token: str | None) -> Account | None:
        """The account ``token`` belongs to (``None``: no such token, or a disabled account's)."""
        if not token or len(token) > 100:
            return None
        async with self.sessions() as session:
            row = await session.scalar(
                select(AccountRow)
                .join(ApiTokenRow, ApiTokenRow.account_id == AccountRow.id)
                .where(ApiTokenRow.token_hash == token_hash(token))
                .where(AccountRow.disabled.is_(False))
            )
        return None if row is None else account_of_row(row)

    async def revoke(self, token: str) -> None:
        async with self.sessions.begin() as session:
            await session.execute(
                delete(ApiTokenRow).where(ApiTokenRow.token_hash == token_hash(token))
            )


def bearer_of(connection: HTTPConnection) -> str | None:
    """The token of ``Authorization: Bearer <token>`` (``None`` without one)."""
    scheme, _, value = connection.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


async def token_account(connection: HTTPConnection) -> Account:
    """The account the request's API token proves; 401 without one, or for one of nobody."""
    tokens: ApiTokens = connection.app.state.api_tokens
    token = bearer_of(connection)
    account = await tokens.account_of(token)
    if account is None:
        raise GameError(401, N_("an API token is needed: Authorization: Bearer <token>"))
    note_account(connection, account.username, token)
    return account


__all__ = ["MAX_TOKENS", "ApiTokens", "bearer_of", "token_account"]
