"""The engine pool of ``kradan serve`` (:mod:`kradan.web.engine_pool`) with real worker
processes: play goes before a running analysis (which is paused, then goes on), cancelled and
replaced analyses stop, a stop ends an analysis with its deepest lines, a worker that dies is
replaced and its job runs again. No test asserts on time."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from kradan.web.analysis_work import AnalysisRequest
from kradan.web.engine_pool import EnginePool, default_engines
from kradan.web.engine_tasks import EngineRequest

T = TypeVar("T")

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


def level_one(history: tuple[str, ...] = ()) -> EngineRequest:
    return EngineRequest("makruk", {}, START, list(history), level=1)


def long_analysis(seconds: float = 60.0) -> AnalysisRequest:
    return AnalysisRequest("makruk", {}, None, multipv=2, seconds=seconds)


def with_pool(workers: int, work: Callable[[EnginePool], Awaitable[T]]) -> T:
    async def main() -> T:
        pool = EnginePool(workers)
        try:
            return await asyncio.wait_for(work(pool), 300)
        finally:
            pool.close()

    # in a thread of its own: a browser test earlier in the session leaves Playwright's event
    # loop running in the main thread, where asyncio.run() refuses to start
    with concurrent.futures.ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, main()).result()


async def first_lines(pool: EnginePool, key: str, request: AnalysisRequest) -> Any:
    """An analysis started, once it has sent its first lines."""
    seen: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    job = pool.analyse(request, key, seen.put_nowait)
    await seen.get()
    return job, seen


def test_the_default_size_follows_the_cores() -> None:
    assert default_engines(1) == 2 and default_engines(2) == 2
    assert default_engines(6) == 6 and default_engines(64) == 8


def test_a_move_goes_before_a_running_analysis_which_then_goes_on() -> None:
    async def work(pool: EnginePool) -> None:
        job, _ = await first_lines(pool, "client", long_analysis(seconds=3.0))
        answer = await pool.choose_move(level_one(), "game")
        assert answer.move is not None
        # the move came while the analysis waited: it was stopped and queued again
        assert not job.result.done()
        assert job.job.extra.get("preemptions", 0) >= 1
        result = await job.result
        assert result["depth"] >= 1 and len(result["lines"]) == 2

    with_pool(1, work)


def test_the_latest_analysis_of_a_client_replaces_the_one_before() -> None:
    async def work(pool: EnginePool) -> None:
        old, _ = await first_lines(pool, "client", long_analysis())
        new = pool.analyse(long_analysis(seconds=0.3), "client", replaces=True)
        assert old.result.cancelled()
        result = await new.result
        assert result["lines"]
        # the old search stopped: the worker is free again, with nothing running
        await asyncio.sleep(0.2)
        assert not pool.running and not pool.queue

    with_pool(1, work)


def test_stop_ends_an_analysis_with_its_deepest_lines() -> None:
    async def work(pool: EnginePool) -> None:
        job, seen = await first_lines(pool, "client", long_analysis())
        pool.stop(job.job)
        result = await job.result
        while not seen.empty():
            last = seen.get_nowait()
            assert last["depth"] <= result["depth"]
        assert result["lines"][0]["moves"]

    with_pool(1, work)


def test_a_cancelled_analysis_that_waits_never_runs() -> None:
    async def work(pool: EnginePool) -> None:
        running, _ = await first_lines(pool, "a", long_analysis(seconds=1.0))
        waiting = pool.analyse(long_analysis(), "b")
        pool.cancel(waiting.job)
        assert waiting.result.cancelled() and not pool.queue
        await running.result
        assert waiting.job.started is None and waiting.job.ran == 0.0

    with_pool(1, work)


def test_a_move_whose_caller_gave_up_leaves_the_queue() -> None:
    async def work(pool: EnginePool) -> None:
        running, _ = await first_lines(pool, "a", long_analysis(seconds=1.0))
        asked = asyncio.ensure_future(pool.choose_move(level_one(), "game"))
        await asyncio.sleep(0)
        asked.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asked
        assert not [job for job in pool.queue.waiting if job.kind == 0]
        await running.result

    with_pool(1, work)


def test_a_worker_that_dies_is_replaced_and_its_move_is_made() -> None:
    async def work(pool: EnginePool) -> None:
        running, _ = await first_lines(pool, "a", long_analysis(seconds=30.0))
        pid = pool.workers[0].pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        answer = await pool.choose_move(level_one(), "game")
        assert answer.move is not None
        assert pool.workers and pool.workers[0].pid != pid
        # the analysis went back to the queue, and runs again in the new worker
        assert running.job.extra["attempts"] == 1 and not running.result.done()
        pool.stop(running.job)
        assert (await running.result)["lines"]

    with_pool(1, work)


def test_two_workers_think_for_two_games_at_once() -> None:
    async def work(pool: EnginePool) -> None:
        moves = await asyncio.gather(
            pool.choose_move(level_one(), "a"), pool.choose_move(level_one(("e3e4",)), "b")
        )
        assert all(answer.move for answer in moves)
        assert len(pool.workers) == 2

    with_pool(2, work)


def test_warming_starts_every_worker_and_answers_meanwhile() -> None:
    async def work(pool: EnginePool) -> None:
        warming = asyncio.ensure_future(pool.warm())
        answer = await pool.choose_move(level_one(), "game")
        assert answer.move is not None
        assert await warming
        assert len(pool.workers) == 2 and all(worker.ready for worker in pool.workers)

    with_pool(2, work)


def test_kradan_serve_engines(monkeypatch: pytest.MonkeyPatch, capsys: Any, tmp_path: Any) -> None:
    import uvicorn

    import kradan.web
    from kradan.cli import main

    made: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    monkeypatch.setattr(kradan.web, "create_app", lambda url, **options: made.append(options))
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    assert main.main(["serve", "--db", db, "--engines", "3"]) == 0
    assert main.main(["serve", "--db", db]) == 0
    assert [options["engine_workers"] for options in made] == [3, None]
    for bad in ("0", "65"):
        assert main.main(["serve", "--db", db, "--engines", bad]) == 2
        assert f"--engines {bad}: expected 1..64" in capsys.readouterr().err
    assert len(made) == 2
