"""The ``kradan-cli`` directive: the command-line reference, written at build time from the
argparse parsers that ``kradan`` itself runs (:func:`kradan.cli.main.build_parser`), so that
it cannot drift from the program.

Each command and each of its actions (``kradan egtb generate``, ...) gets a section: the line
its parent's list gives it, then its ``--help`` exactly as the terminal shows it, 90 columns
wide, with the user's home written ``~``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

#: the width of the help text, whatever the terminal that builds the site
COLUMNS = "90"
#: variables that would put one machine's settings into the help (the default table directory)
HIDDEN = ("KRADAN_EGTB_DIR",)


@contextmanager
def _plain_environment() -> Iterator[None]:
    """A fixed width and none of the variables in :data:`HIDDEN`, restored afterwards."""
    saved = {name: os.environ.get(name) for name in ("COLUMNS", *HIDDEN)}
    os.environ["COLUMNS"] = COLUMNS
    for name in HIDDEN:
        os.environ.pop(name, None)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """The parser's subcommands in the order of its help, each with its one-line summary."""
    found: list[tuple[str, argparse.ArgumentParser]] = []
    for action in parser._actions:  # argparse keeps its subparsers here, and only here
        if isinstance(action, argparse._SubParsersAction):
            summaries = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, command in action.choices.items():
                if name in summaries:  # aliases have no summary of their own
                    found.append((summaries[name], command))
    return found


def _help(parser: argparse.ArgumentParser) -> str:
    text = parser.format_help()
    home = Path.home()
    if home.parent != home:  # a home of "/" would turn every path into "~"
        text = text.replace(f"{home}{os.sep}", f"~{os.sep}")
    return text.rstrip() + "\n"


def _section(parser: argparse.ArgumentParser, summary: str) -> nodes.section:
    """The section of one command, with its subcommands' sections inside it."""
    title = parser.prog
    section = nodes.section(ids=[nodes.make_id(title)], names=[nodes.fully_normalize_name(title)])
    section += nodes.title(title, title)
    if summary:
        section += nodes.paragraph(summary, summary[0].upper() + summary[1:] + ".")
    text = _help(parser)
    section += nodes.literal_block(text, text, language="text")
    for line, command in _commands(parser):
        section += _section(command, line)
    return section


class CliReference(SphinxDirective):
    """``kradan-cli``: the sections of every command, placed where the directive stands."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from kradan.cli.main import build_parser

        with _plain_environment():
            parser = build_parser()
            top = _section(parser, "")
        for section in top.findall(nodes.section):
            self.state.document.note_implicit_target(section, section)
        return [top]


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("kradan-cli", CliReference)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
