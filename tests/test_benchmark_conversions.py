"""``benchmarks/conversions.py``: the endgames a player failed to win, as match openings
(issue 16's pre-screen for endgame changes)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from kradan import Board

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "conversions.py"

#: White leads by a rook and three mets while Black's pieces'-honour count runs
COUNTED = "8/8/8/3MM3/3M4/5R2/4k3/6K1 b - 32 12 95"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("conversions", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(white: str, black: str, result: str) -> str:
    return (
        f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n[Variant "makruk"]\n'
        f'[SetUp "1"]\n[FEN "{COUNTED}"]\n\n95... Kd2 96. Kg2 {result}\n\n'
    )


def test_a_drawn_count_with_the_player_ahead_is_picked(tmp_path: Path) -> None:
    """The first position of a drawn game where the player leads while its opponent counts;
    not a won game, not a game where the player is the one behind, not another player's."""
    games = tmp_path / "games.pgn"
    games.write_text(
        _game("kradan 0.1.0", "Fairy-Max", "1/2-1/2")
        + _game("kradan 0.1.0", "Fairy-Max", "1-0")
        + _game("Fairy-Max", "kradan 0.1.0", "1/2-1/2")
        + _game("someone", "else", "1/2-1/2")
    )
    board = Board(COUNTED)
    board.push_san("Kd2")
    assert _module().conversion_positions([str(games)], "kradan", 150) == [board.fen()]
    assert _module().conversion_positions([str(games)], "kradan", 5000) == []
