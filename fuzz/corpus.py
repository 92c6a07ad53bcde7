"""Seed inputs for the fuzzers: the reference positions and games of ``../shared/reference/``
(``tests/reference/`` holds a copy, used where the shared folder is absent, as in CI), what
kradan writes for them (SAN, Thai SAN, PGN), and the string literals of the tests, sorted by the
way in they look like. Mutating real inputs reaches deep code sooner than bytes from nothing."""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED_REFERENCE = ROOT.parent / "shared" / "reference"
TESTS = ROOT / "tests"
#: games of the chess family in the reference files
CHESS_GAMES = ("makruk", "cambodian", "karouk", "sittuyin")
#: reference games replayed for SAN, Thai SAN and PGN seeds, per game
GAMES_PER_VARIANT = 6

_FEN_LIKE = re.compile(r"^\S*/\S* [wb]\b")
_MOVE_LIKE = re.compile(r"^[A-Za-z0-9@=+#x\-,~:!?\u0e00-\u0e7f]{1,14}$")
_OPTIONS_LIKE = re.compile(r"^(\w+=\S*)( \w+=\S*)*$")
_PROTOCOL_WORDS = {
    "uci", "isready", "ucinewgame", "position", "go", "stop", "quit", "setoption", "ponderhit",
    "debug", "register", "xboard", "protover", "new", "variant", "force", "usermove", "setboard",
    "level", "st", "sd", "ping", "undo", "remove", "playother", "hard", "easy", "post", "nopost",
    "memory", "cores", "option", "result", "time", "otim", "analyze", "exit", "perft", "?",
}  # fmt: skip


def reference_folder() -> Path:
    """``../shared/reference/`` where it exists, else the tests' copy."""
    return SHARED_REFERENCE if SHARED_REFERENCE.is_dir() else TESTS / "reference"


@cache
def reference_records() -> tuple[dict[str, object], ...]:
    """Every record of the reference ``*.jsonl`` files and ``spec_positions.json``."""
    folder = reference_folder()
    records: list[dict[str, object]] = []
    for name in CHESS_GAMES:
        path = folder / f"{name}.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    records.append(json.loads(line))
    spec = folder / "spec_positions.json"
    if spec.exists():
        records.extend(json.loads(spec.read_text(encoding="utf-8")).get("positions", []))
    return tuple(records)


@cache
def test_strings() -> tuple[str, ...]:
    """The string literals of ``tests/*.py`` (1 to 5,000 characters), once each."""
    found: dict[str, None] = {}
    for path in sorted(TESTS.glob("*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError:  # a test file someone is in the middle of editing
            continue
        for node in ast.walk(tree):
            value = node.value if isinstance(node, ast.Constant) else None
            if isinstance(value, str) and 0 < len(value) <= 5000:
                found[value] = None
    return tuple(found)


@cache
def positions() -> tuple[tuple[str, str], ...]:
    """The positions that moves are parsed on: ``(game, FEN)``, every game's start first, then
    reference positions (at most 250, so that a byte can choose one)."""
    from kradan.games import games, new_board

    chosen: dict[tuple[str, str], None] = {}
    for game in games():
        chosen[(game.name, new_board(game.name).fen())] = None
    for record in reference_records():
        variant, fen = record.get("variant"), record.get("fen")
        if isinstance(variant, str) and isinstance(fen, str):
            chosen[(variant, fen)] = None
        if len(chosen) >= 250:
            break
    return tuple(chosen)


def _classified(pattern: re.Pattern[str]) -> list[str]:
    return [text for text in test_strings() if pattern.search(text)]


def fen_seeds() -> list[str]:
    """Reference FENs and FEN-like strings of the tests (Alquerque's among them)."""
    fens = [fen for _, fen in positions()]
    return list(dict.fromkeys(fens + _classified(_FEN_LIKE)))


def alquerque_seeds() -> list[str]:
    """Alquerque position texts: its starts and the tests' five-rank texts."""
    from kradan.alquerque import GAMES

    texts = [fen for game, fen in positions() if game in GAMES]
    texts += [t for t in _classified(_FEN_LIKE) if t.split(" ")[0].count("/") == 4]
    return list(dict.fromkeys(texts))


@cache
def replayed_games() -> tuple[object, ...]:
    """Boards at the end of a few reference games of each game (their move stacks kept)."""
    from kradan.games import new_board

    boards: list[object] = []
    taken = dict.fromkeys(CHESS_GAMES, 0)
    for record in reference_records():
        variant, moves = record.get("variant"), record.get("moves_from_start")
        if variant not in taken or not isinstance(moves, list) or not moves:
            continue
        if taken[variant] >= GAMES_PER_VARIANT:
            continue
        board = new_board(variant)
        try:
            for uci in moves:
                board.push_uci(uci)
        except ValueError:  # a reference game kradan cannot replay is another test's business
            continue
        taken[variant] += 1
        boards.append(board)
    return tuple(boards)


def move_seeds(notation: str) -> list[bytes]:
    """Moves of each position in ``notation`` (``uci``, ``san`` or ``thai``), each after the
    byte that chooses the position (:func:`positions`), then the tests' move-like strings."""
    from kradan.games import find_game, new_board

    seeds: list[bytes] = []
    for index, (game, fen) in enumerate(positions()):
        board = new_board(game, fen)
        for number, move in enumerate(board.legal_moves):
            if number >= 6:
                break
            if notation == "uci":
                text = board.uci(move) if hasattr(board, "uci") else move.uci()
            elif notation == "thai" and "thai" in find_game(game).notations:
                text = board.san(move, "thai")  # type: ignore[call-arg]
            else:
                text = board.san(move)
            seeds.append(bytes([index]) + text.encode())
    for text in _classified(_MOVE_LIKE):
        seeds.append(b"\x00" + text.encode())
    return seeds


def pgn_seeds() -> list[str]:
    """Reference games written as PGN by kradan, and the tests' PGN texts."""
    from kradan.pgn import game_text

    texts = [game_text(board) for board in replayed_games()]  # type: ignore[arg-type]
    texts += [t for t in test_strings() if ("[" in t and '"]' in t) or "1." in t]
    return list(dict.fromkeys(texts))


def options_seeds() -> list[str]:
    """``key=value`` strings of the tests and one of every option of every game."""
    from kradan.games import games
    from kradan.rulesets import option_text

    texts = _classified(_OPTIONS_LIKE)
    for game in games():
        board = game.new_board(None)
        words = [f"{name}={option_text(getattr(board.variant, name))}" for name in game.options]
        texts.append(" ".join(words))
    return list(dict.fromkeys(texts))


def protocol_seeds() -> list[str]:
    """Command lines of the tests that start with a UCI or XBoard command word, and positions
    set up from reference games."""
    lines = [t for t in test_strings() if t.split(" ", 1)[0] in _PROTOCOL_WORDS and "\n" not in t]
    for board in replayed_games()[:8]:
        moves = " ".join(move.uci() for move in board.move_stack[:30])  # type: ignore[attr-defined]
        lines.append(f"position startpos moves {moves}")
    for _, fen in positions()[:40]:
        lines += [f"position fen {fen}", f"setboard {fen}"]
    return list(dict.fromkeys(lines))
