"""One game in memory: a :class:`Room` holds its board (made by the game registry), its seats,
its clock and its websocket subscribers.

Every change (a move, an action, a flag fall) runs under the room's lock: it is checked
(seat, turn, legality), committed to the database in one transaction, and only then applied
to the room and announced. The room reaches the database, the engine and its subscribers
through its host, :class:`RoomHost` (:class:`kradan.web.rooms.Rooms`).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from ..counting import CountAction
from ..errors import KradanError
from ..games import CountingBoard, find_game, new_board
from ..outcome import Outcome
from ..pieces import square_name
from ..sittuyin_setup import PRESETS
from .engine_pool import EnginePool, EngineRequest
from .i18n import N_, Message, Term
from .model import (
    ACTIONS,
    COLORS,
    SIDES,
    TIME_FORFEIT,
    TIMEOUT_DRAW,
    Clock,
    GameError,
    Player,
    token_hash,
)
from .storage import Store
from .tables import Ending, EventRow, GameRow, NewMove, utcnow

log = logging.getLogger("kradan.web")
#: a square or point in a UCI move (``e3e4,e1e3``, ``R@a1``, ``hc3,b2c3``, ``b3d3d5``)
_SQUARE = re.compile(r"[a-p](?:1[0-6]|[1-9])")


class RoomHost(Protocol):
    """What a room needs of the server around it."""

    store: Store
    pool: EnginePool

    def spawn(self, room: Room, work: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``work`` for ``room`` in the background."""
        ...

    async def broadcast(self, room: Room, state: dict[str, Any]) -> None:
        """Send ``state`` to ``room``'s subscribers."""
        ...


class Room:
    """One game in memory."""

    def __init__(self, rooms: RoomHost, row: GameRow, board: Any) -> None:
        self.rooms = rooms
        self.row = row
        self.game = find_game(row.variant)
        self.board = board
        #: whether its players declare counts (a protocol check, too slow to repeat per move)
        self.counts = isinstance(board, CountingBoard)
        self.ucis: list[str] = []
        self.sans: list[str] = []
        #: the position (FEN) at the start and after each ply, so that the browser replays nothing
        self.positions: list[str] = [board.fen()]
        #: the clocks stored with each move
        self.move_clocks: list[tuple[int | None, int | None]] = []
        self.players = {
            True: Player.from_json(row.players.get("white")),
            False: Player.from_json(row.players.get("black")),
        }
        self.tokens = {True: row.white_token, False: row.black_token}
        self.clock: Clock | None = None
        if row.clock:
            self.clock = Clock(int(row.clock["base_ms"]), int(row.clock["increment_ms"]))
        self.draw_offer: bool | None = None
        self.seq = 0
        #: bumped whenever the position changes, so that stale engine answers are dropped
        self.version = 0
        self.lock = asyncio.Lock()
        self.send_lock = asyncio.Lock()
        self.subscribers: set[Any] = set()
        self.tasks: set[asyncio.Task[Any]] = set()
        self.engine_version = -1
        self.flag_task: asyncio.Task[Any] | None = None
        #: Thai SAN beside SAN, for the games that write it (the chess games)
        self.thai: list[str] | None = [] if "thai" in self.game.notations else None
        #: Sittuyin's screened setup: whether it is still going on, the arrangements handed in
        #: (kept from every reader but their own seat until both are in), and how many plies of
        #: drops the two arrangements became
        self.in_setup = _screened(board)
        self.arrangements: dict[bool, dict[str, str]] = {}
        self.setup_plies = 0
        self.engine_setup: set[bool] = set()

    # --- reading ----------------------------------------------------------------------------

    @property
    def public_id(self) -> str:
        return self.row.public_id

    @property
    def playing(self) -> bool:
        return self.row.status == "playing"

    def is_engine(self, color: bool) -> bool:
        return self.players[color].kind == "engine"

    def state(self) -> dict[str, Any]:
        """The game as ``GET /api/games/{id}`` shows it."""
        board = self.board
        playing = self.playing
        counting = None
        can_declare = can_stop = False
        if self.counts:
            found = board.counting_state()
            if found is not None:
                counting = {
                    "text": str(found),
                    "honour": found.honour,
                    "counting_side": COLORS[bool(found.counting_side)],
                    "count": found.count,
                    "limit": found.limit,
                    "moves_left": found.moves_left,
                    "declared": found.declared,
                }
            if playing:
                can_declare = _can(board, board.declare_count)
                can_stop = _can(board, board.stop_count)
        check = None
        if playing and hasattr(board, "is_check") and board.is_check():
            king = board.king(board.turn)
            check = None if king is None else square_name(king)
        return {
            "id": self.public_id,
            "variant": self.game.name,
            "title": self.game.title,
            "options": dict(self.row.options),
            "start_fen": self.row.start_fen,
            "fen": board.fen(),
            "moves": list(self.ucis),
            # the position at the start and after each ply, and the squares each ply touched
            "positions": list(self.positions),
            "move_squares": [_SQUARE.findall(uci) for uci in self.ucis],
            "san": list(self.sans),
            "turn": COLORS[bool(board.turn)],
            "status": self.row.status,
            "result": self.row.result,
            "termination": self.row.termination,
            "players": {"white": self.players[True].text(), "black": self.players[False].text()},
            "clock": None if self.clock is None else self.clock.view(),
            "legal_moves": (
                sorted(m.uci() for m in board.legal_moves) if playing and not self.in_setup else []
            ),
            "check": check,
            "counting": counting,
            "can_declare_count": can_declare,
            "can_stop_count": can_stop,
            # a game still playing has not ended by the rules (each move is checked)
            "can_claim_draw": playing and not self.in_setup and board.can_claim_draw(),
            "draw_offer": None if self.draw_offer is None else COLORS[self.draw_offer],
            "ply": len(self.ucis),
            "thai_san": None if self.thai is None else list(self.thai),
            "setup": (
                {"white": True in self.arrangements, "black": False in self.arrangements}
                if self.in_setup
                else None
            ),
        }

    def own_setup(self, color: bool | None) -> dict[str, str] | None:
        """The arrangement ``color``'s seat handed in, while the screened setup goes on."""
        if color is None or not self.in_setup:
            return None
        found = self.arrangements.get(color)
        return None if found is None else dict(found)

    def seat_of(self, token: str | None) -> bool:
        """The side whose seat ``token`` proves.

        :raises GameError: 401 without a token, 403 for a token of no seat of this game.
        """
        if not token:
            raise GameError(
                401, N_("no seat: game {game} needs a seat token"), game=repr(self.public_id)
            )
        digest = token_hash(token)
        for color in (True, False):
            stored = self.tokens[color]
            if stored is not None and hmac.compare_digest(digest, stored):
                return color
        raise GameError(
            403, N_("the token is not a seat of game {game}"), game=repr(self.public_id)
        )

    def pgn(self) -> str:
        """The game as PGN: ``[Variant]``, ``[VariantOptions]``, ``[Result]``,
        ``[Termination]``, and with a clock ``[TimeControl]`` and each mover's ``[%clk]``."""
        from ..pgn import Game as PgnGame

        headers = {
            "Event": "kradan serve",
            "Site": f"kradan serve game {self.public_id}",
            "Date": self.row.created_at.strftime("%Y.%m.%d"),
            "Round": "-",
            "White": _pgn_name(self.players[True]),
            "Black": _pgn_name(self.players[False]),
            "Result": self.row.result,
        }
        if self.row.termination:
            headers["Termination"] = self.row.termination
        if self.row.clock:
            base, increment = self.row.clock["base_ms"], self.row.clock["increment_ms"]
            headers["TimeControl"] = f"{base // 1000}+{increment // 1000}"
        record = PgnGame.from_board(self._pgn_board(), headers)
        if self.clock is not None:
            mover = start_turn(self)
            for node, clocks in zip(record.mainline(), self.move_clocks, strict=False):
                left = clocks[0] if mover else clocks[1]
                if left is not None:
                    node.comment = _clock_comment(left)
                mover = not mover
        return str(record) + "\n"

    def _pgn_board(self) -> Any:
        """The board the PGN is written from. A screened setup's drops cannot be replayed move
        by move under its own rules (the PGN reader and writer do that): they are the same
        moves under the alternate setup, so the game is written as that."""
        if not _screened_rules(self.board):
            return self.board
        options = {k: v for k, v in self.row.options.items() if k != "sittuyin_setup"}
        board: Any = new_board(self.row.variant, self.row.start_fen, **options)
        for entry in self.board.move_stack:
            if isinstance(entry, CountAction):
                board.declare_count() if entry.kind == "declare" else board.stop_count()
            else:
                board.push(entry)
        return board

    # --- changes ------------------------------------------------------------------------------

    async def play(self, color: bool, text: str) -> dict[str, Any]:
        """``color`` plays the move written ``text`` (UCI); returns the game after the commit.

        :raises GameError: 409 when the game is over or it is not ``color``'s turn, 422 for
            an illegal move.
        """
        async with self.lock:
            await self._out_of_time()
            if self.in_setup and self.playing:
                raise GameError(
                    409, N_("the screened setup is not over: each side hands in its arrangement")
                )
            self._check_turn(color)
            await self._move(color, text)
            return await self._announce()

    async def setup(self, color: bool, arrangement: Any) -> dict[str, Any]:
        """Sittuyin's screened setup: ``color`` hands in its whole arrangement (squares to
        piece letters, ``{"e2": "K", ...}``, or the name of a preset). Nothing of it is shown to
        anyone until both sides have handed in; then both are played as drops. Returns the game
        after the commit.

        :raises GameError: 400 for an arrangement that is not such a mapping, 409 when the game
            has no setup going on or ``color`` has handed in already, 422 for an arrangement
            the rules refuse.
        """
        async with self.lock:
            await self._out_of_time()
            if not self.playing:
                raise self._over()
            await self._hand_in(color, arrangement)
            return await self._announce()

    async def _hand_in(self, color: bool, arrangement: Any) -> None:
        if not self.in_setup:
            raise GameError(
                409, N_("game {game} has no screened setup going on"), game=repr(self.public_id)
            )
        if color in self.arrangements:
            raise GameError(409, N_("{color} has already handed in its setup"), color=SIDES[color])
        if isinstance(arrangement, str):
            placed = preset_arrangement(arrangement, color)
            if placed is None:
                raise GameError(
                    422,
                    N_("unknown setup preset {preset}; presets: {presets}"),
                    preset=repr(arrangement[:40]),
                    presets=", ".join(sorted(PRESETS)),
                )
        elif (
            isinstance(arrangement, dict)
            and len(arrangement) <= 16
            and all(
                isinstance(key, str)
                and isinstance(value, str)
                and len(key) <= 3
                and len(value) <= 1
                for key, value in arrangement.items()
            )
        ):
            placed = dict(arrangement)
        else:
            raise GameError(
                400,
                N_("an arrangement maps squares to piece letters, e.g. {example}, not {value}"),
                example="{'e2': 'K'}",
                value=repr(arrangement)[:80],
            )
        try:
            self.board.copy().submit_setup(color, placed)
        except KradanError as error:
            raise GameError(422, N_("setup refused: {error}"), error=str(error)) from None
        await self._store_event(self._event("setup", color, {"arrangement": placed}))
        self.apply_setup(color, placed)

    def apply_setup(self, color: bool, arrangement: dict[str, str]) -> None:
        """Hand in a checked (and stored) arrangement; once both are in, the drops become the
        game's first moves."""
        self.arrangements[color] = arrangement
        if not self.board.submit_setup(color, arrangement):
            return
        board = self.board
        drops = len(board.move_stack) - len(self.ucis)
        trial = board.copy()
        sans: list[str] = []
        thais: list[str] = []
        before: list[str] = []  # the position before each drop, the last drop's first
        for _ in range(drops):
            drop = trial.pop()
            sans.append(trial.san(drop))
            thais.append(trial.san(drop, "thai"))
            before.append(trial.fen())
        self.positions.extend([*reversed(before[:-1]), board.fen()])
        self.ucis.extend(entry.uci() for entry in board.move_stack[-drops:])
        self.sans.extend(reversed(sans))
        if self.thai is not None:
            self.thai.extend(reversed(thais))
        self.move_clocks.extend([(None, None)] * drops)
        self.setup_plies = len(self.ucis)
        self.row.ply = len(self.ucis)
        self.in_setup = False
        self.version += 1
        if self.clock is not None:
            self.clock.since = time.monotonic()
        self.run_clock()

    async def act(self, color: bool, action: str) -> dict[str, Any]:
        """``color`` takes ``action`` (one of :data:`ACTIONS`); returns the game after the
        commit.

        :raises GameError: 409 when the action is not possible now, 422 for an unknown one.
        """
        if action not in ACTIONS:
            raise GameError(
                422,
                N_("unknown action {action}; actions: {actions}"),
                action=repr(action),
                actions=", ".join(ACTIONS),
            )
        async with self.lock:
            await self._out_of_time()
            if not self.playing:
                raise self._over()
            await getattr(self, f"_{action}")(color)
            return await self._announce()

    def _over(self) -> GameError:
        """The error of a change asked for after the game ended."""
        return GameError(
            409,
            N_("game {game} is over ({result})"),
            game=repr(self.public_id),
            result=self.row.result,
        )

    def _check_turn(self, color: bool) -> None:
        if not self.playing:
            raise self._over()
        if bool(self.board.turn) != color:
            raise GameError(
                409,
                N_("not {color}'s turn: {mover} is to move"),
                color=SIDES[color],
                mover=SIDES[bool(self.board.turn)],
            )

    def _event(self, kind: str, color: bool, payload: dict[str, Any] | None = None) -> EventRow:
        return EventRow(
            game_id=self.row.id,
            seq=self.seq,
            kind=kind,
            side=COLORS[color],
            ply=len(self.ucis),
            payload=payload or {},
            created_at=utcnow(),
        )

    async def _move(self, color: bool, text: str) -> None:
        board = self.board
        try:
            move = board.parse_uci(text)
        except (KradanError, ValueError, IndexError, KeyError) as error:
            raise GameError(
                422,
                N_("illegal move {move}: {error}"),
                move=repr(text),
                error=_why_illegal(error, text, board.fen()),
            ) from None
        san = board.san(move)
        thai = None if self.thai is None else board.san(move, "thai")
        uci = move.uci()
        # the position after the move is looked at, then taken back until the move is stored:
        # whoever reads the game meanwhile sees only acknowledged moves
        board.push(move)
        try:
            outcome: Outcome | None = board.outcome()
        finally:
            board.pop()
        white_ms = black_ms = None
        if self.clock is not None:
            ms = dict(self.clock.ms)
            if self.clock.running is color:
                ms[color] = self.clock.left(color) + self.clock.increment_ms
            white_ms, black_ms = ms[True], ms[False]
        ending = None
        if outcome is not None:
            ending = Ending(outcome.result(), outcome.termination.value)
        row = NewMove(
            game_id=self.row.id,
            ply=len(self.ucis),
            uci=uci,
            white_ms=white_ms,
            black_ms=black_ms,
            created_at=utcnow(),
        )
        await self.rooms.store.add_move(self.row.id, row, ending)
        board.push(move)
        self.positions.append(board.fen())
        self.ucis.append(uci)
        self.sans.append(san)
        if self.thai is not None and thai is not None:
            self.thai.append(thai)
        self.move_clocks.append((white_ms, black_ms))
        self.row.ply = len(self.ucis)
        self.version += 1
        if self.draw_offer is (not color):
            self.draw_offer = None
        if self.clock is not None and white_ms is not None and black_ms is not None:
            self.clock.ms = {True: white_ms, False: black_ms}
            self.clock.since = time.monotonic()
        if ending is not None:
            self._end(ending)
        self.run_clock()

    def _end(self, ending: Ending) -> None:
        self.row.status = "ended"
        self.row.result = ending.result
        self.row.termination = ending.termination
        self.draw_offer = None
        if self.clock is not None:
            now = time.monotonic()
            self.clock.ms = {color: self.clock.left(color, now) for color in (True, False)}
            self.clock.running = None

    def run_clock(self) -> None:
        """Set which clock runs: the side to move's, once both sides have moved."""
        if self.clock is not None:
            # a screened setup's drops are not moves: the clocks start after two moves of play
            running = self.playing and not self.in_setup and len(self.ucis) - self.setup_plies >= 2
            self.clock.running = bool(self.board.turn) if running else None

    async def _store_event(self, row: EventRow, ending: Ending | None = None) -> None:
        await self.rooms.store.add_event(self.row.id, row, ending)
        self.seq += 1
        if ending is not None:
            self._end(ending)

    async def _flagged(self) -> bool:
        """End the game if the side to move has run out of time (the caller holds the lock);
        returns whether it did. The side that ran out loses, unless its opponent could not
        possibly mate: then it is a draw."""
        clock = self.clock
        if clock is None or not self.playing or clock.running is None:
            return False
        if clock.left(clock.running) > 0:
            return False
        loser = clock.running
        winner = not loser
        board = self.board
        if hasattr(board, "has_insufficient_material") and board.has_insufficient_material(winner):
            ending = Ending("1/2-1/2", TIMEOUT_DRAW)
        else:
            ending = Ending("1-0" if winner else "0-1", TIME_FORFEIT)
        await self._store_event(self._event("flag", loser), ending)
        clock.ms[loser] = 0
        clock.running = None
        return True

    async def _out_of_time(self) -> None:
        """Before a change: a fallen flag ends the game, is announced, and refuses the change."""
        if await self._flagged():
            await self._announce()
            raise GameError(
                409,
                N_("game {game} is over: {termination}"),
                game=repr(self.public_id),
                termination=Term(self.row.termination or ""),
            )

    async def _flag_now(self, version: int) -> None:
        async with self.lock:
            if version == self.version and await self._flagged():
                await self._announce()

    # --- actions (each under the lock, the game being played) ---------------------------------

    async def _resign(self, color: bool) -> None:
        ending = Ending("0-1" if color else "1-0", "resignation")
        await self._store_event(self._event("resign", color), ending)
        self.board.resign(color)

    async def _offer_draw(self, color: bool) -> None:
        if self.draw_offer is (not color):
            await self._accept_draw(color)
            return
        if self.draw_offer is color:
            raise GameError(409, N_("{color} has already offered a draw"), color=SIDES[color])
        await self._store_event(self._event("draw_offer", color))
        self.draw_offer = color
        if self.is_engine(not color):
            self.rooms.spawn(self, self._engine_answers_draw(self.version, not color))

    async def _accept_draw(self, color: bool) -> None:
        if self.draw_offer is not (not color):
            raise GameError(
                409, N_("there is no draw offer from {color} to accept"), color=SIDES[not color]
            )
        await self._store_event(self._event("draw_accept", color), Ending("1/2-1/2", "agreement"))
        self.board.agree_draw()

    async def _decline_draw(self, color: bool) -> None:
        if self.draw_offer is not (not color):
            raise GameError(
                409, N_("there is no draw offer from {color} to decline"), color=SIDES[not color]
            )
        await self._store_event(self._event("draw_decline", color))
        self.draw_offer = None

    async def _claim_draw(self, color: bool) -> None:
        self._check_turn(color)
        claim = self.board.outcome(claim_draw=True)
        if claim is None or self.board.outcome() is not None:
            raise GameError(
                409,
                N_("{color} has no draw to claim in {fen}"),
                color=SIDES[color],
                fen=repr(self.board.fen()),
            )
        ending = Ending(claim.result(), claim.termination.value)
        await self._store_event(self._event("draw_claim", color), ending)

    async def _declare_count(self, color: bool) -> None:
        await self._count(color, "declare")

    async def _stop_count(self, color: bool) -> None:
        await self._count(color, "stop")

    async def _count(self, color: bool, kind: str) -> None:
        self._check_turn(color)
        board = self.board
        if not self.counts:
            raise GameError(409, N_("{game} has no counting"), game=Term(self.game.title))
        at = len(self.board.move_stack)
        change = board.declare_count if kind == "declare" else board.stop_count
        try:
            change()
        except KradanError as error:
            template = (
                N_("cannot declare a count: {error}")
                if kind == "declare"
                else N_("cannot stop a count: {error}")
            )
            raise GameError(409, template, error=str(error)) from None
        self.board.pop()  # until it is stored
        await self._store_event(self._event(f"count_{kind}", color, {"at": at}))
        change()
        self.version += 1

    async def _takeback(self, color: bool) -> None:
        if not self.is_engine(not color):
            raise GameError(409, N_("a takeback is only for games against the engine"))
        trial = self.board.copy()
        popped = 0
        human_moves = 0
        while trial.move_stack:
            entry = trial.pop()
            popped += 1
            if not isinstance(entry, CountAction) and bool(trial.turn) == color:
                human_moves += 1
                break
        stack = len(trial.move_stack)
        plies = sum(1 for entry in trial.move_stack if not isinstance(entry, CountAction))
        if human_moves == 0 or plies < self.setup_plies:
            raise GameError(409, N_("{color} has no move to take back"), color=SIDES[color])
        row = self._event("takeback", color, {"to_ply": plies, "stack": stack})
        await self.rooms.store.take_back(self.row.id, row, plies, stack)
        self.seq += 1
        for _ in range(popped):
            self.board.pop()
        del self.ucis[plies:], self.sans[plies:], self.move_clocks[plies:]
        del self.positions[plies + 1 :]
        if self.thai is not None:
            del self.thai[plies:]
        self.row.ply = plies
        self.version += 1
        self.draw_offer = None
        self.restore_clock()
        self.run_clock()

    def restore_clock(self) -> None:
        if self.clock is None:
            return
        base = self.clock.base_ms
        white, black = self.move_clocks[-1] if self.move_clocks else (base, base)
        self.clock.ms = {
            True: base if white is None else white,
            False: base if black is None else black,
        }
        self.clock.since = time.monotonic()

    # --- after a change -----------------------------------------------------------------------

    async def _announce(self) -> dict[str, Any]:
        """Start what the new position needs (the engine, the flag timer), tell every
        subscriber, and return the game."""
        self.schedule()
        state = self.state()
        await self.rooms.broadcast(self, state)
        return state

    def schedule(self) -> None:
        """Start what the position needs: the engine when it is to move, the flag timer when
        a clock runs."""
        if self.flag_task is not None and self.flag_task is not asyncio.current_task():
            self.flag_task.cancel()
        self.flag_task = None
        if not self.playing:
            return
        if self.in_setup:
            for color in (True, False):
                if self.is_engine(color) and color not in self.engine_setup:
                    self.engine_setup.add(color)
                    self.rooms.spawn(self, self._engine_hands_in(color))
            return
        turn = bool(self.board.turn)
        if self.is_engine(turn) and self.engine_version != self.version:
            self.engine_version = self.version
            self.rooms.spawn(self, self._engine_moves(self.version))
        if self.clock is not None and self.clock.running is not None:
            self.flag_task = self.rooms.spawn(self, self._flag_timer(self.version))

    async def _flag_timer(self, version: int) -> None:
        clock = self.clock
        while clock is not None and clock.running is not None and version == self.version:
            left = clock.left(clock.running)
            if left <= 0:
                await self._flag_now(version)
                return
            await asyncio.sleep(left / 1000 + 0.005)

    async def _engine_hands_in(self, color: bool) -> None:
        """The engine's screened setup: one of the library's preset arrangements."""
        async with self.lock:
            if not self.playing or not self.in_setup or color in self.arrangements:
                return
            await self._hand_in(color, secrets.choice(sorted(PRESETS)))
            await self._announce()

    def engine_request(self, level: int, **extra: Any) -> EngineRequest:
        history = [
            entry.uci() if not isinstance(entry, CountAction) else f"count:{entry.kind}"
            for entry in self.board.move_stack
        ]
        options = dict(self.row.options)
        # the worker replays the history move by move: a screened setup's drops, replayed
        # alternately, are the same moves under the alternate setup, and play goes on the same
        options.pop("sittuyin_setup", None)
        clock = self.clock
        return EngineRequest(
            variant=self.game.name,
            options=options,
            start_fen=self.row.start_fen,
            history=history,
            level=level,
            white_ms=None if clock is None else clock.left(True),
            black_ms=None if clock is None else clock.left(False),
            increment_ms=0 if clock is None else clock.increment_ms,
            extra=extra,
        )

    async def _engine_moves(self, version: int) -> None:
        color = bool(self.board.turn)
        request = self.engine_request(self.players[color].level)
        for attempt in range(3):
            try:
                answer = await self.rooms.pool.choose_move(request)
                break
            except BrokenProcessPool:
                log.warning("the engine's worker died (game %s); restarting it", self.public_id)
                self.rooms.pool.close()
                if attempt == 2:
                    return
        else:  # pragma: no cover
            return
        if answer.move is None:
            return
        async with self.lock:
            if version != self.version or not self.playing or bool(self.board.turn) != color:
                return
            if await self._flagged():
                await self._announce()
                return
            try:
                if answer.count is not None:  # declared counting: the count comes first
                    await self._count(color, answer.count)
                await self._move(color, answer.move)
            except GameError as error:  # pragma: no cover - the engine plays legal moves
                log.error("game %s: the engine's move was refused: %s", self.public_id, error)
                return
            await self._announce()

    async def _engine_answers_draw(self, version: int, engine: bool) -> None:
        request = self.engine_request(self.players[engine].level, engine_white=engine)
        try:
            accepts = await self.rooms.pool.accepts_draw(request)
        except BrokenProcessPool:
            self.rooms.pool.close()
            accepts = False
        async with self.lock:
            if not self.playing or self.draw_offer is not (not engine) or version != self.version:
                return
            if accepts:
                await self._accept_draw(engine)
            else:
                await self._decline_draw(engine)
            await self._announce()


def _can(board: Any, change: Callable[[], Any]) -> bool:
    try:
        change()
    except KradanError:
        return False
    board.pop()
    return True


def _screened_rules(board: Any) -> bool:
    """Whether ``board`` plays Sittuyin's screened setup."""
    setup = getattr(getattr(board, "variant", None), "sittuyin_setup", None)
    return str(getattr(setup, "value", setup)) == "screened"


def _screened(board: Any) -> bool:
    """Whether ``board`` starts Sittuyin's screened setup: both sides hold their camp in hand."""
    return _screened_rules(board) and bool(board.hand(True)) and bool(board.hand(False))


def preset_arrangement(name: str, color: bool) -> dict[str, str] | None:
    """The library's preset arrangement ``name`` for ``color`` (Black's is White's mirrored)."""
    preset = PRESETS.get(name)
    if preset is None:
        return None
    if color:
        return dict(preset)
    return {square[0] + str(9 - int(square[1])): letter for square, letter in preset.items()}


def _why_illegal(error: Exception, text: str, fen: str) -> Message | str:
    """Why kradan refused the move ``text`` in ``fen``: its usual "illegal move ... in ..." as
    a message that is translated, any other reason as kradan wrote it (in English)."""
    usual = Message(N_("illegal move {move} in {fen}"), move=repr(text), fen=repr(fen))
    return usual if str(usual) == str(error) else str(error)


def _clock_comment(ms: int) -> str:
    seconds = max(0, ms) / 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"[%clk {int(hours)}:{int(minutes):02d}:{seconds:04.1f}]"


def _pgn_name(player: Player) -> str:
    return "player" if player.kind == "human" else f"kradan level {player.level}"


def start_turn(room: Room) -> bool:
    """The side to move at the game's start."""
    board = new_board(room.row.variant, room.row.start_fen, **room.row.options)
    return bool(board.turn)


__all__ = ["Room", "RoomHost", "preset_arrangement", "start_turn"]
