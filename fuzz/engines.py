"""What makes the inputs, and the count of what they did.

* ``mutate``: random edits of the seeds (bytes replaced, inserted, deleted, repeated, tokens
  inserted, two seeds spliced); fast, and no dependency;
* ``hypothesis``: the target's grammar (:mod:`fuzz.grammars`), structured inputs that get past
  the first check;
* ``atheris``: libFuzzer's coverage-guided search over kradan's Python code (the numba kernels
  are left uninstrumented: numba compiles their bytecode). libFuzzer ends the process when it is
  done, so :func:`run_atheris` runs in a process of its own (``benchmarks/fuzz.py`` starts it)
  and leaves its count in a JSON file.

A :class:`Recorder` runs each input: kradan's typed errors pass, any other exception (or a
:class:`~fuzz.base.Crash`) is a crash, and an input that takes over ``hang_after`` seconds
twice running is a hang (once could be a busy machine).
"""

from __future__ import annotations

import json
import random
import resource
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .base import Target

ENGINES = ("mutate", "hypothesis", "atheris")
#: longest input the mutator makes
MAX_LENGTH = 16_384
#: inputs per hypothesis run (its bookkeeping grows with the run, so long runs are chunked)
HYPOTHESIS_CHUNK = 5_000
#: crashes and hangs kept with their inputs, per target
KEEP = 20
TOKENS = [
    b"/", b" ", b"[", b"]", b"-", b"0", b"1", b"9", b"99999999999999999999", b"-1", b"\n", b"\r",
    b"\t", b"\x00", b"\xff", b"\xc3", "ก".encode(), "๘".encode(), b"%", b"{", b"}", b"(", b")",
    b'"', b"\\", b"=", b",", b"@", b"~", b"w", b"b", b"moves", b"position", b"go", b"stop",
    b"e3e4", b"fen", b"startpos", b"=true", b"=false", b"[%count declare]", b"$", b";",
]  # fmt: skip


@dataclass
class Stats:
    """One target's run."""

    target: str
    engine: str
    inputs: int = 0
    seconds: float = 0.0
    crashes: int = 0
    hangs: int = 0
    peak_mb: float = 0.0
    child_peak_mb: float = 0.0
    #: ``(what happened, the input)`` for the first crashes and hangs
    examples: list[tuple[str, str]] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.inputs / self.seconds if self.seconds else 0.0


def peak_memory_mb() -> float:
    """This process's peak resident memory."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Recorder:
    """Runs a target's inputs and counts crashes and hangs."""

    def __init__(self, target: Target, engine: str, hang_after: float = 1.0) -> None:
        self.target = target
        self.hang_after = hang_after
        self.stats = Stats(target.name, engine)
        self.began = time.perf_counter()

    def _crashed(self, data: bytes) -> str | None:
        """What went wrong with ``data``, or ``None`` if nothing did."""
        from kradan.errors import KradanError

        try:
            self.target.run(data)
        except KradanError:
            return None
        except Exception as error:
            where = traceback.extract_tb(error.__traceback__)[-1]
            place = f"{Path(where.filename).name}:{where.lineno}"
            return f"{type(error).__name__}: {error} (at {place})"
        return None

    def _ready(self) -> str | None:
        """Bring the target back (untimed: an engine's start-up is not the input's time)."""
        try:
            self.target.ready()
        except Exception as error:
            return f"could not start again: {type(error).__name__}: {error}"
        return None

    def check(self, data: bytes) -> None:
        """Run one input; never raises (but Ctrl-C)."""
        problem = self._ready()
        began = time.perf_counter()
        if problem is None:
            problem = self._crashed(data)
        elapsed = time.perf_counter() - began
        self.stats.inputs += 1
        if problem is not None:
            self.stats.crashes += 1
            self._keep(f"CRASH {problem}", data)
        elif elapsed > self.hang_after:
            self._ready()
            again = time.perf_counter()
            self._crashed(data)
            if time.perf_counter() - again > self.hang_after:
                self.stats.hangs += 1
                self._keep(f"HANG {elapsed:.1f} s", data)
        self.stats.seconds = time.perf_counter() - self.began

    def _keep(self, what: str, data: bytes) -> None:
        if len(self.stats.examples) < KEEP:
            self.stats.examples.append((what, repr(data[:2000])))
            print(f"{self.target.name}: {what} on {data[:300]!r}", file=sys.stderr)

    def finish(self) -> Stats:
        self.stats.seconds = time.perf_counter() - self.began
        self.stats.peak_mb = peak_memory_mb()
        if self.target.child_peak_mb is not None:
            self.stats.child_peak_mb = self.target.child_peak_mb()
        return self.stats


# --- mutate ------------------------------------------------------------------------------------


def mutate(data: bytes, corpus: list[bytes], rng: random.Random) -> bytes:
    """``data`` with one to five random edits (see the module's doc)."""
    buffer = bytearray(data)
    for _ in range(rng.randint(1, 5)):
        where = rng.randrange(len(buffer) + 1)
        kind = rng.randrange(7)
        if kind == 0 and where < len(buffer):
            buffer[where] = rng.randrange(256)
        elif kind == 1:
            buffer[where:where] = rng.choice(TOKENS)
        elif kind == 2 and where < len(buffer):
            del buffer[where : where + rng.randint(1, 4)]
        elif kind == 3 and buffer:
            start = rng.randrange(len(buffer))
            buffer[where:where] = buffer[start : start + rng.randint(1, 16)]
        elif kind == 4:
            other = rng.choice(corpus)
            start = rng.randrange(len(other) + 1)
            buffer[where:] = other[start:]
        elif kind == 5 and where < len(buffer) and chr(buffer[where]).isdigit():
            number = rng.choice([0, 2, 9, 99, 2**31, 2**63, 10**30])
            buffer[where : where + 1] = str(number).encode()
        elif kind == 6 and where < len(buffer):
            buffer[where] = rng.choice(b"abcdefgh12345678/ -wbKkMmSsNnRrPpFf")
    return bytes(buffer[:MAX_LENGTH])


def run_mutate(target: Target, inputs: int, seed: int = 1) -> Stats:
    """``inputs`` mutated seeds (a tenth of them the seeds themselves, unmutated)."""
    corpus = target.seeds() or [b""]
    rng = random.Random(seed)
    recorder = Recorder(target, "mutate")
    for number in range(inputs):
        data = rng.choice(corpus)
        recorder.check(data if number % 10 == 0 else mutate(data, corpus, rng))
    return recorder.finish()


# --- hypothesis --------------------------------------------------------------------------------


def run_hypothesis(target: Target, inputs: int, seed: int = 1) -> Stats:
    """``inputs`` structured inputs from the target's grammar (plain bytes without one)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    from hypothesis import strategies as st

    strategy = target.grammar() if target.grammar is not None else st.binary(max_size=512)
    recorder = Recorder(target, "hypothesis")

    def chunk_of(wanted: int, chunk: int) -> Callable[[], None]:
        """A hypothesis test of ``wanted`` inputs, its random seed set by ``chunk``."""
        before = recorder.stats.inputs

        @hypothesis_seed(seed * 1_000_003 + chunk)
        @settings(max_examples=wanted, database=None, deadline=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(strategy)
        def one(data: bytes) -> None:
            if recorder.stats.inputs - before < wanted:
                recorder.check(data)

        return one

    chunk = 0
    while recorder.stats.inputs < inputs:
        before = recorder.stats.inputs
        chunk_of(min(HYPOTHESIS_CHUNK, inputs - before), chunk)()
        chunk += 1
        if recorder.stats.inputs == before:  # the grammar has nothing new to give
            break
    return recorder.finish()


# --- atheris -----------------------------------------------------------------------------------

#: kradan's packages and modules that numba compiles: atheris must leave their bytecode alone
NUMBA_CODE = ["kradan._core", "kradan.alquerque._kernel", "kradan.engine.kernels"]


def numba_modules() -> list[str]:
    """Every module of :data:`NUMBA_CODE` by its full name (atheris excludes exact names)."""
    import importlib.util
    import pkgutil

    names = []
    for name in NUMBA_CODE:
        names.append(name)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            found = pkgutil.iter_modules(spec.submodule_search_locations, prefix=f"{name}.")
            names += [module.name for module in found]
    return names


def run_atheris(
    make_target: Callable[[], Target], inputs: int, seed: int, stats_path: Path
) -> None:
    """libFuzzer over the target ``make_target`` makes, for ``inputs`` inputs; the count goes
    to ``stats_path`` (JSON, rewritten as it goes: libFuzzer ends the process itself)."""
    import atheris  # type: ignore[import-untyped]

    with atheris.instrument_imports(include=["kradan"], exclude=numba_modules()):
        import kradan.cli.main
        import kradan.pgn  # noqa: F401
        from kradan import Board
        from kradan.alquerque import Board as AlquerqueBoard

    Board().perft(1)
    AlquerqueBoard().perft(1)
    target = make_target()
    target.start()
    recorder = Recorder(target, "atheris")

    def save() -> None:
        stats = recorder.finish()
        stats_path.write_text(json.dumps(asdict(stats)), encoding="utf-8")

    def one(data: bytes) -> None:
        recorder.check(data)
        if recorder.stats.inputs % 500 == 0 or recorder.stats.inputs >= inputs:
            save()
        if recorder.stats.inputs >= inputs:
            target.stop()

    seeds = Path(tempfile.mkdtemp(prefix=f"kradan-fuzz-{target.name}-"))
    for number, data in enumerate(target.seeds()):
        (seeds / f"seed{number}").write_bytes(data)
    save()
    argv = [sys.argv[0], f"-runs={inputs}", f"-seed={seed}", "-max_len=8192",
            "-rss_limit_mb=4096", "-timeout=600", str(seeds)]  # fmt: skip
    atheris.Setup(argv, one)
    atheris.Fuzz()


def run(target: Target, engine: str, inputs: int, seed: int = 1) -> Stats:
    """``inputs`` inputs of ``engine`` (``mutate`` or ``hypothesis``) into ``target``, started
    and stopped around the run."""
    target.start()
    try:
        if engine == "mutate":
            return run_mutate(target, inputs, seed)
        if engine == "hypothesis":
            return run_hypothesis(target, inputs, seed)
        raise ValueError(f"engine {engine!r} runs in its own process: see benchmarks/fuzz.py")
    finally:
        target.stop()
