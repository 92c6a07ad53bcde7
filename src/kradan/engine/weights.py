"""The evaluation's weights: one set per game, read from a data file (``eval_weights.json``
in ``kradan/engine`` unless the user names another).

The static evaluation (``evaluate.py``) is, apart from its endgame knowledge, a sum of
weights times counts: material, piece-square tables, mobility, rooks on open files, king
shelter, passed pawns, pawns that attack pieces, and the tempo. Every term but the tempo has
two weights, one for the middlegame and one for the endgame; the evaluation blends the two
sums by the pieces left on the board (the *phase*, 64 at the start .. 0 with pawns and kings
alone). Its weights live in a data file so that a fit to game results (the Texel method,
``kradan tune``) can replace them without touching code, and two engines with different
weights can play each other. Each set is a flat ``int64`` array laid out by the ``P_*``
offsets below (the middlegame's; ``P_ENDGAME`` further on, the endgame's), passed to the
search at run time (not compiled in).

Piece-square tables are for White, left-right symmetric, so each holds 32 values: rank by
rank, files a-d (file ``f`` reads ``min(f, 7 - f)``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np

from .._core.layout import GATES_NONE, PROMOTION_SITTUYIN, V_GATES, V_PROMOTION

WEIGHTS_FILE = Path(__file__).with_name("eval_weights.json")

#: the weight sets, in row order: Makruk (and ASEAN), Ouk (Cambodian, Kar Ouk), Sittuyin
SETS = ("makruk", "ouk", "sittuyin")
SET_MAKRUK, SET_OUK, SET_SITTUYIN = 0, 1, 2

PIECES = ("pawn", "knight", "khon", "met", "rook")
#: the tables: the five pieces by kernel type, then the king in the middlegame and the endgame
TABLES = (*PIECES, "king", "king_endgame")
MOBILE = ("knight", "khon", "met", "rook")  # pieces whose mobility counts, in that order

#: pieces a pawn's attack threatens, in that order
THREATENED = ("knight", "khon", "met", "rook")

P_MATERIAL = 0
P_PST = P_MATERIAL + len(PIECES)
P_MOBILITY = P_PST + 32 * len(TABLES)
P_OPEN_FILE = P_MOBILITY + len(MOBILE)
P_SHELTER = P_OPEN_FILE + 1
P_PASSED = P_SHELTER + 1  # a passed pawn, by its rank counted from its own side (8 values)
P_PAWN_THREAT = P_PASSED + 8  # a piece attacked by a pawn, by the piece (THREATENED)
PHASE_TERMS = P_PAWN_THREAT + len(THREATENED)  # the weights of one phase
P_ENDGAME = PHASE_TERMS  # the endgame's weights: the middlegame's layout, this far on
P_TEMPO = 2 * PHASE_TERMS  # one weight, in every phase
N_PARAMS = P_TEMPO + 1
#: the phase: 64 with every piece of the start on the board (or in hand) .. 0 with none
PHASE_MAX = 64


def eval_set(info: np.ndarray) -> int:
    """The weight set of a position's game, read from its variant parameters."""
    if info[V_PROMOTION] == PROMOTION_SITTUYIN:
        return SET_SITTUYIN
    if info[V_GATES] != GATES_NONE:
        return SET_OUK
    return SET_MAKRUK


def mirror(sq: int) -> int:
    """The index of White's square ``sq`` in a 32-value symmetric table."""
    file = sq & 7
    return (sq >> 3) * 4 + min(file, 7 - file)


#: :func:`mirror` of every square, for the kernels
MIRROR = np.array([mirror(sq) for sq in range(64)], dtype=np.int64)


def _phase_to_array(weights: dict[str, Any], row: np.ndarray, base: int) -> None:
    """One phase's weights (the data file's form) into ``row`` from offset ``base``."""
    for i, piece in enumerate(PIECES):
        row[base + P_MATERIAL + i] = weights["material"][piece]
    for t, table in enumerate(TABLES):
        ranks = weights["pst"][table]
        if len(ranks) != 8 or any(len(rank) != 4 for rank in ranks):
            raise ValueError(f"the {table} table needs 8 ranks of 4 values (files a-d)")
        start = base + P_PST + 32 * t
        row[start : start + 32] = np.array(ranks, dtype=np.int64).ravel()
    for i, piece in enumerate(MOBILE):
        row[base + P_MOBILITY + i] = weights["mobility"][piece]
    row[base + P_OPEN_FILE] = weights["rook_open_file"]
    row[base + P_SHELTER] = weights["king_shelter"]
    passed = weights["passed_pawn"]
    if len(passed) != 8:
        raise ValueError("passed_pawn needs 8 values (ranks 1-8 from the pawn's own side)")
    row[base + P_PASSED : base + P_PASSED + 8] = np.array(passed, dtype=np.int64)
    for i, piece in enumerate(THREATENED):
        row[base + P_PAWN_THREAT + i] = weights["pawn_threat"][piece]


def to_array(weights: dict[str, Any]) -> np.ndarray:
    """One game's weights, as the data file writes them, as a flat array. Its ``endgame``
    part holds the endgame's weights; without it the endgame weighs as the middlegame."""
    row = np.zeros(N_PARAMS, dtype=np.int64)
    _phase_to_array(weights, row, 0)
    _phase_to_array(weights.get("endgame", weights), row, P_ENDGAME)
    row[P_TEMPO] = weights["tempo"]
    return row


def _ranks(values: list[int], start: int) -> list[list[int]]:
    """A 32-value table as 8 ranks of 4 values."""
    return [values[start + 4 * rank : start + 4 * rank + 4] for rank in range(8)]


def _phase_from_array(values: list[int], base: int) -> dict[str, Any]:
    return {
        "material": {piece: values[base + P_MATERIAL + i] for i, piece in enumerate(PIECES)},
        "pst": {table: _ranks(values, base + P_PST + 32 * t) for t, table in enumerate(TABLES)},
        "mobility": {piece: values[base + P_MOBILITY + i] for i, piece in enumerate(MOBILE)},
        "rook_open_file": values[base + P_OPEN_FILE],
        "king_shelter": values[base + P_SHELTER],
        "passed_pawn": values[base + P_PASSED : base + P_PASSED + 8],
        "pawn_threat": {
            piece: values[base + P_PAWN_THREAT + i] for i, piece in enumerate(THREATENED)
        },
    }


def from_array(row: np.ndarray) -> dict[str, Any]:
    """A flat array back into the data file's form (whole centipawns)."""
    values = [round(float(value)) for value in row]
    return {
        **_phase_from_array(values, 0),
        "tempo": values[P_TEMPO],
        "endgame": _phase_from_array(values, P_ENDGAME),
    }


def load(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Every game's weights from ``path``: an array of ``len(SETS)`` rows. A set the file
    leaves out keeps the packaged weights."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    sets = data.get("sets") if isinstance(data, dict) else None
    if not isinstance(sets, dict):
        raise ValueError('a weights file holds {"sets": {GAME: {...}}}')
    unknown = sorted(set(sets) - set(SETS))
    if unknown:
        raise ValueError(f"unknown weight sets {unknown}: the sets are {list(SETS)}")
    rows = []
    for i, name in enumerate(SETS):
        if name in sets:
            try:
                rows.append(to_array(sets[name]))
            except (KeyError, TypeError, ValueError) as error:
                raise ValueError(f"the {name} weights: {error!s}") from error
        else:
            rows.append(DEFAULT[i].copy())
    return np.stack(rows)


def _one_line(numbers: re.Match[str]) -> str:
    return "[" + ", ".join(re.findall(r"-?\d+", numbers.group(0))) + "]"


def dump(params: np.ndarray, path: Path | str, about: str) -> None:
    """Write ``params`` (one row per set) to ``path`` in the data file's form."""
    data = {"about": about, "sets": {name: from_array(params[i]) for i, name in enumerate(SETS)}}
    text = json.dumps(data, indent=1)
    # a list of numbers on one line: [\n  8,\n  22, ...] -> [8, 22, ...]
    text = re.sub(r"\[(\s+-?\d+,?)+\s+\]", _one_line, text)
    Path(path).write_text(text + "\n", encoding="utf-8")


def _packaged() -> np.ndarray:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    return np.stack([to_array(data["sets"][name]) for name in SETS])


#: the packaged weights, one row per set
DEFAULT = _packaged()
