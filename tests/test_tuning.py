"""The evaluation's weights (kradan/engine/kernels/weights.py), the counts they weigh
(features.py) and the Texel fit (kradan/tuning.py): the data file round-trips, the weighted
counts are the evaluation, a weights file changes the engine's play, and a fit recovers
weights from results they produced."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from kradan import BLACK, PAWN, WHITE, Board
from kradan.engine import Limit, Searcher
from kradan.engine.kernels import weights as W
from kradan.engine.kernels.evaluate import evaluate
from kradan.engine.kernels.features import features
from kradan.games import new_board
from kradan.players import PlayerSpecError, make_player

CHESS_GAMES = {"makruk": W.SET_MAKRUK, "cambodian": W.SET_OUK, "karouk": W.SET_OUK,
               "sittuyin": W.SET_SITTUYIN}  # fmt: skip


def _middlegames(game: str, count: int, seed: int) -> list[Board]:
    """Positions from random games where both sides keep pawns and at least eight pieces, so
    that none of the evaluation's endgame knowledge applies."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board(variant=game)
        for _ in range(rng.randrange(12, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        sides = (WHITE, BLACK)
        counts = [sum(1 for p in board.piece_map().values() if p.color == c) for c in sides]
        pawns = [board.has_piece(PAWN, c) for c in sides]
        if min(counts) >= 8 and all(pawns) and not any(board.hand(c) for c in sides):
            found.append(board)
    return found


def test_the_packaged_file_round_trips() -> None:
    data = json.loads(W.WEIGHTS_FILE.read_text(encoding="utf-8"))
    for i, name in enumerate(W.SETS):
        assert W.from_array(W.to_array(data["sets"][name])) == data["sets"][name]
        assert np.array_equal(W.to_array(data["sets"][name]), W.DEFAULT[i])
    assert np.array_equal(W.load(), W.DEFAULT)
    assert W.DEFAULT.shape == (len(W.SETS), W.N_PARAMS)


@pytest.mark.parametrize("game", sorted(CHESS_GAMES))
def test_each_game_reads_its_own_set(game: str) -> None:
    _bbs, info = new_board(game).kernel_arrays()
    assert W.eval_set(info) == CHESS_GAMES[game]


@pytest.mark.parametrize("game", sorted(CHESS_GAMES))
def test_the_weighted_counts_are_the_evaluation(game: str) -> None:
    row = W.DEFAULT[CHESS_GAMES[game]]
    counts = np.zeros(W.N_PARAMS)
    for board in _middlegames(game, 40, seed=len(game)):
        bbs, info = board.kernel_arrays()
        features(bbs, info, counts)
        white = float(row @ counts)
        sign = 1 if board.turn == WHITE else -1
        assert evaluate(bbs, info, row) == sign * white, board.fen()


def test_each_weight_moves_the_evaluation_by_its_count() -> None:
    board = _middlegames("makruk", 1, seed=3)[0]
    bbs, info = board.kernel_arrays()
    counts = np.zeros(W.N_PARAMS)
    features(bbs, info, counts)
    base = evaluate(bbs, info, W.DEFAULT[0])
    sign = 1 if board.turn == WHITE else -1
    for index in range(W.N_PARAMS):
        row = W.DEFAULT[0].copy()
        row[index] += 5
        assert evaluate(bbs, info, row) - base == sign * 5 * counts[index], index


def _weights_file(tmp_path: Path, **changes: int) -> Path:
    data = json.loads(W.WEIGHTS_FILE.read_text(encoding="utf-8"))
    for name, value in changes.items():
        data["sets"]["makruk"]["material"][name] = value
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_weights_file_changes_what_the_engine_thinks(tmp_path: Path) -> None:
    # Black has given a knight: worth a rook, it costs Black 200 centipawns more
    board = Board("r1smksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1")
    packaged = Searcher(hash_mb=1)
    heavy = Searcher(hash_mb=1)
    heavy.use_weights(_weights_file(tmp_path, knight=520))
    plain = packaged.best_move(board, Limit(depth=1)).info
    changed = heavy.best_move(board, Limit(depth=1)).info
    assert plain is not None and changed is not None
    assert changed.score.cp - plain.score.cp == 200  # type: ignore[operator]
    heavy.use_weights(None)
    again = heavy.best_move(board, Limit(depth=1)).info
    assert again is not None and again.score == plain.score


def test_a_player_takes_a_weights_file(tmp_path: Path) -> None:
    path = _weights_file(tmp_path, pawn=90)
    player = make_player(f"kradan:level=20,weights={path}")
    assert player.name == f"kradan ({path})"
    assert player.choose_move(Board(), Limit(depth=1)).move is not None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[]", "sets"),
        ('{"sets": {"chess": {}}}', "unknown weight sets ['chess']"),
        ('{"sets": {"makruk": {"material": {}}}}', "makruk weights"),
        ("not json", "Expecting value"),
    ],
)
def test_a_bad_weights_file_is_refused_with_the_spec(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(
        PlayerSpecError, match=r"bad weights file in 'kradan:weights=.*bad\.json'"
    ) as info:
        make_player(f"kradan:weights={path}")
    assert message in str(info.value)
    with pytest.raises(PlayerSpecError, match=r"missing\.json"):
        make_player(f"kradan:weights={tmp_path / 'missing.json'}")


def test_a_table_of_the_wrong_shape_is_refused() -> None:
    data = json.loads(W.WEIGHTS_FILE.read_text(encoding="utf-8"))["sets"]["ouk"]
    data["pst"]["rook"] = data["pst"]["rook"][:7]
    with pytest.raises(ValueError, match="the rook table needs 8 ranks of 4 values"):
        W.to_array(data)
