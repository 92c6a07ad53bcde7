"""kradan._core._cache: numba's on-disk cache is emptied when any compiled source changes, the
kernels' subpackages (engine/kernels) included, so that a stale kernel never runs (a cluster
node keeps its cache between runs: docs/cluster.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kradan._core import _cache


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the layout: _core, engine with engine/kernels, alquerque, egtb."""
    root = tmp_path / "kradan"
    for folder in ("_core", "engine", "engine/kernels", "alquerque", "egtb"):
        (root / folder).mkdir(parents=True)
        (root / folder / "code.py").write_text(f"# {folder}\n")
        (root / folder / "__pycache__").mkdir()
        (root / folder / "__pycache__" / "code.f-1.py311.nbi").write_bytes(b"old")
    monkeypatch.setattr(_cache, "_PACKAGE", root)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    return root


def test_a_change_in_engine_kernels_changes_the_fingerprint(package: Path) -> None:
    before = _cache.fingerprint()
    (package / "engine" / "kernels" / "code.py").write_text("# changed\n")
    assert _cache.fingerprint() != before


def test_a_stale_cache_is_emptied_in_every_compiled_folder(package: Path) -> None:
    _cache.drop_stale_cache()
    left = sorted(p.relative_to(package).as_posix() for p in package.rglob("*.nbi"))
    assert left == []
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
