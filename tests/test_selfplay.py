"""Self-play for the evaluation network (kradan/selfplay.py, ``kradan tune selfplay``): the
positions a game keeps, their labels, the file they are stored in, and the command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from kradan import Board
from kradan.cli.main import main
from kradan.engine.kernels.nnue import FEATURES, MAX_PIECES, white_features
from kradan.errors import UsageError
from kradan.runners.selfplay import SCORE_CLIP, SelfPlayTask, TrainingPositions, play_game

OPENING = ("e3e4", "d6d5", "e4d5", "e6e5")


@pytest.fixture(scope="module")
def one_game() -> TrainingPositions:
    return play_game(SelfPlayTask("makruk", OPENING, 300))


def test_a_game_keeps_labelled_positions(one_game: TrainingPositions) -> None:
    n = len(one_game)
    assert n > 10
    assert one_game.features.shape == (n, MAX_PIECES) and one_game.features.dtype == np.int16
    assert set(np.unique(one_game.stm).tolist()) <= {0, 1}
    assert np.all(np.abs(one_game.scores) <= SCORE_CLIP)
    assert len(set(one_game.results.tolist())) == 1  # one game, one result
    assert one_game.results[0] in (0.0, 0.5, 1.0)
    assert np.all(one_game.games == 0)


def test_each_kept_row_lists_a_position_s_pieces(one_game: TrainingPositions) -> None:
    """A row holds each piece once, in the order White's rows are made, padded with -1, and
    the first position kept after the opening is the opening's position itself or later."""
    board = Board()
    for uci in OPENING:
        board.push_uci(uci)
    bbs, _ = board.kernel_arrays()
    start = np.full(MAX_PIECES, -1, dtype=np.int16)
    white_features(bbs, start)
    for row in one_game.features:
        pieces = row[row >= 0]
        assert len(pieces) >= 2 and np.all(row[len(pieces) :] == -1)
        assert np.all(pieces < FEATURES) and len(set(pieces.tolist())) == len(pieces)
        assert len(pieces) <= int(np.count_nonzero(start >= 0))  # nothing is ever added


def test_a_position_is_kept_only_when_quiet() -> None:
    """From a position where the side to move must take back a piece, the first position
    is left out: its best move is a capture."""
    board = Board()
    line = ("e3e4", "d6d5", "e4d5")
    game = play_game(SelfPlayTask("makruk", line, 300))
    for uci in line:
        board.push_uci(uci)
    bbs, _ = board.kernel_arrays()
    first = np.full(MAX_PIECES, -1, dtype=np.int16)
    white_features(bbs, first)
    assert not np.array_equal(game.features[0], first)


def test_positions_round_trip_and_join(tmp_path: Path, one_game: TrainingPositions) -> None:
    other = TrainingPositions.join([one_game, one_game])
    assert len(other) == 2 * len(one_game)
    path = tmp_path / "positions.npz"
    other.save(path)
    read = TrainingPositions.load(path)
    for name in ("features", "stm", "scores", "results", "games"):
        assert np.array_equal(getattr(read, name), getattr(other, name))
    assert len(TrainingPositions.join([])) == 0


def test_a_file_of_something_else_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "bad.npz"
    np.savez(bad, features=np.zeros((3, 5)), stm=np.zeros(3), scores=np.zeros(3),
             results=np.zeros(3), games=np.zeros(3))  # fmt: skip
    with pytest.raises(UsageError, match=r"bad\.npz' holds no network training positions"):
        TrainingPositions.load(bad)
    with pytest.raises(UsageError, match=r"cannot read training positions from .*missing\.npz"):
        TrainingPositions.load(tmp_path / "missing.npz")


def test_self_play_plays_only_the_chess_family() -> None:
    with pytest.raises(UsageError, match="not alquerque"):
        play_game(SelfPlayTask("alquerque", (), 100))


def test_the_command_writes_the_positions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "self.npz"
    code = main(["tune", "selfplay", "-o", str(out), "--games", "2", "--nodes", "200",
                 "--save-every", "1", "--seed", "3"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "2/2 games" in printed and str(out) in printed
    positions = TrainingPositions.load(out)
    assert len(positions) > 0 and set(positions.games.tolist()) == {0, 1}


def test_the_command_refuses_a_zero_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tune", "selfplay", "-o", str(tmp_path / "x.npz"), "--nodes", "0"]) == 2
    assert "must be 1 or more" in capsys.readouterr().err
