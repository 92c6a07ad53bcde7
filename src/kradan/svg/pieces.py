"""kradan's own drawings of the pieces, as SVG fragments for ``<defs>``.

Each drawing is made on a 100 x 100 grid (the piece stands on y = 88) and scaled to the square
when it is defined. The shapes follow the traditional Thai set: the khun a tall tiered spire,
the khon a smaller spire, the met a short cone with a knob, the ma a horse's head, the ruea a
boat, the bia a cowrie shell, and a promoted bia the cowrie turned over (bia ngai). White
pieces are ivory with dark lines, Black pieces dark with light lines. Alquerque's pieces are
stones; a king stone carries a crown.
"""

from __future__ import annotations

from ..pieces import FERZ, KHON, KING, KNIGHT, MET, PAWN, PIECE_NAMES, ROOK, PieceType

#: fill, outline and detail colours of each side
WHITE_STYLE = ("#f8f3e6", "#1e1a16", "#1e1a16")
BLACK_STYLE = ("#2b2622", "#0d0b0a", "#e9dfc9")

# the plinth most pieces stand on
_PLINTH = '<path d="M22 88 L78 88 L74 79 L26 79 Z" fill="{fill}"/>'

_KHUN = (
    _PLINTH + '<path d="M27 79 C29 64 36 58 38 50 L62 50 C64 58 71 64 73 79 Z" fill="{fill}"/>'
    '<path d="M37 50 L40 40 L60 40 L63 50 Z" fill="{fill}"/>'
    '<path d="M41 40 L44 31 L56 31 L59 40 Z" fill="{fill}"/>'
    '<path d="M45 31 L50 10 L55 31 Z" fill="{fill}"/>'
    '<circle cx="50" cy="9" r="3.5" fill="{fill}"/>'
    '<path d="M33 68 L67 68" fill="none" stroke="{detail}"/>'
)
_KHON = (
    _PLINTH + '<path d="M29 79 C31 64 39 56 42 44 L58 44 C61 56 69 64 71 79 Z" fill="{fill}"/>'
    '<path d="M40 44 L44 38 L56 38 L60 44 Z" fill="{fill}"/>'
    '<path d="M44 38 L50 20 L56 38 Z" fill="{fill}"/>'
    '<path d="M35 68 L65 68 M38 60 L62 60" fill="none" stroke="{detail}"/>'
)
_MET = (
    _PLINTH + '<path d="M32 79 L41 50 L59 50 L68 79 Z" fill="{fill}"/>'
    '<path d="M38 50 L62 50 L58 44 L42 44 Z" fill="{fill}"/>'
    '<circle cx="50" cy="36" r="8" fill="{fill}"/>'
    '<path d="M37 68 L63 68" fill="none" stroke="{detail}"/>'
)
_MA = (
    _PLINTH + '<path d="M67 79 L33 79 C33 67 39 61 46 55 C39 55 31 57 25 55 C20 51 21 45 27 41 '
    'C34 35 40 27 47 21 L49 12 L56 20 C69 24 75 40 73 56 C71 66 67 71 67 79 Z" fill="{fill}"/>'
    '<circle cx="43" cy="32" r="2.5" fill="{detail}" stroke="none"/>'
    '<path d="M58 24 C65 34 67 46 64 60" fill="none" stroke="{detail}"/>'
    '<path d="M28 49 L32 48" fill="none" stroke="{detail}"/>'
)
_RUEA = (
    '<path d="M12 54 C17 62 22 66 29 68 L71 68 C78 66 83 62 88 54 '
    'C86 70 78 86 64 88 L36 88 C22 86 14 70 12 54 Z" fill="{fill}"/>'
    '<path d="M34 68 L36 50 L64 50 L66 68 Z" fill="{fill}"/>'
    '<path d="M28 52 L50 34 L72 52 Z" fill="{fill}"/>'
    '<path d="M24 77 L76 77" fill="none" stroke="{detail}"/>'
    '<path d="M50 56 L50 68" fill="none" stroke="{detail}"/>'
)
_BIA = (
    _PLINTH + '<path d="M27 79 C27 50 73 50 73 79 Z" fill="{fill}"/>'
    '<path d="M50 60 L50 77 M45 64 L48 64 M45 70 L48 70 M52 64 L55 64 M52 70 L55 70" '
    'fill="none" stroke="{detail}"/>'
)
# the cowrie turned over: its toothed opening faces up
_BIA_NGAI = (
    _PLINTH + '<path d="M25 56 L75 56 C75 82 25 82 25 56 Z" fill="{fill}"/>'
    '<ellipse cx="50" cy="56" rx="25" ry="7" fill="{fill}"/>'
    '<path d="M33 56 L67 56 M38 52 L38 60 M46 52 L46 60 M54 52 L54 60 M62 52 L62 60" '
    'fill="none" stroke="{detail}"/>'
)

_DRAWINGS: dict[PieceType, str] = {
    KING: _KHUN,
    KHON: _KHON,
    MET: _MET,
    FERZ: _MET,  # Sittuyin's sit-ke moves and stands like the met
    KNIGHT: _MA,
    ROOK: _RUEA,
    PAWN: _BIA,
}

_TITLES = {
    KING: "khun (king)",
    KHON: "khon",
    MET: "met",
    FERZ: "sit-ke (general)",
    KNIGHT: "ma (horse)",
    ROOK: "ruea (boat)",
    PAWN: "bia (pawn)",
}

#: the order in which piece kinds are defined and listed in a hand
ORDER = (KING, MET, FERZ, KHON, KNIGHT, ROOK, PAWN)


def piece_id(piece_type: PieceType, color: bool, promoted: bool = False) -> str:
    """The ``<defs>`` id of a chess-family piece: ``'white-king'``, ``'black-promoted-met'``."""
    side = "white" if color else "black"
    middle = "promoted-" if promoted and piece_type in (MET, FERZ) else ""
    return f"{side}-{middle}{PIECE_NAMES[piece_type]}"


def _style(color: bool) -> tuple[str, str, str]:
    return WHITE_STYLE if color else BLACK_STYLE


def piece_definition(piece_type: PieceType, color: bool, promoted: bool, scale: float) -> str:
    """The ``<g id=...>`` element of a chess-family piece, drawn ``100 * scale`` units wide."""
    fill, stroke, detail = _style(color)
    promoted = promoted and piece_type in (MET, FERZ)
    body = (_BIA_NGAI if promoted else _DRAWINGS[piece_type]).format(fill=fill, detail=detail)
    title = ("promoted bia (bia ngai)" if promoted else _TITLES[piece_type]) + (
        ", White" if color else ", Black"
    )
    return (
        f'<g id="{piece_id(piece_type, color, promoted)}"><title>{title}</title>'
        f'<g transform="scale({scale:g})" stroke="{stroke}" stroke-width="3" '
        f'stroke-linejoin="round" stroke-linecap="round">{body}</g></g>'
    )


def stone_id(king: bool, color: bool) -> str:
    """The ``<defs>`` id of an Alquerque piece: ``'white-man'``, ``'black-king'``, ..."""
    return f"{'white' if color else 'black'}-{'king' if king else 'man'}"


def stone_definition(king: bool, color: bool, scale: float) -> str:
    """The ``<g id=...>`` element of an Alquerque stone, ``100 * scale`` units wide."""
    fill, stroke, detail = _style(color)
    body = (
        f'<circle cx="50" cy="50" r="44" fill="{fill}"/>'
        f'<circle cx="50" cy="50" r="32" fill="none" stroke="{detail}" stroke-width="3"/>'
    )
    if king:
        body += (
            f'<path d="M30 62 L30 38 L40 50 L50 32 L60 50 L70 38 L70 62 Z" fill="{detail}" '
            'stroke="none"/>'
        )
    title = ("king" if king else "man") + (", White" if color else ", Black")
    return (
        f'<g id="{stone_id(king, color)}"><title>{title}</title>'
        f'<g transform="scale({scale:g})" stroke="{stroke}" stroke-width="4">{body}</g></g>'
    )


__all__ = ["ORDER", "piece_definition", "piece_id", "stone_definition", "stone_id"]
