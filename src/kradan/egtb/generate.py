"""Build tables: arrange a table's pieces and its capture tables for the compiled solver, run
it (in a thread, so that a caller can show progress), and write the files in dependency order.

The compiled kernel is imported here, on first use only: ``import kradan.egtb`` loads none.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import MissingTableError, TablebaseError
from .conversion import KINDS, success_limits, two_sided
from .material import LETTER_TO_TYPE, Material, build_order, capture_child
from .storage import SUFFIX, file_name, read_table, write_table


@dataclass(frozen=True)
class Built:
    """One table written by :func:`generate`."""

    #: ``KRvKN``, or ``KRvKN.makruk-count`` for a conversion table
    label: str
    seconds: float
    file_bytes: int
    skipped: bool = False


def _arrays(material: Material) -> tuple[np.ndarray, np.ndarray]:
    letters = material.letters()
    typ = np.array([6, 6] + [LETTER_TO_TYPE[c] for c in letters], dtype=np.int64)
    col = np.array([0, 1] + [0] * len(material.white) + [1] * len(material.black), np.int64)
    return typ, col


def _children(
    material: Material, children: Mapping[str, np.ndarray]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The capture tables in the kernel's form: their values end to end, and per captured slot
    the offset and size of its table, whether it is colour-flipped, and its slot mapping.

    :raises MissingTableError: when a capture table is not in ``children``.
    """
    n = material.pieces
    parts: list[np.ndarray] = []
    offsets = np.zeros(n, dtype=np.int64)
    sizes = np.zeros(n, dtype=np.int64)
    flips = np.zeros(n, dtype=np.int64)
    perms = np.zeros((n, max(n - 1, 1)), dtype=np.int64)
    at = 0
    for slot in range(2, n):
        child, flipped, perm = capture_child(material, slot)
        if child is None:
            continue
        if child.key not in children:
            raise MissingTableError(f"{material.key} needs the table {child.key} first")
        values = np.ascontiguousarray(children[child.key], dtype=np.uint8)
        parts.append(values)
        offsets[slot], sizes[slot], flips[slot] = at, values.size, int(flipped)
        perms[slot, : len(perm)] = perm
        at += values.size
    joined = np.concatenate(parts) if parts else np.zeros(1, dtype=np.uint8)
    return joined, offsets, sizes, flips, perms


def solve(
    material: Material,
    children: Mapping[str, np.ndarray],
    on_layer: Callable[[int], None] | None = None,
    kind: str = "",
) -> np.ndarray:
    """The values of ``material``'s table; ``children`` maps the keys of the tables its
    captures lead to onto their values. ``on_layer(layer)`` is called now and then while the
    solver runs (from this thread). ``kind`` ``"makruk-count"`` builds its conversion table
    instead (:mod:`kradan.egtb.conversion`).

    :raises MissingTableError: when a capture table is not in ``children``.
    """
    from . import _kernel

    typ, col = _arrays(material)
    arranged = (*_children(material, children), _success(material, kind))
    progress = np.zeros(1, dtype=np.int64)
    result: list[np.ndarray] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            result.append(_kernel.solve(typ, col, *arranged, progress))
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    worker = threading.Thread(target=work, name=f"egtb-{material.key}", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.2)
        if on_layer is not None:
            on_layer(int(progress[0]))
    if failure:
        raise failure[0]
    return result[0]


def jobs(pieces: int) -> list[tuple[Material, str]]:
    """Every table of 3 to ``pieces`` pieces in build order, each two-sided one of up to 4
    pieces followed by its conversion tables (Makruk's and Ouk's)."""
    found: list[tuple[Material, str]] = []
    for material in build_order(pieces):
        found.append((material, ""))
        if two_sided(material) and material.pieces <= 4:
            found.extend((material, kind) for kind in KINDS)
    return found


def generate(
    pieces: int,
    directory: Path | str,
    *,
    load: Callable[[Material], np.ndarray],
    force: bool = False,
    on_progress: Callable[[int, int, str, int], None] | None = None,
) -> list[Built]:
    """Write every table of 3 to ``pieces`` pieces (and the conversion tables, see
    :func:`jobs`) into ``directory``, smaller ones first.

    A table already readable (the checksum checked) is kept unless ``force``.
    ``on_progress(done, total, label, layer)`` reports progress. Several tables at a time, on
    the local cores or a cluster: :func:`kradan.runners.tablebases.generate_on`.
    """
    directory = Path(directory)
    order = jobs(pieces)
    made: dict[str, np.ndarray] = {}
    built: list[Built] = []

    def known(material: Material) -> np.ndarray:
        return made[material.key] if material.key in made else load(material)

    for done, (material, kind) in enumerate(order):
        path = directory / file_name(material, kind)
        label = path.name.removesuffix(SUFFIX)
        if not force and path.exists():
            try:
                values = read_table(path, material, kind)
                if material.pieces < pieces and not kind:
                    made[material.key] = values
                built.append(Built(label, 0.0, path.stat().st_size, skipped=True))
                continue
            except TablebaseError:
                pass  # damaged: made again
        start = time.perf_counter()

        def report(layer: int, done: int = done, label: str = label) -> None:
            if on_progress is not None:
                on_progress(done, len(order), label, layer)

        values = solve(material, children_of(material, known), report, kind)
        seconds = time.perf_counter() - start
        size = write_table(path, material, values, kind=kind)
        if material.pieces < pieces and not kind:  # read again as capture tables
            made[material.key] = values
        built.append(Built(label, seconds, size))
        if on_progress is not None:
            on_progress(done + 1, len(order), label, -1)
    return built


def _success(material: Material, kind: str) -> np.ndarray:
    if not kind:
        return np.full(material.pieces, -1, dtype=np.int64)
    if kind not in KINDS:
        raise ValueError(f"unknown kind of table {kind!r}")
    return success_limits(material, kind)


def verify(
    material: Material, values: np.ndarray, children: Mapping[str, np.ndarray], kind: str = ""
) -> list[int]:
    """The indices whose value differs from the one its successors give (empty when the table
    is sound): every position re-derived from its moves, independently of how it was built.
    ``kind`` as for :func:`solve`.

    :raises MissingTableError: when a capture table is not in ``children``.
    """
    from . import _kernel

    typ, col = _arrays(material)
    arranged = (*_children(material, children), _success(material, kind))
    return [int(i) for i in _kernel.verify(np.ascontiguousarray(values), typ, col, *arranged)]


def children_of(
    material: Material, load: Callable[[Material], np.ndarray]
) -> dict[str, np.ndarray]:
    """The values of the tables ``material``'s captures lead to, read through ``load``."""
    children: dict[str, np.ndarray] = {}
    for slot in range(2, material.pieces):
        child, _, _ = capture_child(material, slot)
        if child is not None and child.key not in children:
            children[child.key] = load(child)
    return children


def generate_one(
    material: Material,
    directory: Path | str,
    *,
    load: Callable[[Material], np.ndarray],
    kind: str = "",
) -> np.ndarray:
    """Build ``material``'s table (of ``kind``) from its capture tables (read through ``load``,
    which may in turn build them), write it to ``directory`` and return its values."""
    values = solve(material, children_of(material, load), kind=kind)
    write_table(Path(directory) / file_name(material, kind), material, values, kind=kind)
    return values
