"""``kradan uci``: the engine over the Universal Chess Interface, as GUIs and match runners use it.

Fairy-Stockfish's conventions for these games: ``setoption name UCI_Variant value makruk``
(every game kradan knows), FEN and UCI move strings as in :mod:`kradan.notation`. Alquerque
(``alquerque``, ``alquerque-bell``) takes its own position text after ``position fen`` and
its moves as the points visited (``b3d3d5``, ``hc3,b2c3``), as :mod:`kradan.alquerque` writes.
Besides the standard commands it answers ``go perft N`` and ``d`` (show the position). A
malformed or unknown command is reported on an ``info string`` line; the engine never exits on
bad input. The search runs in its own thread, so ``stop``, ``isready`` and ``quit`` are answered
while it thinks.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ... import __version__
from ...games import AnyBoard, canonical_name, game_names
from ..book import Book
from ..levels import (
    MAX_LEVEL,
    level_for_rating,
    level_limit,
    level_lines,
    level_rating,
    pick_move,
)
from ..types import MAX_CONTEMPT, Limit, SearchInfo
from .serve import serve
from .session import (
    DEFAULT_HASH_MB,
    DEFAULT_TABLES,
    EngineSession,
    clipped,
    describe_tables,
    tables_directory,
    whole_number,
)

ENGINE_NAME = f"kradan {__version__}"


@dataclass
class Options:
    hash_mb: int = DEFAULT_HASH_MB
    multipv: int = 1
    level: int = MAX_LEVEL
    limit_strength: bool = False
    elo: int = level_rating(MAX_LEVEL)
    #: the endgame tables' directory (``None``: the default; ``False``: none)
    egtb_path: Path | bool | None = None
    egtb_depth: int = 1
    #: play from the opening book (``BookFile``) while it knows the position
    own_book: bool = False
    book_file: str = ""
    #: the evaluation's weights file (``EvalWeights``; empty: kradan's own)
    eval_weights: str = ""
    #: centipawns a draw by repetition or count is worse than even (``Contempt``)
    contempt: int = 0
    #: the evaluation network's file (``EvalFile``; ``<default>``: kradan's own, ``<none>``:
    #: the weighted terms)
    eval_file: str = "<default>"
    #: answer proven positions (Alquerque under Bell's rules) from the solved strategy
    #: (``SolvedTable``)
    solved_table: bool = True


def format_info(info: SearchInfo[Any], multipv: int | None = None) -> str:
    """An ``info`` line: depth, seldepth, score, nodes, nps, time, pv."""
    parts = [f"info depth {info.depth} seldepth {info.seldepth}"]
    if multipv is not None:
        parts.append(f"multipv {multipv}")
    parts.append(f"score {info.score}")
    parts.append(f"nodes {info.nodes} nps {info.nps} time {int(info.seconds * 1000)}")
    if info.pv:
        parts.append("pv " + " ".join(move.uci() for move in info.pv))
    return " ".join(parts)


class UciEngine(EngineSession):
    """One UCI session: reads commands, writes answers through ``write``."""

    def __init__(self, write: Callable[[str], None]) -> None:
        super().__init__(write)
        self.options = Options()
        self._random = random.Random()
        self.book: Book | None = None
        #: a notice from before the GUI's ``uci``, sent after ``uciok`` (a GUI reads nothing
        #: before it asks); ``None`` once the handshake is done
        self._before_uci: list[str] | None = []
        self._notice_lock = threading.Lock()

    INSTANT = frozenset({"quit", "uci", "isready", "debug", "register"})

    def notice(self, message: str) -> None:
        with self._notice_lock:
            if self._before_uci is not None:
                self._before_uci.append(message)
                return
        self.complain(message)

    DEFERRED = frozenset({"setoption", "position", "ucinewgame"})

    def complain(self, message: str) -> None:
        self.send(f"info string {clipped(message)}")

    def unknown(self, text: str) -> None:
        self.complain(f"unknown command {text!r}")

    def failed(self, text: str, error: Exception) -> None:
        # the reason first: a long command is cut at the end of the line, the reason is not
        self.complain(f"error ({error}) in {text!r}")

    def handler(self, command: str) -> Callable[[str], Any] | None:
        """UCI's commands take the words after the command's name."""
        method: Callable[[list[str]], Any] | None = getattr(self, f"cmd_{command}", None)
        return None if method is None else lambda rest: method(rest.split())

    # --- commands --------------------------------------------------------------------------------

    def cmd_uci(self, args: list[str]) -> None:
        self.send(f"id name {ENGINE_NAME}")
        self.send("id author the kradan developers")
        self.send("option name Hash type spin default 16 min 1 max 4096")
        self.send("option name Threads type spin default 1 min 1 max 1")
        self.send("option name MultiPV type spin default 1 min 1 max 64")
        variants = " ".join(f"var {name}" for name in game_names())
        self.send(f"option name UCI_Variant type combo default makruk {variants}")
        self.send(f"option name Skill Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}")
        self.send("option name UCI_LimitStrength type check default false")
        low, high = level_rating(1), level_rating(MAX_LEVEL)
        self.send(f"option name UCI_Elo type spin default {high} min {low} max {high}")
        self.send(f"option name EgtbPath type string default {DEFAULT_TABLES}")
        self.send("option name EgtbProbeDepth type spin default 1 min 1 max 100")
        self.send("option name OwnBook type check default false")
        self.send("option name BookFile type string default <empty>")
        self.send("option name EvalWeights type string default <default>")
        self.send(f"option name Contempt type spin default 0 min 0 max {MAX_CONTEMPT}")
        self.send("option name EvalFile type string default <default>")
        self.send("option name SolvedTable type check default true")
        self.send("uciok")
        with self._notice_lock:
            waiting, self._before_uci = self._before_uci or [], None
        for message in waiting:
            self.complain(message)

    def cmd_isready(self, args: list[str]) -> None:
        self.ready()  # the endgame tables being read are in memory before the next ``go``
        self.send("readyok")

    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.wait()
        self.searchers.clear()
        self.set_position()

    def cmd_setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name "):
            raise ValueError("expected 'setoption name <name> [value <value>]'")
        name, _, value = text[5:].partition(" value ")
        name = name.strip().lower()
        value = value.strip()
        if name == "hash":
            self.wait()
            self.options.hash_mb = _int(value, 1, 4096)
            self.searchers.resize(self.options.hash_mb)
        elif name == "threads":
            _int(value, 1, 1)
        elif name == "multipv":
            self.options.multipv = _int(value, 1, 64)
        elif name == "uci_variant":
            if canonical_name(value) == self.variant:
                return  # a client that names the game before every move loses no time here
            self.wait()
            self.set_game(value)
            self.searchers.warm(self.board)  # before the GUI's clock starts
        elif name == "skill level":
            self.options.level = _int(value, 1, MAX_LEVEL)
        elif name == "uci_limitstrength":
            self.options.limit_strength = value.lower() == "true"
        elif name == "uci_elo":
            self.options.elo = _int(value, level_rating(1), level_rating(MAX_LEVEL))
        elif name == "egtbpath":
            self.wait()
            self.options.egtb_path = tables_directory(value)
            self.searchers.use_tables(self.options.egtb_path, self.options.egtb_depth)
            self.complain(describe_tables(self.options.egtb_path))
        elif name == "ownbook":
            self.options.own_book = value.lower() == "true"
        elif name == "bookfile":
            self.wait()
            self.book = None
            self.options.book_file = "" if value in ("", "<empty>") else value
            if self.options.book_file:
                self.book = Book.read(self.options.book_file)  # a bad file is said at once
        elif name == "evalweights":
            self.wait()
            path = "" if value in ("", "<default>", "<empty>") else value
            try:
                self.searchers.use_weights(path or None)  # a bad file is said at once
            except OSError as error:
                raise ValueError(f"cannot read weights {path!r}: {error.strerror}") from error
            self.options.eval_weights = path
        elif name == "evalfile":
            self.wait()
            chosen = value or "<default>"
            if chosen.lower() in ("<default>", "<empty>"):
                self.searchers.use_network(None)
            elif chosen.lower() == "<none>":
                self.searchers.use_network(False)
            else:
                self.searchers.use_network(chosen)  # a bad file is said at once
            self.options.eval_file = chosen
        elif name == "contempt":
            self.wait()
            self.options.contempt = _int(value, 0, MAX_CONTEMPT)
            self.searchers.use_contempt(self.options.contempt)
        elif name == "egtbprobedepth":
            self.wait()
            self.options.egtb_depth = _int(value, 1, 100)
            self.searchers.use_tables(self.options.egtb_path, self.options.egtb_depth)
        elif name == "solvedtable":
            self.wait()
            self.options.solved_table = value.lower() == "true"
            self.searchers.use_solved(self.options.solved_table)
        else:
            raise ValueError(f"unknown option {name!r}")

    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ValueError("expected 'position startpos|fen <fen> [moves ...]'")
        if "moves" in args:
            index = args.index("moves")
            setup, moves = args[:index], args[index + 1 :]
        else:
            setup, moves = args, []
        if not setup:
            raise ValueError("expected 'startpos' or 'fen' before 'moves'")
        if setup[0] == "startpos":
            self.set_position(None, moves)
        elif setup[0] == "fen":
            self.set_position(" ".join(setup[1:]), moves)
        else:
            raise ValueError(f"expected 'startpos' or 'fen', not {setup[0]!r}")

    def cmd_go(self, args: list[str]) -> None:
        self.wait()
        if args[:1] == ["perft"]:
            depth = _int(args[1] if len(args) > 1 else "", 0, 12)
            counts = self.board.perft_divide(depth) if depth > 0 else {}
            for move, count in counts.items():
                self.send(f"{move.uci()}: {count}")
            self.send("")
            self.send(f"Nodes searched: {sum(counts.values()) if depth > 0 else 1}")
            return
        self.start_thinking(self._limit(args))

    def cmd_stop(self, args: list[str]) -> None:
        self.stop()

    def cmd_ponderhit(self, args: list[str]) -> None:
        pass  # pondering is not supported; the search simply goes on

    def cmd_quit(self, args: list[str]) -> bool:
        self.stop()
        return False

    def cmd_d(self, args: list[str]) -> None:
        for row in str(self.board).splitlines():
            self.send(row)
        self.send(f"Fen: {self.board.fen()}")

    # --- thinking --------------------------------------------------------------------------------

    def _limit(self, args: list[str]) -> Limit:
        values: dict[str, float] = {}
        infinite = False
        i = 0
        while i < len(args):
            key = args[i]
            if key in ("infinite", "ponder"):
                infinite = infinite or key == "infinite"
                i += 1
                continue
            if key not in ("depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
                           "movestogo", "mate"):  # fmt: skip
                raise ValueError(f"unknown go parameter {key!r}")
            if i + 1 >= len(args):
                raise ValueError(f"go {key} needs a number")
            values[key] = float(_int(args[i + 1], -(10**12), 10**12))
            i += 2
        ms = 1000.0
        limit = Limit(
            depth=int(values["depth"]) if "depth" in values else None,
            nodes=int(values["nodes"]) if "nodes" in values else None,
            time=values["movetime"] / ms if "movetime" in values else None,
            white_clock=values["wtime"] / ms if "wtime" in values else None,
            black_clock=values["btime"] / ms if "btime" in values else None,
            white_inc=values.get("winc", 0.0) / ms,
            black_inc=values.get("binc", 0.0) / ms,
            moves_to_go=int(values["movestogo"]) if "movestogo" in values else None,
        )
        if "mate" in values and limit.depth is None:
            limit = Limit(**{**limit.__dict__, "depth": 2 * int(values["mate"]) + 1})
        if infinite:
            limit = Limit(depth=limit.depth)
        level = self._level()
        if level < MAX_LEVEL:
            limit = level_limit(level, limit)
        return limit

    def _level(self) -> int:
        if self.options.limit_strength:
            return level_for_rating(self.options.elo)
        return self.options.level

    def think(self, board: AnyBoard, limit: Limit) -> None:
        if self.options.own_book and self.book is not None:
            move = self._book_move(board)
            if move is not None:
                self.send(f"info string book move {move.uci()}")
                self.send(f"bestmove {move.uci()}")
                return
        level = self._level()
        multipv = max(self.options.multipv, level_lines(level) if level < MAX_LEVEL else 1)
        last: list[SearchInfo[Any]] = []
        try:
            for infos in self._iterate(board, limit, multipv):
                last = infos
                for index, info in enumerate(infos[: self.options.multipv], start=1):
                    self.send(format_info(info, index if self.options.multipv > 1 else None))
        except Exception as error:  # the search must never kill the session
            self.complain(f"search failed: {error}")
        for problem in self.table_news(board):
            self.send(clipped(f"info string endgame tables: {problem}"))
        move = pick_move(board, last, level, self._random)
        if move is None:
            self.send("bestmove 0000")
            return
        ponder = ""
        if last and last[0].pv and last[0].pv[0] == move and len(last[0].pv) > 1:
            ponder = f" ponder {last[0].pv[1].uci()}"
        self.send(f"bestmove {move.uci()}{ponder}")

    def _book_move(self, board: AnyBoard) -> Any | None:
        """The book's move for ``board`` (drawn with the weights), or ``None``."""
        assert self.book is not None
        if self.book.game != canonical_name(board.variant.name):
            return None  # a book of another game: search instead
        return self.book.choose(board, self._random)

    def _iterate(
        self, board: AnyBoard, limit: Limit, multipv: int
    ) -> Iterable[list[SearchInfo[Any]]]:
        searcher = self.searchers.for_board(board)
        if multipv <= 1:
            for info in searcher.search(board, limit, armed=True):
                yield [info]
            return
        yield from searcher.search_multipv(board, limit, multipv, armed=True)


_int = whole_number


def run(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Serve UCI on ``stdin``/``stdout`` until ``quit`` or end of input."""
    return serve(UciEngine, stdin, stdout, warm=True)
