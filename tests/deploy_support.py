"""What tests/test_deploy.py and tests/test_deploy_proxy.py share: the deployment files'
folder, ``kradan serve``'s parse of a command line, waiting, and the image's health check run
against a server."""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"


def kradan_parser() -> argparse.ArgumentParser:
    from kradan.cli.main import build_parser

    return build_parser()


def serve_options() -> set[str]:
    """Every option string of ``kradan serve``."""
    parser = kradan_parser()
    for action in parser._actions:  # argparse keeps its subparsers here
        if isinstance(action, argparse._SubParsersAction):
            serve = action.choices["serve"]
            return {option for each in serve._actions for option in each.option_strings}
    raise AssertionError("kradan has no serve command")


def parse_serve(arguments: list[str]) -> argparse.Namespace:
    """``kradan serve``'s parse of ``arguments`` (after ``kradan``), failing the test on a usage
    error. ``--allowed-hosts`` is set aside while ``kradan serve`` lacks it (it comes with the
    Host allowlist; the deployment files pass it already)."""
    arguments = list(arguments)
    if "--allowed-hosts" in arguments and "--allowed-hosts" not in serve_options():
        at = arguments.index("--allowed-hosts")
        del arguments[at : at + 2]
    try:
        return kradan_parser().parse_args(arguments)
    except SystemExit:
        pytest.fail(f"kradan does not take: {shlex.join(arguments)}")


def wait_for(predicate: Any, seconds: float, what: str) -> None:
    """Wait until ``predicate()`` is true, failing the test after ``seconds`` (``what`` says
    what was awaited)."""
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {seconds:g} s")
        time.sleep(0.3)


def healthy(url: str) -> bool:
    """Whether the image's health check (deploy/healthcheck.py) passes against ``url``."""
    done = subprocess.run([sys.executable, str(DEPLOY / "healthcheck.py")],
                          env=dict(os.environ, KRADAN_HEALTHCHECK_URL=url),
                          capture_output=True, timeout=30)  # fmt: skip
    return done.returncode == 0
