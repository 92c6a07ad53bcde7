"""kradan.engine.book (issue 16, item 4): building an opening book from games, the file format, the
weighted choice, and its users: the UCI engine (OwnBook, BookFile), kradan's players
(``kradan:book=FILE``, ``kradan play --book``) and match openings (``--openings BOOK``)."""

from __future__ import annotations

import io
import random
import struct
from collections import Counter
from pathlib import Path

import pytest

from kradan import Board, pgn
from kradan.alquerque import Board as AlquerqueBoard
from kradan.cli.main import main
from kradan.engine.book import (
    ENTRY,
    MAGIC,
    MAX_WEIGHT,
    Book,
    BookError,
    build,
    entries_of,
    position_key,
)
from kradan.engine.protocol.uci import UciEngine
from kradan.errors import InputFileError
from kradan.runners.match import load_openings
from kradan.runners.players import PlayerSpecError, make_player

GAMES = """[Result "1-0"]

1. e4 e5 2. d4 1-0

[Result "1-0"]

1. e4 d5 1-0

[Result "1/2-1/2"]

1. d4 d5 1/2-1/2

[Result "0-1"]

1. c4 c5 0-1

[Result "*"]

1. f4 *
"""


def _games(text: str = GAMES, variant: str = "makruk") -> list[pgn.Game]:
    handle = io.StringIO(text)
    found = []
    while (game := pgn.read_game(handle, default_variant=variant)) is not None:
        found.append(game)
    return found


@pytest.fixture
def book() -> Book:
    return build(_games(), "makruk")


def test_moves_weigh_two_per_win_and_one_per_draw_of_their_side(book: Book) -> None:
    start = Board()
    moves = {m.uci: m.weight for m in book.moves(start)}
    # e4 won twice (4), d4 drew (1); c4 lost (left out); f4's game has no result
    assert moves == {"e3e4": 4, "d3d4": 1}
    assert [m.uci for m in book.moves(start)] == ["e3e4", "d3d4"]  # the heaviest first
    after_e4 = Board()
    after_e4.push_uci("e3e4")
    assert book.moves(after_e4) == []  # Black lost both games after e4
    after_c4 = Board()
    after_c4.push_uci("c3c4")
    assert {m.uci: m.weight for m in book.moves(after_c4)} == {"c6c5": 2}  # Black won


def test_plies_and_min_weight_trim_the_book() -> None:
    assert len(build(_games(), "makruk", plies=1)) == 2  # e4 and d4 at the start
    assert [m.uci for m in build(_games(), "makruk", min_weight=2).moves(Board())] == ["e3e4"]


def _random_games(count: int, plies: int, result: str = "1/2-1/2", variant: str = "makruk") -> str:
    """``count`` random games of ``plies`` plies (a draw: every move earns a point) as PGN."""
    texts = []
    for seed in range(count):
        board, rng, sans = Board(variant=variant), random.Random(seed), []
        while len(sans) < plies and board.outcome() is None:
            move = rng.choice(list(board.legal_moves))
            sans.append(board.san(move))
            board.push(move)
        numbered = " ".join(f"{i // 2 + 1}. {san}" if i % 2 == 0 else san
                            for i, san in enumerate(sans))  # fmt: skip
        texts.append(f'[Variant "{variant}"]\n[Result "{result}"]\n\n{numbered} {result}\n')
    return "\n".join(texts)


def test_a_book_keeps_twenty_plies_of_each_game_by_default() -> None:
    games = _games(_random_games(1, 30))
    assert len(build(games, "makruk")) == len(build(games, "makruk", plies=20)) == 20
    assert len(build(games, "makruk", plies=21)) == 21


def test_a_large_book_and_one_of_another_game_read_back(tmp_path: Path) -> None:
    """Past a dozen entries (the size is no small number any more) and with a game's name of
    any length (Cambodian: nine letters), a book reads back as it was written."""
    for variant in ("makruk", "cambodian", "sittuyin"):
        big = build(_games(_random_games(4, 12, variant=variant), variant), variant)
        assert len(big) > 30
        path = tmp_path / f"{variant}.book"
        big.write(path)
        again = Book.read(path)
        assert again.game == big.game and (again.entries == big.entries).all()


def test_a_position_reached_two_ways_is_one_entry() -> None:
    one, two = Board(), Board()
    for move in ("e3e4", "e6e5", "d3d4"):
        one.push_uci(move)
    for move in ("d3d4", "e6e5", "e3e4"):
        two.push_uci(move)
    assert one.fen().split()[:2] == two.fen().split()[:2]
    assert position_key(one) == position_key(two) == one.zobrist_key()
    assert position_key(Board()) != position_key(one)


def test_the_file_reads_back_the_same(book: Book, tmp_path: Path) -> None:
    path = tmp_path / "m.book"
    size = book.write(path)
    data = path.read_bytes()
    assert data.startswith(MAGIC) and size == len(data)
    assert (size - len(MAGIC) - 4 - 2 - len(b"makruk") - 8) == len(book) * ENTRY.itemsize == 20 * 5
    again = Book.read(path)
    assert again.game == "makruk" and (again.entries == book.entries).all()


def test_bad_book_files_are_typed_errors_that_name_them(book: Book, tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"nothing\.book"):
        Book.read(tmp_path / "nothing.book")
    games = tmp_path / "games.pgn"
    games.write_text(GAMES)
    with pytest.raises(BookError, match=r"games\.pgn.*is not a kradan book"):
        Book.read(games)
    path = tmp_path / "m.book"
    book.write(path)
    path.write_bytes(path.read_bytes()[:-3])
    with pytest.raises(BookError, match="damaged book"):
        Book.read(path)
    path.write_bytes(MAGIC + b"\x09\x00")
    with pytest.raises(BookError, match="damaged book header"):
        Book.read(path)


def test_a_book_of_another_format_or_with_missing_entries_is_refused_exactly(
    book: Book, tmp_path: Path
) -> None:
    """Issue 49 (mutation/book.toml's survivors): an older format is refused as a newer one
    is, and a damaged book says how many bytes of entries it holds."""
    path = tmp_path / "m.book"
    book.write(path)
    data = path.read_bytes()
    for version in (0, 2):
        path.write_bytes(MAGIC + struct.pack("<I", version) + data[len(MAGIC) + 4 :])
        with pytest.raises(BookError, match=f"book format {version}; this kradan reads 1"):
            Book.read(path)
    path.write_bytes(data[:-3])
    entries = book.entries.size * ENTRY.itemsize
    with pytest.raises(BookError, match=rf"{book.entries.size} entries announced, "
                       rf"{entries - 3} bytes of entries"):  # fmt: skip
        Book.read(path)


def test_a_weight_past_four_billion_is_capped() -> None:
    """A move's weight is stored in 32 bits: a larger one is kept at the largest it can be,
    not wrapped round (mutation/book.toml's survivor)."""
    weights = {(7, "e3e4"): 2**32 + 5, (7, "d3d4"): 2**32 - 1, (9, "c3c4"): 3, (9, "f3f4"): 1}
    entries = entries_of(weights, min_weight=2)
    assert [(int(e["key"]), e["move"].decode(), int(e["weight"])) for e in entries] == [
        (7, "e3e4", MAX_WEIGHT), (7, "d3d4", MAX_WEIGHT), (9, "c3c4", 3)]  # fmt: skip
    assert MAX_WEIGHT == 2**32 - 1


def test_a_book_answers_only_for_its_own_game(book: Book) -> None:
    with pytest.raises(BookError, match="a makruk book has no cambodian positions"):
        book.moves(Board(variant="cambodian"))


def test_choose_follows_the_weights(book: Book) -> None:
    rng = random.Random(5)
    picks = Counter(book.choose(Board(), rng).uci() for _ in range(2000))  # type: ignore[union-attr]
    assert set(picks) == {"e3e4", "d3d4"}
    assert 0.74 < picks["e3e4"] / 2000 < 0.86  # 4 : 1
    out = Board()
    out.push_uci("h3h4")
    assert book.choose(out, rng) is None


def test_lines_are_drawn_from_seed_0_at_most_eight_times_the_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Match openings are the same in every run unless a seed is given (seed 0), and a book
    with fewer lines than asked for gives up after 8 draws a line asked for."""
    rich = build(_games(_random_games(12, 6)), "makruk")
    assert rich.lines(4, plies=3) == rich.lines(4, plies=3, seed=0)
    assert rich.lines(4, plies=3, seed=0) != rich.lines(4, plies=3, seed=1)
    draws = []
    monkeypatch.setattr(Book, "choose", lambda self, board, rng=None: draws.append(1))
    for count in (1, 2, 5):
        draws.clear()
        assert rich.lines(count, plies=3) == []
        assert len(draws) == 8 * count


def test_a_seeded_choice_is_the_same_each_time(book: Book) -> None:
    """The generator given decides the draws (match openings are reproducible by their seed)."""
    first, second = random.Random(11), random.Random(11)
    picks = [book.choose(Board(), first).uci() for _ in range(40)]  # type: ignore[union-attr]
    assert picks == [book.choose(Board(), second).uci() for _ in range(40)]  # type: ignore[union-attr]
    assert len(set(picks)) == 2


def test_lines_are_different_and_follow_the_book(book: Book) -> None:
    lines = book.lines(10, plies=4, seed=1)
    assert sorted(map(tuple, lines)) == sorted({("e3e4",), ("d3d4", "d6d5")})
    # however many are asked for, the draws go on until the book's lines are found
    assert sorted(map(tuple, book.lines(8, plies=4, seed=1))) == sorted(map(tuple, lines))
    assert len(book.lines(1, plies=4, seed=1)) == 1 and book.lines(0, plies=4) == []
    # a line stops at its plies, though the book goes on
    assert sorted(map(tuple, book.lines(10, plies=1, seed=1))) == [("d3d4",), ("e3e4",)]
    assert book.lines(10, plies=4, seed=1) == lines  # the seed decides


def test_an_alquerque_book_keys_points_and_side_only() -> None:
    text = '[Variant "alquerque"]\n[Result "1-0"]\n\n1. c2c3 1-0\n'
    book = build(_games(text, "alquerque"), "alquerque")
    assert [m.uci for m in book.moves(AlquerqueBoard())] == ["c2c3"]
    later = AlquerqueBoard("ppppp/ppppp/pp1PP/PPPPP/PPPPP w - 7 30")
    assert position_key(later) == position_key(AlquerqueBoard())
    huffable = AlquerqueBoard("ppppp/ppppp/pp1PP/PPPPP/PPPPP w a5 0 1")  # a piece to huff
    assert position_key(huffable) == position_key(AlquerqueBoard())
    black = AlquerqueBoard("ppppp/ppppp/pp1PP/PPPPP/PPPPP b - 0 1")
    assert position_key(black) != position_key(AlquerqueBoard())


# --- its users ---------------------------------------------------------------------------------


def _uci(*lines: str) -> list[str]:
    out: list[str] = []
    engine = UciEngine(out.append)
    for line in lines:
        engine.handle(line)
    engine.shutdown()
    return out


def test_the_uci_engine_plays_from_its_book_when_asked(book: Book, tmp_path: Path) -> None:
    path = tmp_path / "m.book"
    book.write(path)
    options = "\n".join(_uci("uci"))
    assert "option name OwnBook type check default false" in options
    assert "option name BookFile type string default <empty>" in options
    out = _uci(f"setoption name BookFile value {path}", "setoption name OwnBook value true",
               "position startpos moves c3c4", "go depth 3")  # fmt: skip
    assert out[-2:] == ["info string book move c6c5", "bestmove c6c5"]
    searched = _uci(
        f"setoption name BookFile value {path}", "position startpos moves c3c4", "go depth 3"
    )  # fmt: skip  (OwnBook is off by default)
    assert not any("book move" in line for line in searched) and searched[-1].startswith("bestmove")
    bad = _uci(f"setoption name BookFile value {tmp_path / 'none.book'}")
    assert "cannot read" in bad[-1] and "none.book" in bad[-1]


def test_a_kradan_player_with_a_book_plays_its_moves(book: Book, tmp_path: Path) -> None:
    from kradan.engine.types import Limit

    path = tmp_path / "m.book"
    book.write(path)
    player = make_player(f"kradan:level=5,book={path}", seed=1, game="makruk")
    board = Board()
    board.push_uci("c3c4")
    answer = player.choose_move(board, Limit(depth=2))
    assert answer.move.uci() == "c6c5" and answer.info == {"book": True}  # type: ignore[union-attr]
    with pytest.raises(PlayerSpecError, match="book=FILE"):
        make_player("kradan:colour=red")


def test_match_openings_come_from_a_book(book: Book, tmp_path: Path) -> None:
    path = tmp_path / "m.book"
    book.write(path)
    openings = load_openings(str(path), "makruk")
    assert sorted(moves for _start, moves in openings) == [["d3d4", "d6d5"], ["e3e4"]]
    with pytest.raises(BookError, match="is a makruk book, not sittuyin"):
        load_openings(str(path), "sittuyin")


def test_the_book_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games, path = tmp_path / "g.pgn", tmp_path / "m.book"
    games.write_text(GAMES)
    assert main(["book", "build", str(games), "-o", str(path)]) == 0
    assert "5 moves in 4 makruk positions" in capsys.readouterr().out
    assert main(["book", "show", str(path)]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown[0].split() == ["e4", "e3e4", "4", "80.0%"]
    assert main(["book", "show", str(path), "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR",
                 "b", "-", "-", "0", "1"]) == 0  # fmt: skip
    assert "out of book" in capsys.readouterr().out
