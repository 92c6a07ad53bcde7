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
table never changes under a search that may probe it (the kernel runs without the GIL). The
slab, the views and the loader are in :mod:`kradan.engine.table_memory`.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from ..board import Board
from ..egtb.conversion import kind_for, two_sided
from ..egtb.directory import default_directory
from ..egtb.material import Material, canonical
from ..egtb.position import check_rules, locate
from ..egtb.probing import ProbeResult, Tablebase
from ..egtb.storage import file_name
from ..egtb.tables import CACHE_TABLES
from ..errors import MissingTableError, TablebaseError
from ..move import Move
from ..pieces import FERZ, KHON, KNIGHT, MET, PAWN, ROOK, WHITE
from .table_memory import SEARCH_PIECES, Loader, Slab, TableView, signature

#: 4-piece tables held for the search at once (16 MiB each), per table directory
PAGES = 6
#: positions with more pieces than this get no tables in their search (none is within reach)
REACH = 8
#: 4-piece tables are read for a position of at most this many pieces, two captures from
#: them; farther off the search seldom gets there, and it probes those already read
READ_REACH = 6
_KINDS = (ROOK, KHON, KNIGHT, MET)


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
        white = "".join(letter * n for letter, n in zip("RSNM", chosen[:4], strict=True))
        black = "".join(letter * n for letter, n in zip("RSNM", chosen[4:], strict=True))
        material, _ = canonical(white, black)
        found[material.key] = material
    return tuple(sorted(found.values(), key=lambda m: (-m.pieces, m.key)))


#: the 3-piece tables, read ahead whenever tables are (1 MiB together)
SMALL = tuple(canonical(letter, "")[0] for letter in "RSNM")


def root_tables(board: Board, path: Callable[[Material], Path]) -> list[tuple[Material, str]]:
    """The tables (material, kind) the root's answer for ``board`` reads: its own, those its
    captures reach, and their conversion tables (pieces on both sides); none for a position
    the tables do not hold (pawns, more pieces). ``path`` is where a table's file would be (a
    5-piece table is read only when it is there)."""
    pieces = board.piece_map().values()
    if len(pieces) > 5 or any(p.piece_type == PAWN for p in pieces):
        return []
    try:
        own = locate(board).material
    except TablebaseError:
        return []
    tables = reachable(board)
    known = own is None or own.key in {m.key for m in tables}
    if own is not None and not known and path(own).exists():
        tables = [own, *tables]  # a 5-piece table, made on request
    kind = kind_for(board.variant)
    todo: list[tuple[Material, str]] = [(m, "") for m in tables]
    if kind is not None:
        todo += [(m, kind) for m in tables if two_sided(m) and m.pieces <= SEARCH_PIECES]
    return todo


def wanted_tables(board: Board, pages: int) -> list[Material]:
    """The tables the search of ``board`` probes: :func:`reachable`, with at most ``pages``
    4-piece ones."""
    wanted = reachable(board)
    if sum(m.pieces == SEARCH_PIECES for m in wanted) > pages:
        big = [m for m in wanted if m.pieces == SEARCH_PIECES][:pages]
        wanted = big + [m for m in wanted if m.pieces < SEARCH_PIECES]
    return wanted


class _NotLoaded(Exception):
    """A root probe on the clock needs a table that is not in memory (it is being read)."""


def _again(error: TablebaseError) -> TablebaseError:
    """A fresh copy of ``error`` to raise (raising one object again and again would grow its
    traceback each time)."""
    return type(error)(*error.args)


class EngineTables(Tablebase):
    """The tables of ``directory`` (see :class:`kradan.egtb.Tablebase`) as the engine uses them:
    :meth:`root` for the root's answer and :meth:`prepare` for a search's view. Use
    :func:`shared_tables` for the one instance of a directory that every searcher shares."""

    def __init__(self, directory: str | Path | None = None, pages: int = PAGES) -> None:
        super().__init__(directory)
        self._slab = Slab(pages)
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
        self._view = self._slab.view()
        #: tables in use by root probes that are running (they keep their pages meanwhile)
        self._probing: Counter[str] = Counter()
        self._local = threading.local()
        #: file names being read now, by the loader or a search without a clock
        self._busy: set[str] = set()
        self._loader = Loader(self._changed, self._fetch)

    @property
    def pages(self) -> int:
        return self._slab.pages

    @property
    def slab(self) -> np.ndarray:
        """The search's tables (see :class:`kradan.engine.table_memory.Slab`)."""
        return self._slab.array

    @property
    def slots(self) -> np.ndarray:
        """The slots of this instance's own view (that of :meth:`prepare` without one)."""
        return self._view.slots

    def view(self) -> TableView:
        """A new view for a search (each searcher holds one)."""
        with self._lock:
            return self._slab.view()

    # --- the search's preparation, reading ahead -------------------------------------------

    def prepare(self, board: Board, *, wait: bool = True, view: TableView | None = None) -> int:
        """Point ``view`` (default: this instance's own) at the tables the search of ``board``
        can reach; returns the most pieces of those it may probe (0: none). Tables not yet in
        memory are read (4-piece ones for a position of at most :data:`READ_REACH` pieces,
        3-piece ones for any): here, before the search (``wait``), or by the loader in the
        background, for a search on the clock, which probes each from the moment it is in
        place. Costs a fraction of a millisecond when every table is in memory."""
        view = self._view if view is None else view
        pieces = len(board.piece_map())
        wanted = wanted_tables(board, self.pages) if pieces <= REACH and self.covers(board) else []
        with self._lock:
            self._slab.aim(view, wanted)
            todo = [m for m in wanted if not self._known(m, "")]
        if pieces > READ_REACH:  # a 3-piece table costs a millisecond: it is read anyway
            todo = [m for m in todo if m.pieces < SEARCH_PIECES]
        if todo and wait:
            for material in todo:
                with suppress(TablebaseError):  # noted; the search goes on without it
                    self._fetch(material, "")
        elif todo:
            self._loader.schedule(((m, "") for m in todo), self._known)
        with self._lock:
            coming = self._loader.coming | self._busy
            placed = self._slab.placed
            usable = [m for m in wanted if m.key in placed or file_name(m) in coming]
            return max((m.pieces for m in usable), default=0)

    def preload(self, board: Board | None = None) -> None:
        """Start reading, in the background, the 3-piece tables and those a search or the
        root's answer for ``board`` would need (nothing waits for them)."""
        todo: list[tuple[Material, str]] = [(m, "") for m in SMALL]
        if board is not None and self.covers(board) and len(board.piece_map()) <= READ_REACH:
            searched = [(m, "") for m in wanted_tables(board, self.pages)]
            todo = root_tables(board, self.path) + searched + todo
        self._loader.schedule(todo, self._known)

    def wait_loaded(self, timeout: float | None = None) -> bool:
        """Wait until the loader has nothing left to read; ``False`` when ``timeout`` seconds
        passed first."""
        with self._changed:
            return self._changed.wait_for(
                lambda: not self._loader.coming and not self._busy, timeout
            )

    # --- reading ---------------------------------------------------------------------------

    def _known(self, material: Material, kind: str) -> bool:
        """Whether ``material``'s table is where it belongs (a search's table in the slab)
        or known not to be readable."""
        label = file_name(material, kind)
        if label in self._missing:
            return True
        return material.key in self._slab.placed if not kind else label in self._cache

    def _held(self, material: Material, kind: str) -> bool:
        """Whether a probe finds ``material``'s table (of ``kind``) without reading: in
        memory, or known to be missing."""
        label = file_name(material, kind)
        in_slab = not kind and material.key in self._slab.placed
        return in_slab or label in self._cache or label in self._missing

    def _lookup(self, material: Material, kind: str) -> np.ndarray | None:
        found = self._slab.values(material) if not kind else None
        if found is not None:
            return found
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
                    if not isinstance(error, MissingTableError):
                        self._note(str(error))
                    elif not kind:  # a conversion table may be missing: probes do without
                        self._note_missing(error)
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
        """Keep ``values``: a search's table in the slab when it has room, else (and every
        other table) in the cache of the root's probes."""
        searched = not kind and material.pieces <= SEARCH_PIECES
        if searched and self._slab.place(material, values, self._probing):
            return
        label = file_name(material, kind)
        self._cache[label] = values
        while len(self._cache) > CACHE_TABLES:
            self._cache.popitem(last=False)

    def refresh(self) -> None:
        """Look again for the tables found missing or damaged, and read again (when next
        needed) those whose file changed since: a table generated or rebuilt while the
        engine runs is used from the next search on."""
        with self._lock:
            self._missing.clear()
            used = self._slab.in_use() | set(self._probing)
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
                if key in self._slab.placed and label == f"{key}.ktb":
                    self._slab.drop(key)
                self._cache.pop(label, None)

    def values(self, material: Material, kind: str = "") -> np.ndarray:
        """A table's values, read once (see :meth:`kradan.egtb.Tablebase.values` for the
        errors). A 4-piece table is a view of the slab: valid until its page goes to another
        table, which happens only to a table no search and no root probe is using."""
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
        if found is None:  # a place could not be had: read it once more, for this probe
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
            if not load:
                needed = root_tables(board, self.path)
                with self._lock:
                    ready = all(self._held(m, kind) for m, kind in needed)
                if not ready:  # not worth a probe that will stop at a missing table
                    self._loader.schedule(needed, self._known)
                    return None
            with self._probe(board, load):
                return self.probe(board)
        except _NotLoaded:
            self._loader.schedule(root_tables(board, self.path), self._known)
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
    "root_tables",
    "shared_tables",
    "signature",
    "table_answer",
    "table_line",
    "table_moves",
    "wanted_tables",
]
