"""The first search's compilation split over two processes (kradan/engine/kernels/precompile.py,
issue 44 item 3): the helper's half and this process's half are compiled for exactly the
argument types the search gives them, so the search then compiles none of them again; a warm
cache starts no helper.

One fresh process with an empty numba cache does it all (a first compilation costs seconds);
it prints what numba compiled, function by function, with how deep in another compilation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kradan.engine.kernels import precompile

#: the measured process: a search with the network (int32) and one without (int8), in turn
CHILD = r"""
import json, sys
from numba.core import event
from kradan.engine.kernels import precompile

phases, stack, helpers = [], [], []

class Watch(event.Listener):
    def on_start(self, data):
        stack.append(data.data["dispatcher"].py_func.__name__)
    def on_end(self, data):
        name = stack.pop()
        phases[-1].append([name, len(stack)])

event.register("numba:compile", Watch())
started = precompile.start_helper
def start():
    helper = started()
    helpers.append(helper is not None)
    return helper
precompile.start_helper = start

from kradan.games import find_game
from kradan.engine.searchers import Searchers
from kradan.engine.types import Limit

for network in (True, False):
    phases.append([])
    searchers = Searchers(hash_mb=1)
    searchers.use_network(network)
    board = find_game("makruk").new_board()
    searchers.for_board(board).best_move(board, Limit(depth=2))
print(json.dumps({"phases": phases, "helpers": helpers}))
"""

pytestmark = pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="NUMBA_DISABLE_JIT=1: nothing is compiled"
)


def _run(cache: Path) -> dict:
    environment = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    environment.pop(precompile.HELPER_SWITCH, None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], env=environment, capture_output=True, text=True,
        check=False, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def _names(plan: list) -> set[str]:
    return {function.py_func.__name__ for function, _ in plan}


def test_a_first_search_compiles_each_half_once_and_a_warm_cache_starts_no_helper(
    tmp_path: Path,
) -> None:
    """A fresh cache: both searches (with and without a network) start the helper; this
    process never compiles the helper's half, and compiles its own half only from its plan,
    never again inside the search (a planned type that differed from the search's would be
    compiled a second time, nested). A second process on the same cache compiles nothing and
    starts no helper."""
    cold = _run(tmp_path / "cache")
    assert cold["helpers"] == [True, True]
    helper_half = _names(precompile.helper_plan())
    own_half = _names(precompile.own_plan("int32"))
    for compiled in cold["phases"]:
        names = [name for name, _ in compiled]
        assert not helper_half & set(names), names  # the helper's half came from the cache
        nested_again = [name for name, depth in compiled if name in own_half and depth > 0]
        assert nested_again == [], nested_again
        assert "search" in names and "quiesce" in names  # the search itself was compiled here
    # the network's plan compiled the network-typed functions (int32), the plain one again (int8)
    assert {"static_value", "make_and_update", "refresh"} <= {n for n, _ in cold["phases"][1]}

    warm = _run(tmp_path / "cache")
    assert warm["helpers"] == []
    assert warm["phases"] == [[], []]
