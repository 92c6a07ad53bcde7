"""The game tree of a PGN game: headers, nodes with moves, comments, NAGs, variations and
counting declarations, for every registered game. It walks itself for any visitor; the
visitors know no tree (the builder that makes trees sits above this module)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ..counting import CountAction
from ..errors import IllegalMoveError, PgnError
from ..games import AnyBoard, CountingBoard, game_of
from .exporter import StringExporter
from .headers import DEFAULT_VARIANT, OPTIONS_TAG, Headers, options_text, start_board
from .moves import AnyMove, move_text
from .visitor import SKIP, BaseVisitor, ReadError

COUNT_KINDS = ("declare", "stop")
_CLOCK = re.compile(r"\[%clk\s+(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\s*\]")
_EVAL = re.compile(r"\[%eval\s+(?:#([+-]?\d+)|([+-]?\d+(?:\.\d+)?))\s*\]")


class GameNode:
    """A position in the game tree, reached by ``move`` from ``parent`` (none at the root).

    ``comment`` follows the move; ``count_actions`` are counting declarations (``"declare"``)
    and stops (``"stop"``) made in the position after the move, before the next one.
    """

    parent: GameNode | None
    move: AnyMove | None

    def __init__(self, *, comment: str = "") -> None:
        self.variations: list[ChildNode] = []
        self.comment = comment
        self.starting_comment = ""
        self.nags: set[int] = set()
        self.count_actions: list[str] = []

    # --- navigation -------------------------------------------------------------------------

    def game(self) -> Game:
        """The root of the tree."""
        node = self
        while node.parent is not None:
            node = node.parent
        assert isinstance(node, Game)
        return node

    def path(self) -> list[GameNode]:
        """The nodes from the root to this one, both included."""
        nodes: list[GameNode] = []
        node: GameNode | None = self
        while node is not None:
            nodes.append(node)
            node = node.parent
        nodes.reverse()
        return nodes

    def clock(self) -> float | None:
        """The mover's clock after this move, in seconds, from a ``[%clk 0:04:59.5]`` comment
        command (pychess.org, lichess and cutechess write them); ``None`` when absent."""
        match = _CLOCK.search(self.comment)
        if match is None:
            return None
        hours, minutes, seconds = match.groups()
        return int(hours) * 3600 + int(minutes) * 60 + float(seconds)

    def eval(self) -> tuple[str, float] | None:
        """The evaluation of a ``[%eval 0.35]`` or ``[%eval #-3]`` comment command: ``("cp",
        0.35)`` in pawns or ``("mate", -3)`` in moves, White's view; ``None`` when absent."""
        match = _EVAL.search(self.comment)
        if match is None:
            return None
        mate, pawns = match.groups()
        return ("mate", float(mate)) if mate is not None else ("cp", float(pawns))

    def ply(self) -> int:
        """Moves from the root to this node."""
        return len(self.path()) - 1

    def board(self) -> AnyBoard:
        """The position at this node, with the moves and count actions that led to it."""
        nodes = self.path()
        game = nodes[0]
        assert isinstance(game, Game)
        board = game.board()
        for node in nodes[1:]:
            assert node.move is not None
            board.push(node.move)
            apply_count_actions(board, node.count_actions)
        return board

    def next(self) -> ChildNode | None:
        """The main continuation, if any."""
        return self.variations[0] if self.variations else None

    def end(self) -> GameNode:
        """The last node of the main line from here."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self) -> bool:
        return not self.variations

    def mainline(self) -> Iterator[ChildNode]:
        """The nodes of the main line after this one."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self) -> list[AnyMove]:
        """The moves of the main line after this node."""
        return [node.move for node in self.mainline() if node.move is not None]

    def is_mainline(self) -> bool:
        """Whether every step from the root to this node is a main continuation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's main continuation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def variation(self, move: AnyMove | int) -> ChildNode:
        """The continuation by ``move`` or the ``move``-th continuation.

        :raises KeyError: when there is none.
        """
        for index, child in enumerate(self.variations):
            if move == child.move or move == index:
                return child
        raise KeyError(move)

    def has_variation(self, move: AnyMove) -> bool:
        return any(child.move == move for child in self.variations)

    # --- editing ------------------------------------------------------------------------------

    def add_variation(
        self, move: AnyMove, *, comment: str = "", starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:  # fmt: skip
        """Add a continuation by ``move`` (checked for legality) and return its node.

        :raises IllegalMoveError: when ``move`` is not legal here.
        """
        board = self.board()
        if not board.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {position_text(board)!r}")
        return self.add_legal(move, comment=comment, starting_comment=starting_comment, nags=nags)

    def add_legal(
        self, move: AnyMove, *, comment: str = "", starting_comment: str = "",
        nags: Iterable[int] = (),
    ) -> ChildNode:  # fmt: skip
        """Add a continuation by ``move``, known to be legal here (just played or parsed on this
        position), without checking it: building a long game this way does not replay it at
        every move. Returns the new node."""
        node = ChildNode(self, move, comment=comment)
        node.starting_comment = starting_comment
        node.nags.update(nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move: AnyMove, *, comment: str = "") -> ChildNode:
        """Add ``move`` as the new main continuation."""
        node = self.add_variation(move, comment=comment)
        self.variations.remove(node)
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[AnyMove]) -> GameNode:
        """Add a line of moves (each a continuation of the one before) and return its end."""
        node: GameNode = self
        for move in moves:
            node = node.add_variation(move)
        return node

    def promote_to_main(self, move: AnyMove) -> None:
        """Make the continuation by ``move`` the main one."""
        child = self.variation(move)
        self.variations.remove(child)
        self.variations.insert(0, child)

    def remove_variation(self, move: AnyMove) -> None:
        self.variations.remove(self.variation(move))

    # --- visiting ----------------------------------------------------------------------------

    def accept(self, visitor: BaseVisitor[Any]) -> Any:
        """Walk this node's subtree (main line first, variations in brackets) for ``visitor``
        and return its result."""
        board = self.board()
        self._accept_children(board, visitor)
        return visitor.result()

    def _accept_children(self, board: AnyBoard, visitor: BaseVisitor[Any]) -> None:
        main = self.next()
        while main is not None:
            parent = main.parent
            main._visit_move(board, visitor)
            main._visit_after(visitor)
            for side in parent.variations[1:]:
                if visitor.begin_variation() is SKIP:
                    continue
                side._visit_move(board, visitor)
                side._visit_after(visitor)
                after = board.copy()
                after.push(side.move)
                apply_count_actions(after, side.count_actions)
                side._accept_children(after, visitor)
                visitor.end_variation()
            board.push(main.move)
            apply_count_actions(board, main.count_actions)
            main = main.next()


class ChildNode(GameNode):
    """A node reached by a move."""

    parent: GameNode
    move: AnyMove

    def __init__(self, parent: GameNode, move: AnyMove, *, comment: str = "") -> None:
        super().__init__(comment=comment)
        self.parent = parent
        self.move = move

    def san(self, notation: str = "san") -> str:
        """The move as written in PGN (``notation``: one of the game's notations)."""
        return move_text(self.parent.board(), self.move, notation)

    def uci(self) -> str:
        return self.move.uci()

    def _visit_move(self, board: AnyBoard, visitor: BaseVisitor[Any]) -> None:
        if self.starting_comment:
            visitor.visit_comment(self.starting_comment)
        visitor.visit_move(board, self.move)

    def _visit_after(self, visitor: BaseVisitor[Any]) -> None:
        for nag in sorted(self.nags):
            visitor.visit_nag(nag)
        for kind in self.count_actions:
            visitor.visit_count(kind)
        if self.comment:
            visitor.visit_comment(self.comment)

    def __repr__(self) -> str:
        return f"<ChildNode {self.move.uci()!r} at ply {self.ply()}>"


class Game(GameNode):
    """A whole game: headers, the root position (from ``[Variant]``, ``[VariantOptions]`` and
    ``[FEN]``), the move tree, and the errors collected while reading it."""

    parent = None
    move = None

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.headers = Headers.roster() if headers is None else Headers(headers)
        self.errors: list[ReadError] = []
        self._start: tuple[tuple[tuple[str, str], ...], AnyBoard] | None = None

    def board(self) -> AnyBoard:
        """The start position (a fresh board each call).

        :raises PgnError: when the headers do not describe a position.
        """
        key = tuple((tag, self.headers.get(tag, "")) for tag in ("Variant", OPTIONS_TAG, "FEN"))
        if self._start is None or self._start[0] != key:
            self._start = (key, start_board(self.headers))
        board: AnyBoard = self._start[1].copy()
        apply_count_actions(board, self.count_actions)
        return board

    def setup(self, board: AnyBoard) -> None:
        """Start the game from ``board``'s position (its history is ignored): sets
        ``[Variant]``, ``[VariantOptions]`` and ``[FEN]``/``[SetUp]`` as needed."""
        root = board.copy()
        while root.move_stack:
            root.pop()
        self.headers["Variant"] = board.variant.name
        options = options_text(board)
        if options:
            self.headers[OPTIONS_TAG] = options
        else:
            self.headers.pop(OPTIONS_TAG, None)
        start = game_of(board).board_with_rules(None, board.variant)
        position = position_text(root)
        if position != position_text(start):
            self.headers["SetUp"] = "1"
            self.headers["FEN"] = position
        else:
            self.headers.pop("SetUp", None)
            self.headers.pop("FEN", None)
        self._start = None

    @classmethod
    def from_board(cls, board: AnyBoard, headers: Mapping[str, str] | None = None) -> Game:
        """The game that led to ``board``: its moves and counting declarations as the main line,
        ``[Result]`` and ``[Termination]`` from the board's outcome (draw claims included)."""
        game = cls()
        game.setup(board)
        entries: list[AnyMove | CountAction] = list(board.move_stack)
        node: GameNode = game
        for entry in entries:
            if isinstance(entry, CountAction):
                node.count_actions.append(entry.kind)
            else:
                node = node.add_legal(entry)
        outcome = board.outcome(claim_draw=True)
        game.headers["Result"] = board.result(claim_draw=True)
        if outcome is not None:
            game.headers["Termination"] = outcome.termination.value
        game.headers.update(headers or {})
        return game

    def accept(self, visitor: BaseVisitor[Any]) -> Any:
        """Walk the whole game (headers, moves, result) for ``visitor``; return its result."""
        if visitor.begin_game() is SKIP:
            return visitor.result()
        visitor.begin_headers()
        for tag, value in self.headers.items():
            visitor.visit_header(tag, value)
        if visitor.end_headers() is not SKIP:
            if self.variations or self.count_actions:
                for kind in self.count_actions:
                    visitor.visit_count(kind)
                if self.comment:
                    visitor.visit_comment(self.comment)
                self._accept_children(self.board(), visitor)
            elif self.comment:  # no moves: the headers need not describe a position
                visitor.visit_comment(self.comment)
        visitor.visit_result(self.headers.get("Result", "*"))
        visitor.end_game()
        return visitor.result()

    def __str__(self) -> str:
        return str(self.accept(StringExporter()))

    def __repr__(self) -> str:
        white, black = self.headers.get("White", "?"), self.headers.get("Black", "?")
        return f"<Game {white!r} vs {black!r}, {self.headers.get('Variant', DEFAULT_VARIANT)}>"


def position_text(board: AnyBoard) -> str:
    """The position of ``board`` as its game writes it (a FEN; Alquerque's position text)."""
    return board.fen()


def apply_count_actions(board: AnyBoard, kinds: Iterable[str]) -> None:
    """Declare or stop counts on ``board`` (each kind ``"declare"`` or ``"stop"``).

    :raises PgnError: for a game without counting or an unknown kind; CountingError when the
        counting rules forbid it.
    """
    for kind in kinds:
        if not isinstance(board, CountingBoard):
            raise PgnError(f"{board.variant.name} has no counting: cannot {kind} a count")
        if kind == "declare":
            board.declare_count()
        elif kind == "stop":
            board.stop_count()
        else:
            raise PgnError(f"unknown count action {kind!r}: expected 'declare' or 'stop'")


__all__ = [
    "COUNT_KINDS",
    "ChildNode",
    "Game",
    "GameNode",
    "apply_count_actions",
    "position_text",
]
