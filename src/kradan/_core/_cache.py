"""Keep numba's on-disk cache consistent with the compiled sources.

numba invalidates a cached function only when *its own* file changes, not when a function it
calls (in another file) does; a stale cache then runs old code. Before any compiled module is
imported, this compares a fingerprint of every source file of the compiled packages (the
kernel, the engine and its kernels, Alquerque, the end-game tables) with the one stored beside
the cache, and empties the caches when they differ. It costs one read of those sources per import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
_COMPILED = ("_core", "engine", "alquerque", "egtb")
_STAMP = "kradan-kernel.fingerprint"


def _cache_dir(source: Path) -> Path:
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        # numba mirrors the source tree below NUMBA_CACHE_DIR
        return Path(custom) / source.relative_to(source.anchor)
    return source / "__pycache__"


def _sources() -> list[Path]:
    """Every source file of the compiled packages, their subpackages (``engine/kernels``)
    included."""
    return [path for name in _COMPILED for path in sorted((_PACKAGE / name).rglob("*.py"))]


def fingerprint() -> str:
    """A digest of every source file of the compiled packages."""
    digest = hashlib.sha256()
    for path in _sources():
        digest.update(path.relative_to(_PACKAGE).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache() -> None:
    """Delete cached compiled code built from other sources than the present ones."""
    current = fingerprint()
    stamp = _cache_dir(_PACKAGE / "_core") / _STAMP
    try:
        if stamp.read_text(encoding="ascii") == current:
            return
    except OSError:
        pass
    try:
        for folder in sorted({path.parent for path in _sources()}):
            cache = _cache_dir(folder)
            cache.mkdir(parents=True, exist_ok=True)
            for path in cache.glob("*.nb[ic]"):
                path.unlink()
        stamp.write_text(current, encoding="ascii")
    except OSError:
        pass  # a read-only install: numba falls back to its own cache location
