"""The ways into kradan, each a :class:`~fuzz.base.Target`: the library's (:mod:`fuzz.library`),
the UCI and XBoard processes (:mod:`fuzz.process`), the command line (:mod:`fuzz.cli`) and the
web app (:mod:`fuzz.web`). :func:`all_targets` lists them all."""

from __future__ import annotations

from . import cli, library, process, web
from .base import Target


def all_targets() -> dict[str, Target]:
    """Every target by name, the library's first."""
    found = [*library.library_targets(), *process.process_targets()]
    found += [cli.cli_target(), web.web_target()]
    return {target.name: target for target in found}
