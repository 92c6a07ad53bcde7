"""Every ``kradan`` example a user reads runs as shown (issue 43): the commands of the README's and
docs/'s shell blocks and of every ``--help`` epilog are found here and run, each in a sandbox
that holds the files the examples name (``games.pgn``, ...), so that a new example is tested
without a new test.

How each is judged, from the command itself:

* it ends within :data:`SECONDS` with status 0, and prints each line the docs show after it
  (``#> ...`` lines following a command in a shell block);
* or it is still running then (a 20,000-game match, ``kradan serve``): it must have started
  cleanly, no usage error and no ``kradan: error`` before that;
* it is skipped, saying why, when it needs what the suite does not have: a Ray cluster, another
  engine's binary, an older revision built (``benchmarks/engine-at``), an address other than
  127.0.0.1, or a file that only a long example before it makes.

Interactive commands read ``quit`` from their input; ``--open`` opens nothing (``BROWSER``).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: how long an example may run before it counts as a long run that started cleanly
SECONDS = 6.0


def _games(count: int, plies: int = 50) -> str:
    """``count`` Makruk games of ``plies`` random moves (captures first), each with a result,
    as the PGN files the examples read."""
    import random

    from kradan import Board, pgn

    texts = []
    for seed in range(count):
        rng, board = random.Random(seed), Board()
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            captures = [m for m in moves if board.is_capture(m)]
            board.push(rng.choice(captures or moves))
        result = board.result() if board.is_game_over() else ("1-0", "0-1", "1/2-1/2")[seed % 3]
        texts.append(pgn.game_text(board, {"Event": "example", "Result": result}))
    return "\n".join(texts)


GAMES = _games(4)
FIXTURES = {
    "games.pgn": GAMES,
    "archive.pgn": GAMES,
    "more.pgn": GAMES,
    "self.pgn": GAMES,
    "book.pgn": GAMES,
    "moves.uci": "startpos moves e3e4 d6d5\n",
    "starts.txt": "startpos moves e3e4 d6d5\n",
    "openings.txt": "startpos moves e3e4 d6d5\n",
    "password.txt": "correct horse battery\n",  # kradan admin create-user --password-file
}
#: options whose value a command writes rather than reads
OUTPUT_OPTIONS = {"-o", "--output", "--pgn", "--svg", "--png", "--annotate", "--dir"}
INPUT_FILE = re.compile(r"[\w./-]+\.(pgn|fen|uci|txt|npz|json|book)$")


@dataclass
class Example:
    source: str
    command: str
    expected: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.source}: {self.command[:70]}"


def _join_continuations(lines: list[str]) -> list[str]:
    joined: list[str] = []
    for line in lines:
        if joined and joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1].rstrip() + " " + line.strip()
        else:
            joined.append(line)
    return joined


def _shell_blocks(text: str) -> list[list[str]]:
    blocks = re.findall(r"^```(?:sh|bash|console|shell)\n(.*?)^```", text, re.S | re.M)
    return [_join_continuations(block.splitlines()) for block in blocks]


def _without_comment(line: str) -> str:
    """The command of a shell line, its trailing ``# comment`` dropped (quotes respected)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:
        return line.strip()
    return shlex.join(tokens).replace("'&&'", "&&").replace("'|'", "|")


def document_examples(path: Path) -> list[Example]:
    found: list[Example] = []
    for block in _shell_blocks(path.read_text(encoding="utf-8")):
        for line in block:
            stripped = line.strip()
            if stripped.startswith("#> ") and found and found[-1].source == path.name:
                found[-1].expected.append(stripped[3:])
            elif re.match(r"(\w+=\S+ )*(nice )?kradan ", stripped):
                found.append(Example(path.name, _without_comment(stripped)))
    return found


def help_examples() -> list[Example]:
    from kradan.cli.main import build_parser

    found: list[Example] = []
    parsers = [build_parser()]
    while parsers:
        parser = parsers.pop(0)
        for action in parser._actions:  # argparse keeps its subparsers here
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
        epilog = textwrap.dedent(parser.epilog or "")
        for line in _join_continuations([row.strip() for row in epilog.splitlines()]):
            command = re.sub(r"^Examples?: ", "", line)
            command = re.split(r"\s{2,}", command)[0]  # the description column
            if command.startswith("kradan ") or " | kradan " in command:
                example = Example(f"{parser.prog} --help", command)
                if example.command not in {e.command for e in found}:
                    found.append(example)
    return found


EXAMPLES = [e for path in DOCUMENTS for e in document_examples(path)] + help_examples()


def why_skipped(example: Example, sandbox: Path) -> str | None:
    """Why the suite cannot run ``example`` as it stands, or ``None``."""
    command = example.command
    if "ray" in command.split() or "RAY_ADDRESS" in command or "--executor ray" in command:
        return "needs a Ray cluster (tests/test_cluster_ray.py runs one)"
    if "engine-at" in command:
        return "builds older revisions of kradan (benchmarks/engine-at)"
    if "0.0.0.0" in command or "HOST" in command:
        return "listens beyond 127.0.0.1 or names a machine of its own"
    for engine in re.findall(r"(?:uci|xboard):([^\s:\"']+)", command):
        # a relative path is the README's, from the repository's root (the sandbox links it)
        if (
            engine not in {"kradan"}
            and not (sandbox / engine).exists()
            and not shutil.which(engine)
        ):
            return f"needs the engine {engine}"
    words = shlex.split(command.replace("&&", " "))
    for index, word in enumerate(words):
        if words[index - 1] in OUTPUT_OPTIONS:
            continue
        for name in [word, *re.findall(r"=([\w./-]+)", word)]:  # kradan:weights=FILE too
            if INPUT_FILE.match(name) and not (sandbox / name).exists():
                return f"reads {name}, which a long example before it makes"
    return None


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("examples")
    for name, text in FIXTURES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "docs" / "images").mkdir(parents=True)
    built = ROOT / ".engines"  # benchmarks/build-fairy-stockfish's engine, where it was built
    if built.is_dir():
        (folder / ".engines").symlink_to(built)
    return folder


def run(example: Example, sandbox: Path) -> tuple[int | None, str, str]:
    """Run ``example`` in ``sandbox``; returns its status (``None``: still running at
    :data:`SECONDS`, then stopped) and its output."""
    binaries = str(Path(sys.executable).parent)
    environment = dict(os.environ, HOME=str(sandbox), BROWSER="true",
                       PATH=binaries + os.pathsep + os.environ.get("PATH", ""))  # fmt: skip
    environment.pop("XDG_DATA_HOME", None)
    process = subprocess.Popen(
        ["bash", "-c", example.command], cwd=sandbox, env=environment, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, err = process.communicate("quit\n", timeout=SECONDS)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            out, err = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        return None, out, err


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.label for e in EXAMPLES])
def test_the_example_runs_as_shown(example: Example, sandbox: Path) -> None:
    for name, text in FIXTURES.items():  # as they were: an earlier example may write over one
        (sandbox / name).write_text(text, encoding="utf-8")
    reason = why_skipped(example, sandbox)
    if reason is not None:
        pytest.skip(f"{example.command}: {reason}")
    status, out, err = run(example, sandbox)
    if "no endgame table" in err:  # a 4-piece table: minutes to make, a long run of its own
        pytest.skip(f"{example.command}: needs the 4-piece tables (kradan egtb generate)")
    assert "usage:" not in err and "kradan: error" not in err, err
    assert "Traceback" not in err, err
    if status is not None:
        assert status == 0, f"status {status}\n{out}\n{err}"
        for line in example.expected:
            assert line in out, f"{line!r} not in the output:\n{out}"


def test_the_examples_are_found() -> None:
    """The runner sees the README's, the docs' and the help's examples (so that none is lost
    by a change of format)."""
    sources = {example.source for example in EXAMPLES}
    assert {"README.md", "egtb.md", "kradan perft --help", "kradan egtb --help"} <= sources
    assert len(EXAMPLES) >= 60
    assert any(example.expected for example in EXAMPLES)  # docs/egtb.md shows an output
