"""Endgame tables for Makruk: every pawnless ending of up to 4 pieces (kings included), with
the distance to mate and what the count makes of it.

>>> import kradan, kradan.egtb
>>> result = kradan.egtb.probe(kradan.Board("k7/8/1K6/8/8/8/8/7R w - - 0 1"))
>>> result.wdl, result.dtm, result.best_move.uci()
(1, 1, 'h1h8')

The 3-piece tables ship with kradan; ``kradan egtb generate --pieces 4`` makes the 4-piece ones
(docs/egtb.md). Importing this package loads no compiled code; building a table does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..errors import CorruptTableError, MissingTableError, TablebaseError
from .directory import default_directory

#: names loaded on first use: the command line's help names the table directory without
#: loading the boards
_LAZY: dict[str, str | None] = {
    "CountVerdict": ".count",
    "Material": ".material",
    "all_materials": ".material",
    "build_order": ".material",
    "parse_key": ".material",
    "ProbeResult": ".probing",
    "Tablebase": ".probing",
    "probe": ".probing",
}

if TYPE_CHECKING:
    from .count import CountVerdict
    from .material import Material, all_materials, build_order, parse_key
    from .probing import ProbeResult, Tablebase, probe

__getattr__, __dir__ = lazy_names(__name__, _LAZY)

__all__ = [
    "CorruptTableError",
    "CountVerdict",
    "Material",
    "MissingTableError",
    "ProbeResult",
    "Tablebase",
    "TablebaseError",
    "all_materials",
    "build_order",
    "default_directory",
    "parse_key",
    "probe",
]
