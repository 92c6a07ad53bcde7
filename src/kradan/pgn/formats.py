"""Games in other shapes: a list of positions (FEN), a UCI move line, and PGN in the dialects of
pychess.org and cutechess.

* A position list holds the start position and the position after every move of the main line
  (counting declarations included, since the FEN shows them); reading one back finds the legal
  move (and count action) that links each position to the next.
* A UCI line is what follows ``position`` in UCI: ``startpos moves e3e4 d6d5`` or
  ``fen <FEN> moves ...``; plain move lists (``e3e4 d6d5``) are read too. UCI has no counting
  declarations, so they are not written there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import KradanError, PgnError
from ..games import AnyBoard, CountingBoard, game_of, new_board
from ..move import Move
from ..variants import PromotionRule
from .dialects import DIALECTS
from .exporter import StringExporter
from .moves import AnyMove, move_text
from .tree import Game, GameNode, apply_count_actions, position_text


def positions(game: Game) -> list[str]:
    """The start position and the position after each move of the main line."""
    board = game.board()
    texts = [position_text(board)]
    for node in game.mainline():
        board.push(node.move)
        apply_count_actions(board, node.count_actions)
        texts.append(position_text(board))
    return texts


def _linking_step(board: AnyBoard, target: str) -> tuple[AnyMove, list[str]] | None:
    """The move, and the count actions after it, that turn ``board`` into the position
    ``target``."""
    action_sets: list[list[str]] = [[]]
    if isinstance(board, CountingBoard):
        action_sets += [["declare"], ["stop"]]
    moves: list[AnyMove] = list(board.legal_moves)
    for move in moves:
        board.push(move)
        try:
            for actions in action_sets:
                candidate = board.copy() if actions else board
                try:
                    apply_count_actions(candidate, actions)
                except (KradanError, ValueError):
                    continue
                if position_text(candidate) == target:
                    return move, actions
        finally:
            board.pop()
    return None


def game_from_positions(texts: Sequence[str], variant: str, **options: Any) -> Game:
    """The game whose main line passes through ``texts`` (FENs or Alquerque position texts),
    under ``variant`` with rule ``options`` (``counting="declared"`` to find declarations).

    :raises PgnError: when a position cannot be read or no legal move leads to the next one,
        naming the position by its number (1 = the first).
    """
    if not texts:
        raise PgnError("an empty list of positions describes no game")
    try:
        board = new_board(variant, texts[0], **options)
    except KradanError as error:
        raise PgnError(f"position 1 {texts[0]!r}: {error}") from error
    game = Game()
    game.setup(board)
    node: GameNode = game
    for number, text in enumerate(texts[1:], start=2):
        try:
            wanted = position_text(new_board(variant, text, **options))
        except KradanError as error:
            raise PgnError(f"position {number} {text!r}: {error}") from error
        step = _linking_step(board, wanted)
        if step is None:
            raise PgnError(
                f"position {number} {text!r}: no legal move leads to it from position "
                f"{number - 1} {position_text(board)!r}"
            )
        move, actions = step
        board.push(move)
        apply_count_actions(board, actions)
        node = node.add_legal(move)  # it was found among the legal moves
        node.count_actions.extend(actions)
    game.headers["Result"] = board.result(claim_draw=True)
    return game


def uci_line(game: Game) -> str:
    """The main line as the arguments of UCI's ``position`` command."""
    board = game.board()
    start = game_of(board).board_with_rules(None, board.variant)
    head = (
        "startpos"
        if position_text(board) == position_text(start)
        else f"fen {position_text(board)}"
    )
    moves = [move.uci() for move in game.mainline_moves()]
    return f"{head} moves {' '.join(moves)}" if moves else head


def game_from_uci(line: str, variant: str) -> Game:
    """The game of a UCI line (``startpos moves ...``, ``fen <FEN> moves ...`` or moves alone).

    :raises PgnError: for a bad position or an illegal move, quoting it with its number.
    """
    words = line.split()
    if words[:1] == ["position"]:
        words = words[1:]
    fen = None
    if words[:1] == ["startpos"]:
        words = words[1:]
    elif words[:1] == ["fen"]:
        end = words.index("moves") if "moves" in words else len(words)
        fen, words = " ".join(words[1:end]), words[end:]
    if words[:1] == ["moves"]:
        words = words[1:]
    try:
        board = new_board(variant, fen)
    except KradanError as error:
        raise PgnError(f"bad position in UCI line {line!r}: {error}") from error
    game = Game()
    game.setup(board)
    node: GameNode = game
    for number, word in enumerate(words, start=1):
        try:
            move = board.parse_uci(word)
        except (KradanError, ValueError) as error:
            raise PgnError(f"move {number} {word!r} of UCI line: {error}") from error
        board.push(move)
        node = node.add_legal(move)  # parse_uci read it as a legal move
    game.headers["Result"] = board.result(claim_draw=True)
    return game


class _CutechessExporter(StringExporter):
    """cutechess's forms: Sittuyin promotions to a neighbouring square by their target alone
    (other games are written as kradan writes them)."""

    def move_token(self, board: AnyBoard, move: AnyMove) -> str:
        text = move_text(board, move, self.notation)
        if (
            self.notation == "san"
            and isinstance(move, Move)
            and board.variant.promotion is PromotionRule.SEPARATE_MOVE
            and move.promotion is not None
            and move.from_square != move.to_square
        ):
            text = text[2:]  # d5c6=F -> c6=F
        return text


def export(
    games: Iterable[Game], *, dialect: str = "kradan", notation: str = "san", columns: int = 80
) -> Iterable[str]:
    """Each game as PGN text in ``dialect`` (``kradan``, ``pychess`` or ``cutechess``).

    pychess.org: ``[Variant "Makruk"]`` capitalised and ``[FEN]``/``[SetUp]`` always;
    cutechess: ``[PlyCount]`` and the short Sittuyin promotion.

    :raises ValueError: for an unknown dialect.
    """
    if dialect not in DIALECTS:
        raise PgnError(f"unknown PGN dialect {dialect!r}; known: {', '.join(DIALECTS)}")
    for game in games:
        copy = _with_headers(game, dialect)
        exporter = (_CutechessExporter if dialect == "cutechess" else StringExporter)(
            notation=notation, columns=columns
        )
        yield str(copy.accept(exporter))


def _with_headers(game: Game, dialect: str) -> Game:
    if dialect == "kradan":
        return game
    copy = Game(game.headers)
    copy.variations, copy.comment = game.variations, game.comment
    copy.count_actions = list(game.count_actions)
    board = game.board()
    if dialect == "pychess":
        copy.headers["Variant"] = board.variant.name.capitalize()
        copy.headers["FEN"] = position_text(board)
        copy.headers["SetUp"] = "1"
    else:
        copy.headers["PlyCount"] = str(len(game.mainline_moves()))
    return copy


__all__ = [
    "DIALECTS",
    "export",
    "game_from_positions",
    "game_from_uci",
    "positions",
    "uci_line",
]
