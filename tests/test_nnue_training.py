"""Training the evaluation network (kradan/nnue_training.py, ``kradan tune train``): the
gradient is the loss's, the scale is found from scores and results, training learns what
the labels say, the integer network computes what the float one does, and the command writes
a network a player can use."""

from __future__ import annotations

import random
from pathlib import Path

import numba
import numpy as np
import pytest

from kradan import Board
from kradan.cli.main import main
from kradan.engine import Limit
from kradan.engine import weights as W
from kradan.engine.kernels import nnue as N
from kradan.engine.kernels import nnue_training as K
from kradan.engine.kernels.evaluate import evaluate
from kradan.engine.network import DEFAULT_NETWORK_FILE, load_network
from kradan.runners.players import PlayerSpecError, make_player
from kradan.runners.selfplay import TrainingPositions
from kradan.training import nnue as T


def _positions(count: int, seed: int) -> tuple[TrainingPositions, list[Board]]:
    """Positions of random Makruk games, scored by the weighted evaluation (White's view),
    each game's result drawn from that score."""
    rng = random.Random(seed)
    rows, sides, scores, results, games, boards = [], [], [], [], [], []
    row = W.DEFAULT[W.SET_MAKRUK]
    game = 0
    while len(rows) < count:
        board = Board()
        for _ in range(rng.randrange(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.is_game_over():
            continue
        bbs, info = board.kernel_arrays()
        white = int(evaluate(bbs, info, row)) * (1 if board.turn else -1)
        features = np.full(N.MAX_PIECES, -1, dtype=np.int16)
        N.white_features(bbs, features)
        rows.append(features)
        sides.append(0 if board.turn else 1)
        scores.append(max(-3000, min(3000, white)))
        results.append(1.0 if rng.random() < 1 / (1 + np.exp(-white / 300)) else 0.0)
        games.append(game)
        boards.append(board)
        game += 1
    return TrainingPositions(
        np.array(rows), np.array(sides, dtype=np.int8), np.array(scores, dtype=np.int16),
        np.array(results, dtype=np.float32), np.array(games, dtype=np.int32),
    ), boards  # fmt: skip


@pytest.fixture(scope="module")
def data() -> tuple[TrainingPositions, list[Board]]:
    return _positions(1500, seed=7)


@pytest.fixture
def source(tmp_path: Path, data: tuple[TrainingPositions, list[Board]]) -> Path:
    """The positions of ``data`` in a file, as ``kradan tune selfplay`` writes them."""
    path = tmp_path / "positions.npz"
    data[0].save(path)
    return path


def test_the_gradient_is_the_loss_s(data: tuple[TrainingPositions, list[Board]]) -> None:
    positions, _ = data
    features = positions.features[:40].astype(np.int64)
    stm = positions.stm[:40].astype(np.int64)
    targets = np.linspace(0.1, 0.9, 40)
    net = T.FloatNetwork.random(6, seed=2)
    order = np.arange(40)
    threads = numba.get_num_threads()
    shapes = ((threads, N.FEATURES, 6), (threads, 6), (threads, 12), (threads,))

    def loss_and_grads() -> tuple[float, list[np.ndarray]]:
        grads = [np.zeros(shape) for shape in shapes]
        loss = K.batch_gradient(net.w1, net.b1, net.w2, float(net.b2[0]), features, stm, targets,
                                 order, 0, 40, 250.0, *grads, 0)  # fmt: skip
        return loss, [g.sum(0) for g in grads]

    _, (g1, gb1, g2, gb2) = loss_and_grads()
    eps = 1e-5
    feature = int(features[3, 2])
    for array, grad, index in ((net.w1, g1, (feature, 4)), (net.b1, gb1, (1,)),
                               (net.w2, g2, (2,)), (net.w2, g2, (9,))):  # fmt: skip
        old = array[index]
        array[index] = old + eps
        up, _ = loss_and_grads()
        array[index] = old - eps
        down, _ = loss_and_grads()
        array[index] = old
        assert (up - down) / (2 * eps) == pytest.approx(grad[index], rel=1e-4, abs=1e-9)
    net.b2[0] += eps
    up, _ = loss_and_grads()
    net.b2[0] -= 2 * eps
    down, _ = loss_and_grads()
    net.b2[0] += eps
    assert (up - down) / (2 * eps) == pytest.approx(gb2, rel=1e-4)


def test_the_scale_is_found_from_scores_and_results() -> None:
    rng = np.random.default_rng(3)
    scores = rng.uniform(-1500, 1500, 200_000)
    results = (rng.random(200_000) < 1 / (1 + np.exp(-scores / 420))).astype(float)
    assert T.fit_scale(scores, results) == pytest.approx(420, rel=0.05)


def test_training_learns_what_the_labels_say(data: tuple[TrainingPositions, list[Board]]) -> None:
    """Trained on scores alone (lam 1), the network's held-out error falls well below the
    untrained network's, and its integer form agrees in sign with the scores it learnt."""
    positions, boards = data
    reports: list[T.TrainingReport] = []
    net, _scale = T.train(positions, hidden=16, epochs=12, batch=128, rate=0.01, lam=1.0,
                         held_out=0.2, report=reports.append)  # fmt: skip
    assert len(reports) == 12
    assert reports[-1].held_out_loss < 0.6 * reports[0].held_out_loss
    network = T.quantize(net, ("makruk",), "test")
    agree = total = 0
    for board, white in zip(boards, positions.scores, strict=True):
        if abs(int(white)) < 300:
            continue
        bbs, info = board.kernel_arrays()
        acc = np.zeros((2, 16), dtype=np.int32)
        N.refresh(bbs, network.weights, acc, 0)
        value = N.output(network.weights, network.bias, acc, 0, int(info[64]))
        total += 1
        agree += (value * (1 if board.turn else -1) > 0) == (white > 0)
    assert total > 50 and agree / total > 0.9


def test_the_integer_network_computes_what_the_float_one_does(
    data: tuple[TrainingPositions, list[Board]],
) -> None:
    positions, boards = data
    net = T.FloatNetwork.random(16, seed=5)
    network = T.quantize(net, ("makruk",), "")
    acc_float = np.zeros((2, 16))
    for k in range(50):
        rows = positions.features[k].astype(np.int64)
        n = int(np.count_nonzero(rows >= 0))
        side = int(positions.stm[k])
        out = K.forward(net.w1, net.b1, net.w2, float(net.b2[0]), rows, n, side, acc_float)
        expected = out * N.SCALE
        bbs, _ = boards[k].kernel_arrays()
        acc = np.zeros((2, 16), dtype=np.int32)
        N.refresh(bbs, network.weights, acc, 0)
        value = N.output(network.weights, network.bias, acc, 0, side)
        assert value == pytest.approx(expected, abs=6)


def test_the_rate_falls_tenfold_for_the_last_third_and_adam_counts_every_step(
    data: tuple[TrainingPositions, list[Board]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six epochs of three batches: the first four epochs learn at the rate given, the last two
    (a third) at a tenth of it, and Adam's bias correction sees the steps 1, 2, 3, ... once
    each (every parameter array of a step shares its number)."""
    positions, _ = data
    calls: list[tuple[float, int]] = []
    adam = K.adam

    def recording(weights, grad, m, v, rate, step):  # type: ignore[no-untyped-def]
        calls.append((rate, step))
        adam(weights, grad, m, v, rate, step)

    monkeypatch.setattr(K, "adam", recording)
    train_positions = len(positions) - int(len(np.unique(positions.games)) * 0.2)
    batch = -(-train_positions // 3)  # three batches an epoch
    T.train(positions, hidden=4, epochs=6, batch=batch, rate=0.02, held_out=0.2)
    steps = 6 * 3
    assert [step for _rate, step in calls] == [s for s in range(1, steps + 1) for _ in range(4)]
    rates = [rate for rate, _step in calls[::4]]
    assert rates == [0.02] * 12 + [pytest.approx(0.002)] * 6


def test_the_reported_loss_does_not_depend_on_the_batch(
    data: tuple[TrainingPositions, list[Board]],
) -> None:
    """With a rate of 0 nothing is learnt, so the training loss reported for the epoch is the
    same mean over every training position whether the batches hold 7, 128 or all of them."""
    positions, _ = data
    losses = []
    for batch in (7, 128, len(positions)):
        reports: list[T.TrainingReport] = []
        T.train(positions, hidden=4, epochs=1, batch=batch, rate=0.0, report=reports.append)
        losses.append((reports[0].train_loss, reports[0].held_out_loss))
    assert losses[0] == pytest.approx(losses[2]) and losses[1] == pytest.approx(losses[2])


def test_the_target_blends_the_score_s_win_chance_and_the_result_by_lam(
    data: tuple[TrainingPositions, list[Board]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The network learns lam x sigmoid(score / S) + (1 - lam) x result, both from the side to
    move's view (docs/tuning.md): at lam 0.25 a won position scored 0 aims at 0.875."""
    positions, _ = data
    seen: list[np.ndarray] = []
    gradient = K.batch_gradient

    def recording(*args):  # type: ignore[no-untyped-def]
        seen.append(np.array(args[6]))
        return gradient(*args)

    monkeypatch.setattr(K, "batch_gradient", recording)
    T.train(positions, hidden=4, epochs=1, lam=0.25, scale=300.0)
    scores, results = T.side_to_move_view(positions)
    expected = 0.25 / (1.0 + np.exp(-scores / 300.0)) + 0.75 * results
    assert np.allclose(seen[0], expected)
    assert expected.min() >= 0.0 and expected.max() <= 1.0


def test_bad_settings_are_refused(data: tuple[TrainingPositions, list[Board]]) -> None:
    positions, _ = data
    with pytest.raises(ValueError, match=r"lam 1\.5 must lie in"):
        T.train(positions, lam=1.5)
    with pytest.raises(ValueError, match="no training positions"):
        T.train(TrainingPositions.empty())


def test_the_command_trains_a_network_a_player_uses(
    tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "net.npz"
    code = main(["tune", "train", str(source), "-o", str(out), "--hidden", "8", "--epochs",
                 "2", "--batch", "256", "--sets", "makruk"])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "epoch   2" in printed and f"kradan:network={out}" in printed
    network = load_network(out)
    assert network.hidden == 8 and network.sets == ("makruk",)
    assert "1,500 positions" in network.about
    player = make_player(f"kradan:network={out}")
    assert f"(network {out})" in player.name
    move = player.choose_move(Board(), Limit(depth=2))
    assert move.move is not None
    with pytest.raises(PlayerSpecError, match="bad network file"):
        make_player(f"kradan:network={tmp_path / 'missing.npz'}")
    assert main(["tune", "train", str(source), "-o", str(out), "--sets", "chess"]) == 2
    assert "--sets 'chess'" in capsys.readouterr().err


def test_the_scale_is_the_weighted_evaluation_s_unless_fitted(
    data: tuple[TrainingPositions, list[Board]],
) -> None:
    positions, _ = data
    _, fixed = T.train(positions, hidden=4, epochs=1, batch=512)
    assert fixed == T.DEFAULT_SCALE == 420.0
    _, fitted = T.train(positions, hidden=4, epochs=1, batch=512, scale=None)
    assert fitted == pytest.approx(300, rel=0.25)  # the results were drawn at 300 cp a unit
    with pytest.raises(ValueError, match="a scale of -5"):
        T.train(positions, scale=-5)


def test_a_network_read_back_into_floats_quantizes_to_itself() -> None:
    """``FloatNetwork.from_network`` undoes :func:`quantize` exactly, for the shipped network
    and a random one, so training that goes on from a network loses nothing first."""
    shipped = load_network(DEFAULT_NETWORK_FILE)
    random_net = T.quantize(T.FloatNetwork.random(8, seed=3), ("makruk",), "")
    for network in (shipped, random_net):
        again = T.quantize(T.FloatNetwork.from_network(network), network.sets, network.about)
        assert np.array_equal(again.weights, network.weights)
        assert again.bias == network.bias


def test_training_goes_on_from_a_start_network_and_leaves_it_alone(
    data: tuple[TrainingPositions, list[Board]],
) -> None:
    """With a start, the first epoch's held-out loss is the start's (a rate of 0 keeps it
    exactly), far below a random network's; the start's arrays are not changed, and its
    width overrides ``hidden``."""
    positions, _ = data
    learnt, _ = T.train(positions, hidden=16, epochs=12, batch=128, rate=0.01, lam=1.0,
                        held_out=0.2)  # fmt: skip
    kept = [array.copy() for array in (learnt.w1, learnt.b1, learnt.w2, learnt.b2)]

    def first_loss(**settings) -> tuple[T.FloatNetwork, float]:  # type: ignore[no-untyped-def]
        reports: list[T.TrainingReport] = []
        net, _ = T.train(positions, epochs=1, batch=128, lam=1.0, held_out=0.2,
                         report=reports.append, **settings)  # fmt: skip
        return net, reports[0].held_out_loss

    still, from_start = first_loss(init=learnt, rate=0.0, hidden=4)
    _, from_random = first_loss(hidden=16, rate=0.0)
    _, from_start_learning = first_loss(init=learnt, rate=0.001)
    assert from_start < 0.6 * from_random
    assert from_start_learning < 0.6 * from_random
    assert still.w1.shape[1] == 16 and np.array_equal(still.w1, learnt.w1)
    for array, copy in zip((learnt.w1, learnt.b1, learnt.w2, learnt.b2), kept, strict=True):
        assert np.array_equal(array, copy)


def test_the_command_starts_from_a_network_file(
    tmp_path: Path, source: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "first.npz", tmp_path / "second.npz"
    assert main(["tune", "train", str(source), "-o", str(first), "--hidden", "8",
                 "--epochs", "1", "--sets", "makruk"]) == 0  # fmt: skip
    assert main(["tune", "train", str(source), "-o", str(second), "--init", str(first),
                 "--epochs", "1", "--rate", "0"]) == 0  # fmt: skip
    network = load_network(second)
    assert network.hidden == 8 and f"from {first}" in network.about
    assert "hidden 8" in network.about
    assert network.sets == ("makruk", "ouk", "sittuyin")  # the default: every game
    assert np.array_equal(network.weights, load_network(first).weights)
    capsys.readouterr()
    missing = tmp_path / "missing.npz"
    assert main(["tune", "train", str(source), "-o", str(second), "--init", str(missing)]) == 2
    assert str(missing) in capsys.readouterr().err
