"""Engine matches: games between two players from a set of openings, in parallel processes, with
kradan adjudicating by its own rules, and an Elo estimate with its error margin.

Each opening is played twice, the players changing colours. Clocks are kept by the runner: a
player whose thinking time exceeds its clock loses on time; an illegal move or a crash loses;
a game longer than ``max_plies`` is adjudicated a draw, and on request a game whose result both
players' scores agree on ends there (:mod:`kradan.runners.adjudication`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..board import Board
from ..engine.types import Limit
from ..errors import KradanError, UsageError
from ..executors import Executor, in_order, make_executor, run_tasks
from ..games import AnyBoard, Game, canonical_name, find_game, new_board
from ..pgn import game_text
from ..sittuyin_setup import PRESETS
from .adjudication import Adjudicator, DrawRule, ResignRule, centipawns
from .players import Player, make_player

WHITE_OPENING_MOVES = [
    "a3a4",
    "b3b4",
    "c3c4",
    "d3d4",
    "e3e4",
    "f3f4",
    "g3g4",
    "h3h4",
    "b1d2",
    "g1e2",
]
BLACK_OPENING_MOVES = [
    "a6a5",
    "b6b5",
    "c6c5",
    "d6d5",
    "e6e5",
    "f6f5",
    "g6g5",
    "h6h5",
    "b8d7",
    "g8e7",
]


def _repeated(lines: list[list[str]], count: int) -> list[list[str]]:
    return (lines * (count // max(1, len(lines)) + 1))[:count]


def two_ply_openings(game: Game, count: int) -> list[list[str]]:
    """Every line of two plies from the start (any game; Alquerque's openings)."""
    start = game.new_board()
    lines = []
    for first in list(start.legal_moves):
        start.push(first)
        lines += [[first.uci(), second.uci()] for second in start.legal_moves]
        start.pop()
    return _repeated(lines, count)


def quiet_openings(game: Game, count: int) -> list[list[str]]:
    """Two quiet first moves, one for each side (the chess games with a fixed start)."""
    pairs = [[w, b] for i, w in enumerate(WHITE_OPENING_MOVES) for b in BLACK_OPENING_MOVES[i:]]
    pairs += [[w, b] for i, w in enumerate(WHITE_OPENING_MOVES) for b in BLACK_OPENING_MOVES[:i]]
    return _repeated(pairs, count)


def setup_openings(game: Game, count: int) -> list[list[str]]:
    """Sittuyin's setup presets, paired every way, as their drops."""
    openings = []
    for white, black in [(w, b) for w in PRESETS for b in PRESETS]:
        board = Board(variant=game.name, sittuyin_setup="screened")
        board.submit_setup(True, white)
        board.submit_setup(False, black)
        openings.append([move.uci() for move in board.move_stack])
    return _repeated(openings, count)


def default_openings(variant: str, count: int) -> list[list[str]]:
    """``count`` short openings (UCI move lists) by the game's ``openings`` hook: two quiet first
    moves for the chess games, the setup presets paired for Sittuyin, every two-ply line for
    Alquerque and any game without a hook."""
    game = find_game(variant)
    make = game.hook("openings") or two_ply_openings
    lines: list[list[str]] = make(game, count)
    return lines


@dataclass(frozen=True)
class TimeControl:
    """``base`` seconds each plus ``increment`` per move."""

    base: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``"10+0.1"`` or ``"60"``.

        :raises UsageError: for anything else (a ``ValueError``), naming ``text``.
        """
        base, _, inc = text.partition("+")
        try:
            control = cls(float(base), float(inc or 0))
        except ValueError:
            raise UsageError(f"time control {text!r}: expected SECONDS[+INCREMENT]") from None
        if not (math.isfinite(control.base) and math.isfinite(control.increment)):
            raise UsageError(f"time control {text!r}: the numbers must be finite")
        if control.base <= 0 or control.increment < 0:
            raise UsageError(f"time control {text!r}: the base must be positive")
        return control

    def __str__(self) -> str:
        return f"{self.base:g}+{self.increment:g}"


def split_player_time(spec: str) -> tuple[str, TimeControl | None]:
    """A player spec without its own time control, and that control: ``kradan:tc=10+0.1``,
    ``kradan:level=5,tc=10+0.1`` and ``uci:/path/engine:tc=2.5+0.025`` give the player and
    10+0.1 or 2.5+0.025; a spec without ``tc=`` gives itself and ``None``.

    :raises UsageError: for a ``tc=`` that is not a time control.
    """
    kind, _, rest = spec.partition(":")
    if kind.strip().lower() == "kradan":
        options = [part for part in rest.split(",") if part.strip()]
        timed = [part for part in options if part.strip().lower().startswith("tc=")]
        if not timed:
            return spec, None
        kept = [part for part in options if part not in timed]
        control = TimeControl.parse(timed[-1].split("=", 1)[1].strip())
        return (f"{kind}:{','.join(kept)}" if kept else kind), control
    head, sep, tail = spec.rpartition(":")
    if sep and tail.strip().lower().startswith("tc=") and head:
        return head, TimeControl.parse(tail.split("=", 1)[1].strip())
    return spec, None


@dataclass
class GameRecord:
    """One finished game."""

    white: str
    black: str
    result: str
    termination: str
    moves: list[str]
    opening: list[str]
    pgn: str = ""
    first_is_white: bool = True

    @property
    def first_player_points(self) -> float:
        if self.result == "1/2-1/2":
            return 0.5
        first_won = (self.result == "1-0") == self.first_is_white
        return 1.0 if first_won else 0.0


@dataclass
class MatchResult:
    games: list[GameRecord] = field(default_factory=list)

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.first_player_points == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.first_player_points == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.first_player_points == 0.0)

    @property
    def score(self) -> float:
        """The first player's share of the points (0..1)."""
        return (self.wins + 0.5 * self.draws) / len(self.games) if self.games else 0.0

    def elo(self) -> tuple[float, float]:
        """(Elo difference of the first player, its 95% margin) from the game results."""
        return elo_estimate(self.wins, self.draws, self.losses)


def _elo(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_estimate(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The Elo difference for a score and the half-width of its 95% confidence interval."""
    n = wins + draws + losses
    if n == 0:
        return 0.0, float("inf")
    p = (wins + 0.5 * draws) / n
    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * p**2) / n
    if variance == 0:  # every game the same result: estimate as if one more game were halved
        p = (wins + 0.5 * draws + 0.5) / (n + 1)
        variance = p * (1 - p)
    sigma = math.sqrt(variance / n)
    low, high = _elo(p - 1.96 * sigma), _elo(p + 1.96 * sigma)
    return _elo(p), (high - low) / 2


@dataclass(frozen=True)
class GameTask:
    first: str
    second: str
    variant: str
    opening: tuple[str, ...]
    first_is_white: bool
    control: TimeControl
    max_plies: int
    seed: int
    #: the position the game starts from (FEN or Alquerque position text); the start when None
    start: str | None = None
    #: the game's number in the match, from 1 (its PGN ``[Round]``); 0: none
    round: int = 0
    #: the first and second player's own time controls (time odds); ``None``: ``control``
    first_control: TimeControl | None = None
    second_control: TimeControl | None = None
    #: a node budget for every move instead of the clocks (0: the clocks)
    nodes: int = 0
    #: ending the game early when both players' scores agree (:mod:`kradan.runners.adjudication`)
    resign: ResignRule | None = None
    draw: DrawRule | None = None

    def controls(self) -> dict[bool, TimeControl]:
        """Each colour's time control (``True``: White)."""
        first = self.first_control or self.control
        second = self.second_control or self.control
        return {self.first_is_white: first, not self.first_is_white: second}


def play_game(task: GameTask) -> GameRecord:
    """Play one game (runs in a worker process). A player that fails (cannot start, stops
    answering, sends a wrong move) loses the game, which names its error; the match goes on."""
    players: list[Player] = []
    try:
        for spec, seed in ((task.first, task.seed), (task.second, task.seed + 1)):
            try:
                players.append(make_player(spec, seed=seed, game=task.variant))
            except KradanError as error:
                first_failed = not players
                return _record(task, new_board(task.variant, task.start), [task.first, task.second],
                               ("0-1" if first_failed == task.first_is_white else "1-0"),
                               f"{spec} failed: {error}")  # fmt: skip
        first, second = players
        if first.name == second.name and task.first != task.second:
            # two builds of one engine (a change under test): the game file must tell them apart
            first.name, second.name = (
                f"{first.name} ({task.first})",
                f"{second.name} ({task.second})",
            )
        white, black = (first, second) if task.first_is_white else (second, first)
        board = new_board(task.variant, task.start)
        for uci in task.opening:
            board.push_uci(uci)
        result, termination = _play(board, white, black, task)
        return _record(task, board, [first.name, second.name], result, termination)
    finally:
        for player in players:
            player.close()


def _play(board: AnyBoard, white: Player, black: Player, task: GameTask) -> tuple[str, str]:
    """Play ``board`` out between ``white`` and ``black`` as ``task`` says (on their clocks, or
    with a node budget a move; adjudicated at its move limit, and by the players' scores when
    it asks): the result and the termination."""
    controls, nodes = task.controls(), task.nodes
    clocks = {side: controls[side].base for side in (True, False)}
    adjudicator = Adjudicator(task.resign, task.draw)
    for side, player in ((True, white), (False, black)):
        try:
            player.new_game()
        except KradanError as error:
            return ("0-1" if side else "1-0"), f"{player.name} failed: {error}"
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result = outcome.result()  # a replayed stalemate ("*") counts as a draw in a match
            return (result if result != "*" else "1/2-1/2"), outcome.termination.value
        if len(board.move_stack) >= task.max_plies:
            return "1/2-1/2", "adjudicated: move limit"
        side = board.turn
        player = white if side else black
        lost = "0-1" if side else "1-0"
        limit = Limit(nodes=nodes) if nodes else Limit(
            white_clock=clocks[True], black_clock=clocks[False],
            white_inc=controls[True].increment, black_inc=controls[False].increment,
        )  # fmt: skip
        start = time.perf_counter()
        try:
            answer = player.choose_move(board, limit)
        except KradanError as error:
            return lost, f"{player.name} failed: {error}"
        if not nodes:
            clocks[side] -= time.perf_counter() - start
            if clocks[side] < 0:
                return lost, "time forfeit"
            clocks[side] += controls[side].increment
        if answer.resigned or answer.move is None:
            return lost, "resignation"
        move: Any = answer.move  # a move of this board's game once found among its moves
        if move not in board.legal_moves:
            return lost, f"illegal move {move}"
        move_number = board.fullmove_number
        board.push(move)
        if task.resign is not None or task.draw is not None:
            ended = adjudicator.record(side, centipawns(answer.info), move_number)
            if ended is not None and board.outcome(claim_draw=True) is None:
                return ended


def _record(
    task: GameTask, board: AnyBoard, names: list[str], result: str, termination: str
) -> GameRecord:
    """The finished game as the match keeps it: ``names`` are the first and second player's."""
    white, black = names if task.first_is_white else names[::-1]
    controls = task.controls()
    headers = {"White": white, "Black": black, "Result": result, "Termination": termination}
    if task.nodes:  # no clock: "-", and the budget in a tag of its own
        headers["TimeControl"] = "-"
        headers["Nodes"] = str(task.nodes)
    elif controls[True] == controls[False]:
        headers["TimeControl"] = str(controls[True])
    else:  # time odds: each side's own, as cutechess writes them
        headers["WhiteTimeControl"] = str(controls[True])
        headers["BlackTimeControl"] = str(controls[False])
    if task.round:
        headers["Round"] = str(task.round)
    return GameRecord(
        white,
        black,
        result,
        termination,
        [m.uci() for m in board.move_stack],
        list(task.opening),
        game_text(board, headers),
        task.first_is_white,
    )


#: an opening: the position it starts from (``None``: the game's start) and UCI moves from there
Opening = tuple[str | None, list[str]]


#: lines drawn from an opening book for a match, and their length in plies
BOOK_OPENINGS, BOOK_OPENING_PLIES = 500, 8


def load_openings(path: str, variant: str) -> list[Opening]:
    """Openings from a file: the main lines of a PGN file's games, lines drawn from an
    opening book (:mod:`kradan.engine.book`: up to 500 different lines of 8 plies, each move drawn
    with the book's weights), or one per line of a text file: a FEN, or a UCI line
    (``startpos moves e3e4 d6d5``, ``fen <FEN> moves ...``).

    :raises PgnError: for a game of another variant or an unreadable line, naming it;
    :raises BookError: for a book of another game.
    """
    from ..engine.book import MAGIC, Book, BookError

    try:
        with open(path, "rb") as handle:
            is_book = handle.read(len(MAGIC)) == MAGIC
    except OSError:
        is_book = False  # said below, where the file is read
    if is_book:
        book = Book.read(path)
        if book.game != canonical_name(variant):
            raise BookError(f"{path!r} is a {book.game} book, not {canonical_name(variant)}")
        lines = book.lines(BOOK_OPENINGS, BOOK_OPENING_PLIES)
        if not lines:
            raise BookError(f"{path!r} knows no move at the start position")
        return [(None, line) for line in lines]
    from .. import pgn
    from ..errors import InputFileError, PgnError
    from ..pgn import formats
    from ..pgn.tree import position_text

    wanted = canonical_name(variant)
    games: list[pgn.Game] = []
    try:
        with open(path, encoding="utf-8-sig") as handle:
            if path.lower().endswith(".pgn"):
                while (
                    game := pgn.read_game(handle, default_variant=wanted, strict=True)
                ) is not None:
                    games.append(game)
            else:
                for number, line in enumerate(handle, start=1):
                    text = line.strip()
                    if not text or text.startswith("#"):
                        continue
                    first = text.split()[0]
                    if "/" in first and first not in ("fen", "startpos", "position"):
                        text = f"fen {text}"
                    try:
                        games.append(formats.game_from_uci(text, wanted))
                    except PgnError as error:
                        raise PgnError(f"{path}:{number}: {error}") from error
    except OSError as error:
        raise InputFileError(f"cannot read {path!r}: {error.strerror}") from error
    openings: list[Opening] = []
    for number, game in enumerate(games, start=1):
        board = game.board()
        if board.variant.name != wanted:
            raise PgnError(f"opening {number} of {path!r} is {board.variant.name}, not {wanted}")
        start = position_text(board)
        default = position_text(new_board(wanted))
        openings.append((None if start == default else start,
                         [move.uci() for move in game.mainline_moves()]))  # fmt: skip
    if not openings:
        raise PgnError(f"{path!r} holds no opening")
    return openings


#: how far a game's node budget strays from the one asked for (both ways), so that an opening
#: played again is not the same game again
NODE_SPREAD = 0.1


def tasks(
    first: str, second: str, variant: str, games: int, control: TimeControl,
    max_plies: int = 400, openings: list[Opening] | None = None, nodes: int = 0,
    resign: ResignRule | None = None, draw: DrawRule | None = None, skip_openings: int = 0,
) -> list[GameTask]:  # fmt: skip
    """The games of a match: each opening twice, with colours swapped (``openings`` in turn,
    or kradan's own short ones). A player's own time control (``kradan:tc=10+0.1``, see
    :func:`split_player_time`) overrides ``control`` for that player. With ``nodes`` every move
    gets a node budget instead of a clock: within :data:`NODE_SPREAD` of ``nodes``, drawn for
    each opening (both colours alike), so the games repeat exactly when the match is run again.
    ``resign`` and ``draw`` end a game early when both players' scores agree
    (:mod:`kradan.runners.adjudication`). ``skip_openings`` starts that many openings (twice as many
    games) into the schedule, with the rounds, seeds and budgets those games would have had:
    a second run goes on where the first stopped instead of replaying its games.

    :raises UsageError: for a player's ``tc=`` that is not a time control, and for ``nodes``
    with a ``tc=`` or an XBoard player (XBoard has no node limit).
    """
    first, first_control = split_player_time(first)
    second, second_control = split_player_time(second)
    if nodes < 0:
        raise UsageError(f"--nodes {nodes} must be positive")
    if skip_openings < 0:
        raise UsageError(f"--skip-openings {skip_openings} must not be negative")
    if nodes and (first_control or second_control):
        raise UsageError("--nodes replaces the clocks: a player's tc= cannot go with it")
    for spec in (first, second):
        if nodes and spec.strip().lower().startswith("xboard:"):
            raise UsageError(f"--nodes: {spec!r} is an XBoard engine, which has no node limit")
    first_index = 2 * skip_openings
    if openings is None:
        count = (first_index + games + 1) // 2
        openings = [(None, moves) for moves in default_openings(variant, count)]
    out = []
    for index in range(first_index, first_index + games):
        start, moves = openings[(index // 2) % len(openings)]
        budget = 0
        if nodes:
            spread = NODE_SPREAD * (2 * random.Random(index // 2).random() - 1)
            budget = max(1, round(nodes * (1 + spread)))
        out.append(GameTask(first, second, variant, tuple(moves), index % 2 == 0, control,
                            max_plies, seed=index, start=start, round=index + 1,
                            first_control=first_control,
                            second_control=second_control, nodes=budget, resign=resign,
                            draw=draw))  # fmt: skip
    return out


def run_match(
    games: list[GameTask],
    concurrency: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
    *,
    executor: Executor | None = None,
    on_done: Callable[[int, GameRecord], None] | None = None,
    stop: Callable[[MatchResult], bool] | None = None,
) -> MatchResult:
    """Play ``games``: here, one after another, when ``concurrency`` is 1 and no ``executor`` is
    given; else on ``executor`` (or a local pool of ``concurrency`` processes), at most
    ``concurrency`` at a time. ``on_done(count, record)`` hears of each game as it ends, and
    ``on_game`` of each in round order (the order of ``games``), so that a PGN file written
    from it holds every game once, in order, even when a worker died and its game was
    replayed elsewhere. The result's games are in round order too. When ``stop(result)`` (asked
    after each game in round order) says so, the games still running are cancelled and the
    match ends there (an SPRT that has decided)."""
    result = MatchResult()
    played: Generator[tuple[int, GameRecord], None, None]
    played = in_order(_play_all(games, concurrency, executor, on_done))
    try:
        for _index, record in played:
            result.games.append(record)
            if on_game is not None:
                on_game(record)
            if stop is not None and stop(result):
                break
    finally:
        played.close()  # cancels what still runs
    return result


def _play_all(
    games: list[GameTask],
    concurrency: int,
    executor: Executor | None,
    on_done: Callable[[int, GameRecord], None] | None,
) -> Iterator[tuple[int, GameRecord]]:
    """``(round index, record)`` for every game, as each ends."""
    if concurrency <= 1 and executor is None:
        finished = ((index, play_game(task)) for index, task in enumerate(games))
        yield from _counted(finished, on_done)
        return
    own = executor is None
    pool = executor if executor is not None else make_executor("local", concurrency)
    try:
        yield from _counted(run_tasks(pool, play_game, games, in_flight=concurrency), on_done)
    finally:
        if own:
            pool.shutdown()


def _counted(
    finished: Iterator[tuple[int, GameRecord]], on_done: Callable[[int, GameRecord], None] | None
) -> Iterator[tuple[int, GameRecord]]:
    for count, (index, record) in enumerate(finished, start=1):
        if on_done is not None:
            on_done(count, record)
        yield index, record
