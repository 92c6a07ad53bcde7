"""``kradan xboard`` (issue 6 item 3): a scripted CECP session, line by line."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from kradan import Board, Move
from kradan.engine.protocol.xboard import XBoardEngine, thinking_score
from kradan.engine.types import Limit, PovScore, Score, SearchInfo
from kradan.games import game_names, new_board

from .protocol_session import EngineProcess
from .protocol_session import Session as ProtocolSession


def new_session() -> ProtocolSession:
    return ProtocolSession(XBoardEngine)


def test_features_name_every_variant() -> None:
    session = new_session()
    session.send("xboard", "protover 2")
    features = session.lines[-1]
    assert features.startswith("feature ") and features.endswith("done=1")
    for name in ("makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"):
        assert name in features
    assert f'variants="{",".join(game_names())}"' in features  # the names UCI_Variant takes


def test_engine_answers_a_user_move_as_black() -> None:
    session = new_session()
    session.send("new", "variant makruk", "st 1", "usermove e3e4")
    move = session.wait_for("move ").split()[1]
    board = Board()
    board.push_uci("e3e4")
    assert Move.from_uci(move) in board.legal_moves


@pytest.mark.parametrize(
    "game", ["makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"]
)
def test_every_game_answers_a_user_move(game: str) -> None:
    """XBoard plays every game: ``variant``, a user move in the game's UCI-style notation,
    and the engine's reply is a legal move there."""
    board = new_board(game)
    first = sorted(board.legal_moves, key=lambda move: move.uci())[0]
    session = new_session()
    session.send(
        "xboard", "protover 2", "new", f"variant {game}", "sd 3", f"usermove {first.uci()}"
    )
    reply = session.wait_for("move ").split()[1]
    board.push(first)
    assert board.parse_uci(reply) in board.legal_moves
    assert session.engine.board.move_stack[-1].uci() == reply
    assert not any(line.startswith(("Error", "Illegal", "tellusererror")) for line in session.lines)


def test_alquerque_setboard_capture_and_post() -> None:
    """Alquerque over XBoard: a position from ``setboard``, ``go``, thinking output, and a
    multi-jump move written as the points visited."""
    session = new_session()
    session.send("new", "variant alquerque", "force", "post", "setboard 5/5/3p1/1p3/P4 w - 0 1")
    session.send("sd 3", "go")
    assert session.wait_for("move ") == "move a1c3e3"
    assert any(line.split()[0].isdigit() for line in session.lines)


def test_force_setboard_go_and_post() -> None:
    session = new_session()
    session.send("new", "force", "post", "setboard k7/2K5/8/8/8/8/7R/8 w - - 0 1", "sd 3", "go")
    assert session.wait_for("move ") == "move h2a2"
    assert any(line.split()[0].isdigit() for line in session.lines)  # thinking output
    assert session.wait_for("1-0") == "1-0 {checkmate}"


def test_mate_scores_follow_the_protocol() -> None:
    """CECP: a mate in n is posted as 100000 + n, mated in n as -100000 - n."""
    session = new_session()
    session.send("new", "force", "post", "setboard k7/2K5/8/8/8/8/7R/8 w - - 0 1", "sd 3", "go")
    session.wait_for("move ")
    scores = {int(line.split()[1]) for line in session.lines if line.split()[0].isdigit()}
    assert 100001 in scores  # Ra2 mates at once
    assert thinking_score(Score(mate=-3)) == -100003 and thinking_score(Score(cp=-40)) == -40


def test_errors_never_end_the_session() -> None:
    session = new_session()
    session.send("new", "force")
    assert session.send("usermove e3e5") is True
    assert session.lines[-1] == "Illegal move: e3e5"
    assert session.send("frobnicate") is True
    assert session.lines[-1] == "Error (unknown command): frobnicate"
    assert session.send("variant chess") is True
    assert session.lines[-1].startswith("Error (unknown variant 'chess'")
    assert session.send("level 40") is True
    assert session.lines[-1].startswith("Error (")
    session.send("ping 3")
    assert session.lines[-1] == "pong 3"


@pytest.mark.parametrize(
    ("level", "clock", "increment", "moves_to_go"),
    [
        ("40 5 0", 300.0, 0.0, 40),
        ("0 0:30 0", 30.0, 0.0, None),
        ("0 2:30 1.5", 150.0, 1.5, None),
        ("0 2 3", 120.0, 3.0, None),
    ],
)
def test_level_gives_the_search_its_clock(
    level: str, clock: float, increment: float, moves_to_go: int | None
) -> None:
    """``level MPS BASE INC``: BASE in minutes or minutes:seconds, INC in seconds."""
    session = new_session()
    session.send("new", f"level {level}")
    limit = session.engine._limit()
    assert (limit.white_clock, limit.black_clock) == (clock, clock)
    assert (limit.white_inc, limit.black_inc) == (increment, increment)
    assert limit.moves_to_go == moves_to_go


def test_time_and_otim_are_in_centiseconds() -> None:
    session = new_session()
    session.send("new", "level 0 5 0", "time 1234", "otim 567")
    limit = session.engine._limit()  # White to move: the engine's clock is White's
    assert (limit.white_clock, limit.black_clock) == (12.34, 5.67)
    # a clock run past zero (an interface may send it) and the largest clock are read too
    session.send("time -250", "otim -100000000000")
    limit = session.engine._limit()
    assert (limit.white_clock, limit.black_clock) == (-2.5, -1e9)
    session.send("time 100000000000", "otim 100000000000")
    limit = session.engine._limit()
    assert (limit.white_clock, limit.black_clock) == (1e9, 1e9)
    session.send("time 100000000001")
    assert session.lines[-1].startswith("Error (")
    assert session.engine._limit().white_clock == 1e9  # a clock out of range changes nothing


def test_level_takes_up_to_a_million_moves_per_session() -> None:
    session = new_session()
    session.send("new", "level 1000000 5 0")
    assert session.engine._limit().moves_to_go == 1000000
    session.send("level 1000001 5 0")
    assert session.lines[-1].startswith("Error (")


def test_moves_to_go_counts_down_through_the_session() -> None:
    session = new_session()
    session.send("new", "force", "level 40 5 0", "e3e4", "d6d5", "c3c4", "c6c5")
    assert session.engine._limit().moves_to_go == 38  # two moves each played of forty


@pytest.mark.parametrize("command", ["st -1", "level 0 -5 0", "level 0 5 -1", "st inf"])
def test_negative_or_endless_seconds_are_refused(command: str) -> None:
    session = new_session()
    session.send("new", "level 0 5 0")
    before = session.engine._limit()
    session.send(command)
    assert session.lines[-1].startswith("Error ("), session.lines[-1]
    assert session.engine._limit() == before


def test_undo_remove_and_quit_mid_search() -> None:
    session = new_session()
    session.send("new", "force", "e3e4", "d6d5", "remove")
    assert session.engine.board.fen() == Board().fen()
    session.send("e3e4", "undo")
    assert session.engine.board.fen() == Board().fen()
    session.send("level 0 5 0", "go")
    thread = session.engine._thread
    assert thread is not None and thread.is_alive()  # five minutes to spend: it searches
    assert session.send("quit") is False
    assert not thread.is_alive()
    assert session.engine._thread is None  # quit stopped the search and waited for it


def test_the_command_over_pipes() -> None:
    script = "xboard\nprotover 2\nnew\nvariant sittuyin\nst 1\ngo\nping 1\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "kradan.cli.main", "xboard"],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and "pong 1" in lines
    assert any(line.startswith("move ") and "@" in line for line in lines)  # a setup drop


@pytest.mark.parametrize(
    "command",
    ["x" * 1_000_000, "setboard " + "p" * 1_000_000, bytes(range(256)).decode("latin-1")],
    ids=["1MB", "1MB-setboard", "binary"],
)
def test_huge_and_binary_lines_get_a_short_error(command: str) -> None:
    from kradan.engine.protocol.session import MAX_COMPLAINT

    session = new_session()
    assert session.send(command) is True
    assert session.lines[-1].startswith(("Error", "tellusererror"))
    assert len(session.lines[-1]) <= MAX_COMPLAINT + 40
    session.send("ping 7")
    assert session.lines[-1] == "pong 7"


# --- discipline over real pipes (issue 13 item 4): move now and quit at any moment, bad moves
# and positions, huge lines and binary garbage; after each, `ping` is answered and the engine
# still plays a legal move

ERRORS = ("Error", "Illegal move", "tellusererror")


@pytest.fixture
def engine() -> Iterator[EngineProcess]:
    process = EngineProcess("xboard")
    process.send("xboard", "protover 2")
    process.expect("feature myname")
    yield process
    process.close()


def assert_serving(engine: EngineProcess, number: int = 99) -> None:
    """The engine answers ``ping`` and still answers a user move with a legal move; everything
    it wrote is printable."""
    engine.send(f"ping {number}")
    engine.expect(f"pong {number}")
    engine.send("new", "sd 2", "usermove e3e4")
    reply = engine.expect("move ")[-1].split()[1]
    assert reply in {move.uci() for move in _after("e3e4").legal_moves}
    assert all(line.isprintable() for line in engine.seen), engine.seen


def moves_in(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("move ")]


def test_move_now_mid_search_over_pipes(engine: EngineProcess) -> None:
    """``?`` ends a long think with one legal move."""
    engine.send("new", "force", "post", "st 600", "go")
    engine.expect("3 ")  # thinking output at depth 3
    engine.send("?", "ping 1")
    lines = engine.expect("pong 1")
    assert len(moves_in(lines)) == 1
    assert moves_in(lines)[0].split()[1] in {move.uci() for move in Board().legal_moves}
    assert_serving(engine)


@pytest.mark.parametrize("command", ["force", "new", "undo", "setboard " + Board().fen()])
def test_a_command_that_stops_thinking_cancels_the_move(
    engine: EngineProcess, command: str
) -> None:
    """``force``, ``new``, ``undo`` or ``setboard`` mid-search stop it without a stray move."""
    engine.send("new", "force", "post", "st 600", "go")
    engine.expect("3 ")
    engine.send(command, "ping 2")
    assert not moves_in(engine.expect("pong 2"))
    assert_serving(engine)


def test_move_now_and_stop_when_idle_or_twice(engine: EngineProcess) -> None:
    """``?`` with nothing to stop, twice in a row, and ``stop`` (not XBoard's) are harmless."""
    engine.send("?", "?", "ping 3")
    assert engine.expect("pong 3") == ["pong 3"]
    engine.send("stop", "ping 4")
    lines = engine.expect("pong 4")
    assert lines[0].startswith("Error (unknown command): stop")
    engine.send("new", "force", "st 600", "go", "?", "?", "ping 5")
    assert len(moves_in(engine.expect("pong 5"))) == 1
    assert_serving(engine)


@pytest.mark.parametrize(
    "commands",
    [
        ["quit"],
        ["quit", "quit"],
        ["new", "force", "usermove e3e4", "quit"],
        ["new", "force", "st 600", "go", "quit"],
        ["new", "st 600", "usermove e3e4", "quit"],
        ["new", "force", "st 600", "go", "?", "quit"],
        ["new", "force", "st 600", "go", "quit", "quit"],
    ],
    ids=[
        "idle",
        "twice",
        "after-move",
        "thinking",
        "answering",
        "after-move-now",
        "twice-thinking",
    ],
)
def test_quit_at_any_moment_ends_the_process(commands: list[str]) -> None:
    engine = EngineProcess("xboard")
    try:
        engine.send("xboard", "protover 2")
        engine.expect("feature myname")
        engine.send(*commands)
        assert engine.exits() == 0
    finally:
        engine.close()


def test_the_end_of_input_mid_search_ends_the_process() -> None:
    engine = EngineProcess("xboard")
    try:
        engine.send("xboard", "protover 2", "new", "force", "post", "st 600", "go")
        engine.expect("3 ")
        assert engine.process.stdin is not None
        engine.process.stdin.close()
        assert engine.exits() == 0
    finally:
        engine.close()


@pytest.mark.parametrize(
    "command",
    [
        "usermove e3e5",  # illegal
        "usermove e3",  # truncated
        "usermove",
        "e3e",
        "usermove z9z9",
        "setboard",  # truncated: no position
        "setboard rnsmksnr/8/pppppppp",  # truncated FEN
        "setboard 8/8/8/8/8/8/8/8 w - - 0 1",  # no kings
        "level 40",
        "time",
        "st x",
        "sd -",
        "variant",
    ],
)
def test_bad_moves_and_positions_over_pipes(engine: EngineProcess, command: str) -> None:
    """Each is answered ``Illegal move``, ``Error`` or ``tellusererror``, and the position is
    kept."""
    engine.send("new", "force", "usermove e3e4", "usermove d6d5", command, "ping 6")
    lines = engine.expect("pong 6")
    assert len(lines) == 2 and lines[0].startswith(ERRORS), lines
    assert_serving(engine)


@pytest.mark.parametrize(
    "line",
    [
        b"x" * 1_000_000,
        b"usermove " + b"e3e4" * 250_000,
        b"setboard " + b"r" * 1_000_000,
        b"ping " + b"1" * 1_000_000,
        bytes(range(256)) * 4000,  # 1 MB of every byte, newlines included
        b"\xff\xfe\x00\xc3\x28\xed\xa0\x80\xf8\x88\x80\x80\x80",  # invalid UTF-8 and NUL
        b"ping 1\x00",
        b"usermove e3e4\xff",
        b"\x00" * 1000,
    ],
    ids=[
        "1MB",
        "1MB-move",
        "1MB-setboard",
        "1MB-ping",
        "binary-1MB",
        "invalid-utf8",
        "nul-ping",
        "bad-byte-move",
        "nuls",
    ],
)
def test_huge_lines_and_binary_garbage_over_pipes(engine: EngineProcess, line: bytes) -> None:
    """Each gets a short answer (the input is not echoed whole), printable, and the engine goes
    on."""
    from kradan.engine.protocol.session import MAX_COMPLAINT

    engine.send("new", "force", line, "ping 8")
    answers = engine.expect("pong 8")[:-1]
    if line.startswith(b"ping "):  # a ping is answered, its token cut short
        assert answers and answers[0].startswith("pong ")
    else:
        assert answers and all(answer.startswith(ERRORS) for answer in answers), answers[:3]
    assert all(len(answer) <= MAX_COMPLAINT + 40 for answer in answers)
    assert_serving(engine)


def _after(moves: str) -> Board:
    board = Board()
    for uci in moves.split():
        board.push_uci(uci)
    return board


class _ScriptedSearch:
    """Stands in for the searchers: yields the given iterations, whatever the position."""

    def __init__(self, infos: list[SearchInfo[Move]]) -> None:
        self.infos = infos

    def for_board(self, board: object) -> _ScriptedSearch:
        return self

    def search(
        self, board: object, limit: Limit, armed: bool = False
    ) -> Iterator[SearchInfo[Move]]:
        yield from self.infos


def _scripted(infos: list[SearchInfo[Move]]) -> ProtocolSession:
    session = new_session()
    session.send("new", "force")
    session.engine.searchers = _ScriptedSearch(infos)  # type: ignore[assignment]
    session.engine._move_wanted = True
    return session


def test_post_shows_each_iteration_with_its_time_in_centiseconds() -> None:
    line = SearchInfo(
        depth=3,
        seldepth=5,
        score=PovScore(Score(cp=42), True),
        pv=[Move.from_uci("e3e4")],
        nodes=900,
        seconds=1.234,
    )
    session = _scripted([line])
    session.engine.post = True
    session.engine.think(Board(), Limit(depth=3))
    assert session.lines[-2:] == ["3 42 123 900 e3e4", "move e3e4"]


def test_a_search_stopped_before_any_line_still_moves() -> None:
    """Stopped before its first iteration ends, the search has no line: the engine plays the
    first legal move rather than none."""
    session = _scripted([])
    board = Board()
    session.engine.think(board, Limit(depth=3))
    assert session.lines[-1] == f"move {next(iter(board.legal_moves)).uci()}"


def test_no_move_is_made_in_a_position_drawn_by_a_claim() -> None:
    """The start position a third time (knights out and back twice): the game is drawn on a
    claim, so go makes no move."""
    session = new_session()
    session.send(
        "new", "force", "sd 1", *["b1d2", "b8d7", "d2b1", "d7b8", "b1d2", "b8d7", "d2b1", "d7b8"]
    )
    session.send("go", "ping 1")
    assert session.lines[-1] == "pong 1"
    assert not any(line.startswith("move ") for line in session.lines)


def test_options_offered_by_feature_are_taken() -> None:
    """``feature option=...`` offers Contempt (a spin, 0-100) and SolvedTable (a check); the
    GUI's ``option NAME=VALUE`` sets them, and a value out of range or an unknown name is
    answered with an error that quotes it, leaving the setting as it was."""
    session = new_session()
    session.send("xboard", "protover 2")
    offered = session.lines[-2]
    assert offered.startswith("feature option=") and "done=1" in session.lines[-1]
    assert 'option="Contempt -spin 0 0 100"' in offered
    session.send("option Contempt=30")
    assert session.engine.searchers.contempt == 30  # type: ignore[attr-defined]
    session.send("option Contempt=101")
    assert session.lines[-1] == "Error (101 is outside 0..100): option Contempt=101"
    session.send("option Contempt")
    assert "takes a value" in session.lines[-1]
    session.send("option Hash=64")
    assert session.lines[-1].startswith("Error (unknown option 'Hash'")
    assert session.engine.searchers.contempt == 30  # type: ignore[attr-defined]
