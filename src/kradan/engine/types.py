"""The engine's value types: limits, scores, search reports and results, and the clock budget.

Nothing here is compiled, so the external-engine client, the players and the front ends can
use these without loading a search.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from ..alquerque.move import Move as AlquerqueMove
from ..arguments import check_color
from ..move import Move

#: the kernels' score of a mate at the root (a mate n plies away scores ``MATE - n``)
MATE = 30_000
#: the largest contempt, in centipawns: a draw counted worse than a pawn down would throw
#: games away
MAX_CONTEMPT = 100
#: internal scores beyond this are mates
MATE_BOUND = MATE - 1_000
#: what a mate is worth as one number (:attr:`Score.value`): beyond any material
MATE_VALUE = 100_000


@dataclass(frozen=True)
class Score:
    """A search score: centipawns for the side to move, or moves to mate (negative: mated)."""

    cp: int | None = None
    mate: int | None = None

    @classmethod
    def from_internal(cls, value: int) -> Score:
        """The score a kernel returns (mates near ``±MATE``) as centipawns or moves to mate."""
        if value > MATE_BOUND:
            return cls(mate=(MATE - value + 1) // 2)
        if value < -MATE_BOUND:
            return cls(mate=-((MATE + value + 1) // 2))  # odd: lost by its own move (Alquerque)
        return cls(cp=value)

    @property
    def value(self) -> int:
        """The score as one number that orders scores: any win above any centipawns above any
        loss, a quicker win higher and a quicker loss lower."""
        if self.mate is not None:
            return MATE_VALUE - self.mate if self.mate > 0 else -MATE_VALUE - self.mate
        return self.cp or 0

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.mate is not None else f"cp {self.cp}"

    def __neg__(self) -> Score:
        """The same score from the other side: ``-cp``, or mated in as many moves. Mated on the
        board (``mate 0``) turns into the win already there, :data:`MATE_VALUE` centipawns
        (as :func:`outcome_score` gives it), so that :attr:`value` changes sign."""
        if self.mate == 0:
            return Score(cp=MATE_VALUE)
        if self.mate is not None:
            return Score(mate=-self.mate)
        return Score(cp=-(self.cp or 0))


@dataclass(frozen=True)
class PovScore:
    """A score and the side it is for, as python-chess's ``PovScore``: ``relative`` is for
    ``turn`` (the side to move when it was found); ``pov(color)`` turns it to any side. Read as
    a plain score (``cp``, ``mate``, ``value``, ``str``), it is the relative one.

    >>> PovScore(Score(cp=50), False).white()
    Score(cp=-50, mate=None)
    >>> PovScore(Score(mate=2), True).black(), str(PovScore(Score(mate=2), True))
    (Score(cp=None, mate=-2), 'mate 2')
    """

    relative: Score
    turn: bool

    def pov(self, color: bool) -> Score:
        """The score from ``color``'s point of view (``True``: White, ``False``: Black).

        :raises InvalidArgumentError: for a colour that is neither.
        """
        return self.relative if check_color(color) == bool(self.turn) else -self.relative

    def white(self) -> Score:
        """The score from White's point of view."""
        return self.pov(True)

    def black(self) -> Score:
        """The score from Black's point of view."""
        return self.pov(False)

    def is_mate(self) -> bool:
        """Whether the score is a mate (for either side)."""
        return self.relative.mate is not None

    @property
    def cp(self) -> int | None:
        """The relative score's centipawns (``None`` for a mate)."""
        return self.relative.cp

    @property
    def mate(self) -> int | None:
        """The relative score's moves to mate (negative: mated; ``None``: centipawns)."""
        return self.relative.mate

    @property
    def value(self) -> int:
        """The relative score as one number (:attr:`Score.value`)."""
        return self.relative.value

    def __str__(self) -> str:
        return str(self.relative)


@dataclass(frozen=True)
class Limit:
    """When to stop: any of depth, nodes, seconds for this move, or a clock with increment."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None
    white_clock: float | None = None
    black_clock: float | None = None
    white_inc: float = 0.0
    black_inc: float = 0.0
    moves_to_go: int | None = None


MoveT = TypeVar("MoveT", Move, AlquerqueMove)


@dataclass(frozen=True)
class SearchInfo(Generic[MoveT]):
    """What one completed iteration found (``pv`` holds the game's own moves), from kradan's
    search and from another engine's report alike (:mod:`kradan.engine.client`).

    ``score`` is for the side to move at the root and knows that side (``score.white()``);
    ``multipv`` is the line's rank (1: the best); ``tbhits``, ``hashfull`` and ``wdl`` (wins,
    draws and losses per mille for the side to move) are ``None`` where not reported, and
    ``lowerbound``/``upperbound`` mark a score the search only bounded. A number another engine
    did not report is 0. ``info["score"]``, ``info.get("tbhits")`` read it as python-chess's
    info dictionary (:meth:`as_dict`).
    """

    depth: int
    seldepth: int
    score: PovScore
    pv: list[MoveT]
    nodes: int
    seconds: float
    multipv: int = 1
    tbhits: int | None = None
    hashfull: int | None = None
    wdl: tuple[int, int, int] | None = None
    lowerbound: bool = False
    upperbound: bool = False

    @property
    def nps(self) -> int:
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0

    @property
    def time(self) -> float:
        """The seconds the search had taken (python-chess's name for :attr:`seconds`)."""
        return self.seconds

    def as_dict(self) -> dict[str, Any]:
        """The report under python-chess's keys (``depth``, ``seldepth``, ``score``, ``pv``,
        ``nodes``, ``nps``, ``time``, ``multipv``, and ``tbhits``, ``hashfull``, ``wdl``,
        ``lowerbound``, ``upperbound`` where known), with kradan's values."""
        found: dict[str, Any] = {
            "depth": self.depth,
            "seldepth": self.seldepth,
            "score": self.score,
            "pv": list(self.pv),
            "nodes": self.nodes,
            "nps": self.nps,
            "time": self.seconds,
            "multipv": self.multipv,
        }
        for key in ("tbhits", "hashfull", "wdl"):
            if getattr(self, key) is not None:
                found[key] = getattr(self, key)
        for key in ("lowerbound", "upperbound"):
            if getattr(self, key):
                found[key] = True
        return found

    def __getitem__(self, key: str) -> Any:
        return self.as_dict()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.as_dict().get(key, default)


@dataclass
class SearchResult(Generic[MoveT]):
    """A finished search: the move to play, the last iteration's report and all of them."""

    move: MoveT | None
    info: SearchInfo[MoveT] | None
    ponder: MoveT | None = None
    history: list[SearchInfo[MoveT]] = field(default_factory=list)


@dataclass
class PlayResult:
    """An engine's answer: its move, and what it said about the position while thinking."""

    move: Move | None
    #: python-chess's info keys with kradan's values (:meth:`SearchInfo.as_dict`: ``score``
    #: a :class:`PovScore`, ``pv`` moves), and ``book``, ``draw_offered`` where they apply
    info: dict[str, object] = field(default_factory=dict)
    resigned: bool = False
    draw_offered: bool = False
    #: a count to declare (``"declare"``) or stop (``"stop"``) before the move, in declared
    #: counting (:mod:`kradan.engine.counting_policy`); the move is chosen with it made
    count: str | None = None
    #: the reply the engine expects (its line's second move), when it says
    ponder: Move | None = None


class GameSearch(Protocol):
    """What every game's search offers (each takes its own game's boards)."""

    def best_move(
        self, board: Any, limit: Limit | None = None, *, armed: bool = False
    ) -> SearchResult[Any]: ...

    def search(
        self, board: Any, limit: Limit | None = None, *, armed: bool = False
    ) -> Iterator[SearchInfo[Any]]: ...

    def search_multipv(
        self, board: Any, limit: Limit | None, lines: int, *, armed: bool = False
    ) -> Iterator[list[SearchInfo[Any]]]: ...

    def arm(self) -> None: ...

    def stop(self) -> None: ...

    def clear(self) -> None: ...

    def resize(self, hash_mb: int) -> None: ...


def outcome_score(board: Any) -> Score | None:
    """The score of a finished game for its side to move, as a search would give it: 0 for a
    draw, mated (``mate 0``) for a loss, :data:`MATE_VALUE` centipawns for the rare win of the
    side to move (by a first check, say); ``None`` while the game goes on."""
    outcome = board.outcome()
    if outcome is None:
        return None
    if outcome.winner is None:
        return Score(cp=0)
    return Score(cp=MATE_VALUE) if outcome.winner == board.turn else Score(mate=0)


def time_budget(limit: Limit, white_to_move: bool) -> tuple[float | None, float | None]:
    """(soft, hard) seconds: stop starting new iterations after soft; stop outright at hard."""
    if limit.time is not None:
        return limit.time, limit.time
    clock = limit.white_clock if white_to_move else limit.black_clock
    if clock is None:
        return None, None
    inc = limit.white_inc if white_to_move else limit.black_inc
    moves = min(limit.moves_to_go or 35, 35)
    # keep a reserve for the round trip through a GUI or match runner, larger on a short clock
    reserve = min(0.3, 0.1 + clock / 20)
    usable = max(0.0, clock - reserve)
    # a clock down into its reserve spends less than the increment, so that it fills again
    # (a slow round trip or a busy machine would otherwise drain it move after move)
    share = 0.7 * min(1.0, usable / reserve)
    soft = max(0.002, usable / moves + share * inc)
    hard = max(0.005, min(usable / 3 + inc / 2, 2.5 * soft))
    return min(soft, hard), hard


__all__ = [
    "MATE",
    "MATE_BOUND",
    "MATE_VALUE",
    "MAX_CONTEMPT",
    "GameSearch",
    "Limit",
    "MoveT",
    "PlayResult",
    "PovScore",
    "Score",
    "SearchInfo",
    "SearchResult",
    "outcome_score",
    "time_budget",
]
