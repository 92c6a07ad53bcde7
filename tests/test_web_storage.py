"""The store of ``kradan serve`` on SQLite and on a real PostgreSQL server (a throw-away cluster,
see benchmarks/postgres_cluster.py): the schema is Alembic's newest on both, times and JSON come
back as they went in, moves, events and takebacks are stored in one transaction each."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("sqlalchemy")

from kradan.web import storage, tables
from kradan.web.storage import Store
from kradan.web.tables import Ending, EventRow, GameRow, MoveRow

from .web_helpers import DATABASES, new_database, on_database

T = TypeVar("T")


@pytest.fixture(params=DATABASES)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return new_database(request.param, request, tmp_path)


def run(work: Callable[[Store], Awaitable[T]], url: str) -> T:
    """``work(store)`` on a migrated database at ``url``, in an event loop of its own thread."""
    return on_database(url, Store, work)


def new_row(public_id: str = "AAAAAAAAAAAA", **changes: Any) -> GameRow:
    now = tables.utcnow()
    values: dict[str, Any] = {
        "public_id": public_id,
        "variant": "makruk",
        "options": {"counting": "declared"},
        "start_fen": "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
        "white_token": "a" * 64,
        "black_token": None,
        "players": {"white": {"kind": "human"}, "black": {"kind": "engine", "level": 3}},
        "clock": {"base_ms": 300000, "increment_ms": 2000},
        "status": "playing",
        "result": "*",
        "termination": None,
        "ply": 0,
        "created_at": now,
        "updated_at": now,
        "ended_at": None,
    }
    values.update(changes)
    return GameRow(**values)


def a_move(game_id: int, ply: int, uci: str, when: datetime | None = None) -> MoveRow:
    return MoveRow(
        game_id=game_id,
        ply=ply,
        uci=uci,
        white_ms=300000 - ply,
        black_ms=None,
        created_at=when or tables.utcnow(),
    )


def an_event(game_id: int, seq: int, kind: str, ply: int, **payload: Any) -> EventRow:
    return EventRow(
        game_id=game_id,
        seq=seq,
        kind=kind,
        side="white",
        ply=ply,
        payload=payload,
        created_at=tables.utcnow(),
    )


def test_the_schema_is_alembics_newest(db: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    heads = ScriptDirectory(str(Path(storage.__file__).parent / "migrations")).get_heads()

    async def check(store: Store) -> tuple[Any, Any]:
        def compare(connection: Any) -> tuple[Any, Any]:
            context = MigrationContext.configure(connection)
            found = compare_metadata(context, tables.Base.metadata)
            return found, context.get_current_revision()

        async with store.engine.connect() as connection:
            return await connection.run_sync(compare)

    differences, revision = run(check, db)
    assert differences == [] and revision in heads
    # migrating again changes nothing
    assert run(check, db) == ([], revision)


def test_times_and_json_come_back_as_they_went_in(db: str) -> None:
    when = datetime(2026, 3, 1, 23, 59, 58, 123456)  # naive UTC, to the microsecond
    options = {"counting": "declared", "names": ["ขุน", "ក", "မင်း"], "deep": {"n": [1, 2.5, None]}}

    async def work(store: Store) -> Any:
        row = await store.create(new_row(options=options, created_at=when, updated_at=when))
        await store.add_move(row.id, a_move(row.id, 0, "e3e4", when + timedelta(seconds=1)), None)
        return await store.load(row.public_id)

    stored = run(work, db)
    assert stored is not None
    assert stored.row.options == options
    assert stored.row.created_at == when and stored.row.created_at.tzinfo is None
    assert stored.row.updated_at == when + timedelta(seconds=1)  # the move's time
    assert stored.row.clock == {"base_ms": 300000, "increment_ms": 2000}
    assert stored.row.players["black"] == {"kind": "engine", "level": 3}
    assert [(m.ply, m.uci, m.white_ms, m.black_ms) for m in stored.moves] == [
        (0, "e3e4", 300000, None)
    ]
    assert stored.moves[0].created_at == when + timedelta(seconds=1)


def test_moves_events_endings_and_takebacks(db: str) -> None:
    async def work(store: Store) -> Any:
        row = await store.create(new_row())
        other = await store.create(new_row("BBBBBBBBBBBB"))
        for ply, uci in enumerate(["e3e4", "d6d5", "e4d5", "c6c5"]):
            await store.add_move(row.id, a_move(row.id, ply, uci), None)
        await store.add_move(other.id, a_move(other.id, 0, "a3a4"), None)
        await store.add_event(row.id, an_event(row.id, 0, "count_declare", 2, at=2))
        await store.add_event(row.id, an_event(row.id, 1, "count_stop", 4, at=5))
        await store.add_event(row.id, an_event(row.id, 2, "draw_offer", 4))
        # the takeback to two moves drops the later moves and the count stopped beyond them
        await store.take_back(row.id, an_event(row.id, 3, "takeback", 2), plies=2, stack=3)
        taken = await store.load(row.public_id)
        try:  # a move cannot be stored twice
            await store.add_move(row.id, a_move(row.id, 1, "a6a5"), None)
            duplicate = None
        except Exception as error:
            duplicate = error
        ending = Ending("0-1", "resignation")
        await store.add_event(row.id, an_event(row.id, 4, "resign", 2), ending)
        await store.add_move(other.id, a_move(other.id, 1, "a6a5"), Ending("1/2-1/2", "stalemate"))
        return (
            taken,
            duplicate,
            await store.load(row.public_id),
            await store.load(other.public_id),
            await store.playing(),
            await store.load_many([other.id, row.id, 12345]),
            await store.count_games(),
            await store.load("CCCCCCCCCCCC"),
        )

    taken, duplicate, ended, other, playing, both, count, missing = run(work, db)
    assert [m.uci for m in taken.moves] == ["e3e4", "d6d5"] and taken.row.ply == 2
    assert [e.kind for e in taken.events] == ["count_declare", "draw_offer", "takeback"]
    assert duplicate is not None
    assert [m.uci for m in ended.moves] == ["e3e4", "d6d5"]  # the duplicate left no trace
    assert (ended.row.status, ended.row.result, ended.row.termination) == (
        "ended", "0-1", "resignation"
    )  # fmt: skip
    assert ended.row.ended_at is not None
    assert (other.row.ply, other.row.status, other.row.termination) == (2, "ended", "stalemate")
    assert playing == [] and count == 2 and missing is None
    # several games at once, in the order asked (a row id that names none is left out)
    assert [game.row.public_id for game in both] == ["BBBBBBBBBBBB", "AAAAAAAAAAAA"]
    assert [[m.uci for m in game.moves] for game in both] == [["a3a4", "a6a5"], ["e3e4", "d6d5"]]
    assert [[e.kind for e in game.events] for game in both] == [
        [], ["count_declare", "draw_offer", "takeback", "resign"]
    ]  # fmt: skip


def test_writes_at_once_share_commits_and_a_bad_one_fails_alone(db: str) -> None:
    async def work(store: Store) -> Any:
        rows = [await store.create(new_row(f"G{n:011d}")) for n in range(8)]
        counted = []

        async def at_once(ply: int, bad: int | None = None) -> list[Any]:
            commits, writes = store.commits, store.writes
            results = await asyncio.gather(
                *(
                    store.add_move(
                        row.id, a_move(row.id, ply - (n == bad), f"a{n + 1}a{ply + 2}"), None
                    )
                    for n, row in enumerate(rows)
                ),
                return_exceptions=True,
            )
            counted.append((store.commits - commits, store.writes - writes))
            return results

        first = await at_once(0)
        second = await at_once(1, bad=0)  # the first game's ply 0 again
        return first, second, counted, [await store.load(row.public_id) for row in rows]

    first, second, counted, stored = run(work, db)
    assert first == [None] * 8
    assert counted[0] == (1, 8)  # eight games' moves in one commit
    assert [isinstance(result, Exception) for result in second] == [True] + [False] * 7
    assert counted[1] == (7, 7)  # the shared commit failed: each alone, the bad one failed
    assert [[m.uci for m in game.moves] for game in stored] == [["a1a2"]] + [
        [f"a{n + 1}a2", f"a{n + 1}a3"] for n in range(1, 8)
    ]
    assert [game.row.ply for game in stored] == [1] + [2] * 7


def test_a_write_is_committed_when_it_returns(db: str) -> None:
    """What a write's caller has heard back from is in the database for every other
    connection (nothing waits in a buffer)."""

    async def work(store: Store) -> Any:
        row = await store.create(new_row())
        other = storage.make_engine(db)
        try:
            seen = []
            for ply, uci in enumerate(["e3e4", "d6d5", "e4d5"]):
                await store.add_move(row.id, a_move(row.id, ply, uci), None)
                async with other.connect() as connection:
                    found = await connection.execute(
                        tables.MOVES.select().where(tables.MOVES.c.game_id == row.id)
                    )
                    seen.append(len(found.all()))
            return seen
        finally:
            await other.dispose()

    assert run(work, db) == [1, 2, 3]


def test_on_postgresql_a_batch_of_moves_is_one_statement_and_the_rest_go_the_general_way(
    db: str,
) -> None:
    # the single-statement path is taken for moves with or without an end, and not for a write
    # with events or a function of the connection; on both databases the rows are the same
    executed: list[str] = []

    async def work(store: Store) -> None:
        from sqlalchemy import event

        def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            executed.append(" ".join(statement.split())[:40])

        event.listen(store.engine.sync_engine, "before_cursor_execute", seen)
        row = await store.create(new_row("FASTFASTFAST"))
        other = await store.create(new_row("FASTFASTOVER"))
        executed.clear()
        await asyncio.gather(
            store.add_move(row.id, a_move(row.id, 0, "e3e4"), None),
            store.add_move(other.id, a_move(other.id, 0, "a3a4"), Ending("0-1", "resignation")),
        )
        fast = list(executed)
        executed.clear()
        await store.add_move(
            row.id, a_move(row.id, 1, "e6e5"), None, [an_event(row.id, 0, "count_declare", 1)]
        )
        general = list(executed)
        stored = await store.load(row.public_id)
        ended = await store.load(other.public_id)
        assert stored is not None and ended is not None
        assert [move.uci for move in stored.moves] == ["e3e4", "e6e5"]
        assert stored.row.ply == 2 and stored.row.status == "playing"
        assert [move.uci for move in ended.moves] == ["a3a4"]
        assert (ended.row.ply, ended.row.status, ended.row.result) == (1, "ended", "0-1")
        assert ended.row.termination == "resignation" and ended.row.ended_at is not None
        if store.engine.dialect.name == "postgresql":
            # one batch, or two if the moves came apart: one statement each, nothing else
            assert fast and set(fast) == {"WITH new_moves AS ( INSERT INTO moves (g"}
            assert not any(text.startswith("WITH new_moves") for text in general)

    run(work, db)


def test_the_writer_waits_for_another_writer_without_stopping_the_loop(tmp_path: Path) -> None:
    """An SQLite file has one writer at a time. The store's writer runs on the event loop's
    thread; while another connection's transaction (a review, an archive import, a rating)
    holds the write lock and waits for the loop to go on, the store must wait beside it, not
    block the loop until SQLite's busy timeout gives up ("database is locked", found by the
    web fuzzer)."""
    from sqlalchemy import text

    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"

    async def work(store: Store) -> None:
        await store.create(new_row("BBBBBBBBBBBB"))
        async with store.engine.begin() as other:
            await other.execute(text("UPDATE games SET ply = 0"))  # takes the write lock
            writing = asyncio.ensure_future(store.create(new_row("CCCCCCCCCCCC")))
            await asyncio.sleep(0.3)  # the loop turns: the other transaction goes on, then ends
            assert not writing.done()
        await writing  # stored: before, "database is locked" after the loop stood still 5 s
        assert (await store.load("CCCCCCCCCCCC")) is not None

    run(work, url)
