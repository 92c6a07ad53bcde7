"""The analysis board's server side: a line of moves read and written, with no game behind it.

* ``POST /api/line``: a start position (any game, its rule options, a FEN) and moves played
  from it -> every position, the moves in SAN and Thai SAN, the squares each touched, and at
  the end the legal moves, the check, the counting state and the outcome. The browser knows no
  rules: each move it adds to its variation tree is checked here, and the answer is all it draws.
* ``POST /api/pgn/read``: PGN text -> the first game's tree (variations, comments, NAGs), each
  node with its move and position.
* ``POST /api/pgn/write``: such a tree -> PGN text, written by :mod:`kradan.pgn`.

Every answer is computed from the request alone; nothing is stored. Count declarations of
declared counting are entries ``count:declare``/``count:stop`` among the moves, as in the
engine's history (:mod:`.engine_pool`).
"""

from __future__ import annotations

import io
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import KradanError
from ..games import CheckBoard, GameBoard, StatusBoard, find_game
from ..pgn import move_text, options_text, parse_options, read_game
from ..pgn.headers import OPTIONS_TAG
from ..pgn.tree import ChildNode, Game, GameNode, apply_count_actions
from ..pieces import square_name
from .i18n import N_
from .model import GameError
from .room.base import touched_squares
from .room.moves import why_illegal, written

router = APIRouter()

#: the most moves a line may hold (a long game has 300 plies)
MAX_LINE = 1000
#: the largest PGN text and tree read or written, in bytes (the body limit of these routes)
MAX_PGN = 256 * 1024
#: the most nodes of a tree written as PGN
MAX_NODES = 5000
#: the deepest variations of a PGN read may nest (a variation within a variation, ...)
MAX_NESTING = 100
COUNT_ENTRIES = {"count:declare": "declare", "count:stop": "stop"}
#: the PGN tags that say where a game starts
POSITION_TAGS = ("Variant", OPTIONS_TAG, "FEN", "SetUp")

OptionValue = bool | int | str | list[str]
MoveText = Annotated[str, Field(min_length=1, max_length=64)]


class PlayedLineBody(BaseModel):
    """A start position and the moves played from it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("makruk", min_length=1, max_length=40, description="any game name")
    options: dict[str, OptionValue] = Field(
        default_factory=dict, max_length=40, description="rule options, e.g. counting=declared"
    )
    fen: str | None = Field(None, max_length=200, description="the start (none: the usual one)")
    moves: list[MoveText] = Field(
        default_factory=list,
        max_length=MAX_LINE,
        description="moves in UCI, and count:declare / count:stop where a count is made",
    )


class OutcomeView(BaseModel):
    result: str = Field(description="1-0, 0-1 or 1/2-1/2")
    termination: str


class PlayedLine(BaseModel):
    """The line as the analysis board draws it."""

    variant: str
    title: str
    options: dict[str, Any]
    start_fen: str
    fen: str = Field(description="the position at the end of the line")
    moves: list[str] = Field(description="the moves as kradan writes them in UCI")
    positions: list[str] = Field(description="the start and the position after each entry")
    move_squares: list[list[str]]
    san: list[str]
    thai_san: list[str] | None = Field(description="null for a game without Thai SAN")
    turn: str
    legal_moves: list[str] = Field(description="at the end of the line (none once it ended)")
    check: str | None = Field(description="the square of the king in check at the end")
    counting: str | None = Field(description="the count at the end, as kradan writes it")
    can_declare_count: bool
    can_stop_count: bool
    outcome: OutcomeView | None
    warnings: list[str] = Field(
        default_factory=list,
        description="what is odd about the start position (it is analysed all the same)",
    )


def start_board(variant: str, options: dict[str, Any], fen: str | None) -> GameBoard:
    """The board of ``variant`` with ``options`` at ``fen``.

    :raises GameError: 400 for an unknown game, option or a bad position.
    """
    try:
        board: GameBoard = find_game(variant).new_board(fen, **options)
    except (KradanError, ValueError, TypeError) as error:
        raise GameError(400, str(error)) from None
    return board


def _count(board: GameBoard, kind: str) -> None:
    action = getattr(board, "declare_count" if kind == "declare" else "stop_count", None)
    if action is None:
        raise GameError(409, N_("{game} has no counting"), game=repr(board.variant.name))
    try:
        action()
    except KradanError as error:
        template = (
            N_("cannot declare a count: {error}")
            if kind == "declare"
            else N_("cannot stop a count: {error}")
        )
        raise GameError(409, template, error=str(error)) from None


def _count_allowed(board: GameBoard, kind: str) -> bool:
    """Whether the side to move may make the count ``kind`` now (tried, then taken back)."""
    action = getattr(board, "declare_count" if kind == "declare" else "stop_count", None)
    if action is None or board.outcome() is not None:
        return False
    try:
        action()
    except KradanError:
        return False
    board.pop()
    return True


def play_line(body: PlayedLineBody) -> PlayedLine:
    """:class:`PlayedLine` of ``body``'s line.

    :raises GameError: 400 for a bad start, 422 for an illegal move (quoting it and its ply),
        409 for a count the rules refuse.
    """
    board = start_board(body.variant, dict(body.options), body.fen)
    game = find_game(body.variant)
    thai = "thai" in game.notations
    start_fen = board.fen(show_promoted=True)
    warnings = board.status_text() if isinstance(board, StatusBoard) else []
    positions, moves, sans, thais = [start_fen], [], [], []
    squares: list[list[str]] = []
    for text in body.moves:
        if text in COUNT_ENTRIES:
            _count(board, COUNT_ENTRIES[text])
            moves.append(text)
            squares.append([])
            sans.append(text)
            thais.append(text)
            positions.append(board.fen(show_promoted=True))
            continue
        if board.outcome() is not None:
            raise GameError(
                422, N_("the game is over before {move}"), move=repr(text[:64])
            )  # fmt: skip
        try:
            move = board.parse_uci(text)
            san = board.san(move)
            thai_san = written(board, move, "thai") if thai else ""
            board.push(move)  # may refuse what parse_uci took (a screened setup's drop)
        except (KradanError, ValueError, IndexError, KeyError) as error:
            raise GameError(  # a refused move leaves the board as it was
                422, N_("ply {ply}: {error}"), ply=len(moves) + 1,
                error=why_illegal(error, text, board.fen()),
            ) from None  # fmt: skip
        sans.append(san)
        if thai:
            thais.append(thai_san)
        uci = move.uci()
        moves.append(uci)
        squares.append(touched_squares(uci))
        positions.append(board.fen(show_promoted=True))
    outcome = board.outcome()
    check = None
    if isinstance(board, CheckBoard) and outcome is None and board.is_check():
        king = board.king(board.turn)
        check = None if king is None else square_name(king)
    found = getattr(board, "counting_state", lambda: None)()
    return PlayedLine(
        variant=game.name,
        title=game.title,
        options=dict(body.options),
        start_fen=start_fen,
        fen=board.fen(show_promoted=True),
        moves=moves,
        positions=positions,
        move_squares=squares,
        san=sans,
        thai_san=thais if thai else None,
        turn="white" if board.turn else "black",
        legal_moves=[] if outcome is not None else sorted(m.uci() for m in board.legal_moves),
        check=check,
        counting=None if found is None else str(found),
        can_declare_count=_count_allowed(board, "declare"),
        can_stop_count=_count_allowed(board, "stop"),
        outcome=None
        if outcome is None
        else OutcomeView(result=outcome.result(), termination=outcome.termination.value),
        warnings=warnings,
    )


@router.post(
    "/api/line",
    response_model=PlayedLine,
    responses={400: {"description": "a bad start"}, 422: {"description": "an illegal move"}},
    summary="Play a line on the analysis board",
)
async def line(body: PlayedLineBody) -> PlayedLine:
    """Every position of a line of moves from a start position, the moves in SAN and Thai
    SAN, and what may be played at its end. Nothing is stored."""
    return play_line(body)


# --- PGN in and out ----------------------------------------------------------------------------


class NodeView(BaseModel):
    """A move of the tree: its UCI, SAN, the position after it, the comment after it, its
    NAGs, the counts made after it (``count:declare``/``count:stop``), and the variations
    that replace it (lines that start from the same position, as PGN writes them).

    Lines are lists, not nested nodes: a long game nests no deeper than its variations."""

    uci: str = Field(max_length=64)
    san: str = Field("", max_length=64)
    thai_san: str | None = Field(None, max_length=64)
    fen: str = Field("", max_length=200)
    comment: str = Field("", max_length=MAX_PGN)
    nags: list[Annotated[int, Field(ge=1, le=255)]] = Field(default_factory=list, max_length=8)
    counts: list[str] = Field(
        default_factory=list, max_length=4, description="count:declare / count:stop after it"
    )
    variations: list[list[NodeView]] = Field(default_factory=list, max_length=64)


class TreeView(BaseModel):
    """A game tree: headers, the start, the comment before the first move and the main line."""

    model_config = ConfigDict(extra="forbid")

    variant: str = Field("makruk", min_length=1, max_length=40)
    options: dict[str, OptionValue] = Field(default_factory=dict, max_length=40)
    start_fen: str | None = Field(None, max_length=200)
    headers: dict[
        Annotated[str, Field(max_length=40)], Annotated[str, Field(max_length=MAX_PGN)]
    ] = Field(default_factory=dict, max_length=100)
    comment: str = Field("", max_length=MAX_PGN, description="the comment before the first move")
    moves: list[NodeView] = Field(default_factory=list, max_length=MAX_NODES)


class PgnBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    pgn: str = Field(min_length=1, max_length=MAX_PGN, description="PGN text (its first game)")


def _node_view(node: ChildNode, board: GameBoard, thai: bool) -> NodeView:
    """``node`` alone, played on ``board`` (the position before it, which this leaves after
    it and its counts; its variations are added by :func:`_line_of`)."""
    san = move_text(board, node.move, "san")
    thai_san = written(board, node.move, "thai") if thai else None
    board.push(node.move)
    apply_count_actions(board, node.count_actions)
    return NodeView(
        uci=node.uci(),
        san=san,
        thai_san=thai_san,
        fen=board.fen(show_promoted=True),
        comment=node.comment,
        nags=sorted(node.nags),
        counts=[f"count:{kind}" for kind in node.count_actions],
    )


def _line_of(first: ChildNode, board: GameBoard, thai: bool, depth: int = 0) -> list[NodeView]:
    """The line that begins with ``first`` and follows the main continuations, each move with
    the variations that replace it. ``board`` is the position before ``first``; the line is
    played on it (a position each node, not a replay from the start: a long game's tree is
    read in time linear in its moves). ``depth``: how deeply the line is nested.

    :raises GameError: 400 for variations nested more than :data:`MAX_NESTING` deep.
    """
    if depth > MAX_NESTING:
        raise GameError(
            400, N_("cannot read the PGN: {error}"),
            error=f"variations nested more than {MAX_NESTING} deep",
        )  # fmt: skip
    line: list[NodeView] = []
    at: ChildNode | None = first
    while at is not None:
        parent = at.parent
        variations = []
        if parent is not None and parent.variations[0] is at:
            variations = [
                _line_of(other, board.copy(), thai, depth + 1) for other in parent.variations[1:]
            ]
        view = _node_view(at, board, thai)
        view.variations = variations
        line.append(view)
        at = at.variations[0] if at.variations else None
    return line


def options_of(board: GameBoard) -> dict[str, OptionValue]:
    """The board's rule options that differ from its game's defaults, as JSON values."""
    found = parse_options(options_text(board), find_game(board.variant.name).options)
    values: dict[str, OptionValue] = {}
    for name, value in found.items():
        values[name] = list(value) if isinstance(value, tuple) else value  # type: ignore[assignment]
    return values


def tree_of(game: Game) -> TreeView:
    """The JSON tree of a PGN game."""
    board = game.board()
    thai = "thai" in find_game(board.variant.name).notations
    return TreeView(
        variant=board.variant.name,
        options=options_of(board),
        start_fen=board.fen(show_promoted=True),
        headers=dict(game.headers),
        comment=game.comment,
        moves=_line_of(game.variations[0], board.copy(), thai) if game.variations else [],
    )


@router.post(
    "/api/pgn/read",
    response_model=TreeView,
    responses={400: {"description": "PGN that cannot be read"}},
    summary="Read PGN into the analysis board's tree",
)
async def read_pgn(body: PgnBody) -> TreeView:
    """The first game of ``pgn`` as a tree, each move with its SAN and position."""
    try:
        game = read_game(io.StringIO(body.pgn), strict=True)
    except (KradanError, ValueError) as error:
        raise GameError(400, N_("cannot read the PGN: {error}"), error=str(error)) from None
    if game is None:
        raise GameError(400, N_("cannot read the PGN: {error}"), error="no game in it")
    try:
        return tree_of(game)
    except ValidationError as error:  # a game the tree cannot hold (a NAG $0, a long tag name)
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        problem = f"{where}: {first['msg']}" if where else first["msg"]
        raise GameError(400, N_("cannot read the PGN: {error}"), error=problem) from None


def _add_line(parent: GameNode, board: GameBoard, line: list[NodeView], budget: list[int]) -> None:
    """Add ``line`` after ``parent``: each move as the main continuation, its variations
    after it as the alternatives. ``board`` is ``parent``'s position; the line is played on
    it (not replayed from the start for each move: a long tree is written in linear time)."""
    for entry in line:
        budget[0] -= 1
        if budget[0] < 0:
            raise GameError(413, N_("the tree has more than {limit} moves"), limit=MAX_NODES)
        try:
            move = board.parse_uci(entry.uci)
        except (KradanError, ValueError, IndexError, KeyError) as error:
            raise GameError(
                422, N_("ply {ply}: {error}"), ply=parent.ply() + 1,
                error=why_illegal(error, entry.uci, board.fen()),
            ) from None  # fmt: skip
        node = parent.add_legal(move, comment=entry.comment)  # push checks it below
        node.nags.update(entry.nags)
        for count in entry.counts:
            if count not in COUNT_ENTRIES:
                raise GameError(422, N_("no count action {action}"), action=repr(count[:20]))
            node.count_actions.append(COUNT_ENTRIES[count])
        for variation in entry.variations:
            _add_line(parent, board.copy(), variation, budget)
        try:
            board.push(move)  # may refuse what parse_uci took (a screened setup's drop)
            apply_count_actions(board, node.count_actions)
        except KradanError as error:  # or a count the rules refuse where it was written
            raise GameError(422, str(error)) from None
        parent = node


def pgn_of(tree: TreeView) -> str:
    """PGN text of ``tree``, as :mod:`kradan.pgn` writes it.

    :raises GameError: 400 for a bad start, 422 for an illegal move, 413 for a tree too large.
    """
    board = start_board(tree.variant, dict(tree.options), tree.start_fen)
    # the start is the tree's variant, options and start_fen: headers that say otherwise
    # (left from a PGN read before the start was changed) give way to them
    headers = {tag: text for tag, text in tree.headers.items() if tag not in POSITION_TAGS}
    game = Game.from_board(board, headers=headers)
    game.comment = tree.comment
    _add_line(game, game.board(), tree.moves, [MAX_NODES])
    try:
        return str(game)
    except KradanError as error:  # a count the rules refuse where it was written
        raise GameError(422, str(error)) from None


@router.post(
    "/api/pgn/write",
    response_class=PlainTextResponse,
    responses={422: {"description": "an illegal move in the tree"}},
    summary="Write the analysis board's tree as PGN",
)
async def write_pgn(tree: TreeView) -> PlainTextResponse:
    """The tree as PGN, with its variations, comments and NAGs."""
    return PlainTextResponse(
        pgn_of(tree),
        media_type="application/x-chess-pgn; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="analysis.pgn"'},
    )


__all__ = ["PlayedLine", "PlayedLineBody", "TreeView", "pgn_of", "play_line", "router", "tree_of"]
