"""The ``ray`` executor (issue 15) on a two-node Ray cluster on this machine, on loopback only
(``ray.cluster_utils.Cluster``; research: web-and-scale.md section 5). They skip, saying so,
where the ``ray`` extra is not installed; ``.ci/run`` installs it."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# read when Ray is imported: register nodes as 127.0.0.1, not the machine's LAN address
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
ray = pytest.importorskip(
    "ray", reason="the ray extra is not installed (pip install 'kradan[ray]')"
)

from kradan.errors import ExecutorError, PgnError  # noqa: E402
from kradan.executors import make_executor, run_tasks  # noqa: E402
from kradan.executors.ray_cluster import RayExecutor  # noqa: E402
from kradan.runners.match import TimeControl, run_match, tasks  # noqa: E402
from tests import executor_tasks  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: each node's object store: the tasks pass small items only
STORE = 80 * 2**20


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """Two nodes of one CPU each, on 127.0.0.1; this process is connected as the driver."""
    from ray.cluster_utils import Cluster

    nodes = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "include_dashboard": False, "object_store_memory": STORE})  # fmt: skip
    nodes.add_node(num_cpus=1, object_store_memory=STORE)
    nodes.wait_for_nodes()
    # the workers import the test tasks from the repository root, and kradan from its sources
    # (the tree under test, wherever the installed kradan points)
    path = os.pathsep.join([str(ROOT), str(ROOT / "src")])
    ray.init(address=nodes.address, log_to_driver=False, logging_level=logging.ERROR,
             runtime_env={"env_vars": {"PYTHONPATH": path}})  # fmt: skip
    try:
        yield nodes.address
    finally:
        ray.shutdown()
        nodes.shutdown()


def test_the_cluster_is_on_loopback(cluster: str) -> None:
    addresses = {node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"]}
    assert addresses == {"127.0.0.1"} and cluster.startswith("127.0.0.1:")


def test_tasks_spread_over_both_nodes_and_each_returns_once(cluster: str) -> None:
    executor = make_executor("ray")
    assert isinstance(executor, RayExecutor) and executor.slots == 2
    assert "2 nodes, 2 CPUs" in executor.describe()
    found = dict(run_tasks(executor, executor_tasks.node_of, list(range(8))))
    assert sorted(found) == list(range(8))
    assert len(set(found.values())) == 2  # both nodes worked


def test_a_task_whose_ray_worker_died_is_replayed(cluster: str, tmp_path: Path) -> None:
    marker = str(tmp_path / "died")
    executor = make_executor("ray")
    items = [(i, marker if i == 2 else "") for i in range(6)]
    found = sorted(run_tasks(executor, executor_tasks.die_once, items))
    assert Path(marker).exists()
    assert found == [(i, i * i) for i in range(6)]
    assert executor.replayed == 1


def test_a_task_error_keeps_its_type_across_the_wire(cluster: str) -> None:
    with pytest.raises(PgnError, match="no game in 5"):
        list(run_tasks(make_executor("ray"), executor_tasks.fail_typed, [5]))


def _ray_worker_pids() -> list[int]:
    """Processes running a kradan task (Ray names a busy worker ``ray::call_warm``)."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if command.startswith(b"ray::call_warm"):
                pids.append(int(entry.name))
    return pids


def test_a_match_that_loses_a_ray_worker_writes_every_game_once_in_round_order(
    cluster: str,
) -> None:
    """A worker busy with a game is killed: the game is played again, and the games come out
    once each, in round order. (A game's end is heard while the other worker may still be in
    the middle of one; the first time one is, it is killed.)"""
    games = tasks("kradan:level=2", "random", "makruk", 10, TimeControl(2, 0.05), max_plies=40)
    executor = make_executor("ray")
    killed: list[int] = []

    def on_done(count: int, record: object) -> None:
        deadline = time.monotonic() + 0.5
        while not killed and time.monotonic() < deadline:
            pids = _ray_worker_pids()  # a worker in the middle of a game
            if pids:
                os.kill(pids[0], 9)
                killed.append(pids[0])
            else:
                time.sleep(0.01)

    written = []
    result = run_match(games, 2, written.append, executor=executor, on_done=on_done)
    assert killed and executor.replayed >= 1
    rounds = [int(re.search(r'\[Round "(\d+)"\]', g.pgn).group(1)) for g in written]  # type: ignore[union-attr]
    assert rounds == list(range(1, 11))
    assert len(result.games) == 10


def test_the_same_match_gives_the_same_games_on_either_backend(cluster: str) -> None:
    games = tasks("random", "random", "makruk", 6, TimeControl(10, 0), max_plies=60)
    with make_executor("local", 2) as local:
        pooled = run_match(games, 2, executor=local)
    on_ray = run_match(games, 2, executor=make_executor("ray"))
    assert [(g.result, g.moves) for g in pooled.games] == [
        (g.result, g.moves) for g in on_ray.games
    ]


def test_a_game_review_on_the_cluster_gives_the_local_pools_marks(cluster: str) -> None:
    """Game review (issue 45): every position searched on the cluster's two nodes gives the
    review the local pool gives, marks and all, however the positions are split."""
    from kradan import Board
    from kradan.engine.types import Limit
    from kradan.runners.review import review_game

    board = Board()
    moves = "g1e2 d6d5 h3h4 e6e5 h1h2 g8e7 e3e4 a6a5 e2f4 h8h7 f1e2 f8g7 a3a4 c6c5 b1d2 d5e4"
    for uci in moves.split():  # random moves: a game with marks
        board.push_uci(uci)
    limit = Limit(depth=5)
    with make_executor("local", 2) as local:
        pooled = review_game(board, limit, executor=local)
    on_ray = review_game(board, limit, executor=make_executor("ray"), chunk=2)
    assert on_ray.marks() == pooled.marks() and any(pooled.marks())
    assert on_ray.as_json() == pooled.as_json()


def _kradan(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "kradan", *argv], capture_output=True,
                          text=True, timeout=300, env={**os.environ, **(env or {})})  # fmt: skip


def test_the_match_command_runs_on_the_cluster_by_address(cluster: str, tmp_path: Path) -> None:
    pgn = tmp_path / "match.pgn"
    done = _kradan("match", "random", "random", "--games", "4", "--tc", "5+0", "--pgn", str(pgn),
                   "--executor", "ray", "--address", cluster)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"on the Ray cluster at {cluster}: 2 nodes, 2 CPUs" in done.stderr
    assert re.findall(r'\[Round "(\d+)"\]', pgn.read_text()) == ["1", "2", "3", "4"]
    assert "4 games" in done.stdout


def test_the_annotate_command_runs_on_the_cluster_named_by_ray_address(
    cluster: str, tmp_path: Path
) -> None:
    source, local_out, ray_out = tmp_path / "g.pgn", tmp_path / "a.pgn", tmp_path / "b.pgn"
    assert _kradan("match", "random", "random", "--games", "6", "--tc", "5+0", "--max-plies",
                   "20", "--pgn", str(source)).returncode == 0  # fmt: skip
    here = _kradan("analyse", str(source), "--annotate", str(local_out), "--depth", "2")
    there = _kradan("analyse", str(source), "--annotate", str(ray_out), "--depth", "2",
                    env={"RAY_ADDRESS": cluster})  # fmt: skip
    assert here.returncode == 0 and there.returncode == 0, there.stderr
    assert "on the Ray cluster" in there.stderr and "6 games" in there.stdout
    assert local_out.read_text() == ray_out.read_text()  # the same games, in the file's order


def test_an_unreachable_cluster_is_a_typed_error(tmp_path: Path) -> None:
    done = _kradan("match", "random", "random", "--games", "2", "--executor", "ray",
                   "--address", "127.0.0.1:9")  # fmt: skip
    assert done.returncode == 2
    assert "kradan: error: cannot reach the Ray cluster at '127.0.0.1:9'" in done.stderr
    assert "Traceback" not in done.stderr
    assert issubclass(ExecutorError, RuntimeError)


def _raylets() -> int:
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if b"raylet" in (entry / "cmdline").read_bytes().split(b"\0")[0]:
                    count += 1
            except OSError:
                continue
    return count


def test_a_private_ray_instance_is_started_and_shut_down(cluster: str, tmp_path: Path) -> None:
    """``--executor ray`` with no address: a Ray instance of ``--concurrency`` CPUs on this
    machine, for this command only."""
    before = _raylets()
    environment = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    done = subprocess.run(
        [sys.executable, "-m", "kradan", "match", "random", "random", "--games", "4",
         "--tc", "5+0", "--executor", "ray", "--concurrency", "2"],
        capture_output=True, text=True, timeout=300, env=environment,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "on Ray on this machine: 1 node, 2 CPUs" in done.stderr
    assert "4 games" in done.stdout
    for _ in range(50):
        if _raylets() == before:
            break
        time.sleep(0.2)
    assert _raylets() == before  # its raylet is gone with it
