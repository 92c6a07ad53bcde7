"""Shared fixtures: the reference positions (tests/reference is a copy of ../shared/reference)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

REFERENCE_DIR = Path(__file__).parent / "reference"


@cache
def reference_rows(variant: str) -> list[dict[str, Any]]:
    """Rows of ``<variant>.jsonl``: positions from seeded random games, with verified answers."""
    path = REFERENCE_DIR / f"{variant}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@cache
def spec_positions(variant: str | None = None) -> list[dict[str, Any]]:
    """The hand-picked positions of docs/rules.md section 9 (``spec_positions.json``)."""
    data = json.loads((REFERENCE_DIR / "spec_positions.json").read_text(encoding="utf-8"))
    rows = data["positions"]
    return [row for row in rows if variant is None or row["variant"] == variant]


def row_id(row: dict[str, Any]) -> str:
    """A short test id for a reference row."""
    return str(row.get("id") or row["fen"])


# --- the browser tests' server and Chromium (tests/browser_support.py has the rest) ------------


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a real ``kradan serve`` on a temporary database, shared by every browser test."""
    from benchmarks.loopback import free_port
    from tests.browser_support import start_server, stop_server

    database = tmp_path_factory.mktemp("web") / "games.db"
    port = free_port()
    process = start_server(
        f"sqlite+aiosqlite:///{database}", port, tmp_path_factory.getbasetemp() / "server.log"
    )
    yield f"http://127.0.0.1:{port}"
    stop_server(process)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, launched with its path and nothing else."""
    from tests.browser_support import CHROMIUM

    return {**browser_type_launch_args, "executable_path": CHROMIUM}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1100, "height": 820}}


# --- a throw-away PostgreSQL cluster for the storage tests (benchmarks/postgres_cluster.py) -----


@pytest.fixture(scope="session")
def postgresql_cluster() -> Iterator[Any]:
    """A PostgreSQL server of its own (initdb into a temporary folder, 127.0.0.1, a free port),
    stopped at the end of the session; skips when PostgreSQL's programs are missing."""
    from benchmarks.postgres_cluster import Cluster, find_bindir

    bindir, why = find_bindir()
    if bindir is None:
        pytest.skip(why)
    cluster = Cluster(bindir).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def postgresql(postgresql_cluster: Any) -> str:
    """The ``postgresql+asyncpg://`` URL of a database made for the session."""
    url: str = postgresql_cluster.new_database()
    return url
