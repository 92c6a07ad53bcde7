"""Reading the archive: games found by player, game, result, date and opening moves, a page at
a time (keyset pagination); one game with its PGN; PGN of a selection; and the opening
explorer: the moves played from a position, with counts and scores, and the latest games.

Pages are ordered newest date first, then newest id, and the cursor is the last game's
``(date_key, id)``: a page never repeats or skips a game stored before it was asked for, and
games added meanwhile only show up where they sort. The explorer groups the position index's
rows of one key (a range of its primary key); with a filter on the games (player, dates) it
joins each row's game by primary key. Its answers are kept in a small LRU cache keyed by the
position, the filters and the archive's version (:meth:`~.archive.ArchiveStore.version`).

Bad input raises :class:`QueryError` (a ``ValueError``) whose message quotes it; the message is
an :class:`~.i18n.Message`, shown in the reader's language by the API.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import ColumnElement, Select, case, func, or_, select, tuple_
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlalchemy.orm import aliased

from ..errors import KradanError
from ..games import AnyBoard, find_game
from ..pgn.headers import OPTIONS_TAG, RESULTS, start_board
from ..pgn.text import game_text
from .archive_reader import position_key
from .archive_tables import ARCHIVE_GAMES, ARCHIVE_PLAYERS, ARCHIVE_POSITIONS, RESULT_CODES
from .i18n import N_, Message

G = ARCHIVE_GAMES
P = ARCHIVE_POSITIONS
WHITE = aliased(ARCHIVE_PLAYERS, name="white_player")
BLACK = aliased(ARCHIVE_PLAYERS, name="black_player")

#: the most games a page holds, and the most opening moves a search or an explorer takes
MAX_PAGE = 200
MAX_MOVES = 100
#: the latest games the explorer shows
RECENT = 5
_DATE = re.compile(r"(\d{4})(?:[-.](\d{2})(?:[-.](\d{2}))?)?")
_CURSOR = re.compile(r"(\d{1,8})\.(\d{1,10})")


class QueryError(ValueError):
    """A search or explorer request that cannot be answered: the message quotes the input.

    ``content`` is the message to translate (an English template marked with ``N_`` and its
    values); ``str()`` is its English."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.content = Message(template, **params)
        super().__init__(str(self.content))


@dataclass(frozen=True)
class Filters:
    """What the games must be: of a game (canonical name), with a player (as ``color``, or
    either side), ending in a result, dated between two date keys (inclusive)."""

    variant: str | None = None
    player: str | None = None
    color: str | None = None
    result: str | None = None
    since: int | None = None
    until: int | None = None

    @property
    def on_games(self) -> bool:
        """Whether the explorer must look at the games' rows (the result is in the index)."""
        return bool(self.player or self.since is not None or self.until is not None)


def parse_filters(
    variant: str | None = None,
    player: str | None = None,
    color: str | None = None,
    result: str | None = None,
    since: str | None = None,
    until: str | None = None,
) -> Filters:
    """The filters of a request's words.

    :raises QueryError: for an unknown game, colour, result or a date that is not
        ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``, quoting it.
    """
    if variant is not None:
        variant = canonical_variant(variant)
    if color not in (None, "white", "black"):
        raise QueryError(N_("color {color}: expected 'white' or 'black'"), color=repr(color))
    if color is not None and not player:
        raise QueryError(N_("color {color} needs a player"), color=repr(color))
    if result is not None and result not in RESULTS:
        raise QueryError(
            N_("result {result}: expected one of {results}"),
            result=repr(result),
            results=", ".join(RESULTS),
        )
    low = None if since is None else _date_bound(since, "since", high=False)
    high = None if until is None else _date_bound(until, "until", high=True)
    return Filters(variant, player or None, color, result, low, high)


def canonical_variant(name: str) -> str:
    """The registry's name of the game called ``name``.

    :raises QueryError: for a name no game has.
    """
    try:
        return find_game(name).name
    except (KradanError, ValueError):
        raise QueryError(N_("unknown game {game}"), game=repr(name)) from None


def _date_bound(text: str, name: str, *, high: bool) -> int:
    match = _DATE.fullmatch(text.strip())
    if match is None:
        raise QueryError(
            N_("{name} {date}: expected a date, YYYY, YYYY-MM or YYYY-MM-DD"),
            name=name,
            date=repr(text),
        )
    year, month, day = (int(part) if part else 0 for part in match.groups())
    if not 0 <= month <= 12 or not 0 <= day <= 31 or (day and not month):
        raise QueryError(N_("{name} {date}: no such date"), name=name, date=repr(text))
    if high:
        month, day = month or 99, day or 99
    return year * 10000 + month * 100 + day


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the last game's date key and id (``"20240315.123"``)."""

    date_key: int
    id: int

    @classmethod
    def parse(cls, text: str) -> Cursor:
        """:raises QueryError: for text that no page gave as its ``next``."""
        match = _CURSOR.fullmatch(text.strip())
        if match is None:
            raise QueryError(
                N_("after {text}: expected the 'next' of a page"), text=repr(text[:40])
            )
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.date_key}.{self.id}"


def board_after(variant: str, fen: str | None, moves: Sequence[str]) -> AnyBoard:
    """The board of ``variant`` at ``fen`` (its start without one), the UCI ``moves`` played.

    :raises QueryError: for a bad position or a move that is not legal, quoting it.
    """
    game = find_game(variant)
    if len(moves) > MAX_MOVES:
        raise QueryError(N_("{count} moves: at most {limit}"), count=len(moves), limit=MAX_MOVES)
    try:
        board = game.new_board(fen.strip() if fen else None)
    except (KradanError, ValueError) as error:
        raise QueryError(N_("FEN {fen}: {error}"), fen=repr(fen), error=str(error)) from None
    for number, text in enumerate(moves, 1):
        try:
            board.push_uci(text)
        except (KradanError, ValueError, IndexError, KeyError) as error:
            raise QueryError(
                N_("move {number} {move}: {error}"),
                number=number,
                move=repr(text),
                error=str(error),
            ) from None
    return board


def split_moves(text: str | None) -> list[str]:
    """``"e3e4,e6e5"`` (commas or spaces) as a list of moves."""
    return [word for word in re.split(r"[\s,]+", text or "") if word]


# --- conditions shared by the searches and the explorer -----------------------------------------


def _player_id(name: str) -> Any:
    return select(ARCHIVE_PLAYERS.c.id).where(ARCHIVE_PLAYERS.c.name == name).scalar_subquery()


def game_conditions(filters: Filters) -> list[ColumnElement[bool]]:
    """The conditions on ``archive_games`` for ``filters``."""
    found: list[ColumnElement[bool]] = []
    if filters.variant is not None:
        found.append(G.c.variant == filters.variant)
    if filters.player:
        player = _player_id(filters.player)
        if filters.color == "white":
            found.append(G.c.white_id == player)
        elif filters.color == "black":
            found.append(G.c.black_id == player)
        else:
            found.append(or_(G.c.white_id == player, G.c.black_id == player))
    if filters.result is not None:
        found.append(G.c.result == filters.result)
    if filters.since is not None:
        found.append(G.c.date_key >= filters.since)
    if filters.until is not None:
        found.append(G.c.date_key <= filters.until)
    return found


@dataclass(frozen=True)
class Opening:
    """Games that began with these moves: they stood in the position after them (``key``) and
    their moves' text begins with ``prefix``."""

    key: int
    prefix: str

    @classmethod
    def of(cls, variant: str, moves: Sequence[str]) -> Opening:
        board = board_after(variant, None, moves)
        return cls(position_key(board, variant), " ".join(moves))

    def conditions(self) -> list[ColumnElement[bool]]:
        stood = select(P.c.game_id).where(P.c.pos_key == self.key, P.c.game_id == G.c.id)
        size = len(self.prefix)
        return [
            stood.exists(),
            or_(G.c.moves == self.prefix, func.substr(G.c.moves, 1, size + 1) == self.prefix + " "),
        ]


def _summaries(conditions: Sequence[ColumnElement[bool]]) -> Select[Any]:
    """The columns of a game in a list, with its players' names."""
    return (
        select(
            G.c.id,
            G.c.variant,
            WHITE.c.name,
            BLACK.c.name,
            G.c.result,
            G.c.date_key,
            G.c.ply_count,
            G.c.source,
            G.c.headers,
        )
        .outerjoin(WHITE, WHITE.c.id == G.c.white_id)
        .outerjoin(BLACK, BLACK.c.id == G.c.black_id)
        .where(*conditions)
    )


def date_text(key: int) -> str | None:
    """A date key as PGN writes a date (``2024.03.??``); ``None`` when unknown."""
    if not key:
        return None
    year, rest = divmod(key, 10000)
    month, day = divmod(rest, 100)
    return f"{year:04d}.{f'{month:02d}' if month else '??'}.{f'{day:02d}' if day else '??'}"


def _summary(row: Any) -> dict[str, Any]:
    id_, variant, white, black, result, key, plies, source, headers = row
    return {
        "id": int(id_),
        "variant": variant,
        "white": white,
        "black": black,
        "result": result,
        "date": date_text(int(key)),
        "plies": int(plies),
        "event": (headers or {}).get("Event"),
        "source": source,
    }


# --- the searches -------------------------------------------------------------------------------


async def search(
    engine: AsyncEngine,
    filters: Filters,
    opening: Opening | None = None,
    after: Cursor | None = None,
    limit: int = 50,
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of games newest first, and the cursor of the next page (``None`` at the end)."""
    limit = max(1, min(limit, MAX_PAGE))
    conditions = game_conditions(filters) + (opening.conditions() if opening else [])
    if after is not None:
        conditions.append(tuple_(G.c.date_key, G.c.id) < tuple_(after.date_key, after.id))
    statement = _summaries(conditions).order_by(G.c.date_key.desc(), G.c.id.desc()).limit(limit + 1)
    async with engine.connect() as connection:
        rows = (await connection.execute(statement)).all()
    games = [_summary(row) for row in rows[:limit]]
    following = None
    if len(rows) > limit:
        last = rows[limit - 1]
        following = str(Cursor(int(last[5]), int(last[0])))
    return games, following


_FULL = (G.c.id, G.c.variant, G.c.start_fen, G.c.result, G.c.moves, G.c.counts, G.c.headers)


async def game(engine: AsyncEngine, game_id: int) -> dict[str, Any] | None:
    """One game: ``{id, variant, fen (its start), headers, moves (UCI), pgn}``; ``None`` if
    there is no such game."""
    async with engine.connect() as connection:
        row = (await connection.execute(select(*_FULL).where(G.c.id == game_id))).first()
    if row is None:
        return None
    return {
        "id": int(row.id),
        "variant": row.variant,
        "fen": row.start_fen,
        "headers": dict(row.headers or {}),
        "moves": row.moves.split(),
        "pgn": pgn_of(row),
    }


def pgn_of(row: Any) -> str:
    """A stored game as PGN: its tags, and its moves replayed under its rules (written in
    SAN, the counts where they were declared)."""
    headers = dict(row.headers or {})
    setup = {"Variant": row.variant, "FEN": row.start_fen}
    if headers.get(OPTIONS_TAG):
        setup[OPTIONS_TAG] = headers[OPTIONS_TAG]
    board = start_board(setup)
    counts: dict[int, list[str]] = {}
    for ply, kind in row.counts or ():
        counts.setdefault(int(ply), []).append(kind)
    for ply, move in enumerate([*row.moves.split(), None]):
        for kind in counts.get(ply, ()):
            counting: Any = board
            counting.declare_count() if kind == "declare" else counting.stop_count()
        if move is not None:
            board.push_uci(move)
    return game_text(board, headers)


async def export(
    engine: AsyncEngine,
    filters: Filters,
    opening: Opening | None = None,
    limit: int = 1000,
    page: int = 200,
) -> AsyncIterator[list[Any]]:
    """The full rows of up to ``limit`` games of a selection, newest first, a page at a time
    (for :func:`pgn_of`)."""
    after: Cursor | None = None
    left = limit
    conditions = game_conditions(filters) + (opening.conditions() if opening else [])
    while left > 0:
        where = list(conditions)
        if after is not None:
            where.append(tuple_(G.c.date_key, G.c.id) < tuple_(after.date_key, after.id))
        statement = (
            select(*_FULL, G.c.date_key)
            .where(*where)
            .order_by(G.c.date_key.desc(), G.c.id.desc())
            .limit(min(page, left))
        )
        async with engine.connect() as connection:
            rows = (await connection.execute(statement)).all()
        if not rows:
            return
        yield list(rows)
        left -= len(rows)
        after = Cursor(int(rows[-1].date_key), int(rows[-1].id))


# --- the explorer -------------------------------------------------------------------------------


def _scored(*columns: Any) -> list[Any]:
    result = P.c.result
    return [
        *columns,
        func.count(),
        func.sum(case((result == 1, 1), else_=0)),
        func.sum(case((result == 0, 1), else_=0)),
        func.sum(case((result == -1, 1), else_=0)),
    ]


def _explorer_conditions(key: int, filters: Filters) -> list[ColumnElement[bool]]:
    conditions: list[ColumnElement[bool]] = [P.c.pos_key == key]
    if filters.result == "*":
        conditions.append(P.c.result.is_(None))
    elif filters.result is not None:
        conditions.append(P.c.result == RESULT_CODES[filters.result])
    return conditions


async def explore(
    engine: AsyncEngine, board: AnyBoard, variant: str, filters: Filters, recent: int = RECENT
) -> dict[str, Any]:
    """The moves played from ``board``'s position in the archive's games of ``variant`` that
    pass ``filters``: ``{games, white, draws, black, moves: [{uci, san, thai_san, games, white,
    draws, black}], recent: [games]}``, the moves most played first (``thai_san`` is ``None``
    for a game without Thai SAN)."""
    key = position_key(board, variant)
    conditions = _explorer_conditions(key, filters)
    moves = select(*_scored(P.c.next_move)).where(*conditions).group_by(P.c.next_move)
    latest = select(P.c.game_id).where(*conditions).order_by(P.c.game_id.desc()).limit(recent)
    if filters.on_games:
        on_games = game_conditions(Filters(None, filters.player, filters.color, None,
                                           filters.since, filters.until))  # fmt: skip
        moves = moves.join(G, G.c.id == P.c.game_id).where(*on_games)
        latest = latest.join(G, G.c.id == P.c.game_id).where(*on_games)
    async with engine.connect() as connection:
        grouped = (await connection.execute(moves)).all()
        ids = [int(id_) for id_ in (await connection.scalars(latest)).all()]
        games = []
        if ids:
            found = await connection.execute(_summaries([G.c.id.in_(ids)]))
            by_id = {int(row[0]): _summary(row) for row in found}
            games = [by_id[id_] for id_ in ids if id_ in by_id]
    thai = "thai" in find_game(variant).notations
    totals = [0, 0, 0, 0]
    listed = []
    for move, *counts in grouped:
        numbers = [int(count or 0) for count in counts]
        totals = [total + number for total, number in zip(totals, numbers, strict=True)]
        if move is not None:
            san = _written(board, move, "san")
            thai_san = _written(board, move, "thai") if thai else None
            listed.append({"uci": move, "san": san, "thai_san": thai_san, **_counts(numbers)})
    listed.sort(key=lambda entry: (-entry["games"], entry["uci"]))
    return {**_counts(totals), "moves": listed, "recent": games}


def _counts(numbers: list[int]) -> dict[str, int]:
    games, white, draws, black = numbers
    return {"games": games, "white": white, "draws": draws, "black": black}


def _written(board: AnyBoard, uci: str, notation: str) -> str:
    """``uci`` in ``notation`` (SAN, or Thai SAN where the game has it) on ``board`` (the UCI
    itself should the move not be legal there)."""
    try:
        move = board.parse_uci(uci)
        if notation == "san":
            return str(board.san(move))
        san: Any = board.san
        return str(san(move, notation))
    except (KradanError, ValueError, IndexError, KeyError):
        return uci


class ExplorerCache:
    """The latest explorer answers, keyed by position, filters and archive version."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._answers: OrderedDict[Any, dict[str, Any]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Any) -> dict[str, Any] | None:
        answer = self._answers.get(key)
        if answer is None:
            self.misses += 1
            return None
        self._answers.move_to_end(key)
        self.hits += 1
        return answer

    def put(self, key: Any, answer: dict[str, Any]) -> None:
        self._answers[key] = answer
        self._answers.move_to_end(key)
        while len(self._answers) > self.size:
            self._answers.popitem(last=False)


__all__ = [
    "MAX_PAGE",
    "Cursor",
    "ExplorerCache",
    "Filters",
    "Opening",
    "QueryError",
    "board_after",
    "canonical_variant",
    "date_text",
    "explore",
    "export",
    "game",
    "game_conditions",
    "parse_filters",
    "pgn_of",
    "search",
    "split_moves",
]
