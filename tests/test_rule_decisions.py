"""docs/rules.md Decisions 8-13 and the options section 8 marks "added" (issue 13): the seed's
declared pieces' honour, every reading of the seeds as an option (each tested for each setting),
Alquerque positions without pieces, the Korean table's connected pawns, a set-up lone king's
count and the promoted pawn's mark."""

from __future__ import annotations

import pytest

from kradan import WHITE, Board
from kradan.engine.chess import Searcher
from kradan.engine.types import Limit
from kradan.errors import CountingError
from kradan.outcome import Termination


def play(board: Board, moves: str) -> Board:
    for uci in moves.split():
        board.push_uci(uci)
    return board


# --- Decision 8: declared pieces' honour gives the stronger side L - N moves ----------------------

# White's a1 rook takes Black's last piece: two rooks and a knight (L = 8) against a lone king,
# five pieces on the board (N = 5): White has 8 - 5 = 3 moves to mate
TWO_ROOKS = "7k/8/8/r7/8/8/1R6/R3K1N1 w - - 0 40"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_two_rooks_and_a_knight_have_three_moves_to_mate(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5")
    state = board.counting_state()
    assert state is not None and state.honour == "pieces' honour"
    assert (state.count, state.limit, state.moves_left) == (5, 8, 3)
    play(board, "h8g8 a5a7 g8f8 b2b3 f8e8 b3b8")  # the third move mates
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.result() == "1-0"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_the_count_draws_after_the_stronger_sides_three_moves(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5 h8g8 e1e2 g8h8 e2e1 h8g8 e1e2")
    assert board.outcome() is None  # White made its three moves; the lone king's reply ends it
    state = board.counting_state()
    assert state is not None and state.moves_left == 0
    board.push_uci("g8h8")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.COUNTING_LIMIT


def test_a_voluntary_restart_gives_the_new_l_minus_n() -> None:
    # the lone king takes the knight: two rooks (L = 8), four pieces left (N = 4): 4 moves
    board = Board(
        "8/8/8/8/5N2/4k3/8/R2K3R b - - 0 50", counting="declared", pieces_count_optional=True,
        allow_voluntary_restart=True,
    )  # fmt: skip
    board.declare_count()
    first = board.counting_state()
    assert first is not None and (first.count, first.limit, first.moves_left) == (5, 8, 3)
    play(board, "e3f4 a1a2")
    board.declare_count()
    state = board.counting_state()
    assert state is not None and (state.count, state.limit, state.moves_left) == (4, 8, 4)
    play(board, "f4f5 d1c1 f5f4 c1d1 f4f5 d1c1 f5f4 c1d1")  # White's four moves, no mate
    assert board.outcome() is None
    board.push_uci("f4f5")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.COUNTING_LIMIT


def test_the_search_scores_the_counters_mate_as_a_draw() -> None:
    # Black counts board's honour and could mate by taking the rook: the mate would draw
    fen = "N7/8/8/8/8/6k1/r7/R6K b - - 0 40"
    counted = Board(fen, counting="declared")
    counted.declare_count()
    free = Board(fen, counting="declared")
    found = Searcher().best_move(counted, Limit(depth=2))
    assert found.info is not None and found.info.score.mate is None
    assert Searcher().best_move(free, Limit(depth=2)).info.score.mate == 1  # type: ignore[union-attr]


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_the_search_finds_the_mate_on_the_last_move_the_count_allows(counting: str) -> None:
    board = play(Board(TWO_ROOKS, counting=counting), "a1a5 h8g8 a5a7 g8f8 b2b3 f8e8")
    found = Searcher().best_move(board, Limit(depth=3))
    assert found.move is not None and found.move.uci() == "b3b8"
    assert found.info is not None and found.info.score.mate == 1


# --- Decision 9: board_count_declarer (docs/rules.md 2.6.4, [S0]) ---------------------------------

# White has two rooks and a knight, Black a rook: no pawns, a piece on each side
BOARD_COUNT = "8/8/4k3/8/1r6/8/8/R2K1N1R {} - - 0 40"


@pytest.mark.parametrize("declarer", ["either", "weaker"])
def test_the_weaker_side_may_always_declare_boards_honour(declarer: str) -> None:
    board = Board(BOARD_COUNT.format("b"), counting="declared", board_count_declarer=declarer)
    board.declare_count()
    state = board.counting_state()
    assert state is not None and state.honour == "board's honour" and not state.counting_side


def test_the_stronger_side_may_declare_only_when_either_may() -> None:
    either = Board(BOARD_COUNT.format("w"), counting="declared")
    either.declare_count()
    state = either.counting_state()
    assert state is not None and state.counting_side  # White counts
    weaker = Board(BOARD_COUNT.format("w"), counting="declared", board_count_declarer="weaker")
    with pytest.raises(CountingError, match=r"only the weaker side.*13 points.*against 5"):
        weaker.declare_count()
    assert weaker.counting_state() is None and weaker.move_stack == []


def test_with_equal_material_either_side_may_declare() -> None:
    # a rook each: neither side is the weaker
    board = Board("8/8/4k3/8/1r6/8/8/R2K4 w - - 0 40", counting="declared",
                  board_count_declarer="weaker")  # fmt: skip
    board.declare_count()
    assert board.counting_state() is not None


@pytest.mark.parametrize(
    ("fen", "points"),
    [
        ("8/8/4k3/8/1n6/8/8/3K1S2 {} - - 0 40", (3, 3)),  # a khon against a knight: 3 each
        ("8/8/4k3/8/1m6/8/8/3K1S2 {} - - 0 40", (3, 2)),  # a khon against a met: 3 and 2
        ("8/8/4k3/8/1n6/8/8/1M1K1M2 {} - - 0 40", (4, 3)),  # two mets: 2 each
    ],
)
def test_material_points_tell_the_weaker_side(fen: str, points: tuple[int, int]) -> None:
    """The usual reckoning: rook 5, knight and khon 3, met 2, pawn 1 (docs/rules.md 2.6.4)."""
    white, black = points
    for turn, mine, theirs in (("w", white, black), ("b", black, white)):
        board = Board(fen.format(turn), counting="declared", board_count_declarer="weaker")
        if mine > theirs:
            with pytest.raises(CountingError, match=f"{mine} points .* against {theirs}"):
                board.declare_count()
        else:
            board.declare_count()  # the weaker side, or equal material
            assert board.counting_state() is not None


def test_declared_boards_honour_is_drawn_when_the_counter_completes_its_last_move() -> None:
    # a 64-move count: the counter's 64th move is ply 127 (docs/rules.md 2.6.4, Decision 8)
    fen = "8/8/4k3/8/1r6/8/8/R2K1N1R w - 128 {} 40"
    assert Board(fen.format(126), counting="declared").outcome() is None
    drawn = Board(fen.format(127), counting="declared").outcome()
    assert drawn is not None and drawn.termination.value == "counting limit"


def test_a_count_at_its_end_leaves_no_moves() -> None:
    board = Board("8/8/4k3/8/1r6/8/8/R2K1N1R w - 128 128 40", counting="declared")
    state = board.counting_state()
    assert state is not None and state.moves_left == 0
    assert str(state).endswith("Black has 0 moves left to mate")


def test_one_move_left_is_said_in_the_singular() -> None:
    state = Board("8/8/4k3/8/1r6/8/8/R2K1N1R w - 128 124 40", counting="declared").counting_state()
    assert state is not None and state.moves_left == 1
    assert str(state).endswith("Black has 1 move left to mate")
    state = Board("8/8/4k3/8/1r6/8/8/R2K1N1R w - 128 122 40", counting="declared").counting_state()
    assert state is not None and str(state).endswith("Black has 2 moves left to mate")


def test_a_white_lone_king_counts_pieces_honour() -> None:
    state = Board("r3k3/8/8/3r4/8/8/4K3/8 b - 16 1 40").counting_state()
    assert state is not None and (state.honour, state.counting_side) == ("pieces' honour", WHITE)
    assert str(state) == "pieces' honour: White counts 1 of 8; Black has 8 moves left to mate"


# --- Decision 9: stalemate="illegal" (docs/rules.md 2.4, C1) --------------------------------------

# White's rook on d1 could go to d2 and stalemate the king on a1
STALEMATE_TRAP = "8/8/8/8/8/8/8/k1KR4 w - - 0 1"


def test_a_stalemating_move_is_legal_by_default_and_draws() -> None:
    board = Board(STALEMATE_TRAP)
    assert board.is_legal(board.parse_uci("d1d2"))
    board.push_uci("d1d2")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.STALEMATE
    assert outcome.result() == "1/2-1/2"


def test_a_stalemating_move_is_illegal_under_the_option() -> None:
    board = Board(STALEMATE_TRAP, stalemate="illegal")
    moves = {move.uci() for move in board.legal_moves}
    assert "d1d2" not in moves
    assert moves == {move.uci() for move in Board(STALEMATE_TRAP).legal_moves} - {"d1d2"}
    assert not board.is_legal(Board(STALEMATE_TRAP).parse_uci("d1d2"))
    with pytest.raises(ValueError, match="illegal move 'd1d2'"):
        board.push_uci("d1d2")
    with pytest.raises(ValueError, match="Rd2"):
        board.push_san("Rd2")
    assert board.perft(1) == len(moves)
    below = 0
    for move in board.legal_moves:  # two plies, each filtered
        board.push(move)
        below += len(list(board.legal_moves))
        board.pop()
    assert board.perft(2) == below == sum(board.perft_divide(2).values())
    assert board.perft(1) == Board(STALEMATE_TRAP).perft(1) - 1  # d1d2 is gone


# Black's king on a4 and every pawn are frozen: each of White's three king moves stalemates
ONLY_STALEMATES = "8/8/8/1p2p3/kPp1P3/p1P5/P7/7K w - - 0 1"


@pytest.mark.parametrize("rule", ["draw", "illegal"])
def test_when_every_move_stalemates_they_stay_legal_and_draw(rule: str) -> None:
    board = Board(ONLY_STALEMATES, stalemate=rule)
    assert sorted(move.uci() for move in board.legal_moves) == ["h1g1", "h1g2", "h1h2"]
    board.push_uci("h1g2")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.STALEMATE
    assert outcome.result() == "1/2-1/2"


# White's rook mates on h8: Black then has no move either, but is in check (issue 49's gap)
MATE_IN_ONE = "k7/8/1K6/8/8/8/8/7R w - - 0 1"


def test_a_mating_move_stays_legal_under_the_option() -> None:
    """Decision 9: ``stalemate="illegal"`` drops the moves that leave the opponent without a
    move *and out of check*; a mate also leaves no move, and stays legal."""
    board = Board(MATE_IN_ONE, stalemate="illegal")
    moves = {move.uci() for move in board.legal_moves}
    assert moves == {move.uci() for move in Board(MATE_IN_ONE).legal_moves}
    assert "h1h8" in moves and board.perft(1) == Board(MATE_IN_ONE).perft(1)
    board.push_san("Rh8#")
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.result() == "1-0"
    found = Searcher().best_move(Board(MATE_IN_ONE, stalemate="illegal"), Limit(depth=2))
    assert found.move is not None and found.move.uci() == "h1h8"


def test_the_search_never_plays_a_stalemating_move_under_the_option() -> None:
    found = Searcher().best_move(Board(STALEMATE_TRAP, stalemate="illegal"), Limit(depth=3))
    assert found.move is not None and found.move.uci() != "d1d2"


# --- Decision 9: sittuyin_counting="seed_literal" (docs/rules.md 5.6, [S4]) -----------------------

# White's rook takes Black's last piece; White keeps a pawn on a3
LONE_WITH_PAWNS = "8/8/4k3/8/1r6/P7/8/1R1K4[] w - - 0 40"


@pytest.mark.parametrize(
    ("counting", "fen_end", "moves_left"),
    [
        ("asean", "b - - 0 40", None),  # a pawn on the board: no count (Fairy-Stockfish)
        ("seed", "b - - 0 40", None),  # the seed with Makruk's pawn condition
        ("seed_literal", "b - 32 8 40", 12),  # at once: one rook (16) less 4 pieces
    ],
)
def test_the_literal_seed_counts_a_lone_king_with_pawns_on_the_board(
    counting: str, fen_end: str, moves_left: int | None
) -> None:
    board = play(Board(LONE_WITH_PAWNS, variant="sittuyin", sittuyin_counting=counting), "b1b4")
    assert board.fen().endswith(fen_end)
    state = board.counting_state()
    assert (state and state.moves_left) == moves_left
    # the position, counting fields included, reads back under the same rule
    again = Board(board.fen(), variant="sittuyin", sittuyin_counting=counting)
    assert again.fen() == board.fen()


def test_the_literal_count_draws_when_the_moves_run_out() -> None:
    board = play(Board(LONE_WITH_PAWNS, variant="sittuyin", sittuyin_counting="seed_literal"),
                 "b1b4")  # fmt: skip
    shuffle = ["e6e7", "d1c1", "e7e6", "c1d1"]
    for ply in range(24):  # Black moves first: 12 moves each, none of White's a mate
        board.push_uci(shuffle[ply % 4])
        assert board.outcome() is None
    board.push_uci(shuffle[24 % 4])  # the lone king's move after White's twelfth
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.COUNTING_LIMIT


# --- Decision 9: ouk_count_sooner (docs/rules.md 3.3 item 3; Fairy-Stockfish's test case) ---------

SOONER = "8/2K3k1/5m2/4S1S1/8/8/8/8 w - 126 101 80"


@pytest.mark.parametrize(
    ("sooner", "fen_end"),
    [
        (False, "b - 42 8 80"),  # pieces' honour: two khons, 21 moves, from 4 pieces
        (True, "b - 126 102 80"),  # board's honour has 12 moves left, fewer than 17
    ],
)
def test_the_count_that_ends_sooner_applies(sooner: bool, fen_end: str) -> None:
    board = play(Board(SOONER, variant="cambodian", ouk_count_sooner=sooner), "e5f6")
    assert board.fen() == "8/2K3k1/5S2/6S1/8/8/8/8 " + fen_end


def test_pieces_honour_replaces_a_board_count_that_would_end_later() -> None:
    # the same capture early in board's honour: pieces' honour (17 moves left) ends sooner
    early = SOONER.replace("126 101", "126 11")
    board = play(Board(early, variant="cambodian", ouk_count_sooner=True), "e5f6")
    assert board.fen().endswith("b - 42 8 80")


@pytest.mark.parametrize(
    ("count_ply", "fen_end"),
    [
        (91, "b - 42 8 80"),  # both have 17 moves left: board's honour is not sooner
        (92, "b - 126 93 80"),  # board's honour has 33 plies left, one fewer: it stays
    ],
)
def test_board_honour_stays_only_when_it_ends_strictly_sooner(count_ply: int, fen_end: str) -> None:
    """docs/rules.md 3.3 item 3: 126 replaces the pieces' limit when 126 - bhPly < limit - ply."""
    fen = SOONER.replace("126 101", f"126 {count_ply}")
    board = play(Board(fen, variant="cambodian", ouk_count_sooner=True), "e5f6")
    assert board.fen() == "8/2K3k1/5S2/6S1/8/8/8/8 " + fen_end


# --- Decision 10: Alquerque positions ------------------------------------------------------------


@pytest.mark.parametrize("game", ["alquerque", "alquerque-bell"])
def test_a_side_without_pieces_has_lost_even_when_the_other_cannot_move(game: str) -> None:
    from kradan.alquerque import Board as AlquerqueBoard

    # White's only man stands on the far row, where Bell's men cannot move; Black has none
    board = AlquerqueBoard("P4/5/5/5/5 w - 0 1", variant=game)
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.CAPTURED_ALL
    assert outcome.result() == "1-0"
    black_to_move = AlquerqueBoard("5/5/5/5/4p b - 0 1", variant=game)
    assert black_to_move.outcome().result() == "0-1"  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["5/5/5/5/5 w - 0 1", "5/5/5/5/5 b - 12 30"])
def test_a_position_without_any_piece_is_rejected(text: str) -> None:
    from kradan.alquerque import Board as AlquerqueBoard
    from kradan.errors import KradanError

    with pytest.raises(KradanError, match="no piece at all") as caught:
        AlquerqueBoard(text)
    assert repr(text) in str(caught.value)


# --- Decision 11: "connected" pawns are one unbroken run of files (docs/rules.md 2.7) ------------


@pytest.mark.parametrize(
    ("pawns", "row"),
    [
        ("8/2PP1PP1", False),  # c3, d3 and f3, g3: two pairs, not four connected pawns
        ("8/2PPPP2", True),  # c3 to f3: one run
        ("2P5/3PPP2", True),  # one run of files across two ranks
    ],
)
def test_four_connected_pawns_stand_on_one_run_of_files(pawns: str, row: bool) -> None:
    # row 9 of the Korean table: four connected pawns against a rook and a pawn
    board = Board(f"4k3/8/r6p/8/8/{pawns}/4K3 w - - 0 1")
    assert board.is_korean_material_draw() is row


# --- Decision 12: a set-up lone king gets its count (docs/rules.md 2.6.4) ------------------------

LONE_KING_SET_UP = "1k6/8/8/7K/8/8/8/R7 b - - 0 40"


@pytest.mark.parametrize("counting", ["auto", "declared"])
def test_a_lone_king_from_a_fen_counts_pieces_honour(counting: str) -> None:
    board = play(Board(LONE_KING_SET_UP, counting=counting), "b8c8 a1a2")
    state = board.counting_state()
    assert state is not None and state.honour == "pieces' honour"
    assert board.counting_fields() == (32, 6)  # a rook: 16 moves; three pieces on the board


def test_the_declared_count_of_a_set_up_lone_king_runs_out() -> None:
    board = Board(LONE_KING_SET_UP, counting="declared")
    moves = ["b8c8", "a1a2", "c8b8", "a2a1"]
    for ply in range(200):
        if board.is_game_over():
            break
        board.push_uci(moves[ply % 4])
    assert board.outcome() is not None
    assert board.outcome().termination is Termination.COUNTING_LIMIT


# --- Decision 13: a promoted pawn stays promoted whatever it captures ----------------------------


@pytest.mark.parametrize("variant", ["makruk", "cambodian", "sittuyin"])
def test_a_promoted_pawn_taking_a_promoted_pawn_keeps_its_mark(variant: str) -> None:
    pieces = {"makruk": ("m~", "M~"), "cambodian": ("m~", "M~"), "sittuyin": ("f~", "F~")}[variant]
    hand = "[]" if variant == "sittuyin" else ""
    fen = f"4k3/8/8/3{pieces[0]}4/4{pieces[1]}3/8/8/3K4{hand} w - - 0 1"
    board = Board(fen, variant=variant)
    board.push_uci("e4d5")
    assert board.fen(show_promoted=True).startswith(f"4k3/8/8/3{pieces[1]}4/8/8/8/3K4")
    board.pop()
    assert board.fen(show_promoted=True) == fen


def test_thai_san_names_the_capturing_promoted_pawn_as_a_promoted_pawn() -> None:
    board = play(Board("4k3/8/8/3m~4/4M~3/8/8/3K4 w - - 0 1"), "e4d5 e8e7")
    assert board.san(board.parse_uci("d5c6"), "thai") == "ง-ค๖"  # ง: a promoted met, not ม็
