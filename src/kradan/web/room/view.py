"""The game view: one typed model of a game's state (:class:`GameView`), built here and only
here (:func:`game_view`), and sent as it is: as the answer of ``GET /api/games/{id}`` and of
every change over HTTP, and as the ``game`` of the websocket's messages (:func:`game_message`).
It carries each ply's position and the squares each move touched, so the browser replays
nothing."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from ...counting import CountAction
from ...pieces import square_name
from ..model import COLORS, Clock, Side
from .abandon import Abandonment
from .base import RoomBase
from .counts import Counts


class ClockView(BaseModel):
    white_ms: int
    black_ms: int
    increment_ms: int
    running: Side | None


class CountingView(BaseModel):
    text: str
    honour: str
    counting_side: Side
    count: int
    limit: int
    moves_left: int
    declared: bool


class CountActionView(BaseModel):
    """A count declared or stopped in declared counting, and where: after ``ply`` moves."""

    ply: int = Field(description="the number of moves played before it")
    kind: Literal["declare", "stop"]
    side: Side


class PlayersView(BaseModel):
    white: str
    black: str


class AccountsView(BaseModel):
    """The seats' accounts (usernames; null for a guest or the engine)."""

    white: str | None
    black: str | None


class RatingChangeView(BaseModel):
    before: float
    after: float
    change: float
    deviation: float


class RematchView(BaseModel):
    """A rematch once the game has ended: offered by one side, or agreed (its game's id)."""

    offered_by: Literal["white", "black"] | None = None
    game: str | None = None


class RatingChangesView(BaseModel):
    white: RatingChangeView
    black: RatingChangeView


class GoneView(BaseModel):
    """A player who has left a started game between people."""

    side: Side = Field(description="the seat with no connection (the one away longest)")
    away_ms: int = Field(description="how long it has had none")
    claim_in_ms: int = Field(
        description="until its opponent may claim the game (POST /api/games/{id}/claim-win); 0: now"
    )


class SetupView(BaseModel):
    white: bool = Field(description="whether White has handed in its arrangement")
    black: bool = Field(description="whether Black has handed in its arrangement")


class GameView(BaseModel):
    """A game as everyone sees it (and, answering a request, as its seat sees it)."""

    id: str
    variant: str
    title: str
    options: dict[str, Any]
    start_fen: str
    fen: str
    moves: list[str]
    positions: list[str] = Field(
        description="the position (FEN) at the start and after each ply: one more than moves"
    )
    move_squares: list[list[str]] = Field(
        description="the squares each move touched, in order (a huff's point last)"
    )
    san: list[str]
    turn: Side
    status: Literal["playing", "ended"]
    result: str
    termination: str | None
    players: PlayersView
    clock: ClockView | None
    legal_moves: list[str]
    check: str | None
    joined: list[Side] = Field(
        default_factory=list,
        description="the sides known to have a player: the engine's, a side that has moved, a "
        "seat taken by its invitation link since the server loaded the game; both once the game "
        "is over. An invitation stays open while its side is missing",
    )
    seat: Side | None = Field(
        default=None, description="the side whose seat the request holds (GET only)"
    )
    counting: CountingView | None
    can_declare_count: bool
    can_stop_count: bool
    #: whether the side to move may claim a draw now (repetition, the n-move rule, ...)
    can_claim_draw: bool = False
    draw_offer: Side | None
    ply: int
    count_actions: list[CountActionView] = Field(
        default_factory=list,
        description="the counts declared and stopped (declared counting): with ``moves`` they "
        "replay the game's history exactly",
    )
    revision: int = Field(
        default=0,
        description="grows with every state the server tells (microseconds of its clock at "
        "least): a client keeps the view with the highest revision it has seen",
    )
    setup_plies: int = Field(
        default=0, description="the plies of a screened setup's drops, which no takeback reaches"
    )
    thai_san: list[str] | None = Field(
        description="the moves in Thai SAN (the chess games; null for Alquerque)"
    )
    setup: SetupView | None = Field(
        description="Sittuyin's screened setup while it goes on: who has handed in (the "
        "arrangements stay hidden until both have); null otherwise"
    )
    my_setup: dict[str, str] | None = Field(
        default=None,
        description="the arrangement the request's seat handed in, while the screened setup "
        "goes on (GET only)",
    )
    rated: bool = Field(default=False, description="a rated game between two accounts")
    public: bool = Field(
        default=False,
        description="listed publicly (GET /api/games, the PGN export); a private game is read "
        "by whoever has its id",
    )
    accounts: AccountsView | None = Field(
        default=None, description="the seats' accounts, where a seat belongs to one"
    )
    rating_changes: RatingChangesView | None = Field(
        default=None, description="a rated game's ratings before and after it, once it has ended"
    )
    rematch: RematchView | None = Field(
        default=None, description="a rematch offered or agreed, once the game has ended"
    )
    can_abort: bool = Field(
        default=False,
        description="whether a player may abort the game now (POST /api/games/{id}/abort): "
        "until each side has made its first move",
    )
    abort_in_ms: int | None = Field(
        default=None,
        description="between people, before both have moved: the time left for the side to "
        "move to make its first move before the server aborts the game; null when no such "
        "wait runs (the opponent has not come yet, a screened setup, against the engine)",
    )
    gone: GoneView | None = Field(
        default=None,
        description="in a started game between people, the player with no connection to the "
        "game (no websocket open on its seat), and when the other may claim the game",
    )


#: the fields of a request's own answer (its seat), left out of what every subscriber gets
SEAT_FIELDS: set[str] = {"seat", "my_setup"}


def game_view(
    room: RoomBase,
    counts: Counts,
    handed_in: Mapping[str, bool] | None,
    abandonment: Abandonment | None = None,
    *,
    seat: bool | None = None,
    my_setup: dict[str, str] | None = None,
) -> GameView:
    """``room``'s game as the API shows it: ``counts`` says which counts the side to move may
    make, ``handed_in`` who has handed in a screened setup (``None`` when none goes on),
    ``abandonment`` whether it may be aborted and who has left; ``seat`` and ``my_setup`` are
    the asking seat's."""
    board = room.board
    playing = room.playing
    counting = None
    if room.counting is not None:
        found = room.counting.counting_state()
        if found is not None:
            counting = CountingView(
                text=str(found),
                honour=found.honour,
                counting_side=COLORS[bool(found.counting_side)],
                count=found.count,
                limit=found.limit,
                moves_left=found.moves_left,
                declared=found.declared,
            )
    can_declare, can_stop = counts.allowed()
    check = None
    # the king in check, while the game goes on and after it: a mated king stays marked
    if room.checking is not None and room.checking.is_check():
        king = room.checking.king(board.turn)
        check = None if king is None else square_name(king)
    moving = playing and not room.in_setup
    # built from the room's own typed fields: pydantic's validation of every list (the
    # positions grow with the game) would only check them again
    return GameView.model_construct(
        id=room.public_id,
        variant=room.game.name,
        title=room.game.title,
        options=dict(room.row.options),
        start_fen=room.row.start_fen,
        fen=board.fen(),
        moves=list(room.ucis),
        positions=list(room.positions),
        move_squares=list(room.move_squares),
        san=list(room.sans),
        turn=COLORS[bool(board.turn)],
        status="playing" if playing else "ended",
        result=room.row.result,
        termination=room.row.termination,
        players=PlayersView(white=room.players[True].text(), black=room.players[False].text()),
        clock=None if room.clock is None else clock_view(room.clock),
        legal_moves=sorted(m.uci() for m in board.legal_moves) if moving else [],
        check=check,
        joined=[COLORS[color] for color in room.joined()],
        seat=None if seat is None else COLORS[seat],
        counting=counting,
        can_declare_count=can_declare,
        can_stop_count=can_stop,
        # a game still playing has not ended by the rules (each move is checked)
        can_claim_draw=moving and board.can_claim_draw(),
        draw_offer=None if room.draw_offer is None else COLORS[room.draw_offer],
        ply=len(room.ucis),
        count_actions=_count_actions(room),
        revision=room.revision,
        setup_plies=room.setup_plies,
        thai_san=None if room.thai is None else list(room.thai),
        setup=None if handed_in is None else SetupView(**handed_in),
        my_setup=my_setup,
        rated=bool(room.row.rated),
        public=bool(room.row.public),
        accounts=_accounts(room),
        rematch=None if room.rematch is None else room.rematch.view(),
        rating_changes=None
        if room.row.rating_changes is None
        else RatingChangesView.model_validate(room.row.rating_changes),
        **_dead_game_fields(abandonment),
    )


def _count_actions(room: RoomBase) -> list[CountActionView]:
    """The count actions of ``room``'s move stack, each with the number of moves before it."""
    if room.counting is None:
        return []
    actions = []
    ply = 0
    for entry in room.board.move_stack:
        if isinstance(entry, CountAction):
            actions.append(CountActionView.model_construct(
                ply=ply, kind=entry.kind, side=COLORS[bool(entry.color)]))  # fmt: skip
        else:
            ply += 1
    return actions


def _dead_game_fields(abandonment: Abandonment | None) -> dict[str, Any]:
    """``can_abort``, ``abort_in_ms`` and ``gone`` of the view."""
    if abandonment is None:
        return {"can_abort": False, "abort_in_ms": None, "gone": None}
    now = abandonment.presence.now()
    deadline = abandonment.first_move_deadline()
    gone = abandonment.gone()
    return {
        "can_abort": abandonment.can_abort(),
        "abort_in_ms": None if deadline is None else max(0, int((deadline - now) * 1000)),
        "gone": None
        if gone is None
        else GoneView(
            side=COLORS[gone.side],
            away_ms=int(gone.away_s * 1000),
            claim_in_ms=math.ceil(gone.claim_in_s * 1000),
        ),
    }


def _accounts(room: Any) -> AccountsView | None:
    white, black = room.players[True].account, room.players[False].account
    return None if white is None and black is None else AccountsView(white=white, black=black)


def clock_view(clock: Clock) -> ClockView:
    """Both sides' time now (never below zero), the increment, and whose time runs."""
    now = time.monotonic()
    return ClockView(
        white_ms=max(0, clock.left(True, now)),
        black_ms=max(0, clock.left(False, now)),
        increment_ms=clock.increment_ms,
        running=None if clock.running is None else COLORS[clock.running],
    )


def game_message(view: GameView) -> str:
    """The websocket's message of ``view`` as JSON text, made once for every subscriber: the
    game as everyone sees it (no seat's fields)."""
    return '{"type":"game","game":' + view.model_dump_json(exclude=SEAT_FIELDS) + "}"


__all__ = [
    "SEAT_FIELDS",
    "ClockView",
    "CountingView",
    "GameView",
    "GoneView",
    "PlayersView",
    "SetupView",
    "clock_view",
    "game_message",
    "game_view",
]
