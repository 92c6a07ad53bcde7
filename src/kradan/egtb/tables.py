"""Where tables live and how they are loaded: a directory of files (the user's data directory
by default) in front of the 3-piece tables shipped inside the package."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import numpy as np

from ..errors import MissingTableError
from .directory import default_directory
from .material import Material
from .storage import file_name, read_table

#: the 3-piece tables that ship with kradan
PACKAGED = Path(__file__).resolve().parent / "data"
#: tables kept in memory at once (a 4-piece table takes 16 MiB)
CACHE_TABLES = 8


class TableSet:
    """Tables read from ``directory`` (default: :func:`default_directory`), falling back to the
    packaged 3-piece ones; the last few are kept in memory.

    With ``generate_missing`` a missing table is built (with the tables it needs) and written
    to ``directory`` on first use instead of raising :class:`MissingTableError`.
    """

    def __init__(self, directory: str | Path | None = None, *, generate_missing: bool = False):
        self.directory = Path(directory) if directory is not None else default_directory()
        self.generate_missing = generate_missing
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()

    def path(self, material: Material, kind: str = "") -> Path:
        """Where this set reads (or would write) ``material``'s table (of ``kind``: ``""``, or
        ``"makruk-count"`` for a conversion table)."""
        return self.directory / file_name(material, kind)

    def values(self, material: Material, kind: str = "") -> np.ndarray:
        """The values of ``material``'s table (of ``kind``, see :meth:`path`).

        :raises MissingTableError: when no file holds it (and ``generate_missing`` is off).
        :raises CorruptTableError: when its file is damaged.
        """
        label = file_name(material, kind)
        cached = self._cache.get(label)
        if cached is not None:
            self._cache.move_to_end(label)
            return cached
        values = self.load(material, kind)
        self._cache[label] = values
        while len(self._cache) > CACHE_TABLES:
            self._cache.popitem(last=False)
        return values

    def source(self, material: Material, kind: str = "") -> Path | None:
        """The file :meth:`load` reads for ``material``'s table (of ``kind``): the one in the
        directory, else the packaged one; ``None`` when neither exists."""
        path = self.path(material, kind)
        if path.exists():
            return path
        packaged = PACKAGED / file_name(material, kind)
        return packaged if packaged.exists() else None

    def load(self, material: Material, kind: str = "") -> np.ndarray:
        """Read ``material``'s table (of ``kind``) from its file, past the cache (see
        :meth:`values` for the errors)."""
        source = self.source(material, kind)
        if source is not None:
            return read_table(source, material, kind)
        path = self.path(material, kind)
        if not self.generate_missing:
            name = path.name.removesuffix(".ktb")
            raise MissingTableError(
                f"no endgame table {name} in {str(self.directory)!r}; make it with "
                f"'kradan egtb generate --pieces {material.pieces} --dir {self.directory}'"
            )
        from .generate import generate_one

        return generate_one(material, self.directory, load=self.values, kind=kind)
