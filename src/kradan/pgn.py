"""PGN writing for finished games (the reader, variations and comments come with the PGN issue).

>>> board = Board()
>>> _ = board.push_san("e4"); _ = board.push_san("d5")
>>> print(game_text(board, {"White": "A", "Black": "B"}))  # doctest: +ELLIPSIS
[Event "?"]
...
[Variant "makruk"]
<BLANKLINE>
1. e4 d5 *
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .board import Board
from .counting import CountAction

if TYPE_CHECKING:
    from .games import AnyBoard

SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def game_text(board: AnyBoard, headers: Mapping[str, str] | None = None) -> str:
    """The game that led to ``board`` as PGN, with SAN moves; ``[Variant]`` always, and
    ``[FEN]``/``[SetUp]`` when the game did not start from the variant's start position.
    Counting declarations appear as comments ``{declare count}`` / ``{stop count}``. Alquerque
    games are written the same way, with their own move notation and position text."""
    root = board.copy()
    entries: list[Any] = []
    while root.move_stack:
        entries.append(root.pop())
    entries.reverse()
    tags = {"Event": "?", "Site": "?", "Date": dt.date.today().strftime("%Y.%m.%d"), "Round": "?",
            "White": "?", "Black": "?", "Result": board.result(claim_draw=True)}  # fmt: skip
    tags.update(headers or {})
    tags["Variant"] = board.variant.name
    if root.fen() != type(root)(variant=board.variant).fen():  # type: ignore[arg-type]
        tags["SetUp"] = "1"
        tags["FEN"] = root.fen()
    lines = [f'[{key} "{_escape(tags[key])}"]' for key in SEVEN_TAGS]
    lines += [f'[{key} "{_escape(value)}"]' for key, value in tags.items() if key not in SEVEN_TAGS]
    tokens: list[str] = []
    replay = root.copy()
    for entry in entries:
        if isinstance(entry, CountAction) and isinstance(replay, Board):
            tokens.append(f"{{{entry.kind} count}}")
            (replay.declare_count if entry.kind == "declare" else replay.stop_count)()
            continue
        if replay.turn or not tokens:
            number = replay.fullmove_number
            tokens.append(f"{number}." if replay.turn else f"{number}...")
        tokens.append(replay.san(entry))
        replay.push(entry)
    tokens.append(tags["Result"])
    body, line = [], ""
    for token in tokens:
        if len(line) + len(token) + 1 > 80:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    body.append(line)
    return "\n".join(lines) + "\n\n" + "\n".join(body) + "\n"
