"""The endgame tables as the engine uses them (docs/egtb.md, "In the engine").

At the root the engine asks :meth:`kradan.egtb.Tablebase.probe`, which knows the count exactly,
and plays the table's move when the position is won or lost. Inside the search the compiled
kernel probes (:mod:`kradan.engine.kernels.tablebase`) the tables of up to 4 pieces that captures
(and promotions to met) can reach from the position: they sit in one byte array, the *slab*.

Read once per process. :func:`shared_tables` keeps one :class:`EngineTables` per table
directory for every searcher of the process, and what it has read stays: a table file is read,
decompressed and checked (SHA-256) once, then probed from memory by every later search, whatever
searcher runs it. The 3-piece tables take 1 MiB of the slab together; each 4-piece table a
16 MiB page, and :data:`PAGES` of them are held (the least recently used one not in use giving
way); the root probe's other tables (the conversion tables, 16 MiB each) are kept as
:data:`kradan.egtb.tables.CACHE_TABLES` at most. So a directory's tables take at most
1 + 16 x (PAGES + CACHE_TABLES) MiB (225 MiB) besides ``Hash``, however many searchers use them;
the system commits the slab's memory only as tables fill it.

Never on the move's time. A search on the clock never waits for a table: what it lacks is read
in a background thread (the *loader*) while it searches, and probed from the moment it is in
place, by this search if it is still running, else by the next. The loader reads every table a
capture can reach from a position of at most :data:`READ_REACH` pieces (two captures ahead of a
4-piece table), and the front ends start it ahead of the search (``isready``, a new position). A
search without a clock (a depth, nodes, analysis) reads what it needs first, as before.

Each search probes through its own :class:`TableView`, whose slots name only the tables
reachable from its position; a page is given to a new table only when no view wants it, so a
table never changes under a search that may probe it (the kernel runs without the GIL).
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter, OrderedDict, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from ..board import Board
from ..egtb.conversion import kind_for, two_sided
from ..egtb.directory import default_directory
from ..egtb.index import table_size
from ..egtb.material import Material, canonical
from ..egtb.position import check_rules, locate
from ..egtb.probing import ProbeResult, Tablebase
from ..egtb.storage import file_name
from ..egtb.tables import CACHE_TABLES
from ..errors import MissingTableError, TablebaseError
from ..move import Move
from ..pieces import FERZ, KHON, KNIGHT, MET, PAWN, ROOK, WHITE
from .kernels.tablebase import SIGNATURES

#: 4-piece tables held for the search at once (16 MiB each), per table directory
PAGES = 6
#: the largest tables the search probes (5-piece tables take 1 GiB each)
SEARCH_PIECES = 4
#: positions with more pieces than this get no tables in their search (none is within reach)
REACH = 8
#: tables are read for a position of at most this many pieces, two captures from a 4-piece
#: table; farther off the search seldom gets there, and it probes those already read
READ_REACH = 6
#: the 3-piece tables (KRvK, KSvK, KNvK, KMvK), each 256 KiB, at the start of the slab
SMALL_TABLES = 4
_KINDS = (ROOK, KHON, KNIGHT, MET)
_LETTERS = "RSNM"


def signature(white: str, black: str) -> int:
    """The kernel's material signature (:func:`kradan.engine.kernels.tablebase.signature`)."""
    code = 0
    for letters in (white, black):
        for letter in _LETTERS:
            code = code * 4 + min(letters.count(letter), 3)
    return code


def _counts(board: Board) -> tuple[int, ...]:
    """Each side's rooks, khons, knights and mets (a pawn or a sit-ke counted as a met)."""
    counts = [0] * 8
    for piece in board.piece_map().values():
        kind = piece.piece_type
        # a pawn may become a met; Sittuyin's sit-ke (the ferz) is one
        slot = 3 if kind in (PAWN, FERZ) else _KINDS.index(kind) if kind in _KINDS else -1
        if slot >= 0:
            counts[slot + (0 if piece.color == WHITE else 4)] += 1
    return tuple(counts)


def reachable(board: Board) -> list[Material]:
    """The tables of 3 to :data:`SEARCH_PIECES` pieces that captures and promotions can reach
    from ``board``, those with the most pieces first."""
    return list(_reachable(_counts(board)))


@lru_cache(maxsize=4096)
def _reachable(counts: tuple[int, ...]) -> tuple[Material, ...]:
    found: dict[str, Material] = {}
    spare = SEARCH_PIECES - 2
    ranges = [range(min(count, spare) + 1) for count in counts]
    for chosen in product(*ranges):
        if not 0 < sum(chosen) <= spare:
            continue
        white = "".join(letter * n for letter, n in zip(_LETTERS, chosen[:4], strict=True))
        black = "".join(letter * n for letter, n in zip(_LETTERS, chosen[4:], strict=True))
        material, _ = canonical(white, black)
        found[material.key] = material
    return tuple(sorted(found.values(), key=lambda m: (-m.pieces, m.key)))


#: the 3-piece tables, read ahead whenever tables are (1 MiB together)
SMALL = tuple(canonical(letter, "")[0] for letter in _LETTERS)


class TableView:
    """What one search probes: ``slots`` (the kernel's: a material signature -> the table's
    place in the slab, see :mod:`kradan.engine.kernels.tablebase`) for the tables ``wanted``
    from its position, and for no other. Made by :meth:`EngineTables.view`."""

    def __init__(self) -> None:
        self.slots = np.full(SIGNATURES, -1, dtype=np.int64)
        #: the keys of the tables reachable from the position searched
        self.wanted: frozenset[str] = frozenset()
        self._set: list[int] = []


class _NotLoaded(Exception):
    """A root probe on the clock needs a table that is not in memory (it is being read)."""


def _again(error: TablebaseError) -> TablebaseError:
    """A fresh copy of ``error`` to raise (raising one object again and again would grow its
    traceback each time)."""
    return type(error)(*error.args)


class EngineTables(Tablebase):
    """The tables of ``directory`` (see :class:`kradan.egtb.Tablebase`) as the engine uses them:
    :meth:`root` for the root's answer and :meth:`prepare` for a search's slots. Use
    :func:`shared_tables` for the one instance of a directory that every searcher shares."""

    def __init__(self, directory: str | Path | None = None, pages: int = PAGES) -> None:
        super().__init__(directory)
        self.pages = pages
        small, big = table_size(3), table_size(SEARCH_PIECES)
        #: the tables the search probes: the 3-piece ones, then a page per 4-piece table;
        #: allocated once, zero-filled (the system commits its pages as tables are written)
        self.slab = np.zeros(SMALL_TABLES * small + pages * big, dtype=np.uint8)
        #: table key -> its offset in the slab, the least recently used first
        self._placed: OrderedDict[str, int] = OrderedDict()
        self._materials: dict[str, Material] = {}
        #: file name -> what was wrong with it (missing or damaged): not looked for again
        #: until :meth:`refresh`
        self._missing: dict[str, TablebaseError] = {}
        #: file name -> (path, size, modification time) of the file each table was read from
        self._identity: dict[str, tuple[Path, int, int]] = {}
        #: what went wrong with a table file, for the front end to report once
        self.problems: list[str] = []
        self._told = 0
        #: table files read (decompressed and checked): each once while it stays in memory
        self.reads = 0
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._views: weakref.WeakSet[TableView] = weakref.WeakSet()
        self._view = self.view()
        #: tables in use by root probes that are running (not given up while they are)
        self._probing: Counter[str] = Counter()
        self._local = threading.local()
        #: the loader's work: tables to read, those queued or being read (by file name)
        self._queue: deque[tuple[Material, str]] = deque()
        self._queued: set[str] = set()
        self._busy: set[str] = set()
        self._loader: threading.Thread | None = None

    # --- views and the search's preparation -----------------------------------------------

    def view(self) -> TableView:
        """A new view for a search (each searcher holds one)."""
        view = TableView()
        with self._lock:
            self._views.add(view)
        return view

    @property
    def slots(self) -> np.ndarray:
        """The slots of this instance's own view (that of :meth:`prepare` without one)."""
        return self._view.slots

    def prepare(self, board: Board, *, wait: bool = True, view: TableView | None = None) -> int:
        """Point ``view`` (default: this instance's own) at the tables the search of ``board``
        can reach; returns the most pieces of those it may probe (0: none). Tables not yet in
        memory are read (4-piece ones for a position of at most :data:`READ_REACH` pieces,
        3-piece ones for any): here, before the
        search (``wait``), or by the loader in the background, for a search on the clock,
        which probes each from the moment it is in place. Costs microseconds when every table
        is in memory."""
        view = self._view if view is None else view
        pieces = len(board.piece_map())
        wanted = self._wanted(board) if pieces <= REACH and self.covers(board) else []
        with self._lock:
            view.wanted = frozenset(m.key for m in wanted)
            for material in wanted:
                if material.key in self._placed:
                    self._placed.move_to_end(material.key)
            todo = [m for m in wanted if not self._known(m, "")]
        if pieces > READ_REACH:  # a 3-piece table costs a millisecond: it is read anyway
            todo = [m for m in todo if m.pieces < SEARCH_PIECES]
        if todo:
            if wait:
                for material in todo:
                    with suppress(TablebaseError):  # noted; the search goes on without it
                        self._fetch(material, "")
            else:
                self._schedule((m, "") for m in todo)
        with self._lock:
            self._fill(view)
            coming = self._queued | self._busy
            usable = [m for m in wanted if m.key in self._placed or file_name(m) in coming]
            return max((m.pieces for m in usable), default=0)

    def _wanted(self, board: Board) -> list[Material]:
        wanted = reachable(board)
        if sum(m.pieces == SEARCH_PIECES for m in wanted) > self.pages:
            big = [m for m in wanted if m.pieces == SEARCH_PIECES][: self.pages]
            wanted = big + [m for m in wanted if m.pieces < SEARCH_PIECES]
        return wanted

    def _fill(self, view: TableView) -> None:
        """Set ``view``'s slots to the tables it wants that are in the slab, and no others."""
        for code in view._set:
            view.slots[code] = -1
        view._set = []
        for key in view.wanted:
            offset = self._placed.get(key)
            if offset is not None:
                self._point(view, self._materials[key], offset)

    @staticmethod
    def _point(view: TableView, material: Material, offset: int) -> None:
        for white, black, flipped in ((material.white, material.black, 0),
                                      (material.black, material.white, 1)):  # fmt: skip
            if white == black and flipped:
                continue
            code = signature(white, black)
            view.slots[code] = offset * 2 + flipped
            view._set.append(code)

    # --- reading ahead ---------------------------------------------------------------------

    def preload(self, board: Board | None = None) -> None:
        """Start reading, in the background, the 3-piece tables and those a search or the
        root's answer for ``board`` would need (nothing waits for them)."""
        todo: list[tuple[Material, str]] = [(m, "") for m in SMALL]
        if board is not None and self.covers(board) and len(board.piece_map()) <= READ_REACH:
            todo = self._root_tables(board) + [(m, "") for m in self._wanted(board)] + todo
        self._schedule(todo)

    def wait_loaded(self, timeout: float | None = None) -> bool:
        """Wait until the loader has nothing left to read; ``False`` when ``timeout`` seconds
        passed first."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not self._queue and not self._queued and not self._busy, timeout
            )

    def _schedule(self, items: Iterable[tuple[Material, str]]) -> None:
        """Queue tables for the loader (those not in memory, queued or known to be missing)."""
        with self._lock:
            for material, kind in items:
                label = file_name(material, kind)
                if label in self._queued or self._known(material, kind):
                    continue
                self._queue.append((material, kind))
                self._queued.add(label)
            if self._queue and self._loader is None:
                self._loader = threading.Thread(
                    target=self._load_queue, name="kradan-egtb-loader", daemon=True
                )
                self._loader.start()

    def _load_queue(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._loader = None
                    self._changed.notify_all()
                    return
                material, kind = self._queue.popleft()
            try:
                self._fetch(material, kind)
            except TablebaseError:
                pass  # noted for the front end
            finally:
                with self._lock:
                    self._queued.discard(file_name(material, kind))
                    self._changed.notify_all()

    # --- reading ---------------------------------------------------------------------------

    def _known(self, material: Material, kind: str) -> bool:
        """Whether ``material``'s table is where it belongs (a search's table in the slab)
        or known not to be readable."""
        label = file_name(material, kind)
        if label in self._missing:
            return True
        return material.key in self._placed if not kind else label in self._cache

    def _lookup(self, material: Material, kind: str) -> np.ndarray | None:
        if not kind:
            offset = self._placed.get(material.key)
            if offset is not None:
                self._placed.move_to_end(material.key)
                return self.slab[offset : offset + table_size(material.pieces)]
        label = file_name(material, kind)
        cached = self._cache.get(label)
        if cached is not None:
            self._cache.move_to_end(label)
        return cached

    def _fetch(self, material: Material, kind: str) -> None:
        """Read ``material``'s table (of ``kind``) into memory unless it is there, here (the
        slow part outside the lock, so probes go on meanwhile).

        :raises TablebaseError: the table's file is missing or damaged (noted once).
        """
        label = file_name(material, kind)
        with self._lock:
            while label in self._busy:
                self._changed.wait()
            if label in self._missing:
                raise _again(self._missing[label])
            if self._known(material, kind):
                return
            cached = self._cache.pop(label, None) if not kind else None
            if cached is not None:  # read when the slab had no room: it may have some now
                self._install(material, kind, cached)
                return
            self._busy.add(label)
        try:
            source = self.source(material, kind)
            identity = None
            if source is not None:
                stat = source.stat()
                identity = (source, stat.st_size, stat.st_mtime_ns)
            try:
                values = self.load(material, kind)
            except TablebaseError as error:
                with self._lock:
                    self._missing[label] = error
                    if isinstance(error, MissingTableError):
                        if not kind:  # a conversion table may be missing: probes do without
                            self._note_missing(error)
                    else:
                        self._note(str(error))
                raise
            with self._lock:
                self.reads += 1
                if identity is not None:
                    self._identity[label] = identity
                self._install(material, kind, values)
        finally:
            with self._lock:
                self._busy.discard(label)
                self._changed.notify_all()

    def _install(self, material: Material, kind: str, values: np.ndarray) -> None:
        """Keep ``values``: a search's table in the slab when a place is free, else (and every
        other table) in the cache of the root's probes."""
        if not kind and material.pieces <= SEARCH_PIECES:
            offset = self._free_offset(material.pieces)
            if offset is not None:
                self.slab[offset : offset + values.size] = values
                self._placed[material.key] = offset
                self._materials[material.key] = material
                for view in list(self._views):
                    if material.key in view.wanted:
                        self._point(view, material, offset)
                return
        label = file_name(material, kind)
        self._cache[label] = values
        while len(self._cache) > CACHE_TABLES:
            self._cache.popitem(last=False)

    def _in_use(self) -> set[str]:
        used = set(self._probing)
        for view in list(self._views):
            used |= view.wanted
        return used

    def _free_offset(self, pieces: int) -> int | None:
        """Where a new table of ``pieces`` pieces goes: 3-piece tables share the first MiB,
        each 4-piece table has a page of its own, taken from the least recently used table
        that no search wants (``None``: every page is in use)."""
        small, big = table_size(3), table_size(SEARCH_PIECES)
        taken = set(self._placed.values())
        if pieces < SEARCH_PIECES:
            return next((k * small for k in range(SMALL_TABLES) if k * small not in taken), None)
        for page in range(self.pages):
            offset = SMALL_TABLES * small + page * big
            if offset not in taken:
                return offset
        used = self._in_use()
        for key, offset in self._placed.items():
            if offset >= SMALL_TABLES * small and key not in used:
                self._drop(key)
                return offset
        return None

    def _drop(self, key: str) -> None:
        offset = self._placed.pop(key)
        self._materials.pop(key, None)
        self._identity.pop(f"{key}.ktb", None)
        for view in list(self._views):
            for code in view._set:
                if view.slots[code] >= 0 and view.slots[code] // 2 == offset:
                    view.slots[code] = -1

    def refresh(self) -> None:
        """Look again for the tables found missing or damaged, and read again (when next
        needed) those whose file changed since: a table generated or rebuilt while the
        engine runs is used from the next search on."""
        with self._lock:
            self._missing.clear()
            used = self._in_use()
            for label, (path, size, mtime) in list(self._identity.items()):
                try:
                    stat = path.stat()
                    same = (stat.st_size, stat.st_mtime_ns) == (size, mtime)
                except OSError:
                    same = False
                key = label.split(".")[0]
                if same or key in used:
                    continue
                del self._identity[label]
                if key in self._placed and label == f"{key}.ktb":
                    self._drop(key)
                self._cache.pop(label, None)

    def values(self, material: Material, kind: str = "") -> np.ndarray:
        """A table's values, read once (see :meth:`kradan.egtb.Tablebase.values` for the
        errors). A 4-piece table is a view of the slab: valid until the loader gives its page
        to another table, which it does only to a table no search and no probe is using."""
        label = file_name(material, kind)
        with self._lock:
            found = self._lookup(material, kind)
            missing = self._missing.get(label)
        if found is not None:
            return found
        if missing is not None:
            raise _again(missing)
        if not getattr(self._local, "patient", True):
            raise _NotLoaded(label)
        self._fetch(material, kind)
        with self._lock:
            found = self._lookup(material, kind)
        if found is None:  # a page could not be had: read it once more, for this probe
            return self.load(material, kind)
        return found

    # --- the root --------------------------------------------------------------------------

    def covers(self, board: Board) -> bool:
        """Whether the rules of ``board`` are those the tables were built for."""
        try:
            check_rules(board)
        except TablebaseError:
            return False
        return True

    def root(self, board: Board, *, load: bool = True) -> ProbeResult | None:
        """The tables' answer for ``board``, or ``None`` when they have none (more pieces, pawns,
        other rules, a table missing or damaged). Without ``load`` (a search on the clock) only
        tables in memory answer: when one is missing the loader reads what the answer needs, in
        the background, and the answer comes with a later search."""
        if not self.covers(board):
            return None
        pieces = len(board.piece_map())
        if pieces > 5 or any(p.piece_type == PAWN for p in board.piece_map().values()):
            return None
        try:
            material = locate(board).material
            if pieces > SEARCH_PIECES and material and not self.path(material).exists():
                return None  # 5-piece tables are made only on request: no news
            with self._probe(board, load):
                return self.probe(board)
        except _NotLoaded:
            self._schedule(self._root_tables(board))
            return None
        except MissingTableError as error:
            self._note_missing(error)
            return None
        except TablebaseError as error:
            self._note(str(error))
            return None

    @contextmanager
    def _probe(self, board: Board, load: bool) -> Iterator[None]:
        """While a root probe of ``board`` runs: the tables it reads keep their pages, and
        (without ``load``) it reads none."""
        keys = [m.key for m in reachable(board)]
        was = getattr(self._local, "patient", True)
        with self._lock:
            self._probing.update(keys)
        self._local.patient = load and was
        try:
            yield
        finally:
            self._local.patient = was
            with self._lock:
                self._probing.subtract(keys)
                self._probing += Counter()  # drop the zero counts

    def _root_tables(self, board: Board) -> list[tuple[Material, str]]:
        """The tables the root's answer for ``board`` reads: its own, those its captures reach,
        and their conversion tables (pieces on both sides); none for a position the tables do
        not hold (pawns, more pieces)."""
        pieces = board.piece_map().values()
        if len(pieces) > 5 or any(p.piece_type == PAWN for p in pieces):
            return []
        try:
            own = locate(board).material
        except TablebaseError:
            return []
        tables = reachable(board)
        known = own is None or own.key in {m.key for m in tables}
        if own is not None and not known and self.path(own).exists():
            tables = [own, *tables]  # a 5-piece table, made on request
        kind = kind_for(board.variant)
        todo: list[tuple[Material, str]] = [(m, "") for m in tables]
        if kind is not None:
            todo += [(m, kind) for m in tables if two_sided(m) and m.pieces <= SEARCH_PIECES]
        return todo

    # --- news ------------------------------------------------------------------------------

    def news(self) -> list[str]:
        """The problems not yet returned by an earlier call (a front end says each once)."""
        with self._lock:
            fresh = self.problems[self._told :]
            self._told = len(self.problems)
        return fresh

    def _note_missing(self, error: MissingTableError) -> None:
        """Say once that tables are missing (the first one named), not once per table: a
        directory without the 4-piece set lacks 20 of them."""
        with self._lock:
            if not any(p.startswith("no endgame table") for p in self.problems):
                self._note(f"{error} (the search goes on without the missing tables)")

    def _note(self, problem: str) -> None:
        with self._lock:
            if problem not in self.problems:
                self.problems.append(problem)


_shared: dict[Path, EngineTables] = {}
_shared_lock = threading.Lock()


def shared_tables(directory: str | Path | None = None) -> EngineTables:
    """The process's one :class:`EngineTables` for ``directory`` (``None``: the default one,
    :func:`kradan.egtb.default_directory`): every searcher that probes that directory shares
    its tables, so each is read once per process."""
    path = Path(directory) if directory is not None else default_directory()
    key = path.expanduser().resolve()
    with _shared_lock:
        tables = _shared.get(key)
        if tables is None:
            tables = _shared[key] = EngineTables(path)
    return tables


def table_line(
    tables: EngineTables, board: Board, found: ProbeResult, plies: int, *, load: bool = True
) -> list[Move]:
    """The table's best line from ``board``: ``found``'s move, then each side's best, up to
    ``plies`` moves (shorter when a probe fails or the game ends; without ``load``, when a
    table is not in memory)."""
    line: list[Move] = []
    work = board.copy(stack=False)
    result: ProbeResult | None = found
    while result is not None and result.best_move is not None and len(line) < plies:
        line.append(result.best_move)
        work.push(result.best_move)
        if work.is_game_over():
            break
        result = tables.root(work, load=load)
    return line


def table_moves(tables: EngineTables, board: Board) -> list[tuple[Move, int, int | None]]:
    """Every legal move of ``board`` as the tables judge it, best first: ``(move, result,
    plies)`` with the mover's result under the rules (1 win, 0 draw, -1 loss; the count
    included) and the plies to mate (``None`` when drawn). Empty when a probe fails."""
    judged: list[tuple[Move, int, int | None]] = []
    for move in board.legal_moves:
        child = board.copy(stack=False)
        child.push(move)
        outcome = child.outcome()
        if outcome is not None:
            won = outcome.winner is not None
            judged.append((move, 1 if won else 0, 1 if won else None))
            continue
        answer = tables.root(child)
        if answer is None:
            return []
        result = -answer.result
        judged.append((move, result, None if result == 0 else (answer.dtm or 0) + 1))

    def order(entry: tuple[Move, int, int | None]) -> tuple[int, int]:
        _, result, plies = entry  # the fastest win, then draws, then the longest loss
        return (-result, (plies or 0) if result > 0 else -(plies or 0))

    return sorted(judged, key=order)


def default_tables() -> EngineTables:
    """The default tables (for the command line's analysis and hints), shared with the
    searchers that use them (:func:`shared_tables`)."""
    return shared_tables(None)


def table_answer(board: Any) -> ProbeResult | None:
    """The default tables' answer for ``board`` (the user's data directory, then the 3-piece
    tables kradan ships), or ``None``: another game, more pieces or pawns, a table missing."""
    return default_tables().root(board)


__all__ = [
    "PAGES",
    "READ_REACH",
    "EngineTables",
    "TableView",
    "default_tables",
    "reachable",
    "shared_tables",
    "signature",
    "table_answer",
    "table_line",
    "table_moves",
]
