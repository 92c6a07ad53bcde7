"""``POST /api/analysis`` and ``/api/analysis/socket`` (:mod:`kradan.web.analysis`): the lines
in UCI, SAN and Thai SAN, the endgame tables' verdict with the count, bad input refused with a
message that quotes it (and nothing started), live lines over the socket where the latest
request wins, ``stop`` ends a search and a closed socket stops it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

import kradan
from kradan.games import new_board

from .web_helpers import database_url, serving, wait_for

if TYPE_CHECKING:
    from fastapi.testclient import TestClient

START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with serving(database_url(tmp_path_factory.mktemp("analysis"))) as client:
        yield client


def analyse(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/analysis", json={"movetime_ms": 200, **body})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def idle(client: TestClient) -> bool:
    pool = client.app.state.pool  # type: ignore[attr-defined]
    return not pool.running and not pool.queue


def check_lines(board: Any, answer: dict[str, Any], multipv: int, thai: bool) -> None:
    """Each line is legal from ``board`` and written as the board writes it."""
    assert answer["fen"] == board.fen() and answer["depth"] >= 1
    lines = answer["lines"]
    assert [line["multipv"] for line in lines] == list(range(1, multipv + 1))
    firsts = [line["moves"][0] for line in lines]
    assert len(set(firsts)) == multipv  # different root moves
    for line in lines:
        assert len(line["score"]) == 1 and set(line["score"]) <= {"cp", "mate"}
        assert line["depth"] == answer["depth"] and line["nodes"] >= 1
        work = board.copy()
        san, thai_san = [], []
        for uci in line["moves"]:
            move = work.parse_uci(uci)
            san.append(work.san(move))
            if thai:
                thai_san.append(work.san(move, "thai"))
            work.push(move)
        assert line["san"] == san
        assert line["thai_san"] == (thai_san if thai else None)


def test_the_start_position_has_lines_in_san_and_thai_san(client: TestClient) -> None:
    answer = analyse(client, variant="makruk", multipv=3)
    check_lines(new_board("makruk"), answer, 3, thai=True)
    assert answer["table"] is None
    assert idle(client)


def test_moves_from_a_fen_and_rule_options(client: TestClient) -> None:
    moves = ["e3e4", "d6d5"]
    answer = analyse(client, variant="cambodian", moves=moves, options={"counting": "declared"})
    board = new_board("cambodian", counting="declared")
    for uci in moves:
        board.push_uci(uci)
    check_lines(board, answer, 1, thai=True)


def test_alquerque_has_no_thai_san(client: TestClient) -> None:
    answer = analyse(client, variant="alquerque", multipv=2)
    check_lines(new_board("alquerque"), answer, 2, thai=False)


def test_the_tables_verdict_with_the_count(client: TestClient) -> None:
    win = analyse(client, fen="8/8/3k4/8/8/3K4/8/R7 w - 32 3 40")["table"]
    assert win["result"] == "win" and win["table"] == "KRvK"
    assert win["mate_in"] == 12 and win["plies"] == 23
    assert win["text"].startswith("win: mate in 12 (23 plies, KRvK), the count allows 15")
    assert win["count"]["moves_left"] == 15 and win["count"]["fits"] is True
    assert win["best_move"] is not None and win["best_san"] == "Kd4"
    draw = analyse(client, fen="8/8/8/4k3/8/8/8/R3K3 b - 32 10 40")["table"]
    assert draw["result"] == "draw" and draw["mate_in"] is None
    assert draw["text"].startswith("draw: the count runs out first")
    assert draw["count"] == {
        "honour": "pieces' honour", "moves_left": 11, "fits": False, "exact": True,
        "text": "pieces' honour: the count runs out first: it allows 11 moves",
    }  # fmt: skip


def test_a_finished_game_has_no_lines(client: TestClient) -> None:
    board = kradan.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    board.push_uci("h1h8")
    assert board.is_checkmate()
    answer = analyse(client, fen="k7/8/1K6/8/8/8/8/7R w - - 0 1", moves=["h1h8"])
    assert answer == {"fen": board.fen(), "depth": 0, "nodes": 0, "lines": [], "table": None,
                      "proven": None}  # fmt: skip


BAD = [
    ({"variant": "chess"}, 400, "'chess'"),
    ({"fen": "xx"}, 400, "'xx'"),
    ({"moves": ["e3e4", "e6e4"]}, 400, "'e6e4'"),
    ({"moves": ["zz"]}, 400, "'zz'"),
    ({"options": {"counting": "never"}}, 400, "'never'"),
    ({"options": {"colour": "red"}}, 400, "colour"),
    ({"multipv": 6}, 400, "multipv"),
    ({"multipv": 0}, 400, "multipv"),
    ({"multipv": "2"}, 400, '"2"'),
    ({"movetime_ms": 60_000}, 400, "movetime_ms"),
    ({"movetime_ms": True}, 400, "movetime_ms"),
    ({"moves": "e3e4"}, 400, '"e3e4"'),
    ({"fen": 12}, 400, "fen"),
    ({"depth": 3}, 400, "depth"),
    ({"variant": "x" * 41}, 400, "variant"),
]


@pytest.mark.parametrize(("body", "status", "quoted"), BAD)
def test_bad_input_is_refused_quoting_it(
    client: TestClient, body: dict[str, Any], status: int, quoted: str
) -> None:
    response = client.post("/api/analysis", json=body)
    assert response.status_code == status, response.text
    assert quoted in response.json()["error"]
    assert idle(client)


def test_bodies_that_are_no_json_or_too_large_are_refused(client: TestClient) -> None:
    response = client.post(
        "/api/analysis", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400 and "JSON" in response.json()["error"]
    large = {"moves": ["e3e4"] * 1000}
    response = client.post("/api/analysis", json=large)
    assert response.status_code == 413
    assert client.post("/api/analysis", json=[1, 2]).status_code == 400
    assert idle(client)


def test_another_sites_page_may_not_use_the_engine(client: TestClient) -> None:
    response = client.post(
        "/api/analysis", json={}, headers={"origin": "https://elsewhere.example"}
    )
    assert response.status_code == 403 and "elsewhere.example" in response.json()["error"]


def test_errors_come_in_the_readers_language(client: TestClient) -> None:
    response = client.post(
        "/api/analysis", json={"moves": ["e3e5"]}, headers={"accept-language": "th"}
    )
    assert response.status_code == 400
    assert response.json()["error"] == (
        f"เดิน 'e3e5' ไม่ได้ในตำแหน่ง {START!r}: the pawn on e3 can go to e4"
    )
    with client.websocket_connect(
        "/api/analysis/socket", headers={"accept-language": "th"}
    ) as socket:
        socket.send_text("[1]")
        assert socket.receive_json()["error"] == "ต้องเป็นออบเจกต์ที่มี 't' ไม่ใช่ '[1]'"


def test_the_api_is_documented(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    operation = schema["paths"]["/api/analysis"]["post"]
    assert operation["summary"] == "Analyse a position"
    names = set(schema["components"]["schemas"])
    assert {"AnalysisBody", "AnalysisView", "LineView", "TableView"} <= names


# --- the socket --------------------------------------------------------------------------------


def receive_until_done(socket: Any, ident: Any) -> list[dict[str, Any]]:
    """The socket's messages up to the last lines of request ``ident``."""
    found = []
    while True:
        message = socket.receive_json()
        found.append(message)
        if message["t"] == "lines" and message["id"] == ident and message["done"]:
            return found


def test_the_socket_streams_deeper_lines_then_the_last(client: TestClient) -> None:
    with client.websocket_connect("/api/analysis/socket") as socket:
        socket.send_json({"t": "analyse", "id": "a", "multipv": 2, "movetime_ms": 800})
        messages = receive_until_done(socket, "a")
    depths = [message["depth"] for message in messages]
    assert all(message["t"] == "lines" and message["id"] == "a" for message in messages)
    assert depths == sorted(depths) and len(messages) >= 2
    assert [message["done"] for message in messages] == [False] * (len(messages) - 1) + [True]
    check_lines(new_board("makruk"), messages[-1], 2, thai=True)
    wait_for(lambda: idle(client), timeout=10)


def test_the_latest_request_wins(client: TestClient) -> None:
    board = new_board("makruk")
    board.push_uci("e3e4")
    with client.websocket_connect("/api/analysis/socket") as socket:
        socket.send_json({"t": "analyse", "id": 1, "movetime_ms": 60_000})
        first = socket.receive_json()
        assert first["id"] == 1 and not first["done"]
        socket.send_json({"t": "analyse", "id": 2, "moves": ["e3e4"], "movetime_ms": 300})
        messages = receive_until_done(socket, 2)
    # after the newer request, no line of the older one is sent... (one may have been on its
    # way): the last ones are all the new request's, on its position
    assert messages[-1]["fen"] == board.fen()
    tail = [message["id"] for message in messages]
    assert tail[tail.index(2) :] == [2] * (len(tail) - tail.index(2))
    wait_for(lambda: idle(client), timeout=10)


def test_stop_ends_the_search_with_its_lines(client: TestClient) -> None:
    with client.websocket_connect("/api/analysis/socket") as socket:
        socket.send_json({"t": "analyse", "id": 7, "movetime_ms": 60_000})
        assert socket.receive_json()["id"] == 7
        socket.send_json({"t": "stop"})
        last = receive_until_done(socket, 7)[-1]
        assert last["lines"] and last["done"]
    wait_for(lambda: idle(client), timeout=10)


def test_closing_the_socket_stops_its_search(client: TestClient) -> None:
    with client.websocket_connect("/api/analysis/socket") as socket:
        socket.send_json({"t": "analyse", "id": 1, "movetime_ms": 60_000})
        assert socket.receive_json()["t"] == "lines"
        assert not idle(client)
    wait_for(lambda: idle(client), timeout=10)


SOCKET_BAD = [
    ("not json", 400, "'not json'"),
    ("[1, 2]", 400, "'t'"),
    ('{"type": "analyse"}', 400, "'t'"),
    ('{"t": "think"}', 400, "'think'"),
    ('{"t": "analyse", "id": 3, "fen": "bad"}', 400, "'bad'"),
    ('{"t": "analyse", "id": 3, "moves": ["e3e5"]}', 400, "'e3e5'"),
    ('{"t": "analyse", "id": 3, "multipv": 9}', 400, "multipv"),
    ('{"t": "analyse", "id": [1]}', 400, "id"),
    ('{"t": "analyse", "variant": "go"}', 400, "'go'"),
    ('{"t": "stop", "now": true}', 400, "now"),
    ("x" * 5000, 413, "5000"),
]


def test_bad_messages_get_an_error_and_the_socket_goes_on(client: TestClient) -> None:
    with client.websocket_connect("/api/analysis/socket") as socket:
        for text, status, quoted in SOCKET_BAD:
            socket.send_text(text)
            error = socket.receive_json()
            assert error["t"] == "error" and error["status"] == status, (text, error)
            assert quoted in error["error"], (text, error)
        socket.send_bytes(b"\x00\x01")
        assert socket.receive_json()["status"] == 400
        assert idle(client)
        socket.send_text(json.dumps({"t": "analyse", "id": 9, "movetime_ms": 100}))
        assert receive_until_done(socket, 9)[-1]["lines"]
