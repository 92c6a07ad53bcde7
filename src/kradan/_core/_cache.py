"""Keep numba's on-disk cache consistent with the kernel's source.

numba invalidates a cached function only when *its own* file changes, not when a function it
calls (in another file) does; a stale cache then runs old code. Before any kernel module is
imported, this compares a fingerprint of every kernel source file with the one stored beside the
cache and empties the cache when they differ. It costs one read of the sources per import.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_STAMP = "kradan-kernel.fingerprint"


def _cache_dir() -> Path:
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        # numba mirrors the source tree below NUMBA_CACHE_DIR
        return Path(custom) / _HERE.relative_to(_HERE.anchor)
    return _HERE / "__pycache__"


def fingerprint() -> str:
    """A digest of every kernel source file."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def drop_stale_cache() -> None:
    """Delete cached kernel code compiled from other sources than the present ones."""
    cache = _cache_dir()
    stamp = cache / _STAMP
    current = fingerprint()
    try:
        if stamp.read_text(encoding="ascii") == current:
            return
    except OSError:
        pass
    try:
        cache.mkdir(parents=True, exist_ok=True)
        for path in cache.glob("*.nb[ic]"):
            path.unlink()
        stamp.write_text(current, encoding="ascii")
    except OSError:
        pass  # a read-only install: numba falls back to its own cache location
