"""The search made ready in the background (issue 44 item 3): ``kradan uci``/``xboard`` answer
the handshake at once while their search compiles, keep the set-up commands for later, and the
first command that needs the search waits for it. The warm-up is held up here by a stand-in for
``Searchers.warm`` that waits for the test, as a first run's compilation would."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from numba.core import event

from kradan.engine.protocol.session import COMPILING
from kradan.engine.protocol.uci import UciEngine
from kradan.engine.protocol.xboard import XBoardEngine

from .protocol_session import EngineProcess, Session


class HeldWarmup:
    """Stands in for ``Searchers.warm``: it sends numba's compile event (as a first run does),
    then waits until released, then warms for real."""

    def __init__(self, session: Session) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.real = session.engine.searchers.warm  # type: ignore[attr-defined]
        session.engine.searchers.warm = self  # type: ignore[attr-defined]

    def __call__(self, board: object) -> None:
        with event.trigger_event("numba:compile", data={}):  # type: ignore[no-untyped-call]
            self.started.set()
            assert self.release.wait(60)
        self.real(board)


@pytest.fixture
def uci() -> Iterator[tuple[Session, HeldWarmup]]:
    session = Session(UciEngine)
    held = HeldWarmup(session)
    session.engine.begin_warmup()  # type: ignore[attr-defined]
    assert held.started.wait(30)
    yield session, held
    held.release.set()


def test_the_handshake_is_answered_while_the_search_compiles(
    uci: tuple[Session, HeldWarmup],
) -> None:
    session, _ = uci
    assert session.lines == []  # compiling began before the GUI asked anything: kept till uciok
    session.send("uci", "isready")
    assert session.lines[0].startswith("id name ") and session.lines[-1] == "readyok"
    said = session.lines.index(f"info string {COMPILING}")
    assert session.lines[said - 1] == "uciok"  # said once, after the handshake
    assert sum(COMPILING in line for line in session.lines) == 1


def test_set_up_commands_wait_their_turn_and_run_in_order(
    uci: tuple[Session, HeldWarmup],
) -> None:
    session, held = uci
    engine = session.engine
    session.send("setoption name MultiPV value 3", "position startpos moves e3e4")
    assert engine.options.multipv == 1 and engine.board.fen().startswith("rnsmksnr/8/pppppppp/8/8/")  # type: ignore[attr-defined]
    session.send("isready")
    assert session.lines[-1] == "readyok"
    held.release.set()
    session.send("go depth 2")  # needs the search: waits for it, then the kept commands run
    assert session.wait_for("bestmove")
    assert engine.options.multipv == 3  # type: ignore[attr-defined]
    assert engine.board.fen().split()[1] == "b"  # type: ignore[attr-defined]
    assert any(" multipv 3 " in line for line in session.lines)


def test_isready_after_the_warmup_runs_what_was_kept(uci: tuple[Session, HeldWarmup]) -> None:
    session, held = uci
    session.send("setoption name MultiPV value 2")
    held.release.set()
    while session.engine._warmup.running:  # type: ignore[attr-defined]
        threading.Event().wait(0.01)
    session.send("isready")
    assert session.lines[-1] == "readyok" and session.engine.options.multipv == 2  # type: ignore[attr-defined]


def test_xboard_answers_ping_and_comments_on_the_compilation() -> None:
    session = Session(XBoardEngine)
    held = HeldWarmup(session)
    session.engine.begin_warmup()  # type: ignore[attr-defined]
    assert held.started.wait(30)
    session.send("xboard", "protover 2", "ping 7", "new", "force", "sd 2")
    assert session.lines[-1] == "pong 7"
    assert f"# {COMPILING}" in session.lines
    held.release.set()
    session.send("setboard k7/2K5/8/8/8/8/7R/8 w - - 0 1", "go")
    assert session.wait_for("move ") == "move h2a2"


def test_quit_while_the_search_compiles_ends_the_process_cleanly() -> None:
    """A real process: ``quit`` right after the handshake ends it at once and quietly, the
    warm-up thread with it (here the cache is warm, so the warm-up may still be loading)."""
    engine = EngineProcess("uci")
    try:
        engine.send("uci", "isready", "quit")
        assert engine.expect("readyok")[-1] == "readyok"
        assert engine.exits() == 0
        assert engine.stderr() == ""
    finally:
        engine.close()
