"""Material keys such as ``"KRvKN"``: which tables exist, which side a table stores as White,
and which smaller table a capture leads to.

A table stores the stronger side as White: the side with more pieces, or with as many, the one
whose strongest piece comes first in the order rook, khon, knight, met (the order of the counting
limits, docs/rules.md 2.6.2). A position whose stronger side is Black is probed colour-flipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations_with_replacement

from ..pieces import KHON, KNIGHT, MET, ROOK, PieceType

#: the pieces besides the kings, strongest first
ORDER = "RSNM"
LETTER_TO_TYPE: dict[str, PieceType] = {"R": ROOK, "S": KHON, "N": KNIGHT, "M": MET}
TYPE_TO_LETTER: dict[PieceType, str] = {t: letter for letter, t in LETTER_TO_TYPE.items()}
#: the most pieces (kings included) a table may have
MAX_PIECES = 5


def _sorted(letters: str) -> str:
    return "".join(sorted(letters, key=ORDER.index))


def _strength(letters: str) -> tuple[int, tuple[int, ...]]:
    """Larger is stronger: more pieces, then stronger pieces first."""
    return len(letters), tuple(-ORDER.index(c) for c in letters)


@dataclass(frozen=True)
class Material:
    """The pieces of one table, kings left out: ``white`` is the stronger side."""

    white: str
    black: str

    @property
    def key(self) -> str:
        return f"K{self.white}vK{self.black}"

    @property
    def pieces(self) -> int:
        """Pieces on the board, kings included."""
        return 2 + len(self.white) + len(self.black)

    def letters(self) -> str:
        """The pieces in table slot order (after the kings): White's, then Black's."""
        return self.white + self.black

    def __str__(self) -> str:
        return self.key


def canonical(white: str, black: str) -> tuple[Material, bool]:
    """The table for these pieces (letters in any order) and whether the position must be
    colour-flipped to read it (``True`` when Black is the stronger side)."""
    white, black = _sorted(white.upper()), _sorted(black.upper())
    if _strength(black) > _strength(white):
        return Material(black, white), True
    return Material(white, black), False


def parse_key(key: str) -> Material:
    """``"KRvKN"`` -> its :class:`Material` (case-insensitive; the stronger side may come second).

    :raises ValueError: when ``key`` names no pawnless table of kradan's pieces.
    """
    text = key.strip().upper()
    parts = text.split("V")
    if len(parts) != 2 or not all(p.startswith("K") for p in parts):
        raise ValueError(f"{key!r} is not a material key such as 'KRvKN'")
    white, black = parts[0][1:], parts[1][1:]
    if any(c not in ORDER for c in white + black):
        raise ValueError(f"{key!r}: pieces are R (rook), S (khon), N (knight) and M (met)")
    material, _ = canonical(white, black)
    if material.pieces > MAX_PIECES:
        raise ValueError(f"{key!r}: tables have at most {MAX_PIECES} pieces")
    return material


def all_materials(pieces: int) -> list[Material]:
    """Every table with exactly ``pieces`` pieces (kings included), sorted by key."""
    found: dict[str, Material] = {}
    extra = pieces - 2
    for letters in combinations_with_replacement(ORDER, extra):
        for split in range(extra + 1):
            material, _ = canonical("".join(letters[:split]), "".join(letters[split:]))
            if material.white:
                found[material.key] = material
    return sorted(found.values(), key=lambda m: (m.pieces, m.key))


def build_order(pieces: int) -> list[Material]:
    """Every table of 3 to ``pieces`` pieces, each after the tables its captures lead to."""
    return [m for count in range(3, pieces + 1) for m in all_materials(count)]


def capture_child(material: Material, slot: int) -> tuple[Material | None, bool, list[int]]:
    """The table a capture of the piece in ``slot`` (2.. = :meth:`Material.letters` order after
    the kings) leads to: the material (``None`` for bare kings), whether it is colour-flipped,
    and for each slot of the child the slot of this table it takes its square from."""
    letters = material.letters()
    nw = len(material.white)
    rest = [(c, s + 2, s < nw) for s, c in enumerate(letters) if s + 2 != slot]
    white = [(c, s) for c, s, is_white in rest if is_white]
    black = [(c, s) for c, s, is_white in rest if not is_white]
    if not white and not black:
        return None, False, []
    child, flipped = canonical("".join(c for c, _ in white), "".join(c for c, _ in black))
    strong, weak = (black, white) if flipped else (white, black)
    kings = [1, 0] if flipped else [0, 1]
    return child, flipped, kings + _in_order(strong, child.white) + _in_order(weak, child.black)


def _in_order(pieces: list[tuple[str, int]], letters: str) -> list[int]:
    """The slots of ``pieces`` arranged as ``letters`` (sorted) lists them."""
    left = list(pieces)
    slots = []
    for c in letters:
        k = next(i for i, (letter, _) in enumerate(left) if letter == c)
        slots.append(left.pop(k)[1])
    return slots
