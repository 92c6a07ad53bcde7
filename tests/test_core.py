"""The numba kernel: tables against slow definitions, and the same code run without the JIT."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np

from kradan._core import tables
from kradan._core.attacks import rook_attacks


def test_rook_lookups_match_ray_walking() -> None:
    rng = random.Random(3)
    for _ in range(3000):
        square = rng.randrange(64)
        occupied = rng.getrandbits(64) & rng.getrandbits(64)
        expected = tables._ray_attacks(square, occupied, tables.ORTHOGONAL_DELTAS)
        assert int(rook_attacks(square, np.uint64(occupied))) == expected


def test_between_and_line() -> None:
    a1, a8, h1, c3 = 0, 56, 7, 18
    assert int(tables.BETWEEN[a1, a8]) == sum(1 << (8 * r) for r in range(1, 7))
    assert int(tables.BETWEEN[a1, h1]) == 0b01111110
    assert int(tables.BETWEEN[a1, c3]) == 0 and int(tables.LINE[a1, c3]) == 0
    assert int(tables.LINE[a1, h1]) == 0xFF


def test_kernel_runs_as_plain_python_with_the_jit_disabled() -> None:
    """DESIGN.md: NUMBA_DISABLE_JIT=1 runs the same code uncompiled."""
    script = (
        "from kradan import Board\n"
        "b = Board('4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1')\n"
        "assert b.perft(2) == 396, b.perft(2)\n"
        "b.push_san('cxb6=M'); b.pop()\n"
        "print(sorted(m.uci() for m in b.legal_moves)[:3])\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert "['c5b6m', 'c5c6m', 'd1c1']" in result.stdout
