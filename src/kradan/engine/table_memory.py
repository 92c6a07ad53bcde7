"""Where the search's endgame tables live: the slab and its pages, the views the searches probe
through, and the loader thread that reads tables in the background (docs/egtb.md, "In the
engine"). :class:`kradan.engine.tablebase.EngineTables` holds its lock around every call into
a :class:`Slab`; the :class:`Loader` takes it itself.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable

import numpy as np

from ..egtb.index import table_size
from ..egtb.material import Material
from ..egtb.storage import file_name
from .kernels.tablebase import SIGNATURES

#: the largest tables the search probes (5-piece tables take 1 GiB each)
SEARCH_PIECES = 4
#: the 3-piece tables (KRvK, KSvK, KNvK, KMvK), each 256 KiB, at the start of the slab
SMALL_TABLES = 4
_LETTERS = "RSNM"


def signature(white: str, black: str) -> int:
    """The kernel's material signature (:func:`kradan.engine.kernels.tablebase.signature`)."""
    code = 0
    for letters in (white, black):
        for letter in _LETTERS:
            code = code * 4 + min(letters.count(letter), 3)
    return code


class TableView:
    """What one search probes: ``slots`` (the kernel's: a material signature -> the table's
    place in the slab, see :mod:`kradan.engine.kernels.tablebase`) for the tables ``wanted``
    from its position, and for no other. Made by :meth:`Slab.view`."""

    def __init__(self) -> None:
        self.slots = np.full(SIGNATURES, -1, dtype=np.int64)
        #: the keys of the tables reachable from the position searched
        self.wanted: frozenset[str] = frozenset()
        #: the signatures set in ``slots``
        self.codes: list[int] = []

    def point(self, material: Material, offset: int) -> None:
        """Name ``material``'s table, at ``offset`` in the slab, for either colour."""
        for white, black, flipped in ((material.white, material.black, 0),
                                      (material.black, material.white, 1)):  # fmt: skip
            if white == black and flipped:
                continue
            code = signature(white, black)
            self.slots[code] = offset * 2 + flipped
            self.codes.append(code)

    def forget(self, offset: int | None = None) -> None:
        """Name no table (``None``), or none at ``offset`` any more."""
        kept = []
        for code in self.codes:
            if offset is None or self.slots[code] // 2 == offset:
                self.slots[code] = -1
            else:
                kept.append(code)
        self.codes = kept


class Slab:
    """The tables the search probes, in one byte array allocated once (zero-filled: the system
    commits its pages as tables are written): the four 3-piece tables in its first MiB, then a
    page of 16 MiB for each of up to ``pages`` 4-piece tables. A page goes to a new table only
    when no view wants the table it holds: no table changes under a search that may probe it
    (the kernel runs without the GIL)."""

    def __init__(self, pages: int) -> None:
        self.pages = pages
        small, big = table_size(3), table_size(SEARCH_PIECES)
        self.array = np.zeros(SMALL_TABLES * small + pages * big, dtype=np.uint8)
        #: table key -> its offset in the slab, the least recently used first
        self.placed: OrderedDict[str, int] = OrderedDict()
        self._materials: dict[str, Material] = {}
        self._views: weakref.WeakSet[TableView] = weakref.WeakSet()

    def view(self) -> TableView:
        view = TableView()
        self._views.add(view)
        return view

    def aim(self, view: TableView, wanted: Iterable[Material]) -> None:
        """Point ``view`` at the tables ``wanted`` (those in the slab now, the others as they
        come); they keep their pages while it wants them."""
        view.wanted = frozenset(material.key for material in wanted)
        view.forget()
        for key in view.wanted:
            offset = self.placed.get(key)
            if offset is not None:
                self.placed.move_to_end(key)
                view.point(self._materials[key], offset)

    def values(self, material: Material) -> np.ndarray | None:
        """``material``'s table in the slab (a view of it), or ``None``."""
        offset = self.placed.get(material.key)
        if offset is None:
            return None
        self.placed.move_to_end(material.key)
        return self.array[offset : offset + table_size(material.pieces)]

    def place(self, material: Material, values: np.ndarray, probing: Iterable[str]) -> bool:
        """Copy ``values`` in, into a free place or that of the least recently used table no
        view wants and no probe (``probing``) reads; ``False`` when there is none."""
        offset = self._free_offset(material.pieces, probing)
        if offset is None:
            return False
        self.array[offset : offset + values.size] = values
        self.placed[material.key] = offset
        self._materials[material.key] = material
        for view in list(self._views):
            if material.key in view.wanted:
                view.point(material, offset)
        return True

    def in_use(self) -> set[str]:
        """The keys of the tables some view wants."""
        used: set[str] = set()
        for view in list(self._views):
            used |= view.wanted
        return used

    def drop(self, key: str) -> None:
        offset = self.placed.pop(key)
        self._materials.pop(key, None)
        for view in list(self._views):
            view.forget(offset)

    def _free_offset(self, pieces: int, probing: Iterable[str]) -> int | None:
        small, big = table_size(3), table_size(SEARCH_PIECES)
        taken = set(self.placed.values())
        if pieces < SEARCH_PIECES:
            return next((k * small for k in range(SMALL_TABLES) if k * small not in taken), None)
        for page in range(self.pages):
            offset = SMALL_TABLES * small + page * big
            if offset not in taken:
                return offset
        used = self.in_use() | set(probing)
        for key, offset in self.placed.items():
            if offset >= SMALL_TABLES * small and key not in used:
                self.drop(key)
                return offset
        return None


class Loader:
    """Reads tables one after the other in a background thread (started when there is work,
    ended when there is none), through ``fetch``; ``changed`` is notified after each."""

    def __init__(
        self, changed: threading.Condition, fetch: Callable[[Material, str], None]
    ) -> None:
        self._changed = changed
        self._fetch = fetch
        self._queue: deque[tuple[Material, str]] = deque()
        #: the file names queued or being read
        self.coming: set[str] = set()
        self._thread: threading.Thread | None = None

    def schedule(
        self, items: Iterable[tuple[Material, str]], skip: Callable[[Material, str], bool]
    ) -> None:
        """Queue the tables of ``items`` not queued already, nor ``skip``ped."""
        with self._changed:
            for material, kind in items:
                label = file_name(material, kind)
                if label in self.coming or skip(material, kind):
                    continue
                self._queue.append((material, kind))
                self.coming.add(label)
            if self._queue and self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="kradan-egtb-loader", daemon=True
                )
                self._thread.start()

    def _run(self) -> None:
        while True:
            with self._changed:
                if not self._queue:
                    self._thread = None
                    self._changed.notify_all()
                    return
                material, kind = self._queue.popleft()
            try:
                self._fetch(material, kind)
            except Exception:  # a table that cannot be read is noted by ``fetch``: go on
                pass
            finally:
                with self._changed:
                    self.coming.discard(file_name(material, kind))
                    self._changed.notify_all()


__all__ = ["SEARCH_PIECES", "SMALL_TABLES", "Loader", "Slab", "TableView", "signature"]
