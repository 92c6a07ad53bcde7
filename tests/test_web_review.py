"""kradan.web.review_api: ``POST``/``GET /api/games/{id}/analysis``: an ended game reviewed in
the background through the executor seam, the review stored and kept across a restart, and
every bad request a 4xx with one message that changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web_helpers import act, create, database_url, move, serving, wait_for

#: White's Ra2 lets ...Rb1 mate (tests/test_review.py)
#: the marks' thresholds, as docs/review.md gives them (a drop in the mover's expected score)
THRESHOLDS = {"?!": 0.05, "?": 0.10, "??": 0.15}
MATE_START = "1r6/8/8/8/8/7k/8/R6K w - - 0 1"


def mated_game(client: Any) -> str:
    """A game between people that ends 1. Ra2?? Rb1#."""
    made = create(client, variant="makruk", opponent="human", fen=MATE_START)
    move(client, made["id"], made["token"], "a1a2")
    move(client, made["id"], made["invite"], "b8b1")
    return str(made["id"])


def done(client: Any, game_id: str) -> dict[str, Any]:
    def finished() -> dict[str, Any] | None:
        state: dict[str, Any] = client.get(f"/api/games/{game_id}/analysis").json()
        return state if state["status"] in ("done", "failed") else None

    found: dict[str, Any] = wait_for(finished, timeout=180)
    return found


def test_a_review_runs_in_the_background_and_outlives_a_restart(tmp_path: Path) -> None:
    url = database_url(tmp_path)
    with serving(url) as client:
        game_id = mated_game(client)
        assert client.get(f"/api/games/{game_id}/analysis").json() == {
            "status": "none", "progress": 0.0, "plies": [], "thresholds": THRESHOLDS}  # fmt: skip
        started = client.post(f"/api/games/{game_id}/analysis", json={"depth": 4})
        assert started.status_code == 202
        assert started.json()["status"] in ("queued", "running", "done")
        again = client.post(f"/api/games/{game_id}/analysis", json={"depth": 4})
        assert again.status_code == 202  # the same review, not a second one
        state = done(client, game_id)
        assert state["status"] == "done" and state["progress"] == 1.0, state
        assert state["limit"] == "depth 4"
        assert state["thresholds"] == THRESHOLDS  # what "find a better move" accepts
        plies = state["plies"]
        assert [(p["ply"], p["san"], p["mark"]) for p in plies] == [
            (1, "Ra2", "??"),
            (2, "Rb1#", None),
        ]
        assert plies[0]["score"] == {"mate": -1} and plies[0]["best"]["uci"] != "a1a2"
        assert plies[0]["best"]["san"] and plies[0]["best"]["line"][0] == plies[0]["best"]["san"]
        assert plies[1]["score"] == {"cp": -2000} and plies[1]["expected"] == 0.0
        assert state["summary"]["white"]["blunders"] == 1
        assert state["summary"]["black"] == {"moves": 1, "inaccuracies": 0, "mistakes": 0,
                                             "blunders": 0, "average_loss": 0.0,
                                             "average_cp_loss": 0.0}  # fmt: skip
        # once done, asking again gives the stored review and starts nothing
        assert client.post(f"/api/games/{game_id}/analysis").json() == state
    with serving(url) as client:
        assert client.get(f"/api/games/{game_id}/analysis").json() == state


def test_the_api_documents_the_review() -> None:
    from kradan.web import create_app

    schema = create_app("sqlite+aiosqlite:///:memory:").openapi()
    path = schema["paths"]["/api/games/{game_id}/analysis"]
    assert set(path) == {"get", "post"}
    assert "202" in path["post"]["responses"] and "409" in path["post"]["responses"]
    assert {"status", "progress", "plies", "summary"} <= set(
        schema["components"]["schemas"]["ReviewView"]["properties"]
    )


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with serving(database_url(tmp_path_factory.mktemp("review"))) as found:
        yield found


@pytest.mark.parametrize(
    ("body", "words"),
    [({"depth": 0}, "depth: Input should be greater than or equal to 1 (got 0)"),
     ({"depth": 17}, "depth: Input should be less than or equal to 16 (got 17)"),
     ({"nodes": "1000"}, 'nodes: Input should be a valid integer (got "1000")'),
     ({"depth": 4, "time": 1}, "time: Extra inputs are not permitted (got 1)"),
     ([4], "Input should be a valid dictionary")],
)  # fmt: skip
def test_a_bad_body_is_a_400_that_starts_nothing(client: Any, body: Any, words: str) -> None:
    game_id = mated_game(client)
    answer = client.post(f"/api/games/{game_id}/analysis", json=body)
    assert answer.status_code == 400 and words in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"


def test_malformed_json_is_a_400(client: Any) -> None:
    game_id = mated_game(client)
    answer = client.post(f"/api/games/{game_id}/analysis", content=b'{"depth": ',
                         headers={"content-type": "application/json"})  # fmt: skip
    assert answer.status_code == 400 and "malformed JSON" in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"


def test_a_game_in_play_or_without_moves_cannot_be_reviewed(client: Any) -> None:
    playing = create(client, variant="makruk", opponent="human")
    answer = client.post(f"/api/games/{playing['id']}/analysis")
    assert answer.status_code == 409
    assert answer.json() == {"error": f"game {playing['id']!r} is still being played: review "
                                      "it once it has ended"}  # fmt: skip
    resigned = create(client, variant="makruk", opponent="human")
    assert act(client, resigned["id"], resigned["token"], "resign").status_code == 200
    answer = client.post(f"/api/games/{resigned['id']}/analysis")
    assert answer.status_code == 409
    assert answer.json() == {"error": f"game {resigned['id']!r} has no moves to review"}
    for game_id in (playing["id"], resigned["id"]):
        assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"


@pytest.mark.parametrize("game_id", ["zzzzzzzzzzzz", "short", "has space!!!"])
def test_an_unknown_game_is_a_404(client: Any, game_id: str) -> None:
    for method in (client.get, client.post):
        answer = method(f"/api/games/{game_id}/analysis")
        assert answer.status_code == 404 and "unknown game" in answer.json()["error"]


def test_a_review_asked_for_by_another_site_is_refused(client: Any) -> None:
    game_id = mated_game(client)
    answer = client.post(f"/api/games/{game_id}/analysis",
                         headers={"origin": "https://elsewhere.example"})  # fmt: skip
    assert answer.status_code == 403 and "cross-origin" in answer.json()["error"]
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"


def test_refusals_answer_in_the_readers_language(client: Any) -> None:
    playing = create(client, variant="makruk", opponent="human")
    answer = client.post(f"/api/games/{playing['id']}/analysis",
                         headers={"accept-language": "th"})  # fmt: skip
    assert answer.status_code == 409 and "ยังเล่นอยู่" in answer.json()["error"]


def test_a_failed_review_says_why_and_asking_again_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kradan.executors
    from kradan.errors import ExecutorError

    real = kradan.executors.make_executor

    def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise ExecutorError("cannot reach the Ray cluster at '127.0.0.1:9'")

    monkeypatch.setattr(kradan.executors, "make_executor", unreachable)
    with serving(database_url(tmp_path)) as client:
        game_id = mated_game(client)
        assert client.post(f"/api/games/{game_id}/analysis", json={"depth": 3}).status_code == 202
        state = done(client, game_id)
        assert state["status"] == "failed" and "cannot reach the Ray cluster" in state["error"]
        monkeypatch.setattr(kradan.executors, "make_executor", real)
        assert client.post(f"/api/games/{game_id}/analysis", json={"depth": 3}).status_code == 202
        assert done(client, game_id)["status"] == "done"


def test_storing_a_review_leaves_the_live_games_writer_free(tmp_path: Path) -> None:
    """Bug (fuzz/web.py's review kind: 2 of 10^5 inputs, a 500 "database is locked" on a new
    game): the finished review was stored through the async driver, its transaction holding
    the SQLite file's write lock across awaits, while the live games' store writes on the event
    loop's own thread and waited for that lock. Neither went on until the busy timeout failed
    the game's write. Here a writer like the store's runs at every turn of the loop while
    reviews are stored: none of its writes may fail."""
    import asyncio
    import sqlite3
    from concurrent.futures import ThreadPoolExecutor

    from kradan.web import storage
    from kradan.web.review_api import Reviews

    url = database_url(tmp_path)
    with serving(url) as client:
        for _ in range(8):
            create(client, variant="makruk", opponent="human")
    path = tmp_path / "games.db"
    with sqlite3.connect(path) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM games")]
    assert len(ids) == 8

    async def main() -> list[str]:
        engine = storage.make_engine(url)
        reviews = Reviews(engine)
        writer = sqlite3.connect(path, timeout=2.0, isolation_level=None)
        writer.execute("PRAGMA synchronous=OFF")
        failures: list[str] = []

        async def write_at_every_turn(until: asyncio.Future[Any]) -> None:
            while not until.done():
                try:
                    writer.execute("BEGIN IMMEDIATE")
                    writer.execute("UPDATE games SET ply = ply WHERE id = ?", (ids[0],))
                    writer.execute("COMMIT")
                except sqlite3.OperationalError as error:
                    failures.append(str(error))
                    if writer.in_transaction:
                        writer.execute("ROLLBACK")
                await asyncio.sleep(0)

        try:
            stored = asyncio.gather(
                *(reviews.store(game_id, "depth 1", {"plies": []}) for game_id in ids)
            )
            await asyncio.gather(stored, write_at_every_turn(stored))
            assert all([await reviews.stored(game_id) for game_id in ids])
        finally:
            writer.close()
            await reviews.close()
            await engine.dispose()
        return failures

    with ThreadPoolExecutor(1) as thread:  # an event loop of its own (Playwright may hold one)
        assert thread.submit(asyncio.run, main()).result() == []
