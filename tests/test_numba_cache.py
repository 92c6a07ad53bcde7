"""kradan._core._cache: numba's on-disk cache is emptied when any compiled source changes, the
kernels' subpackages (engine/kernels) included, so that a stale kernel never runs (a cluster
node keeps its cache between runs: docs/cluster.md), and kept when only plain Python beside the
kernels changes (the engine's protocols, whose mutation runs would otherwise recompile)."""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import numba
import pytest

import kradan
from kradan._core import _cache

#: plain Python beside the kernels
PLAIN = ("engine/driver.py", "engine/protocol/uci.py", "alquerque/board.py")


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the layout: each compiled folder and file, and plain Python beside them."""
    root = tmp_path / "kradan"
    for name in (*_cache._COMPILED, *PLAIN):
        source = root / name if name.endswith(".py") else root / name / "code.py"
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text(f"# {name}\n")
        cache = source.parent / "__pycache__"
        cache.mkdir(exist_ok=True)
        (cache / f"{source.stem}.f-1.py311.nbi").write_bytes(b"old")
    monkeypatch.setattr(_cache, "_PACKAGE", root)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    return root


def test_a_change_in_engine_kernels_changes_the_fingerprint(package: Path) -> None:
    before = _cache.fingerprint()
    (package / "engine" / "kernels" / "code.py").write_text("# changed\n")
    assert _cache.fingerprint() != before


@pytest.mark.parametrize("plain", PLAIN)
def test_plain_python_beside_the_kernels_keeps_the_fingerprint(package: Path, plain: str) -> None:
    # editing the engine's driver or protocols must not throw away a minute of compilation
    before = _cache.fingerprint()
    (package / plain).write_text("# changed\n")
    assert _cache.fingerprint() == before


def test_every_compiled_function_and_what_it_imports_is_fingerprinted() -> None:
    covered = {path.resolve() for path in _cache._sources()}
    compiled = _files_with_compiled_functions()
    assert {"_core/makemove.py", "engine/kernels/search.py", "alquerque/_kernel.py"} <= {
        path.relative_to(_cache._PACKAGE).as_posix() for path in compiled
    }
    for path in compiled:
        assert path in covered, f"{path} holds compiled functions but is not fingerprinted"
        for imported in _kradan_imports(path):
            assert imported in covered, f"{path} imports {imported}, which is not fingerprinted"


def test_a_stale_cache_is_emptied_in_every_compiled_folder(package: Path) -> None:
    _cache.drop_stale_cache()
    left = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.nbi"))
    # a folder without compiled code keeps its cache
    assert left == ["engine/protocol/__pycache__/uci.f-1.py311.nbi"]
    assert (package / "_core" / "__pycache__" / _cache._STAMP).read_text() == _cache.fingerprint()
    # a fresh cache survives while the sources stay the same
    kept = package / "engine" / "kernels" / "__pycache__" / "code.f-1.py311.nbi"
    kept.write_bytes(b"new")
    _cache.drop_stale_cache()
    assert kept.exists()


def test_numba_cache_dir_mirrors_the_source_tree(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    folder = package / "engine" / "kernels"
    assert _cache._cache_dir(folder) == tmp_path / "cache" / folder.relative_to(folder.anchor)


def test_a_read_only_install_is_kept_where_numba_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A wheel installed where the user cannot write: numba keeps the compiled code in the
    user's cache folder, and the stale-cache check looks there too (an upgrade then never
    runs old kernels)."""
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(_cache, "_writable", lambda folder: False)
    from kradan._core import makemove

    function = makemove.make_move.py_func
    source = Path(function.__code__.co_filename)
    numba_says = numba.core.caching.UserWideCacheLocator(function, str(source)).get_cache_path()
    assert _cache._cache_dir(source.parent) == Path(numba_says)
    monkeypatch.setattr(_cache, "_writable", lambda folder: True)
    assert _cache._cache_dir(source.parent) == source.parent / "__pycache__"


def _files_with_compiled_functions() -> set[Path]:
    """The source files of every numba function in the kradan modules that use numba."""
    files: set[Path] = set()
    for info in pkgutil.walk_packages(kradan.__path__, "kradan."):
        source = Path(_cache._PACKAGE, *info.name.split(".")[1:])
        source = source / "__init__.py" if info.ispkg else source.with_suffix(".py")
        if "jit" not in source.read_text(encoding="utf-8"):
            continue  # no numba decorator: nothing compiled here
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, numba.core.registry.CPUDispatcher):
                files.add(Path(value.py_func.__code__.co_filename).resolve())
    return files


def _kradan_imports(path: Path) -> set[Path]:
    """The kradan files that ``path`` imports with relative imports."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom) or node.level == 0:
            continue
        base = path.parent
        for _ in range(node.level - 1):
            base = base.parent
        if node.module:
            base = base.joinpath(*node.module.split("."))
        if base.with_suffix(".py").exists():
            found.add(base.with_suffix(".py").resolve())
            continue
        for alias in node.names:  # ``from ...alquerque import _kernel``: a module by name
            if (base / f"{alias.name}.py").exists():
                found.add((base / f"{alias.name}.py").resolve())
    return found
