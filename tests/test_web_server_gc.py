"""``create_app(freeze_startup=True)``, as ``kradan serve`` runs it: what exists once the
server has started is frozen out of the garbage collector's sight, the youngest generation is
collected less often, and both are undone when the server stops."""

from __future__ import annotations

import gc
from pathlib import Path

from kradan.web import create_app
from kradan.web.server import YOUNG_OBJECTS

from .web_helpers import BASE, TestClient, create, database_url, move


def test_a_serving_process_freezes_its_startup_and_thaws_it_when_it_stops(tmp_path: Path) -> None:
    before = gc.get_threshold()
    frozen_before = gc.get_freeze_count()
    app = create_app(database_url(tmp_path), freeze_startup=True)
    with TestClient(app, base_url=BASE) as client:
        assert gc.get_freeze_count() > frozen_before
        assert gc.get_threshold() == (YOUNG_OBJECTS, *before[1:])
        created = create(client, opponent="human")  # the server still works, of course
        assert move(client, created["id"], created["token"], "e3e4")["ply"] == 1
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_plain_app_leaves_the_collector_alone(tmp_path: Path) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(database_url(tmp_path)), base_url=BASE):
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() == 0
