"""The mutation configurations (docs/testing.md, issue 49): every module they mutate exists, and
``mutation/changed.py`` finds the configurations a change touches and writes a configuration
back exactly (its ``--run`` narrows one to the touched modules)."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "mutation").glob("*.toml"))


def _changed() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_changed", ROOT / "mutation/changed.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.name)
def test_every_mutated_module_exists(config: Path) -> None:
    for module in _changed().modules_of(config):
        assert (ROOT / module).is_file(), f"{config.name} names {module}, which is gone"


def test_a_change_finds_the_configurations_of_its_modules() -> None:
    changed = _changed()
    found = changed.touched(["src/kradan/egtb/count.py", "src/kradan/web/room/moves.py",
                             "tests/test_egtb.py", "README.md"])  # fmt: skip
    assert [(item.config, item.modules) for item in found] == [
        ("mutation/egtb.toml", ("src/kradan/egtb/count.py",)),
        ("mutation/web.toml", ("src/kradan/web/room/moves.py",)),
    ]
    # the protocols run on two workers too: one configuration is listed, not both
    protocols = changed.touched(["src/kradan/engine/protocol/uci.py"])
    assert [item.config for item in protocols] == ["mutation/protocols.toml"]
    assert changed.touched(["docs/testing.md"]) == []


def test_the_issue_49_packages_have_configurations() -> None:
    """egtb/, the engine's table probe, web/ (rooms, storage), executors/, the book, the
    levels, the network's Python side and the Decision 9 options' kernel are each mutated."""
    covered = {module for config in CONFIGS for module in _changed().modules_of(config)}
    for module in ("src/kradan/egtb/count.py", "src/kradan/engine/tablebase.py",
                   "src/kradan/web/room/moves.py", "src/kradan/web/storage.py",
                   "src/kradan/executors/local.py", "src/kradan/engine/book.py",
                   "src/kradan/engine/levels.py", "src/kradan/engine/network.py",
                   "src/kradan/_core/movegen.py"):  # fmt: skip
        assert module in covered, module


@pytest.mark.parametrize("config", CONFIGS, ids=lambda path: path.name)
def test_a_configuration_is_written_back_exactly(config: Path) -> None:
    with open(config, "rb") as handle:
        settings = tomllib.load(handle)
    assert tomllib.loads(_changed()._toml(settings)) == settings
