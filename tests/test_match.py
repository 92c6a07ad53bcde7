"""``kradan match`` and its pieces (issue 6 item 5): players, time controls, the Elo estimate,
openings, and a short real match."""

from __future__ import annotations

import sys

import pytest

from kradan.cli.main import main
from kradan.errors import UsageError
from kradan.runners.match import (
    GameRecord,
    MatchResult,
    TimeControl,
    default_openings,
    elo_estimate,
    play_game,
    tasks,
)
from kradan.runners.players import KradanPlayer, PlayerSpecError, RandomPlayer, make_player


def test_time_control_parsing() -> None:
    assert TimeControl.parse("10+0.1") == TimeControl(10.0, 0.1)
    assert TimeControl.parse("60") == TimeControl(60.0, 0.0)
    for bad in ("", "x", "0", "-5+1"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)


def test_elo_estimate() -> None:
    assert elo_estimate(5, 0, 5)[0] == pytest.approx(0.0)
    elo, margin = elo_estimate(75, 0, 25)
    assert elo == pytest.approx(190.8, abs=0.1) and 0 < margin < elo
    assert elo_estimate(10, 0, 0)[0] > 100  # finite even for a clean sweep


def test_match_result_counts() -> None:
    games = [
        GameRecord("a", "b", "1-0", "", [], [], first_is_white=True),
        GameRecord("b", "a", "1-0", "", [], [], first_is_white=False),
        GameRecord("a", "b", "1/2-1/2", "", [], [], first_is_white=True),
    ]
    result = MatchResult(games)
    assert (result.wins, result.draws, result.losses) == (1, 1, 1)
    assert result.score == pytest.approx(0.5)


def test_player_specs() -> None:
    player = make_player("kradan:level=3")
    assert isinstance(player, KradanPlayer) and player.level == 3
    assert player.name == "kradan level 3"
    assert make_player("kradan").level == 20  # type: ignore[attr-defined]
    assert isinstance(make_player("random"), RandomPlayer)
    contempt = make_player("kradan:contempt=20")
    assert contempt.name == "kradan (contempt 20)"
    assert contempt.searchers.chess.adapter.contempt == 20  # type: ignore[attr-defined]
    for bad in ("chess", "kradan:level=99", "kradan:speed=3", "uci:", "kradan:contempt=101"):
        with pytest.raises(PlayerSpecError):
            make_player(bad)


@pytest.mark.parametrize("variant", ["makruk", "sittuyin"])
def test_openings_are_legal_and_varied(variant: str) -> None:
    from kradan import Board

    openings = default_openings(variant, 12)
    assert len(openings) == 12 and len({tuple(o) for o in openings}) > 1
    for opening in openings:
        board = Board(variant=variant)
        for uci in opening:
            board.push_uci(uci)


def test_a_game_is_played_to_its_end() -> None:
    (task,) = tasks("kradan:level=20", "random", "makruk", 1, TimeControl(5, 0.05))
    record = play_game(task)
    assert record.result == "1-0" and record.first_player_points == 1.0
    assert record.pgn.startswith('[Event "?"]') and '[Variant "makruk"]' in record.pgn


def test_two_builds_of_one_engine_are_told_apart_by_their_specs() -> None:
    (task,) = tasks("kradan:level=1", "kradan:level=1,hash=8", "makruk", 1, TimeControl(5, 0.05), 8)
    record = play_game(task)
    assert record.white == "kradan level 1 (kradan:level=1)"
    assert record.black == "kradan level 1 (kradan:level=1,hash=8)"
    assert '[White "kradan level 1 (kradan:level=1)"]' in record.pgn
    (same,) = tasks("kradan:level=1", "kradan:level=1", "makruk", 1, TimeControl(5, 0.05), 8)
    assert play_game(same).white == "kradan level 1"  # self-play: one name is enough


def test_an_engine_that_cannot_start_loses_its_games() -> None:
    """A player that fails loses the game, which names the error, and the match goes on (a
    worker never brings a long match down): with either colour."""
    for task in tasks("uci:/nonexistent/engine", "random", "makruk", 2, TimeControl(5, 0.05)):
        record = play_game(task)
        assert record.first_player_points == 0.0 and record.moves == []
        assert record.termination.startswith("uci:/nonexistent/engine failed: cannot start")
        assert f'[Result "{record.result}"]' in record.pgn


def test_an_engine_that_dies_before_the_game_loses_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An engine that answers the handshake but exits at the new game (``ucinewgame``) loses
    that game, by name, and the other player is not blamed."""
    engine = tmp_path / "dud.py"
    engine.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'uci':\n"
        "        print('id name dud'); print('uciok', flush=True)\n"
        "    elif line.strip() == 'ucinewgame':\n"
        "        sys.exit(0)\n"
    )
    spec = f"uci:{sys.executable} {engine}"
    for task in tasks("random", spec, "makruk", 2, TimeControl(5, 0.05)):
        record = play_game(task)
        assert record.first_player_points == 1.0, record.termination
        assert record.termination.startswith("dud failed: engine")


def test_a_match_with_an_engine_that_cannot_start_stops_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command starts each player once before the match: a wrong command is an error at
    once, not a hundred lost games."""
    code = main(["match", "uci:/nonexistent/engine", "random", "--games", "100", "--tc", "5"])
    assert code == 2
    err = capsys.readouterr().err
    assert "cannot start engine ['/nonexistent/engine']" in err and "last:" not in err


def test_node_budgets_stray_a_little_per_opening_and_repeat_run_to_run() -> None:
    """``--nodes``: every move of a game gets the game's budget, within NODE_SPREAD of the one
    asked for, the same for both colours of an opening and drawn again for the next opening (a
    replayed opening is not the same game); a second run draws the same budgets."""
    games = tasks("kradan", "random", "makruk", 40, TimeControl(5, 0.05), nodes=10_000)
    budgets = [task.nodes for task in games]
    assert all(9_000 <= b <= 11_000 for b in budgets)
    assert all(budgets[i] == budgets[i + 1] for i in range(0, 40, 2))
    assert len(set(budgets)) == 20
    again = tasks("kradan", "random", "makruk", 40, TimeControl(5, 0.05), nodes=10_000)
    assert [task.nodes for task in again] == budgets
    assert {t.nodes for t in tasks("kradan", "random", "makruk", 4, TimeControl(5))} == {0}


def test_skipping_openings_goes_on_where_a_shorter_match_stopped() -> None:
    """``--skip-openings 5``: the games are the 11th onwards of the longer match, with their
    openings, colours, rounds, seeds and node budgets, so a second run plays new games."""
    whole = tasks("kradan", "random", "makruk", 16, TimeControl(5), nodes=10_000)
    rest = tasks("kradan", "random", "makruk", 6, TimeControl(5), nodes=10_000, skip_openings=5)
    assert rest == whole[10:]
    assert [task.round for task in rest] == list(range(11, 17))
    assert rest[0].opening != whole[0].opening
    with pytest.raises(UsageError, match="must not be negative"):
        tasks("kradan", "random", "makruk", 2, TimeControl(5), skip_openings=-1)


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("kradan:tc=10+0.1", "random", "tc= cannot go with it"),
        ("random", "xboard:/usr/games/fairymax", "no node limit"),
    ],
)
def test_a_node_budget_refuses_clocks_and_xboard(first: str, second: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        tasks(first, second, "makruk", 2, TimeControl(5), nodes=1000)


def test_a_game_on_a_node_budget_has_no_clock_and_replays_exactly() -> None:
    """No clock runs (the PGN says ``TimeControl "-"`` and names the budget), and the same
    game played again is the same game, move for move: nothing but the nodes decides."""
    (task,) = tasks("kradan", "kradan:hash=8", "makruk", 1, TimeControl(0.001), 24, nodes=2000)
    record = play_game(task)
    assert record.termination != "time forfeit" and len(record.moves) == 24
    assert '[TimeControl "-"]' in record.pgn and f'[Nodes "{task.nodes}"]' in record.pgn
    assert play_game(task).moves == record.moves


def test_match_command(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    pgn = tmp_path / "games.pgn"
    code = main(["match", "random", "random", "--games", "2", "--tc", "5", "--pgn", str(pgn),
                 "--max-plies", "40"])  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "Elo difference" in out and "2 games" in out
    assert pgn.read_text().count("[Event ") == 2


def test_openings_from_a_pgn_file_and_a_fen_list(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from kradan import Board
    from kradan.errors import PgnError
    from kradan.pgn import game_text
    from kradan.runners.match import load_openings

    board = Board("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1")
    board.push_san("Rxa2")
    book = tmp_path / "book.pgn"
    book.write_text(game_text(Board()) + "\n" + game_text(board))
    assert load_openings(str(book), "makruk") == [
        (None, []),
        ("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1", ["a1a2"]),
    ]
    lines = tmp_path / "book.txt"
    lines.write_text("# openings\n4k3/8/8/8/8/8/r7/R3K3 w - - 0 1\nstartpos moves e3e4 d6d5\n")
    assert load_openings(str(lines), "makruk") == [
        ("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1", []),
        (None, ["e3e4", "d6d5"]),
    ]
    with pytest.raises(PgnError, match="is makruk, not cambodian"):
        load_openings(str(book), "cambodian")
    lines.write_text("startpos moves e3e5\n")
    with pytest.raises(PgnError, match=r"book.txt:1: .*'e3e5'"):
        load_openings(str(lines), "makruk")


def test_a_match_from_an_openings_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    book = tmp_path / "book.txt"
    book.write_text("4k3/8/8/8/8/8/r7/R3K3 w - - 0 1\n")
    games = tmp_path / "games.pgn"
    code = main(["match", "random", "random", "--games", "2", "--tc", "5", "--openings",
                 str(book), "--pgn", str(games), "--max-plies", "20"])  # fmt: skip
    assert code == 0
    text = games.read_text()
    assert text.count('[FEN "4k3/8/8/8/8/8/r7/R3K3 w - - 0 1"]') == 2


def test_sigterm_stops_a_parallel_match_and_every_process_it_started(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``kill`` (SIGTERM) stops ``kradan match`` as Ctrl-C does: exit status 143, the games so
    far kept whole in the PGN file, and no worker or engine left behind in its process group."""
    import os
    import signal
    import subprocess
    import time

    pgn = tmp_path / "games.pgn"
    engine = f"uci:{sys.executable} -m kradan uci"
    process = subprocess.Popen(
        [sys.executable, "-m", "kradan", "match", "random", engine, "--games", "1000",
         "--tc", "60", "--concurrency", "2", "--pgn", str(pgn)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and "[Event " not in (
            pgn.read_text() if pgn.exists() else ""
        ):
            time.sleep(0.2)
        assert pgn.exists(), "no game finished in two minutes"
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 143, err
    assert "kradan: terminated" in err and "match stopped after" in err
    text = pgn.read_text()
    assert text.count("[Event ") == text.count("[Result ") >= 1
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(process.pid, 0)  # anything left of the match's process group?
        except ProcessLookupError:
            return
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("workers or engines outlived the match")
