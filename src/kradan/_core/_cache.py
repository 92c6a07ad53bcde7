"""Keep numba's on-disk cache consistent with the compiled sources.

numba invalidates a cached function only when *its own* file changes, not when a function it
calls (in another file) does; a stale cache then runs old code. Before any compiled module is
imported, this compares a fingerprint of every compiled source file (the kernel, the engine's
kernels, Alquerque's kernel and the end-game tables' kernel, with the modules they import) with
the one stored beside the cache, and empties the caches when they differ. It costs one read of
those sources per import. Plain Python beside them (the engine's driver and protocols,
Alquerque's board) is left out, so editing it keeps the compiled code: a test checks that every
compiled function's file, and each file it imports, is covered.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
# folders (every file below them) and single files, relative to the package
_COMPILED = (
    "_core",
    "engine/kernels",
    "engine/weights.py",  # the evaluation's weight layout, which the kernels read
    "engine/network.py",  # the evaluation network's layout, likewise
    "alquerque/_kernel.py",
    "alquerque/geometry.py",
    "egtb/_kernel.py",
    "egtb/_alquerque_kernel.py",  # Alfonso X's Alquerque tables' index and move walk
    "solve/dfpn.py",  # Alquerque's proof-number search
    "solve/keys.py",  # and its position keys
)
_STAMP = "kradan-kernel.fingerprint"


def _writable(folder: Path) -> bool:
    """Whether numba can keep its cache in ``folder`` (it tries the same way)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError:
        return False
    return True


def _cache_dir(source: Path) -> Path:
    """Where numba keeps the compiled code of the files in ``source``: below
    ``NUMBA_CACHE_DIR`` when it is set, beside the sources when their ``__pycache__`` is
    writable (a clone, a wheel in a virtual environment), else in the user's cache folder (a
    wheel installed read-only), the folder numba's own user-wide locator chooses."""
    custom = os.environ.get("NUMBA_CACHE_DIR")
    if custom:
        # numba mirrors the source tree below NUMBA_CACHE_DIR
        return Path(custom) / source.relative_to(source.anchor)
    in_tree = source / "__pycache__"
    if _writable(in_tree):
        return in_tree
    from numba.core.caching import UserWideCacheLocator
    from numba.misc.appdirs import AppDirs

    user_cache = AppDirs(appname="numba", appauthor=False).user_cache_dir  # type: ignore[no-untyped-call]
    subpath = UserWideCacheLocator.get_suitable_cache_subpath(str(source / "__init__.py"))  # type: ignore[no-untyped-call]
    return Path(user_cache) / subpath


def _sources() -> list[Path]:
    """Every compiled source file, and every file the compiled ones import."""
    found: list[Path] = []
    for name in _COMPILED:
        path = _PACKAGE / name
        found.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return found


def fingerprint() -> str:
    """A digest of every compiled source file."""
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
        pass  # neither place can be written: numba compiles on every run and keeps nothing
