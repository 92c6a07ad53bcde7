"""The tournament director of ``kradan serve`` (issue 47): it checks and stores a new tournament,
starts it, pairs each round (:mod:`kradan.tournaments`), makes the round's games between the
accounts (rated and public, as the lobby's), records each result when its game ends
(:meth:`~kradan.web.hall.Hall.finished` calls :meth:`Director.game_ended`), pairs the next round
once a round is complete, and finishes the tournament after the last. An arena instead pairs the
players who are free, again and again, until its end time.

Everything it knows is in the database (:mod:`.tournament_store`): a server restarted
mid-tournament reads the results of the games that ended while it was down (:meth:`resume`) and
goes on. A game aborted before both sides moved counts as a forfeit of the side that did not
move; a Swiss is paired with the colour fallback and, when no pairing without a rematch exists,
with the fewest rematches, so a tournament always finishes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from ..errors import KradanError
from ..games import find_game
from ..tournaments import (
    Game,
    Round,
    pair_arena,
    pair_round,
    round_robin,
)
from .accounts import Account, Accounts, family_of, username_key
from .hall import Hall
from .i18n import N_
from .model import GameError, NewGame, Player, new_public_id, parse_clock
from .owners import one_at_a_time
from .room import RoomBase
from .room.abandon import ABORTED
from .tables import utcnow
from .tournament_store import TournamentStore
from .tournament_tables import TournamentGameRow, TournamentRow
from .tournament_view import arena_games, rounds_of

log = logging.getLogger("kradan.web")

SYSTEMS = ("round-robin", "swiss", "arena")
#: the smallest and largest fields
MIN_PLAYERS, MAX_PLAYERS = 2, 64
#: a Swiss's most rounds; an arena's longest run, in minutes
MAX_ROUNDS, MAX_MINUTES = 30, 24 * 60
#: seconds between an arena's looks for free players
ARENA_SECONDS = 1.0


@dataclass(frozen=True)
class TournamentSpec:
    """What ``POST /api/tournaments`` asks for (already checked for types)."""

    variant: str
    system: str
    rounds: int
    clock: str
    players: tuple[str, ...]
    double: bool = False
    name: str = ""


class Director:
    """Runs the tournaments of one server."""

    def __init__(self, hall: Hall, store: TournamentStore, accounts: Accounts) -> None:
        self.hall = hall
        self.store = store
        self.accounts = accounts
        #: one change at a time in this process: a result, a pairing, a start
        self.lock = asyncio.Lock()
        self.arenas: set[str] = set()

    @asynccontextmanager
    async def changing(self) -> AsyncIterator[None]:
        """One change to the tournaments at a time: in this process, and among the processes
        on one PostgreSQL database (the last two games of a round may end on two processes,
        which must not both pair the next; :func:`~kradan.web.owners.one_at_a_time`)."""
        async with self.lock, one_at_a_time(self.store.engine, "kradan:tournaments"):
            yield

    # --- making and starting --------------------------------------------------------------------

    async def create(self, organiser: Account, spec: TournamentSpec) -> TournamentRow:
        """A new tournament of ``spec``, not started.

        :raises GameError: 400 for a bad variant, system, clock or number of rounds, too few
            or too many players, one named twice; 404 for a player with no account.
        """
        try:
            game = find_game(spec.variant)
        except (KradanError, ValueError) as error:
            raise GameError(400, str(error)) from None
        if spec.system not in SYSTEMS:
            raise GameError(
                400,
                N_("unknown system {system}: one of {systems}"),
                system=repr(spec.system[:40]),
                systems=", ".join(SYSTEMS),
            )
        parse_clock(spec.clock)  # ClockError: 400, quoting it
        count = len(spec.players)
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise GameError(
                400,
                N_("a tournament has {low} to {high} players, not {count}"),
                low=str(MIN_PLAYERS),
                high=str(MAX_PLAYERS),
                count=str(count),
            )
        names: list[str] = []
        seen: set[str] = set()
        for asked in spec.players:
            key = username_key(asked)
            if key in seen:
                raise GameError(400, N_("{name} is named twice"), name=repr(asked[:40]))
            seen.add(key)
            account = await self.accounts.named(asked)
            if account is None:
                raise GameError(404, N_("no account {name}"), name=repr(asked[:40]))
            names.append(account.username)
        rounds = planned_rounds(spec, count)
        row = TournamentRow(
            public_id=new_public_id(),
            name=spec.name.strip()[:80],
            variant=game.name,
            system=spec.system,
            rounds=rounds,
            double=spec.double and spec.system == "round-robin",
            clock=spec.clock.strip(),
            players=await seeded(self.accounts, names, game.name),
            status="created",
            organiser_id=organiser.id,
            created_at=utcnow(),
        )
        return await self.store.create(row)

    async def get(self, public_id: str) -> TournamentRow:
        """:raises GameError: 404 for no such tournament."""
        row = await self.store.get(public_id)
        if row is None:
            raise GameError(404, N_("no tournament {id}"), id=repr(public_id[:20]))
        return row

    def _may_run(self, row: TournamentRow, who: Account) -> None:
        if who.admin or who.id == row.organiser_id:
            return
        raise GameError(
            403,
            N_("only the organiser of tournament {id} or an admin may do this"),
            id=repr(row.public_id),
        )

    async def start(self, public_id: str, who: Account) -> TournamentRow:
        """Start the tournament: its first round is paired and its games made.

        :raises GameError: 403 for someone else than the organiser or an admin, 409 for a
            tournament already started.
        """
        async with self.changing():
            row = await self.get(public_id)
            self._may_run(row, who)
            if row.status != "created":
                raise GameError(
                    409,
                    N_("tournament {id} is {status}, not waiting to start"),
                    id=repr(row.public_id),
                    status=row.status,
                )
            now = utcnow()
            values: dict[str, Any] = {"status": "playing", "started_at": now}
            if row.system == "arena":
                values["ends_at"] = now + timedelta(minutes=row.rounds)
            await self.store.set(row.id, **values)
            row = await self.get(public_id)
            await self._advance(row)
            return await self.get(public_id)

    async def cancel(self, public_id: str, who: Account) -> TournamentRow:
        """Cancel a tournament not yet finished: no more rounds are paired (the games under way
        are played out, unrecorded).

        :raises GameError: 403 as :meth:`start`; 409 for one that has ended.
        """
        async with self.changing():
            row = await self.get(public_id)
            self._may_run(row, who)
            if row.status not in ("created", "playing"):
                raise GameError(
                    409,
                    N_("tournament {id} is {status} already"),
                    id=repr(row.public_id),
                    status=row.status,
                )
            await self.store.set(row.id, status="cancelled", ended_at=utcnow())
            return await self.get(public_id)

    # --- results and rounds ---------------------------------------------------------------------

    def game_ended(self, room: RoomBase) -> None:
        """The hall's word that a game ended: its result is recorded if it is a tournament's
        (in the background)."""
        row = room.row
        result, forfeit = _result_of(row.result, row.termination, row.ply)
        self.hall.spawn_task("a tournament's result", self._record(room.public_id, result, forfeit))

    async def _record(self, game: str, result: str, forfeit: bool) -> None:
        pairing = await self.store.of_game(game)
        if pairing is None:
            return
        async with self.changing():
            await self.store.set_result(pairing.id, result, forfeit)
            tournament = await self.store.get_by_id(pairing.tournament_id)
            if tournament is not None and tournament.status == "playing":
                await self._advance(tournament)

    async def resume(self) -> None:
        """Go on with every tournament being played: record the results of the games that
        ended while the server was down, pair what is due, restart the arenas' pairing."""
        for row in await self.store.playing():
            try:
                async with self.changing():
                    await self._catch_up(row)
                    await self._advance(row)
            except Exception:  # one broken tournament must not stop the server
                log.exception("tournament %s could not be resumed", row.public_id)

    async def _catch_up(self, row: TournamentRow) -> None:
        games = await self.store.games(row.id)
        open_games = [g.game for g in games if g.game is not None and g.result is None]
        by_game = {g.game: g for g in games}
        for ended in await self.store.ended(open_games):
            result, forfeit = _result_of(ended.result, ended.termination, ended.ply)
            await self.store.set_result(by_game[ended.game].id, result, forfeit)

    async def _advance(self, row: TournamentRow) -> None:
        """Pair the next round if the last is complete (or finish); an arena's loop runs."""
        if row.system == "arena":
            if row.public_id not in self.arenas:
                self.arenas.add(row.public_id)
                self.hall.spawn_task(f"arena {row.public_id}", self._arena(row.public_id))
            return
        games = await self.store.games(row.id)
        played = max((g.round for g in games), default=0)
        if any(g.result is None for g in games):
            return
        if played >= row.rounds:
            await self.store.set(row.id, status="finished", ended_at=utcnow())
            return
        if row.system == "round-robin":
            next_round = round_robin(row.players, double=row.double)[played]
        else:
            rounds = rounds_of(row, games)
            pairing = pair_round(
                row.players,
                rounds,
                total_rounds=row.rounds,
                colour_fallback=True,
                allow_repeats=True,
            )
            next_round = pairing.as_round()
        await self._make_round(row, played + 1, next_round)

    async def _make_round(self, row: TournamentRow, number: int, round_: Round) -> None:
        """Store round ``number``'s pairings and make its games."""
        made: list[TournamentGameRow] = []
        for board, game in enumerate(round_.games, 1):
            made.append(await self._make_game(row, number, board, game))
        for board, bye in enumerate(round_.byes, len(round_.games) + 1):
            made.append(
                TournamentGameRow(
                    tournament_id=row.id,
                    round=number,
                    board=board,
                    white=bye.player,
                    bye=bye.kind,
                    result="1-0",
                )
            )
        await self.store.add_games(made)

    async def _make_game(
        self, row: TournamentRow, number: int, board: int, game: Game
    ) -> TournamentGameRow:
        white = await self.accounts.named(game.white)
        black = await self.accounts.named(game.black)
        created = await self.hall.create(
            NewGame(
                variant=row.variant,
                opponent="human",
                color="white",
                clock=row.clock,
                me=Player("human", name=game.white, account=game.white),
                them=Player("human", name=game.black, account=game.black),
                rated=white is not None and black is not None,
                public=True,
                my_account_id=None if white is None else white.id,
                their_account_id=None if black is None else black.id,
            )
        )
        return TournamentGameRow(
            tournament_id=row.id,
            round=number,
            board=board,
            white=game.white,
            black=game.black,
            game=created.room.public_id,
            forfeit=False,
            white_token=created.token,
            black_token=created.invite,
        )

    # --- the arena ------------------------------------------------------------------------------

    async def _arena(self, public_id: str) -> None:
        """Pair an arena's free players every :data:`ARENA_SECONDS` until its end; finish it
        once its last games have ended."""
        try:
            while not self.hall.closed:
                async with self.changing():
                    row = await self.store.get(public_id)
                    if row is None or row.status != "playing":
                        return
                    if not await self._arena_step(row):
                        return
                await asyncio.sleep(ARENA_SECONDS)
        finally:
            self.arenas.discard(public_id)

    async def _arena_step(self, row: TournamentRow) -> bool:
        """One look at the arena; ``False`` once it has finished."""
        games = await self.store.games(row.id)
        busy = {name for g in games if g.result is None for name in (g.white, g.black)}
        ends_at = row.ends_at or utcnow()
        if utcnow() >= ends_at:
            if not busy:
                await self.store.set(row.id, status="finished", ended_at=utcnow())
                return False
            return True
        waiting = [name for name in row.players if name not in busy]
        pairs = pair_arena(waiting, row.players, arena_games(games))
        if pairs:
            number = max((g.round for g in games), default=0) + 1
            await self._make_round(row, number, Round(tuple(pairs)))
        return True


def planned_rounds(spec: TournamentSpec, count: int) -> int:
    """The rounds to play: a round robin's come from its field; a Swiss's as asked (at most
    as many as a round robin has); an arena's minutes as asked."""
    if spec.system == "round-robin":
        return (count - 1 + count % 2) * (2 if spec.double else 1)
    if spec.system == "arena":
        if not 1 <= spec.rounds <= MAX_MINUTES:
            raise GameError(
                400,
                N_("an arena lasts 1 to {most} minutes, not {rounds}"),
                most=str(MAX_MINUTES),
                rounds=repr(spec.rounds),
            )
        return spec.rounds
    most = min(MAX_ROUNDS, count - 1 + count % 2)
    if not 1 <= spec.rounds <= most:
        raise GameError(
            400,
            N_("a Swiss of {count} players has 1 to {most} rounds, not {rounds}"),
            count=str(count),
            most=str(most),
            rounds=repr(spec.rounds),
        )
    return spec.rounds


async def seeded(accounts: Accounts, names: list[str], variant: str) -> list[str]:
    """The field in pairing-number order: the highest rating in the game's family first,
    then the order given."""
    family = family_of(variant)
    if family is None:
        return names
    ratings = {}
    for name in names:
        account = await accounts.named(name)
        assert account is not None
        ratings[name] = (await accounts.rating(account.id, family)).rating
    return sorted(names, key=lambda name: (-ratings[name], names.index(name)))


def _result_of(result: str, termination: str | None, ply: int) -> tuple[str, bool]:
    """A tournament's result of a game that ended: an aborted one is lost by the side that did
    not move (a forfeit)."""
    if termination == ABORTED or result not in ("1-0", "0-1", "1/2-1/2"):
        return ("0-1" if ply == 0 else "1-0"), True
    return result, False


__all__ = ["SYSTEMS", "Director", "TournamentSpec"]
