"""kradan.pgn on big and damaged files: reading streams game by game in bounded memory, and
garbage between games loses only the games it breaks, each reported with the line it starts on."""

from __future__ import annotations

import gc
import io
import threading
import tracemalloc
import weakref
from pathlib import Path

import pytest

from kradan import pgn
from kradan.cli.main import main
from kradan.errors import PgnError
from kradan.pgn import reader


def _good(name: str) -> str:
    return f'[Event "{name}"]\n[Variant "makruk"]\n\n1. e4 d5 2. exd5 Nd7 3. Nd2 *\n\n'


def _read_all(handle: io.TextIOBase) -> list[pgn.Game]:
    games = []
    while (game := pgn.read_game(handle)) is not None:  # type: ignore[arg-type]
        games.append(game)
    return games


# garbage put between two good games; each case: the text, then per broken game read from it
# (event tag or None, line of each error counted from the garbage's first line, from 0)
GARBAGE = {
    "stray text": ("this is not a game at all\n\n", [(None, [0])]),
    "stray text, no blank line": ("some words\n", [(None, [0])]),
    "binary bytes": ("\x00\x01\x02\x1b[0m\x7f\x08\n\n", [(None, [0])]),
    "half game cut in its moves": ('[Event "half"]\n\n1. e4 d5 2. ex', [("half", [2])]),
    "half game cut in its tags": ('[Event "half"]\n[Site "nowh', [("half", [1, 1])]),
    "half game, tags only, no blank line": ('[Event "half"]\n', [("half", [1])]),
    "broken tags": (
        '[Event "broken\n[Variant makruk]\n[Round "3"]\n\n1. e4 *\n\n',
        [(None, [0, 1])],
    ),
    "unterminated comment": ('[Event "c"]\n\n1. e4 {never closed\nstill\n\n', [("c", [2])]),
    "unterminated comment, no blank line": ('[Event "c"]\n\n1. e4 {open\n', [("c", [2])]),
    "unterminated variation": ('[Event "v"]\n\n1. e4 (1. d4 d5\n\n', [("v", [2])]),
    "stray closing bracket and brace": (
        '[Event "s"]\n\n1. e4 ) } d5 *\n\n',
        [("s", [2])],
    ),
    "text after a result": ('[Event "r"]\n\n1. e4 * junk [x\n\n', [(None, [2])]),
}


@pytest.mark.parametrize("kind", list(GARBAGE))
def test_garbage_between_games_loses_only_the_broken_games(kind: str) -> None:
    garbage, expected = GARBAGE[kind]
    before = _good("one")
    text = before + garbage + _good("two") + _good("three")
    first_garbage_line = before.count("\n") + 1
    games = _read_all(io.StringIO(text))
    good = [g for g in games if not g.errors]
    broken = [g for g in games if g.errors]
    extra = ["r"] if kind == "text after a result" else []  # a good game, then the junk
    assert [g.headers.get("Event") for g in good] == ["one", *extra, "two", "three"]
    assert all(len(g.mainline_moves()) == 5 for g in good if g.headers["Event"] != "r")
    assert [g.headers.get("Event") for g in broken] == [event for event, _ in expected]
    for game, (_, lines) in zip(broken, expected, strict=True):
        assert [e.line for e in game.errors] == [first_garbage_line + n for n in lines]
        # every problem names the line where its game begins
        start = first_garbage_line + (2 if kind == "text after a result" else 0)
        assert {e.game_line for e in game.errors} == {start}


def test_a_broken_tag_line_keeps_the_rest_of_its_game() -> None:
    text = '[Event "broken\n[Variant "makruk"]\n[Round "3"]\n\n1. e4 *\n\n' + _good("two")
    first, second = _read_all(io.StringIO(text))
    assert first.headers["Round"] == "3" and len(first.mainline_moves()) == 1
    assert [str(e) for e in first.errors] == ["line 1: bad header line '[Event \"broken'"]
    assert second.errors == [] and second.headers["Event"] == "two"


def test_invalid_utf8_read_with_errors_replace_is_reported_on_its_game() -> None:
    data = (_good("one") + '[Event "bad"]\n\n1. e4 {caf').encode() + b"\xe9\xff}\n\n"
    data += b"\xc3\x28 \xa0\xa1\n\n" + _good("two").encode()
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace")
    games = _read_all(handle)
    assert [g.headers.get("Event") for g in games] == ["one", "bad", None, "two"]
    bad, junk = games[1], games[2]
    assert [(e.line, e.game_line) for e in bad.errors] == [(8, 6)]
    assert "UTF-8" in bad.errors[0].message and bad.end().comment == "caf\ufffd\ufffd"
    assert {(e.line, e.game_line) for e in junk.errors} == {(10, 10)}
    assert games[0].errors == games[3].errors == []


def test_a_strictly_decoding_handle_raises_a_typed_error_naming_the_line() -> None:
    data = _good("one").encode() + b"\xff\xfe\n\n" + _good("two").encode()
    handle = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    # the decoder reads the whole small file at once: it fails on line 1, before the bad bytes
    with pytest.raises(PgnError, match=r"^line 1 or after: .*not UTF-8.*errors='replace'"):
        _read_all(handle)


def test_a_huge_line_is_dropped_without_being_held() -> None:
    """A 3 MB line between games (longer than MAX_LINE): reported, never read whole."""
    huge = "x" * (3 * reader.MAX_LINE) + "\n\n"
    text = _good("one") + huge + _good("two") + '[Event "h"]\n\n1. e4 ' + huge + _good("three")
    handle = _Recording(text)
    games = _read_all(handle)  # type: ignore[arg-type]
    assert [g.headers.get("Event") for g in games] == ["one", None, "two", "h", "three"]
    assert [(e.line, e.game_line) for e in games[1].errors] == [(6, 6)]
    assert "more than 1,048,576 characters" in games[1].errors[0].message
    assert [(e.line, e.game_line) for e in games[3].errors] == [(15, 13)]
    assert games[3].mainline_moves() == []  # the moves on the dropped line are lost
    assert max(handle.sizes) <= reader.MAX_LINE + 1


def test_a_line_of_max_line_characters_is_kept_and_one_more_is_dropped() -> None:
    """The limit is exact: a line of MAX_LINE characters (its newline included) is read, a line
    one character longer is dropped with its moves."""

    def game(length: int) -> str:
        moves = "1. e4 d5 *\n"
        line = moves[:5] + " " * (length - len(moves)) + moves[5:]
        assert len(line) == length
        return '[Event "edge"]\n[Variant "makruk"]\n\n' + line + "\n"

    (kept,) = _read_all(io.StringIO(game(reader.MAX_LINE)))
    assert [m.uci() for m in kept.mainline_moves()] == ["e3e4", "d6d5"] and not kept.errors
    (dropped,) = _read_all(io.StringIO(game(reader.MAX_LINE + 1)))
    assert dropped.mainline_moves() == []
    assert "more than 1,048,576 characters" in dropped.errors[0].message


def test_a_huge_last_line_without_a_newline_ends_the_file() -> None:
    """The file ends inside a line longer than MAX_LINE: the reader stops, it does not wait
    for a newline that never comes (run in a thread, so that a loop fails the test)."""
    text = _good("one") + '[Event "cut"]\n\n1. e4 ' + "x" * (2 * reader.MAX_LINE)
    found: list[list[pgn.Game]] = []
    worker = threading.Thread(target=lambda: found.append(_read_all(io.StringIO(text))))
    worker.daemon = True
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive(), "the reader kept reading past the end of the file"
    games = found[0]
    assert [g.headers.get("Event") for g in games] == ["one", "cut"]
    assert "more than 1,048,576 characters" in games[1].errors[0].message


def test_a_huge_comment_is_cut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader, "MAX_COMMENT", 100)
    text = '[Event "c"]\n\n1. e4 {' + "long words\n" * 50 + "} d5 *\n\n" + _good("two")
    first, second = _read_all(io.StringIO(text))
    assert len(first.mainline_moves()) == 2
    assert len(first.next().comment) <= 100  # type: ignore[union-attr]
    assert [e.message for e in first.errors] == ["a comment of more than 100 characters: cut"]
    assert second.errors == []


def test_strict_reading_raises_at_garbage_with_its_line() -> None:
    handle = io.StringIO(_good("one") + "garbage\n\n" + _good("two"))
    assert pgn.read_game(handle, strict=True) is not None
    with pytest.raises(PgnError, match="line 6"):
        pgn.read_game(handle, strict=True)
    game = pgn.read_game(handle, strict=True)
    assert game is not None and game.headers["Event"] == "two"


def test_skipping_games_reports_nothing_and_lands_on_the_next_good_one() -> None:
    text = _good("one") + "\xff junk\n\n" + '[Event "c"]\n\n1. e4 {open\n' + _good("two")
    handle = io.StringIO(text)
    assert pgn.skip_game(handle) and pgn.skip_game(handle) and pgn.skip_game(handle)
    game = pgn.read_game(handle)
    assert game is not None and game.headers["Event"] == "two" and game.errors == []


# --- streaming -------------------------------------------------------------------------------


class _Recording:
    """A text handle over ``text`` that serves lines lazily and records what was asked."""

    def __init__(self, text: str) -> None:
        self.stream = io.StringIO(text)
        self.lines = 0
        self.sizes: list[int] = []

    def readline(self, size: int = -1) -> str:
        line = self.stream.readline(size)
        self.sizes.append(len(line))
        self.lines += line.endswith("\n")
        return line


class _Endless:
    """``count`` small games, made one at a time: the file never exists whole."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.made = 0
        self.buffer: list[str] = []

    def readline(self, size: int = -1) -> str:
        if not self.buffer:
            if self.made == self.count:
                return ""
            self.made += 1
            text = f'[Event "{self.made}"]\n[Round "{self.made}"]\n\n1. e4 d5 {{x}} 2. exd5 *\n\n'
            self.buffer = text.splitlines(keepends=True)[::-1]
        return self.buffer.pop()


def test_read_game_takes_only_the_first_games_lines() -> None:
    text = "".join(_good(str(n)) for n in range(50))
    handle = _Recording(text)
    game = pgn.read_game(handle)  # type: ignore[arg-type]
    assert game is not None and game.headers["Event"] == "0"
    # the first game's two tags, blank line and movetext: reading stops at its result
    assert handle.lines == 4
    assert pgn.read_game(handle).headers["Event"] == "1"  # type: ignore[arg-type,union-attr]
    assert handle.lines == 9
    # a game without a result ends at the next game's first tag, kept for the next call
    handle = _Recording('[Event "a"]\n\n1. e4\n[Event "b"]\n\n1. d4 *\n' + text)
    assert pgn.read_game(handle).headers["Event"] == "a"  # type: ignore[arg-type,union-attr]
    assert handle.lines == 4
    assert pgn.read_game(handle).headers["Event"] == "b"  # type: ignore[arg-type,union-attr]
    assert handle.lines == 6


def test_the_reader_keeps_no_reference_to_earlier_games() -> None:
    handle = _Endless(10)
    first = pgn.read_game(handle)  # type: ignore[arg-type]
    gone = weakref.ref(first)
    del first
    assert pgn.read_game(handle) is not None  # type: ignore[arg-type]
    gc.collect()
    assert gone() is None


def test_memory_does_not_grow_with_the_number_of_games() -> None:
    """Games read from a handle that makes them on demand: the memory held after reading does
    not grow with their number, nor does the peak while reading. Game trees are cycles
    (parent and children), freed by the cycle collector: it runs every 50 games here, so that
    the peak measures what the reader keeps, not when Python happens to collect."""

    def held_after(games: int) -> tuple[int, int]:
        handle = _Endless(games + 20)
        for _ in range(20):  # warm caches before measuring
            pgn.read_game(handle)  # type: ignore[arg-type]
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            for count in range(games):
                assert pgn.read_game(handle) is not None  # type: ignore[arg-type]
                if count % 50 == 49:
                    gc.collect()
            assert pgn.read_game(handle) is None  # type: ignore[arg-type]
            current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return current - base, peak - base

    few_held, few_peak = held_after(150)
    many_held, many_peak = held_after(1000)
    assert many_held < 16 * 1024, many_held
    assert many_held < few_held + 8 * 1024
    assert many_peak < few_peak + 64 * 1024, (few_peak, many_peak)


# --- the commands ----------------------------------------------------------------------------


def test_convert_and_validate_read_past_garbage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "damaged.pgn"
    data = _good("one").encode() + b"\x00\xff\xfe stray\n\n" + _good("two").encode()
    data += b'[Event "c"]\n\n1. e4 {open\n' + _good("three").encode()
    path.write_bytes(data)
    out = tmp_path / "out.uci"
    assert main(["convert", str(path), "--to", "uci", "-o", str(out)]) == 0
    # the stray bytes are not a game: reported, not written; the game with the open comment is
    assert out.read_text().count("startpos moves e3e4 d6d5 e4d5 b8d7 b1d2") == 3
    assert out.read_text().count("\n") == 4
    err = capsys.readouterr().err
    assert "game 2 (from line 6), line 6, bytes that are not UTF-8" in err
    assert "game 4 (from line 13), line 15, the comment opened on line 15 is not closed" in err
    assert main(["validate", str(path)]) == 1
    report = capsys.readouterr().out
    assert f"{path}:6: game 2" in report and f"{path}:15: game 4" in report
    assert "5 games" in report and "in 2 games" in report


class _Undecodable(_Recording):
    """A handle whose line ``bad`` cannot be decoded."""

    def __init__(self, text: str, bad: int) -> None:
        super().__init__(text)
        self.bad = bad

    def readline(self, size: int = -1) -> str:
        if self.lines + 1 == self.bad:
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return super().readline(size)


@pytest.mark.parametrize("bad", [2, 3, 7])
def test_the_undecodable_line_is_named(bad: int) -> None:
    handle = _Undecodable(_good("one") + _good("two"), bad)
    with pytest.raises(PgnError, match=rf"^line {bad} or after: bytes that are not UTF-8"):
        _read_all(handle)  # type: ignore[arg-type]


def test_a_comment_after_the_result_is_not_the_next_game() -> None:
    """A comment on the result's line (``1-0 {the end}``, ``0-1 ; done``) is dropped with the
    game's end; text that is not a comment (a tag) begins what follows."""
    text = (
        '[Event "one"]\n[Variant "makruk"]\n\n1. e4 d5 1-0 {the end}\n\n'
        '[Event "two"]\n[Variant "makruk"]\n\n1. e4 0-1 ; done\n'
        '[Event "three"]\n[Variant "makruk"]\n\n1. e4 * [Event "four"]\n[Variant "makruk"]\n\n*\n'
    )
    games = _read_all(io.StringIO(text))
    assert [g.headers.get("Event") for g in games] == ["one", "two", "three", "four"]
    assert [g.headers.get("Result") for g in games] == ["1-0", "0-1", "*", "*"]
    assert all(not g.errors for g in games[:2])


def test_a_huge_tag_line_among_the_tags_keeps_the_tags_after_it() -> None:
    """A tag pair longer than MAX_LINE inside the tag section: that line is dropped and
    reported, the tags after it are still read as tags, the game's moves are lost (as after any
    dropped line), and the next game is read whole."""
    huge = '[Annotator "' + "a" * reader.MAX_LINE + '"]\n'
    text = '[Event "long"]\n' + huge + '[White "w"]\n[Variant "makruk"]\n\n1. e4 d5 *\n\n'
    game, after = _read_all(io.StringIO(text + _good("after")))
    assert game.headers.get("White") == "w" and "Annotator" not in game.headers
    assert [e.line for e in game.errors] == [2] and game.mainline_moves() == []
    assert "more than 1,048,576 characters" in game.errors[0].message
    assert after.headers["Event"] == "after" and len(after.mainline_moves()) == 5
