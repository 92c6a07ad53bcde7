"""The engine pool's queue (:mod:`kradan.web.engine_queue`) with plain jobs: play before
analysis, fair across games by the time they use, the quick lane, and which analysis gives way."""

from __future__ import annotations

import pytest

from kradan.web.engine_queue import (
    FIRST_GLANCE_SECONDS,
    QUICK_SECONDS,
    SLICE_SECONDS,
    EngineQueue,
    Job,
    Kind,
)


def play(key: str, cost: float = 2.0) -> Job:
    return Job(Kind.PLAY, key, "choose_move", None, cost)


def analysis(key: str, cost: float = SLICE_SECONDS) -> Job:
    return Job(Kind.ANALYSIS, key, "analyse", None, cost)


def run_all(queue: EngineQueue) -> list[str]:
    """The keys in the order the queue starts them, each job finishing before the next
    starts (one worker at a time)."""
    order = []
    while (job := queue.next([])) is not None:
        order.append(job.key)
    return order


def test_play_goes_before_analysis_whatever_came_first() -> None:
    queue = EngineQueue(1)
    queue.push(analysis("client"))
    queue.push(play("game"))
    assert run_all(queue) == ["game", "client"]


def test_games_take_turns_a_busy_game_does_not_starve_the_others() -> None:
    queue = EngineQueue(1)
    for _ in range(3):
        queue.push(play("busy"))
    queue.push(play("other"))
    order = run_all(queue)
    # the other game's move goes second, not behind all of the busy game's
    assert order == ["busy", "other", "busy", "busy"]


def test_a_quick_move_goes_ahead_of_long_ones_queued_before_it() -> None:
    queue = EngineQueue(1)
    for game in ("a", "b", "c", "d", "e", "f"):
        queue.push(play(game, cost=2.0))
    queue.push(play("level-1", cost=0.05))
    assert run_all(queue)[0] == "level-1"


def test_a_stream_of_quick_moves_does_not_starve_a_long_one() -> None:
    """Fair in time: a game that keeps asking for quick searches gets its share, and the long
    search starts once the quick ones have used about as much time."""
    queue = EngineQueue(1)
    queue.push(play("long", cost=2.0))
    started = []
    for _ in range(200):
        queue.push(play("quick", cost=0.1))
        job = queue.next([])
        assert job is not None
        started.append(job.key)
        if job.key == "long":
            break
    assert "long" in started
    assert started.index("long") <= 2.0 / 0.1 + 1


def test_the_quick_lane_keeps_one_worker_for_quick_work() -> None:
    queue = EngineQueue(2)
    queue.push(play("a"))
    queue.push(play("b"))
    first = queue.next([])
    assert first is not None and first.key == "a"
    # the second long move waits: the last worker is kept for quick ones
    assert queue.next([first]) is None
    queue.push(play("quick", cost=QUICK_SECONDS))
    second = queue.next([first])
    assert second is not None and second.key == "quick"


def test_one_worker_takes_anything() -> None:
    queue = EngineQueue(1)
    queue.push(play("a"))
    assert queue.next([]) is not None


def test_waiting_play_stops_the_analysis_that_ran_longest() -> None:
    queue = EngineQueue(2)
    old, new = analysis("x"), analysis("y", cost=0.2)
    old.started, new.started = 0.0, 5.0
    queue.push(play("game", cost=0.1))
    assert queue.victim([old, new], now=5.3) is old


def test_a_long_move_stops_only_a_long_analysis() -> None:
    queue = EngineQueue(2)
    quick = analysis("x", cost=0.2)
    moving = play("other")
    quick.started, moving.started = 0.0, 0.0
    queue.push(play("game", cost=2.0))
    assert queue.victim([quick, moving], now=0.3) is None
    long = analysis("z")
    long.started = 0.1
    assert queue.victim([long, moving], now=0.3) is long


def test_another_clients_analysis_waits_for_the_slice() -> None:
    queue = EngineQueue(1)
    running = analysis("x")
    running.started = 0.0
    queue.push(analysis("y"))
    assert queue.victim([running], now=SLICE_SECONDS / 2) is None
    assert queue.victim([running], now=SLICE_SECONDS) is running
    # the same client's next request does not take its own place
    own = EngineQueue(1)
    own.push(analysis("x"))
    assert own.victim([running], now=10 * SLICE_SECONDS) is None


def test_a_job_being_stopped_is_not_stopped_twice() -> None:
    queue = EngineQueue(1)
    running = analysis("x")
    running.started, running.stopping = 0.0, True
    queue.push(play("game"))
    assert queue.victim([running], now=1.0) is None


def test_a_preempted_analysis_queues_behind_the_other_clients() -> None:
    queue = EngineQueue(1)
    first = analysis("x")
    queue.push(first)
    assert queue.next([]) is first
    queue.push(analysis("y"))
    queue.push(first)  # stopped after its slice, queued again
    assert run_all(queue) == ["y", "x"]


def test_removed_jobs_never_start() -> None:
    queue = EngineQueue(1)
    job = analysis("x")
    queue.push(job)
    assert queue.remove(job) and not queue.remove(job)
    assert queue.next([]) is None and len(queue) == 0


def test_a_pool_needs_a_worker() -> None:
    with pytest.raises(ValueError, match="at least one worker"):
        EngineQueue(0)


def test_an_analysis_first_glance_gives_way_once_it_runs_long() -> None:
    queue = EngineQueue(2)
    glance = analysis("x", cost=FIRST_GLANCE_SECONDS)
    glance.started = 0.0
    queue.push(analysis("y"))
    assert queue.victim([glance], now=QUICK_SECONDS / 2) is None
    assert queue.victim([glance], now=QUICK_SECONDS + 0.01) is glance
    # with nothing waiting it searches on
    assert EngineQueue(2).victim([glance], now=10.0) is None
