"""Building a game tree from a visit: what :func:`~kradan.pgn.read_game` makes by default."""

from __future__ import annotations

from ..games import AnyBoard
from .moves import AnyMove
from .tree import Game, GameNode
from .visitor import BaseVisitor, ReadError


class GameBuilder(BaseVisitor[Game]):
    """Builds a :class:`Game`; errors are collected in ``game.errors``."""

    def begin_game(self) -> None:
        self.game = Game(headers={})
        self._stack: list[GameNode] = [self.game]
        self._in_variation_start = False
        self._pending_start = ""

    def visit_header(self, tag: str, value: str) -> None:
        self.game.headers[tag] = value

    def visit_move(self, board: AnyBoard, move: AnyMove) -> None:
        start = ""
        if self._in_variation_start:
            start, self._in_variation_start = self._pending_start, False
        # the reader parsed the move on this position: it is legal
        self._stack[-1] = self._stack[-1].add_legal(move, starting_comment=start)

    def visit_count(self, kind: str) -> None:
        self._stack[-1].count_actions.append(kind)

    def visit_comment(self, comment: str) -> None:
        if self._in_variation_start:
            self._pending_start = _join(self._pending_start, comment)
        else:
            node = self._stack[-1]
            node.comment = _join(node.comment, comment)

    def visit_nag(self, nag: int) -> None:
        self._stack[-1].nags.add(nag)

    def begin_variation(self) -> None:
        parent = self._stack[-1].parent
        assert parent is not None, "the reader opens variations only after a move"
        self._stack.append(parent)
        self._in_variation_start = True
        self._pending_start = ""

    def end_variation(self) -> None:
        self._stack.pop()
        self._in_variation_start = False

    def visit_result(self, result: str) -> None:
        if self.game.headers.get("Result", "*") == "*":
            self.game.headers["Result"] = result

    def handle_error(self, error: ReadError) -> None:
        self.game.errors.append(error)

    def result(self) -> Game:
        return self.game


def _join(first: str, second: str) -> str:
    return f"{first} {second}" if first else second


__all__ = ["GameBuilder"]
