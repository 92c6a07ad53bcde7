"""The seams of docs/architecture.md, checked on the source: imports run one way (no circles,
type-only imports included), the layers import only downwards, and no module reaches into
another's private names (issue 11)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "kradan"

#: numba kernels work on arrays that other modules own: the exception the design allows
KERNELS = ("_core/", "alquerque/_kernel.py", "engine/kernels/")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    return {
        _module_name(path): (path, ast.parse(path.read_text(encoding="utf-8")))
        for path in sorted(SOURCE.rglob("*.py"))
    }


MODULES = _modules()


def _imports(name: str, path: Path, tree: ast.Module) -> Iterator[str]:
    """The kradan modules ``name`` imports, anywhere in the file (type-only imports too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if target and target != name and not name.startswith(target + "."):
                yield target


GRAPH = {name: set(_imports(name, *MODULES[name])) for name in MODULES}


def _cycle() -> list[str] | None:
    """One import circle among kradan's modules, if any. A package's ``__init__`` that only
    hands on names of its own submodules is followed like any module."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_no_import_circles() -> None:
    assert _cycle() is None


@pytest.mark.parametrize(
    "low",
    [
        "kradan.errors", "kradan.pieces", "kradan.rulesets", "kradan.variants", "kradan.move",
        "kradan.outcome", "kradan.position", "kradan.counting", "kradan.game_end",
        "kradan.material", "kradan.notation.san", "kradan.notation.fen", "kradan.board",
        "kradan.alquerque.board", "kradan.games",
    ],
)  # fmt: skip
def test_the_rules_never_import_the_tools_above_them(low: str) -> None:
    """Rules objects never import search, pictures, PGN or the command line (DESIGN.md)."""
    above = ("kradan.engine", "kradan.svg", "kradan.pgn", "kradan.cli", "kradan.runners",
             "kradan.training")  # fmt: skip
    assert not [t for t in GRAPH[low] if t.startswith(above)]


def test_the_engine_value_types_and_the_client_import_nothing_compiled() -> None:
    for name in ("kradan.engine.types", "kradan.runners.engine_client", "kradan.runners.players"):
        assert not [t for t in GRAPH[name] if "kernels" in t or t.startswith("kradan._core")]


def _reach_ins() -> list[str]:
    """``x._name`` where ``x`` is not ``self`` or ``cls`` and the file does not define
    ``_name``, outside the numba kernels."""
    found = []
    for path, tree in MODULES.values():
        if any(part in path.as_posix() for part in KERNELS):
            continue
        defined: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in ("self", "cls"):
                    defined.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                defined |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in defined
            ):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reaches_into_another_modules_private_names() -> None:
    assert _reach_ins() == []
