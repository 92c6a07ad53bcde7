"""kradan.pgn: reading and writing games of every game, dialects, errors, visitors."""

from __future__ import annotations

import io
import itertools
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kradan import Board, PgnError, pgn
from kradan.games import AnyBoard, new_board
from kradan.pgn.tree import position_text

GAMES = ["makruk", "cambodian", "karouk", "sittuyin", "alquerque", "alquerque-bell"]


def _random_game(name: str, seed: int, plies: int = 80, **options: object) -> AnyBoard:
    rng = random.Random(seed)
    board = new_board(name, **options)
    for _ in range(plies):
        if board.is_game_over(claim_draw=True):
            break
        board.push(rng.choice(list(board.legal_moves)))  # type: ignore[arg-type]
    return board


def _read(text: str, **kwargs: object) -> pgn.Game:
    game = pgn.read_game(io.StringIO(text), **kwargs)  # type: ignore[arg-type]
    assert game is not None
    return game


def _positions(board: AnyBoard) -> list[str]:
    replay = board.copy()
    texts = []
    while replay.move_stack:
        texts.append(position_text(replay))
        replay.pop()
    texts.append(position_text(replay))
    return texts[::-1]


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_generated_game_reads_back_identically(name: str) -> None:
    board = _random_game(name, seed=GAMES.index(name))
    text = pgn.game_text(board, {"White": "A", "Black": "B", "Event": 'the "cup"'})
    game = _read(text)
    assert game.errors == []
    assert str(game) + "\n" == text
    assert _positions(game.end().board()) == _positions(board)
    assert game.headers["Result"] == board.result(claim_draw=True)
    assert game.headers["Event"] == 'the "cup"'


def _decorated_game(name: str, seed: int) -> pgn.Game:
    """A game with variations, comments, NAGs and starting comments all over the tree."""
    rng = random.Random(seed)
    game = pgn.Game.from_board(_random_game(name, seed, plies=30))
    for index, node in enumerate(list(game.mainline())):
        if index % 4 == 1:
            node.comment = f"note {index}"
        if index % 5 == 2:
            node.nags.add(rng.choice([1, 2, 3, 4, 5, 6, 14]))
        if index % 6 == 3:
            board = node.parent.board()
            others = [m for m in board.legal_moves if m != node.move]  # type: ignore[attr-defined]
            if others:
                side = node.parent.add_variation(rng.choice(others), starting_comment="or")
                after = side.board()
                if list(after.legal_moves):
                    side.add_variation(rng.choice(list(after.legal_moves))).comment = "deep"
    return game


@pytest.mark.parametrize("name", GAMES)
def test_variations_comments_and_nags_round_trip(name: str) -> None:
    game = _decorated_game(name, seed=7)
    text = str(game)
    again = _read(text)
    assert again.errors == []
    assert str(again) == text

    def shape(node: pgn.GameNode) -> list[object]:
        return [
            (child.uci(), child.comment, child.starting_comment, sorted(child.nags), shape(child))
            for child in node.variations
        ]

    assert shape(again) == shape(game)
    assert "(" in text and "{or}" in text


def test_counting_declarations_and_stops_round_trip() -> None:
    """docs/rules.md 2.6.4: declared counts are recorded in the game and replayed on reading."""
    board = Board("8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1", counting="declared")
    board.push_san("Rd4")
    board.declare_count()  # Black, with a lone met left, starts board's honour
    board.push_san("Ke5")
    board.push_san("Rd1")
    board.stop_count()
    board.push(next(iter(board.legal_moves)))
    text = pgn.game_text(board)
    assert "[%count declare]" in text and "[%count stop]" in text
    assert "counting=declared" in text
    game = _read(text)
    assert game.errors == []
    end = game.end().board()
    assert isinstance(end, Board)
    assert [str(e) for e in end.move_stack] == [str(e) for e in board.move_stack]
    assert end.counting_state() == board.counting_state()
    assert str(game) + "\n" == text


def test_the_older_count_comment_is_read() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1"]\n\n1. Rd4 {declare count} 1... Ke5 *'
    )
    game = _read(text)
    assert game.errors == []
    assert game.next() is not None and game.next().count_actions == ["declare"]  # type: ignore[union-attr]


def test_a_count_the_rules_forbid_is_an_error_with_its_place() -> None:
    game = _read(
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n\n1. e4 {[%count declare]} *'
    )
    assert len(game.errors) == 1
    assert game.errors[0].move_number == 1
    assert "count" in game.errors[0].message


def test_sittuyin_setup_drops_round_trip() -> None:
    board = _random_game("sittuyin", seed=3, plies=40)
    drops = [m for m in board.move_stack if getattr(m, "drop", None) is not None]
    assert len(drops) == 16  # eight pieces each; the pawns stand from the start
    text = pgn.game_text(board)
    assert "R@" in text
    game = _read(text)
    assert _positions(game.end().board()) == _positions(board)


def test_a_screened_setup_travels_in_a_header() -> None:
    """Issue 46: a screened Sittuyin setup is written as ``sittuyin_setup=screened``; its camps,
    handed in whole, are the drops the alternate setup plays one by one, and read back so."""
    board = Board(variant="sittuyin", sittuyin_setup="screened")
    board.submit_setup(True, "standard")
    board.submit_setup(False, "standard")
    board.push_san("a4")
    game = pgn.Game.from_board(board)
    assert game.headers["VariantOptions"] == "sittuyin_setup=screened"
    text = str(game)
    assert '[VariantOptions "sittuyin_setup=screened"]' in text and "K@" in text
    again = _read(text)
    assert again.headers["VariantOptions"] == "sittuyin_setup=screened"
    assert _positions(again.end().board()) == _positions(board)


def test_options_travel_in_a_header() -> None:
    board = Board(
        variant="makruk", sut_met=True, takhen_rua=("a1", "h1"), stalemate="stalemater_loses"
    )
    board.push_san("e4")
    game = pgn.Game.from_board(board)
    words = game.headers["VariantOptions"].split()
    assert "sut_met=true" in words and "takhen_rua=a1,h1" in words and len(words) == 3
    again = _read(str(game))
    assert again.board().variant == board.variant
    assert again.end().board() == board


def test_thai_san_is_written_and_read_on_request() -> None:
    board = _random_game("makruk", seed=11, plies=24)
    game = pgn.Game.from_board(board)
    thai = game.accept(pgn.StringExporter(notation="thai"))
    assert any("\u0e00" <= char <= "\u0e7f" for char in thai)
    again = _read(thai)
    assert again.errors == []
    assert again.end().board() == board


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10**6), plies=st.integers(0, 120))
def test_any_game_written_and_read_back_gives_the_same_positions_and_result(
    name: str, seed: int, plies: int
) -> None:
    board = _random_game(name, seed, plies)
    game = _read(pgn.game_text(board))
    assert game.errors == []
    end = game.end().board()
    assert _positions(end) == _positions(board)
    assert end.result(claim_draw=True) == board.result(claim_draw=True) == game.headers["Result"]


# --- dialects -------------------------------------------------------------------------------------

PYCHESS_MAKRUK = """[Event "Casual game"]
[Site "https://www.pychess.org/AbCdEfGh"]
[Date "2024.03.05"]
[Round "-"]
[White "somchai"]
[Black "Fairy-Stockfish"]
[Result "*"]
[TimeControl "300+3"]
[WhiteElo "1612"]
[BlackElo "1700"]
[Variant "Makruk"]
[FEN "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"]
[SetUp "1"]

1. a4 {[%clk 0:05:00]} a5 {[%clk 0:05:00]} 2. Nd2 {[%clk 0:05:01]} f5 {[%clk 0:05:02]}
3. f4 Nf6 4. Sc2 Sc7 5. Ngf3 Me7 6. e4 c5 7. Se2 Nc6 8. Mf2 fxe4 9. dxe4 e5 10. Me3 Sf7 *
"""

PYCHESS_CAMBODIAN = """[Event "Rated game"]
[Site "https://www.pychess.org/Xy12Zw34"]
[Date "2024.06.01"]
[Round "-"]
[White "dara"]
[Black "sokha"]
[Result "*"]
[Variant "Cambodian"]
[FEN "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"]
[SetUp "1"]

1. e4 Sc7 2. Kb2 a5 3. e5 d5 4. Ka2 a4 5. Sd2 f5 6. Ne2 Nf6 7. Nd4 Me7 8. bxa4 h5 *
"""

PYCHESS_SITTUYIN = """[Event "Casual game"]
[Site "https://www.pychess.org/Mm00Nn11"]
[Date "2024.01.20"]
[Round "-"]
[White "aung"]
[Black "min"]
[Result "*"]
[Variant "Sittuyin"]
[FEN "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1"]
[SetUp "1"]

1. S@d2 F@e7 2. K@e1 N@c8 3. F@a1 N@f8 4. N@b1 S@d8 5. S@g2 R@b8 6. N@a2 K@b7 7. R@d1 S@c6
8. R@f1 R@h8 9. Fb2 Ka8 10. Ke2 Ka7 11. Fa1 f5 *
"""


@pytest.mark.parametrize(
    ("text", "variant", "plies"),
    [(PYCHESS_MAKRUK, "makruk", 20), (PYCHESS_CAMBODIAN, "cambodian", 16),
     (PYCHESS_SITTUYIN, "sittuyin", 22)],
)  # fmt: skip
def test_pychess_org_games_are_read(text: str, variant: str, plies: int) -> None:
    game = _read(text)
    assert game.errors == []
    assert game.board().variant.name == variant
    assert len(game.mainline_moves()) == plies
    if variant == "makruk":
        assert game.headers["WhiteElo"] == "1612"
        assert game.next().comment == "[%clk 0:05:00]"  # type: ignore[union-attr]


CUTECHESS_SITTUYIN = """[Event "?"]
[Site "?"]
[Date "2025.02.02"]
[Round "1"]
[White "engine-a"]
[Black "engine-b"]
[Result "*"]
[FEN "1r2rs2/k6n/1n1f1pRP/pPpP3P/P1pps3/2SP1R2/4K2S/7N[] w - - 0 35"]
[PlyCount "1"]
[SetUp "1"]
[TimeControl "40/60"]
[Variant "sittuyin"]

35. c6=F {+0.52/9 0.31s} *
"""


def test_cutechess_short_sittuyin_promotion_is_read() -> None:
    """cutechess writes a diagonal promotion by its target alone (``c6=F``); Fairy-Stockfish
    and kradan write ``d5c6=F``. Both read as the pawn's move d5-c6 with promotion."""
    game = _read(CUTECHESS_SITTUYIN)
    assert game.errors == []
    node = game.next()
    assert node is not None and node.uci() == "d5c6f"
    assert node.san() == "d5c6=F"
    assert node.comment == "+0.52/9 0.31s"


def test_an_ambiguous_short_promotion_is_an_error() -> None:
    fen = "3s3k/1P6/6f1/2pP4/2P3K1/2R5/r7/3S4[] w - - 1 84"  # b7 and d5 may both promote on c6
    game = _read(f'[Variant "sittuyin"]\n[FEN "{fen}"]\n\n84. c6=F *')
    assert [(e.text, e.move_number) for e in game.errors] == [("c6=F", 84)]
    assert game.mainline_moves() == []


def test_uci_strings_and_long_algebraic_are_read() -> None:
    game = _read('[Variant "makruk"]\n\n1. e3e4 d6-d5 2. Nb1-d2 *')
    assert game.errors == []
    assert [n.san() for n in game.mainline()] == ["e4", "d5", "Nd2"]


def test_alquerque_huffs_are_written_without_spaces() -> None:
    board = new_board("alquerque", capture_rule="huff")
    rng = random.Random(4)
    for _ in range(60):
        moves = list(board.legal_moves)
        huffs = [m for m in moves if m.huff is not None]
        if huffs:
            board.push(huffs[0])
            break
        if not moves:
            break
        board.push(rng.choice(moves))
    else:
        pytest.fail("no huff came up")
    text = pgn.game_text(board)
    assert re.search(r"\bh[a-e][1-5],[a-e][1-5][-x]", text)
    game = _read(text)
    assert game.errors == []
    assert game.end().board().text() == board.text()  # type: ignore[union-attr]


# --- lenient reading and errors -----------------------------------------------------------------


def test_an_illegal_move_is_collected_with_its_place_and_the_line_goes_on() -> None:
    text = '[Variant "makruk"]\n\n1. e4 d5 (1... Ke5 2. d4) 2. exd5 Qh4 3. Nd2 *'
    game = _read(text)
    assert [(e.text, e.move_number) for e in game.errors] == [("Ke5", 1), ("Qh4", 2)]
    assert game.errors[0].line == 3
    assert [n.san() for n in game.mainline()] == ["e4", "d5", "exd5"]
    assert game.next().next().variations[1:] == []  # type: ignore[union-attr]


def test_strict_reading_raises_at_the_first_problem() -> None:
    with pytest.raises(PgnError, match="Qh4") as caught:
        _read('[Variant "makruk"]\n\n1. e4 Qh4 *', strict=True)
    assert "move 1" in str(caught.value)


def test_bad_headers_are_errors_that_quote_the_text() -> None:
    game = _read('[Variant "makruk"]\n[Broken tag\n\n1. e4 *')
    assert "[Broken tag" in game.errors[0].message
    assert game.mainline_moves()
    unknown = _read('[Variant "shogi"]\n\n1. e4 *')
    assert "'shogi'" in unknown.errors[0].message and unknown.mainline_moves() == []
    chess = _read('[Variant "Standard"]\n\n1. e4 *')
    assert "chess" in chess.errors[0].message
    fen = _read('[Variant "makruk"]\n[FEN "not a fen"]\n\n1. e4 *')
    assert "not a fen" in fen.errors[0].message


def test_stray_brackets_and_unclosed_variations_are_reported() -> None:
    game = _read('[Variant "makruk"]\n\n( 1. e4 ) d5 ) 1. e4 (1. d4 *')
    messages = " ".join(e.message for e in game.errors)
    assert "follow a move" in messages and "closes no variation" in messages
    assert "not closed" in messages


def test_several_games_in_one_file_and_a_missing_result() -> None:
    one = pgn.game_text(_random_game("makruk", 1, 10), {"Round": "1"})
    two = pgn.game_text(_random_game("cambodian", 2, 10), {"Round": "2"})
    no_result = '[Round "0"]\n[Variant "makruk"]\n1. e4 d5\n'  # the next header follows at once
    handle = io.StringIO(no_result + one + "\n" + two)
    rounds = []
    while (game := pgn.read_game(handle)) is not None:
        rounds.append(game.headers["Round"])
    assert rounds == ["0", "1", "2"]
    assert pgn.read_game(handle) is None


def test_read_headers_and_skip_game_stream_a_file() -> None:
    text = "\n".join(
        pgn.game_text(_random_game("makruk", seed, 12), {"Round": str(seed)}) for seed in range(5)
    )
    handle = io.StringIO(text)
    assert pgn.skip_game(handle)
    headers = pgn.read_headers(handle)
    assert headers is not None and headers["Round"] == "1"
    rest = []
    while (h := pgn.read_headers(handle)) is not None:
        rest.append(h["Round"])
    assert rest == ["2", "3", "4"]
    assert not pgn.skip_game(handle)


def test_a_visitor_streams_without_building_trees() -> None:
    class MoveCounter(pgn.BaseVisitor[int]):
        def begin_game(self) -> None:
            self.moves = 0

        def visit_move(self, board: object, move: object) -> None:
            self.moves += 1

        def begin_variation(self) -> object:
            return pgn.SKIP

        def result(self) -> int:
            return self.moves

    game = _decorated_game("makruk", seed=3)
    count = pgn.read_game(io.StringIO(str(game)), Visitor=MoveCounter)
    assert count == len(game.mainline_moves())


def test_suffix_annotations_become_nags_and_comments_span_lines() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4! d5?! {a long\ncomment} 2. exd5 $14 *')
    first = game.next()
    assert first is not None and first.nags == {1}
    second = first.next()
    assert second is not None and second.nags == {6} and second.comment == "a long\ncomment"
    assert second.next().nags == {14}  # type: ignore[union-attr]


def test_game_node_editing_checks_legality() -> None:
    from kradan import IllegalMoveError, Move

    game = pgn.Game()
    node = game.add_variation(Move.from_uci("e3e4"))
    with pytest.raises(IllegalMoveError, match="e3e4"):
        node.add_variation(Move.from_uci("e3e4"))
    node.add_variation(Move.from_uci("d6d5"))
    game.add_main_variation(Move.from_uci("d3d4"))
    assert game.next().uci() == "d3d4"  # type: ignore[union-attr]
    game.promote_to_main(Move.from_uci("e3e4"))
    assert game.mainline_moves() == [Move.from_uci("e3e4"), Move.from_uci("d6d5")]
    assert game.end().ply() == 2 and game.end().is_mainline()


def test_add_legal_adds_a_known_legal_move_without_replaying_the_game() -> None:
    from kradan import Move

    game = pgn.Game()
    node = game.add_legal(Move.from_uci("e3e4"), comment="known", nags=[1])
    assert node.parent is game and node.comment == "known" and node.nags == {1}
    side = game.add_legal(Move.from_uci("d3d4"), starting_comment="or")
    assert side.starting_comment == "or" and game.variations == [node, side]
    assert str(game).endswith("1. e4 $1 {known} ({or} 1. d4) *")


def test_a_one_square_selection_option_reads_back() -> None:
    board = Board(variant="makruk", takhen_rua=("a1",))
    game = pgn.Game.from_board(board)
    assert game.headers["VariantOptions"] == "takhen_rua=a1"
    assert _read(str(game)).board().variant == board.variant
    assert pgn.parse_options("a=1,2 b=true c=3 d=x") == {
        "a": ("1", "2"),
        "b": True,
        "c": 3,
        "d": "x",
    }


def test_the_pgn_modules_import_one_way() -> None:
    """Each module of kradan.pgn imports only the ones below it (type-only imports too)."""
    import ast
    from pathlib import Path

    order = ["dialects", "moves", "headers", "visitor", "exporter", "tree", "builder", "reader",
             "formats", "text"]  # fmt: skip
    folder = Path(pgn.__file__).parent
    for rank, name in enumerate(order):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for statement in ast.walk(tree):
            if isinstance(statement, ast.ImportFrom) and statement.level == 1:
                target = (statement.module or "").split(".")[0]
                assert target in order[:rank], f"pgn/{name}.py imports .{target}"


_JUNK = '{}()[]"$;%\n 1.e4x=@!?\\*-/abcdefgh12345678KMSNRF'
_VALID = pgn.game_text(_random_game("makruk", 5, 30)) + "\n" + str(_decorated_game("sittuyin", 1))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_broken_pgn_never_crashes_the_reader(data: st.DataObject) -> None:
    """Fuzz: cut, repeat and garble a valid file; reading collects errors and never raises."""
    text = _VALID
    for _ in range(data.draw(st.integers(1, 6))):
        i = data.draw(st.integers(0, len(text)))
        j = data.draw(st.integers(i, min(len(text), i + 40)))
        junk = data.draw(
            st.text(alphabet='{}()[]"$;%\n 1.e4x=@!?\\*-/abcdefgh12345678KMSNRF', max_size=8)
        )
        text = text[:i] + junk + text[j:]
    handle = io.StringIO(text)
    for _ in range(20):
        game = pgn.read_game(handle)
        if game is None:
            break
        assert isinstance(game, pgn.Game)
        written = str(game)  # what was read can always be written, and reads back the same
        again = pgn.read_game(io.StringIO(written))
        assert again is not None
        assert [m.uci() for m in again.mainline_moves()] == [m.uci() for m in game.mainline_moves()]
        # once written, the text is stable (the first reading may add the Seven Tag Roster)
        assert str(pgn.read_game(io.StringIO(str(again)))) == str(again)


def _ended(kind: str) -> AnyBoard:
    if kind == "checkmate":
        board = Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
        board.push_san("Ra8#")
    elif kind == "resignation":
        board = Board()
        board.push_san("e4")
        board.resign(False)
    elif kind == "agreement":
        board = Board(variant="cambodian")
        board.agree_draw()
    elif kind == "insufficient material":
        board = Board("8/8/4k3/8/3n4/8/3K4/8 w - - 0 1")
    elif kind == "first check":
        board = Board("4k3/8/8/8/8/8/8/R3K3 w - - 1+1 0 1", variant="karouk")
        board.push_san("Ra8+")
    else:
        board = new_board("alquerque-bell", "5/5/5/1p3/P4 w - 0 1")  # type: ignore[assignment]
        board.push(next(m for m in board.legal_moves if m.is_capture))  # type: ignore[arg-type]
    return board


@pytest.mark.parametrize(
    "kind",
    ["checkmate", "resignation", "agreement", "insufficient material", "first check",
     "captured all"],
)  # fmt: skip
def test_results_by_every_kind_of_ending_are_written_with_their_termination(kind: str) -> None:
    board = _ended(kind)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None and outcome.termination.value == kind
    game = _read(pgn.game_text(board))
    assert game.headers["Result"] == board.result(claim_draw=True) != "*"
    assert game.headers["Termination"] == kind


def test_a_game_without_moves_before_the_next_one() -> None:
    handle = io.StringIO('[Round "1"]\n\n[Round "2"]\n[Variant "makruk"]\n\n1. e4 *\n')
    first, second = pgn.read_game(handle), pgn.read_game(handle)
    assert first is not None and first.errors == [] and first.mainline_moves() == []
    assert second is not None and second.headers["Round"] == "2"
    assert len(second.mainline_moves()) == 1


def test_a_count_command_where_no_count_can_go_stays_a_comment() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 ({[%count declare]} 1. d4) *')
    side = game.variations[1]
    assert side.starting_comment == "[%count declare]" and side.count_actions == []


def test_clock_and_eval_comment_commands() -> None:
    game = _read(PYCHESS_MAKRUK)
    first = game.next()
    assert first is not None and first.clock() == 300.0 and first.eval() is None
    game = _read('[Variant "makruk"]\n\n1. e4 {[%eval -0.35] [%clk 1:02:03.5]} d5 {[%eval #-3]} *')
    node = game.next()
    assert node is not None and node.eval() == ("cp", -0.35) and node.clock() == 3723.5
    assert node.next().eval() == ("mate", -3.0)  # type: ignore[union-attr]


def test_movetext_is_wrapped_at_the_columns_asked_for() -> None:
    game = pgn.Game.from_board(_random_game("makruk", 5, 80))
    for columns in (40, 80):
        text = game.accept(pgn.StringExporter(columns=columns, headers=False))
        lines = text.splitlines()
        assert len(lines) > 1 and max(map(len, lines)) <= columns
        # each line is as full as it can be: the next line's first word would not have fit
        for line, following in itertools.pairwise(lines):
            assert len(line) + 1 + len(following.split()[0]) > columns
    one_line = game.accept(pgn.StringExporter(columns=None, headers=False))
    assert "\n" not in one_line and one_line.split() == text.split()


def test_the_exporter_takes_its_options_by_keyword_only() -> None:
    with pytest.raises(TypeError):
        pgn.StringExporter(40)  # type: ignore[misc]


def test_a_tag_glued_after_a_broken_one_is_still_read() -> None:
    game = _read('[Variant "makruk"]\n[[Site "Bangkok"]\n\n1. e4 *')
    assert game.headers["Site"] == "Bangkok"
    assert [e.message for e in game.errors] == ["bad header line '['"]
    assert len(game.mainline_moves()) == 1


def test_a_repeated_tag_names_the_tag_and_starts_the_next_game() -> None:
    handle = io.StringIO('[Variant "makruk"]\n[Event "one"]\n[Event "two"]\n\n1. e4 *\n')
    first = pgn.read_game(handle)
    assert first is not None and first.headers["Event"] == "one"
    assert [e.message for e in first.errors] == ["[Event] again: a new game begins on this line"]
    second = pgn.read_game(handle)
    assert second is not None and second.headers["Event"] == "two"


def test_options_read_true_false_numbers_and_lists() -> None:
    parsed = pgn.headers.parse_options("a=true b=false c=12 d=x,y e=word")
    assert parsed == {"a": True, "b": False, "c": 12, "d": ("x", "y"), "e": "word"}


def test_the_default_exporter_wraps_at_80_columns() -> None:
    lines = str(pgn.Game.from_board(_random_game("makruk", 6, 80))).split("\n\n")[1].splitlines()
    assert max(map(len, lines)) <= 80
    assert any(len(a) + 1 + len(b.split()[0]) == 81 for a, b in itertools.pairwise(lines)) or all(
        len(a) + 1 + len(b.split()[0]) > 80 for a, b in itertools.pairwise(lines)
    )
    assert all(len(a) + 1 + len(b.split()[0]) > 80 for a, b in itertools.pairwise(lines))


def test_the_seven_tag_roster_comes_first_in_its_order() -> None:
    # streamed straight from the reader to the writer: the tags come in the file's order
    text = '[Annotator "x"]\n[Result "*"]\n[Round "2"]\n[Event "e"]\n[White "w"]\n\n1. e4 *\n'
    written = pgn.read_game(io.StringIO(text), Visitor=pgn.StringExporter)
    assert isinstance(written, str)
    tags = [line.split()[0] for line in written.splitlines() if line.startswith("[")]
    assert tags == ["[Event", "[Round", "[White", "[Result", "[Annotator"]


def test_a_file_exporter_counts_the_characters_it_wrote() -> None:
    handle = io.StringIO()
    exporter = pgn.FileExporter(handle)
    for seed in (1, 2):
        pgn.Game.from_board(_random_game("makruk", seed, 12)).accept(exporter)
    assert exporter.written == len(handle.getvalue())
    assert handle.getvalue().endswith("*\n\n")


def test_a_count_comment_makes_the_next_black_move_carry_its_number() -> None:
    board = Board("8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1", counting="declared")
    board.push_san("Rd4")
    board.declare_count()
    board.push_san("Ke5")
    assert "1. Rd4 {[%count declare]} 1... Ke5" in pgn.game_text(board)


def test_a_count_declared_before_the_first_move_is_read() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/3R4/4K3/8/6m1 b - - 0 1"]\n\n{[%count declare]} 1... Ke5 *'
    )
    game = _read(text)
    assert game.errors == [] and game.count_actions == ["declare"]
    end = game.end().board()
    assert isinstance(end, Board) and end.counting_state() is not None


def test_a_failed_count_command_does_not_drop_the_next_one() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1"]\n\n'
        "1. Rd4 {[%count stop] [%count declare]} 1... Ke5 *"
    )
    game = _read(text)
    assert [e.message.split(":")[0] for e in game.errors] == ["cannot stop a count here"]
    assert game.next().count_actions == ["declare"]  # type: ignore[union-attr]


def test_a_draw_written_with_halves_is_read_as_a_draw() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 d5 ½-½')
    assert game.headers["Result"] == "1/2-1/2"


def test_moves_nags_and_variations_inside_a_variation() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 (1. d4 $1 1... d5 $2 (1... c5) 2. e4) 1... d5 *')
    assert game.errors == []
    assert [v.uci() for v in game.variations] == ["e3e4", "d3d4"]
    side = game.variations[1]
    assert side.nags == {1} and [v.uci() for v in side.variations] == ["d6d5", "c6c5"]
    reply = side.variations[0]
    assert reply.nags == {2} and [v.uci() for v in reply.variations] == ["e3e4"]


def test_a_bad_move_skips_the_rest_of_its_variation_nested_ones_included() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 (1. d4 Zz9 (1... c5) 1... d5) 1... d5 *')
    assert [e.text for e in game.errors] == ["Zz9"]
    side = game.variations[1]
    assert side.uci() == "d3d4" and side.variations == []  # nothing read after Zz9
    assert [m.uci() for m in game.mainline_moves()] == ["e3e4", "d6d5"]


def test_a_comment_just_over_the_limit_is_cut() -> None:
    line = "x" * 999 + "\n"
    lines = pgn.reader.MAX_COMMENT // len(line)
    for extra, cut in ((-2, False), (2, True)):
        comment = line * (lines + extra)
        game = _read('[Variant "makruk"]\n\n1. e4 {' + comment + "} d5 *")
        cut_message = "a comment of more than 1,048,576 characters: cut"
        assert [e.message for e in game.errors] == ([cut_message] if cut else [])
        assert len(game.mainline_moves()) == 2


def test_joined_files_each_with_a_byte_order_mark_are_read() -> None:
    one = "\ufeff" + pgn.game_text(_random_game("makruk", 1, 6), {"Round": "1"})
    two = "\ufeff" + pgn.game_text(_random_game("makruk", 2, 6), {"Round": "2"})
    handle = io.StringIO(one + "\n" + two)
    games = [pgn.read_game(handle), pgn.read_game(handle)]
    assert [g.headers["Round"] for g in games if g is not None] == ["1", "2"]
    assert all(g is not None and g.errors == [] for g in games)


class _Events(pgn.BaseVisitor[list[str]]):
    """Records what the reader hands a visitor; skips the moves when asked."""

    def __init__(self, skip_moves: bool = False) -> None:
        self.events: list[str] = []
        self.skip_moves = skip_moves

    def end_headers(self) -> object:
        return pgn.SKIP if self.skip_moves else None

    def visit_move(self, board: AnyBoard, move: object) -> None:
        self.events.append(f"move {move}")

    def visit_comment(self, comment: str) -> None:
        self.events.append(f"comment {comment}")

    def handle_error(self, error: pgn.ReadError) -> None:
        self.events.append(f"error {error.message}")

    def result(self) -> list[str]:
        return self.events


def _events(text: str, skip_moves: bool = False) -> list[str]:
    found = pgn.read_game(io.StringIO(text), Visitor=lambda: _Events(skip_moves))
    assert found is not None
    return found


def test_a_visitor_that_skips_the_moves_sees_none_of_them() -> None:
    text = '[Variant "makruk"]\n\n1. e4 {note} (1. d4) Zz9 *'
    assert _events(text, skip_moves=True) == []
    assert _events(text)[:2] == ["move e3e4", "comment note"]


def test_a_game_whose_position_cannot_be_set_up_has_no_moves_or_comments() -> None:
    text = '[Variant "makruk"]\n[FEN "not a fen"]\n\n{before} 1. e4 (1. d4) {after} d5 *'
    events = _events(text)
    assert len(events) == 1 and events[0].startswith("error ") and "not a fen" in events[0]


def test_escape_lines_and_blank_lines_before_the_moves_are_passed_over() -> None:
    game = _read('[Variant "makruk"]\n\n% an escaped line\n\n1. e4 d5\n% another\n2. Nd2 *')
    assert [m.uci() for m in game.mainline_moves()] == ["e3e4", "d6d5", "b1d2"]
    assert game.errors == []


def test_a_comment_closed_at_the_start_of_a_line() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 {a note\n} 1... d5 *')
    assert game.next().comment == "a note"  # type: ignore[union-attr]
    assert len(game.mainline_moves()) == 2


def test_a_comment_of_exactly_the_limit_then_more_is_cut() -> None:
    first = "x" * 575 + "\n"  # with 1,048 lines of 1,000: exactly MAX_COMMENT characters
    comment = first + ("x" * 999 + "\n") * 1048
    assert len(comment) == pgn.reader.MAX_COMMENT
    game = _read('[Variant "makruk"]\n\n1. e4 {' + comment + "more\n} d5 *")
    assert [e.message for e in game.errors] == ["a comment of more than 1,048,576 characters: cut"]
    assert len(game.next().comment) == pgn.reader.MAX_COMMENT - 1  # type: ignore[union-attr]
    one_more = _read('[Variant "makruk"]\n\n1. e4 {' + comment + "y} d5 *")  # MAX_COMMENT + 1
    assert [e.message for e in one_more.errors] == [
        "a comment of more than 1,048,576 characters: cut"
    ]


def test_a_long_line_of_moves_ending_in_the_next_games_tags() -> None:
    board = _random_game("makruk", 3, 60)
    movetext = pgn.game_text(board).split("\n\n")[1].replace("\n", " ").strip()
    moves = movetext.rsplit(" ", 1)[0]  # without the result
    assert len(moves) > 300 and not moves.endswith("*")
    handle = io.StringIO('[Variant "makruk"]\n\n' + moves + ' [Event "next"]\n\n1. e4 *\n')
    first, second = pgn.read_game(handle), pgn.read_game(handle)
    assert first is not None and first.errors == []
    assert len(first.mainline_moves()) == len(board.move_stack)
    assert second is not None and second.headers["Event"] == "next"


def test_a_variation_inside_a_variation_must_follow_a_move_of_it() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 ((1. c4) 1. d4) 1... d5 *')
    assert [e.message for e in game.errors] == ["a variation must follow a move"]


def test_a_count_inside_a_variation_is_applied_there() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1"]\n\n'
        "1. Rd5 (1. Rd4 {[%count declare]} 1... Ke5) 1... Kf6 *"
    )
    game = _read(text)
    assert game.errors == []
    assert game.variations[1].count_actions == ["declare"]


def test_unclosed_variations_name_the_line_of_the_first() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 (1. d4\n1... d5 (1... c5\n')
    message = game.errors[-1].message
    assert message == "2 variation(s) not closed, the first opened on line 3"


def test_undecodable_text_is_quoted_up_to_80_characters() -> None:
    data = ('[Variant "makruk"]\n\n1. e4 {' + "x" * 100).encode() + b"\xff" + b"} *\n"
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    game = pgn.read_game(handle)
    assert game is not None and len(game.errors[0].text) == 80


def test_a_bad_move_in_a_dropped_line_skips_the_rest_of_the_game() -> None:
    huge = "x" * (pgn.reader.MAX_LINE + 10) + "\n"
    game = _read('[Variant "makruk"]\n\n1. e4\n' + huge + "(1. d4) 1... d5 *\n")
    assert [m.uci() for m in game.mainline_moves()] == ["e3e4"]


def test_move_numbers_after_comments_variations_and_at_a_black_start() -> None:
    for movetext in ("1. e4 {note} 1... d5 $1 (1... c5 2. Nd2) 2. Nd2 1-0",
                     "1. e4 (1. d4 d5) 1... d5 1-0"):  # fmt: skip
        game = _read('[Variant "makruk"]\n[Result "1-0"]\n\n' + movetext)
        assert str(game).split("\n\n")[1] == movetext
    board = Board("rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR b - - 0 1")
    board.push_san("d5")
    assert pgn.game_text(board).split("\n\n")[1] == "1... d5 *\n"


def test_a_result_that_is_not_one_is_written_as_unknown() -> None:
    assert str(pgn.Game({"Variant": "makruk", "Result": "2-0"})).endswith("\n\n*")
    assert str(pgn.Game({"Variant": "makruk", "Result": "0-1"})).endswith("\n\n0-1")


@pytest.mark.parametrize(
    ("game", "options", "written"),
    [
        ("sittuyin", {"promotion_only_draw": False}, "promotion_only_draw=false"),
        ("sittuyin", {"n_move_rule": 40}, "n_move_rule=40"),
        ("makruk", {"repetition_count": 2}, "repetition_count=2"),
        ("makruk", {"repetition_count": 4}, "repetition_count=4"),
    ],
)
def test_an_option_below_or_above_its_default_is_written(
    game: str, options: dict[str, object], written: str
) -> None:
    headers = pgn.Game.from_board(Board(variant=game, **options)).headers  # type: ignore[arg-type]
    assert headers["VariantOptions"] == written


@pytest.mark.parametrize("text", ["=x", "x", "a=1 =2"])
def test_an_option_word_without_a_key_or_a_value_is_refused(text: str) -> None:
    with pytest.raises(PgnError, match="expected key=value"):
        pgn.headers.parse_options(text)


@pytest.mark.parametrize("moves", [1, 2, 5, 9, 14])
def test_the_next_games_tags_glued_to_the_last_move(moves: int) -> None:
    board = _random_game("makruk", moves, moves)
    movetext = pgn.game_text(board).split("\n\n")[1].replace("\n", " ").strip().rsplit(" ", 1)[0]
    handle = io.StringIO('[Variant "makruk"]\n\n' + movetext + '[Event "next"]\n\n1. e4 *\n')
    first, second = pgn.read_game(handle), pgn.read_game(handle)
    assert first is not None and first.errors == []
    assert len(first.mainline_moves()) == len(board.move_stack)
    assert second is not None and second.headers["Event"] == "next"


def test_a_line_comment_after_a_move_is_passed_over() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 ; a remark\n1... d5 *')
    assert game.errors == [] and len(game.mainline_moves()) == 2


@pytest.mark.parametrize(("token", "quoted"), [("!", "!"), ("a!", "a"), ("Zz?!", "Zz")])
def test_a_suffix_is_taken_off_a_move_before_it_is_read(token: str, quoted: str) -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 ' + token + " *")
    assert [e.text for e in game.errors] == [quoted]


def test_a_count_command_leaves_the_rest_of_its_comment() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1"]\n\n1. Rd4 {[%count declare] well timed} *'
    )
    node = _read(text).next()
    assert node is not None and node.count_actions == ["declare"]
    assert node.comment == "well timed"
    legacy = _read(text.replace("[%count declare] well timed", "declare count")).next()
    assert legacy is not None and legacy.count_actions == ["declare"] and legacy.comment == ""


def test_a_comment_line_that_begins_with_a_bracket_is_not_a_tag() -> None:
    game = _read('[Variant "makruk"]\n\n1. e4 {see\n[diagram] here} 1... d5 *')
    assert game.errors == [] and game.next().comment == "see\n[diagram] here"  # type: ignore[union-attr]
    assert len(game.mainline_moves()) == 2


def test_a_nag_before_any_move_of_its_line_is_passed_over() -> None:
    game = _read('[Variant "makruk"]\n\n$1 1. e4 ($2 1. d4) *')
    assert game.errors == [] and game.nags == set()
    assert [v.nags for v in game.variations] == [set(), set()]


def test_a_count_inside_a_variation_is_checked_against_the_variations_position() -> None:
    # the variation takes the last pawn, so a count may begin; the main line keeps it
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/p7/8/R3K3/8/6m1 w - - 0 1"]\n\n'
        "1. Ra4 (1. Rxa5 {[%count declare]} 1... Kd6) 1... Kd6 *"
    )
    game = _read(text)
    assert game.errors == [] and game.variations[1].count_actions == ["declare"]


def test_a_count_inside_a_variation_stays_there() -> None:
    text = (
        '[Variant "makruk"]\n[VariantOptions "counting=declared"]\n'
        '[FEN "8/8/4k3/8/8/3RK3/8/6m1 w - - 0 1"]\n\n'
        "1. Rd5 (1. Rd4 {[%count declare]} 1... Ke5) 1... Kf6 *"
    )
    end = _read(text).end().board()
    assert isinstance(end, Board) and end.counting_state() is None


def test_read_game_takes_its_options_by_keyword_only() -> None:
    handle = io.StringIO('[Variant "makruk"]\n\n1. e4 *\n')
    with pytest.raises(TypeError):
        pgn.read_game(handle, pgn.HeadersBuilder)  # type: ignore[misc]
    assert pgn.read_game(handle, strict=True) is not None  # nothing was read by the refusal
