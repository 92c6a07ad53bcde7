"""Tasks for the executor tests: importable by name in a worker process (a spawned process
gets the test session's ``sys.path``; Ray's workers get the repository root on PYTHONPATH)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from kradan.errors import PgnError


def square(item: int) -> int:
    return item * item


def die_once(item: tuple[int, str]) -> int:
    """``value * value``; but the first time it runs with a marker path, its process dies."""
    value, marker = item
    if marker and not Path(marker).exists():
        Path(marker).write_text("died once", encoding="utf-8")
        os._exit(3)
    return value * value


def always_die(item: int) -> int:
    os._exit(3)


def fail_typed(item: int) -> int:
    raise PgnError(f"no game in {item!r}")


def slow_pid(item: float) -> int:
    """Sleep ``item`` seconds, then give the worker's process id."""
    time.sleep(item)
    return os.getpid()


def node_of(item: int) -> str:
    """The Ray node this task ran on (after a pause, so that tasks spread)."""
    import ray

    time.sleep(0.3)
    return str(ray.get_runtime_context().get_node_id())


def sigint_dispositions(item: int) -> tuple[str, str]:
    """This worker's SIGINT handler, and the one a program it starts gets."""
    import signal
    import subprocess
    import sys

    probe = "import signal; print(signal.getsignal(signal.SIGINT))"
    child = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    return getattr(signal.getsignal(signal.SIGINT), "__name__", "?"), child.stdout.strip()
