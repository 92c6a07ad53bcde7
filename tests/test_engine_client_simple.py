"""``kradan.engine.SimpleEngine`` (issue 43 item 4): one client in python-chess's
``chess.engine`` shape for kradan's own search in this process, ``kradan uci`` and ``kradan
xboard`` as processes, Fairy-Max over XBoard and scripted engines, answering in the same types
whichever it talks to. Every search here is depth-limited and shallow."""

from __future__ import annotations

import doctest
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator

import pytest

from kradan import Board, Move, new_board
from kradan.engine import Limit, PlayResult, PovScore, Score, Searcher, SearchInfo, SimpleEngine
from kradan.engine.client import Analysis, EngineOption, info, options, simple
from kradan.engine.client.info import uci_info, xboard_info, xboard_score
from kradan.errors import EngineError, InvalidArgumentError, VariantError

KRADAN = [sys.executable, "-m", "kradan"]
FAIRY_MAX = shutil.which("fairymax") or shutil.which("fairymax", path="/usr/games")
needs_fairy_max = pytest.mark.skipif(
    FAIRY_MAX is None, reason="Fairy-Max is not installed (apt-get install fairymax)"
)
#: White mates in one (h2a2); the same mate with colours swapped, Black to move (h7a7)
WHITE_MATES = "k7/2K5/8/8/8/8/7R/8 w - - 0 1"
BLACK_MATES = "8/7r/8/8/8/8/2k5/K7 b - - 0 1"
#: Black to move is checkmated; Black to move is stalemated (a draw in Makruk)
MATED = "k7/2K5/8/8/8/8/R7/8 b - - 0 1"
STALEMATED = "k1K5/7R/8/8/8/8/8/8 b - - 0 1"

MAKERS: dict[str, Callable[[], SimpleEngine]] = {
    "builtin": lambda: SimpleEngine.builtin(hash_mb=16),
    "uci": lambda: SimpleEngine.popen_uci([*KRADAN, "uci"]),
    "xboard": lambda: SimpleEngine.popen_xboard([*KRADAN, "xboard"]),
}


@pytest.fixture(scope="module", params=["builtin", "uci", "xboard"])
def kradan_engine(request: pytest.FixtureRequest) -> Iterator[SimpleEngine]:
    """kradan's search three ways: in this process, over UCI and over XBoard."""
    with MAKERS[request.param]() as engine:
        yield engine


def _opened() -> Board:
    board = Board()
    board.push_uci("e3e4")
    return board


def _check_info(found: SearchInfo[object], board: Board) -> None:
    """The types kradan's own search reports, field by field."""
    assert type(found) is SearchInfo
    assert isinstance(found.score, PovScore) and found.score.turn == board.turn
    assert isinstance(found.score.relative, Score)
    assert found.pv and all(type(move) is Move for move in found.pv)
    assert found.pv[0] in board.legal_moves
    for number in (found.depth, found.seldepth, found.nodes, found.nps, found.multipv):
        assert type(number) is int
    assert isinstance(found.seconds, float) and found.time == found.seconds
    assert found["score"] is found.score and found.get("tbhits") is None


# --- the same types, whichever engine -------------------------------------------------------


def test_every_engine_answers_in_the_types_of_kradans_search(kradan_engine: SimpleEngine) -> None:
    board = _opened()
    found = kradan_engine.analyse(board, Limit(depth=3))
    _check_info(found, board)
    assert found.depth == 3 and found.score.white() == -found.score.black()
    played = kradan_engine.play(board, Limit(depth=3))
    assert type(played) is PlayResult and played.move in board.legal_moves
    assert isinstance(played.info["score"], PovScore) and played.info["depth"] == 3
    assert played.ponder is not None and type(played.ponder) is Move
    assert kradan_engine.id["name"].startswith("kradan") and kradan_engine.name == "kradan 0.1.0"


def test_the_builtin_engine_and_kradan_uci_report_the_same_search() -> None:
    """The same search in this process and over UCI: the same line, score and nodes."""
    board = _opened()
    found = []
    for kind in ("builtin", "uci"):
        with MAKERS[kind]() as engine:
            found.append(engine.analyse(board, Limit(depth=4)))
    here, there = found
    assert (here.depth, here.score, here.pv) == (there.depth, there.score, there.pv)
    report = Searcher(hash_mb=16).best_move(board, Limit(depth=4)).info
    assert type(report) is SearchInfo  # kradan's searcher itself: the same report
    assert (report.score, report.pv, report.nodes) == (here.score, here.pv, here.nodes)


@needs_fairy_max
def test_fairy_max_over_xboard_answers_in_the_same_types() -> None:
    assert FAIRY_MAX is not None
    with SimpleEngine.popen_xboard(FAIRY_MAX) as engine:
        assert engine.name.startswith("Fairy-Max") and engine.protocol == "xboard"
        assert isinstance(engine.options["Resign Threshold"], EngineOption)
        board = _opened()
        found = engine.analyse(board, Limit(depth=3))
        _check_info(found, board)
        assert found.depth == 3
        played = engine.play(board, Limit(depth=3))
        assert played.move in board.legal_moves and isinstance(played.info["score"], PovScore)
        with pytest.raises(EngineError, match="one line"):
            engine.analyse(board, Limit(depth=2), multipv=2)


def test_mate_scores_know_their_side(kradan_engine: SimpleEngine) -> None:
    for fen, mover in ((WHITE_MATES, True), (BLACK_MATES, False)):
        board = Board(fen)
        found = kradan_engine.analyse(board, Limit(depth=3))
        assert found.score.relative == Score(mate=1) and found.score.pov(mover) == Score(mate=1)
        assert found.score.pov(not mover) == Score(mate=-1)
        assert found.score.mate == 1 and found.score.is_mate()
        assert found.pv[0].uci() == ("h2a2" if mover else "h7a7")


def test_multipv_gives_that_many_ranked_lines() -> None:
    board = _opened()
    for kind in ("builtin", "uci"):
        with MAKERS[kind]() as engine:
            lines = engine.analyse(board, Limit(depth=3), multipv=3)
            assert [line.multipv for line in lines] == [1, 2, 3]
            assert len({line.pv[0] for line in lines}) == 3
            values = [line.score.value for line in lines]
            assert values == sorted(values, reverse=True)
            for line in lines:
                _check_info(line, board)
            one = engine.analyse(board, Limit(depth=3))  # back to one line
            assert one.multipv == 1
            few = engine.analyse(Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1"), Limit(depth=1), multipv=40)
            assert 1 < len(few) < 40  # as many as there are moves


def test_a_game_already_over_is_not_searched(kradan_engine: SimpleEngine) -> None:
    mated = kradan_engine.analyse(Board(MATED), Limit(depth=3))
    assert (mated.depth, mated.pv, mated.score.relative) == (0, [], Score(mate=0))
    assert mated.score.white().value > 0  # White has won
    drawn = kradan_engine.analyse(Board(STALEMATED), Limit(depth=3), multipv=2)
    assert [line.score.relative for line in drawn] == [Score(cp=0)]
    assert kradan_engine.play(Board(MATED), Limit(depth=3)).move is None


def test_analysis_reports_as_it_goes_and_stops(kradan_engine: SimpleEngine) -> None:
    board = _opened()
    with kradan_engine.analysis(board) as search:
        assert isinstance(search, Analysis)
        depths = []
        for found in search:
            depths.append(found.depth)
            if found.depth >= 3:
                break
    assert depths[-1] == 3 and search.info is not None and search.result is None
    ended = kradan_engine.analysis(board, Limit(depth=2))
    result = ended.wait()
    assert result is not None and result.move in board.legal_moves
    assert ended.info is not None and ended.info.depth == 2
    left = kradan_engine.analysis(board)  # left running: the next call stops it
    next(left)
    assert kradan_engine.analyse(board, Limit(depth=2)).depth == 2


def test_kradans_engine_plays_alquerque_through_the_same_interface() -> None:
    board = new_board("alquerque", "5/5/1p3/5/P1P2 w - 0 1")
    for kind in ("builtin", "uci"):
        with MAKERS[kind]() as engine:
            found = engine.analyse(board, Limit(depth=6))
            assert [move.uci() for move in found.pv] == ["c1b2", "b3b1", "a1c1"]
            assert found.score.white() == Score(mate=2)


def test_a_searcher_of_ones_own_in_the_same_interface() -> None:
    searcher = Searcher(hash_mb=1)
    with SimpleEngine.from_searcher(searcher) as engine:
        found = engine.analyse(Board(WHITE_MATES), Limit(depth=3))
        assert found.score.white() == Score(mate=1) and engine.protocol == "builtin"
        with pytest.raises(EngineError, match="does not play alquerque"):
            engine.analyse(new_board("alquerque"), Limit(depth=2))
    with pytest.raises(InvalidArgumentError, match="'not a searcher'"):
        SimpleEngine.from_searcher("not a searcher")  # type: ignore[arg-type]


def test_options_are_declared_and_checked(kradan_engine: SimpleEngine) -> None:
    if kradan_engine.protocol == "xboard":  # the two that `feature option=` offers
        assert sorted(kradan_engine.options) == ["Contempt", "SolvedTable"]
        contempt = kradan_engine.options["Contempt"]
        assert (contempt.type, contempt.default, contempt.min, contempt.max) == ("spin", 0, 0, 100)
        assert kradan_engine.options["SolvedTable"].type == "check"
        kradan_engine.configure({"Contempt": 20, "SolvedTable": False})  # sent as =20 and =0
        with pytest.raises(InvalidArgumentError, match=r"option 'Contempt' 101 is outside"):
            kradan_engine.configure({"Contempt": 101})
        with pytest.raises(InvalidArgumentError, match="'Hash'"):
            kradan_engine.configure({"Hash": 8})
        return
    hash_option = kradan_engine.options["Hash"]
    assert (hash_option.type, hash_option.default, hash_option.min) == ("spin", 16, 1)
    kradan_engine.configure({"Hash": 8, "skill level": 20})
    with pytest.raises(InvalidArgumentError, match="'Nonsense'"):
        kradan_engine.configure({"Nonsense": 1})
    with pytest.raises(InvalidArgumentError, match=r"option 'Hash' 0 is outside 1\.\.4096"):
        kradan_engine.configure({"Hash": 0})
    with pytest.raises(InvalidArgumentError, match="'16'"):
        kradan_engine.configure({"Hash": "16"})
    with pytest.raises(InvalidArgumentError, match="expected a mapping"):
        kradan_engine.configure([("Hash", 8)])  # type: ignore[arg-type]


def test_a_weak_level_chooses_among_its_lines() -> None:
    with SimpleEngine.builtin(level=3, seed=1, hash_mb=1) as engine:
        board = _opened()
        played = engine.play(board, Limit(depth=3))
        assert played.move in board.legal_moves
        engine.configure({"Skill Level": 20, "MultiPV": 2})
        running = engine.analysis(board, Limit(depth=2))  # left running: quit stops it
        assert next(running).multipv == 1
    with pytest.raises(InvalidArgumentError, match="level 0"):
        SimpleEngine.builtin(level=0)
    with SimpleEngine.builtin(game="cambodian", hash_mb=1) as ready:  # compiled before use
        assert ready.play(Board(variant="cambodian"), Limit(depth=1)).move is not None
    with pytest.raises(VariantError, match="'chaturanga'"):
        SimpleEngine.builtin(game="chaturanga")


# --- bad input and broken engines ---------------------------------------------------------------


def test_bad_arguments_are_refused_quoted() -> None:
    with SimpleEngine.builtin(hash_mb=1) as engine:
        board = Board()
        cases: list[tuple[Callable[[], object], str]] = [
            (lambda: engine.analyse("rnsmksnr/8", Limit(depth=2)), "board 'rnsmksnr/8'"),  # type: ignore[arg-type]
            (lambda: engine.analyse(board, "depth 2"), "limit 'depth 2'"),  # type: ignore[arg-type]
            (lambda: engine.analyse(board, Limit(depth=0)), "depth 0 is outside"),
            (lambda: engine.analyse(board, Limit(depth=2.5)), "depth 2.5"),  # type: ignore[arg-type]
            (lambda: engine.analyse(board, Limit(time=-1)), "time -1"),
            (lambda: engine.analyse(board, Limit(time=float("nan"))), "time nan"),
            (lambda: engine.analyse(board, Limit()), "never ends"),
            (lambda: engine.play(board, Limit()), "never ends"),
            (lambda: engine.analyse(board, Limit(depth=2), multipv=0), "multipv 0"),
            (lambda: engine.analyse(board, Limit(depth=2), multipv="3"), "multipv '3'"),  # type: ignore[call-overload]
            (lambda: engine.analysis(board, multipv=-1), "multipv -1"),
            (lambda: SimpleEngine.popen_uci([*KRADAN, "uci"], timeout=-1), "timeout -1"),
            (lambda: PovScore(Score(cp=1), True).pov("white"), "color 'white'"),  # type: ignore[arg-type]
        ]
        for call, quoted in cases:
            with pytest.raises(InvalidArgumentError, match=quoted.replace(".", r"\.")):
                call()


DYING_UCI = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        words = line.split()
        if words == ['uci']:
            print('id name dying', flush=True)
            print('option name Hash type spin default 1 min 1 max 8', flush=True)
            print('uciok', flush=True)
        elif words == ['isready']:
            print('readyok', flush=True)
        elif words[:1] == ['go']:
            print('info depth 1 score cp 5 pv e3e4', flush=True)
            sys.exit(3)
    """
)


def test_a_dead_engine_raises_engine_error() -> None:
    engine = SimpleEngine.popen_uci([sys.executable, "-c", DYING_UCI], timeout=10)
    engine.configure({"Hash": 4})
    with pytest.raises(EngineError, match="exited"):
        engine.analyse(Board(), Limit(depth=2))
    with pytest.raises(EngineError, match=r"exited|gone"):
        engine.play(Board(), Limit(depth=2))
    with pytest.raises(EngineError, match="no MultiPV"):
        engine.analyse(Board(), Limit(depth=2), multipv=2)
    engine.quit()
    with pytest.raises(EngineError, match="'dying' has quit"):
        engine.analyse(Board(), Limit(depth=2))
    engine.quit()  # twice is harmless
    with pytest.raises(EngineError, match="cannot start"):
        SimpleEngine.popen_uci(["/nonexistent/engine"])
    with pytest.raises(EngineError, match="cannot start"):
        SimpleEngine.popen_xboard("")


MUTE_UCI = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        words = line.split()
        if words == ['uci']:
            print('uciok', flush=True)
        elif words[:1] == ['go']:
            print('bestmove e3e4', flush=True)
        elif words == ['quit']:
            break
    """
)


def test_an_engine_that_reports_nothing_plays_but_gives_no_analysis() -> None:
    with SimpleEngine.popen_uci([sys.executable, "-c", MUTE_UCI], timeout=10) as engine:
        played = engine.play(Board(), Limit(depth=2))
        assert played.move == Move.from_uci("e3e4") and played.info == {}
        with pytest.raises(EngineError, match="reported no score for 'rnsmksnr/"):
            engine.analyse(Board(), Limit(depth=2))


CHATTY_UCI = textwrap.dedent(
    """
    import sys
    for line in sys.stdin:
        words = line.split()
        if words == ['uci']:
            print('id name chatty', flush=True)
            print('id author someone', flush=True)
            print('option name UCI_Variant type combo default makruk var makruk var cambodian',
                  flush=True)
            print('option name Style type string default plain and simple', flush=True)
            print('option name Ponder type check default false', flush=True)
            print('option name Clear Hash type button', flush=True)
            print('uciok', flush=True)
        elif words == ['isready']:
            print('readyok', flush=True)
        elif words[:1] == ['go']:
            for text in [
                'info depth 1 seldepth 2 multipv 1 score cp 20 upperbound nodes 10 nps 1000 '
                'time 10 pv e3e4',
                'info currmove e3e4 currmovenumber 1',
                'info depth 2 seldepth 3 multipv 1 score cp 35 wdl 600 300 100 hashfull 12 '
                'tbhits 3 nodes 100 nps 10000 time 10 pv e3e4 e6e5 zz9 f3f4',
                'info depth 3 score cp 90 lowerbound pv e3e4',
                'info string all is well',
                'bestmove e3e4 ponder e6e5',
            ]:
                print(text, flush=True)
        elif words == ['quit']:
            break
    """
)


def test_uci_reports_are_read_in_full() -> None:
    with SimpleEngine.popen_uci([sys.executable, "-c", CHATTY_UCI], timeout=10) as engine:
        assert engine.id == {"name": "chatty", "author": "someone"}
        style = engine.options["Style"]
        assert (style.type, style.default) == ("string", "plain and simple")
        assert engine.options["UCI_Variant"].var == ("makruk", "cambodian")
        engine.configure({"style": "bold", "Ponder": True, "Clear Hash": None})
        with pytest.raises(InvalidArgumentError, match="'xiangqi'"):
            engine.configure({"UCI_Variant": "xiangqi"})
        with pytest.raises(InvalidArgumentError, match="'yes'"):
            engine.configure({"Ponder": "yes"})
        board = Board()
        found = engine.analyse(board, Limit(depth=3))
        # the lower bound of depth 3 replaces the exact depth 2 (deeper); the pv stops at "zz9"
        assert (found.depth, found.score.relative, found.lowerbound) == (3, Score(cp=90), True)
        with engine.analysis(board, Limit(depth=3)) as search:
            reports = list(search)
        assert [report.depth for report in reports] == [1, 2, 3]
        first, second = reports[0], reports[1]
        assert first.upperbound and not first.lowerbound and first.get("upperbound") is True
        assert (second.wdl, second.hashfull, second.tbhits, second.nodes) == (
            (600, 300, 100),
            12,
            3,
            100,
        )
        assert [move.uci() for move in second.pv] == ["e3e4", "e6e5"]
        assert (second.seconds, second.seldepth) == (0.01, 3)
        assert search.result is not None and search.result.ponder == Move.from_uci("e6e5")
        played = engine.play(board, Limit(depth=3))
        assert played.move == Move.from_uci("e3e4") and played.ponder == Move.from_uci("e6e5")


def test_uci_info_lines_become_search_infos() -> None:
    black = Board()
    black.push_uci("e3e4")
    found = uci_info("info depth 9 multipv 2 score mate -2 nodes 5 time 1500 pv a6a5", black)
    assert found is not None and found.multipv == 2 and found.seconds == 1.5
    assert found.score.black() == Score(mate=-2) and found.score.white() == Score(mate=2)
    assert found.as_dict()["time"] == 1.5 and "wdl" not in found.as_dict()
    assert uci_info("info string score cp 5", black) is None
    assert uci_info("info depth x score cp y", black) is None  # malformed: skipped, no score
    assert uci_info("info nodes 5", black) is None


def test_xboard_thinking_lines_become_search_infos() -> None:
    board = Board(WHITE_MATES)
    for text, score in [
        ("3 100001 12 345 h2a2", Score(mate=1)),  # the protocol's convention
        ("3 99999 12 345 h2a2", Score(mate=1)),  # kradan xboard's
        ("4 -100002 12 345 h2a2", Score(mate=-2)),
        ("5. 37 250 1000 h2a2 a8b8", Score(cp=37)),  # a depth marked as engines do
    ]:
        found = xboard_info(text, board)
        assert found is not None and found.score.relative == score, text
        assert found.pv[0] == Move.from_uci("h2a2") and found.multipv == 1
    tabbed = xboard_info("6 -20 150 9000 8 60000 4\t1. h2a2", board)
    assert tabbed is not None
    assert (tabbed.depth, tabbed.seldepth, tabbed.tbhits, tabbed.seconds) == (6, 8, 4, 1.5)
    assert tabbed.pv == [Move.from_uci("h2a2")]
    for other in ("move h2a2", "# times @ 1173202043", "Illegal move: x", "1-0 {White mates}"):
        assert xboard_info(other, board) is None
    assert xboard_score(350) == Score(cp=350)


FAKE_XBOARD = textwrap.dedent(
    """
    import sys
    print('feature myname="thinker" setboard=1 usermove=1 ping=1 done=0', flush=True)
    print('feature option="Resign Threshold -spin 800 200 1200" option="Style -combo a /// *b"',
          flush=True)
    print('feature option="Ponder -check 0" done=1', flush=True)
    for line in sys.stdin:
        words = line.split()
        if line.startswith('option Ponder=') and line.strip()[-2:] not in ('=0', '=1'):
            break  # a check box is 0 or 1 (CECP): anything else and this engine is gone
        if words[:1] == ['go']:
            print('1 20 0 10 h2h3', flush=True)
            print('2 100002 1 200 h2a2', flush=True)
            print('move h2a2', flush=True)
        elif words[:1] == ['ping']:
            print('pong ' + words[1], flush=True)
        elif words[:1] == ['quit']:
            break
    """
)


def test_xboard_engines_report_through_the_same_types() -> None:
    with SimpleEngine.popen_xboard([sys.executable, "-c", FAKE_XBOARD], timeout=10) as engine:
        assert engine.name == "thinker" and engine.id == {"name": "thinker"}
        threshold = engine.options["Resign Threshold"]
        assert (threshold.default, threshold.min, threshold.max) == (800, 200, 1200)
        assert engine.options["Style"].default == "b"
        engine.configure({"Resign Threshold": 900, "Style": "A"})
        engine.configure({"Ponder": True})  # sent as Ponder=1
        with pytest.raises(InvalidArgumentError, match=r"1300 is outside 200\.\.1200"):
            engine.configure({"Resign Threshold": 1300})
        board = Board(WHITE_MATES)
        found = engine.analyse(board, Limit(depth=2))
        assert (found.depth, found.score.white(), found.seconds) == (2, Score(mate=2), 0.01)
        played = engine.play(board, Limit(time=1))
        assert played.move == Move.from_uci("h2a2") and played.info["nodes"] == 200
        with pytest.raises(EngineError, match="no node limit"):
            engine.analyse(board, Limit(nodes=1000))


def test_the_client_is_kradan_engines_and_its_examples_hold() -> None:
    import kradan.engine
    from kradan.engine import client

    assert kradan.engine.SimpleEngine is client.SimpleEngine
    for module in (client, info, options, simple):
        assert doctest.testmod(module).failed == 0, module.__name__
    score = PovScore(Score(cp=-40), False)
    assert (score.cp, score.mate, score.value, str(score)) == (-40, None, -40, "cp -40")
    assert score.white() == Score(cp=40) and not score.is_mate()
