"""``benchmarks/levels.py``: the levels table is built over several runs, each reading back the
games the runs before it saved (issue 16, calibrated levels)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _module(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # for its own helper, _table
    spec = importlib.util.spec_from_file_location("levels", BENCHMARKS / "levels.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(round_: int, white: str, black: str, result: str) -> str:
    return (
        f'[Event "?"]\n[Round "{round_}"]\n[White "{white}"]\n[Black "{black}"]\n'
        f'[Result "{result}"]\n[Variant "makruk"]\n\n1. e4 e5 {result}\n\n'
    )


def test_saved_games_keep_whole_pairs_and_who_came_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    levels = _module(monkeypatch)
    path = tmp_path / "level2-vs-level1.pgn"
    path.write_text(
        _game(1, "kradan level 2", "kradan level 1", "1-0")
        + _game(2, "kradan level 1", "kradan level 2", "1-0")
        + _game(3, "kradan level 2", "kradan level 1", "1/2-1/2"),  # half a pair: played again
        encoding="utf-8",
    )
    saved = levels.saved_games(path, 100)
    assert [record.first_player_points for record in saved] == [1.0, 0.0]
    assert saved[1].pgn.startswith('[Event "?"]\n[Round "2"]')
    assert levels.saved_games(path, 1) == []  # a limit below one pair keeps none
    assert levels.saved_games(tmp_path / "none.pgn", 100) == []
