"""Names of a package loaded on first use (PEP 562), so that importing the package stays light:
``import kradan`` loads no numba and no compiled kernel until a board or a game is asked for."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(
    package: str, names: Mapping[str, str | None]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of ``package`` for ``names``: each maps to the module
    (relative to the package) that holds it, or to ``None`` for a subpackage of that name.
    A name, once loaded, is kept in the package like any other."""
    namespace = sys.modules[package].__dict__

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        where = names[name]
        module = importlib.import_module(f".{name}" if where is None else where, package)
        value = module if where is None else getattr(module, name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(names))

    return __getattr__, __dir__


__all__ = ["lazy_names"]
