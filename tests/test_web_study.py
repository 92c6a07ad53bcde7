"""The analysis board's server side (kradan/web/study.py, issue 45 items 2 and 4): a line of
moves played from any start, and PGN read into and written from the board's tree. Every answer
is checked against kradan's own board; bad input is a 4xx that quotes it."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kradan import Board
from kradan.games import find_game
from kradan.pgn import read_game
from kradan.web.study import MAX_PGN

from .web_helpers import database_url, serving


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with serving(database_url(tmp_path_factory.mktemp("study"))) as made:
        yield made


def line(client: Any, **body: Any) -> Any:
    return client.post("/api/line", json=body)


def test_a_line_gives_every_position_and_the_moves_written_as_kradan_writes_them(
    client: Any,
) -> None:
    answer = line(client, variant="makruk", moves=["e3e4", "d6d5", "e4d5"])
    assert answer.status_code == 200, answer.text
    view = answer.json()
    board = Board()
    positions, sans = [board.fen(show_promoted=True)], []
    for uci in ["e3e4", "d6d5", "e4d5"]:
        move = board.parse_uci(uci)
        sans.append(board.san(move))
        board.push(move)
        positions.append(board.fen(show_promoted=True))
    assert view["positions"] == positions
    assert view["san"] == sans == ["e4", "d5", "exd5"]
    assert view["thai_san"] == [
        find_game("makruk").new_board().san(Board().parse_uci("e3e4"), "thai"),
        *view["thai_san"][1:],
    ]
    assert len(view["thai_san"]) == 3
    assert view["move_squares"] == [["e3", "e4"], ["d6", "d5"], ["e4", "d5"]]
    assert view["turn"] == "black"
    assert view["legal_moves"] == sorted(m.uci() for m in board.legal_moves)
    assert view["outcome"] is None and view["check"] is None


def test_a_mate_ends_the_line_with_its_outcome_and_no_legal_move(client: Any) -> None:
    # Black's king on a8 is mated by the rook's move to the eighth rank
    view = line(client, variant="makruk", fen="k7/8/1K6/8/8/8/8/7R w - - 0 1", moves=["h1h8"])
    data = view.json()
    assert data["outcome"] == {"result": "1-0", "termination": "checkmate"}
    assert data["legal_moves"] == []
    # the position before the mate is in check nowhere; after it the line is over
    assert data["check"] is None


def test_the_check_square_is_the_checked_kings(client: Any) -> None:
    data = line(client, variant="makruk", fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                moves=["a1a8"]).json()  # fmt: skip
    assert data["check"] == "e8"
    assert data["outcome"] is None


def test_an_illegal_move_is_refused_with_its_ply_and_the_move_quoted(client: Any) -> None:
    answer = line(client, variant="makruk", moves=["e3e4", "e3e5"])
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert "ply 2" in error and "'e3e5'" in error


@pytest.mark.parametrize(
    ("body", "quoted"),
    [
        ({"variant": "chaturanga"}, "'chaturanga'"),
        ({"variant": "makruk", "fen": "8/8/8"}, "'8/8/8'"),
        ({"variant": "makruk", "options": {"counting": "never"}}, "never"),
    ],
)
def test_a_bad_start_is_a_400_quoting_it(client: Any, body: dict[str, Any], quoted: str) -> None:
    answer = line(client, **body)
    assert answer.status_code == 400, answer.text
    assert quoted in answer.json()["error"]


def test_a_body_of_the_wrong_shape_is_a_400(client: Any) -> None:
    assert line(client, variant="makruk", moves="e3e4").status_code == 400
    assert line(client, variant="makruk", moves=[], extra=1).status_code == 400


def test_an_odd_start_is_played_with_its_warnings(client: Any) -> None:
    data = line(client, variant="makruk", fen="4k3/8/8/8/8/8/4r3/R3K2R b - - 0 1").json()
    assert data["warnings"] == ["the side not to move is in check"]
    assert data["legal_moves"]


def test_declared_counts_are_entries_of_the_line(client: Any) -> None:
    start = "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"
    before = line(client, variant="makruk", options={"counting": "declared"}, fen=start).json()
    assert before["can_declare_count"] is True and before["can_stop_count"] is False
    data = line(client, variant="makruk", options={"counting": "declared"}, fen=start,
                moves=["count:declare", "d2d3"]).json()  # fmt: skip
    board = find_game("makruk").new_board(start, counting="declared")
    board.declare_count()
    board.push_uci("d2d3")
    assert data["fen"] == board.fen(show_promoted=True)
    assert data["counting"] == str(board.counting_state())
    assert data["moves"] == ["count:declare", "d2d3"]
    # the automatic counting of the usual rules has no declaration to make
    refused = line(client, variant="makruk", fen=start, moves=["count:declare"])
    assert refused.status_code == 409


def test_alquerque_lines_have_no_thai_san(client: Any) -> None:
    data = line(client, variant="alquerque", moves=["b2c3"]).json()
    assert data["thai_san"] is None
    assert data["moves"] == ["b2c3"] and data["move_squares"] == [["b2", "c3"]]


PGN = """[Event "study"]
[Variant "makruk"]

{before} 1. e4 d5 (1... c5 {a comment} 2. Nd2 $1) 2. exd5 $4 *
"""


def test_pgn_is_read_into_the_tree_and_written_back_the_same(client: Any) -> None:
    answer = client.post("/api/pgn/read", json={"pgn": PGN})
    assert answer.status_code == 200, answer.text
    tree = answer.json()
    assert tree["variant"] == "makruk" and tree["comment"] == "before"
    first, main, last = tree["moves"]
    assert first["san"] == "e4" and first["uci"] == "e3e4" and first["thai_san"]
    assert main["san"] == "d5" and last["san"] == "exd5" and last["nags"] == [4]
    [side] = main["variations"]
    assert [node["san"] for node in side] == ["c5", "Nd2"]
    assert side[0]["comment"] == "a comment" and side[1]["nags"] == [1]
    written = client.post("/api/pgn/write", json=tree)
    assert written.status_code == 200, written.text
    again = read_game(io.StringIO(written.text))
    original = read_game(io.StringIO(PGN))
    assert again is not None and original is not None
    assert str(again).split("\n\n", 1)[1] == str(original).split("\n\n", 1)[1]
    assert again.headers["Event"] == "study"


def test_a_tree_with_an_illegal_move_is_refused(client: Any) -> None:
    tree = {"variant": "makruk", "moves": [{"uci": "e3e4"}, {"uci": "e6e4"}]}
    answer = client.post("/api/pgn/write", json=tree)
    assert answer.status_code == 422
    assert "'e6e4'" in answer.json()["error"] and "ply 2" in answer.json()["error"]


def test_pgn_that_cannot_be_read_is_a_400_and_large_pgn_has_its_own_limit(client: Any) -> None:
    answer = client.post("/api/pgn/read", json={"pgn": '[Variant "makruk"]\n\n1. e5 *\n'})
    assert answer.status_code == 400
    assert "e5" in answer.json()["error"]
    # more than the API's 4 KiB, less than the PGN routes' limit: read
    long_game = '[Variant "makruk"]\n\n' + "{" + "x" * 6000 + "} 1. e4 *\n"
    assert client.post("/api/pgn/read", json={"pgn": long_game}).status_code == 200
    too_long = client.post("/api/pgn/read", json={"pgn": "x" * (MAX_PGN + 10)})
    assert too_long.status_code == 413
    # the other routes keep the small limit
    assert line(client, variant="makruk", fen="x" * 5000).status_code == 413


def test_a_long_game_reads_and_writes_without_nesting(client: Any) -> None:
    """A line is a list: 300 plies are no 300 nested levels (pydantic refuses those)."""
    board = Board()
    moves = []
    while len(moves) < 300 and board.outcome() is None:
        move = sorted(board.legal_moves, key=lambda m: m.uci())[
            len(moves) % 3 % max(1, len(list(board.legal_moves)))
        ]
        moves.append(move.uci())
        board.push(move)
    data = line(client, variant="makruk", moves=moves).json()
    tree = {"variant": "makruk", "moves": [{"uci": uci} for uci in data["moves"]]}
    written = client.post("/api/pgn/write", json=tree)
    assert written.status_code == 200, written.text
    read = client.post("/api/pgn/read", json={"pgn": written.text})
    assert read.status_code == 200, read.text
    assert [node["uci"] for node in read.json()["moves"]] == data["moves"]


def test_the_pages_are_served(client: Any, tmp_path: Path) -> None:
    for path in ("/analysis", "/editor"):
        page = client.get(path)
        assert page.status_code == 200
        assert "kradan-messages" in page.text


# --- what fuzzing found (issue 45: fuzz/web.py's line, pgn-read and pgn-write kinds) ----------


def test_a_screened_setup_drop_in_a_line_is_a_422_not_a_500(client: Any) -> None:
    """Bug: parse_uci takes a Sittuyin setup drop that push then refuses (a screened setup is
    submitted whole); the refusal escaped the route as a 500."""
    answer = line(client, variant="sittuyin", options={"sittuyin_setup": "screened"},
                  moves=["F@b2"])  # fmt: skip
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert "ply 1" in error and "'F@b2'" in error and "submit" in error


def test_a_trees_start_is_its_own_whatever_its_headers_say(client: Any) -> None:
    """Bug: a tree's [Variant], [VariantOptions] and [FEN] headers (left from a PGN read
    before the start was changed) overrode its variant and start_fen: a 500 when they named
    no position, the moves played from the wrong start when they did."""
    garbage = {"variant": "makruk", "moves": [{"uci": "e3e4"}],
               "headers": {"Variant": "alquerque", "FEN": "garbage", "Event": "kept"}}  # fmt: skip
    answer = client.post("/api/pgn/write", json=garbage)
    assert answer.status_code == 200, answer.text
    written = read_game(io.StringIO(answer.text))
    assert written is not None
    assert written.headers["Variant"] == "makruk" and "FEN" not in written.headers
    assert written.headers["Event"] == "kept"
    assert [move.uci() for move in written.mainline_moves()] == ["e3e4"]
    start = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    other = {"variant": "makruk", "start_fen": start, "moves": [{"uci": "e2e3"}],
             "headers": {"FEN": "4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "SetUp": "1",
                         "VariantOptions": "counting=declared"}}  # fmt: skip
    answer = client.post("/api/pgn/write", json=other)
    assert answer.status_code == 200, answer.text
    written = read_game(io.StringIO(answer.text))
    assert written is not None
    assert written.headers["FEN"] == start and "VariantOptions" not in written.headers


def _bushy_game(plies: int, every: int, length: int) -> Any:
    """A Makruk game of about ``plies`` plies (moves chosen by a seeded coin) with a variation of
    up to ``length`` plies replacing every ``every``-th move of its second half."""
    import random

    from kradan.pgn import Game

    rng = random.Random(45)
    board = Board()
    game = Game.from_board(board)
    node: Any = game
    while len(board.move_stack) < plies and board.outcome() is None:
        legal = sorted(board.legal_moves, key=lambda move: move.uci())
        move = rng.choice(legal)
        if len(board.move_stack) > plies // 2 and len(board.move_stack) % every == 0:
            side_board = board.copy()
            side: Any = node
            for first in [m for m in legal if m != move][:1]:
                while len(side_board.move_stack) < len(board.move_stack) + length:
                    if side_board.outcome() is not None:
                        break
                    side = side.add_legal(first)
                    side_board.push(first)
                    first = sorted(side_board.legal_moves, key=lambda m: m.uci())[0]
        node = node.add_legal(move)
        node.parent.variations.insert(0, node.parent.variations.pop())
        board.push(move)
    return game


def test_a_long_bushy_tree_is_read_and_written_in_linear_time(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bug: reading and writing replayed the game from its start for every move (three times
    a move when reading): a 400-ply game with a few thousand moves of variations took tens of
    seconds of the server's only thread. Each position now comes from the one before it: the
    moves played on boards are counted (quadratic replay pushed hundreds of thousands)."""
    from kradan.board import Board

    game = _bushy_game(plies=400, every=3, length=40)
    text = str(game)
    pushes = 0
    push = Board.push

    def counted(self: Board, move: Any) -> None:
        nonlocal pushes
        pushes += 1
        push(self, move)

    monkeypatch.setattr(Board, "push", counted)
    read = client.post("/api/pgn/read", json={"pgn": text})
    assert read.status_code == 200, read.text
    tree = read.json()

    def bare(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The line without what the writer does not read (it keeps the body small)."""
        return [{"uci": node["uci"], "variations": [bare(side) for side in node["variations"]]}
                for node in line]  # fmt: skip

    written = client.post("/api/pgn/write", json={**tree, "moves": bare(tree["moves"])})
    assert written.status_code == 200, written.text
    monkeypatch.undo()
    again = read_game(io.StringIO(written.text))
    assert again is not None
    assert str(again).split("\n\n", 1)[1] == text.split("\n\n", 1)[1]

    def moves(line: list[dict[str, Any]]) -> int:
        return sum(1 + sum(moves(side) for side in node["variations"]) for node in line)

    total = moves(tree["moves"])
    assert len(tree["moves"]) == 400 and total > 2500
    assert 0 < pushes < 12 * total, (pushes, total)


@pytest.mark.parametrize(
    ("tree", "quoted"),
    [
        ({"variant": "makruk", "moves": [{"uci": "e3e4", "counts": ["count:stop"]},
                                         {"uci": "d6d5"}]}, "declared"),
    ],
)  # fmt: skip
def test_a_refused_count_before_the_next_move_is_a_422_not_a_500(
    client: Any, tree: dict[str, Any], quoted: str
) -> None:
    """Bug: the next move's position was replayed outside the route's checks, so a count the
    rules refuse followed by another move was a 500. (A screened Sittuyin setup's drops, the
    other case of that bug, are written since as the alternate setup's drops, which PGN reads
    back: see test_a_screened_setups_drops_are_written_and_read_back.)"""
    answer = client.post("/api/pgn/write", json=tree)
    assert answer.status_code == 422, answer.text
    assert quoted in answer.json()["error"]


def test_a_screened_setups_drops_are_written_and_read_back(client: Any) -> None:
    tree = {"variant": "sittuyin", "options": {"sittuyin_setup": "screened"},
            "moves": [{"uci": "F@b2"}, {"uci": "F@b7"}]}  # fmt: skip
    written = client.post("/api/pgn/write", json=tree)
    assert written.status_code == 200, written.text
    assert '[VariantOptions "sittuyin_setup=screened"]' in written.text
    read = client.post("/api/pgn/read", json={"pgn": written.text}).json()
    assert [node["uci"] for node in read["moves"]] == ["F@b2", "F@b7"]


DECLARED = '[VariantOptions "counting=declared"]\n[FEN "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"]\n\n'


@pytest.mark.parametrize(
    ("pgn", "quoted"),
    [
        ("1. e4 $0 *", "nags"), ("1. e4 $256 *", "nags"),
        ("1. e4 " + " ".join(f"${n}" for n in range(1, 10)) + " *", "nags"),
        (f'[{"T" * 41} "x"]\n\n1. e4 *', "headers"),
        ("".join(f'[T{n} "x"]\n' for n in range(101)) + "\n1. e4 *", "headers"),
        (DECLARED + "1. Rd3 " + "{[%count declare]} {[%count stop]} " * 3 + "*", "counts"),
    ],
)  # fmt: skip
def test_pgn_that_the_tree_cannot_hold_is_a_400_not_a_500(
    client: Any, pgn: str, quoted: str
) -> None:
    """Bug: a game the reader takes but the tree's model refuses (a NAG $0 or over 255, nine
    NAGs, a tag name over 40 characters, 101 tags, six counts after a move) was a 500: the
    model refused the answer, not the request."""
    answer = client.post("/api/pgn/read", json={"pgn": pgn})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error.startswith("cannot read the PGN") and quoted in error


def _nested_pgn(depth: int) -> str:
    """A Makruk game whose variations nest ``depth`` deep: each replaces the move before the
    next level (``1. a (1. b c (1... d e (2. f ...``); moves that end the game are avoided."""
    from kradan.pgn import Game

    board = Board()
    game = Game.from_board(board)
    node: Any = game
    for _ in range(depth):
        legal = sorted(board.legal_moves, key=lambda move: move.uci())
        for move in reversed(legal[1:]):
            board.push(move)
            quiet = board.outcome() is None and len(list(board.legal_moves)) > 1
            board.pop()
            if quiet:
                break
        node.add_legal(legal[0])
        node = node.add_legal(move)
        board.push(move)
    return str(game)


def test_variations_nested_too_deeply_are_a_400_not_a_500(client: Any) -> None:
    """Bug: the tree was built by recursion, a level a variation: some 300 nested variations
    (a PGN of 5 KB) ran out of stack, a 500. Reading takes 100 levels and refuses more."""
    from kradan.web.study import MAX_NESTING

    answer = client.post("/api/pgn/read", json={"pgn": _nested_pgn(300)})
    assert answer.status_code == 400, answer.text
    assert "nested" in answer.json()["error"]
    deep = client.post("/api/pgn/read", json={"pgn": _nested_pgn(MAX_NESTING)})
    assert deep.status_code == 200, deep.text

    def nesting(line: list[dict[str, Any]]) -> int:
        return max((1 + nesting(side) for node in line for side in node["variations"]), default=0)

    assert nesting(deep.json()["moves"]) == MAX_NESTING
    assert client.post("/api/pgn/write", json=deep.json()).status_code == 200
