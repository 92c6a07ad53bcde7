"""kradan.executors (issue 15): the local process pool behind the executor seam, the loop that
replays a task whose worker died, results put back in order, and a match that loses a worker
and still writes every game once, in round order. The Ray backend: tests/test_cluster_ray.py."""

from __future__ import annotations

import itertools
import os
import random
import re
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import pytest

from kradan.errors import ExecutorError, PgnError, UsageError
from kradan.executors import (
    ATTEMPTS,
    Executor,
    WorkerLost,
    default_executor_name,
    in_order,
    make_executor,
    run_tasks,
)
from kradan.executors.local import LocalExecutor
from kradan.runners.match import GameRecord, TimeControl, run_match, tasks
from tests import executor_tasks


def test_in_order_gives_each_result_once_its_predecessors_arrived() -> None:
    arrivals = list(range(50))
    random.Random(7).shuffle(arrivals)
    seen = []
    for index, value in in_order((i, f"r{i}") for i in arrivals):
        seen.append((index, value))
    assert seen == [(i, f"r{i}") for i in range(50)]


def test_in_order_holds_back_what_comes_early() -> None:
    stream = in_order(iter([(2, "c"), (0, "a"), (1, "b")]))
    assert next(stream) == (0, "a")  # 2 was held until 0 and 1 came
    assert list(stream) == [(1, "b"), (2, "c")]


def test_the_default_is_local_unless_ray_address_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert default_executor_name() == "local"
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:6379")
    assert default_executor_name() == "ray"


@pytest.mark.parametrize(
    ("name", "workers", "address", "words"),
    [
        ("dask", 2, None, "unknown executor 'dask'"),
        ("local", 0, None, "0 workers"),
        ("local", 2, "ray://127.0.0.1:10001", "--address 'ray://127.0.0.1:10001'"),
    ],
)
def test_bad_executor_choices_are_usage_errors(
    name: str, workers: int, address: str | None, words: str
) -> None:
    with pytest.raises(UsageError, match=words.replace("(", r"\(")):
        make_executor(name, workers, address)


def test_every_task_returns_once_on_the_local_pool() -> None:
    with LocalExecutor(2) as executor:
        found = dict(run_tasks(executor, executor_tasks.square, list(range(30))))
    assert found == {i: i * i for i in range(30)}
    assert executor.replayed == 0


def test_a_stopped_pools_wakeup_pipe_may_be_closed_under_pythons_exit() -> None:
    """After the workers are stopped (a match cancelled by SIGTERM), Python's exit wakes every
    pool's manager thread; if the manager closes the pipe between the check and the write, the
    write must not raise ("OSError: Bad file descriptor" was printed after a clean stop)."""
    executor = LocalExecutor(1)
    future = executor.submit(executor_tasks.square, 3)
    assert future.result(timeout=120) == 9
    pool = executor._pool
    assert pool is not None
    wakeup = pool._executor_manager_thread_wakeup  # type: ignore[attr-defined]
    executor.cancel([])
    wakeup._writer.close()  # the race's state: the pipe closed, not yet marked closed
    wakeup._closed = False
    wakeup.wakeup()  # what Python's exit calls: quiet


def test_a_task_whose_worker_died_is_replayed(tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    items = [(i, marker if i == 3 else "") for i in range(8)]
    with LocalExecutor(2) as executor:
        found = list(run_tasks(executor, executor_tasks.die_once, items))
    assert Path(marker).exists()  # the worker really died once
    assert sorted(found) == [(i, i * i) for i in range(8)]
    assert executor.replayed >= 1


def test_a_task_that_always_kills_its_worker_is_given_up(tmp_path: Path) -> None:
    with LocalExecutor(1) as executor, pytest.raises(WorkerLost, match=f"{ATTEMPTS} times"):
        list(run_tasks(executor, executor_tasks.always_die, [1]))
    assert executor.replayed == ATTEMPTS
    assert isinstance(WorkerLost("x"), ExecutorError)


def test_a_task_error_is_raised_as_it_was() -> None:
    with LocalExecutor(1) as executor, pytest.raises(PgnError, match="no game in 5"):
        list(run_tasks(executor, executor_tasks.fail_typed, [5]))


def test_in_flight_bounds_what_is_submitted(monkeypatch: pytest.MonkeyPatch) -> None:
    submitted: list[int] = []
    with LocalExecutor(2) as executor:
        original = executor.submit

        def counting(function, item):  # type: ignore[no-untyped-def]
            submitted.append(item)
            return original(function, item)

        monkeypatch.setattr(executor, "submit", counting)
        stream = run_tasks(executor, executor_tasks.square, list(range(10)), in_flight=3)
        next(stream)
        assert len(submitted) <= 4  # three in flight, then one more after the first came back
        stream.close()


def _match_games(count: int) -> list:  # type: ignore[type-arg]
    return tasks("kradan:level=2", "random", "makruk", count, TimeControl(2, 0.05), max_plies=30)


def test_a_match_that_loses_a_worker_writes_every_game_once_in_round_order() -> None:
    """A worker is killed while games are being played: its games are played again elsewhere,
    and the games come out once each, in round order (issue 15, item 3)."""
    games = _match_games(8)
    executor = LocalExecutor(2)
    done = threading.Event()
    killed: list[int] = []

    def on_done(count: int, record: GameRecord) -> None:
        if count == 2 and not killed:
            pid = executor.worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
            done.set()

    written: list[GameRecord] = []
    with executor:
        result = run_match(games, 2, written.append, executor=executor, on_done=on_done)
    assert killed and done.is_set()
    assert executor.replayed >= 1  # a game in flight on the killed worker was played again
    rounds = [int(record.pgn.split('[Round "')[1].split('"')[0]) for record in written]
    assert rounds == list(range(1, 9))
    assert [g.pgn for g in result.games] == [g.pgn for g in written]


def test_the_same_match_gives_the_same_games_in_and_out_of_process() -> None:
    games = tasks("random", "random", "makruk", 6, TimeControl(10, 0), max_plies=60)
    here = run_match(games, 1)
    with LocalExecutor(2) as executor:
        pooled = run_match(games, 2, executor=executor)
    assert [(g.result, g.moves) for g in here.games] == [(g.result, g.moves) for g in pooled.games]


# --- a PGN file in chunks (kradan analyse FILE --annotate) ---------------------------------------


def _games_file(path: Path, count: int) -> list[str]:
    games = tasks("random", "random", "makruk", count, TimeControl(10, 0), max_plies=12)
    texts = [record.pgn for record in run_match(games).games]
    path.write_text("\ufeff" + "\n".join(texts) + "\n", encoding="utf-8")
    return texts


def test_game_offsets_find_each_game_start(tmp_path: Path) -> None:
    from kradan.pgn.offsets import game_offsets

    source = tmp_path / "g.pgn"
    texts = _games_file(source, 5)
    data = source.read_bytes()
    offsets = game_offsets(str(source))
    assert len(offsets) == 5
    assert offsets[0] == 0  # the byte-order mark belongs to the first game
    for offset, text in zip(offsets[1:], texts[1:], strict=True):
        assert data[offset:].startswith(text.split("\n")[0].encode())


def test_game_offsets_of_movetext_without_tags_and_of_blank_files(tmp_path: Path) -> None:
    from kradan.pgn.offsets import game_offsets

    source = tmp_path / "g.pgn"
    source.write_text('\n1. e4 e5 *\n\n[Event "b"]\n\n1. d4 *\n')
    assert game_offsets(str(source)) == [1, 13]
    source.write_text("\n \n")
    assert game_offsets(str(source)) == []


def test_chunks_cover_every_game_once(tmp_path: Path) -> None:
    from kradan.engine.annotate_file import plan_chunks
    from kradan.engine.types import Limit

    source = tmp_path / "g.pgn"
    _games_file(source, 10)
    chunks = plan_chunks(str(source), "makruk", Limit(depth=1), workers=2)
    # about four chunks per worker: ten games over 2 x 4 chunks make chunks of two games
    assert [(c.first, c.games) for c in chunks] == [(1, 2), (3, 2), (5, 2), (7, 2), (9, 2)]
    assert sum(c.games for c in chunks) == 10
    assert chunks[0].start == 0 and chunks[-1].end == source.stat().st_size
    assert all(a.end == b.start for a, b in itertools.pairwise(chunks))


def test_annotating_a_file_on_a_pool_writes_every_game_in_the_files_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kradan.cli.main import main

    source, here, pooled = tmp_path / "g.pgn", tmp_path / "a.pgn", tmp_path / "b.pgn"
    _games_file(source, 7)
    argv = ["analyse", str(source), "--depth", "2", "--annotate"]
    assert main([*argv, str(here)]) == 0
    assert main([*argv, str(pooled), "--concurrency", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("7 games, ") == 2
    assert here.read_text() == pooled.read_text()
    rounds = re.findall(r'\[Round "(\d+)"\]', here.read_text())
    assert rounds == [str(n) for n in range(1, 8)]
    assert here.read_text().count("[%eval ") > 7


def test_annotate_with_game_n_judges_that_game_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kradan.cli.main import main

    source, target = tmp_path / "g.pgn", tmp_path / "a.pgn"
    _games_file(source, 3)
    assert main(["analyse", str(source), "--annotate", str(target), "--game", "2",
                 "--depth", "2"]) == 0  # fmt: skip
    assert re.findall(r'\[Round "(\d+)"\]', target.read_text()) == ["2"]


def test_a_damaged_game_is_annotated_as_read_and_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kradan.cli.main import main

    source, target = tmp_path / "g.pgn", tmp_path / "a.pgn"
    texts = _games_file(source, 3)
    texts[1] = texts[1].replace("\n1. ", "\n1. Zz9 ", 1)
    source.write_text("\n".join(texts) + "\n")
    assert main(["analyse", str(source), "--annotate", str(target), "--depth", "2"]) == 0
    captured = capsys.readouterr()
    assert "3 games" in captured.out and "(1 problem read past)" in captured.out
    assert "kradan: game 2: " in captured.err and "Zz9" in captured.err


def test_tables_built_on_a_pool_are_the_tables_built_here(tmp_path: Path) -> None:
    """kradan egtb generate --concurrency 2: one task per table of a piece count, the same
    bytes as one table after another."""
    from kradan.egtb.generate import generate
    from kradan.egtb.tables import TableSet
    from kradan.runners.tablebases import generate_on

    here, pooled = tmp_path / "here", tmp_path / "pooled"
    made = generate(3, here, load=TableSet(here).values)
    with LocalExecutor(2) as executor:
        done = generate_on(executor, 3, pooled)
    assert sorted(t.label for t in done) == sorted(t.label for t in made)
    for table in here.iterdir():
        assert (pooled / table.name).read_bytes() == table.read_bytes()
    again = generate_on(LocalExecutor(1), 3, pooled)
    assert all(t.skipped for t in again)  # sound tables are kept


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def test_a_worker_is_deaf_to_ctrl_c_from_its_start() -> None:
    """SIGINT that reaches a worker while it is still starting (importing kradan, warming the
    searches) leaves it running: the parent alone acts on Ctrl-C. An engine the worker starts
    gets Ctrl-C's usual meaning back."""
    import time

    with LocalExecutor(1) as executor:
        future = executor.submit(executor_tasks.sigint_dispositions, 0)
        (pid,) = executor.worker_pids()
        while not future.done():
            os.kill(pid, signal.SIGINT)
            time.sleep(0.05)
        handler, child = future.result(timeout=60)
    assert handler == "_ignore"
    assert "default_int_handler" in child


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie has ended: it waits only to be reaped)."""
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_a_worker_ends_when_its_parent_is_killed() -> None:
    """A parent killed outright (no time to end its pool) leaves no worker playing out its
    tasks: each ends itself within a second or so."""
    import subprocess
    import sys
    import time

    script = (
        "import time\n"
        "from kradan.executors.local import LocalExecutor\n"
        "from tests import executor_tasks\n"
        "executor = LocalExecutor(1)\n"
        "print(executor.submit(executor_tasks.slow_pid, 0.0).result(), flush=True)\n"
        "executor.submit(executor_tasks.slow_pid, 600.0)\n"
        "time.sleep(600)\n"
    )
    root = Path(__file__).resolve().parent.parent
    process = subprocess.Popen([sys.executable, "-c", script], cwd=root, stdout=subprocess.PIPE,
                               text=True)  # fmt: skip
    assert process.stdout is not None
    worker = int(process.stdout.readline())
    assert _running(worker)
    process.kill()
    process.wait(timeout=30)
    deadline = time.monotonic() + 30
    while _running(worker) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(worker), "the worker outlived its parent"


def test_ctrl_c_stops_a_pooled_match_cleanly(tmp_path: Path) -> None:
    """Ctrl-C (SIGINT to the terminal's process group: the command and its workers): exit 130,
    the PGN keeps the games finished in round order, and no worker is left running."""
    import subprocess
    import sys
    import time

    pgn = tmp_path / "match.pgn"
    command = [sys.executable, "-m", "kradan", "match", "kradan:level=2", "random", "--games",
               "2000", "--tc", "2+0.05", "--max-plies", "60", "--concurrency", "2", "--pgn",
               str(pgn)]  # fmt: skip

    def default_sigint() -> None:
        # a shell's background job ignores SIGINT, and its children inherit that (Python then
        # installs no KeyboardInterrupt handler): the command gets Ctrl-C as a terminal gives it
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True,
                               preexec_fn=default_sigint)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (
        not pgn.exists() or pgn.read_text().count("[Round ") < 2
    ):
        time.sleep(0.1)
    # 2,000 games: the match is still running when Ctrl-C comes (60 once ended first in CI)
    assert process.poll() is None, "the match ended before Ctrl-C"
    workers = _children_of(process.pid)
    assert workers, "the pool's workers were not found"
    os.killpg(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "match stopped after" in err and "Traceback" not in err
    rounds = [int(n) for n in re.findall(r'\[Round "(\d+)"\]', pgn.read_text())]
    assert len(rounds) >= 2 and rounds == list(range(1, len(rounds) + 1))
    left = workers
    for _ in range(50):  # the workers end with the command (a moment for the kernel to reap)
        left = [pid for pid in workers if Path(f"/proc/{pid}").exists()]
        if not left:
            break
        time.sleep(0.1)
    assert left == []


T = TypeVar("T")
R = TypeVar("R")


class _Lost(Exception):
    """What the in-process executor below raises for a lost worker."""


class _InProcess(Executor):
    """Runs each task at once in this process; an item in ``lose`` loses its worker that many
    times before it runs (a stand-in for a pool whose worker dies, without the processes)."""

    name = "in-process"

    def __init__(self, lose: dict[object, int]) -> None:
        super().__init__()
        self.lose = lose
        self.submitted = 0

    @property
    def slots(self) -> int:
        return 2

    def submit(self, function: Callable[[T], R], item: T) -> Future[R]:
        self.submitted += 1
        future: Future[R] = Future()
        if self.lose.get(item, 0) > 0:
            self.lose[item] -= 1
            future.set_exception(_Lost(f"worker of {item} killed"))
        else:
            future.set_result(function(item))
        return future

    def is_worker_loss(self, error: BaseException) -> bool:
        return isinstance(error, _Lost)

    def cancel(self, futures: list[Future[Any]]) -> None:
        pass

    def describe(self) -> str:
        return "this process"

    def shutdown(self) -> None:
        pass


def test_a_task_given_up_is_named_by_its_place_from_one() -> None:
    """The error names the task as a person counts (the fourth item is task 4) and the last
    loss; the items before it have come back."""
    executor = _InProcess(lose={13: 10})
    found: list[tuple[int, int]] = []
    with pytest.raises(WorkerLost, match=rf"^task 4 lost its worker {ATTEMPTS} times") as info:
        found.extend(run_tasks(executor, abs, [10, 11, 12, 13, 14]))
    assert "worker of 13 killed" in str(info.value)
    assert executor.replayed == ATTEMPTS
    assert sorted(found)[:3] == [(0, 10), (1, 11), (2, 12)]


@pytest.mark.parametrize("attempts", [1, 2, 1000])
def test_a_task_is_given_up_after_exactly_its_attempts(attempts: int) -> None:
    """``attempts`` losses end the run, however many are allowed; one loss fewer and the task
    comes back."""
    executor = _InProcess(lose={5: attempts})
    with pytest.raises(WorkerLost, match=f"task 1 lost its worker {attempts} times"):
        list(run_tasks(executor, abs, [5], attempts=attempts))
    assert executor.replayed == attempts
    survivor = _InProcess(lose={5: attempts - 1})
    assert list(run_tasks(survivor, abs, [5], attempts=attempts)) == [(0, 5)]
    assert survivor.replayed == attempts - 1


@pytest.mark.parametrize("in_flight", [3, 300])
def test_in_flight_bounds_a_large_window_too(in_flight: int) -> None:
    """No more than ``in_flight`` tasks are out at once, however large the window: the first
    result comes back after exactly that many submissions."""
    executor = _InProcess(lose={})
    stream = run_tasks(executor, abs, list(range(1000)), in_flight=in_flight)
    assert next(stream) == (0, 0)
    assert executor.submitted == in_flight
    assert sorted(stream) == [(i, i) for i in range(1, 1000)]
    assert executor.submitted == 1000


class _NoSubmit(Executor):
    """A backend with every operation but ``submit``."""

    @property
    def slots(self) -> int:
        return 1

    def is_worker_loss(self, error: BaseException) -> bool:
        return False

    def cancel(self, futures: list[Future[Any]]) -> None:
        pass

    def describe(self) -> str:
        return ""

    def shutdown(self) -> None:
        pass


def test_a_backend_must_offer_every_operation_of_the_seam() -> None:
    """``Executor`` is abstract in each operation run_tasks and the runners call: a backend
    that leaves one out cannot be made."""
    assert Executor.__abstractmethods__ == {
        "slots", "submit", "is_worker_loss", "cancel", "describe", "shutdown"
    }  # fmt: skip
    with pytest.raises(TypeError, match="submit"):
        _NoSubmit()  # type: ignore[abstract]


def test_a_fresh_worker_warms_both_searches_once() -> None:
    """A new process (a pool's worker) compiles or loads the searches on its first call to
    ``warm_worker``, for a chess-family board and an Alquerque board, and never again: a task
    finds them ready, and the next task pays nothing. (The search's own warming is stubbed.)"""
    import subprocess
    import sys

    script = (
        "from kradan.engine.searchers import Searchers\n"
        "calls = []\n"
        "Searchers.warm = lambda self, board: calls.append(type(board).__module__)\n"
        "from kradan.executors.warm import call_warm, warm_worker\n"
        "warm_worker()\n"
        "print(call_warm(abs, -3), sorted(calls))\n"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           check=True, timeout=120)  # fmt: skip
    assert found.stdout.split() == ["3", "['kradan.alquerque.board',", "'kradan.board']"]


def test_the_progress_line_names_the_local_processes() -> None:
    """``describe`` (the progress line's "where"): one process in the singular, more in the
    plural; no process is started to say it."""
    assert LocalExecutor(1).describe() == "1 local process"
    assert LocalExecutor(2).describe() == "2 local processes"
    assert LocalExecutor(2).worker_pids() == []
