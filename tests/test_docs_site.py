"""The documentation site builds with no warning (issue 43): Sphinx runs with ``-W`` on docs/,
as the README says, and the pages hold what they promise: the rule book's pictures, every
command of the command-line reference, the API reference of ``kradan.Board``. The getting
started page's Python examples run as doctests."""

from __future__ import annotations

import argparse
import doctest
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: what ``pip install -e '.[docs]'`` brings; without it the build is skipped, saying so
PACKAGES = ("sphinx", "myst_parser", "furo")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    missing = [name for name in PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(
            f"the docs extra is not installed ({', '.join(missing)}): pip install -e '.[docs]'"
        )
    output = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(output)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the site has warnings:\n{done.stderr}{done.stdout}"
    return output


def test_the_site_builds_without_a_warning(site: Path) -> None:
    pages = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    for document in DOCS.glob("*.md"):
        assert f"{document.stem}.html" in pages, document.name
    assert {"index.html", "cli.html", "api/kradan.html", "api/pgn.html"} <= pages


def test_the_rule_book_shows_its_pictures(site: Path) -> None:
    text = (site / "rules.html").read_text(encoding="utf-8")
    pictures = sorted((DOCS / "images" / "rules").glob("*.svg"))
    assert pictures
    for picture in pictures:
        assert f'src="_images/{picture.name}"' in text, picture.name
        assert (site / "_images" / picture.name).is_file()


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    found = [parser.prog]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                if command.prog.endswith(f" {name}"):  # not an alias
                    found += _commands(command)
    return found


def test_the_command_line_reference_has_every_command(site: Path) -> None:
    from kradan.cli.main import build_parser

    text = (site / "cli.html").read_text(encoding="utf-8")
    commands = _commands(build_parser())
    assert {"kradan perft", "kradan egtb generate", "kradan tune fit"} <= set(commands)
    for command in commands:
        assert f'id="{command.replace(" ", "-")}"' in text, command
        assert f"usage: {command} " in text, command


def test_the_api_reference_documents_the_board(site: Path) -> None:
    text = (site / "api" / "kradan.html").read_text(encoding="utf-8")
    for name in ("Board", "Board.push_san", "Board.legal_moves", "Board.outcome", "Move"):
        assert f'id="kradan.{name}"' in text, name


def test_the_getting_started_examples() -> None:
    result = doctest.testfile(
        str(DOCS / "getting-started.md"),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted >= 10
    assert result.failed == 0
