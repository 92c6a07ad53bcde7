"""Another engine's reports read into kradan's types: a UCI ``info`` line or an XBoard thinking
line becomes a :class:`SearchInfo` (its score a :class:`PovScore`, its line the board's own
moves), as kradan's search reports.

>>> from kradan import Board
>>> info = uci_info("info depth 3 seldepth 5 multipv 2 score cp -35 lowerbound nodes 900 "
...                 "nps 9000 time 100 pv e3e4 e6e5", Board())
>>> info.depth, info.multipv, info.score.white(), info.lowerbound, info.pv
(3, 2, Score(cp=-35, mate=None), True, [Move.from_uci('e3e4'), Move.from_uci('e6e5')])
>>> xboard_info("7 100003 250 123456 h2a2", Board("k7/2K5/8/8/8/8/7R/8 w - - 0 1")).score
PovScore(relative=Score(cp=None, mate=3), turn=True)
"""

from __future__ import annotations

from typing import Any

from ..types import MATE_VALUE, PovScore, Score, SearchInfo

#: the words of a UCI ``info`` line that a value follows (``pv`` and ``string`` take the rest)
_NUMBERS = frozenset(
    {"depth", "seldepth", "time", "nodes", "multipv", "currmovenumber", "hashfull", "nps",
     "tbhits", "sbhits", "cpuload"}
)  # fmt: skip
#: every keyword of an ``info`` line: where a list of moves (``pv``, ``refutation``) ends
_KEYWORDS = _NUMBERS | {"score", "pv", "currmove", "refutation", "currline", "string", "wdl"}
#: XBoard's mate scores: ``100000 + n`` for a mate in ``n`` (the protocol's rule, which
#: ``kradan xboard`` follows), and ``100000 - n``, which some engines write; scores nearer than
#: this are mates
_XBOARD_MATE_RANGE = 1_000


def line_moves(board: Any, words: list[str]) -> list[Any]:
    """``words`` (a principal variation) as ``board``'s moves, played one after another from
    it: long algebraic, or SAN where an engine writes it; move numbers are skipped. The line
    stops at the first word that is no legal move (an engine's stray text)."""
    position = board.copy()
    moves: list[Any] = []
    for word in words:
        if word.rstrip(".").isdigit() or word.endswith("..."):
            continue
        try:
            move = position.parse_uci(word)
        except ValueError:
            try:
                move = position.parse_san(word)
            except ValueError:
                break
        position.push(move)
        moves.append(move)
    return moves


def uci_fields(line: str) -> dict[str, Any]:
    """The fields of a UCI ``info`` line, by keyword: numbers as ``int``, ``score`` as
    ``(kind, value)``, ``lowerbound``/``upperbound`` as ``True``, ``wdl`` as three numbers,
    ``pv`` as its words, ``string`` as its text. Unknown or malformed parts are skipped."""
    words = line.split()[1:]
    found: dict[str, Any] = {}
    i = 0
    while i < len(words):
        key = words[i]
        i += 1
        if key in _NUMBERS and i < len(words):
            try:
                found[key] = int(words[i])
                i += 1
            except ValueError:
                pass
        elif key == "score" and i + 1 < len(words) and words[i] in ("cp", "mate"):
            try:
                found["score"] = (words[i], int(words[i + 1]))
                i += 2
            except ValueError:
                i += 1
            if i < len(words) and words[i] in ("lowerbound", "upperbound"):
                found[words[i]] = True
                i += 1
        elif key == "wdl" and i + 2 < len(words):
            try:
                wins, draws, losses = (int(word) for word in words[i : i + 3])
                found["wdl"] = (wins, draws, losses)
                i += 3
            except ValueError:
                pass
        elif key == "string":
            found["string"] = " ".join(words[i:])
            break
        elif key in ("pv", "refutation", "currline", "currmove"):
            start = i
            while i < len(words) and words[i] not in _KEYWORDS:
                i += 1
            found[key] = words[start:i]
    return found


def uci_info(line: str, board: Any) -> SearchInfo[Any] | None:
    """A UCI ``info`` line about ``board`` as a :class:`SearchInfo`; ``None`` for a line that
    gives no score (the current move, a string)."""
    fields = uci_fields(line)
    if "score" not in fields:
        return None
    kind, value = fields["score"]
    score = Score(mate=value) if kind == "mate" else Score(cp=value)
    depth = fields.get("depth", 0)
    return SearchInfo(
        depth,
        fields.get("seldepth", 0),
        PovScore(score, bool(board.turn)),
        line_moves(board, fields.get("pv", [])),
        fields.get("nodes", 0),
        fields.get("time", 0) / 1000,
        multipv=fields.get("multipv", 1),
        tbhits=fields.get("tbhits"),
        hashfull=fields.get("hashfull"),
        wdl=fields.get("wdl"),
        lowerbound=fields.get("lowerbound", False),
        upperbound=fields.get("upperbound", False),
    )


def xboard_score(value: int) -> Score:
    """An XBoard thinking score: centipawns, or a mate near ±100000 (either convention)."""
    distance = abs(abs(value) - MATE_VALUE)
    if distance < _XBOARD_MATE_RANGE:
        return Score(mate=distance if value > 0 else -distance)
    return Score(cp=value)


def xboard_info(line: str, board: Any) -> SearchInfo[Any] | None:
    """An XBoard thinking line (``ply score time nodes [seldepth nps tbhits<TAB>] pv``, time
    in centiseconds, the score for the engine, which is to move) about ``board``; ``None`` for
    any other line."""
    head, tab, tail = line.partition("\t")
    words = head.split()
    numbers: list[int] = []
    for word in words[: 7 if tab else 4]:
        try:
            numbers.append(int(word.rstrip(".&+-") if not numbers else word))
        except ValueError:
            break
    if len(numbers) < 4:
        return None
    depth, value, centiseconds, nodes = numbers[:4]
    pv = tail.split() if tab else words[4:]
    return SearchInfo(
        depth,
        numbers[4] if len(numbers) > 4 else 0,
        PovScore(xboard_score(value), bool(board.turn)),
        line_moves(board, pv),
        nodes,
        centiseconds / 100,
        tbhits=numbers[6] if len(numbers) > 6 else None,
    )


__all__ = ["line_moves", "uci_fields", "uci_info", "xboard_info", "xboard_score"]
