"""The ``kradan`` command (issue 2 item 6): perft, --version, and bad input as one line with
exit status 2, never a traceback."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kradan import Board, __version__, games
from kradan.cli.main import main


def test_perft(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "makruk", "4"]) == 0
    assert "nodes 273026" in capsys.readouterr().out


def test_perft_divide_with_fen(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1"
    assert main(["perft", "thai", "2", "--fen", fen, "--divide"]) == 0
    out = capsys.readouterr().out
    assert "c5c6m: " in out and "nodes 396" in out


def test_perft_without_bulk(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "makruk", "3", "--no-bulk"]) == 0
    assert "nodes 12012" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["perft", "chess", "3"], "unknown variant 'chess'"),
        (["perft", "makruk", "3", "--fen", "8/8 w"], "invalid FEN '8/8 w'"),
        (["show", "8/8 w"], "invalid FEN '8/8 w'"),
        (["show", "--variant", "chess"], "unknown variant 'chess'"),
        (["show", "--variant", "alquerque", "ppp w"], "invalid Alquerque position 'ppp w'"),
        (["show", "--svg", "/no/such/folder/x.svg"], "cannot write the picture"),
        (["show", "--svg", "x.svg", "--size", "0"], "invalid size 0"),
        (["show", "/no/such/games.pgn"], "cannot read '/no/such/games.pgn'"),
        (["convert", "/no/such/games.pgn"], "cannot read '/no/such/games.pgn'"),
        (["validate", "/no/such/games.pgn"], "cannot read '/no/such/games.pgn'"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [["perft", "makruk", "x"], ["perft", "makruk", "99"], ["nope"]])
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "perft" in capsys.readouterr().out


def test_installed_command_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kradan.cli.main", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0 and result.stdout.strip() == f"kradan {__version__}"


def test_compiling_is_announced_once_and_cache_loads_are_silent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import numba

    from kradan._core import warmup

    warmup.announce_compilation()
    assert warmup._announcer is not None
    warmup._announcer.announced = False  # as in a new process
    capsys.readouterr()

    @numba.njit
    def fresh(x: float) -> float:  # not cached: compiling it is a real compilation
        return x + 1

    assert fresh(1) == 2 and fresh(2.5) == 3.5  # two compilations, one line
    assert capsys.readouterr().err.count("compiling the move generator") == 1
    warmup._announcer.announced = False
    main(["perft", "makruk", "1"])  # loaded from numba's cache: nothing is said
    assert "compiling" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("name", "nodes"),
    [("cambodian", 625), ("ouk", 625), ("karouk", 625), ("kar ouk", 625), ("sittuyin", 7744)],
)
def test_perft_accepts_every_variant_name(
    name: str, nodes: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["perft", name, "2"]) == 0
    assert f"nodes {nodes} " in capsys.readouterr().out


def test_perft_with_threads(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "makruk", "4", "--threads", "2"]) == 0
    assert "nodes 273026 " in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "nodes"),
    [
        (["perft", "alquerque", "4"], 12),
        (["perft", "alquerque-bell", "3"], 6),
        (["perft", "bell", "1", "--fen", "5/5/3p1/1p3/P4 w - 0 1"], 1),
    ],
)
def test_perft_alquerque(argv: list[str], nodes: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert f"nodes {nodes} " in capsys.readouterr().out


def test_perft_alquerque_divide_and_bad_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "alquerque", "2", "--divide"]) == 0
    assert "d2c3: 2" in capsys.readouterr().out
    assert main(["perft", "alquerque", "2", "--fen", "ppp w"]) == 2
    assert "invalid Alquerque position 'ppp w'" in capsys.readouterr().err


def test_python_dash_m_runs_the_command() -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "kradan", "perft", "makruk", "2"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and "nodes 529 " in done.stdout  # 23 moves a side


@pytest.mark.parametrize(
    "command", [["convert"], ["validate"], ["show"], ["analyse", "--depth", "1"]]
)
def test_a_file_that_is_not_text_is_one_line_and_status_2(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.pgn"
    junk.write_bytes(bytes(range(128, 256)) * 8)
    argv = [command[0], str(junk), *command[1:]]
    if command[0] == "analyse":
        argv += ["--annotate", str(tmp_path / "out.pgn")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "not UTF-8 text" in err and "Traceback" not in err


@dataclasses.dataclass(frozen=True)
class _LaterRules:
    """The rules of a game registered after kradan's own: enough to be listed."""

    name: str = "zz-later"
    title: str = "ZZ Later"
    aliases: tuple[str, ...] = ()

    def with_options(self, **options: Any) -> _LaterRules:
        return self


@pytest.mark.parametrize(
    "command", ["perft", "play", "match", "show", "analyse", "convert", "validate"]
)
def test_every_game_argument_lists_the_registered_games(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # no wrapping inside a name
    games.register(games.Game(rules=_LaterRules(), board=Board))
    try:
        with pytest.raises(SystemExit) as info:
            main([command, "--help"])
        assert info.value.code == 0
        out = capsys.readouterr().out
        assert all(name in out for name in games.game_names()) and "zz-later" in out
    finally:
        games.unregister("zz-later")


def test_command_modules_share_helpers_and_never_import_each_other() -> None:
    import ast

    from kradan import cli

    helpers = {"common", "render", "progress"}
    folder = Path(cli.__file__).parent
    for path in sorted(folder.glob("*.py")):
        allowed = helpers if path.stem != "main" else {p.stem for p in folder.glob("*.py")}
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module] if node.module else [alias.name for alias in node.names]
                for name in names:
                    assert name.split(".")[0] in allowed, f"cli/{path.name} imports .{name}"
    source = "".join(p.read_text(encoding="utf-8") for p in folder.parent.rglob("*.py"))
    assert source.count("EXIT_BAD_INPUT = ") == 1


def test_progress_in_a_file_is_plain_lines_and_on_a_terminal_one_redrawn_line() -> None:
    """Issue 43: ``kradan egtb generate > log`` and ``kradan match 2> log`` write no ``\\r``."""
    import io

    from kradan.cli.progress import end_progress, show_progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    log, terminal = io.StringIO(), Terminal()
    for stream in (log, terminal):
        show_progress("[#.] 1/2", stream)
        show_progress("[##] 2/2", stream)
        end_progress(stream)
    assert log.getvalue() == "[#.] 1/2\n[##] 2/2\n"
    assert terminal.getvalue() == "\r[#.] 1/2\r[##] 2/2\n"


def test_output_into_a_pipe_is_written_line_by_line() -> None:
    """Issue 43: into a file or a pipe Python buffers whole blocks, so ``kradan egtb generate >
    log`` showed nothing for minutes; the command line switches to one line at a time."""
    code = (
        "import sys; from kradan.cli.main import main; main(['perft', 'makruk', '1']); "
        "print(sys.stdout.line_buffering, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stderr.strip().splitlines()[-1] == "True"


def test_a_misspelt_option_gets_the_commands_usage_and_a_guess(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 43: ``kradan perft makruk 1 --thred 2`` printed the top-level usage."""
    with pytest.raises(SystemExit) as stopped:
        main(["perft", "makruk", "1", "--thred", "2"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: kradan perft ")
    assert "unrecognized arguments: --thred 2 (did you mean --threads?)" in err
