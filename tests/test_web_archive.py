"""The archive and the opening explorer (``kradan.web.archive*``) on SQLite and on a real
PostgreSQL (a throw-away cluster): PGN imports (errors by line, duplicates stored once, every
game, streamed in pieces), searches and keyset pages, the explorer's counts against a count by
hand over the same games, games finished on the server, and bad input refused with a 4xx that
quotes it and stores nothing."""

from __future__ import annotations

import asyncio
import io
import random
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("sqlalchemy")

from kradan import pgn
from kradan.games import find_game, games
from kradan.web.archive import ArchiveStore
from kradan.web.archive_queries import Cursor, Filters, Opening, board_after, explore, search
from kradan.web.archive_reader import GameSplitter, date_key, position_key, read_records

from .web_helpers import (
    DATABASES,
    bearer,
    create,
    database_url,
    new_database,
    on_database,
    serving,
    wait_for,
)

T = TypeVar("T")
ON_BOTH = pytest.mark.parametrize("db", DATABASES, indirect=True)


@pytest.fixture
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return new_database(getattr(request, "param", "sqlite"), request, tmp_path)


def run(work: Callable[[ArchiveStore], Awaitable[T]], url: str, **options: Any) -> T:
    """``work(archive)`` on a migrated database at ``url``, in an event loop of its own thread."""
    return on_database(url, lambda engine: ArchiveStore(engine, **options), work)


# --- games to import ---------------------------------------------------------------------------

PLAYERS = ["Anan", "Boon", "Chai", "Dao"]
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]


def random_game(variant: str, rng: random.Random, plies: int, opening: int = 6) -> Any:
    """A board of ``variant`` after a random legal game: the first ``opening`` plies drawn
    from the first two moves in UCI order (so that openings repeat), the rest uniformly."""
    board = find_game(variant).new_board()
    for ply in range(plies):
        moves = sorted(board.legal_moves, key=lambda move: move.uci())
        if not moves:
            break
        board.push(moves[rng.randrange(min(2, len(moves)))] if ply < opening else rng.choice(moves))
    return board


def game_pgn(board: Any, number: int, rng: random.Random) -> tuple[str, dict[str, str]]:
    """The PGN of ``board``'s game with seeded tags; and the tags."""
    tags = {
        "Event": "test",
        "Round": str(number),
        "White": rng.choice(PLAYERS),
        "Black": rng.choice(PLAYERS),
        "Date": f"{rng.choice([2019, 2020, 2021])}.{rng.randint(10, 12)}.{rng.randint(10, 28)}",
        "Result": rng.choice(RESULTS),
    }
    return pgn.game_text(board, tags), tags


def makruk_games(
    count: int, seed: int = 1, plies: int = 16
) -> list[tuple[str, dict[str, str], list[str]]]:
    """``count`` Makruk games: PGN, tags and UCI moves."""
    rng = random.Random(seed)
    found = []
    for number in range(count):
        board = random_game("makruk", rng, rng.randint(plies // 2, plies))
        text, tags = game_pgn(board, number, rng)
        found.append((text, tags, [move.uci() for move in board.move_stack]))
    return found


async def chunks_of(data: bytes, size: int) -> AsyncIterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


# --- the reader's pieces -----------------------------------------------------------------------


def test_date_keys() -> None:
    assert date_key("2024.03.15") == 20240315
    assert date_key("2024.??.??") == 20240000
    assert date_key("2024.03.??") == 20240300
    assert date_key("????.??.??") == date_key("?") == date_key(None) == date_key("2024.13.01") == 0


def test_position_keys_are_salted_per_game_and_see_hands_but_not_counts() -> None:
    fen = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    makruk = find_game("makruk").new_board(fen)
    # the same diagram in another game is another position
    assert position_key(makruk) != position_key(find_game("karouk").new_board())
    # the same position reached by two move orders is one position
    one, two = find_game("makruk").new_board(), find_game("makruk").new_board()
    for move in ("a3a4", "a6a5", "b3b4"):
        one.push_uci(move)
    for move in ("b3b4", "a6a5", "a3a4"):
        two.push_uci(move)
    assert position_key(one) == position_key(two) != position_key(makruk)
    # a running count does not make a position of its own; the side to move does
    counted = "8/8/4k3/8/8/3K4/8/7R w - - 0 1"
    quiet = find_game("makruk").new_board(counted)
    counting = find_game("makruk").new_board("8/8/4k3/8/8/3K4/8/7R w 16 3 0 1")
    assert position_key(quiet) == position_key(counting)
    assert position_key(quiet) != position_key(
        find_game("makruk").new_board("8/8/4k3/8/8/3K4/8/7R b - - 0 1")
    )
    # Sittuyin's hands count: a piece in hand or on the board are two positions
    hand = find_game("sittuyin").new_board()
    dropped = hand.copy()
    dropped.push_uci("N@a1")
    assert position_key(hand) != position_key(dropped)


def test_the_splitter_cuts_between_games_and_keeps_line_numbers() -> None:
    texts = [text for text, _, _ in makruk_games(9, plies=8)]
    data = "\n".join(texts).encode()
    splitter = GameSplitter(piece_games=2)
    pieces = []
    for start in range(0, len(data), 37):
        pieces += list(splitter.feed(data[start : start + 37]))
    pieces += list(splitter.finish())
    assert "".join(text for text, _ in pieces) == data.decode()
    assert len(pieces) == 5
    lines = data.decode().splitlines(keepends=True)
    for text, first_line in pieces:
        assert text.startswith("[Event") and lines[first_line - 1] == text.splitlines(True)[0]
        assert len(read_records(text).records) in (1, 2)


def test_a_bad_game_is_reported_by_its_line_and_left_out_whole() -> None:
    good = makruk_games(2, plies=6)
    bad = '[Event "bad"]\n[Variant "makruk"]\n\n1. e4 e5 2. Kz9 Nf6 *\n'
    unknown = '[Event "odd"]\n[Variant "shogi"]\n\n1. e4 *\n'
    text = good[0][0] + "\n" + bad + "\n" + unknown + "\n" + good[1][0]
    lines = text.splitlines()
    batch = read_records(text, first_line=11)
    assert [record.moves for record in batch.records] == [good[0][2], good[1][2]]
    first, second = batch.errors
    assert lines[first.line - 11] == "1. e4 e5 2. Kz9 Nf6 *" and "'Kz9'" in first.message
    assert lines[second.line - 11] == '[Event "odd"]'
    assert "shogi" in second.message


# --- importing ---------------------------------------------------------------------------------


@ON_BOTH
def test_an_import_reports_errors_by_line_and_stores_each_game_once(db: str) -> None:
    played = makruk_games(6)
    bad = '[Event "bad"]\n\n1. e4 e5 2. Kz9 *\n'
    text = "\n".join([played[0][0], played[1][0], bad, played[2][0], played[0][0]])
    bad_line = text.splitlines().index("1. e4 e5 2. Kz9 *") + 1

    async def work(archive: ArchiveStore) -> Any:
        first = await archive.import_text(text)
        again = await archive.import_text("\n".join(entry[0] for entry in played))
        return first, again, await archive.count()

    first, again, count = run(work, db)
    assert (first.imported, first.duplicates) == (3, 1)
    assert [(error.line, "'Kz9'" in error.message) for error in first.errors] == [(bad_line, True)]
    assert (again.imported, again.duplicates, again.errors) == (3, 3, [])
    assert count == 6


@ON_BOTH
def test_every_game_is_imported_and_comes_back_as_it_went_in(db: str) -> None:
    rng = random.Random(5)
    boards = {entry.name: random_game(entry.name, rng, 24) for entry in games()}
    text = "\n".join(pgn.game_text(board, {"Round": name}) for name, board in boards.items())

    async def work(archive: ArchiveStore) -> Any:
        report = await archive.import_text(text)
        found = {}
        for name in boards:
            page, _ = await search(archive.engine, Filters(variant=name))
            stored = await archive_game(archive, page[0]["id"])
            start = find_game(name).new_board()
            found[name] = (len(page), stored, await explore(archive.engine, start, name, Filters()))
        return report, found

    report, found = run(work, db)
    assert (report.imported, report.errors) == (len(boards), [])
    for name, board in boards.items():
        count, stored, explored = found[name]
        moves = [move.uci() for move in board.move_stack]
        assert count == 1 and stored["variant"] == name and stored["moves"] == moves
        again = pgn.read_game(io.StringIO(stored["pgn"]))
        assert again is not None and not again.errors
        assert [node.move.uci() for node in again.mainline()] == moves
        # each game's explorer sees its own game only (the keys are salted per game)
        assert explored["games"] == 1 and [m["uci"] for m in explored["moves"]] == moves[:1]


async def archive_game(archive: ArchiveStore, game_id: int) -> Any:
    from kradan.web.archive_queries import game

    return await game(archive.engine, game_id)


@ON_BOTH
def test_a_large_body_is_imported_a_piece_at_a_time(db: str) -> None:
    played = makruk_games(120, seed=3, plies=20)
    bad = '[Event "bad"]\n\n1. a4 a5 2. Zz1 *\n'
    texts = [entry[0] for entry in played]
    texts.insert(77, bad)
    data = "\n".join(texts).encode()
    bad_line = data.decode().splitlines().index("1. a4 a5 2. Zz1 *") + 1

    async def work(archive: ArchiveStore) -> Any:
        seen_before_the_end: list[int] = []

        async def body() -> AsyncIterator[bytes]:
            chunks = [data[start : start + 500] for start in range(0, len(data), 500)]
            for number, chunk in enumerate(chunks):
                if number == len(chunks) - 1:
                    await asyncio.sleep(0.2)  # let the writer catch up
                    seen_before_the_end.append(await archive.count())
                yield chunk

        report = await archive.import_stream(body())
        return report, seen_before_the_end, await archive.count()

    report, before_the_end, count = run(work, db, piece_games=10)
    assert report.imported == count == 120 and report.duplicates == 0
    assert [(error.line, "'Zz1'" in error.message) for error in report.errors] == [(bad_line, True)]
    # games were stored while the body was still coming
    assert 0 < before_the_end[0] < 120


# --- searching ---------------------------------------------------------------------------------


def brute_search(played: list[tuple[str, dict[str, str], list[str]]], **want: Any) -> list[int]:
    """The numbers (1-based import order) of the games that pass ``want``, newest first."""
    found = []
    for number, (_, tags, moves) in enumerate(played, 1):
        if "player" in want and want["player"] not in (tags["White"], tags["Black"]):
            continue
        if "white" in want and tags["White"] != want["white"]:
            continue
        if "result" in want and tags["Result"] != want["result"]:
            continue
        if "year" in want and not tags["Date"].startswith(want["year"]):
            continue
        if "moves" in want and moves[: len(want["moves"])] != want["moves"]:
            continue
        found.append((date_key(tags["Date"]), number))
    return [number for _, number in sorted(found, reverse=True)]


@ON_BOTH
def test_search_filters_and_keyset_pages(db: str) -> None:
    played = makruk_games(40, seed=7)
    opening = played[0][2][:3]

    async def work(archive: ArchiveStore) -> Any:
        await archive.import_text("\n".join(entry[0] for entry in played))
        engine = archive.engine

        async def ids(filters: Filters, moves: list[str] | None = None) -> list[int]:
            found, cursor = [], None
            while True:
                the_opening = Opening.of("makruk", moves) if moves else None
                page, following = await search(engine, filters, the_opening, cursor, limit=3)
                found += [game["id"] for game in page]
                if following is None:
                    return found
                cursor = Cursor.parse(following)

        return {
            "all": await ids(Filters()),
            "player": await ids(Filters(player="Boon")),
            "white": await ids(Filters(player="Boon", color="white")),
            "result": await ids(Filters(result="1-0")),
            "year": await ids(Filters(since=20200101, until=20201231)),
            "moves": await ids(Filters(variant="makruk"), opening),
            "nobody": await ids(Filters(player="Nobody")),
        }

    found = run(work, db)
    assert found["all"] == brute_search(played) and len(found["all"]) == 40
    assert found["player"] == brute_search(played, player="Boon")
    assert found["white"] == brute_search(played, white="Boon")
    assert found["result"] == brute_search(played, result="1-0")
    assert found["year"] == brute_search(played, year="2020")
    assert found["moves"] == brute_search(played, moves=opening) and found["moves"]
    assert found["nobody"] == []


@ON_BOTH
def test_pages_stay_stable_while_games_are_added(db: str) -> None:
    first, later = makruk_games(30, seed=11), makruk_games(30, seed=12)

    async def work(archive: ArchiveStore) -> Any:
        await archive.import_text("\n".join(entry[0] for entry in first))
        seen, cursor, turn = [], None, 0
        while True:
            page, following = await search(archive.engine, Filters(), None, cursor, limit=4)
            seen += [game["id"] for game in page]
            if turn < 3:  # games of every date arrive between pages
                await archive.import_text(
                    "\n".join(entry[0] for entry in later[turn * 10 : turn * 10 + 10])
                )
            turn += 1
            if following is None:
                return seen
            cursor = Cursor.parse(following)

    seen = run(work, db)
    counted = Counter(seen)
    assert max(counted.values()) == 1  # no game twice
    assert set(range(1, 31)) <= set(seen)  # every game there at the start, none skipped


# --- the explorer ------------------------------------------------------------------------------


Played = list[tuple[str, dict[str, str], list[str]]]


def brute_explore(
    played: Played, moves: list[str], keep: Callable[[dict[str, str]], bool] = lambda tags: True
) -> dict[str, Any]:
    """The explorer's counts for the position after ``moves``, by replaying every game."""
    target = position_key(board_after("makruk", None, moves))
    totals: Counter[str] = Counter()
    by_move: dict[str, Counter[str]] = {}
    for _, tags, game_moves in played:
        if not keep(tags):
            continue
        board = find_game("makruk").new_board()
        for ply in range(len(game_moves) + 1):
            if position_key(board) == target:
                outcome = {"1-0": "white", "0-1": "black", "1/2-1/2": "draws"}.get(tags["Result"])
                totals["games"] += 1
                if ply < len(game_moves):
                    entry = by_move.setdefault(game_moves[ply], Counter())
                    entry["games"] += 1
                if outcome:
                    totals[outcome] += 1
                    if ply < len(game_moves):
                        by_move[game_moves[ply]][outcome] += 1
                break
            if ply < len(game_moves):
                board.push_uci(game_moves[ply])
    names = ("games", "white", "draws", "black")
    return {
        **{name: totals[name] for name in names},
        "moves": {uci: [counts[name] for name in names] for uci, counts in by_move.items()},
    }


def shown(answer: dict[str, Any]) -> dict[str, Any]:
    names = ("games", "white", "draws", "black")
    return {
        **{name: answer[name] for name in names},
        "moves": {move["uci"]: [move[name] for name in names] for move in answer["moves"]},
    }


@ON_BOTH
def test_the_explorer_counts_what_a_count_by_hand_counts(db: str) -> None:
    played = makruk_games(50, seed=21, plies=14)
    lines = [[], played[0][2][:1], played[1][2][:2], played[2][2][:4], played[3][2][:5], ["h3h4"]]
    year = Filters(since=20200000, until=20209999)
    cases = [
        (Filters(), lambda tags: True),
        (Filters(player="Chai"), lambda tags: "Chai" in (tags["White"], tags["Black"])),
        (Filters(player="Chai", color="black"), lambda tags: tags["Black"] == "Chai"),
        (Filters(result="0-1"), lambda tags: tags["Result"] == "0-1"),
        (Filters(result="*"), lambda tags: tags["Result"] == "*"),
        (year, lambda tags: tags["Date"].startswith("2020")),
    ]

    async def work(archive: ArchiveStore) -> Any:
        await archive.import_text("\n".join(entry[0] for entry in played))
        answers = []
        for moves in lines:
            board = board_after("makruk", None, moves)
            for filters, _ in cases:
                answers.append(await archive.explore(board, "makruk", filters))
        cached = await archive.explore(board_after("makruk", None, []), "makruk", Filters())
        hits = archive.explorer_cache.hits
        await archive.import_text(makruk_games(1, seed=99)[0][0])  # a new version of the archive
        fresh = await archive.explore(board_after("makruk", None, []), "makruk", Filters())
        return answers, cached, hits, fresh

    answers, cached, hits, fresh = run(work, db)
    expected = [brute_explore(played, moves, keep) for moves in lines for _, keep in cases]
    assert [shown(answer) for answer in answers] == expected
    assert expected[0]["games"] == 50 and len(expected[0]["moves"]) == 2
    root = answers[0]
    assert [move["games"] for move in root["moves"]] == sorted(
        (move["games"] for move in root["moves"]), reverse=True
    )
    assert all(move["san"] and move["san"] != move["uci"] for move in root["moves"])
    board = find_game("makruk").new_board()
    thai = [board.san(board.parse_uci(move["uci"]), "thai") for move in root["moves"]]
    assert [move["thai_san"] for move in root["moves"]] == thai
    assert [game["id"] for game in root["recent"]] == [50, 49, 48, 47, 46]
    assert cached == root and hits == 1 and fresh["games"] == 51


# --- the HTTP API ------------------------------------------------------------------------------


@ON_BOTH
def test_the_api_imports_searches_opens_exports_and_explores(db: str) -> None:
    played = makruk_games(12, seed=4)
    body = "\n".join(entry[0] for entry in played).encode()
    with serving(db) as client:
        response = client.post("/api/archive", content=body)
        assert response.status_code == 200, response.text
        assert response.json() == {"imported": 12, "duplicates": 0, "errors": [], "more_errors": 0}
        again = client.post("/api/archive", content=body).json()
        assert (again["imported"], again["duplicates"]) == (0, 12)
        page = client.get("/api/archive", params={"limit": 5}).json()
        rest = client.get("/api/archive", params={"limit": 50, "after": page["next"]}).json()
        ids = [game["id"] for game in page["games"] + rest["games"]]
        assert ids == brute_search(played) and rest["next"] is None
        newest = played[ids[0] - 1]
        one = client.get(f"/api/archive/{ids[0]}").json()
        assert one["moves"] == newest[2] and one["headers"]["White"] == newest[1]["White"]
        assert one["fen"] == find_game("makruk").new_board().fen() and "[Variant" in one["pgn"]
        exported = client.get("/api/archive.pgn", params={"player": "Dao", "limit": 100})
        assert exported.status_code == 200 and "pgn" in exported.headers["content-type"]
        handle = io.StringIO(exported.text)
        read = []
        while (game := pgn.read_game(handle)) is not None:
            read.append([node.move.uci() for node in game.mainline()])
        assert read == [played[number - 1][2] for number in brute_search(played, player="Dao")]
        explored = client.get("/api/explorer", params={"variant": "thai", "play": played[0][2][0]})
        assert shown(explored.json()) == brute_explore(played, played[0][2][:1])


def test_an_archived_game_opens_in_the_analysis_board(tmp_path: Path) -> None:
    """What /analysis?archive=ID does (static/js/archived-game.js): the game's PGN, from
    GET /api/archive/{id}, read into the board's tree by POST /api/pgn/read, with its tags and
    its declared counts; and the archive's page in both languages."""
    fen = "8/8/4k3/3n4/8/3K4/8/7R b - - 0 1"
    board: Any = find_game("makruk").new_board(fen, counting="declared")
    board.declare_count()  # before the first move: Black counts the board's honour
    for move in ("e6e5", "h1h5", "e5e6"):
        board.push_uci(move)
    text = pgn.game_text(board, {"White": "Kasem", "Black": "Lek", "Result": "*"})
    with serving(database_url(tmp_path)) as client:
        assert client.post("/api/archive", content=text.encode()).json()["imported"] == 1
        [found] = client.get("/api/archive", params={"player": "Kasem"}).json()["games"]
        stored = client.get(f"/api/archive/{found['id']}").json()
        tree = client.post("/api/pgn/read", json={"pgn": stored["pgn"]})
        assert tree.status_code == 200, tree.text
        read = tree.json()
        assert read["variant"] == "makruk" and stored["fen"] == fen
        assert read["start_fen"].split()[:2] == fen.split()[:2]
        assert (read["headers"]["White"], read["headers"]["Black"]) == ("Kasem", "Lek")
        assert [node["uci"] for node in read["moves"]] == ["e6e5", "h1h5", "e5e6"]
        assert read["options"] == {"counting": "declared"} and "count" in stored["pgn"]
        for language, words in (("en", "Export these games (PGN)"), ("th", "ส่งออกเกมเหล่านี้")):
            page = client.get("/archive", headers={"Accept-Language": language})
            assert page.status_code == 200 and words in page.text
            assert "archive-page.js" in page.text
            board_page = client.get(f"/analysis?archive={found['id']}")
            assert board_page.status_code == 200 and 'class="explorer"' in board_page.text


@ON_BOTH
def test_finished_server_games_are_archived(db: str) -> None:
    with serving(db) as client:
        created = create(client, opponent="human")
        game_id, white, black = created["id"], created["token"], created["invite"]
        client.cookies.clear()
        for token, uci in ((white, "e3e4"), (black, "d6d5"), (white, "e4d5")):
            response = client.post(
                f"/api/games/{game_id}/moves", json={"move": uci}, headers=bearer(token)
            )
            assert response.status_code == 200, response.text
        response = client.post(f"/api/games/{game_id}/actions", json={"action": "resign"},
                               headers=bearer(black))  # fmt: skip
        assert response.status_code == 200, response.text

        def archived() -> Any:
            return client.get("/api/archive").json()["games"]

        games_found = wait_for(archived, timeout=30)
        assert [(game["source"], game["result"], game["plies"]) for game in games_found] == [
            ("live", "1-0", 3)
        ]
        stored = client.get(f"/api/archive/{games_found[0]['id']}").json()
        assert stored["moves"] == ["e3e4", "d6d5", "e4d5"]
        assert stored["headers"]["Site"] == f"kradan serve game {game_id}"
        explored = client.get("/api/explorer").json()
        assert explored["games"] == 1 and explored["white"] == 1


BAD_QUERIES = [
    ("/api/archive", {"variant": "shogi"}, "'shogi'"),
    ("/api/archive", {"result": "2-0"}, "'2-0'"),
    ("/api/archive", {"since": "last week"}, "'last week'"),
    ("/api/archive", {"until": "2024-13"}, "'2024-13'"),
    ("/api/archive", {"color": "red", "player": "Anan"}, "'red'"),
    ("/api/archive", {"color": "white"}, "'white'"),
    ("/api/archive", {"after": "page two"}, "'page two'"),
    ("/api/archive", {"moves": "e3e4,e3e4"}, "'e3e4'"),
    ("/api/archive", {"limit": "0"}, "0"),
    ("/api/archive", {"limit": "many"}, "many"),
    ("/api/archive.pgn", {"moves": "z9"}, "'z9'"),
    ("/api/archive.pgn", {"limit": "1000001"}, "1000001"),
    ("/api/explorer", {"variant": "chess"}, "'chess'"),
    ("/api/explorer", {"fen": "8/8/8 w"}, "'8/8/8 w'"),
    ("/api/explorer", {"play": "e3e5"}, "'e3e5'"),
    ("/api/explorer", {"result": "win"}, "'win'"),
]


@pytest.mark.parametrize(("path", "params", "quoted"), BAD_QUERIES)
def test_bad_queries_are_400_and_quote_the_input(tmp_path: Path, path: str, params: dict[str, str],
                                                 quoted: str) -> None:  # fmt: skip
    with serving(database_url(tmp_path)) as client:
        response = client.get(path, params=params)
    assert response.status_code == 400, response.text
    assert quoted in response.json()["error"]


@ON_BOTH
def test_bad_bodies_are_refused_and_store_nothing(db: str) -> None:
    with serving(db) as client:
        garbage = client.post("/api/archive", content=b"this is not PGN\n\x00\xff\n")
        assert garbage.status_code == 400
        assert "line 1" in garbage.json()["error"] and "'this'" in garbage.json()["error"]
        empty = client.post("/api/archive", content=b"")
        assert empty.status_code == 400 and "no PGN game" in empty.json()["error"]
        huge = client.post("/api/archive", content=b"x", headers={"content-length": str(1 << 40)})
        assert huge.status_code == 413
        foreign = client.post("/api/archive", content=makruk_games(1)[0][0].encode(),
                              headers={"origin": "http://elsewhere.example"})  # fmt: skip
        assert foreign.status_code == 403
        missing = client.get("/api/archive/12345")
        assert missing.status_code == 404 and "'12345'" in missing.json()["error"]
        assert client.get("/api/archive/abc").status_code == 404
        assert client.get("/api/archive").json() == {"games": [], "next": None}
        # other routes keep their small limit
        big = client.post("/api/games", content=b"{" + b" " * 5000 + b"}")
        assert big.status_code == 413


def test_the_archives_errors_answer_in_the_readers_language(tmp_path: Path) -> None:
    thai = {"Accept-Language": "th"}
    good = makruk_games(1, seed=5)[0][0]
    body = f'{good}\n[Event "x"]\n\n1. e3e4 d6d5 2. Kz9 *\n\n[Variant "shogi"]\n\n1. e4 *\n'
    bad_line = body.splitlines().index("1. e3e4 d6d5 2. Kz9 *") + 1
    with serving(database_url(tmp_path)) as client:
        english = client.post("/api/archive", content=body.encode()).json()
        assert english["imported"] == 1
        first, second = english["errors"]
        assert first["line"] == bad_line and first["message"].startswith("move 2: ")
        client.post("/api/archive", content=body.encode(), headers=thai)  # a duplicate
        read = client.post("/api/archive", content=body.encode(), headers=thai).json()
        assert [error["line"] for error in read["errors"]] == [bad_line, second["line"]]
        assert read["errors"][0]["message"] == "ตาที่ 2: " + first["message"][len("move 2: ") :]
        nothing = client.post("/api/archive", content=b"no game here\n", headers=thai).json()
        assert nothing["error"].startswith("นำเข้าเกมไม่ได้เลย: บรรทัด 1: ")
        empty = client.post("/api/archive", content=b"", headers=thai).json()
        assert empty["error"] == "ไม่พบเกม PGN ในข้อมูลที่ส่งมา (0 ไบต์)"
        for params, english_text, thai_text in [
            ({"result": "2-0"}, "result '2-0': expected one of", "ผลการแข่งขัน '2-0': ต้องเป็น"),
            ({"since": "May"}, "since 'May': expected a date", "since 'May': ต้องเป็นวันที่"),
            ({"color": "white"}, "color 'white' needs a player", "สี 'white' ต้องระบุผู้เล่น"),
            ({"variant": "go"}, "unknown game 'go'", "ไม่มีเกม 'go'"),
        ]:
            assert english_text in client.get("/api/archive", params=params).json()["error"]
            answer = client.get("/api/archive", params=params, headers=thai)
            assert answer.status_code == 400 and thai_text in answer.json()["error"]
        bad_move = client.get("/api/explorer", params={"play": "e3e5"}, headers=thai).json()
        assert bad_move["error"].startswith("ตาที่ 1 'e3e5': ")


# --- the command line ----------------------------------------------------------------------------


def test_kradan_archive_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from kradan.cli.main import main as run_main

    def main(words: list[str]) -> int:
        """The command in a thread of its own: it runs asyncio, and a browser test earlier in
        the session leaves Playwright's loop running in this one."""
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(run_main, words).result()

    played = makruk_games(25, seed=31)
    games_file = tmp_path / "games.pgn"
    games_file.write_text("\n".join(entry[0] for entry in played) + '\n[Event "x"]\n\n1. Zz9 *\n')
    database = tmp_path / "club.db"
    assert main(["archive", "import", str(games_file), "--db", str(database)]) == 0
    first = capsys.readouterr()
    assert "25 games imported, 0 duplicates, 1 left out" in first.out
    bad_line = games_file.read_text().splitlines().index("1. Zz9 *") + 1
    assert f"games.pgn:{bad_line}: " in first.err and "'Zz9'" in first.err
    assert main(["archive", "import", str(games_file), "--db", str(database)]) == 0
    assert "0 games imported, 25 duplicates" in capsys.readouterr().out
    with serving(database_url(tmp_path).replace("games.db", "club.db")) as client:
        assert [game["id"] for game in client.get("/api/archive?limit=50").json()["games"]] == (
            brute_search(played)
        )
    junk = tmp_path / "junk.pgn"
    junk.write_text("no games here\n")
    assert main(["archive", "import", str(junk), "--db", str(database)]) == 2
    assert main(["archive", "import", str(tmp_path / "missing.pgn")]) == 2
    assert "'" in capsys.readouterr().err
