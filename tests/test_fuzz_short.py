"""The short fuzzing pass CI runs (issue 13 item 3): every way into kradan, fed mutated seeds
and, for the library, hypothesis's structured inputs, must give no crash (an exception other
than kradan's typed errors, a dead or silent engine, a 500) and no hang (over 1 s, twice).

10^4 mutated inputs per library target, the PGN reader 5,000 (it is slower), and 1,000 of
hypothesis's; the targets that talk to something are slower per input and get fewer: 5,000
command lines to each of ``kradan uci`` and ``kradan xboard``, 1,000 ``kradan`` command lines,
2,000 web requests and socket messages. The whole pass takes about a minute on two cores;
``benchmarks/fuzz.py`` runs the long campaign.
"""

from __future__ import annotations

import importlib.util

import pytest

from fuzz import engines
from fuzz.targets import all_targets

#: mutated inputs per target (the library's near 10^4, the rest as the docstring says)
INPUTS = {"fen": 10_000, "alquerque": 10_000, "san": 10_000, "uci-move": 10_000,
          "thai-san": 10_000, "pgn": 5_000, "options": 10_000, "uci-engine": 5_000,
          "xboard-engine": 5_000, "cli": 1_000, "web": 2_000}  # fmt: skip
#: structured inputs per library target
HYPOTHESIS_INPUTS = 1_000
LIBRARY = ["fen", "alquerque", "san", "uci-move", "thai-san", "pgn", "options"]


def _problems(stats: engines.Stats) -> list[tuple[str, str]]:
    return stats.examples if stats.crashes or stats.hangs else []


@pytest.mark.parametrize("name", list(INPUTS))
def test_mutated_inputs_find_no_crash_and_no_hang(name: str) -> None:
    if name == "web" and importlib.util.find_spec("fastapi") is None:
        pytest.skip("the web target needs kradan[web]")
    stats = engines.run(all_targets()[name], "mutate", INPUTS[name], seed=13)
    assert stats.inputs == INPUTS[name]
    assert _problems(stats) == []


@pytest.mark.parametrize("name", LIBRARY)
def test_structured_inputs_find_no_crash_and_no_hang(name: str) -> None:
    stats = engines.run(all_targets()[name], "hypothesis", HYPOTHESIS_INPUTS, seed=13)
    assert stats.inputs > 0
    assert _problems(stats) == []


def test_the_cli_harness_shortens_the_searches_an_input_asks_for() -> None:
    """A ``go depth 24`` in a ``kradan uci`` input is a real search that the next command
    waits for: the harness makes it short, and leaves a value the engine refuses alone."""
    from fuzz.cli import _quick_searches

    long = b"go depth 24 movetime 99999 nodes 123456789\nsd 30\nst 5.5\ntime 50000\ngo mate 9\n"
    assert _quick_searches(long) == (
        b"go depth 2 movetime 100 nodes 5000\nsd 2\nst 0.05\ntime 100\ngo mate 1\n"
    )
    kept = b"go depth 1 movetime 50\ngo depth abc\nsetoption name Hash value 8\nst 0.05\n"
    assert _quick_searches(kept) == kept


def test_the_cli_harness_keeps_xboard_games_quick_after_every_new_or_level() -> None:
    from fuzz.cli import _quick_xboard

    quick = b"\nst 0.05\nsd 2"
    assert _quick_xboard(b"new 1\ne3e4\nlevel 40 5 0\ngo") == (
        b"new" + quick + b"\nnew 1" + quick + b"\ne3e4\nlevel 40 5 0" + quick + b"\ngo"
    )
    assert _quick_xboard(b"newx\nnewline") == b"new" + quick + b"\nnewx\nnewline"
