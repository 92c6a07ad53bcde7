"""``kradan solve alquerque-bell`` (issue 48): a small root solved through the task split, its
proofs walked by ``--check``, and the same values on the local pool and on Ray."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kradan.alquerque import Board
from kradan.cli.main import main
from kradan.executors import make_executor
from kradan.solve.tasks import Driver

#: White to move loses (tests/test_solve.py); its three moves are tasks at depth 1
SMALL = "P2p1/p1p2/p3p/P4/P4 w - 0 12 e3:e5c1,a5:e3c3,d5:c5"


def test_solve_then_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "db")
    common = ["solve", "alquerque-bell", "--db", db, "--position", SMALL, "--depth", "1"]
    assert main([*common, "--nodes", "50"]) == 0  # small budgets: tasks are split again
    out, err = capsys.readouterr()
    assert "depth 1: 3 positions, 3 won and 0 lost" in out
    assert "lost for the side to move" in out and "root proof/disproof" in err
    assert main([*common, "--check"]) == 0
    out, _ = capsys.readouterr()
    assert "proven: White to move loses" in out
    assert out.count("proven: Black to move wins") == 3


def test_bad_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "alquerque-bell", "--db", str(tmp_path), "--nodes", "0"]) == 2
    assert "--nodes 0" in capsys.readouterr().err


def _values(executor_name: str, directory: Path) -> dict[str, bool | None]:
    root = Board(SMALL, variant="alquerque-bell")
    driver = Driver(root, str(directory), split_depth=1, max_nodes=100)
    with make_executor(executor_name, 2) as executor:
        driver.run(executor, in_flight=2)
    driver.close()
    return {node.text: node.win for node in driver.nodes.values() if node.depth <= 1}


def test_local_pool_and_ray_prove_the_same_values(tmp_path: Path) -> None:
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'kradan[ray]')")
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    local = _values("local", tmp_path / "local")
    on_ray = _values("ray", tmp_path / "ray")
    assert local == on_ray
    assert local[SMALL] is False and len(local) == 4
