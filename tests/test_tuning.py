"""The evaluation's weights (kradan/engine/weights.py), the counts they weigh
(features.py) and the Texel fit (kradan/tuning.py): the data file round-trips, the weighted
counts are the evaluation, a weights file changes the engine's play, and a fit recovers
weights from results they produced."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import cast

import numpy as np
import pytest

from kradan import BLACK, PAWN, WHITE, Board, pgn
from kradan.cli.main import main
from kradan.engine import Limit, Searcher
from kradan.engine import weights as W
from kradan.engine.kernels.evaluate import evaluate, phase
from kradan.engine.kernels.features import features
from kradan.engine.searchers import Searchers
from kradan.games import new_board
from kradan.runners.players import PlayerSpecError, make_player
from kradan.training import tuning

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


def test_every_weight_has_a_place_of_its_own(tmp_path: Path) -> None:
    """Each of the N_PARAMS weights, given a value no other has, comes back in its own place
    from the data file's form, and through a written file for every set (the packaged weights
    repeat values, so a swapped offset could hide in them)."""
    row = np.arange(W.N_PARAMS, dtype=np.int64) * 7 - 500
    assert np.array_equal(W.to_array(W.from_array(row)), row)
    params = np.stack([row + 10_000 * i for i in range(len(W.SETS))])
    W.dump(params, tmp_path / "weights.json", "distinct")
    assert np.array_equal(W.load(tmp_path / "weights.json"), params)
    assert '"passed_pawn": [' in (tmp_path / "weights.json").read_text(encoding="utf-8")


def test_a_symmetric_table_gives_a_square_and_its_mirror_one_value() -> None:
    """32 values a table, rank by rank, files a-d: a1 and h1 read 0, d1 and e1 read 3, a2
    reads 4, d8 and e8 read 31; every value serves exactly two squares."""
    assert sorted(W.MIRROR.tolist()) == sorted(list(range(32)) * 2)
    assert all(W.MIRROR[sq] == W.MIRROR[sq ^ 7] for sq in range(64))
    assert [W.mirror(sq) for sq in (0, 7, 3, 4, 8, 59, 60)] == [0, 0, 3, 3, 4, 31, 31]


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
        # the same sum, which the evaluation rounds down to a whole centipawn
        assert abs(evaluate(bbs, info, row) - sign * white) < 1, board.fen()


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
        moved = evaluate(bbs, info, row) - base
        assert abs(moved - sign * 5 * counts[index]) < 1, index  # both rounded down


def test_the_phase_blends_the_middlegame_and_endgame_weights() -> None:
    start = Board()
    bbs, info = start.kernel_arrays()
    assert phase(bbs, info) == W.PHASE_MAX
    bbs, info = Board("4k3/8/pppp4/8/8/4PPPP/8/4K3 w - - 0 1").kernel_arrays()
    assert phase(bbs, info) == 0
    row = W.DEFAULT[W.SET_MAKRUK].copy()
    # pawns weigh 40 more in the endgame alone
    row[W.P_ENDGAME + W.P_MATERIAL + W.PIECES.index("pawn")] += 40
    assert evaluate(bbs, info, row) == evaluate(bbs, info, W.DEFAULT[W.SET_MAKRUK])  # 4 and 4
    one_up = Board("4k3/8/ppp5/8/8/4PPPP/8/4K3 w - - 0 1")
    up_bbs, up_info = one_up.kernel_arrays()
    gain = evaluate(up_bbs, up_info, row) - evaluate(up_bbs, up_info, W.DEFAULT[W.SET_MAKRUK])
    assert gain == 40
    bbs, info = start.kernel_arrays()
    assert evaluate(bbs, info, row) == evaluate(bbs, info, W.DEFAULT[W.SET_MAKRUK])


def test_passed_pawns_and_pawn_threats_are_counted() -> None:
    # White: a passed pawn on e5 (rank 5 from White's side), a pawn on b3 that attacks
    # Black's knight on c4 and is blocked by nothing; Black: a pawn on h6, passed (rank 3 from
    # Black's side), and one on a6 in front of b3's file, so b3 is not passed
    board = Board("4k3/8/p6p/4P3/2n5/1P6/8/4K2R w - - 0 1")
    bbs, info = board.kernel_arrays()
    out = np.zeros(W.N_PARAMS)
    features(bbs, info, out)
    weight = phase(bbs, info) / W.PHASE_MAX
    both = out[: W.P_ENDGAME] + out[W.P_ENDGAME : W.P_TEMPO]  # the phases summed: the counts
    assert np.allclose(out[: W.P_ENDGAME], both * weight)
    passed = both[W.P_PASSED : W.P_PASSED + 8]
    assert passed.tolist() == [0, 0, -1, 0, 1, 0, 0, 0]  # e5 for White, h6 for Black
    threats = both[W.P_PAWN_THREAT : W.P_PAWN_THREAT + len(W.THREATENED)]
    assert threats.tolist() == [1, 0, 0, 0]  # b3 attacks the knight on c4


def test_the_endgame_weights_default_to_the_middlegame_ones() -> None:
    data = json.loads(W.WEIGHTS_FILE.read_text(encoding="utf-8"))["sets"]["makruk"]
    data.pop("endgame")
    row = W.to_array(data)
    assert np.array_equal(row[: W.P_ENDGAME], row[W.P_ENDGAME : W.P_TEMPO])
    data["passed_pawn"] = [1, 2, 3]
    with pytest.raises(ValueError, match="passed_pawn needs 8 values"):
        W.to_array(data)


def _weights_file(tmp_path: Path, **raises: int) -> Path:
    """The packaged weights with Makruk's piece values raised (in every phase) by ``raises``."""
    data = json.loads(W.WEIGHTS_FILE.read_text(encoding="utf-8"))
    makruk = data["sets"]["makruk"]
    for name, value in raises.items():
        makruk["material"][name] += value
        makruk["endgame"]["material"][name] += value
    path = tmp_path / "weights.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_weights_file_changes_what_the_engine_thinks(tmp_path: Path) -> None:
    # Black has given a knight: worth 200 more, it costs Black 200 centipawns more
    # (the weights evaluate Makruk when the network does not)
    board = Board("r1smksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1")
    packaged = Searcher(hash_mb=1)
    heavy = Searcher(hash_mb=1)
    for searcher in (packaged, heavy):
        searcher.use_network(False)
    heavy.use_weights(_weights_file(tmp_path, knight=200))
    plain = packaged.best_move(board, Limit(depth=1)).info
    changed = heavy.best_move(board, Limit(depth=1)).info
    assert plain is not None and changed is not None
    assert changed.score.cp - plain.score.cp == 200  # type: ignore[operator]
    heavy.use_weights(None)
    again = heavy.best_move(board, Limit(depth=1)).info
    assert again is not None and again.score == plain.score


def test_a_read_table_is_shared_by_every_search_and_a_wrong_one_refused(tmp_path: Path) -> None:
    table = W.load(_weights_file(tmp_path, knight=200))
    searchers = Searchers(hash_mb=1)
    searchers.use_weights(_weights_file(tmp_path, knight=200))
    assert searchers.weights is not None and np.array_equal(searchers.weights, table)
    searcher = cast(Searcher, searchers.chess)
    assert searcher.adapter.weights is searchers.weights  # read once, handed down
    searchers.use_weights(table)
    assert searcher.adapter.weights is table
    with pytest.raises(ValueError, match=re.escape(f"shape {W.DEFAULT.shape}, not (3, 5)")):
        searcher.use_weights(np.zeros((3, 5)))
    assert searcher.adapter.weights is table  # a refused table changes nothing
    searchers.use_weights(None)
    assert searcher.adapter.weights is W.DEFAULT


def test_a_player_takes_a_weights_file(tmp_path: Path) -> None:
    path = _weights_file(tmp_path, pawn=-10)
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


def _random_games(game: str, count: int, seed: int) -> list[pgn.Game]:
    """Random games played to a result (or 120 plies, then called a draw)."""
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        board = Board(variant=game)
        while board.outcome(claim_draw=True) is None and len(board.move_stack) < 120:
            board.push(rng.choice(list(board.legal_moves)))
        played = pgn.Game.from_board(board)
        if board.outcome(claim_draw=True) is None:
            played.headers["Result"] = "1/2-1/2"
        games.append(played)
    return games


def test_collected_positions_are_quiet_and_their_counts_are_the_evaluation() -> None:
    games = _random_games("makruk", 6, seed=2)
    found = tuning.collect(games, "makruk", skip_plies=4)
    assert len(found) > 20 and set(found.games) <= set(range(6))
    results = {1.0, 0.0, 0.5}
    assert set(found.results.tolist()) <= results
    # each kept position is one of its game's, after the skipped plies, quiet, and labelled
    # with that game's result
    for counts, result, number in zip(found.counts, found.results, found.games, strict=True):
        game = games[number]
        assert result == tuning.RESULTS[game.headers["Result"]]
        assert counts[W.P_TEMPO] in (1.0, -1.0)
    assert tuning.collect(games, "ouk").counts.shape == (0, W.N_PARAMS)  # Makruk games only


def test_a_position_with_a_capture_or_a_check_is_not_quiet() -> None:
    out = np.zeros(W.N_PARAMS)
    row = W.DEFAULT[W.SET_MAKRUK]
    assert tuning.quiet_counts(Board(), row, out)
    assert not tuning.quiet_counts(Board("4k3/8/8/3r4/8/4N3/8/4K3 w - - 0 1"), row, out)  # Nxd5
    assert not tuning.quiet_counts(Board("4k3/8/8/8/8/8/4r3/3K4 w - - 0 1"), row, out)  # check


def test_positions_save_and_load(tmp_path: Path) -> None:
    found = tuning.collect(_random_games("cambodian", 3, seed=5), "ouk", skip_plies=0)
    found.save(tmp_path / "ouk.npz")
    again = tuning.Positions.load(tmp_path / "ouk.npz")
    assert again.set_name == "ouk" and np.array_equal(again.counts, found.counts)
    assert np.array_equal(again.results, found.results)


def test_the_fit_recovers_the_weights_that_made_the_results() -> None:
    """Results drawn from known weights (kradan's own, each moved at random, a knight worth
    420): starting from kradan's own, the fit moves toward them and predicts results of
    games it did not see better."""
    rng = np.random.default_rng(7)
    n = 100_000
    counts = rng.integers(-2, 3, size=(n, W.N_PARAMS)) * (rng.random((n, W.N_PARAMS)) < 0.05)
    start = W.DEFAULT[W.SET_MAKRUK].astype(np.float64)
    truth = start + rng.normal(0.0, 25.0, W.N_PARAMS)
    truth[W.P_MATERIAL + 1] = 420
    results = rng.random(n) < tuning.expected_score(counts @ truth, 1.0)
    positions = tuning.Positions(
        "makruk", counts.astype(np.float32), results.astype(np.float32),
        np.arange(n, dtype=np.int32) // 10,
    )  # fmt: skip
    fitted = tuning.fit(positions, start.astype(np.int64), l2=1e-9)
    # K is fitted first, to the starting weights, which predict less well than the truth:
    # a smaller K, for which the weights grow; their product is the truth's scale (K = 1)
    assert 0.7 < fitted.k < 1.25
    assert abs(fitted.k * fitted.row[W.P_MATERIAL + 1] - 420) < 40
    moved, meant = fitted.row - start, truth - start
    assert np.corrcoef(moved, meant)[0, 1] > 0.6
    assert fitted.held_out_after < fitted.held_out_before
    assert fitted.train_after < fitted.train_before


def test_the_tune_command_collects_fits_and_writes_a_weights_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games = tmp_path / "games.pgn"
    games.write_text("\n".join(str(g) + "\n" for g in _random_games("makruk", 8, seed=9)))
    data, tuned = tmp_path / "makruk.npz", tmp_path / "tuned.json"
    assert main(["tune", "positions", str(games), "-o", str(data)]) == 0
    assert re.search(r"\d+ quiet positions of [1-8] games", capsys.readouterr().out)
    assert main(["tune", "fit", str(data), "-o", str(tuned)]) == 0
    out = capsys.readouterr().out
    assert "held-out positions" in out and f"kradan:weights={tuned}" in out
    table = W.load(tuned)
    assert np.array_equal(table[W.SET_OUK], W.DEFAULT[W.SET_OUK])  # only Makruk's set fitted
    about = json.loads(tuned.read_text())["about"]
    assert f"l2 {tuning.DEFAULT_L2:g}" in about and tuning.DEFAULT_L2 == 3e-9  # docs/tuning.md
    assert make_player(f"kradan:weights={tuned}").name == f"kradan ({tuned})"


def test_the_tune_command_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.pgn"
    empty.write_text('[Variant "makruk"]\n\n1. e4 *\n')
    assert main(["tune", "positions", str(empty), "-o", str(tmp_path / "x.npz")]) != 0
    assert "no quiet makruk positions" in capsys.readouterr().err
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not numpy")
    assert main(["tune", "fit", str(junk), "-o", str(tmp_path / "w.json")]) != 0
    assert f"cannot read positions from {str(junk)!r}" in capsys.readouterr().err


def _uci(*lines: str) -> list[str]:
    from kradan.engine.protocol.uci import UciEngine

    out: list[str] = []
    engine = UciEngine(out.append)
    for line in lines:
        engine.handle(line)
    engine.wait()  # the last search's end, not a stop
    engine.shutdown()
    return out


def test_the_uci_engine_takes_a_weights_file(tmp_path: Path) -> None:
    assert "option name EvalWeights type string default <default>" in _uci("uci")
    path = _weights_file(tmp_path, knight=200)
    position = "position fen r1smksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
    plain_terms = "setoption name EvalFile value <none>"  # Makruk without the network
    plain = _uci(plain_terms, position, "go depth 1")
    heavy = _uci(plain_terms, f"setoption name EvalWeights value {path}", position, "go depth 1")
    back = _uci(plain_terms, f"setoption name EvalWeights value {path}",
                "setoption name EvalWeights value <default>", position, "go depth 1")  # fmt: skip

    def score(out: list[str]) -> int:
        info = [line for line in out if line.startswith("info depth 1 ")][-1].split()
        return int(info[info.index("cp") + 1])

    assert score(heavy) - score(plain) == 200 and score(back) == score(plain)
    bad = _uci(f"setoption name EvalWeights value {tmp_path / 'none.json'}")
    assert "cannot read weights" in bad[-1] and "none.json" in bad[-1]


def test_damaged_and_unfinished_games_are_left_out() -> None:
    good = _random_games("makruk", 2, seed=11)
    texts = [
        '[Variant "makruk"]\n[FEN "not a fen"]\n[Result "1-0"]\n\n1. e4 1-0\n',
        '[Variant "shogi"]\n[Result "1-0"]\n\n1. e4 1-0\n',
        '[Variant "alquerque"]\n[Result "1-0"]\n\n1. c2c3 1-0\n',
        '[Variant "makruk"]\n\n1. e4 d5 2. Nd2 *\n',
    ]
    bad = [pgn.read_game(io.StringIO(text)) for text in texts]
    found = tuning.collect([*bad, *good], "makruk", skip_plies=0)
    assert set(found.games.tolist()) <= {4, 5} and len(found) > 0
    good[0].headers["Termination"] = "time forfeit"  # says nothing of its positions
    found = tuning.collect([*bad, *good], "makruk", skip_plies=0)
    assert set(found.games.tolist()) == {5}


@pytest.mark.parametrize("game", ["makruk", "cambodian"])
def test_random_openings_are_different_legal_lines(game: str) -> None:
    lines = tuning.random_openings(game, 30, 8, seed=4)
    assert len({" ".join(line) for line in lines}) == 30
    for line in lines:
        board = Board(variant=game)
        for uci in line:
            assert uci in {move.uci() for move in board.legal_moves}
            board.push_uci(uci)
        assert len(line) == 8 and not board.is_check() and not board.is_game_over()
    assert tuning.random_openings(game, 30, 8, seed=4) == lines  # the seed repeats them
    assert tuning.random_openings(game, 30, 8, seed=5) != lines


def test_the_tune_command_writes_openings_a_match_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kradan.runners.match import load_openings

    path = tmp_path / "openings.txt"
    assert main(["tune", "openings", "-o", str(path), "--count", "12", "--plies", "6"]) == 0
    assert "12 different 6-ply makruk openings" in capsys.readouterr().out
    openings = load_openings(str(path), "makruk")
    assert len(openings) == 12 and all(len(moves) == 6 for _start, moves in openings)
    # Makruk has 23 first moves: a hundred different lines of one ply cannot be found
    assert main(["tune", "openings", "-o", str(path), "--count", "100", "--plies", "1"]) == 2
    assert "found only 23 different 1-ply lines of makruk, not 100" in capsys.readouterr().err
