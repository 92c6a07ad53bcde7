"""Driving engines from Python (issue 6 item 4): the client plays against ``kradan uci`` itself,
and an XBoard engine (a scripted fake, and Fairy-Max when it is installed)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kradan import Board
from kradan.engine import Limit, PovScore, Score
from kradan.engine.client import UciClient, XBoardClient
from kradan.errors import EngineError

KRADAN_UCI = [sys.executable, "-m", "kradan.cli.main", "uci"]


def test_uci_client_drives_kradan() -> None:
    with UciClient.popen(KRADAN_UCI) as engine:
        assert engine.name.startswith("kradan")
        assert "UCI_Variant" in engine.options
        engine.configure({"Hash": 8, "UCI_Variant": "cambodian"})
        engine.new_game()
        board = Board(variant="cambodian")
        board.push_uci("e3e4")
        result = engine.play(board, Limit(depth=4))
        assert result.move in board.legal_moves
        assert result.info["depth"] == 4 and "pv" in result.info
        mate = engine.play(Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1"), Limit(depth=3))
        assert mate.move is not None and mate.move.uci() == "h2a2"
        assert mate.info["score"] == PovScore(Score(mate=1), True)


def test_dead_or_missing_engines_raise_engine_error() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        UciClient.popen(["/nonexistent/engine"])
    with pytest.raises(EngineError, match="exited"):
        UciClient.popen([sys.executable, "-c", "print('id name silent')"])


SLOW_STARTER = textwrap.dedent(
    """
    import sys, time
    pings = 0
    for line in sys.stdin:
        if line.strip() == 'uci':
            time.sleep(1.5)
            print('id name slow starter', flush=True)
            print('uciok', flush=True)
        elif line.strip() == 'isready':
            pings += 1
            time.sleep(1.5)
            print('readyok', flush=True)
        elif line.strip() == 'quit':
            break
    """
)


def test_an_engine_slow_to_start_gets_more_time_only_for_its_first_answers() -> None:
    with UciClient.popen([sys.executable, "-c", SLOW_STARTER], timeout=0.5) as engine:
        assert engine.name == "slow starter"  # 1.5 s for "uci": within the start's grace
        engine.ping()  # and for the first "isready"
        with pytest.raises(EngineError, match="did not answer in time"):
            engine.ping()  # the next one has 0.5 s


FAKE_XBOARD = textwrap.dedent(
    """
    import sys
    print('feature myname="fake" setboard=0 usermove=1 done=1', flush=True)
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == 'go':
            print('move e3e4', flush=True)
        if words and words[0] == 'quit':
            break
    """
)


def test_xboard_client_with_a_scripted_engine() -> None:
    with XBoardClient.popen([sys.executable, "-c", FAKE_XBOARD], timeout=10) as engine:
        assert engine.name == "fake" and engine.features["usermove"] == "1"
        result = engine.play(Board(), Limit(time=0.5))
        assert result.move is not None and result.move.uci() == "e3e4"
        board = Board("4k3/8/8/8/8/8/8/R2K4 w - - 0 1")
        with pytest.raises(EngineError, match="setboard"):
            engine.play(board, Limit(time=0.5))


LOGGING_XBOARD = textwrap.dedent(
    """
    import sys
    log = open(sys.argv[1], "a")
    print('feature myname="logger" usermove=1 done=1', flush=True)
    replies = iter(["d6d5", "e6e5", "c3c4"])
    for line in sys.stdin:
        log.write(line)
        log.flush()
        if line.startswith("go"):
            print("move " + next(replies), flush=True)
        if line.startswith("quit"):
            break
    """
)


def test_xboard_client_goes_on_with_the_game_instead_of_replaying_it(tmp_path: Path) -> None:
    """Each move sends only what the engine has not seen: one ``new`` and ``variant`` per game
    (Fairy-Max pays over 0.1 s for them), and a game that does not continue starts again."""
    log = tmp_path / "commands.txt"
    command = [sys.executable, "-c", LOGGING_XBOARD, str(log)]
    with XBoardClient.popen(command, timeout=10) as engine:
        board = Board()
        limit = Limit(white_clock=10, black_clock=10, white_inc=0.1, black_inc=0.1)
        for white in ("e3e4", "a3a4"):
            board.push_uci(white)
            reply = engine.play(board, limit).move
            assert reply is not None and reply in board.legal_moves
            board.push(reply)
        sent = log.read_text().splitlines()
        assert sent.count("new") == 1 and sent.count("variant makruk") == 1
        assert [line for line in sent if line.startswith("usermove")] == [
            "usermove e3e4",
            "usermove a3a4",
        ]
        engine.play(Board(), limit)  # another game: replayed from its start
        assert log.read_text().splitlines().count("new") == 2


FAIRY_MAX = shutil.which("fairymax") or shutil.which("fairymax", path="/usr/games")


@pytest.mark.skipif(
    FAIRY_MAX is None, reason="Fairy-Max is not installed (apt-get install fairymax)"
)
def test_xboard_client_drives_fairy_max() -> None:
    assert FAIRY_MAX is not None
    with XBoardClient.popen([FAIRY_MAX]) as engine:
        board = Board()
        for _ in range(4):
            result = engine.play(board, Limit(white_clock=3, black_clock=3))
            assert result.move in board.legal_moves
            board.push(result.move)  # type: ignore[arg-type]


def test_value_types_client_and_players_load_no_compiled_search() -> None:
    """The client, the players and the value types import no search kernel or driver: the
    searches load when a searcher is first made."""
    script = textwrap.dedent(
        """
        import sys
        import kradan.engine, kradan.engine.types
        import kradan.engine.client, kradan.runners.players
        from kradan.engine import Limit, Score, SearchInfo, SearchResult, SimpleEngine
        loaded = [m for m in sys.modules if m.startswith("kradan.engine.")]
        assert not [m for m in loaded if "kernels" in m or m.endswith((".chess", ".alquerque"))]
        from kradan.engine import Searcher
        assert "kradan.engine.kernels.search" in sys.modules
        """
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_a_score_from_either_side_as_python_chess_gives_it() -> None:
    """Issue 43: ``PovScore`` turns a side-to-move score to any side."""
    from kradan.engine import PovScore, Score

    found = PovScore(Score(cp=50), turn=False)  # Black to move, Black 50 up
    assert found.black() == Score(cp=50) and found.white() == Score(cp=-50)
    mate = PovScore(Score(mate=3), turn=True)
    assert mate.white() == Score(mate=3) and mate.pov(False) == Score(mate=-3)


def test_an_engine_command_may_be_one_line() -> None:
    """Issue 43: ``UciClient.popen("kradan uci")`` as well as a list of words."""
    import sys

    from kradan import Board
    from kradan.engine import Limit
    from kradan.engine.client import UciClient

    with UciClient.popen(f"{sys.executable} -m kradan uci") as engine:
        assert engine.play(Board(), Limit(depth=2)).move in Board().legal_moves
    with pytest.raises(EngineError):
        UciClient.popen("")
