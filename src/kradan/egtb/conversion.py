"""Conversion tables: what makes the count's verdict exact with pieces on both sides.

With a piece on each side, board's honour runs, and a capture that leaves a lone king starts
pieces' honour afresh (docs/rules.md 2.6.2, rule 3): count 2N with the lone king to move, draw at
ply 2L + 1, L from the capturer's material. The position after such a capture is won within its
new count exactly when the lone-king table's distance to mate fits those plies (no capture can
restart that count again). So a side wins within a running count exactly when it can force,
before the count runs out, a *success*: a mate, or a capture into a lone-king position it wins
within the fresh count.

A conversion table holds, per position, the distance in plies to the first success with best
play (odd: the side to move forces its own; even: the opponent forces one; 254: neither can).
It is built by the same solver, with captures scored as successes (mate at once) or draws.
The fresh count's limits are the game's: Makruk's (docs/rules.md 2.6.2) in ``makruk-count`` tables,
Ouk Chatrang's, one move fewer each (docs/rules.md 3.3), in ``cambodian-count`` tables.
"""

from __future__ import annotations

import numpy as np

from ..variants import CountingRule, Variant
from .material import Material, capture_child

#: the file-name tag of the Makruk conversion tables
KIND = "makruk-count"
#: the file-name tag of the Ouk Chatrang conversion tables (Cambodian counting)
OUK_KIND = "cambodian-count"
#: every kind of conversion table, in build order
KINDS = (KIND, OUK_KIND)


def kind_for(variant: Variant) -> str | None:
    """The conversion tables that hold ``variant``'s counting (``None``: none do)."""
    rule = variant.effective_counting_rule
    if rule is CountingRule.MAKRUK:
        return KIND
    if rule is CountingRule.CAMBODIAN:
        return OUK_KIND
    return None


def pieces_limit(letters: str, kind: str = KIND) -> int:
    """The pieces'-honour limit L (moves) against a lone king, by the stronger side's pieces:
    Makruk's (docs/rules.md 2.6.2, Fairy-Stockfish's order: the smallest line that applies), or with
    ``kind`` :data:`OUK_KIND` Ouk's, one move fewer (docs/rules.md 3.3: the draw comes when the
    limit is reached)."""
    return _makruk_limit(letters) - (1 if kind == OUK_KIND else 0)


def _makruk_limit(letters: str) -> int:
    if letters.count("R") >= 2:
        return 8
    if "R" in letters:
        return 16
    if letters.count("S") >= 2:
        return 22
    if letters.count("N") >= 2:
        return 32
    if "S" in letters:
        return 44
    return 64


def fresh_count_plies(child: Material, kind: str = KIND) -> int:
    """Plies in which the stronger side of ``child`` (a lone-king table, lone king to move just
    after the capture) must mate under the pieces'-honour count the capture starts."""
    return 2 * pieces_limit(child.white, kind) + 1 - 2 * child.pieces


def two_sided(material: Material) -> bool:
    """Whether both sides have a piece besides the king (the tables that need conversion)."""
    return bool(material.white and material.black)


def success_limits(material: Material, kind: str = KIND) -> np.ndarray:
    """Per slot: the plies within which a capture of that slot must lead to mate to count as a
    success.

    :raises ValueError: for a table that is not two-sided, or where a capture leaves pieces on
        both sides (5 pieces: the count then runs on, which needs the smaller conversion table;
        not built yet).
    """
    if not two_sided(material):
        raise ValueError(f"{material.key} has a lone king: it needs no conversion table")
    limits = np.full(material.pieces, -1, dtype=np.int64)
    for slot in range(2, material.pieces):
        child, _, _ = capture_child(material, slot)
        if child is not None and child.black:
            raise ValueError(f"conversion tables of {material.pieces} pieces are not built yet")
        if child is not None:
            limits[slot] = fresh_count_plies(child, kind)
    return limits
