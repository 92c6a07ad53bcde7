"""The game registry (issue 11): the shipped games answer to their names, and a toy game written
here, tic-tac-toe with a misère option, is registered through the registry alone. With that
one entry, ``kradan perft``, ``kradan match random random``, ``kradan show``, PGN writing and
reading, and SVG pictures all play it, with no change anywhere else."""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import kradan
from kradan import alquerque, games, pgn, svg
from kradan.cli.main import main
from kradan.errors import IllegalMoveError, InvalidFenError, InvalidMoveError, VariantError
from kradan.outcome import Outcome, Termination
from kradan.rulesets import Option, apply_options

# --- the shipped games ----------------------------------------------------------------------------


def test_every_shipped_game_answers_to_its_names() -> None:
    assert games.game_names() == [
        "cambodian", "karouk", "makruk", "sittuyin", "alquerque", "alquerque-bell",
    ]  # fmt: skip
    assert games.find_game("Thai chess").name == "makruk"
    assert games.find_game("ouk").title == "Ouk Chatrang"
    assert games.find_game("Alquerque Bell").name == "alquerque-bell"
    assert games.find_game(kradan.variants.SITTUYIN).name == "sittuyin"
    with pytest.raises(VariantError, match="unknown variant 'chess'"):
        games.find_game("chess")


def test_boards_come_from_their_entry_with_options() -> None:
    board = games.new_board("makruk", counting="declared")
    assert isinstance(board, kradan.Board) and games.game_of(board).name == "makruk"
    assert board.variant.counting.value == "declared"
    bell = games.new_board("bell", None, no_return="off")
    assert isinstance(bell, alquerque.Board) and bell.variant.no_return.value == "off"
    assert isinstance(board, games.CountingBoard) and not isinstance(bell, games.CountingBoard)
    with pytest.raises(VariantError, match="does not apply to alquerque"):
        games.new_board("alquerque", no_return="off")


def test_a_name_cannot_be_taken_twice() -> None:
    entry = games.find_game("makruk")
    twin = dataclasses.replace(entry, rules=dataclasses.replace(entry.rules, name="makruk2"))
    with pytest.raises(VariantError, match="taken by 'makruk'"):
        games.register(twin)  # it answers to "thai", which is Makruk's
    assert "makruk2" not in games.game_names()


# --- a toy game, written here ---------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
SQUARES = [f"{file}{rank}" for rank in "123" for file in "abc"]


@dataclass(frozen=True)
class TicTacToeRules:
    name: str = "tictactoe"
    title: str = "Tic-tac-toe"
    aliases: tuple[str, ...] = ("noughts and crosses", "oxo")
    #: three in a row loses
    misere: bool = False

    def with_options(self, **options: Any) -> TicTacToeRules:
        return apply_options(self, TOY_OPTIONS, options)


TOY_OPTIONS = {"misere": Option(bool)}
TOY_RULES = TicTacToeRules()


@dataclass(frozen=True)
class Mark:
    square: int

    @classmethod
    def from_uci(cls, text: str) -> Mark:
        if text not in SQUARES:
            raise InvalidMoveError(f"invalid move {text!r}: expected a square a1..c3")
        return cls(SQUARES.index(text))

    def uci(self) -> str:
        return SQUARES[self.square]


class Marks:
    def __init__(self, moves: list[Mark]) -> None:
        self.moves = moves

    def __iter__(self) -> Iterator[Mark]:
        return iter(self.moves)

    def __len__(self) -> int:
        return len(self.moves)

    def __contains__(self, move: object) -> bool:
        return move in self.moves

    def count(self) -> int:
        return len(self.moves)


class TicTacToeBoard:
    """X (White) and O (Black) take turns; three in a row wins (loses when misère)."""

    def __init__(self, text: str | None = None, *, variant: TicTacToeRules = TOY_RULES) -> None:
        self.variant = variant
        self.set_fen(text or "3/3/3 x")

    def set_fen(self, fen: str) -> None:
        rows, _, side = fen.partition(" ")
        cells = "".join("." * int(c) if c.isdigit() else c for c in rows.replace("/", ""))
        if len(cells) != 9 or set(cells) - set("XO.") or side not in ("x", "o"):
            raise InvalidFenError(f"invalid FEN {fen!r}: expected three rows of X, O, 1-3")
        self.cells = [cells[(2 - square // 3) * 3 + square % 3] for square in range(9)]
        self.first_turn = side == "x"
        self.move_stack: list[Mark] = []
        self.ended: Outcome | None = None

    def fen(self) -> str:
        rows = []
        for rank in (2, 1, 0):
            row = "".join(self.cells[rank * 3 : rank * 3 + 3])
            for n in (3, 2, 1):
                row = row.replace("." * n, str(n))
            rows.append(row)
        return "/".join(rows) + (" x" if self.turn else " o")

    @property
    def turn(self) -> bool:
        return self.first_turn == (len(self.move_stack) % 2 == 0)

    @property
    def fullmove_number(self) -> int:
        return 1 + len(self.move_stack) // 2

    @property
    def legal_moves(self) -> Marks:
        if self._line() is not None:
            return Marks([])
        return Marks([Mark(sq) for sq in range(9) if self.cells[sq] == "."])

    def _line(self) -> str | None:
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def is_legal(self, move: Any) -> bool:
        return move in self.legal_moves

    def push(self, move: Any) -> None:
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {move.uci()!r} in {self.fen()!r}")
        self.cells[move.square] = "X" if self.turn else "O"
        self.move_stack.append(move)
        self.ended = None

    def pop(self) -> Mark:
        move = self.move_stack.pop()
        self.cells[move.square] = "."
        self.ended = None
        return move

    def peek(self) -> Mark:
        return self.move_stack[-1]

    def copy(self) -> TicTacToeBoard:
        board = TicTacToeBoard(variant=self.variant)
        board.cells, board.first_turn = list(self.cells), self.first_turn
        board.move_stack, board.ended = list(self.move_stack), self.ended
        return board

    def parse_uci(self, text: str) -> Mark:
        move = Mark.from_uci(text)
        if not self.is_legal(move):
            raise IllegalMoveError(f"illegal move {text!r} in {self.fen()!r}")
        return move

    def push_uci(self, text: str) -> Mark:
        move = self.parse_uci(text)
        self.push(move)
        return move

    def san(self, move: Any) -> str:
        return str(move.uci())

    def parse_san(self, text: str) -> Mark:
        return self.parse_uci(text.rstrip("!?+#"))

    def push_san(self, text: str) -> Mark:
        return self.push_uci(text.rstrip("!?+#"))

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        if self.ended is not None:
            return self.ended
        line = self._line()
        if line is not None:
            return Outcome(Termination.VARIANT_WIN, (line == "X") != self.variant.misere)
        if "." not in self.cells:
            return Outcome(Termination.VARIANT_DRAW, None)
        return None

    def result(self, *, claim_draw: bool = False) -> str:
        found = self.outcome()
        return "*" if found is None else found.result()

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome() is not None

    def resign(self, color: bool) -> Outcome:
        self.ended = Outcome(Termination.RESIGNATION, not color)
        return self.ended

    def agree_draw(self) -> Outcome:
        self.ended = Outcome(Termination.AGREEMENT, None)
        return self.ended

    def perft(self, depth: int, *, bulk: bool = True) -> int:
        moves = list(self.legal_moves)
        if depth == 0:
            return 1
        if depth == 1 and bulk:
            return len(moves)
        total = 0
        for move in moves:
            self.push(move)
            total += self.perft(depth - 1, bulk=bulk)
            self.pop()
        return total

    def perft_divide(self, depth: int, *, bulk: bool = True) -> Mapping[Mark, int]:
        counts = {}
        for move in list(self.legal_moves):
            self.push(move)
            counts[move] = self.perft(depth - 1, bulk=bulk)
            self.pop()
        return counts

    def __str__(self) -> str:
        return "\n".join(" ".join(self.cells[r * 3 : r * 3 + 3]) for r in (2, 1, 0))


def toy_text(board: TicTacToeBoard, flipped: bool = False, colour: bool = False) -> str:
    return str(board)


def toy_svg(board: TicTacToeBoard, options: Any, *, lastmove: Any, check: Any, arrows: Any,
            fill: Any) -> str:  # fmt: skip
    last = board.move_stack[-1].square if board.move_stack and lastmove is None else -1
    body = []
    for square, cell in enumerate(board.cells):
        x, y = square % 3, 2 - square // 3
        kind = "lastmove" if square == last else "square"
        body.append(f'<rect class="{kind}" x="{x}" y="{y}" width="1" height="1"/>')
        if cell != ".":
            body.append(f'<text class="mark" x="{x + 0.5}" y="{y + 0.7}">{cell}</text>')
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 3 3">{"".join(body)}</svg>'


TOY = games.Game(rules=TOY_RULES, board=TicTacToeBoard, options=TOY_OPTIONS, text=toy_text,
                 svg=toy_svg)  # fmt: skip


@pytest.fixture
def toy() -> Iterator[games.Game]:
    games.register(TOY)
    yield TOY
    games.unregister(TOY.name)


def test_the_toy_game_is_found_by_its_names(toy: games.Game) -> None:
    assert games.find_game("Noughts and Crosses") is toy and "tictactoe" in games.game_names()
    board = games.new_board("oxo", misere=True)
    assert board.variant.misere and games.game_of(board) is toy
    with pytest.raises(VariantError, match="misere=3"):
        games.new_board("tictactoe", misere=3)


def test_the_toy_game_leaves_when_unregistered() -> None:
    games.register(TOY)
    games.unregister("tictactoe")
    with pytest.raises(VariantError):
        games.find_game("tictactoe")


def test_kradan_perft_counts_the_toy_tree(toy: games.Game, capsys: Any) -> None:
    # the well-known counts of tic-tac-toe, games ending at three in a row
    board = toy.new_board()
    assert [board.perft(depth) for depth in range(1, 7)] == [9, 72, 504, 3024, 15120, 54720]
    assert main(["perft", "tictactoe", "5"]) == 0
    assert "nodes 15120 " in capsys.readouterr().out
    assert main(["perft", "oxo", "2", "--divide", "--fen", "X2/1O1/3 x"]) == 0
    out = capsys.readouterr().out
    assert "a2: 6" in out and "b2" not in out and "nodes 42 " in out


def test_kradan_match_random_random_plays_the_toy_game(
    toy: games.Game, tmp_path: Path, capsys: Any
) -> None:
    saved = tmp_path / "games.pgn"
    status = main(["match", "random", "random", "--variant", "tictactoe", "--games", "6",
                   "--tc", "60", "--pgn", str(saved)])  # fmt: skip
    assert status == 0
    assert "random" in capsys.readouterr().out
    with saved.open() as handle:
        read = []
        while (game := pgn.read_game(handle)) is not None:
            read.append(game)
    assert len(read) == 6
    for game in read:
        assert game.headers["Variant"] == "tictactoe" and not game.errors
        end = game.end().board()
        assert end.is_game_over() and end.result() == game.headers["Result"]


def test_pgn_writes_and_reads_the_toy_game(toy: games.Game) -> None:
    board = games.new_board("tictactoe", misere=True)
    for square in ["b2", "a1", "c3", "c1"]:
        board.push_san(square)
    text = str(pgn.Game.from_board(board))
    assert '[Variant "tictactoe"]' in text and '[VariantOptions "misere=true"]' in text
    assert "1. b2 a1 2. c3 c1" in text
    again = pgn.read_game(io.StringIO(text))
    assert again is not None and not again.errors
    replayed = again.end().board()
    assert replayed.fen() == board.fen() == "2X/1X1/O1O x" and replayed.variant.misere
    bad = pgn.read_game(io.StringIO('[Variant "oxo"]\n\n1. b2 b2 *'))
    assert bad is not None and "illegal move 'b2'" in str(bad.errors[0])


def test_svg_and_show_draw_the_toy_game(toy: games.Game, tmp_path: Path, capsys: Any) -> None:
    board = games.new_board("tictactoe", "X2/1O1/3 x")
    board.push_uci("c1")
    picture = svg.board(board)
    assert picture.startswith("<svg") and picture.count('class="mark"') == 3
    assert picture.count('class="lastmove"') == 1
    out = tmp_path / "toy.svg"
    assert main(["show", "--variant", "tictactoe", "X2/1O1/3 x", "--svg", str(out)]) == 0
    assert out.read_text().count('class="mark"') == 2
    assert main(["show", "--variant", "tictactoe", "X2/1O1/3 x"]) == 0
    assert "X . .\n. O .\n. . ." in capsys.readouterr().out


def test_kradan_engine_is_refused_for_a_game_without_a_searcher(toy: games.Game) -> None:
    from kradan.runners.players import PlayerSpecError, make_player

    with pytest.raises(PlayerSpecError, match="does not play tictactoe"):
        make_player("kradan", game="tictactoe")


def test_replay_options_give_a_screened_setup_the_drops_it_became() -> None:
    """A screened setup's camps replay as the alternate setup's drops (the web app's engine
    worker and PGN replay a game move by move); every other game keeps its options."""
    screened = games.new_board("sittuyin", sittuyin_setup="screened")
    options = {"sittuyin_setup": "screened"}
    assert games.replay_options(screened, options) == {}
    assert options == {"sittuyin_setup": "screened"}  # a copy, not a change
    makruk = games.new_board("makruk", counting="declared")
    assert games.replay_options(makruk, {"counting": "declared"}) == {"counting": "declared"}
    assert games.replay_options(games.new_board("alquerque"), {}) == {}


def test_the_browser_offers_the_games_it_is_told_how_to_draw(toy: games.Game) -> None:
    """The ``browser`` hook describes a game to the web board; a game without it (the toy)
    is registered and played everywhere else, and simply not offered by the browser."""
    assert toy.browser_board() is None
    sittuyin = games.find_game("sittuyin").browser_board()
    assert sittuyin is not None and sittuyin["pocket"] == ["r", "n", "s", "f", "k"]
    assert sittuyin["board"] == "sittuyin" and sittuyin["promoted"] == "f"
    bell = games.find_game("bell").browser_board()
    assert bell is not None and (bell["family"], bell["width"], bell["kings"]) == (
        "alquerque", 5, [],
    )  # fmt: skip
    pytest.importorskip("fastapi")
    from kradan.web.pages import drawable_games

    assert toy not in drawable_games() and len(drawable_games()) == 6


def test_a_tool_passes_on_only_the_options_a_game_takes() -> None:
    """``applicable_options``: one setting for every game, passed on where it means something
    (Makruk counts by declaration; Sittuyin has no such option; the toy's option is its own)."""
    makruk, sittuyin = games.find_game("makruk"), games.find_game("sittuyin")
    assert makruk.applicable_options(counting="declared", misere=True) == {"counting": "declared"}
    assert sittuyin.applicable_options(counting="declared") == {}
    assert TOY.applicable_options(counting="auto", misere=True) == {"misere": True}


def test_an_option_carries_its_words() -> None:
    """Each shipped option has a label, a help text and a label for every value, in English
    (translated by the web pages), declared with the option."""
    from enum import Enum

    for game in games.games():
        for name, option in game.options.items():
            assert option.label and option.help, name
            if isinstance(option.kind, type) and issubclass(option.kind, Enum):
                assert {str(member.value) for member in option.kind} == set(option.value_labels)
    counting = games.find_game("makruk").options["counting"]
    assert counting.label_of("declared") == "declared by the players"
    assert TOY_OPTIONS["misere"].label_of("x_y") == "x y"  # no label: the value as written
