"""The endgame tables of one engine instance (docs/egtb.md, "In the engine").

At the root the engine asks :meth:`kradan.egtb.Tablebase.probe`, which knows the count exactly,
and plays the table's move when the position is won or lost. Inside the search the compiled
kernel probes (:mod:`kradan.engine.kernels.tablebase`): before each search the tables of up to 4
pieces that captures (and promotions to met) can reach from the position are copied into one
array, the *slab*. The 3-piece tables take 1 MiB together; each 4-piece table 16 MiB, and at
most :data:`PAGES` of them are held, so the tables add at most 1 + 16 x PAGES MiB to the
engine's memory besides ``Hash`` (and the root probe's own cache, :data:`kradan.egtb.tables.
CACHE_TABLES` tables at most).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from functools import cache
from itertools import product
from pathlib import Path
from typing import Any

import numpy as np

from ..board import Board
from ..egtb.index import table_size
from ..egtb.material import Material, canonical
from ..egtb.position import check_rules, locate
from ..egtb.probing import ProbeResult, Tablebase
from ..errors import MissingTableError, TablebaseError
from ..move import Move
from ..pieces import FERZ, KHON, KNIGHT, MET, PAWN, ROOK, WHITE
from .kernels.tablebase import SIGNATURES

#: 4-piece tables held for the search at once
PAGES = 6
#: the largest tables the search probes (5-piece tables take 1 GiB each)
SEARCH_PIECES = 4
#: positions with more pieces than this get no tables in their search (none is within reach)
REACH = 8
#: a 4-piece table is read (about 0.1 s) only for a search of at most this many pieces, two
#: captures from it; farther off the search seldom gets there, and it probes only what is read
READ_REACH = 6
_KINDS = (ROOK, KHON, KNIGHT, MET)
_LETTERS = "RSNM"


def signature(white: str, black: str) -> int:
    """The kernel's material signature (:func:`kradan.engine.kernels.tablebase.signature`)."""
    code = 0
    for letters in (white, black):
        for letter in _LETTERS:
            code = code * 4 + min(letters.count(letter), 3)
    return code


def reachable(board: Board) -> list[Material]:
    """The tables of 3 to :data:`SEARCH_PIECES` pieces that captures and promotions can reach
    from ``board``, those with the most pieces first."""
    sides = []
    for color in (WHITE, not WHITE):
        kinds = [p.piece_type for p in board.piece_map().values() if p.color == color]
        counts = [kinds.count(kind) for kind in _KINDS]
        # a pawn may become a met; Sittuyin's sit-ke (the ferz) is one
        counts[3] += kinds.count(PAWN) + kinds.count(FERZ)
        sides.append(counts)
    found: dict[str, Material] = {}
    spare = SEARCH_PIECES - 2
    ranges = [range(min(count, spare) + 1) for count in sides[0] + sides[1]]
    for chosen in product(*ranges):
        if not 0 < sum(chosen) <= spare:
            continue
        white = "".join(letter * n for letter, n in zip(_LETTERS, chosen[:4], strict=True))
        black = "".join(letter * n for letter, n in zip(_LETTERS, chosen[4:], strict=True))
        material, _ = canonical(white, black)
        found[material.key] = material
    return sorted(found.values(), key=lambda m: (-m.pieces, m.key))


class EngineTables(Tablebase):
    """The tables of ``directory`` (see :class:`kradan.egtb.Tablebase`) as the engine uses them:
    :meth:`root` for the root's answer and :meth:`prepare` for the search's slab."""

    def __init__(self, directory: str | Path | None = None, pages: int = PAGES) -> None:
        super().__init__(directory)
        self.pages = pages
        self.slab = np.zeros(0, dtype=np.uint8)
        self.slots = np.full(SIGNATURES, -1, dtype=np.int64)
        #: table key -> its offset in the slab, the least recently used first
        self._placed: OrderedDict[str, int] = OrderedDict()
        #: keys found missing, not looked for again
        self._missing: set[str] = set()
        #: what went wrong with a table file, for the front end to report once
        self.problems: list[str] = []
        self._told = 0
        #: how long the last 4-piece table took to read into the slab (a guess until then)
        self.read_seconds = 0.1

    def values(self, material: Material, kind: str = "") -> np.ndarray:
        """A table's values: from the slab when the search holds it, else as the base class."""
        offset = self._placed.get(material.key) if not kind else None
        if offset is not None:
            return self.slab[offset : offset + table_size(material.pieces)]
        return super().values(material, kind)

    def covers(self, board: Board) -> bool:
        """Whether the rules of ``board`` are those the tables were built for."""
        try:
            check_rules(board)
        except TablebaseError:
            return False
        return True

    def root(self, board: Board) -> ProbeResult | None:
        """The tables' answer for ``board``, or ``None`` when they have none (more pieces, pawns,
        other rules, a table missing or damaged)."""
        if not self.covers(board):
            return None
        pieces = len(board.piece_map())
        if pieces > 5 or any(p.piece_type == PAWN for p in board.piece_map().values()):
            return None
        try:
            material = locate(board).material
            if pieces > SEARCH_PIECES and material and not self.path(material).exists():
                return None  # 5-piece tables are made only on request: no news
            return self.probe(board)
        except MissingTableError as error:
            self._note_missing(error)
            return None
        except TablebaseError as error:
            self._note(str(error))
            return None

    def prepare(self, board: Board, deadline: float | None = None) -> int:
        """Load the tables the search of ``board`` can reach into the slab; returns the most
        pieces they have (0: no probes in this search). A 4-piece table not yet in the slab is
        read only for a position of at most :data:`READ_REACH` pieces, and when that can end by
        ``deadline`` (a :func:`time.perf_counter` time, judged by the last read; ``None``:
        always): the search goes without it, and a later one, with more time, reads it."""
        pieces = board.piece_map()
        if len(pieces) > REACH or not self.covers(board):
            return 0
        wanted = [m for m in reachable(board) if m.key not in self._missing]
        if sum(m.pieces == SEARCH_PIECES for m in wanted) > self.pages:
            big = [m for m in wanted if m.pieces == SEARCH_PIECES][: self.pages]
            wanted = big + [m for m in wanted if m.pieces < SEARCH_PIECES]
        most = 0
        for material in wanted:
            unread = material.pieces == SEARCH_PIECES and material.key not in self._placed
            if unread and (len(pieces) > READ_REACH or self._too_late(deadline)):
                continue
            began = time.perf_counter()
            if self._place(material):
                most = max(most, material.pieces)
                if unread:
                    self.read_seconds = time.perf_counter() - began
        return most

    def _too_late(self, deadline: float | None) -> bool:
        """Whether a table read (as long as the last) would end after ``deadline``."""
        return deadline is not None and time.perf_counter() + self.read_seconds > deadline

    def _place(self, material: Material) -> bool:
        """Put ``material``'s table in the slab (evicting the least recently used 4-piece table
        when all pages are taken); ``False`` when it cannot be read."""
        if material.key in self._placed:
            self._placed.move_to_end(material.key)
            return True
        try:
            values = self.load(material)  # not through the cache: the slab holds it
        except MissingTableError as error:
            self._missing.add(material.key)
            self._note_missing(error)
            return False
        except TablebaseError as error:
            self._missing.add(material.key)
            self._note(str(error))
            return False
        offset = self._free_offset(material.pieces)
        self.slab[offset : offset + values.size] = values
        self._placed[material.key] = offset
        for white, black, flipped in ((material.white, material.black, 0),
                                      (material.black, material.white, 1)):  # fmt: skip
            if white == black and flipped:
                continue
            self.slots[signature(white, black)] = offset * 2 + flipped
        return True

    def _free_offset(self, pieces: int) -> int:
        """Where a new table of ``pieces`` pieces goes: 3-piece tables share the first MiB,
        each 4-piece table has a page of its own."""
        small, big = table_size(3), table_size(SEARCH_PIECES)
        if pieces < SEARCH_PIECES:
            used = {offset for key, offset in self._placed.items() if offset < 4 * small}
            offset = next(k * small for k in range(4) if k * small not in used)
            self._grow(4 * small)
            return offset
        taken = {offset for offset in self._placed.values() if offset >= 4 * small}
        for page in range(self.pages):
            offset = 4 * small + page * big
            if offset not in taken:
                self._grow(offset + big)
                return offset
        victim = next(key for key, offset in self._placed.items() if offset >= 4 * small)
        offset = self._placed.pop(victim)
        self.slots[self.slots // 2 == offset] = -1
        return offset

    def _grow(self, size: int) -> None:
        if self.slab.size < size:
            grown = np.zeros(size, dtype=np.uint8)
            grown[: self.slab.size] = self.slab
            self.slab = grown

    def news(self) -> list[str]:
        """The problems not yet returned by an earlier call (a front end says each once)."""
        fresh = self.problems[self._told :]
        self._told = len(self.problems)
        return fresh

    def _note_missing(self, error: MissingTableError) -> None:
        """Say once that tables are missing (the first one named), not once per table: a
        directory without the 4-piece set lacks 20 of them."""
        if not any(p.startswith("no endgame table") for p in self.problems):
            self._note(f"{error} (the search goes on without the missing tables)")

    def _note(self, problem: str) -> None:
        if problem not in self.problems:
            self.problems.append(problem)


def table_line(tables: EngineTables, board: Board, found: ProbeResult, plies: int) -> list[Move]:
    """The table's best line from ``board``: ``found``'s move, then each side's best, up to
    ``plies`` moves (shorter when a probe fails or the game ends)."""
    line: list[Move] = []
    work = board.copy(stack=False)
    result: ProbeResult | None = found
    while result is not None and result.best_move is not None and len(line) < plies:
        line.append(result.best_move)
        work.push(result.best_move)
        if work.is_game_over():
            break
        result = tables.root(work)
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


@cache
def default_tables() -> EngineTables:
    """One shared instance of the default tables (for the command line's analysis and hints)."""
    return EngineTables(None)


def table_answer(board: Any) -> ProbeResult | None:
    """The default tables' answer for ``board`` (the user's data directory, then the 3-piece
    tables kradan ships), or ``None``: another game, more pieces or pawns, a table missing."""
    return default_tables().root(board)


__all__ = [
    "PAGES",
    "READ_REACH",
    "EngineTables",
    "default_tables",
    "reachable",
    "signature",
    "table_answer",
    "table_line",
    "table_moves",
]
