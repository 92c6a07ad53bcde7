"""End of game (docs/rules.md 2.4-2.7, 3.3-3.4, 4, 5.5-5.6; conflicts C1-C16): the seeds' worked
examples, Fairy-Stockfish's counting and every end-of-game option in both settings."""

from __future__ import annotations

import dataclasses

import pytest

from kradan import BLACK, WHITE, Board, CountAction, CountingError, Outcome, Termination

LONE_KING = "8/8/4k3/8/1r6/8/8/R2K1N1R w - - 0 40"


def play(board: Board, moves: str) -> Board:
    for uci in moves.split():
        board.push_uci(uci)
    return board


# --- Outcome and result -----------------------------------------------------------------------


def test_outcome_results() -> None:
    assert Outcome(Termination.CHECKMATE, WHITE).result() == "1-0"
    assert Outcome(Termination.CHECKMATE, BLACK).result() == "0-1"
    assert Outcome(Termination.REPETITION, None).result() == "1/2-1/2"
    assert Outcome(Termination.REPLAY, None).result() == "*"


def test_game_in_progress() -> None:
    board = Board()
    assert board.outcome() is None and not board.is_game_over() and board.result() == "*"
    assert not board.can_claim_draw() and board.counting_state() is None


def test_checkmate_rule_2_4() -> None:
    board = Board("k7/2K5/8/8/8/8/R7/8 b - 32 6 1")
    assert board.outcome() == Outcome(Termination.CHECKMATE, WHITE)
    assert board.result() == "1-0" and board.is_game_over()


def test_mate_beats_an_expired_count() -> None:
    """docs/rules.md 2.6.2: the draw comes when the count passes the limit, unless it is mate."""
    board = Board("k7/2K5/8/8/8/8/R7/8 b - 32 40 1")
    assert board.is_counting_limit()
    assert board.outcome() == Outcome(Termination.CHECKMATE, WHITE)


# --- stalemate (C1) ------------------------------------------------------------------------------

STALEMATE = "k1K5/7R/8/8/8/8/8/8 b - - 0 1"


@pytest.mark.parametrize(
    ("rule", "expected", "result"),
    [
        ("draw", Outcome(Termination.STALEMATE, None), "1/2-1/2"),
        ("stalemater_loses", Outcome(Termination.STALEMATE, BLACK), "0-1"),
        ("replay", Outcome(Termination.REPLAY, None), "*"),
    ],
)
def test_stalemate_options(rule: str, expected: Outcome, result: str) -> None:
    board = Board(STALEMATE, stalemate=rule)
    assert board.outcome() == expected and board.result() == result


# --- Kar Ouk (docs/rules.md 4) --------------------------------------------------------------------


def test_first_check_wins_in_kar_ouk() -> None:
    board = play(Board("4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", variant="karouk"), "a1a8")
    assert board.outcome() == Outcome(Termination.FIRST_CHECK, WHITE)
    same = play(Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", variant="cambodian"), "a1a8")
    assert same.outcome() is None  # in Ouk a check is only a check


# --- automatic counting (docs/rules.md 2.6.2)


def test_two_rooks_and_a_knight_give_three_moves() -> None:
    """[S0]'s worked example: 8 - 5 = 3 moves for the stronger side."""
    board = play(Board(LONE_KING), "a1a4 e6e5 a4b4")
    assert board.fen() == "8/8/8/4k3/1R6/8/8/3K1N1R b - 16 10 41"
    state = board.counting_state()
    assert state is not None
    assert (state.honour, state.counting_side, state.count, state.limit) == (
        "pieces' honour",
        BLACK,
        5,
        8,
    )
    assert state.moves_left == 3
    assert str(state) == "pieces' honour: Black counts 5 of 8; White has 3 moves left to mate"
    left = []
    for uci in ["e5e6", "h1h2", "e6e5", "h2h1", "e5e6", "h1h2"]:
        assert board.outcome() is None
        board.push_uci(uci)
        state = board.counting_state()
        assert state is not None
        left.append(state.moves_left)
    assert left == [3, 2, 2, 1, 1, 0]
    board.push_uci("e6e5")  # White's three moves are spent without mate
    assert board.is_counting_limit()
    assert board.outcome() == Outcome(Termination.COUNTING_LIMIT, None)


@pytest.mark.parametrize(
    ("precedence", "limit", "moves"), [("lowest", 64, 25), ("khon_first", 88, 37)]
)
def test_precedence_khon_and_two_knights(precedence: str, limit: int, moves: int) -> None:
    """[S1]'s example, khon + 2 knights + 2 mets: 44 - 7 = 37 read khon first, 32 - 7 = 25 by the
    smallest line (Fairy-Stockfish, [S2]; conflict C6)."""
    board = Board("k7/8/8/7K/8/8/3M4/1NS1MN2 b - - 0 40", pieces_honour_precedence=precedence)
    play(board, "a8b8 h5h6")
    assert board.fen() == f"1k6/8/7K/8/8/8/3M4/1NS1MN2 b - {limit} 14 41"
    state = board.counting_state()
    assert state is not None and state.moves_left == moves


@pytest.mark.parametrize("counting", ["auto", "declared"])
@pytest.mark.parametrize(("precedence", "limit"), [("lowest", 64), ("khon_first", 88)])
def test_a_capture_that_leaves_a_lone_king_reads_the_precedence(
    counting: str, precedence: str, limit: int
) -> None:
    """docs/rules.md 2.6.2, 2.6.4, C6: White's knight takes Black's last piece, leaving a khon and
    two knights: 32 moves by the smallest line (pyffish: ``… b - 64 10 1``), 44 read khon
    first, from the 5 pieces on the board, the same when counts are declared."""
    board = Board(
        "4k3/8/8/1r6/8/N7/8/1NS1K3 w - - 0 1",
        counting=counting,
        pieces_honour_precedence=precedence,
    )
    board.push_uci("a3b5")
    assert board.fen() == f"4k3/8/8/1N6/8/8/8/1NS1K3 b - {limit} 10 1"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_a_lone_king_taking_the_last_pawn_beside_a_knight_counts_its_capture(
    counting: str,
) -> None:
    """docs/rules.md 2.6.2: the lone king's capture of the last pawn is its first counted move, with
    no pawn left and a knight beside the king (pyffish: ``… w - 128 5 2``)."""
    board = play(Board("8/8/8/4k3/4P3/8/8/N2K4 b - - 0 1", counting=counting), "e5e4")
    assert board.fen() == "8/8/8/8/4k3/8/8/N2K4 w - 128 5 2"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_black_taking_whites_last_piece_starts_whites_count(counting: str) -> None:
    """docs/rules.md 2.6.2, 2.6.4, colours reversed: Black's rook takes White's, White's lone king
    counts from 3 with 16 moves (pyffish: ``3k4/8/8/r7/8/8/8/4K3 w - 32 6 2``)."""
    board = play(Board("r2k4/8/8/R7/8/8/8/4K3 b - - 0 1", counting=counting), "a8a5")
    assert board.fen() == "3k4/8/8/r7/8/8/8/4K3 w - 32 6 2"
    state = board.counting_state()
    assert state is not None and state.counting_side == WHITE and state.moves_left == 13


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_two_bare_kings_start_no_count(counting: str) -> None:
    """docs/rules.md 2.6.4: pieces' honour needs a stronger side; when a capture leaves two bare
    kings no count starts (the game is drawn by material)."""
    board = play(Board("8/8/8/8/8/8/kR6/4K3 b - - 0 1", counting=counting), "a2b2")
    assert board.counting_state() is None
    assert board.fen() == "8/8/8/8/8/8/1k6/4K3 w - - 0 2"
    assert board.outcome() == Outcome(Termination.INSUFFICIENT_MATERIAL, None)


def test_board_honour_starts_by_itself_when_the_last_pawn_goes() -> None:
    """docs/rules.md 2.6.2: promotion of the last pawn starts board's honour, 128 plies."""
    board = play(Board("3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1"), "f5f6m")
    assert board.fen() == "3k4/2m5/5M2/4M3/3KS3/8/8/8 b - 128 0 1"
    state = board.counting_state()
    assert state is not None and state.honour == "board's honour" and state.moves_left == 64


def test_lone_king_capturing_a_piece_does_not_restart_the_count() -> None:
    board = play(Board("8/8/8/3k4/3S4/8/8/R2K4 b - 32 10 50"), "d5d4")
    assert board.fen() == "8/8/8/8/3k4/8/8/R2K4 w - 32 11 51"


# --- Cambodian and ASEAN counting (docs/rules.md 3.3, 5.6; C9, C11)


@pytest.mark.parametrize(
    ("variant", "options", "fen_end"),
    [
        ("makruk", {}, "b - 32 6 1"),
        ("cambodian", {}, "b - 30 6 1"),  # every limit one move shorter
        ("cambodian", {"ouk_counting": "makruk"}, "b - 32 6 1"),
    ],
)
def test_cambodian_limits_are_one_move_shorter(variant: str, options: dict, fen_end: str) -> None:
    board = play(Board("8/8/8/4k3/8/8/8/R2K4 w - - 0 1", variant=variant, **options), "d1d2")
    assert board.fen().endswith(fen_end)


def test_cambodian_board_honour_with_pawns_for_a_small_side() -> None:
    fen = "4k3/8/4p3/8/8/PPP5/8/R2K4 b - - 0 1"
    ouk = play(Board(fen, variant="cambodian"), "e8d8 d1e1")
    assert ouk.fen() == "3k4/8/4p3/8/8/PPP5/8/R3K3 b - 126 0 2"
    makruk = play(Board(fen), "e8d8 d1e1")
    assert makruk.fen() == "3k4/8/4p3/8/8/PPP5/8/R3K3 b - - 2 2"
    four = play(Board("4k3/8/3ppp2/8/8/PPP5/8/R2K4 b - - 0 1", variant="cambodian"), "e8d8 d1e1")
    assert four.fen().split()[3] == "-"  # four black pieces: no count


def test_cambodian_lone_king_takes_the_last_pawn() -> None:
    board = play(Board("8/8/4k3/5P2/8/2RMK3/8/8 b - 126 42 50", variant="cambodian"), "e6f5")
    assert board.fen() == "8/8/8/5k2/8/2RMK3/8/8 w - 30 7 51"


@pytest.mark.parametrize(
    ("white", "counting", "fen_end"),
    [
        ("R2K4", "asean", "32 0 1"),  # 16 moves, counted from 0
        ("2SKS3", "asean", "88 0 1"),  # a sin: 44
        ("2NKN3", "asean", "128 0 1"),  # knights: 64
        ("2FKF3", "asean", "- 1 1"),  # sit-kes only: no count
        ("R2K4", "seed", "32 6 1"),  # the seed: 16 - N, as in Makruk
        ("2FKF3", "seed", "128 8 1"),
    ],
)
def test_sittuyin_counting(white: str, counting: str, fen_end: str) -> None:
    board = Board(
        f"8/8/8/4k3/8/8/8/{white}[] w - - 0 1", variant="sittuyin", sittuyin_counting=counting
    )
    board.push_uci("d1d2")  # the white king stands on d1 in each case
    assert board.fen().endswith(fen_end)


def test_taking_the_last_pawn_turns_boards_honour_into_pieces_honour() -> None:
    """docs/rules.md 3.3 items 1-2: Black, king and pawn, is counted for board's honour with the
    pawn on the board; when White takes the pawn, pieces' honour (two rooks, 7 moves) replaces it,
    from the 4 pieces (pyffish: ``5k2/4R3/8/8/8/8/8/R2K4 b - 14 8 2``)."""
    board = play(Board("4k3/4p3/8/8/8/8/3R4/R2K4 w - - 0 1", variant="cambodian"), "d2d7 e8f8")
    assert board.fen().endswith(" w - 126 1 2")
    board.push_uci("d7e7")
    assert board.fen() == "5k2/4R3/8/8/8/8/8/R2K4 b - 14 8 2"


# --- declared counting (docs/rules.md 2.6.4)

COUNTER_MATES = "k6m/2K5/8/8/8/8/7R/8 w - - 0 1"


def test_the_counter_may_not_mate_while_counting() -> None:
    """[S0]/[S2]: a mate by the side counting board's honour is only a draw."""
    board = Board(COUNTER_MATES, counting="declared")
    action = board.declare_count()
    assert action == CountAction("declare", WHITE)
    assert board.fen() == "k6m/2K5/8/8/8/8/7R/8 w - 128 0 1"
    board.push_uci("h2a2")
    assert board.outcome() == Outcome(Termination.MATE_WHILE_COUNTING, None)
    assert board.result() == "1/2-1/2"


def test_stopping_the_count_lets_the_counter_win() -> None:
    board = Board(COUNTER_MATES, counting="declared")
    board.declare_count()
    board.stop_count()
    assert board.counting_state() is None
    board.push_uci("h2a2")
    assert board.outcome() == Outcome(Termination.CHECKMATE, WHITE)
    auto = play(Board(COUNTER_MATES), "h2a2")
    assert auto.outcome() == Outcome(Termination.CHECKMATE, WHITE)


def test_pop_undoes_declarations() -> None:
    board = Board(COUNTER_MATES, counting="declared")
    board.declare_count()
    assert board.pop() == CountAction("declare", WHITE)
    assert board.counting_state() is None and board.fen() == COUNTER_MATES


def test_declared_board_honour_ends_after_the_counters_64th_move() -> None:
    fen = "7k/5m2/8/8/8/8/8/K1M5 w - - 0 1"
    board = Board(fen, counting="declared", insufficient_material="off")
    board.declare_count()
    white, black = ["c1d2", "d2c1"], ["f7e6", "e6f7"]
    for i in range(64):
        board.push_uci(white[i % 2])
        state = board.counting_state()
        assert state is not None and state.count == i + 1
        if i < 63:
            assert board.outcome() is None
            board.push_uci(black[i % 2])
    assert board.outcome() == Outcome(Termination.COUNTING_LIMIT, None)


def test_declared_mode_has_no_automatic_board_honour() -> None:
    board = play(Board("3k4/2m5/8/4MP2/3KS3/8/8/8 w - - 0 1", counting="declared"), "f5f6m")
    assert board.counting_state() is None


def test_declared_pieces_honour_starts_by_itself_at_n() -> None:
    board = play(Board(LONE_KING, counting="declared"), "a1a4 e6e5 a4b4")
    state = board.counting_state()
    assert state is not None and state.honour == "pieces' honour" and state.count == 5
    assert state.limit == 8
    with pytest.raises(CountingError, match="cannot be stopped"):
        board.stop_count()


def test_pieces_count_optional() -> None:
    board = play(
        Board(LONE_KING, counting="declared", pieces_count_optional=True), "a1a4 e6e5 a4b4"
    )
    assert board.counting_state() is None  # the lone king chooses when
    board.declare_count()
    state = board.counting_state()
    assert state is not None and (state.count, state.limit) == (5, 8)


def test_voluntary_restart() -> None:
    fen = "8/8/8/3k4/3S4/8/8/R2K4 b - - 0 50"
    strict = Board(fen, counting="declared", pieces_count_optional=True)
    strict.declare_count()
    assert strict.counting_state().limit == 16  # type: ignore[union-attr]
    play(strict, "d5d4 a1a2")
    with pytest.raises(CountingError, match="already running"):
        strict.declare_count()
    free = Board(fen, counting="declared", pieces_count_optional=True, allow_voluntary_restart=True)
    free.declare_count()
    play(free, "d5d4 a1a2")
    free.declare_count()  # after taking the khon: 16 moves from N = 3
    state = free.counting_state()
    assert state is not None and (state.count, state.limit) == (3, 16)


@pytest.mark.parametrize(
    ("fen", "options", "words"),
    [
        (COUNTER_MATES, {}, "counting='declared'"),
        (
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1",
            {"counting": "declared"},
            "pawns",
        ),
        ("k7/8/8/8/8/8/7R/4K3 w - - 0 1", {"counting": "declared"}, "both sides"),
        (
            LONE_KING.replace("w - - 0 40", "b - - 0 40").replace("1r6", "8"),
            {"counting": "declared"},
            "pieces_count_optional",
        ),
    ],
)
def test_declaring_against_the_rules(fen: str, options: dict, words: str) -> None:
    board = Board(fen, **options)
    with pytest.raises(CountingError, match=words):
        board.declare_count()
    assert board.move_stack == []


def test_stopping_against_the_rules() -> None:
    board = Board(COUNTER_MATES, counting="declared")
    with pytest.raises(CountingError, match="no count"):
        board.stop_count()
    board.declare_count()
    board.push_uci("h2h3")
    with pytest.raises(CountingError, match="only the counter"):
        board.stop_count()
    with pytest.raises(CountingError, match="counting='declared'"):
        Board(COUNTER_MATES).stop_count()
    black_counts = Board(COUNTER_MATES.replace(" w ", " b "), counting="declared")
    black_counts.declare_count()
    black_counts.push_uci("h8g7")
    with pytest.raises(CountingError, match="only the counter"):
        black_counts.stop_count()  # White to move, Black counting


def test_declared_only_options_need_declared_mode() -> None:
    from kradan import VariantError

    with pytest.raises(VariantError, match="needs counting='declared'"):
        Board(pieces_count_optional=True)


# --- repetition and perpetual check (docs/rules.md 2.5, C2)

KNIGHT_PERPETUAL = "5r1k/5nnr/8/4N3/8/8/P7/K7 w - - 0 1"
PERPETUAL_MOVES = ["e5g6", "h8g8", "g6e7", "g8h8", "e7g6", "h8g8", "g6e7", "g8h8", "e7g6"]


def test_threefold_repetition_is_claimable_at_the_third_occurrence() -> None:
    board = Board(KNIGHT_PERPETUAL)
    for i, uci in enumerate(PERPETUAL_MOVES):
        assert not board.can_claim_draw(), i
        board.push_uci(uci)
    assert board.is_repetition() and board.can_claim_draw()
    assert board.outcome() is None  # only a claim ends it
    assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)


def test_perpetual_check_checker_loses() -> None:
    board = play(
        Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses"), " ".join(PERPETUAL_MOVES)
    )
    assert board.outcome(claim_draw=True) == Outcome(Termination.PERPETUAL_CHECK, BLACK)


def test_perpetual_check_counts_every_move_since_the_first_occurrence() -> None:
    # the repeated position first stands after e5g6 h8g8; White then makes a quiet cycle
    # (a1b1 ... b1a1) before a cycle of checks: not every White move since the first occurrence
    # gave check, so this is a plain repetition, not a perpetual
    quiet_then_checks = "e5g6 h8g8 a1b1 f8e8 b1a1 e8f8 g6e7 g8h8 e7g6 h8g8"
    board = play(Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses"), quiet_then_checks)
    assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)
    # with a fourfold rule, two cycles of checks after the quiet one are still not a perpetual
    board = play(
        Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses", repetition_count=4),
        quiet_then_checks + " g6e7 g8h8 e7g6 h8g8",
    )
    assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)
    # while four cycles of checks are
    board = play(
        Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses", repetition_count=4),
        " ".join([*PERPETUAL_MOVES, "h8g8", "g6e7", "g8h8", "e7g6"]),
    )
    assert board.outcome(claim_draw=True) == Outcome(Termination.PERPETUAL_CHECK, BLACK)


def test_perpetual_check_by_black_loses_for_black() -> None:
    mirrored = "k7/p7/8/8/4n3/8/5NNR/5R1K b - - 0 1"  # KNIGHT_PERPETUAL, colours swapped
    moves = "e4g3 h1g1 g3e2 g1h1 e2g3 h1g1 g3e2 g1h1 e2g3"
    board = play(Board(mirrored, perpetual_check="checker_loses"), moves)
    assert board.outcome(claim_draw=True) == Outcome(Termination.PERPETUAL_CHECK, WHITE)


def test_a_perpetual_played_on_past_its_third_occurrence_still_loses() -> None:
    board = play(
        Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses"),
        " ".join([*PERPETUAL_MOVES, "h8g8", "g6e7", "g8h8", "e7g6"]),  # a fourth occurrence
    )
    assert board.outcome(claim_draw=True) == Outcome(Termination.PERPETUAL_CHECK, BLACK)


def test_a_twofold_rule_sees_a_perpetual_at_the_second_occurrence() -> None:
    board = Board(KNIGHT_PERPETUAL, perpetual_check="checker_loses", repetition_count=2)
    board = play(board, " ".join(PERPETUAL_MOVES[:5]))  # the position after e5g6, twice
    assert board.outcome(claim_draw=True) == Outcome(Termination.PERPETUAL_CHECK, BLACK)


def test_a_onefold_repetition_rule_is_a_plain_repetition() -> None:
    board = Board(KNIGHT_PERPETUAL, repetition_count=1, perpetual_check="checker_loses")
    assert board.outcome(claim_draw=True) == Outcome(Termination.REPETITION, None)


def test_a_repetition_count_of_zero_turns_repetition_off() -> None:
    board = play(Board(KNIGHT_PERPETUAL, repetition_count=0), " ".join(PERPETUAL_MOVES))
    assert not board.is_repetition() and not board.can_claim_draw()
    assert board.outcome(claim_draw=True) is None


def test_is_repetition_with_an_explicit_count() -> None:
    board = Board(KNIGHT_PERPETUAL)
    assert board.is_repetition(1)  # every position has occurred once
    assert not board.is_repetition(2) and not board.is_repetition()
    board = play(board, " ".join(PERPETUAL_MOVES[:5]))
    assert board.is_repetition(2) and not board.is_repetition(3)
    board = play(board, " ".join(PERPETUAL_MOVES[5:9]))  # the third occurrence
    assert board.is_repetition(3) and not board.is_repetition(4)


def test_repetition_count_option() -> None:
    board = play(Board(KNIGHT_PERPETUAL, repetition_count=2), " ".join(PERPETUAL_MOVES[:5]))
    assert board.can_claim_draw()
    assert not play(Board(KNIGHT_PERPETUAL), " ".join(PERPETUAL_MOVES[:5])).can_claim_draw()


# --- material (docs/rules.md 2.7, C16)


@pytest.mark.parametrize(
    ("white", "black", "expected"),
    [
        ("3K4", "4k3", (True, True)),
        ("3KN3", "4k3", (True, True)),
        ("3KS3", "4k3", (False, True)),
        ("3K2R1", "4k3", (False, True)),
        ("3KP3", "4k3", (True, True)),
        ("3KM3", "4k3", (True, True)),
        ("3KM1M1", "4k3", (True, True)),  # mets on e1 and g1: one colour
        ("2MK1M2", "4k3", (False, True)),  # c1 and f1: both colours
        ("2NKN3", "4k3", (False, True)),
        ("3KN3", "4km2", (False, False)),
        ("3KM3", "4kn2", (False, False)),
    ],
)
def test_insufficient_material_as_fairy_stockfish(white: str, black: str, expected: tuple) -> None:
    board = Board(f"{black}/8/8/8/8/8/8/{white} w - - 0 1")
    assert (
        board.has_insufficient_material(WHITE),
        board.has_insufficient_material(BLACK),
    ) == expected


def test_a_dead_position_needs_both_sides_unable_to_mate() -> None:
    board = Board("4k3/8/8/8/8/8/8/r2K4 w - - 0 1")  # White cannot mate; Black's rook can
    assert board.has_insufficient_material(WHITE) and not board.is_insufficient_material()
    mirrored = Board("R3k3/8/8/8/8/8/8/4K3 b - - 0 1")
    assert mirrored.has_insufficient_material(BLACK) and not mirrored.is_insufficient_material()


def test_dead_position_option() -> None:
    fen = "8/8/8/4k3/8/8/8/3KM3 w - - 0 1"  # MK9
    assert Board(fen).outcome() == Outcome(Termination.INSUFFICIENT_MATERIAL, None)
    assert Board(fen, insufficient_material="off").outcome() is None


def test_pieces_in_hand_suffice_to_mate() -> None:
    board = Board("4k3/8/8/8/8/8/8/4K3[R] w - - 0 1", variant="sittuyin")  # a rook in hand
    assert not board.has_insufficient_material(WHITE)
    assert board.has_insufficient_material(BLACK)


def test_kar_ouk_counts_every_piece_as_sufficient() -> None:
    board = Board("4k3/8/8/8/8/8/8/3KM3 w - - 0 1", variant="karouk")
    assert not board.has_insufficient_material(WHITE)
    assert board.outcome() is None


# the Korean table, row by row: (stronger side's pieces, weaker side's pieces) as FEN rank text
KOREAN_ROWS = [
    ("PP2P3", "7p"),  # 1: two connected pawns and a separated one v a pawn
    ("NSP5", "pp6"),  # 2
    ("R7", "ppp5"),  # 3
    ("R7", "np6"),  # 3
    ("R7", "sp6"),  # 3
    ("SN6", "s7"),  # 4
    ("SN6", "n7"),  # 4
    ("RP6", "r7"),  # 5
    ("SPP5", "r7"),  # 6
    ("NPP5", "r7"),  # 6
    ("SPPP4", "rp6"),  # 7
    ("NPPP4", "rp6"),  # 7
    ("RS6", "r7"),  # 8
    ("RN6", "r7"),  # 8
    ("PPPP4", "rp6"),  # 9
    ("RR6", "rs6"),  # 10
    ("RR6", "rn6"),  # 10
]


def korean_fen(strong: str, weak: str, strong_is_white: bool) -> str:
    white, black = (strong, weak) if strong_is_white else (weak.upper(), strong.lower())
    return f"7k/8/{black.lower()}/8/8/{white.upper()}/8/K7 w - - 0 1"


@pytest.mark.parametrize(("strong", "weak"), KOREAN_ROWS)
@pytest.mark.parametrize("strong_is_white", [True, False])
def test_korean_table_rows(strong: str, weak: str, strong_is_white: bool) -> None:
    fen = korean_fen(strong, weak, strong_is_white)
    assert Board(fen).is_korean_material_draw(), fen
    auto = Board(fen, korean_material_draws="auto", insufficient_material="off")
    assert auto.outcome() == Outcome(Termination.KOREAN_MATERIAL_DRAW, None)
    assert not auto.can_claim_draw()  # drawn already: nothing left to claim
    claim = Board(fen, korean_material_draws="claim", insufficient_material="off")
    assert claim.outcome() is None and claim.can_claim_draw()
    off = Board(fen, insufficient_material="off")
    assert off.outcome(claim_draw=True) is None


@pytest.mark.parametrize(
    ("strong", "weak", "row"),
    [
        ("PPP5", "7p", False),  # three connected pawns is not row 1
        ("P1P1P3", "7p", False),  # three separated pawns neither
        # row 9 (four connected pawns v rook and pawn) wants one unbroken run of files
        # (docs/rules.md, Decision 11): a, b and d, e are two pairs, not four connected pawns
        ("PP1PP3", "rp6", False),
        ("2PPPP2", "rp6", True),  # c, d, e, f: one run
        ("P1P1PP2", "rp6", False),  # the pawns on a and c have no neighbour: not connected
        ("1PP2P2", "7p", True),  # row 1 on other files: b and c connected, f apart
        ("PP1P4", "7p", True),  # a and b connected, d apart: one empty file between is enough
        ("RP6", "rp6", False),  # row 5 with a pawn more for the weaker side: counts are exact
        ("RM6", "r7", False),  # a met is not in any row
        ("RR6", "r7", False),  # not a row
        ("R7", "pp6", False),
    ],
)
def test_korean_table_edge_cases(strong: str, weak: str, row: bool) -> None:
    assert Board(korean_fen(strong, weak, True)).is_korean_material_draw() is row


def test_a_ferz_breaks_every_row_as_a_met_does() -> None:
    assert Board("7k/8/r7/8/8/RP6/8/K7 w - - 0 1").is_korean_material_draw()  # row 5
    sittuyin = Board("7k/8/r7/8/8/RPF5/8/K7[] w - - 0 1", variant="sittuyin")  # and a ferz
    assert not sittuyin.is_korean_material_draw()


def test_row_one_finds_the_separated_pawn_wherever_it_stands() -> None:
    # a2 and b3 connected, e2 apart: read in square order the lone pawn comes second
    assert Board("7k/8/7p/8/8/1P6/P3P3/K7 w - - 0 1").is_korean_material_draw()
    # d3 and e3 connected, a2 apart: the lone pawn comes first
    assert Board("7k/8/7p/8/8/3PP3/P7/K7 w - - 0 1").is_korean_material_draw()


def test_doubled_pawns_are_not_a_connected_pair() -> None:
    # b2 and b3 on one file, f3 apart: not "two connected and one separated" (row 1)
    assert not Board("7k/8/7p/8/8/1P3P2/1P6/K7 w - - 0 1").is_korean_material_draw()


# --- Sittuyin (docs/rules.md 5.5-5.6)


@pytest.mark.parametrize("counting", ["seed", "seed_literal", "asean"])
def test_two_bare_kings_start_no_sittuyin_count(counting: str) -> None:
    """docs/rules.md 5.6: every Sittuyin count is for a lone king against more; when a capture
    leaves two bare kings none starts."""
    board = Board("8/8/8/8/8/8/kR6/4K3[] b - - 0 1", variant="sittuyin", sittuyin_counting=counting)
    board.push_uci("a2b2")
    assert board.counting_state() is None
    assert board.fen() == "8/8/8/8/8/8/1k6/4K3[] w - - 0 2"


@pytest.mark.parametrize(
    ("clock", "options", "claimable"),
    [
        (100, {}, True),
        (101, {}, True),
        (99, {}, False),
        (100, {"n_move_rule": 0}, False),
        (2, {"n_move_rule": 1}, True),
        (1, {"n_move_rule": 1}, False),
    ],
)
def test_fifty_move_rule(clock: int, options: dict, claimable: bool) -> None:
    board = Board(f"4k3/8/8/8/8/8/8/2FK2R1[] w - - {clock} 80", variant="sittuyin", **options)
    assert board.is_n_move_rule() == claimable
    expected = Outcome(Termination.N_MOVE_RULE, None) if claimable else None
    assert board.outcome(claim_draw=True) == expected


def test_a_promotion_only_draw_needs_the_pawn_to_be_alone() -> None:
    # the knight on h7 is pinned, the king boxed in: every move promotes, but the side has a
    # knight besides its king and pawn, so this is no promotion-only draw
    fen = "1k4PK/r6N/8/8/8/8/8/7r[] w - - 0 1"
    board = Board(fen, variant="sittuyin", promotion_only_draw=True)
    assert board.legal_moves and all(move.promotion for move in board.legal_moves)
    assert not board.is_promotion_only_draw()


def test_a_side_in_check_has_no_promotion_only_draw() -> None:
    # the last pawn may promote anywhere: both of White's moves are promotions that block the
    # rook's check, and a side in check is not drawn by this rule (docs/rules.md 5.5)
    fen = "7K/r7/5nP1/8/8/8/8/k6r[] w - - 0 1"
    board = Board(fen, variant="sittuyin", promotion_only_draw=True)
    assert board.is_check() and sorted(m.uci() for m in board.legal_moves) == ["g6h5f", "g6h7f"]
    assert not board.is_promotion_only_draw()


@pytest.mark.parametrize("fen", ["1k4PK/3r4/8/8/8/8/8/8[] w - - 0 1",
                                 "8/8/8/8/8/8/3R4/1K4pk[] b - - 0 1"])  # fmt: skip
@pytest.mark.parametrize(("enabled", "claimable"), [(True, True), (False, False)])
def test_promotion_only_draw(fen: str, enabled: bool, claimable: bool) -> None:
    board = Board(fen, variant="sittuyin", promotion_only_draw=enabled)
    assert board.is_promotion_only_draw() == claimable
    assert (board.outcome(claim_draw=True) is not None) == claimable


# --- agreement, resignation


def test_resignation_and_agreement_are_undone_by_the_next_move_or_pop() -> None:
    board = Board()
    board.push_uci("e3e4")
    assert board.resign(BLACK) == Outcome(Termination.RESIGNATION, WHITE)
    assert board.result() == "1-0"
    board.pop()
    assert board.outcome() is None
    assert board.agree_draw().result() == "1/2-1/2"
    board.push_uci("e3e4")
    assert board.outcome() is None


def test_count_actions_and_states_are_immutable_values() -> None:
    board = Board("8/8/4k3/8/1r6/8/8/R2K1N1R b - - 0 40", counting="declared")
    action = board.declare_count()
    state = board.counting_state()
    assert state is not None and {action: state}[CountAction("declare", BLACK)] == state
    assert hash(state) == hash(board.counting_state())
    with pytest.raises(dataclasses.FrozenInstanceError):
        action.kind = "stop"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.count = 3  # type: ignore[misc]


def test_an_outcome_is_an_immutable_value() -> None:
    outcome = Outcome(Termination.CHECKMATE, WHITE)
    assert {outcome: 1}[Outcome(Termination.CHECKMATE, WHITE)] == 1  # hashable, equal by value
    with pytest.raises(dataclasses.FrozenInstanceError):
        outcome.winner = BLACK  # type: ignore[misc]


class _ScriptedHistory:
    """A stand-in board for ``game_end._perpetual_checker``: a list of (side to move, in
    check) states, the last one current; each pop returns a move. A real game in which both
    sides check on every move of a repeated cycle is hard to set up, so the rule is checked on
    this script of one."""

    def __init__(self, states: list[tuple[bool, bool]], earlier: list[int]) -> None:
        self.states, self.earlier = states, earlier
        self.variant = type("Variant", (), {"repetition_count": 3})()

    def repetitions(self) -> list[int]:
        return self.earlier

    def copy(self) -> _ScriptedHistory:
        return _ScriptedHistory(list(self.states), self.earlier)

    @property
    def turn(self) -> bool:
        return self.states[-1][0]

    def is_check(self) -> bool:
        return self.states[-1][1]

    def pop(self) -> object:
        self.states.pop()
        return type("Move", (), {"to_square": 0})()


def test_no_single_checker_when_both_sides_checked_on_every_move() -> None:
    from kradan import game_end

    def cycle(white_checks: bool, black_checks: bool) -> _ScriptedHistory:
        # nine states, White to move first; a state is in check when the move into it checked
        states = [(i % 2 == 0, i > 0 and (black_checks if i % 2 == 0 else white_checks))
                  for i in range(9)]  # fmt: skip
        return _ScriptedHistory(states, earlier=[4, 8])

    assert game_end._perpetual_checker(cycle(True, False)) is WHITE  # type: ignore[arg-type]
    assert game_end._perpetual_checker(cycle(False, True)) is BLACK  # type: ignore[arg-type]
    assert game_end._perpetual_checker(cycle(True, True)) is None  # type: ignore[arg-type]
    assert game_end._perpetual_checker(cycle(False, False)) is None  # type: ignore[arg-type]
