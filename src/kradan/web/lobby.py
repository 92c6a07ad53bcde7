"""The lobby (issue 46): seeks that wait for an opponent, challenges to a named account, and
quick pairing.

A seek is one person's offer: a game, its options and clock, rated or casual, a colour, and for a
rated seek the range of opponents' ratings it takes. Its owner holds a token (given when the seek
is made) and keeps the seek alive by asking after it (:meth:`Lobby.poll`); a seek nobody has asked
after for :data:`SEEK_SECONDS` is gone, so the lobby never shows a player who has left. When
someone accepts it, the game is made at once: the acceptor gets a seat in the answer, the owner
the other seat at its next poll. Quick pairing (:meth:`Lobby.pair`) takes the oldest open seek
that fits, or posts one.

The seeks live in this process's memory: they are minutes long and a restart loses nothing but
offers, which their owners post again. With several processes (docs/scaling.md), a seek lives
in the process it was posted on, its *home*; the others keep a copy of it from the bus
(:mod:`.bus`: posted, still asked after, taken, gone) to list it, and pass the requests that
ask after it, take it or withdraw it to its home (:mod:`.forward`), which alone changes it.
Quick pairing takes the seeks of its own process.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any

from .accounts import Account, family_of, username_key
from .bus import Bus, LocalBus
from .hall import Created, Hall
from .i18n import N_
from .model import GameError, NewGame, Player, clock_text, new_token, parse_clock, token_hash

#: seconds a seek stays without its owner asking after it
SEEK_SECONDS = 30.0
#: the most seeks open at once, and per owner
MAX_SEEKS, MAX_SEEKS_EACH = 2000, 5
#: how long an accepted seek keeps its game for the owner to pick up
KEEP_ACCEPTED_SECONDS = 600.0
#: with several processes: how often a seek's home tells the others it is still asked after
TELL_SEEN_SECONDS = SEEK_SECONDS / 3
#: the bus's topic of the lobby
TOPIC = "lobby"


@dataclass
class Seek:
    id: str
    token_hash: str
    owner: Account | None
    name: str
    variant: str
    options: dict[str, Any]
    clock: str | None
    rated: bool
    color: str
    rating: float | None = None
    rating_range: tuple[int, int] | None = None
    to: str | None = None
    made: float = field(default_factory=time.monotonic)
    seen: float = field(default_factory=time.monotonic)
    game: str | None = None
    seat_token: str | None = None
    seat_color: str | None = None
    #: who posted it, for the cap on each owner's seeks: an account, else a client address
    owner_key: str = ""
    #: with several processes: the internal URL of the process that holds it (``None``: this)
    home: str | None = None
    #: when its home last told the others that it is asked after (:func:`time.monotonic`)
    told: float = 0.0

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "account": None if self.owner is None else self.owner.username,
            "variant": self.variant,
            "options": self.options,
            "clock": self.clock,
            "rated": self.rated,
            "color": self.color,
            "rating": None if self.rating is None else round(self.rating),
            "rating_range": None if self.rating_range is None else list(self.rating_range),
            "to": self.to,
        }


@dataclass(frozen=True)
class SeekSpec:
    """What a seek asks for (already checked for types)."""

    variant: str = "makruk"
    options: dict[str, Any] = field(default_factory=dict)
    clock: str | None = None
    rated: bool = False
    color: str = "random"
    rating_range: tuple[int, int] | None = None
    to: str | None = None


class Lobby:
    """The open seeks of one server."""

    def __init__(self, hall: Hall, bus: Bus | None = None, address: str | None = None) -> None:
        self.hall = hall
        self.seeks: dict[str, Seek] = {}
        #: what the other processes are told (:mod:`.bus`); alone: nobody
        self.bus: Bus = bus or LocalBus()
        #: this process's internal URL, with several processes
        self.address = address

    async def listen(self) -> None:
        """Keep the copies of the other processes' seeks."""
        await self.bus.subscribe(TOPIC, self.heard)

    def _tell(self, message: dict[str, Any]) -> None:
        """Tell the other processes ``message`` (in the background)."""
        if not isinstance(self.bus, LocalBus):
            self.hall.spawn_task("telling the lobby", self.bus.publish(TOPIC, message))

    def heard(self, message: dict[str, Any]) -> None:
        """Another process's seek was posted, asked after, taken or is gone."""
        kind, seek_id = message.get("op"), str(message.get("id", ""))
        if kind == "post":
            self.seeks[seek_id] = seek_of(message)
            return
        seek = self.seeks.get(seek_id)
        if seek is None or seek.home is None:
            return
        if kind == "seen":
            seek.seen = time.monotonic()
        elif kind == "taken":
            seek.game = "…"  # no longer open: never listed again
        elif kind == "gone":
            del self.seeks[seek_id]

    def home_of(self, seek_id: str) -> str | None:
        """The internal URL of the process that holds seek ``seek_id`` (``None``: this one,
        or no such seek)."""
        seek = self.seeks.get(seek_id)
        return None if seek is None else seek.home

    def _local(self, seek_id: str) -> Seek | None:
        seek = self.seeks.get(seek_id)
        return seek if seek is not None and seek.home is None else None

    def _sweep(self) -> None:
        now = time.monotonic()
        for seek_id, seek in list(self.seeks.items()):
            limit = KEEP_ACCEPTED_SECONDS if seek.game else SEEK_SECONDS
            if now - seek.seen > limit:
                del self.seeks[seek_id]
                if seek.home is None and not seek.game:
                    self._tell({"op": "gone", "id": seek_id})

    async def post(
        self, spec: SeekSpec, owner: Account | None, name: str, client: str = ""
    ) -> tuple[Seek, str]:
        """A new seek and its owner's token.

        :raises GameError: 400 for a seek the server could not start a game of, 401 for a
            rated seek without an account, 429 when there are too many.
        """
        self._sweep()
        spec = _check(spec, owner)
        key = _owner_key(owner, client)
        mine = [s for s in self.seeks.values() if s.owner_key == key and not s.game]
        if len(self.seeks) >= MAX_SEEKS or len(mine) >= MAX_SEEKS_EACH:
            raise GameError(429, N_("too many seeks open: try again later"))
        accounts = self.hall.accounts
        if spec.to is not None and accounts is not None and await accounts.named(spec.to) is None:
            raise GameError(404, N_("no account is named {name}"), name=repr(spec.to[:64]))
        rating = None
        family = family_of(spec.variant)
        if owner is not None and family is not None and self.hall.accounts is not None:
            rating = (await self.hall.accounts.rating(owner.id, family)).rating
        token = new_token()
        seek = Seek(secrets.token_urlsafe(9), token_hash(token), owner, name, spec.variant,
                    dict(spec.options), spec.clock, spec.rated, spec.color, rating,
                    spec.rating_range,
                    None if spec.to is None else username_key(spec.to), owner_key=key)  # fmt: skip
        self.seeks[seek.id] = seek
        if not isinstance(self.bus, LocalBus):
            await self.bus.publish(TOPIC, seek_message(seek, self.address))
        return seek, token

    def open_seeks(self, viewer: Account | None) -> list[Seek]:
        """The seeks waiting for an opponent that ``viewer`` may see: every open one, and the
        challenges made to it or by it."""
        self._sweep()
        found = []
        for seek in self.seeks.values():
            if seek.game:
                continue
            if seek.to is not None and not _may_see(seek, viewer):
                continue
            found.append(seek)
        return sorted(found, key=lambda s: s.made)

    def owned(self, seek_id: str, token: str | None) -> Seek:
        """The seek ``token`` owns (its owner asks after it: it stays alive).

        :raises GameError: 404 for no such seek, 403 for a token not its owner's.
        """
        self._sweep()
        seek = self._local(seek_id)
        if seek is None:
            raise GameError(404, N_("no seek {seek} is open"), seek=repr(seek_id[:20]))
        if not token or not hmac.compare_digest(token_hash(token), seek.token_hash):
            raise GameError(403, N_("seek {seek} is not yours"), seek=repr(seek_id[:20]))
        seek.seen = time.monotonic()
        if seek.game is None and seek.seen - seek.told > TELL_SEEN_SECONDS:
            seek.told = seek.seen
            self._tell({"op": "seen", "id": seek.id})
        return seek

    def cancel(self, seek_id: str, token: str | None) -> None:
        seek = self.owned(seek_id, token)
        if seek.game is None:
            del self.seeks[seek.id]
            self._tell({"op": "gone", "id": seek.id})

    def drop_seeks_of(self, account_id: int) -> int:
        """Take the open seeks of account ``account_id`` off the lobby (a disabled account's);
        how many went."""
        gone = [k for k, s in self.seeks.items() if s.owner is not None
                and s.owner.id == account_id and s.game is None]  # fmt: skip
        for seek_id in gone:
            del self.seeks[seek_id]
        return len(gone)

    def decline(self, seek_id: str, addressee: Account) -> None:
        """Turn down challenge ``seek_id`` made to ``addressee``: the seek goes.

        :raises GameError: 404 for no open seek, 409 for a seek that is no challenge to it.
        """
        self._sweep()
        seek = self._local(seek_id)
        if seek is None or seek.game is not None:
            raise GameError(404, N_("no seek {seek} is open"), seek=repr(seek_id[:20]))
        if seek.to != username_key(addressee.username):
            raise GameError(409, N_("this challenge is for {name}"), name=repr(seek.to or ""))
        del self.seeks[seek_id]
        self._tell({"op": "gone", "id": seek_id})

    async def accept(self, seek_id: str, taker: Account | None, name: str) -> Created:
        """Take seek ``seek_id``: its game is made; the answer is the taker's seat.

        :raises GameError: 404 for no open seek, 401 for a rated seek without an account,
            409 for one's own seek, a challenge to another, or a rating out of range.
        """
        self._sweep()
        seek = self._local(seek_id)
        if seek is None or seek.game is not None:
            raise GameError(404, N_("no seek {seek} is open"), seek=repr(seek_id[:20]))
        await self._check_taker(seek, taker, name)
        return await self._start(seek, taker, name)

    async def pair(self, spec: SeekSpec, who: Account | None, name: str) -> Created | None:
        """Quick pairing: take the oldest open seek that ``spec`` fits and ``who`` may take
        (``None``: none fits; post a seek then)."""
        spec = _check(spec, who)
        for seek in self.open_seeks(who):
            if seek.to is not None or seek.home is not None or not _fits(seek, spec):
                continue
            try:
                await self._check_taker(seek, who, name)
            except GameError:
                continue
            return await self._start(seek, who, name, spec.color)
        return None

    async def _check_taker(self, seek: Seek, taker: Account | None, name: str) -> None:
        if taker is not None and seek.owner is not None and seek.owner.id == taker.id:
            raise GameError(409, N_("you cannot take your own seek"))
        if seek.to is not None and (taker is None or username_key(taker.username) != seek.to):
            raise GameError(409, N_("this challenge is for {name}"), name=repr(seek.to))
        if not seek.rated:
            return
        if taker is None:
            raise GameError(401, N_("a rated game needs an account: sign in first"))
        family = family_of(seek.variant)
        if seek.rating_range is not None and family and self.hall.accounts is not None:
            rating = (await self.hall.accounts.rating(taker.id, family)).rating
            low, high = seek.rating_range
            if not low <= rating <= high:
                raise GameError(
                    409,
                    N_("your rating {rating} is outside this seek's range {low}-{high}"),
                    rating=str(round(rating)),
                    low=str(low),
                    high=str(high),
                )

    async def _start(
        self, seek: Seek, taker: Account | None, name: str, taker_wants: str = "random"
    ) -> Created:
        """Make the game of ``seek`` (its owner's colour as asked, else the other of the one
        the taker asked for) and answer with the taker's seat."""
        owner_color = seek.color
        if owner_color == "random" and taker_wants != "random":
            owner_color = "black" if taker_wants == "white" else "white"
        owner_account = None if seek.owner is None else seek.owner.username
        owner_player = Player("human", name=seek.name, account=owner_account)
        taker_player = Player("human", name=name, account=None if taker is None else taker.username)
        seek.game = "…"  # taken: no second taker while the game is made
        try:
            created = await self.hall.create(NewGame(
                variant=seek.variant, options=seek.options, opponent="human",
                color=owner_color, clock=seek.clock, me=owner_player, them=taker_player,
                rated=seek.rated, public=True,  # the lobby's games are watched
                my_account_id=None if seek.owner is None else seek.owner.id,
                their_account_id=None if taker is None else taker.id,
            ))  # fmt: skip
        except BaseException:
            seek.game = None
            raise
        seek.game = created.room.public_id
        self._tell({"op": "taken", "id": seek.id})
        seek.seat_token = created.token
        seek.seat_color = created.color
        seek.seen = time.monotonic()
        assert created.invite is not None
        taker_color = "black" if created.color == "white" else "white"
        created.room.mark_seen(taker_color == "white")  # the taker is here: the first move waits
        return Created(created.room, created.invite, taker_color, None, created.warnings)


def seek_message(seek: Seek, home: str | None) -> dict[str, Any]:
    """The bus's message of a new seek (its token's hash stays home)."""
    owner = seek.owner
    return {
        "op": "post",
        "id": seek.id,
        "home": home,
        "owner": None if owner is None else [owner.id, owner.username, owner.admin, owner.bot],
        "name": seek.name,
        "variant": seek.variant,
        "options": seek.options,
        "clock": seek.clock,
        "rated": seek.rated,
        "color": seek.color,
        "rating": seek.rating,
        "rating_range": None if seek.rating_range is None else list(seek.rating_range),
        "to": seek.to,
        "owner_key": seek.owner_key,
    }


def seek_of(message: dict[str, Any]) -> Seek:
    """The copy of another process's seek, from its :func:`seek_message`."""
    owner = message["owner"]
    account = None if owner is None else Account(int(owner[0]), str(owner[1]), *owner[2:4])
    low_high = message.get("rating_range")
    return Seek(
        str(message["id"]), "", account, str(message["name"]), str(message["variant"]),
        dict(message["options"]), message.get("clock"), bool(message["rated"]),
        str(message["color"]), message.get("rating"),
        None if low_high is None else (int(low_high[0]), int(low_high[1])),
        message.get("to"), owner_key=str(message.get("owner_key", "")),
        home=str(message["home"]),
    )  # fmt: skip


def _check(spec: SeekSpec, owner: Account | None) -> SeekSpec:
    """``spec`` checked, its clock in the API's own form (``"30s+0"`` and ``"½+0"`` are both
    ``"30+0"``), so that seeks of the same time control fit each other however written.

    :raises GameError: 401 for a rated seek without an account, 400 for a bad clock or range.
    """
    if spec.rated and owner is None:
        raise GameError(401, N_("a rated game needs an account: sign in first"))
    if spec.clock is not None:
        spec = replace(spec, clock=clock_text(*parse_clock(spec.clock)))
    if spec.rating_range is not None and spec.rating_range[0] > spec.rating_range[1]:
        raise GameError(400, N_("bad rating range {low}-{high}"),
                        low=str(spec.rating_range[0]), high=str(spec.rating_range[1]))  # fmt: skip
    return spec


def _owner_key(owner: Account | None, client: str) -> str:
    return f"account:{owner.id}" if owner is not None else f"client:{client}"


def _may_see(seek: Seek, viewer: Account | None) -> bool:
    if viewer is None:
        return False
    return username_key(viewer.username) == seek.to or (
        seek.owner is not None and seek.owner.id == viewer.id
    )


def _fits(seek: Seek, spec: SeekSpec) -> bool:
    colors_fit = seek.color == "random" or spec.color == "random" or seek.color != spec.color
    return (seek.variant == spec.variant and seek.clock == spec.clock
            and seek.rated == spec.rated and seek.options == spec.options
            and colors_fit)  # fmt: skip


__all__ = ["Lobby", "Seek", "SeekSpec", "seek_message", "seek_of"]
