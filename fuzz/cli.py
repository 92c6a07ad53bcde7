"""Every ``kradan`` command, run in this process through :func:`kradan.cli.main.main`.

An input is the command's words separated by tabs, a newline, then the text of an input file:
the word ``FILE`` stands for that file's path and ``-`` for standard input, which holds the
same text (``play``, ``uci`` and ``xboard`` read their moves and commands from it). A clean
exit, any status, is a pass; an exception out of ``main`` (argparse's ``SystemExit`` aside)
is a crash.

The commands run in a temporary folder, and a file opened for writing outside it is written
there instead, so that no input can touch other files. Work the words legitimately ask for is
kept small: ``match`` plays one short game between built-in players (never an external command),
``play`` and ``analyse`` think for a moment, and ``serve`` is only parsed (it would serve)."""

from __future__ import annotations

import argparse
import builtins
import contextlib
import functools
import io
import itertools
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from . import corpus, process
from .base import Target

#: the words appended to a command to keep its work small (later words win in argparse)
BOUNDED = {
    "play": ["--time", "0.01", "--level", "1"],
    "analyse": ["--depth", "1", "--time", "0.05"],
    "match": ["--games", "1", "--tc", "0.1+0", "--max-plies", "4", "--concurrency", "1"],
    "perft": [],
}
_WRITE_MODES = set("wax+")
#: where each input's folder is made: memory (tmpfs) where there is one, since removing a
#: folder from a journalled disk took 4-5 ms, a third of an input's time (profiled 2026-12-01)
_SCRATCH = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None


#: a number that sets how long an engine thinks, and the largest kept: UCI's ``go`` limits
#: (milliseconds, nodes, plies) and XBoard's ``sd`` (plies), ``st`` (seconds) and ``time`` and
#: ``otim`` (centiseconds); a refused value (not a number) is left as it is
_SEARCH_LIMITS = [
    (re.compile(rb"(?i)\b(depth|sd)(\s+)(\d+)"), 2.0),
    (re.compile(rb"(?i)\b(mate)(\s+)(\d+)"), 1.0),
    (re.compile(rb"(?i)\b(movetime|wtime|btime|winc|binc|time|otim)(\s+)(\d+)"), 100.0),
    (re.compile(rb"(?i)\b(nodes)(\s+)(\d+)"), 5000.0),
    (re.compile(rb"(?i)\b(st)(\s+)(\d+(?:\.\d+)?)"), 0.05),
]


def _quick_searches(body: bytes) -> bytes:
    """An engine's input with every search limit that asks for long thinking made short: a
    ``go depth 24`` before another command is a real search that the next one waits for
    (profiled 2026-12-01: one took minutes, and the campaign's million would have taken a day)."""

    def shortened(most: float) -> Callable[[re.Match[bytes]], bytes]:
        def replace(found: re.Match[bytes]) -> bytes:
            value = found.group(3)
            small = len(value) <= 9 and float(value) <= most
            return found.group(1) + found.group(2) + (value if small else f"{most:g}".encode())

        return replace

    for pattern, most in _SEARCH_LIMITS:
        body = pattern.sub(shortened(most), body)
    return body


def _quick_xboard(body: bytes) -> bytes:
    """An XBoard input where the engine answers a move at once, not after a game's share of
    the default clock: short limits at the start and after every ``new`` or ``level`` (which
    set the clock again; ``new 1`` too, which kradan reads as ``new``: a 6.7 s "hang" in the
    campaign of 2026-12-01)."""
    quick = b"\nst 0.05\nsd 2"
    lines = (b"new", *body.split(b"\n"))
    return b"\n".join(
        line + quick if line.split()[:1] in ([b"new"], [b"level"]) else line for line in lines
    )


def parse_case(data: bytes) -> tuple[list[str], bytes]:
    """The command's words and the input file's bytes."""
    head, _, body = data.partition(b"\n")
    words = head.decode("utf-8", "replace").split("\t")
    return [word for word in words if word != ""] or ["--help"], body


def _valid_time(text: str) -> bool:
    from kradan.errors import UsageError
    from kradan.runners.match import TimeControl

    try:
        TimeControl.parse(text)
    except UsageError:
        return False
    return True


def _valid_seconds(text: str) -> bool:
    from kradan.cli.common import seconds

    try:
        seconds(text)
    except argparse.ArgumentTypeError:
        return False
    return True


def _as_int(word: str) -> int | None:
    """``word`` as the whole number argparse would read (``int``: "12 ", "+12", "1_2" and
    other scripts' digits too), or ``None``."""
    try:
        return int(word)
    except ValueError:
        return None


def _int_within(low: int, high: int) -> Callable[[str], bool]:
    def valid(text: str) -> bool:
        try:
            return low <= int(text) <= high
        except ValueError:
            return False

    return valid


#: what the command accepts for each bounded option: a value it refuses is left in place (its
#: error is what the input tests); one it accepts is bounded
VALID = {
    "--time": _valid_seconds,
    "--tc": _valid_time,
    "--games": _int_within(1, 1_000_000),
    "--depth": _int_within(1, 60),
    "--level": _int_within(-(2**63), 2**63),
    "--max-plies": _int_within(-(2**63), 2**63),
    "--concurrency": _int_within(1, 2**63),
}


def _quick_player(word: str) -> str:
    """A player's own time control (``kradan:tc=600``) made short when it is a valid one; a
    bad one is kept, so that its error is what the input tests."""
    head, found, tail = word.partition("tc=")
    value, comma, rest = tail.partition(",")
    if found and _valid_time(value):
        return f"{head}tc=0.1{comma}{rest}"
    return word


def _bounded(words: list[str]) -> list[str]:
    """``words`` with the limits of :data:`BOUNDED` (but for values the command refuses:
    :data:`VALID`), no external engines, and no devices."""
    command = words[0]
    safe = []
    for word in words:
        lowered = word.strip().lower()
        if command == "match" and lowered.startswith(("uci", "xboard")):
            word = "random"
        if command == "match" and "tc=" in lowered:
            word = _quick_player(word)
        if word.startswith(("/dev", "/proc", "/sys")):
            word = "nothing"
        safe.append(word)
    if command == "perft":  # depths over 3 are minutes of honest work
        safe = ["2" if (_as_int(w) or 0) > 3 else w for w in safe]
        safe = [w for w in safe if w not in ("--threads", "--no-bulk")]
    given = dict(itertools.pairwise(safe))  # each option's last value
    bounds = BOUNDED.get(command, [])
    kept: list[str] = []
    for flag, value in zip(bounds[::2], bounds[1::2], strict=True):
        if flag in given and not VALID[flag](given[flag]):
            continue
        kept += [flag, value]
    return safe + kept


@contextlib.contextmanager
def _sandbox(folder: Path, stdin: bytes) -> Iterator[None]:
    """Run inside ``folder``: the working folder, writes outside it redirected into it, the
    given standard input, and standard output and error captured."""
    real_open = builtins.open

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if isinstance(file, (str, bytes, os.PathLike)) and _WRITE_MODES & set(mode):
            path = Path(os.fsdecode(file)).resolve()
            if folder not in path.parents:
                file = folder / "redirected.out"
        return real_open(file, mode, *args, **kwargs)

    saved_cwd, saved_stdin, saved_io_open = os.getcwd(), sys.stdin, io.open
    os.chdir(folder)
    builtins.open = guarded_open
    io.open = guarded_open
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    # text streams over bytes, as the real ones are (the engines write to ``.buffer``)
    output = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    errors = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(errors):
            yield
    finally:
        builtins.open = real_open
        io.open = saved_io_open
        sys.stdin = saved_stdin
        os.chdir(saved_cwd)


def _reuse_parser() -> None:
    """Build ``kradan``'s argument parser once for the whole run: building it is two thirds of
    an input's time (argparse looks up its translations for every argument), and parsing leaves
    it as it was."""
    from kradan.cli import main as entry

    if not hasattr(entry.build_parser, "cache_info"):
        entry.build_parser = functools.cache(entry.build_parser)  # type: ignore[assignment]


def run_command(data: bytes) -> None:
    """Run one ``kradan`` command line with its input file (see the module's doc)."""
    _reuse_parser()
    from kradan.cli.main import build_parser, main

    words, body = parse_case(data)
    if words[0] in ("uci", "xboard"):
        body = _quick_searches(process._capped(body))
    if words[0] == "xboard":
        body = _quick_xboard(body)
    words = _bounded(words)
    with tempfile.TemporaryDirectory(prefix="kradan-fuzz-", dir=_SCRATCH) as name:
        folder = Path(name).resolve()
        (folder / "input").write_bytes(body)
        words = [str(folder / "input") if word == "FILE" else word for word in words]
        with _sandbox(folder, body):
            try:
                if words[0] == "serve":
                    build_parser().parse_args(words)
                else:
                    main(words)
            except SystemExit:
                pass


def seeds() -> list[bytes]:
    """Commands of the README and the tests, each with a game or position from the corpus."""
    pgn = corpus.pgn_seeds()[0].encode()
    fen = corpus.fen_seeds()[5].encode()
    lines = ["perft\tmakruk\t2", "perft\tsittuyin\t1\t--divide", "perft\talquerque\t2",
             "show\tFILE", "show\t--variant\tcambodian", "show\t--svg\tout.svg\t--flip\t--thai",
             "convert\tFILE\t--to\tfen", "convert\tFILE\t--to\tuci\t--notation\tthai",
             "convert\t-\t--dialect\tpychess", "validate\tFILE", "validate\t-",
             "analyse\tFILE\t--ply\t3", "play\t--color\tblack", "match\trandom\trandom",
             "uci", "xboard", "serve\t--port\t0"]  # fmt: skip
    found = [line.encode() + b"\n" + pgn for line in lines]
    found += [b"show\t" + fen, b"perft\tmakruk\t1\t--fen\t" + fen + b"\n"]
    found += [b"uci\t\nuci\nposition startpos moves e3e4\ngo depth 2\nisready\n"]
    found += [b"xboard\t\nxboard\nnew\ne3e4\nping 1\n", b"play\t\ne3e4\nd3d4\nresign\n"]
    return found


def cli_target() -> Target:
    """The ``kradan`` commands, in this process."""

    def grammar() -> Any:
        from . import grammars

        return grammars.cli_argv()

    run: Callable[[bytes], None] = run_command
    return Target("cli", run, seeds, grammar, short_inputs=1_000)
