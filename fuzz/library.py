"""The library's targets: positions (FEN, Alquerque's text), moves (UCI, SAN, Thai SAN), PGN
and rule options, each called in this process. A typed error
(:class:`~kradan.errors.KradanError`) is the promise, so it passes; any other exception, or a
:class:`~fuzz.base.Crash`, is a finding."""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache
from typing import Any

from . import corpus
from .base import Crash, Target, encoded, grammar, text_of

CHESS_GAMES = corpus.CHESS_GAMES
ALQUERQUE_GAMES = ("alquerque", "alquerque-bell")


# --- positions ---------------------------------------------------------------------------------


def _exercise_board(board: Any, game: str) -> None:
    """What anyone does with a board just read: write it, list its moves, play one and take it
    back, ask for the outcome; its own text must read back to the same position."""
    from kradan.games import new_board

    fen = board.fen()
    moves = list(board.legal_moves)
    board.outcome()
    if moves:
        board.push(moves[0])
        board.fen()
        board.pop()
    again = new_board(game, fen).fen()
    if again != fen:
        raise Crash(f"{game}: FEN {fen!r} reads back as {again!r}")


def run_fen(data: bytes) -> None:
    """A FEN for each game of the chess family."""
    _exercise_text(data, CHESS_GAMES)


def run_alquerque(data: bytes) -> None:
    """An Alquerque position text, under both rule sets."""
    _exercise_text(data, ALQUERQUE_GAMES)


def _exercise_text(data: bytes, games: Iterable[str]) -> None:
    """The input as a position text of each of ``games``: refused with a typed error, or a
    board that is then exercised."""
    from kradan.games import new_board

    text = text_of(data)
    for game in games:
        try:
            board = new_board(game, text)
        except Exception as error:
            _typed_or_raise(error)
            continue
        _exercise_board(board, game)


def _typed_or_raise(error: Exception) -> None:
    from kradan.errors import KradanError

    if not isinstance(error, KradanError):
        raise error


# --- moves -------------------------------------------------------------------------------------


@cache
def _position(index: int) -> tuple[str, str]:
    chosen = corpus.positions()
    return chosen[index % len(chosen)]


def _board_and_text(data: bytes) -> tuple[Any, str]:
    """The position the first byte chooses, and the rest of the input as text."""
    from kradan.games import new_board

    game, fen = _position(data[0] if data else 0)
    return new_board(game, fen), text_of(data[1:])


def run_uci_move(data: bytes) -> None:
    """A UCI move string, parsed on one of the real positions, then played and taken back."""
    board, text = _board_and_text(data)
    move = board.parse_uci(text)
    written = board.san(move)
    board.push(move)
    board.pop()
    if board.parse_san(written) != move:
        raise Crash(f"{text!r}: its SAN {written!r} reads back as another move")


def run_san_move(data: bytes) -> None:
    """A SAN (or long algebraic) move parsed on one of the real positions; the move's own SAN
    must read back to it."""
    board, text = _board_and_text(data)
    move = board.parse_san(text)
    written = board.san(move)
    if board.parse_san(written) != move:
        raise Crash(f"{text!r}: its SAN {written!r} reads back as another move")
    board.push(move)
    board.pop()


def run_thai_move(data: bytes) -> None:
    """A Thai SAN move parsed on one of the real positions; its Thai SAN must read back."""
    board, text = _board_and_text(data)
    move = board.parse_san(text)
    if board.variant.name in CHESS_GAMES:
        written = board.san(move, "thai")
        if board.parse_san(written) != move:
            raise Crash(f"{text!r}: its Thai SAN {written!r} reads back as another move")


# --- PGN and options ---------------------------------------------------------------------------


def run_pgn(data: bytes) -> None:
    """PGN text, read leniently (the game and its errors) and strictly. A game read without
    errors writes PGN that reads back to the same moves, and writing is stable after one pass
    (the first may add what reading supplied, such as ``[Result "*"]``)."""
    from kradan.pgn import read_game

    text = text_of(data)
    game = read_game(io.StringIO(text))
    if game is not None:
        written = str(game)
        if not game.errors:
            again = read_game(io.StringIO(written))
            assert again is not None
            if again.mainline_moves() != game.mainline_moves():
                raise Crash(f"PGN written as {written!r} reads back with other moves")
            second = str(again)
            third = read_game(io.StringIO(second))
            if third is None or str(third) != second:
                raise Crash(f"PGN written as {second!r} reads back otherwise")
    try:
        read_game(io.StringIO(text), strict=True)
    except Exception as error:
        _typed_or_raise(error)


def run_options(data: bytes) -> None:
    """An options string, for every game: as keyword options to a new board, and as the
    ``[VariantOptions]`` header of a PGN game."""
    from kradan.games import games
    from kradan.pgn import parse_options, read_game

    text = text_of(data)
    for game in games():
        try:
            options = parse_options(text, game.options)
            game.new_board(None, **options)
        except Exception as error:
            _typed_or_raise(error)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
    for name in ("makruk", "alquerque"):
        pgn = f'[Variant "{name}"]\n[VariantOptions "{escaped}"]\n\n*\n'
        read_game(io.StringIO(pgn))
        try:
            read_game(io.StringIO(pgn), strict=True)
        except Exception as error:
            _typed_or_raise(error)


def library_targets() -> list[Target]:
    """The targets that call the library in this process."""
    return [
        Target("fen", run_fen, lambda: encoded(corpus.fen_seeds()), grammar("fen")),
        Target(
            "alquerque",
            run_alquerque,
            lambda: encoded(corpus.alquerque_seeds()),
            grammar("alquerque"),
        ),
        Target("san", run_san_move, lambda: corpus.move_seeds("san"), grammar("san")),
        Target("uci-move", run_uci_move, lambda: corpus.move_seeds("uci"), grammar("uci")),
        Target("thai-san", run_thai_move, lambda: corpus.move_seeds("thai"), grammar("thai")),
        Target("pgn", run_pgn, lambda: encoded(corpus.pgn_seeds()), grammar("pgn")),
        Target("options", run_options, lambda: encoded(corpus.options_seeds()), grammar("options")),
    ]
