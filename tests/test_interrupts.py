"""SIGTERM waits for numba's compiler (kradan.interrupts): a stop that lands while the main
thread compiles is raised once the compilation ends, never inside it, where numba's ctypes
callbacks would swallow it and leave a broken kernel and a traceback (``kradan tune
selfplay`` stopped during its first compilation printed one)."""

from __future__ import annotations

import os
import signal
import time

import pytest
from numba.core.compiler_lock import global_compiler_lock

from kradan.interrupts import Terminated, compiling, sigterm_as_interrupt


def _wait_for_stop(seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        time.sleep(0.01)  # the handler raises between two of these


def test_a_stop_outside_a_compilation_is_raised_at_once() -> None:
    with pytest.raises(Terminated), sigterm_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
        _wait_for_stop()


def test_a_stop_during_a_compilation_waits_for_its_end() -> None:
    steps: list[str] = []
    with pytest.raises(Terminated), sigterm_as_interrupt():
        with global_compiler_lock:  # as numba holds it while it compiles and writes its cache
            assert compiling()
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(20):
                time.sleep(0.01)  # the handler has run by now: it held the stop
            steps.append("compiled")
        assert not compiling()
        _wait_for_stop()
        steps.append("not stopped")
    assert steps == ["compiled"]


def test_the_handler_is_put_back_after_the_command() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with sigterm_as_interrupt():
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before
