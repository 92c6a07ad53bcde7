"""The evaluation network's kernel (kradan/engine/kernels/nnue.py) and its files
(kradan/engine/network.py): input rows, accumulators updated move by move equal to those summed
from scratch, the integer output against a plain computation, the search with a network, and
network files that round-trip or are refused with the reason."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest

from kradan import Board, Move
from kradan.engine import Limit, Searcher
from kradan.engine.kernels import nnue as N
from kradan.engine.kernels import node
from kradan.engine.kernels.evaluate import evaluate
from kradan.engine.network import FORMAT, Network, load_network, save_network
from kradan.errors import InputFileError

MAKRUK_START = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"


def _random_network(hidden: int = 8, seed: int = 1, sets: tuple[str, ...] = ("makruk",)) -> Network:
    rng = np.random.default_rng(seed)
    weights = rng.integers(-60, 60, size=(N.NET_ROWS, hidden)).astype(np.int32)
    weights[N.ROW_BIAS] = rng.integers(0, 200, size=hidden)
    weights[N.ROW_OUT_US] = rng.integers(-3000, 3000, size=hidden)
    weights[N.ROW_OUT_THEM] = rng.integers(-3000, 3000, size=hidden)
    return Network(weights, int(rng.integers(-50_000, 50_000)), sets, "test")


def _plain_accumulators(board: Board, network: Network) -> np.ndarray:
    """Both sides' accumulators summed in Python from the piece list."""
    acc = np.zeros((2, network.hidden), dtype=np.int64)
    for perspective in range(2):
        acc[perspective] = network.weights[N.ROW_BIAS]
        for square, piece in board.piece_map().items():
            color = 0 if piece.color else 1
            kernel_type = board.kernel_arrays()[1][square] & 7  # the mailbox code's type + 1
            relative = 0 if color == perspective else 1
            sq = square if perspective == 0 else square ^ 63
            acc[perspective] += network.weights[(relative * 6 + kernel_type - 1) * 64 + sq]
    return acc


def _random_games(game: str, count: int, seed: int) -> list[list[Board]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = Board(variant=game)
        boards = [board.copy()]
        for _ply in range(rng.randrange(20, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
            boards.append(board.copy())
        games.append(boards)
    return games


def test_the_start_looks_the_same_to_both_sides() -> None:
    """Black's rows are the board turned half round with the colours swapped: at Makruk's
    start (symmetric under that turn) both sides' inputs are the same set."""
    bbs, _ = Board(MAKRUK_START).kernel_arrays()
    rows = np.zeros(N.MAX_PIECES, dtype=np.int16)
    n = N.white_features(bbs, rows)
    assert n == 32
    white = sorted(int(f) for f in rows[:n])
    black = sorted(N.mirror_feature(f) for f in white)
    assert white == black
    assert len(set(white)) == 32 and all(0 <= f < N.FEATURES for f in white)


def test_white_rows_and_mirrored_rows_are_each_sides_features() -> None:
    board = Board("r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11")
    bbs, info = board.kernel_arrays()
    rows = np.zeros(N.MAX_PIECES, dtype=np.int16)
    n = N.white_features(bbs, rows)
    expected_white, expected_black = set(), set()
    for sq in range(64):
        piece = int(info[sq])
        if piece:
            expected_white.add(N.feature(0, piece, sq))
            expected_black.add(N.feature(1, piece, sq))
    assert {int(f) for f in rows[:n]} == expected_white
    assert {N.mirror_feature(int(f)) for f in rows[:n]} == expected_black


@pytest.mark.parametrize("game", ["makruk", "cambodian", "sittuyin"])
def test_accumulators_updated_move_by_move_equal_those_summed_afresh(game: str) -> None:
    """Every move of random games (Ouk's leaps, Sittuyin's drops and promotions included):
    the update from the move's two squares gives the accumulators a fresh sum gives."""
    network = _random_network(hidden=16)
    for boards in _random_games(game, 6, seed=5):
        bbs, _info = boards[0].kernel_arrays()
        acc = np.zeros((4, 16), dtype=np.int32)  # rows 0-1 before a move, 2-3 after it
        N.refresh(bbs, network.weights, acc, 0)
        assert np.array_equal(acc[:2], _plain_accumulators(boards[0], network))
        for before, after in itertools.pairwise(boards):
            move = after.peek()
            assert isinstance(move, Move)
            frm, to = move.from_square, move.to_square
            _, info_before = before.kernel_arrays()
            bbs_after, info_after = after.kernel_arrays()
            N.update(
                network.weights, acc, 0, 2, frm, to, int(info_before[frm]),
                int(info_before[to]), int(info_after[frm]), int(info_after[to]),
            )  # fmt: skip
            fresh = np.zeros((2, 16), dtype=np.int32)
            N.refresh(bbs_after, network.weights, fresh, 0)
            assert np.array_equal(acc[2:], fresh), f"{after.fen()} after {move.uci()}"
            acc[:2] = acc[2:]


def test_the_output_is_the_squared_clipped_sum() -> None:
    network = _random_network(hidden=12, seed=3)
    board = Board("r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11")
    acc = _plain_accumulators(board, network)
    for stm in (0, 1):
        us, them = np.clip(acc[stm], 0, N.QA), np.clip(acc[1 - stm], 0, N.QA)
        out_us = network.weights[N.ROW_OUT_US].astype(np.int64)
        out_them = network.weights[N.ROW_OUT_THEM].astype(np.int64)
        total = int(((us * us) >> 8) @ out_us + ((them * them) >> 8) @ out_them)
        expected = (total * 256 // N.QA + network.bias) * N.SCALE // (N.QA * N.QB)
        assert N.output(network.weights, network.bias, acc.astype(np.int32), 0, stm) == expected


def test_the_kernel_evaluates_with_the_network() -> None:
    """With a network the static value is its output for the side to move (the endgame
    knowledge adds nothing in a middlegame), and the search's scores follow it."""
    network = _random_network(hidden=8, seed=4)
    board = Board("r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11")
    from kradan.engine import weights as W

    row = W.DEFAULT[W.SET_MAKRUK]
    ctx = np.zeros(node.CTX_NB, dtype=np.int64)
    ctx[node.C_NET_BIAS] = network.bias
    for fen in (board.fen(), board.fen().replace(" b ", " w ")):
        bbs, info = Board(fen).kernel_arrays()
        nnue = np.vstack([network.weights, np.zeros((2, 8), dtype=np.int32)])
        first = node.accumulator_row(0)
        N.refresh(bbs, network.weights, nnue, first)
        expected = N.output(network.weights, network.bias, nnue, first, int(info[64]))
        assert expected != evaluate(bbs, info, row)
        assert node.static_value(bbs, info, row, nnue, 0, ctx) == expected
    searcher = Searcher(1)
    searcher.use_network(False)
    plain = searcher.best_move(board, Limit(depth=3))
    searcher.use_network(network)
    searcher.clear()
    searcher.resize(1)
    netted = searcher.best_move(board, Limit(depth=3))
    assert plain.info is not None and netted.info is not None
    assert (plain.info.score, plain.info.nodes) != (netted.info.score, netted.info.nodes)


def test_a_network_for_one_game_leaves_the_others_to_the_weighted_terms() -> None:
    network = _random_network(sets=("ouk",))
    searcher = Searcher(1)
    board = Board("r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11")
    searcher.use_network(False)
    plain = searcher.best_move(board, Limit(depth=4))
    searcher.use_network(network)
    searcher.clear()
    searcher.resize(1)
    other = searcher.best_move(board, Limit(depth=4))
    assert plain.info is not None and other.info is not None
    assert (plain.move, plain.info.score, plain.info.nodes) == (
        other.move,
        other.info.score,
        other.info.nodes,
    )


def test_the_search_and_a_fresh_sum_agree_at_every_ply() -> None:
    """The kernel's make with the network keeps the next ply's accumulators equal to a fresh
    sum, through a whole line of moves (null moves copy them)."""
    network = _random_network(hidden=8, seed=9)
    board = Board(MAKRUK_START)
    rng = random.Random(2)
    bbs, info = board.kernel_arrays(room=64)
    nnue = np.vstack([network.weights, np.zeros((2 * 41, 8), dtype=np.int32)])
    N.refresh(bbs, network.weights, nnue, node.accumulator_row(0))
    for ply in range(40):
        moves = list(board.legal_moves)
        if not moves:
            break
        move = rng.choice(moves)
        node.make_and_update(bbs, info, board.encode_move(move), nnue, ply)
        board.push(move)
        fresh = np.zeros((2, 8), dtype=np.int32)
        N.refresh(board.kernel_arrays()[0], network.weights, fresh, 0)
        row = node.accumulator_row(ply + 1)
        assert np.array_equal(nnue[row : row + 2], fresh)


def test_a_network_file_round_trips(tmp_path: Path) -> None:
    network = _random_network(hidden=8, sets=("makruk", "ouk"))
    path = tmp_path / "net.npz"
    save_network(network, path)
    read = load_network(path)
    assert np.array_equal(read.weights, network.weights) and read.weights.dtype == np.int32
    assert (read.bias, read.sets, read.about, read.hidden) == (network.bias, network.sets,
                                                               "test", 8)  # fmt: skip
    assert read.evaluates(0) and read.evaluates(1) and not read.evaluates(2)


def test_wide_weights_are_kept_whole(tmp_path: Path) -> None:
    network = _random_network(hidden=4)
    network.weights[5, 0] = 70_000
    save_network(network, tmp_path / "wide.npz")
    assert load_network(tmp_path / "wide.npz").weights[5, 0] == 70_000
    network.weights[N.ROW_OUT_THEM, 1] = -N.OUTPUT_LIMIT  # its sum would overflow 32 bits
    save_network(network, tmp_path / "too-wide.npz")
    with pytest.raises(InputFileError, match="output weights beyond"):
        load_network(tmp_path / "too-wide.npz")


def test_weights_that_fit_16_bits_are_stored_in_them_and_others_in_32(tmp_path: Path) -> None:
    """A network whose weights all lie within 16 bits (below 2**15 in size) is written as int16,
    half the file; one weight beyond that keeps the whole array at int32. Either way the
    weights read back exactly: 40,000 must not wrap round to a negative int16."""
    for top, stored in ((2**15 - 1, np.int16), (2**15, np.int32), (40_000, np.int32)):
        network = _random_network(hidden=4)
        network.weights[7, 2] = top
        path = tmp_path / f"net-{top}.npz"
        save_network(network, path)
        with np.load(path) as data:
            assert data["weights"].dtype == stored, top
        assert np.array_equal(load_network(path).weights, network.weights), top


def test_bad_network_files_are_refused_with_the_reason(tmp_path: Path) -> None:
    text = tmp_path / "text.npz"
    text.write_text("not a network")
    with pytest.raises(InputFileError, match=r"cannot read a network from .*text\.npz"):
        load_network(text)
    with pytest.raises(InputFileError, match=r"missing\.npz"):
        load_network(tmp_path / "missing.npz")
    other = tmp_path / "other.npz"
    np.savez(other, format="something-else", weights=np.zeros((N.NET_ROWS, 2)), bias=0,
             sets=np.array(["makruk"]), about="")  # fmt: skip
    with pytest.raises(InputFileError, match="'something-else' file, not 'kradan-nnue-1'"):
        load_network(other)
    shaped = tmp_path / "shaped.npz"
    np.savez(shaped, format=FORMAT, weights=np.zeros((10, 2)), bias=0,
             sets=np.array(["makruk"]), about="")  # fmt: skip
    with pytest.raises(InputFileError, match=r"weights of shape \(10, 2\)"):
        load_network(shaped)
    unknown = tmp_path / "unknown.npz"
    np.savez(unknown, format=FORMAT, weights=np.zeros((N.NET_ROWS, 2)), bias=0,
             sets=np.array(["chess"]), about="")  # fmt: skip
    with pytest.raises(InputFileError, match=r"names weight sets \['chess'\]"):
        load_network(unknown)


def test_without_a_network_the_evaluation_is_the_weighted_terms() -> None:
    """The network's hook leaves the weighted evaluation as it was: the kernel's static value
    with an empty network is :func:`evaluate`'s."""
    board = Board("r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11")
    bbs, info = board.kernel_arrays()
    from kradan.engine import weights as W

    row = W.DEFAULT[W.SET_MAKRUK]
    ctx = np.zeros(node.CTX_NB, dtype=np.int64)
    empty = np.zeros((0, 1), dtype=np.int32)
    assert node.static_value(bbs, info, row, empty, 0, ctx) == evaluate(bbs, info, row)


def _uci(*lines: str) -> list[str]:
    from kradan.engine.protocol.uci import UciEngine

    out: list[str] = []
    engine = UciEngine(out.append)
    for line in lines:
        engine.handle(line)
    engine.wait()
    engine.shutdown()
    return out


def test_the_uci_engine_takes_a_network_file(tmp_path: Path) -> None:
    assert "option name EvalFile type string default <default>" in _uci("uci")
    path = tmp_path / "net.npz"
    save_network(_random_network(hidden=8, seed=6, sets=("makruk", "ouk")), path)
    position = "position fen r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11"
    plain = _uci("setoption name EvalFile value <none>", position, "go depth 2")
    netted = _uci(f"setoption name EvalFile value {path}", position, "go depth 2")
    back = _uci(f"setoption name EvalFile value {path}", "setoption name EvalFile value <none>",
                position, "go depth 2")  # fmt: skip

    def last_info(out: list[str]) -> str:
        return [line for line in out if line.startswith("info depth 2 ")][-1].split(" nps")[0]

    assert last_info(netted) != last_info(plain)
    assert last_info(back).split(" nodes")[0] == last_info(plain).split(" nodes")[0]
    bad = _uci(f"setoption name EvalFile value {tmp_path / 'none.npz'}")
    assert "cannot read a network" in bad[-1] and "none.npz" in bad[-1]


def test_the_search_with_a_network_stays_inside_its_arrays(tmp_path: Path) -> None:
    """Run un-compiled (NUMBA_DISABLE_JIT=1), where NumPy raises on an index past an array's
    end that compiled code would write through: a search deep enough for null moves,
    reductions and re-searches, with and without a network. (A null move once reused the
    search stack's row variable for the accumulators' row and wrote far past the stack.)"""
    import os
    import subprocess
    import sys

    # a network that counts material, so that null moves fail and the search goes on below
    # them (a random network's scores seldom let it)
    weights = np.zeros((N.NET_ROWS, 1), dtype=np.int32)
    for piece_type, value in enumerate((3, 8, 7, 5, 13)):  # each side's own pieces
        weights[piece_type * 64 : (piece_type + 1) * 64, 0] = value
    weights[N.ROW_BIAS] = 100
    weights[N.ROW_OUT_US, 0] = 30000
    weights[N.ROW_OUT_THEM, 0] = -30000
    path = tmp_path / "material.npz"
    save_network(Network(weights, 0, ("makruk",), "material"), path)
    script = (
        "from kradan import Board\n"
        "from kradan.engine import Limit, Searcher\n"
        "for net in (False, __import__('sys').argv[1]):\n"
        "    s = Searcher(1); s.use_network(net)\n"
        "    for fen in ('r1sm1snr/8/n1ppkpp1/4P2p/1P1p3P/1PP2PPR/3N1S2/2SKM1N1 b - - 0 11',\n"
        "                'rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1'):\n"
        "        print(s.best_move(Board(fen), Limit(depth=4)).move)\n"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True,
        timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert len(done.stdout.split()) == 4
