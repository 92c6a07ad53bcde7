"""Seeds for the analysis board's endpoints (``POST /api/line``, ``/api/pgn/read`` and
``/api/pgn/write``; :mod:`fuzz.web` sends them): lines played by kradan itself from every
game's start and from a few set-up positions, so that a mutated seed is a legal line with a
flaw somewhere in it rather than noise. The lines take in Sittuyin's setup drops, Alquerque's
chains and huffs, ``count:declare``/``count:stop`` entries under declared counting, and deep
lines (hundreds of plies); the PGN games and trees made of them have variations (some nested
deeply), comments, NAGs, clock and evaluation commands, and counts."""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any

from . import corpus

#: (game, options, start) of the lines; ``None``: the game's usual start
STARTS: tuple[tuple[str, dict[str, Any], str | None], ...] = (
    ("makruk", {}, None),
    ("cambodian", {}, None),
    ("karouk", {}, None),
    ("sittuyin", {}, None),
    ("sittuyin", {"sittuyin_setup": "screened"}, None),
    ("alquerque", {}, None),
    ("alquerque", {"capture_rule": "huff", "chain_continuation": "optional"}, None),
    ("alquerque-bell", {}, None),
    ("makruk", {"counting": "declared"}, "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"),
    ("cambodian", {"counting": "declared"}, "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"),
    ("makruk", {"counting": "declared", "board_count_declarer": "either"},
     "8/3k4/8/8/2M5/8/2R5/4K3 b - - 0 1"),
    ("makruk", {"stalemate": "stalemater_loses", "n_move_rule": 30}, None),
    ("makruk", {}, "4k3/8/8/8/8/8/4r3/R3K2R b - - 0 1"),  # the side not to move is in check
)  # fmt: skip
#: plies of the short lines and of the deep ones
SHORT, DEEP = 14, 400
#: how deeply the nested-variation seeds nest (the server takes 100 levels, refuses more)
NESTINGS = (8, 60, 130)


def playout(
    variant: str, options: dict[str, Any], fen: str | None, plies: int, seed: int
) -> list[str]:
    """A line of up to ``plies`` entries played at random (but the same each time) from the
    start: moves in UCI, and ``count:declare``/``count:stop`` now and then where the rules let
    the side to move make them. A move the board lists but refuses ends the line."""
    from kradan.errors import KradanError
    from kradan.games import find_game

    rng = random.Random(seed)
    board: Any = find_game(variant).new_board(fen, **options)
    entries: list[str] = []
    while len(entries) < plies and board.outcome() is None:
        if entries and rng.random() < 0.2:
            for kind in ("declare", "stop"):
                action = getattr(board, f"{kind}_count", None)
                if action is None:
                    continue
                try:
                    action()
                except KradanError:
                    continue
                entries.append(f"count:{kind}")
                break
            if board.outcome() is not None:
                break
        legal = sorted(board.legal_moves, key=lambda move: move.uci())
        if not legal:
            break
        move = rng.choice(legal)
        entries.append(move.uci())
        try:
            board.push(move)
        except KradanError:  # a listed move the board refuses (a screened setup's drop)
            break
    return entries


@cache
def lines() -> tuple[tuple[str, dict[str, Any], str | None, tuple[str, ...]], ...]:
    """``(game, options, start, entries)``: a short and a deep line from each start."""
    found = []
    for number, (variant, options, fen) in enumerate(STARTS):
        for plies in (SHORT, DEEP):
            entries = playout(variant, options, fen, plies, seed=number * 7 + plies)
            found.append((variant, options, fen, tuple(entries)))
    return tuple(found)


def line_bodies() -> list[str]:
    """``POST /api/line`` bodies: every line of :func:`lines`, and a few that the server must
    refuse (an illegal move, a move after the end, an unknown game, a bad option or FEN)."""
    bodies: list[dict[str, Any]] = []
    for variant, options, fen, entries in lines():
        body: dict[str, Any] = {"variant": variant, "moves": list(entries)}
        if options:
            body["options"] = options
        if fen is not None:
            body["fen"] = fen
        bodies.append(body)
    fens = corpus.fen_seeds()
    bodies += [
        {"variant": "makruk", "moves": ["e3e4", "e3e5"]},
        {"variant": "makruk", "fen": "k7/8/1K6/8/8/8/8/7R w - - 0 1", "moves": ["h1h8", "a8a7"]},
        {"variant": "makruk", "moves": ["count:declare"]},
        {"variant": "alquerque", "moves": ["count:stop", "b2c3"]},
        {"variant": "chaturanga"}, {"variant": "makruk", "options": {"counting": "never"}},
        {"variant": "makruk", "fen": "8/8/8"}, {"variant": "sittuyin", "fen": fens[3]},
        {"variant": "sittuyin", "moves": ["K@e3", "e3e4"]},
        {"variant": "alquerque", "moves": ["e3e5c3", "b2c3"]},
        {"variant": "makruk", "options": {"n_move_rule": 2**70, "show_promoted": True}},
    ]  # fmt: skip
    return [json.dumps(body, separators=(",", ":")) for body in bodies]


def line_texts() -> list[str]:
    """The lines of :func:`lines` in the text form :func:`line_body` reads: a mutated text
    keeps its shape, where a mutated JSON body mostly stops at the JSON parser."""
    texts = []
    for variant, options, fen, entries in lines():
        words = [variant, *(f"{name}={_option_word(value)}" for name, value in options.items())]
        texts.append(" ".join(words) + "\n" + (fen or "") + "\n" + " ".join(entries))
    return texts


def _option_word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def line_body(text: str) -> str:
    """The ``POST /api/line`` body (JSON) of a line's text form: the game and its options
    (``name=value``; ``true``, ``false`` and whole numbers as such) on the first line, the FEN
    (or nothing) on the second, the moves after them, split at white space."""
    first, _, rest = text.partition("\n")
    fen, _, moves = rest.partition("\n")
    variant, *words = first.split(" ")
    options: dict[str, Any] = {}
    for word in words:
        name, _, value = word.partition("=")
        known: dict[str, Any] = {"true": True, "false": False}
        try:
            options[name] = known.get(value, int(value) if value.isdecimal() else value)
        except ValueError:  # more digits than int() reads
            options[name] = value
    body: dict[str, Any] = {"variant": variant, "moves": moves.split()}
    if options:
        body["options"] = options
    if fen:
        body["fen"] = fen
    return json.dumps(body)


def _study_game(variant: str, options: dict[str, Any], fen: str | None,
                entries: tuple[str, ...], seed: int) -> Any:  # fmt: skip
    """The line as a PGN game, with a comment, NAGs, a clock or an evaluation now and then, and
    a short variation replacing some of its moves."""
    from kradan.errors import KradanError
    from kradan.games import find_game
    from kradan.pgn.tree import Game

    rng = random.Random(seed)
    board: Any = find_game(variant).new_board(fen, **options)
    game = Game.from_board(board, headers={"Event": f"fuzz study {seed}", "Annotator": "fuzz"})
    game.comment = "the start"
    node: Any = game
    for number, entry in enumerate(entries):
        if entry.startswith("count:"):
            kind = entry.removeprefix("count:")
            if node is game:  # a tree has no place for a count before the first move
                return game
            try:
                getattr(board, f"{kind}_count")()
            except KradanError:
                return game
            node.count_actions.append(kind)
            continue
        move = board.parse_uci(entry)
        try:
            board.copy().push(move)
        except KradanError:
            return game
        if rng.random() < 0.15:
            others = [m for m in board.legal_moves if m.uci() != entry]
            if others:
                first = rng.choice(others)
                side = node.add_legal(first, comment="or this")
                side.nags.add(rng.choice([2, 4, 6]))
                after = board.copy()
                after.push(first)
                for _ in range(rng.randint(0, 3)):
                    replies = sorted(after.legal_moves, key=lambda m: m.uci())
                    if not replies or after.outcome() is not None:
                        break
                    reply = rng.choice(replies)
                    side = side.add_legal(reply)
                    after.push(reply)
        child = node.add_legal(move)
        node.variations.insert(0, node.variations.pop())  # the line stays the main one
        if number % 5 == 1:
            child.comment = rng.choice(["a comment", "[%clk 0:04:59.5]", "[%eval -1.25]",
                                        "[%eval #3] mates", "ดี"])  # fmt: skip
        if number % 7 == 3:
            child.nags.update({1, rng.randint(1, 255)})
        board.push(move)
        node = child
    return game


def _nested(depth: int) -> Any:
    """A Makruk game whose variations nest ``depth`` levels: each replaces the move before
    the next one (``1. a (1. b c (1... d e (2. f ...``)."""
    from kradan.games import find_game
    from kradan.pgn.tree import Game

    rng = random.Random(depth)
    board: Any = find_game("makruk").new_board(None)
    game = Game.from_board(board)
    node: Any = game
    for _ in range(depth):
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        quiet = []
        for move in legal[1:]:
            board.push(move)
            if board.outcome() is None and len(list(board.legal_moves)) > 1:
                quiet.append(move)
            board.pop()
        if not quiet:
            break
        node.add_legal(legal[0])
        move = rng.choice(quiet)
        node = node.add_legal(move)
        board.push(move)
    return game


@cache
def study_games() -> tuple[Any, ...]:
    """PGN games of :func:`lines` and of :data:`NESTINGS`."""
    games = [
        _study_game(variant, options, fen, entries, seed=number)
        for number, (variant, options, fen, entries) in enumerate(lines())
    ]
    return (*games, *(_nested(depth) for depth in NESTINGS))


def pgn_texts() -> list[str]:
    """``POST /api/pgn/read`` inputs (the PGN text; :mod:`fuzz.web` wraps it in JSON): the
    study games, kradan's reference games and the tests' PGN texts, and a few JSON bodies
    of the wrong shape."""
    texts = [str(game) for game in study_games()]
    texts += corpus.pgn_seeds()[:60]
    # at the edges of what a tree holds: NAGs $0 and $256, nine NAGs, a long tag name, many
    # tags, many variations of one move, many counts after one move
    sides = " ".join(f"(1. {move})" for move in ["a4", "b4", "c4", "d4", "f4", "g4", "h4"] * 10)
    texts += [
        "1. e4 $0 e5 $256 *", "1. e4 " + " ".join(f"${n}" for n in range(1, 10)) + " *",
        f'[{"T" * 41} "x"]\n\n1. e4 *', "".join(f'[T{n} "x"]\n' for n in range(101)) + "\n*",
        f"1. e4 {sides} *",
        '[VariantOptions "counting=declared"]\n[FEN "4k3/8/8/3r4/8/8/3R4/4K3 w - - 0 1"]\n\n'
        "1. Rd3 " + "{[%count declare]} {[%count stop]} " * 3 + "*",
    ]  # fmt: skip
    texts += ['{"pgn": ""}', '{"pgn": 1}', '{"pgn": "1. e4 *", "x": 1}', "{}", "[]"]
    return texts


def tree_bodies() -> list[str]:
    """``POST /api/pgn/write`` bodies: the study games' trees as ``/api/pgn/read`` gives
    them, and the same trees cut down to what the writer reads (moves, comments, NAGs, counts
    and variations), which keeps a deep line's tree within the mutator's 16 KiB."""
    from kradan.web.model import GameError
    from kradan.web.study import tree_of

    bodies = []
    for game in study_games():
        try:
            tree = tree_of(game).model_dump(exclude_defaults=True)
        except GameError:  # nested deeper than a tree read may be
            continue
        full = json.dumps(tree, separators=(",", ":"), ensure_ascii=False)
        if len(full) < 12_000:
            bodies.append(full)
        bodies.append(json.dumps(_bare(tree), separators=(",", ":"), ensure_ascii=False))
    bodies += [
        '{"variant":"makruk","moves":[{"uci":"e3e4"},{"uci":"e6e4"}]}',
        '{"variant":"makruk","headers":{"FEN":"x","Variant":"alquerque"},"moves":[]}',
        '{"variant":"makruk","moves":[{"uci":"e3e4","counts":["count:stop"],"nags":[0]}]}',
    ]
    return bodies


def _bare(tree: dict[str, Any]) -> dict[str, Any]:
    """``tree`` without what the writer does not read (each move's SAN and position)."""

    def bare_line(line: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found = []
        for node in line:
            kept = {k: v for k, v in node.items() if k not in ("san", "thai_san", "fen")}
            if "variations" in kept:
                kept["variations"] = [bare_line(variation) for variation in kept["variations"]]
            found.append(kept)
        return found

    kept = {k: v for k, v in tree.items() if k != "moves"}
    return {**kept, "moves": bare_line(tree.get("moves", []))}
