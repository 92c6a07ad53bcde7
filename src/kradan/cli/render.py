"""Boards as terminal text: the pictures ``kradan play`` and ``kradan show`` print. Each game's
registry entry names its drawer (its ``text`` hook); :func:`text_board` draws any board."""

from __future__ import annotations

import itertools
from typing import Any

from ..games import GameBoard, game_of
from ..move import Move
from ..pieces import KING, Piece

_RESET = "\033[0m"
_LIGHT, _DARK = "\033[48;5;180m", "\033[48;5;137m"
_WHITE_PIECE, _BLACK_PIECE = "\033[1;97m", "\033[1;30m"


def text_board(board: GameBoard, *, flipped: bool = False, colour: bool = False) -> str:
    """The terminal picture of ``board`` by its game's drawer; ``flipped`` is Black's view,
    ``colour`` adds ANSI colours."""
    drawer = game_of(board).hook("text")
    if drawer is None:
        return str(board)
    text: str = drawer(board, flipped=flipped, colour=colour)
    return text


def chess_text(board: Any, flipped: bool = False, colour: bool = False) -> str:
    """A chess-family board as text, from White's side (Black's when ``flipped``), with ANSI
    colours when ``colour``: the last move's squares marked, and a status line."""
    rows = []
    ranks = range(8) if flipped else range(7, -1, -1)
    files = range(7, -1, -1) if flipped else range(8)
    moves = [entry for entry in board.move_stack if isinstance(entry, Move)]
    last = moves[-1] if moves else None
    for rank in ranks:
        cells = []
        for file in files:
            square = rank * 8 + file
            piece = board.piece_at(square)
            text = f" {piece.symbol() if piece else '.'} "
            if colour:
                background = _LIGHT if (rank + file) % 2 else _DARK
                if last is not None and square in (last.from_square, last.to_square):
                    background = "\033[48;5;143m"
                fg = _WHITE_PIECE if piece and piece.color else _BLACK_PIECE
                text = f"{background}{fg}{text}{_RESET}"
            cells.append(text)
        rows.append(f"{rank + 1} " + "".join(cells))
    rows.append("  " + "".join(f" {'abcdefgh'[f]} " for f in files))
    outcome = board.outcome()
    if outcome is not None:  # a count that ran is over with the game: no "moves left to mate"
        status = [f"game over: {outcome.result()} ({outcome.termination.value})"]
    else:
        state = board.counting_state()
        status = [f"{'White' if board.turn else 'Black'} to move"]
        if board.is_check():
            status.append("check")
        if state is not None:
            status.append(str(state))
    rows.append("  " + "; ".join(status))
    for color, side in ((True, "White"), (False, "Black")):
        hand = board.hand(color)
        if hand:
            letters = " ".join(f"{Piece(kind, color).symbol()}x{n}" for kind, n in hand.items())
            rows.append(f"  {side} in hand: {letters}")
    return "\n".join(rows)


def alquerque_text(board: Any, flipped: bool = False, colour: bool = False) -> str:
    """The 25 points and the lines between them, White's men ``P`` and kings ``K``, Black's
    ``p`` and ``k``; ``flipped`` turns the board around (Black's view)."""
    ys = range(5) if flipped else range(4, -1, -1)
    xs = list(range(4, -1, -1) if flipped else range(5))
    rows = []
    for index, y in enumerate(ys):
        cells = []
        for x in xs:
            piece = board.piece_at(y * 5 + x)
            letter = "." if piece is None else ("k" if piece.piece_type == KING else "p")
            cells.append(letter.upper() if piece is not None and piece.color else letter)
        rows.append(f"{y + 1}  " + "---".join(cells))
        if index < 4:
            below = y - 1 if not flipped else y + 1
            low_y = min(y, below)
            links = []
            for a, b in itertools.pairwise(xs):
                links.append("/" if (min(a, b) + low_y) % 2 == 0 else "\\")
            rows.append("   " + "".join(f"| {link} " for link in links) + "|")
    rows.append("   " + "   ".join("abcde"[x] for x in xs))
    status = [f"{'White' if board.turn else 'Black'} to move"]
    liable = board.huff_liable()
    if liable:
        from ..alquerque.geometry import point_name

        status.append("may huff " + ", ".join(point_name(p) for p in liable))
    rows.append("   " + "; ".join(status))
    return "\n".join(rows)


__all__ = ["alquerque_text", "chess_text", "text_board"]
