"""The small values of ``kradan serve``: the errors it answers with, seat tokens and game ids,
clocks, rule options as JSON, players, and what a new game asks for."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from ..games import Game
from .i18n import N_, Message, Term

#: a side as the API names it
Side = Literal["white", "black"]
COLORS: dict[bool, Side] = {True: "white", False: "black"}
#: the sides as the server's messages name them, translated with the message
SIDES = {True: Term(N_("white")), False: Term(N_("black"))}
#: what every action is called in the API
ACTIONS = (
    "resign", "offer_draw", "accept_draw", "decline_draw", "claim_draw", "takeback",
    "declare_count", "stop_count", "abort", "claim_win",
)  # fmt: skip
COUNT_EVENTS = ("count_declare", "count_stop")
#: the termination of a game lost on time, and of one drawn because the winner could not mate
TIME_FORFEIT = N_("time forfeit")
TIMEOUT_DRAW = N_("timeout vs insufficient material")


class GameError(Exception):
    """A request the game refuses: ``status`` is the HTTP status, and the message quotes it.

    ``template`` and ``params`` are an :class:`~kradan.web.i18n.Message`: the English text
    marked with ``N_`` and the values of its ``{name}`` placeholders (a
    :class:`~kradan.web.i18n.Term` is a word translated with it). ``message`` is the English
    text; :meth:`text` gives it in a language, and is only called when the error is sent.

    >>> error = GameError(409, N_("{color} has no move to take back"), color=SIDES[True])
    >>> error.message
    'white has no move to take back'
    >>> error.text("th")
    'ฝ่ายขาวไม่มีตาเดินให้ขอคืน'
    """

    def __init__(self, status: int, template: str, /, **params: object) -> None:
        self.status = status
        self.content = Message(template, **params)
        self.message = str(self.content)
        super().__init__(self.message)

    def text(self, language: str) -> str:
        """The message in ``language`` (English as :attr:`message` is)."""
        return self.content.text(language)


# --- seats -------------------------------------------------------------------------------------


def new_token() -> str:
    """A seat token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_public_id() -> str:
    """A game's id in URLs: 12 URL-safe characters (72 random bits)."""
    return secrets.token_urlsafe(9)


# --- clocks ------------------------------------------------------------------------------------


#: a time control as people write it: a base (seconds, ``30s``, minutes ``5m`` / ``5min``,
#: lichess's ``½`` ``¼`` ``¾`` of a minute) and an increment in seconds, ``+``-joined
CLOCK_TEXT = re.compile(
    r"(?P<base>\d{1,5}(?:\.\d{1,2})?|\d{0,3}[½¼¾])\s*(?P<unit>s|sec|m|min)?"
    r"(?:\s*\+\s*(?P<increment>\d{1,3})\s*(?:s|sec)?)?",
    re.IGNORECASE,
)
#: the longest base time and increment, in seconds
MAX_BASE_SECONDS, MAX_INCREMENT_SECONDS = 36000, 600
_FRACTIONS = {"½": 0.5, "¼": 0.25, "¾": 0.75}


class ClockError(GameError):
    """A time control that cannot be read, or is out of range (400, quoting it)."""

    def __init__(self, text: str, template: str) -> None:
        super().__init__(400, template, clock=repr(text[:40]))


def parse_clock(text: str) -> tuple[int, int]:
    """A time control as milliseconds: the base time and the increment.

    The base is seconds when it is a bare whole number (``"300+2"``, the API's form since the
    start, and ``"30+0"``), or carries ``s`` (``"30s+0"``); minutes with ``m`` or ``min``
    (``"1m+0"``, ``"0.5min+0"``) or as lichess writes a part of a minute (``"½+0"``,
    ``"¼+0"``). The increment is whole seconds (``"+2"`` or ``"+2s"``), 0 when left out. The
    base is 1 s to 10 hours in whole seconds, the increment 0 to 600 s.

    >>> parse_clock("300+2"), parse_clock("30s+0"), parse_clock("½+0"), parse_clock("1m")
    ((300000, 2000), (30000, 0), (30000, 0), (60000, 0))

    :raises ClockError: for text that is no such time control (a bare decimal ``"0.5+0"``
        says nothing of its unit), or one out of range.
    """
    found = CLOCK_TEXT.fullmatch(text.strip()) if len(text) <= 40 else None
    if found is None:
        raise ClockError(
            text,
            N_(
                "bad clock {clock}: expected base+increment, e.g. '300+2' (seconds), '30s+0', "
                "'5m+3' or '½+0'"
            ),
        )
    base, unit = found["base"], (found["unit"] or "").lower()
    if base[-1] in _FRACTIONS:
        minutes = float(base[:-1] or 0) + _FRACTIONS[base[-1]]
        if unit in ("s", "sec"):
            raise ClockError(text, N_("bad clock {clock}: ½, ¼ and ¾ are parts of a minute"))
        seconds = minutes * 60
    elif unit in ("m", "min"):
        seconds = float(base) * 60
    elif unit or "." not in base:
        seconds = float(base)
    else:
        raise ClockError(
            text,
            N_(
                "bad clock {clock}: a bare number is seconds; write minutes with m, e.g. "
                "'0.5m+0' or '½+0'"
            ),
        )
    increment = int(found["increment"] or 0)
    if abs(seconds - round(seconds)) > 1e-6:
        raise ClockError(text, N_("bad clock {clock}: the base is a whole number of seconds"))
    if not 1 <= round(seconds) <= MAX_BASE_SECONDS or increment > MAX_INCREMENT_SECONDS:
        raise ClockError(
            text,
            N_("bad clock {clock}: 1 to 36000 seconds, an increment of 0 to 600 seconds"),
        )
    return round(seconds) * 1000, increment * 1000


def clock_text(base_ms: int, increment_ms: int) -> str:
    """The API's own form of a time control, seconds+increment (``"30+0"``, ``"300+2"``): what
    :func:`parse_clock` reads back as it was, and PGN's ``TimeControl``."""
    return f"{base_ms // 1000}+{increment_ms // 1000}"


class Clock:
    """Both sides' time. The side to move's clock runs from ``since`` (``time.monotonic``)."""

    def __init__(self, base_ms: int, increment_ms: int) -> None:
        self.base_ms = base_ms
        self.increment_ms = increment_ms
        self.ms = {True: base_ms, False: base_ms}
        self.running: bool | None = None
        self.since = time.monotonic()

    def left(self, color: bool, now: float | None = None) -> int:
        """``color``'s time in milliseconds, counting the running turn."""
        ms = self.ms[color]
        if self.running is color:
            ms -= int(((time.monotonic() if now is None else now) - self.since) * 1000)
        return ms


# --- options as JSON ---------------------------------------------------------------------------


def json_value(value: object) -> Any:
    """A rule option's value as JSON (enums by value, selections as lists)."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return list(value)
    return value


def changed_options(game: Game, board: Any) -> dict[str, Any]:
    """The board's rule options that differ from its game's defaults, as JSON values."""
    defaults = game.option_defaults()
    return {
        name: json_value(getattr(board.variant, name))
        for name, default in defaults.items()
        if getattr(board.variant, name) != default
    }


# --- a game's players --------------------------------------------------------------------------


@dataclass(frozen=True)
class Player:
    """A seat's player: a person (a guest with a chosen name, or an account) or the engine."""

    kind: str  # "human" or "engine"
    level: int = 0
    #: the name shown and written in PGN (a guest's chosen name, an account's username)
    name: str | None = None
    #: the account's username, for a seat that belongs to an account
    account: str | None = None

    def text(self) -> str:
        if self.kind == "engine":
            return f"engine level {self.level}"
        return self.name or "human"

    def as_json(self) -> dict[str, Any]:
        if self.kind == "engine":
            return {"kind": "engine", "level": self.level}
        found: dict[str, Any] = {"kind": "human"}
        if self.name:
            found["name"] = self.name
        if self.account:
            found["account"] = self.account
        return found

    @classmethod
    def from_json(cls, data: Any) -> Player:
        if isinstance(data, dict) and data.get("kind") == "engine":
            return cls("engine", int(data.get("level", 10)))
        if isinstance(data, dict):
            name, account = data.get("name"), data.get("account")
            return cls("human", name=name if isinstance(name, str) else None,
                       account=account if isinstance(account, str) else None)  # fmt: skip
        return cls("human")


def players_text(players: dict[str, Any]) -> dict[str, str]:
    """``{"white": "human", "black": "engine level 10"}`` from a stored ``players`` column."""
    return {side: Player.from_json(players.get(side)).text() for side in ("white", "black")}


@dataclass(frozen=True)
class NewGame:
    """What ``POST /api/games`` asks for (already checked for types)."""

    variant: str = "makruk"
    options: dict[str, Any] | None = None
    opponent: str = "engine"
    level: int = 10
    color: str = "white"
    clock: str | None = None
    fen: str | None = None
    #: the creator's player (a name, an account), and a person opponent's when already known
    #: (the lobby pairs two accounts)
    me: Player = Player("human")
    them: Player = Player("human")
    #: a rated game (both seats accounts)
    rated: bool = False
    #: the accounts' ids of the creator's seat and the opponent's
    my_account_id: int | None = None
    their_account_id: int | None = None
    #: listed publicly; ``None``: as :attr:`listed` says
    public: bool | None = None

    @property
    def listed(self) -> bool:
        """Whether the game is listed publicly: as asked, else a game against the engine is and
        a game between people (an invitation, a friend on the same screen) is not."""
        return self.opponent == "engine" if self.public is None else self.public


__all__ = [
    "ACTIONS",
    "CLOCK_TEXT",
    "COLORS",
    "COUNT_EVENTS",
    "SIDES",
    "TIMEOUT_DRAW",
    "TIME_FORFEIT",
    "Clock",
    "ClockError",
    "GameError",
    "NewGame",
    "Player",
    "Side",
    "changed_options",
    "clock_text",
    "json_value",
    "new_public_id",
    "new_token",
    "parse_clock",
    "players_text",
    "token_hash",
]
