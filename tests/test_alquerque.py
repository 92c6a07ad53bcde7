"""Alquerque (docs/rules.md 6; conflicts C17-C23): both rule sets, every option in both settings,
outcomes, Bell's scoring, the position text and bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kradan import (
    BLACK,
    WHITE,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    Outcome,
    Termination,
    VariantError,
    alquerque,
)
from kradan.alquerque import Board, Move
from kradan.alquerque.variant import find_game as find_alquerque

CHAIN = "5/5/3p1/1p3/P4 w - 0 1"  # a1 jumps b2 to c3, then d3 to e3


def ucis(board: Board) -> list[str]:
    return sorted(m.uci() for m in board.legal_moves)


# --- docs/rules.md 6.6: the hand-checked figures --------------------------------------------------


@pytest.mark.parametrize("variant", ["alquerque", "alquerque-bell"])
def test_start_position_figures(variant: str) -> None:
    board = Board(variant=variant)
    assert board.text() == "ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1"
    assert ucis(board) == ["b2c3", "c2c3", "d2c3", "d3c3"]
    assert [board.perft(d) for d in (1, 2, 3, 4)] == [4, 5, 6, 12]
    board.push_uci("d2c3")
    assert ucis(board) == ["b4d2", "d4d2"]  # both recaptures land on d2
    board.push_uci("b4d2")
    assert ucis(board) == ["b2b4", "e1c3"]


# --- captures -------------------------------------------------------------------------------------


def test_capture_is_compulsory() -> None:
    """docs/rules.md 6.3 rule 3, capture_rule="forced"."""
    board = Board(CHAIN, variant="alquerque")
    assert ucis(board) == ["a1c3e3"]
    with pytest.raises(IllegalMoveError, match="capturing is compulsory"):
        board.push_uci("a1a2")


def test_chain_changes_direction_and_must_go_on() -> None:
    """Rule 5: the same piece jumps again, in any direction; mandatory continuation."""
    board = Board(CHAIN, variant="alquerque")
    with pytest.raises(IllegalMoveError, match="chain must go on"):
        board.push_uci("a1c3")
    board.push_uci("a1c3e3")
    assert board.text().split()[0] == "5/5/4P/5/5"
    assert board.outcome() == Outcome(Termination.CAPTURED_ALL, WHITE)


def test_optional_chain_continuation() -> None:
    board = Board(CHAIN, variant="alquerque", chain_continuation="optional")
    assert ucis(board) == ["a1c3", "a1c3e3"]


def test_captured_pieces_leave_during_the_chain() -> None:
    """[proj]: each jumped piece goes at once, so a chain may land on its own vacated origin,
    and no piece can be jumped twice."""
    board = Board("5/2pp1/2Pp1/5/5 w - 0 1", variant="alquerque")
    # around and home again, three taken; c3e5 takes d4 and can go no further
    assert ucis(board) == ["c3c5e3c3", "c3e3c5c3", "c3e5"]


def test_bad_moves_are_explained() -> None:
    board = Board(CHAIN, variant="alquerque")
    with pytest.raises(IllegalMoveError, match="skips the empty point a2"):
        board.push_uci("a1a3")
    with pytest.raises(IllegalMoveError, match="no line leads"):
        board.push_uci("a1b3")
    odd = Board("5/5/5/P4/4p w - 0 1", variant="alquerque")
    with pytest.raises(IllegalMoveError, match="not neighbours on a line"):
        odd.push_uci("a2b3")  # no diagonal line through a2
    own = Board("5/5/5/1P3/P3p w - 0 1", variant="alquerque")
    with pytest.raises(IllegalMoveError, match="over its own piece"):
        own.push_uci("a1c3")
    with pytest.raises(IllegalMoveError, match="holds no piece"):
        board.push_uci("b2b3")
    with pytest.raises(InvalidMoveError):
        board.push_uci("a1")
    with pytest.raises(InvalidMoveError):
        Move.from_uci("z9z8")


# --- huffing (rule 4, C17) ------------------------------------------------------------------------

HUFF = "5/5/3p1/1p3/P3P w - 0 1"  # a1 could capture; e1 steps instead


def test_huff_removes_the_piece_that_could_have_captured() -> None:
    board = Board(HUFF, variant="alquerque", capture_rule="huff")
    assert "e1e2" in ucis(board)  # not capturing is allowed
    board.push_uci("e1e2")
    assert board.huff_liable() == [0]  # a1
    assert board.text().split()[2] == "a1"
    moves = ucis(board)
    assert moves and all(m.startswith("ha1,") for m in moves)
    move = board.parse_uci("(huff a1) d3-d2")
    assert move.huff == 0 and move.readable() == "(huff a1) d3-d2"
    board.push(move)
    assert board.piece_at(0) is None
    assert board.text().split()[3] == "2"  # a huff is not a capture


def test_a_move_without_the_due_huff_is_explained_with_an_example() -> None:
    two = "5/5/3p1/1pp2/P1P1P w - 0 1"  # a1 and c1 could both capture
    board = Board(two, variant="alquerque", capture_rule="huff")
    board.push_uci("e1e2")
    with pytest.raises(IllegalMoveError) as error:
        board.push_uci("d3d2")
    assert str(error.value).endswith("first huff one of the liable pieces (a1, c1), e.g. 'ha1,...'")


def test_huff_opponent_chooses_or_all() -> None:
    two = "5/5/3p1/1pp2/P1P1P w - 0 1"  # a1 and c1 could both capture
    one = Board(two, variant="alquerque", capture_rule="huff")
    one.push_uci("e1e2")
    assert one.huff_liable() == [0, 2]
    assert {m.uci()[:4] for m in one.legal_moves} == {"ha1,", "hc1,"}
    every = Board(two, variant="alquerque", capture_rule="huff", huff_target="all")
    every.push_uci("e1e2")
    moves = ucis(every)
    assert moves and not any(m.startswith("h") for m in moves)
    every.push_uci(moves[0])
    assert every.pieces(WHITE) == 1  # a1 and c1 are gone, e2 is left


def test_stopping_a_chain_early_is_huffable() -> None:
    board = Board(CHAIN, variant="alquerque", capture_rule="huff")
    board.push_uci("a1c3")
    assert board.huff_liable() == [12]  # c3 could have jumped on


# --- Bell's rules (6.4) ---------------------------------------------------------------------------


def test_bell_steps_forward_or_sideways_only() -> None:
    text = "4p/5/2P2/5/5 w - 0 1"
    assert len(ucis(Board(text, variant="alquerque"))) == 8
    assert ucis(Board(text, variant="alquerque-bell")) == ["c3b3", "c3b4", "c3c4", "c3d3", "c3d4"]


def test_bell_far_row_moves_only_by_capturing() -> None:
    text = "2P2/5/5/5/p4 w - 0 1"
    assert ucis(Board(text, variant="alquerque-bell")) == []
    assert ucis(Board(text, variant="alquerque")) == ["c5b4", "c5b5", "c5c4", "c5d4", "c5d5"]


@pytest.mark.parametrize(
    ("no_return", "back_to_c3", "back_to_d3"),
    [("any_previous", False, False), ("start_point", False, True), ("off", True, True)],
)
def test_no_return(no_return: str, back_to_c3: bool, back_to_d3: bool) -> None:
    board = Board("p4/5/2P2/5/5 w - 0 1", variant="alquerque-bell", no_return=no_return)
    board.push_uci("c3d3")
    board.push_uci("a5a4")
    assert ("d3c3" in ucis(board)) == back_to_c3
    board.push_uci("d3e3")
    board.push_uci("a4a3")
    assert ("e3d3" in ucis(board)) == back_to_d3


def test_no_return_scope_all_moves_binds_captures() -> None:
    text = "4p/5/2P2/5/5 w - 0 1 c3:c1c2"
    steps = Board("5/5/2P2/2p2/4p w - 0 1 c3:c1", variant="alquerque-bell")
    assert "c3c1" in ucis(steps)  # the capture may land on the start point
    strict = Board(
        "5/5/2P2/2p2/4p w - 0 1 c3:c1", variant="alquerque-bell", no_return_scope="all_moves"
    )
    assert "c3c1" not in ucis(strict)
    assert Board(text, variant="alquerque-bell").text() == text


def test_bell_capture_directions() -> None:
    text = "5/5/2P2/2p2/4p w - 0 1"
    assert "c3c1" in ucis(Board(text, variant="alquerque-bell", no_return="off"))
    backward = Board(
        text, variant="alquerque-bell", no_return="off", bell_capture_directions="forward_sideways"
    )
    assert "c3c1" not in ucis(backward)


def test_bell_options_need_the_bell_game() -> None:
    with pytest.raises(VariantError, match="alquerque-bell"):
        Board(variant="alquerque", no_return="off")
    with pytest.raises(VariantError, match="expected one of"):
        Board(variant="alquerque-bell", no_return="never")


# --- kings (C18) ----------------------------------------------------------------------------------


def test_kings_promote_and_end_the_chain() -> None:
    text = "5/1pp2/P4/5/4p w - 0 1"
    board = Board(text, variant="alquerque-bell", alquerque_kings=True)
    assert ucis(board) == ["a3c5"]  # lands on the far row: a king, and the chain stops
    board.push_uci("a3c5")
    assert board.text().split()[0] == "2K2/2p2/5/5/4p"
    plain = Board(text, variant="alquerque-bell")
    assert ucis(plain) == ["a3c5c3"]  # without kings the man jumps on
    king = Board("5/5/2K2/5/p4 w - 0 1", variant="alquerque-bell", alquerque_kings=True)
    assert len(ucis(king)) == 8  # a king steps back too


# --- first player (C22) ---------------------------------------------------------------------------


def test_first_player_black() -> None:
    board = Board(variant="alquerque", first_player="black")
    assert board.turn is BLACK and board.text().split()[1] == "b"
    assert ucis(board) == ["b3c3", "b4c3", "c4c3", "d4c3"]


# --- end of game and scoring (6.5, C21, C23) ------------------------------------------------------


def test_capture_all_and_bell_score() -> None:
    board = Board(CHAIN, variant="alquerque-bell")
    board.push_uci("a1c3e3")
    assert board.outcome() == Outcome(Termination.CAPTURED_ALL, WHITE)
    assert board.result() == "1-0"
    assert board.score() == (0, -3)  # 2 + W, W = 1


BLOCKED = "5/5/P1P2/PP3/pPP2 b - 0 1"  # the black man on a1 can neither step nor jump


def test_immobilisation_wins_under_bell_and_draws_under_alfonso() -> None:
    bell = Board(BLOCKED, variant="alquerque-bell")
    assert bell.outcome() == Outcome(Termination.IMMOBILISED, WHITE)
    assert bell.score() == (0, -(2 + 6 - 1))
    ahead = Board(BLOCKED, variant="alquerque-bell", bell_scoring="winner_ahead_only")
    assert ahead.score() == (0, -(2 + 5))
    alfonso = Board(BLOCKED, variant="alquerque")
    assert alfonso.outcome() == Outcome(Termination.STALEMATE, None)
    with pytest.raises(alquerque.GameNotOverError):
        alfonso.score()


def test_seed_charges_a_loser_with_more_pieces() -> None:
    """C23: immobilised with more pieces than the winner, the seed still charges the
    difference; ``winner_ahead_only`` charges only the 2."""
    text = "P4/5/5/5/p1p1p b - 0 1"  # Black's men stand on their far row with nothing to take
    seed = Board(text, variant="alquerque-bell")
    assert seed.outcome() == Outcome(Termination.IMMOBILISED, WHITE)
    assert seed.score() == (0, -(2 + 2))
    ahead = Board(text, variant="alquerque-bell", bell_scoring="winner_ahead_only")
    assert ahead.score() == (0, -2)
    winner_ahead = Board("2P2/5/5/5/pppp1 w - 0 1", variant="alquerque-bell")
    assert winner_ahead.outcome() == Outcome(Termination.IMMOBILISED, BLACK)
    assert winner_ahead.score() == (-(2 + 3), 0)


def test_scores_add_up_over_a_series() -> None:
    games = [Board(BLOCKED, variant="alquerque-bell"), Board(CHAIN, variant="alquerque-bell")]
    games[1].push_uci("a1c3e3")
    totals = [sum(points) for points in zip(*(g.score() for g in games), strict=True)]
    assert totals == [0, -7 - 3]


def test_alfonso_threefold_repetition() -> None:
    board = Board("p4/5/5/5/4P w - 0 1", variant="alquerque")
    for _ in range(2):
        for uci in ("e1e2", "a5a4", "e2e1", "a4a5"):
            assert board.outcome() is None
            board.push_uci(uci)
    assert board.outcome() == Outcome(Termination.REPETITION, None)


@pytest.mark.parametrize(
    ("rows", "adjudication", "expected"),
    [
        ("p4/5/5/5/4P", "draw_if_equal", Outcome(Termination.NO_CAPTURE_LIMIT, None)),
        ("p4/5/5/5/3PP", "draw_if_equal", None),
        ("p4/5/5/5/3PP", "more_pieces_wins", Outcome(Termination.NO_CAPTURE_LIMIT, WHITE)),
    ],
)
def test_no_capture_limit(rows: str, adjudication: str, expected: Outcome | None) -> None:
    board = Board(f"{rows} w - 99 60", variant="alquerque", no_capture_adjudication=adjudication)
    assert board.outcome() is None
    board.push_uci("e1d2" if rows.endswith("4P") else "d1c1")
    assert board.outcome() == expected


def test_no_capture_limit_option() -> None:
    board = Board("p4/5/5/5/4P w - 99 60", variant="alquerque", no_capture_limit=0)
    board.push_uci("e1d2")
    assert board.outcome() is None


def test_agreement_and_resignation() -> None:
    board = Board(variant="alquerque-bell")
    assert board.agree_draw().result() == "1/2-1/2"
    board.push_uci("d3c3")
    assert board.resign(BLACK) == Outcome(Termination.RESIGNATION, WHITE)


# --- the position text (6.2) ----------------------------------------------------------------------


def test_text_round_trip_with_history() -> None:
    board = Board(variant="alquerque-bell")
    for uci in ("d2c3", "b4d2", "e1c3"):
        board.push_uci(uci)
    text = board.text()
    assert text == "ppppp/p1ppp/ppPPP/PPP1P/PPPP1 b - 0 2 c3:e1"  # e1 jumped to c3
    again = Board(text, variant="alquerque-bell")
    assert again.text() == text and again == board
    assert ucis(again) == ucis(board)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("ppppp/ppppp w - 0 1", "5 rows"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPPP w - 0 1", "more than 5"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPP w - 0 1", "has 4 points"),
        ("ppppq/ppppp/pp1PP/PPPPP/PPPPP w - 0 1", "'q'"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPP x - 0 1", "side to move"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPP w z9 0 1", "huff field"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPP w e1 0 1", "holds no piece"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPP w - x 1", "no-capture plies"),
        ("ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 0 1 c3:b2", "no piece stands on c3"),
        ("ppppp/ppppp/ppppp/PPPPP/PPPPP w - 0 1", "has 15 pieces"),
    ],
)
def test_bad_position_text(text: str, words: str) -> None:
    with pytest.raises(InvalidFenError) as info:
        Board(text)
    assert repr(text) in str(info.value) and words in str(info.value)


def test_find_game_and_names() -> None:
    assert find_alquerque("Alquerque Bell").name == "alquerque-bell"
    assert find_alquerque("alfonso").name == "alquerque"
    with pytest.raises(VariantError, match="known: alquerque, alquerque-bell"):
        find_alquerque("checkers")


def test_board_str() -> None:
    assert str(Board()).splitlines()[2] == "3 p p . P P"


# --- every game ends (C21) ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["alquerque", "alquerque-bell"]),
    st.randoms(use_true_random=False),
    st.fixed_dictionaries(
        {},
        optional={
            "capture_rule": st.sampled_from(["forced", "huff"]),
            "chain_continuation": st.sampled_from(["mandatory", "optional"]),
            "alquerque_kings": st.booleans(),
            "first_player": st.sampled_from(["white", "black"]),
        },
    ),
)
def test_random_games_always_end(variant: str, rng: random.Random, options: dict) -> None:
    board = Board(variant=variant, **options)
    for _ in range(3000):
        if board.outcome() is not None:
            return
        board.push(rng.choice(list(board.legal_moves)))
    raise AssertionError(f"no outcome after 3000 plies: {board.text()}")


def test_alquerque_has_no_draw_to_claim_all_its_ends_are_automatic() -> None:
    # a threefold repetition ends the game by itself: nothing is left to claim before or after
    board = Board(variant="alquerque")
    assert board.can_claim_draw() is False
    rng = random.Random(7)
    while board.outcome() is None and len(board.move_stack) < 200:
        assert board.can_claim_draw() is False
        assert board.outcome(claim_draw=True) == board.outcome()
        board.push(rng.choice(list(board.legal_moves)))
    assert board.can_claim_draw() is False


def test_jumping_a_taken_piece_again_is_explained_as_skipping_an_empty_point() -> None:
    """A chain may not jump the same piece twice: it is taken, so its point counts as empty."""
    for fen, chain, point in [
        ("5/5/2p2/2P2/5 w - 0 1", "c2c4c2", "c3"),
        ("5/5/5/2p2/2P2 w - 0 1", "c1c3c1", "c2"),
        ("5/5/5/1p3/P4 w - 0 1", "a1c3a1", "b2"),
    ]:
        with pytest.raises(IllegalMoveError, match=f"skips the empty point {point}"):
            Board(fen).push_uci(chain)


@pytest.mark.parametrize("variant", ["alquerque", "alquerque-bell"])
def test_perft_at_depth_zero_counts_the_position_itself(variant: str) -> None:
    board = Board(variant=variant)
    assert board.perft(0) == 1
    assert board.perft(1) == len(list(board.legal_moves))


def test_the_kernel_history_copies_the_game_and_leaves_the_room_asked_for() -> None:
    """The engine searches on this copy: every row of the game, then ``room`` free rows."""
    board = Board()
    for _ in range(3):
        board.push(next(iter(board.legal_moves)))
    stack, ply = board.kernel_history(room=7)
    assert ply == 3 and stack.shape[0] == 3 + 1 + 7
    assert (stack[: ply + 1] == board._stack[: ply + 1]).all()
    assert not stack[ply + 1 :].any()


def test_a_capture_that_breaks_a_movement_rule_is_not_told_to_go_on() -> None:
    """a1xa3 would land on Black's own man; the legal a1xc1 does not start with it."""
    board = Board("5/5/p4/P4/kP3 b - 0 1")
    assert [m.uci() for m in board.legal_moves] == ["a1c1"]
    with pytest.raises(IllegalMoveError, match="breaks a movement rule"):
        board.push_uci("a1a3")


def test_a_chain_is_explained_at_the_jump_that_breaks_it() -> None:
    """e5xe3 takes Black's man on e4 (the highest point Black holds); the second jump, to c1,
    would pass the empty d2: the explanation names that point, not the first jump."""
    with pytest.raises(IllegalMoveError, match="skips the empty point d2"):
        Board("1P2P/4p/2k2/5/5 w - 0 1").push_uci("e5e3c1")


def test_the_move_number_starts_at_one_and_rises_after_blacks_move() -> None:
    board = Board()
    numbers = [board.fullmove_number]
    for _ in range(4):
        board.push(next(iter(board.legal_moves)))
        numbers.append(board.fullmove_number)
    assert numbers == [1, 1, 2, 2, 3]


def _game_of(plies: int) -> Board:
    """A random legal game exactly ``plies`` long (the first seed whose game lasts)."""
    for seed in range(1000):
        rng, board = random.Random(seed), Board()
        while board.outcome() is None and len(board.move_stack) < plies:
            board.push(rng.choice(list(board.legal_moves)))
        if len(board.move_stack) == plies:
            return board
    raise AssertionError(f"no random game of {plies} plies")


def test_perft_grows_the_stack_when_the_game_has_filled_it() -> None:
    """63 plies in, the first stack (80 rows, 16 kept free) has no room for a perft that
    makes its moves: perft grows it, and counts what pushing and popping counts."""
    board = _game_of(63)
    expected = 0
    for move in list(board.legal_moves):
        board.push(move)
        expected += len(list(board.legal_moves)) if board.outcome() is None else 0
        board.pop()
    assert board.perft(2, bulk=False) == expected == board.perft(2)


def test_a_repetition_under_start_point_no_return_ignores_the_points_passed() -> None:
    """With only the start point barred, two positions are the same whatever points the
    pieces passed on the way: White's man is back on d3 and Black's on b5 after six plies as
    after two, so the third time (ply 10) ends the game."""
    board = Board("p4/5/2P2/5/5 w - 0 1", variant="alquerque-bell", no_return="start_point")
    moves = ["c3d3", "a5b5", "d3e3", "b5c5", "e3d3", "c5b5", "d3e3", "b5c5", "e3d3", "c5b5"]
    for ply, move in enumerate(moves, 1):
        board.push_uci(move)
        assert board.is_repetition(2) == (ply >= 6), ply
    outcome = board.outcome()
    assert outcome is not None and outcome.termination is Termination.REPETITION


def test_piece_at_tells_kings_from_men() -> None:
    from kradan.pieces import KING, PAWN, Piece

    board = Board("5/5/5/p1k2/1PK2 w - 0 1", variant="alquerque", alquerque_kings=True)
    assert board.piece_at(1) == Piece(PAWN, WHITE)  # b1
    assert board.piece_at(2) == Piece(KING, WHITE)  # c1
    assert board.piece_at(5) == Piece(PAWN, BLACK)  # a2
    assert board.piece_at(7) == Piece(KING, BLACK)  # c2
    assert board.piece_at(3) is None


def test_outcome_takes_claim_draw_by_keyword_only() -> None:
    with pytest.raises(TypeError):
        Board().outcome(True)  # type: ignore[misc]


def test_a_chain_stopped_early_is_told_to_go_on_after_any_order_of_captures() -> None:
    """a5xc5 takes b5, c5xa3 takes b4 (a lower point): the chain may not stop there."""
    with pytest.raises(IllegalMoveError, match="the chain must go on"):
        Board("Pp3/pp3/5/5/5 w - 0 1", variant="alquerque-bell").push_uci("a5c5a3")
