"""The tournaments' rows in the database (:mod:`.tournament_tables`): made, read and changed
here and nowhere else, each call one short transaction, so that a server restarted mid-tournament
finds everything the director needs (:mod:`.tournament_director`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker

from .account_tables import AccountRow
from .tables import GameRow
from .tournament_tables import TournamentGameRow, TournamentRow

#: the most tournaments a list gives
LIST_LIMIT = 100


@dataclass(frozen=True)
class Ended:
    """A linked game's end as the games table has it."""

    game: str
    result: str
    termination: str | None
    ply: int


class TournamentStore:
    """The tournaments and their pairings."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.sessions = async_sessionmaker(engine, expire_on_commit=False)

    async def create(self, row: TournamentRow) -> TournamentRow:
        async with self.sessions.begin() as session:
            session.add(row)
        return row

    async def get(self, public_id: str) -> TournamentRow | None:
        async with self.sessions() as session:
            return await session.scalar(
                select(TournamentRow).where(TournamentRow.public_id == public_id[:12])
            )

    async def get_by_id(self, tournament_id: int) -> TournamentRow | None:
        async with self.sessions() as session:
            return await session.get(TournamentRow, tournament_id)

    async def username_of(self, account_id: int) -> str | None:
        async with self.sessions() as session:
            row = await session.get(AccountRow, account_id)
            return None if row is None else row.username

    async def listed(self, limit: int = LIST_LIMIT) -> list[TournamentRow]:
        """The newest tournaments first."""
        async with self.sessions() as session:
            found = await session.scalars(
                select(TournamentRow).order_by(TournamentRow.id.desc()).limit(limit)
            )
            return list(found)

    async def playing(self) -> list[TournamentRow]:
        async with self.sessions() as session:
            found = await session.scalars(
                select(TournamentRow).where(TournamentRow.status == "playing")
            )
            return list(found)

    async def set(self, tournament_id: int, **values: Any) -> None:
        """Change a tournament's columns (its status, its times)."""
        async with self.sessions.begin() as session:
            await session.execute(
                update(TournamentRow).where(TournamentRow.id == tournament_id).values(**values)
            )

    async def games(self, tournament_id: int) -> list[TournamentGameRow]:
        """Every pairing, round by round, board by board."""
        async with self.sessions() as session:
            found = await session.scalars(
                select(TournamentGameRow)
                .where(TournamentGameRow.tournament_id == tournament_id)
                .order_by(TournamentGameRow.round, TournamentGameRow.board)
            )
            return list(found)

    async def add_games(self, rows: Sequence[TournamentGameRow]) -> None:
        async with self.sessions.begin() as session:
            session.add_all(rows)

    async def of_game(self, game: str) -> TournamentGameRow | None:
        """The pairing that game ``game`` (a public id) plays."""
        async with self.sessions() as session:
            return await session.scalar(
                select(TournamentGameRow).where(TournamentGameRow.game == game[:12])
            )

    async def set_result(self, row_id: int, result: str, forfeit: bool) -> None:
        async with self.sessions.begin() as session:
            await session.execute(
                update(TournamentGameRow)
                .where(TournamentGameRow.id == row_id, TournamentGameRow.result.is_(None))
                .values(result=result, forfeit=forfeit)
            )

    async def ended(self, games: Sequence[str]) -> list[Ended]:
        """Which of ``games`` (public ids) have ended, as the games table says."""
        if not games:
            return []
        async with self.sessions() as session:
            found = await session.execute(
                select(GameRow.public_id, GameRow.result, GameRow.termination, GameRow.ply).where(
                    GameRow.public_id.in_(list(games)), GameRow.status == "ended"
                )
            )
            return [Ended(*row) for row in found]


__all__ = ["Ended", "TournamentStore"]
