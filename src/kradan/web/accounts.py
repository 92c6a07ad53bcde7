"""Accounts of ``kradan serve``: sign-up, sign-in, sessions and ratings (issue 46).

Passwords are hashed with Argon2id (argon2-cffi's defaults, RFC 9106's low-memory choice), off
the event loop. A session is 256 random bits in an HttpOnly cookie; the server keeps only their
SHA-256, so a stolen database opens no session. Failed sign-ins are throttled per account and per
client address (:class:`Throttle`). Ratings are Glicko-2 (:mod:`kradan.ratings`) per game
family, moved when a rated game ends, both players in one transaction.
"""

from __future__ import annotations

import asyncio
import re
import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Request
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker
from starlette.requests import HTTPConnection

from ..ratings import START_VOLATILITY, Rating, aged, rate_game
from .access_log import note_account
from .account_tables import AccountRow, RatingRow, SessionRow
from .i18n import N_
from .model import GameError, new_token, token_hash
from .tables import GameRow, utcnow

#: a username: 3 to 24 letters, digits, ``_`` or ``-``, starting with a letter or digit (any
#: script: Thai, Khmer and Burmese names included)
USERNAME = re.compile(r"^[^\W_][\w-]{2,23}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 256
#: how long a session lasts without signing in again
SESSION_DAYS = 30
SESSION_COOKIE = "kradan_session"
#: the game families rated apart, and the games in each
FAMILIES = {
    "makruk": "makruk",
    "cambodian": "ouk",
    "karouk": "karouk",
    "sittuyin": "sittuyin",
    "alquerque": "alquerque",
    "alquerque-bell": "alquerque",
}
#: how sure an engine level's rating is: its ladder's margins are 50 to 180 Elo
ENGINE_DEVIATION = 60.0
#: a rating period, for a deviation that grows while its player is away (lichess: about 4.7
#: days, "RD 60 to 110 in a year")
PERIOD_DAYS = 4.665

_hasher = PasswordHasher()


def family_of(variant: str) -> str | None:
    """The rating family of ``variant`` (``None``: a game rated in no family)."""
    return FAMILIES.get(variant)


def username_key(username: str) -> str:
    """The form two usernames are compared in: NFKC, case-folded."""
    return unicodedata.normalize("NFKC", username).casefold()


def check_username(username: str) -> str:
    """``username`` in NFKC, or a 400 that says what a username may be."""
    name = unicodedata.normalize("NFKC", username)
    if not USERNAME.match(name):
        raise GameError(
            400,
            N_("bad username {name}: 3 to 24 letters, digits, _ or -, starting with a letter "
               "or digit"),
            name=repr(username[:40]),
        )  # fmt: skip
    return name


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise GameError(400, N_("a password needs 8 to 256 characters"))


class Throttle:
    """Failed sign-ins, per key (an account, a client address): after :attr:`free` failures
    within :attr:`window` seconds, each further try must wait, twice as long each time (from 1 s
    up to :attr:`longest`)."""

    def __init__(self, free: int = 5, window: float = 900.0, longest: float = 300.0) -> None:
        self.free, self.window, self.longest = free, window, longest
        self.failures: dict[str, list[float]] = {}

    def wait(self, key: str, now: float | None = None) -> float:
        """Seconds ``key`` must still wait before its next try (0: it may try)."""
        now = time.monotonic() if now is None else now
        recent = [t for t in self.failures.get(key, []) if now - t < self.window]
        if recent:
            self.failures[key] = recent
        else:
            self.failures.pop(key, None)
        if len(recent) < self.free:
            return 0.0
        delay = min(self.longest, 2.0 ** (len(recent) - self.free))
        return max(0.0, recent[-1] + delay - now)

    def failed(self, key: str, now: float | None = None) -> None:
        self.failures.setdefault(key, []).append(time.monotonic() if now is None else now)
        if len(self.failures) > 100_000:  # a flood of keys: forget the oldest half
            for stale in list(self.failures)[: len(self.failures) // 2]:
                del self.failures[stale]

    def succeeded(self, key: str) -> None:
        self.failures.pop(key, None)


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    admin: bool
    #: an account that an engine plays through the bot API (:mod:`.bot_api`)
    bot: bool = False


def account_of_row(row: AccountRow) -> Account:
    return Account(row.id, row.username, row.admin, row.bot)


@dataclass(frozen=True)
class RatingChange:
    before: Rating
    after: Rating

    def as_json(self) -> dict[str, Any]:
        return {
            "before": round(self.before.rating, 1),
            "after": round(self.after.rating, 1),
            "change": round(self.after.rating - self.before.rating, 1),
            "deviation": round(self.after.deviation, 1),
        }


class Accounts:
    """The accounts, sessions and ratings of one server."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)
        self.throttle = Throttle()

    # --- accounts and sessions -----------------------------------------------------------------

    async def sign_up(self, username: str, password: str, *, admin: bool = False) -> Account:
        """A new account; 409 when the name is taken (in any case)."""
        name = check_username(username)
        check_password(password)
        digest = await asyncio.to_thread(_hasher.hash, password)
        row = AccountRow(username=name, key=username_key(name), password_hash=digest,
                         admin=admin, bot=False, created_at=utcnow())  # fmt: skip
        try:
            async with self.sessions.begin() as session:
                session.add(row)
        except IntegrityError:
            raise GameError(409, N_("the username {name} is taken"), name=repr(name)) from None
        return account_of_row(row)

    async def sign_in(self, username: str, password: str, client: str) -> tuple[Account, str]:
        """The account and a new session token, for the right password; 401 otherwise (the
        same answer for an unknown name), 429 while the throttle says wait."""
        key = username_key(username)[:64]
        for throttled in (f"account:{key}", f"client:{client}"):
            wait = self.throttle.wait(throttled)
            if wait > 0:
                raise GameError(429, N_("too many failed sign-ins: wait {seconds} s"),
                                seconds=str(int(wait) + 1))  # fmt: skip
        async with self.sessions() as session:
            row = await session.scalar(select(AccountRow).where(AccountRow.key == key))
        good = row is not None and await asyncio.to_thread(_verify, row.password_hash, password)
        if row is None or not good:
            self.throttle.failed(f"account:{key}")
            self.throttle.failed(f"client:{client}")
            raise GameError(401, N_("wrong username or password"))
        self.throttle.succeeded(f"account:{key}")
        if row.disabled:  # said only to whoever knows the password
            raise GameError(403, N_("the account {name} is disabled"), name=repr(row.username))
        if _hasher.check_needs_rehash(row.password_hash):
            fresh = await asyncio.to_thread(_hasher.hash, password)
            async with self.sessions.begin() as session:
                await session.execute(update(AccountRow).where(AccountRow.id == row.id)
                                      .values(password_hash=fresh))  # fmt: skip
        return account_of_row(row), await self.open_session(row.id)

    async def open_session(self, account_id: int) -> str:
        token = new_token()
        now = utcnow()
        async with self.sessions.begin() as session:
            session.add(SessionRow(token_hash=token_hash(token), account_id=account_id,
                                   created_at=now,
                                   expires_at=now + timedelta(days=SESSION_DAYS)))  # fmt: skip
        return token

    async def close_session(self, token: str) -> None:
        async with self.sessions.begin() as session:
            await session.execute(
                delete(SessionRow).where(SessionRow.token_hash == token_hash(token))
            )

    async def of_session(self, token: str | None) -> Account | None:
        """The account a session token opens (``None``: no token, unknown or expired)."""
        if not token or len(token) > 100:
            return None
        async with self.sessions() as session:
            found = (
                await session.execute(
                    select(AccountRow, SessionRow.expires_at)
                    .join(SessionRow, SessionRow.account_id == AccountRow.id)
                    .where(SessionRow.token_hash == token_hash(token))
                    .where(AccountRow.disabled.is_(False))
                )
            ).first()
        if found is None or found[1] < utcnow():
            return None
        row = found[0]
        return account_of_row(row)

    async def named(self, username: str) -> Account | None:
        async with self.sessions() as session:
            row = await session.scalar(
                select(AccountRow).where(AccountRow.key == username_key(username)[:64])
            )
        return None if row is None else account_of_row(row)

    async def make_bot(self, account: Account) -> Account:
        """Mark ``account`` as a bot's, for good (lichess's rule: only an account that has
        played no game, so that no person's rated games are an engine's); 409 otherwise."""
        async with self.sessions.begin() as session:
            played = await session.scalar(
                select(func.count()).select_from(GameRow).where(
                    or_(GameRow.white_account_id == account.id,
                        GameRow.black_account_id == account.id)
                )
            )  # fmt: skip
            if played:
                raise GameError(
                    409, N_("{name} has played games: only a new account becomes a bot"),
                    name=repr(account.username),
                )  # fmt: skip
            await session.execute(update(AccountRow).where(AccountRow.id == account.id)
                                  .values(bot=True))  # fmt: skip
        return Account(account.id, account.username, account.admin, True)

    async def set_admin(self, username: str, admin: bool) -> Account:
        """Give ``username`` the admin role (or take it away); 404 for no such account."""
        async with self.sessions.begin() as session:
            row = await session.scalar(
                select(AccountRow).where(AccountRow.key == username_key(username)[:64])
            )
            if row is None:
                raise GameError(404, N_("no account is named {name}"), name=repr(username[:64]))
            row.admin = admin
        return account_of_row(row)

    # --- ratings -------------------------------------------------------------------------------

    async def ratings_of(self, account_id: int) -> dict[str, dict[str, Any]]:
        """``{family: {rating, deviation, volatility, games, provisional}}``, the deviations
        grown for the time since each was last moved."""
        async with self.sessions() as session:
            rows = (await session.scalars(
                select(RatingRow).where(RatingRow.account_id == account_id))).all()  # fmt: skip
        return {row.family: _rating_json(row) for row in rows}

    async def rating(self, account_id: int, family: str) -> Rating:
        async with self.sessions() as session:
            row = await session.get(RatingRow, (account_id, family))
        return Rating() if row is None else _live(row)

    async def leaderboard(self, family: str, limit: int = 50) -> list[dict[str, Any]]:
        """The family's rated accounts, best first (provisional ratings left out, as lichess
        ranks only settled ones)."""
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(AccountRow.username, RatingRow)
                    .join(RatingRow, RatingRow.account_id == AccountRow.id)
                    .where(RatingRow.family == family)
                    .order_by(RatingRow.rating.desc(), AccountRow.id)
                    .limit(limit * 4)
                )
            ).all()
        board = []
        for username, row in rows:
            shown = _rating_json(row)
            if not shown["provisional"]:
                board.append({"username": username, **shown})
        return board[:limit]

    async def rate(self, game_id: int, variant: str, result: str) -> dict[str, Any] | None:
        """Move both players' ratings for rated game ``game_id``, which ended with ``result``
        (``1-0``, ``0-1``, ``1/2-1/2``), and write the change on the game; all in one
        transaction. ``None`` when there is nothing to rate (no result, a game already rated)."""
        family = family_of(variant)
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
        if family is None or score is None:
            return None
        async with self.sessions.begin() as session:
            game = await session.get(GameRow, game_id, with_for_update=True)
            if game is None or not game.rated or game.rating_changes is not None:
                return None
            accounts = {"white": game.white_account_id, "black": game.black_account_id}
            engines = {side: _engine_rating(game.players.get(side)) for side in accounts}
            if any(accounts[side] is None and engines[side] is None for side in accounts):
                return None  # a guest's seat: nothing to rate
            rows: dict[str, RatingRow] = {}
            for side, account_id in accounts.items():
                if account_id is None:
                    continue
                row = await session.get(RatingRow, (account_id, family), with_for_update=True)
                if row is None:
                    start = Rating()
                    row = RatingRow(account_id=account_id, family=family, rating=start.rating,
                                    deviation=start.deviation, volatility=start.volatility,
                                    games=0, updated_at=utcnow())  # fmt: skip
                    session.add(row)
                rows[side] = row
            before = {side: _live(row) for side, row in rows.items()}
            for side, engine in engines.items():
                if engine is not None and side not in before:
                    before[side] = engine  # the engine's level: a fixed rating
            after_white, after_black = rate_game(before["white"], before["black"], score)
            now = utcnow()
            changes = {}
            for side, after in (("white", after_white), ("black", after_black)):
                row_of = rows.get(side)
                if row_of is None:  # the engine's rating does not move
                    changes[side] = RatingChange(before[side], before[side]).as_json()
                    continue
                row_of.rating, row_of.deviation, row_of.volatility = (
                    after.rating, after.deviation, after.volatility)  # fmt: skip
                row_of.games += 1
                row_of.updated_at = now
                changes[side] = RatingChange(before[side], after).as_json()
            game.rating_changes = changes
        return changes

    async def count(self) -> int:
        async with self.sessions() as session:
            return int(await session.scalar(select(func.count()).select_from(AccountRow)) or 0)


def accounts_of(request: HTTPConnection) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


async def signed_in(request: Request) -> Account | None:
    """The account the request's session cookie opens, or ``None`` (noted for the access
    log)."""
    token = request.cookies.get(SESSION_COOKIE)
    account = await accounts_of(request).of_session(token)
    if account is not None:
        note_account(request, account.username, token)
    return account


#: a guest's name when none is given, and the longest name
GUEST = "guest"
MAX_NAME = 24


def player_name(account: Account | None, asked: str | None) -> str:
    """The name a player plays under: the account's, else the guest's (printable, trimmed),
    else "guest"."""
    if account is not None:
        return account.username
    if asked is None:
        return GUEST
    name = " ".join(unicodedata.normalize("NFKC", asked).split())
    if not name or len(name) > MAX_NAME or not name.isprintable():
        raise GameError(400, N_("bad name {name}: 1 to 24 printable characters"),
                        name=repr(asked[:40]))  # fmt: skip
    return name


def _engine_rating(player: Any) -> Rating | None:
    """The fixed rating of an engine's seat (its level's place on the measured ladder,
    :func:`kradan.engine.levels.level_rating`); ``None`` for a person's."""
    if not isinstance(player, dict) or player.get("kind") != "engine":
        return None
    from ..engine.levels import MAX_LEVEL, level_rating

    level = min(MAX_LEVEL, max(1, int(player.get("level", 10))))
    return Rating(float(level_rating(level)), ENGINE_DEVIATION, START_VOLATILITY)


def _verify(digest: str, password: str) -> bool:
    try:
        return _hasher.verify(digest, password)
    except (VerificationError, InvalidHashError):
        return False


def _live(row: RatingRow, now: datetime | None = None) -> Rating:
    """The stored rating with its deviation grown for the periods since it last moved."""
    days = ((now or utcnow()) - row.updated_at).total_seconds() / 86400
    return aged(Rating(row.rating, row.deviation, row.volatility), days / PERIOD_DAYS)


def _rating_json(row: RatingRow) -> dict[str, Any]:
    live = _live(row)
    return {
        "rating": round(live.rating, 1),
        "deviation": round(live.deviation, 1),
        "volatility": round(live.volatility, 6),
        "games": row.games,
        "provisional": live.provisional,
    }


__all__ = [
    "FAMILIES",
    "SESSION_COOKIE",
    "Account",
    "Accounts",
    "Throttle",
    "accounts_of",
    "check_username",
    "family_of",
    "player_name",
    "signed_in",
    "username_key",
]
