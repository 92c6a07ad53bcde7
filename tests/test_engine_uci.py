"""``kradan uci`` (issue 6): scripted sessions, line by line, including stop, quit mid-search and
garbage input, as the UCI protocol describes."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Iterator

import pytest

from kradan import Board, Move
from kradan.engine import Limit, Searcher
from kradan.engine.levels import MAX_LEVEL, level_rating
from kradan.engine.protocol.uci import UciEngine

from .protocol_session import EngineProcess
from .protocol_session import Session as ProtocolSession


def new_session() -> ProtocolSession:
    return ProtocolSession(UciEngine)


def test_handshake_lists_every_variant() -> None:
    session = new_session()
    session.send("uci")
    assert session.lines[0].startswith("id name kradan")
    variant_line = next(line for line in session.lines if "UCI_Variant" in line)
    for name in ("makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"):
        assert f"var {name}" in variant_line
    assert session.lines[-1] == "uciok"
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_position_go_depth_gives_info_and_a_legal_bestmove() -> None:
    session = new_session()
    session.send("position startpos moves e3e4 d6d5", "go depth 5")
    best = session.wait_for("bestmove")
    infos = [line for line in session.lines if line.startswith("info depth")]
    assert len(infos) == 5
    for word in ("seldepth", "score", "nodes", "nps", "time", "pv"):
        assert f" {word} " in infos[-1]
    board = Board()
    board.push_uci("e3e4")
    board.push_uci("d6d5")
    assert Move.from_uci(best.split()[1]) in board.legal_moves


def test_variant_option_and_fen() -> None:
    session = new_session()
    session.send(
        "setoption name UCI_Variant value sittuyin",
        "position fen k7/2K5/8/8/8/8/7R/8[] w - - 0 1",
        "go depth 3",
    )
    assert session.wait_for("bestmove") == "bestmove h2a2"
    assert any("score mate 1" in line for line in session.lines)


def test_alquerque_over_uci() -> None:
    """Alquerque through the same protocol: its position text after ``position fen``, moves as
    the points visited, ``go perft``, MultiPV, and bad moves reported without ending."""
    session = new_session()
    session.send(
        "setoption name UCI_Variant value alquerque",
        "position fen 5/5/1p3/5/P1P2 w - 0 1",
        "setoption name MultiPV value 2",
        "go depth 4",
    )
    assert session.wait_for("bestmove") == "bestmove c1b2 ponder b3b1"
    assert any("multipv 1 score mate 2" in line for line in session.lines)
    assert any("multipv 2 " in line for line in session.lines)
    session.send("setoption name UCI_Variant value alquerque-bell", "position startpos moves c2c3")
    session.send("go perft 2")
    assert session.lines[-1] == "Nodes searched: 1"  # the capture is compulsory: c4xc2, c1xc3
    session.send("position startpos moves c2c2")
    assert "invalid Alquerque move" in session.lines[-1] or "illegal" in session.lines[-1]
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_stop_ends_an_infinite_search() -> None:
    session = new_session()
    session.send("position startpos", "go infinite")
    session.wait_for("info depth 3")
    session.send("stop")
    assert session.lines[-1].startswith("bestmove ")


def test_quit_mid_search_ends_the_session() -> None:
    session = new_session()
    session.send("go infinite")
    session.wait_for("info depth")  # searching
    assert session.send("quit") is False
    # quit stopped the search and waited for it: its answer is out, its thread is gone
    assert session.lines[-1].startswith("bestmove ")
    assert session.engine._thread is None


def test_the_end_of_input_lets_a_depth_limited_search_finish_and_stops_others() -> None:
    """Issue 43: ``printf 'uci\\nposition startpos\\ngo depth 8\\n' | kradan uci`` (the help's
    example) answers at depth 8; ``quit`` stops at once, as UCI says."""
    session = new_session()
    session.send("position startpos", "go depth 6")
    session.engine.shutdown()  # what the loop does when the input ends
    assert any(line.startswith("info depth 6 ") for line in session.lines)
    assert session.lines[-1].startswith("bestmove ")
    for go in ("go infinite", "go movetime 600000"):  # no reader may ever come back
        other = new_session()
        other.send(go)
        other.wait_for("info depth")
        other.engine.shutdown()  # returns: the search is stopped
        assert other.lines[-1].startswith("bestmove ")


def test_contempt_is_an_option_that_reaches_the_search() -> None:
    session = new_session()
    session.send("uci")
    assert "option name Contempt type spin default 0 min 0 max 100" in session.lines
    session.send("setoption name Contempt value 25")
    assert session.engine.options.contempt == 25
    assert session.engine.searchers.chess.adapter.contempt == 25  # type: ignore[attr-defined]


def test_garbage_is_reported_and_the_session_goes_on() -> None:
    session = new_session()
    for command in (
        "bogus",
        "go wtime x",
        "go depth",
        "position fen 8/8 w",
        "position startpos moves e3e5",
        "setoption name Hash value lots",
        "setoption name Colour value red",
        "setoption name UCI_Variant value chess",
        "setoption name Contempt value 101",
        "position",
    ):
        assert session.send(command) is True
        assert session.lines[-1].startswith("info string "), command
    session.send("isready")
    assert session.lines[-1] == "readyok"


def test_go_perft_multipv_and_clock() -> None:
    session = new_session()
    session.send("go perft 2")
    assert session.lines[-1] == "Nodes searched: 529"
    session.lines.clear()
    session.send("setoption name MultiPV value 3", "position startpos", "go depth 3")
    session.wait_for("bestmove")
    assert {line.split(" multipv ")[1][0] for line in session.lines if " multipv " in line} == {
        "1",
        "2",
        "3",
    }
    session.lines.clear()
    session.send("setoption name MultiPV value 1", "go wtime 1000 btime 1000 winc 10 binc 10")
    best = session.wait_for("bestmove").split()[1]
    assert best in {move.uci() for move in Board().legal_moves}
    times = [int(line.split(" time ")[1].split()[0]) for line in session.lines if " time " in line]
    assert times and max(times) < 1000  # a share of the second on the clock, never all of it


def test_go_reads_clocks_in_milliseconds_up_to_a_trillion() -> None:
    """A clock run past zero and the largest one are read; one beyond is refused."""
    engine = new_session().engine
    limit = engine._limit(["wtime", "-1000000000000", "btime", "1000000000000", "winc", "1500"])
    assert (limit.white_clock, limit.black_clock) == (-1e9, 1e9)
    assert (limit.white_inc, limit.black_inc) == (1.5, 0.0)
    for text in ("wtime 1000000000001", "btime -1000000000001"):
        with pytest.raises(ValueError, match="outside"):
            engine._limit(text.split())


@pytest.mark.parametrize("options", [("Skill Level", "1"), ("UCI_LimitStrength", "true")])
def test_weaker_levels_still_play_legal_moves(options: tuple[str, str]) -> None:
    session = new_session()
    name, value = options
    session.send(f"setoption name {name} value {value}", "setoption name UCI_Elo value 600")
    session.send("position startpos", "go movetime 200")
    best = session.wait_for("bestmove").split()[1]
    assert Move.from_uci(best) in Board().legal_moves


def test_the_command_over_pipes() -> None:
    script = "uci\nisready\nposition startpos\ngo depth 4\nisready\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "kradan.cli.main", "uci"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = result.stdout.splitlines()
    assert result.returncode == 0
    assert "uciok" in lines and any(line.startswith("bestmove ") for line in lines)


BINARY_GARBAGE = bytes(range(256)).decode("utf-8", errors="surrogateescape")


@pytest.mark.parametrize(
    "command",
    [
        "x" * 1_000_000,  # a 1 MB line
        "position fen " + "p" * 1_000_000,
        "position startpos moves " + "e3e4 " * 200_000,
        BINARY_GARBAGE,
        "position startpos moves e3e4 d6d5 e4",  # a truncated move
    ],
    ids=["1MB", "1MB-fen", "1MB-moves", "binary", "truncated"],
)
def test_huge_and_binary_lines_get_a_short_error_and_the_engine_keeps_serving(
    command: str,
) -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT

    session = new_session()
    assert session.send(command) is True
    answer = session.lines[-1]
    assert answer.startswith("info string ")
    assert len(answer) <= len("info string ") + MAX_COMPLAINT + 40  # the input is not echoed
    session.send("position startpos moves e3e4", "go depth 2")
    assert session.wait_for("bestmove").split()[1] in {
        move.uci() for move in _after("e3e4").legal_moves
    }


def _after(moves: str) -> Board:
    board = Board()
    for uci in moves.split():
        board.push_uci(uci)
    return board


# --- discipline over real pipes (issue 13 item 4): stop and quit at any moment, bad positions,
# huge lines and binary garbage; after each, `isready` is answered and a search gives a legal move


@pytest.fixture
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess("uci")
    yield process
    process.close()


def assert_serving(engine: EngineProcess) -> None:
    """The engine answers ``isready`` and still finds a legal move after ``e3e4``; everything
    it wrote is printable."""
    engine.send("isready")
    engine.expect("readyok")
    engine.send("position startpos moves e3e4", "go depth 2")
    best = engine.expect("bestmove")[-1].split()[1]
    assert best in {move.uci() for move in _after("e3e4").legal_moves}
    assert all(line.isprintable() for line in engine.seen), engine.seen


def bestmoves(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("bestmove ")]


@pytest.mark.parametrize(
    "search", ["go infinite", "go depth 60", "go movetime 600000", "go wtime 600000 btime 600000"]
)
def test_stop_mid_search_over_pipes(engine: EngineProcess, search: str) -> None:
    engine.send("position startpos moves e3e4", search)
    engine.expect("info depth 2")
    engine.send("stop", "isready")
    lines = engine.expect("readyok")
    assert len(bestmoves(lines)) == 1
    assert bestmoves(lines)[0].split()[1] in {m.uci() for m in _after("e3e4").legal_moves}
    assert_serving(engine)


def test_stop_at_once_twice_and_when_idle(engine: EngineProcess) -> None:
    """``stop`` before any position, right after ``position``, straight after ``go`` and twice
    in a row: one ``bestmove`` per ``go``, none without one."""
    engine.send("stop", "isready")
    assert not bestmoves(engine.expect("readyok"))
    engine.send("position startpos", "stop", "isready")
    assert not bestmoves(engine.expect("readyok"))
    engine.send("go infinite", "stop", "stop", "isready")
    lines = engine.expect("readyok")
    assert len(bestmoves(lines)) == 1
    assert bestmoves(lines)[0].split()[1] in {move.uci() for move in Board().legal_moves}
    engine.send("go depth 60")
    engine.expect("info depth 1")
    engine.send("stop", "stop", "isready")
    assert len(bestmoves(engine.expect("readyok"))) == 1
    assert_serving(engine)


@pytest.mark.parametrize(
    "commands",
    [
        ["quit"],
        ["quit", "quit"],
        ["position startpos moves e3e4", "quit"],
        ["position startpos", "go infinite", "quit"],
        ["position startpos", "go depth 60", "quit"],
        ["go infinite", "stop", "quit"],
        ["go infinite", "quit", "quit"],
    ],
    ids=["idle", "twice", "after-position", "infinite", "depth", "after-stop", "twice-searching"],
)
def test_quit_at_any_moment_ends_the_process(commands: list[str]) -> None:
    engine = EngineProcess("uci")
    try:
        engine.send("isready")
        engine.expect("readyok")
        engine.send(*commands)
        assert engine.exits() == 0
    finally:
        engine.close()


def test_the_end_of_input_mid_search_ends_the_process() -> None:
    engine = EngineProcess("uci")
    try:
        engine.send("position startpos", "go infinite")
        engine.expect("info depth 2")
        assert engine.process.stdin is not None
        engine.process.stdin.close()
        assert engine.exits() == 0
    finally:
        engine.close()


@pytest.mark.parametrize(
    "command",
    [
        "position startpos moves e3e4 e3e4",  # illegal: no piece there any more
        "position startpos moves e3e5",  # illegal: a pawn moves one square
        "position startpos moves e3e4 d6d5 e4",  # truncated move
        "position startpos moves e3e4 d6",
        "position startpos moves e3e4 d6d5 z9z9",
        "position fen",  # truncated: no FEN
        "position fen rnsmksnr/8/pppppppp",  # truncated FEN
        "position fen rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1 moves a3a5",
        "position moves e3e4",
        "position",
        "go depth",  # a truncated go
        "setoption name",
    ],
)
def test_bad_positions_over_pipes(engine: EngineProcess, command: str) -> None:
    """A bad ``position`` line is reported and leaves the previous position as it was."""
    engine.send("position startpos moves a3a4", command, "isready")
    lines = engine.expect("readyok")
    assert lines[0].startswith("info string ") and len(lines) == 2, lines
    engine.send("go depth 2")
    assert engine.expect("bestmove")[-1].split()[1] in {
        move.uci() for move in _after("a3a4").legal_moves
    }
    assert_serving(engine)


@pytest.mark.parametrize(
    "line",
    [
        b"x" * 1_000_000,
        b"position startpos moves " + b"e3e4 " * 200_000,
        b"position fen " + b"r" * 1_000_000,
        b"setoption name " + b"Hash " * 200_000 + b"value 1",
        b"go depth 2 " + b"depth " * 200_000,
        bytes(range(256)) * 4000,  # 1 MB of every byte, newlines included
        b"\xff\xfe\x00\xc3\x28\xed\xa0\x80\xf8\x88\x80\x80\x80",  # invalid UTF-8 and NUL
        b"isready\x00",
        b"position startpos moves e3e4\xff",
        b"\x00" * 1000,
    ],
    ids=[
        "1MB",
        "1MB-moves",
        "1MB-fen",
        "1MB-option",
        "1MB-go",
        "binary-1MB",
        "invalid-utf8",
        "nul-suffix",
        "bad-byte-move",
        "nuls",
    ],
)
def test_huge_lines_and_binary_garbage_over_pipes(engine: EngineProcess, line: bytes) -> None:
    """Each gets a short ``info string`` (the input is not echoed whole) and the engine goes
    on; what it writes stays printable."""
    from kradan.engine.protocol.session import MAX_COMPLAINT

    engine.send(line, "isready")
    answers = engine.expect("readyok")[:-1]
    assert answers and all(answer.startswith("info string ") for answer in answers), answers[:3]
    assert all(len(answer) <= len("info string ") + MAX_COMPLAINT + 40 for answer in answers)
    assert_serving(engine)


def test_a_legal_one_megabyte_position_is_played(engine: EngineProcess) -> None:
    """A 1 MB line of legal moves (knights to and fro) is accepted, and the search answers."""
    engine.send("position startpos moves " + "b1d2 b8d7 d2b1 d7b8 " * 50_000, "isready")
    assert engine.expect("readyok") == ["readyok"]
    engine.send("go depth 2")
    assert engine.expect("bestmove")[-1].split()[1] in {m.uci() for m in Board().legal_moves}
    assert_serving(engine)


@pytest.mark.parametrize(
    "command", ["go depth 1", "go perft 1", "ucinewgame", "setoption name Hash value 8"]
)
def test_a_command_that_waits_never_hangs_behind_an_infinite_search(
    engine: EngineProcess, command: str
) -> None:
    """A GUI that forgets ``stop`` before ``go`` or ``ucinewgame`` during ``go infinite`` is
    told so, and the infinite search is stopped (it would never end on its own)."""
    engine.send("position startpos", "go infinite")
    engine.expect("info depth 2")
    engine.send(command, "isready")
    lines = engine.expect("readyok", timeout=60)
    assert any(line.startswith("info string ") for line in lines), lines
    assert bestmoves(lines)  # the infinite search's
    if command.startswith("go depth") and len(bestmoves(lines)) < 2:
        engine.expect("bestmove")  # the new search's, when it comes after ``readyok``
    assert_serving(engine)


def test_read_lines_decodes_leniently_and_skips_an_overlong_line() -> None:
    from kradan.engine.protocol.serve import TooLong, read_lines

    source = io.BytesIO(b"isready\n\xff\x00go\n" + b"y" * 50 + b"\nquit")
    lines = list(read_lines(source, limit=20))
    assert lines[:2] == ["isready\n", "\ufffd\x00go\n"]
    assert isinstance(lines[2], TooLong) and "51 bytes" in lines[2]
    assert lines[3] == "quit"


def test_complaints_are_printable_and_short() -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT, clipped

    assert clipped("bad \x00\udcff\x1b[2J") == "bad \\x00\\udcff\\x1b[2J"
    assert len(clipped("\x00" * 10_000)) <= MAX_COMPLAINT + 40
    assert clipped("ok") == "ok"


def test_a_complaint_is_cut_to_its_limit_and_says_how_long_it_was() -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT, clipped

    assert clipped("x" * MAX_COMPLAINT) == "x" * MAX_COMPLAINT
    longer = "x" * (MAX_COMPLAINT + 1)
    assert clipped(longer) == "x" * MAX_COMPLAINT + f"... ({MAX_COMPLAINT + 1} characters)"
    # escapes lengthen the text: the cut applies to what is shown
    assert clipped("\x00" * MAX_COMPLAINT) == "\\x00" * (MAX_COMPLAINT // 4) + (
        f"... ({MAX_COMPLAINT} characters)"
    )


def test_limit_strength_and_elo_choose_the_level() -> None:
    """UCI_Elo picks the level whose measured strength is nearest (docs/strength.md's ladder):
    each level's own rating picks it, and a rating between two picks the nearer."""
    engine = new_session().engine
    assert engine._level() == MAX_LEVEL  # full strength unless asked
    engine.cmd_setoption(["name", "UCI_LimitStrength", "value", "true"])
    assert engine.options.limit_strength is True
    for level in range(1, MAX_LEVEL + 1):
        engine.cmd_setoption(["name", "UCI_Elo", "value", str(level_rating(level))])
        assert engine._level() == level
    below, above = level_rating(9), level_rating(10)
    engine.cmd_setoption(["name", "UCI_Elo", "value", str(below + (above - below) // 3)])
    assert engine._level() == 9
    engine.cmd_setoption(["name", "UCI_Elo", "value", str(above - (above - below) // 3)])
    assert engine._level() == 10
    engine.cmd_setoption(["name", "UCI_LimitStrength", "value", "false"])
    assert engine._level() == MAX_LEVEL


def test_the_elo_scale_is_the_measured_ladder() -> None:
    """Level 1 is UCI_Elo 500 and every level above it stands higher by its measured steps; the
    option offers exactly that range."""
    assert level_rating(1) == 500
    ratings = [level_rating(level) for level in range(1, MAX_LEVEL + 1)]
    assert ratings == sorted(set(ratings))  # every level stronger than the one below
    session = new_session()
    session.send("uci")
    option = next(line for line in session.lines if "name UCI_Elo " in line)
    assert option.split()[-6:] == ["default", str(ratings[-1]), "min", "500", "max",
                                   str(ratings[-1])]  # fmt: skip


def test_movetime_is_read_in_milliseconds() -> None:
    engine = new_session().engine
    assert engine._limit(["movetime", "1500"]).time == 1.5


def test_threads_takes_one_and_refuses_more() -> None:
    session = new_session()
    session.send("setoption name Threads value 1")
    assert session.lines == []
    session.send("setoption name Threads value 2")
    assert session.lines[-1].startswith("info string ")


def test_the_default_tables_are_described_with_their_directory() -> None:
    from kradan.egtb.tables import default_directory

    session = new_session()
    session.send("setoption name EgtbPath value <default>")
    said = session.lines[-1]
    assert said.startswith("info string endgame tables: ") and "files in" in said
    assert repr(str(default_directory())) in said


def test_bad_go_and_position_commands_name_what_is_wrong() -> None:
    session = new_session()
    session.send("go " + "depth 1 " * 200 + "depth")  # 401 words: the last has no number
    assert (
        session.lines[-1].startswith("info string ")
        and "go depth needs a number" in session.lines[-1]
    )
    session.send("position foo bar")
    assert session.lines[-1].startswith("info string ") and "not 'foo'" in session.lines[-1]


def test_perft_at_depth_zero_counts_the_position() -> None:
    session = new_session()
    session.send("go perft 0")
    assert session.lines[-1] == "Nodes searched: 1"


def _depth_nodes(*options: str) -> int:
    session = new_session()
    session.send(*options, "position startpos", "go depth 3")
    session.wait_for("bestmove")
    return int(session.wait_for("info depth 3").split(" nodes ")[1].split()[0])


def test_full_strength_searches_one_line_and_a_weak_level_four() -> None:
    """A weak level chooses among the four best lines, so it searches four; full strength
    searches only the lines MultiPV asks for (more lines cost more nodes)."""
    one = _depth_nodes()
    assert _depth_nodes("setoption name MultiPV value 4") > one
    assert _depth_nodes("setoption name Skill Level value 19") == _depth_nodes(
        "setoption name MultiPV value 4", "setoption name Skill Level value 19"
    )


def test_skill_level_one_chooses_among_ten_lines() -> None:
    """At level 1 the engine's moves, over many searches, include moves outside the best four
    of a depth-1 search: it chose among level_lines(1), ten."""
    fen = "r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11"
    board = Board(fen)
    four = next(iter(Searcher(4).search_multipv(board, Limit(depth=1), 4)))
    best_four = {line.pv[0].uci() for line in four}
    session = new_session()
    session.send("setoption name Skill Level value 1", f"position fen {fen}")
    played = set()
    for _ in range(40):
        session.lines.clear()
        session.send("go depth 1")
        played.add(session.wait_for("bestmove").split()[1])
    assert played - best_four
