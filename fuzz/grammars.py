"""Structured inputs for hypothesis: each function is a strategy of bytes that looks like the
target's input (a FEN's fields, a move's letters, a PGN game's headers and tokens, a protocol
command and its arguments), with garbage mixed in at every level, so that inputs get past the
first check and reach the code behind it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any
from urllib.parse import urlencode

from hypothesis import strategies as st

from . import corpus

_PIECES = "rnsmkfpqRNSMKFPQ~"
_THAI = "กขคงจฉชญ๑๒๓๔๕๖๗๘ขคมรงบ็"
_SYMBOLS = "x-+#=@,:!? /[]"
GAME_NAMES = ("makruk", "thai", "cambodian", "ouk", "karouk", "sittuyin", "burmese", "alquerque",
              "alquerque-bell", "Makruk", "chess", "")  # fmt: skip


def _junk(alphabet: str = "", size: int = 12) -> st.SearchStrategy[str]:
    """Short text: from ``alphabet`` mostly, from all of Unicode sometimes."""
    choices = [st.text(min_size=0, max_size=size)]
    if alphabet:
        choices.insert(0, st.text(alphabet=alphabet, min_size=0, max_size=size))
    return st.one_of(*choices)


def _number() -> st.SearchStrategy[str]:
    return st.one_of(
        st.integers(-5, 400).map(str),
        st.integers(-(2**70), 2**70).map(str),
        _junk("0123456789-+.e", 6),
    )


def _encode(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    return strategy.map(lambda text: text.encode("utf-8", "surrogatepass"))


def _fen_text() -> st.SearchStrategy[str]:
    rank = st.lists(st.sampled_from(list(_PIECES) + list("12345678")), max_size=10).map("".join)
    board = st.lists(rank, min_size=1, max_size=10).map("/".join)
    hand = st.one_of(st.just(""), _junk("rnsmkfpRNSMKFP").map(lambda t: f"[{t}]"))
    side = st.sampled_from(["w", "b", "x", ""])
    rights = st.one_of(st.just("-"), _junk("KQkqabcdefgh12345678-", 6))
    fields = st.lists(_number(), max_size=5).map(" ".join)
    parts = st.tuples(board, hand, side, rights, fields)
    return parts.map(lambda p: f"{p[0]}{p[1]} {p[2]} {p[3]} {p[4]}".rstrip())


@cache
def fen() -> st.SearchStrategy[bytes]:
    """FENs of the chess family: ranks of piece letters and digits, a hand, the side, rights
    and counting fields, each field sometimes broken."""
    return _encode(st.one_of(_fen_text(), st.sampled_from(corpus.fen_seeds()), _junk(_PIECES)))


@cache
def alquerque() -> st.SearchStrategy[bytes]:
    """Alquerque position texts: five ranks of pPkK and 1-5, the side, counters."""
    rank = st.lists(st.sampled_from(list("pPkK12345x")), max_size=7).map("".join)
    board = st.lists(rank, min_size=1, max_size=7).map("/".join)
    side = st.sampled_from(["w", "b", "x", ""])
    fields = st.lists(st.one_of(st.just("-"), _number(), _junk("abcde12345,-", 6)), max_size=4)
    text = st.tuples(board, side, fields).map(lambda p: f"{p[0]} {p[1]} {' '.join(p[2])}")
    return _encode(text)


def _with_position(text: st.SearchStrategy[str]) -> st.SearchStrategy[bytes]:
    """One byte choosing the position, then the move text."""
    return st.tuples(st.integers(0, 255), text).map(
        lambda p: bytes([p[0]]) + p[1].encode("utf-8", "surrogatepass")
    )


def _square() -> st.SearchStrategy[str]:
    ranks = st.sampled_from(["1", "5", "8", "9", "0", "10"])
    return st.tuples(st.sampled_from("abcdefghijz"), ranks).map("".join)


@cache
def san() -> st.SearchStrategy[bytes]:
    """SAN and long algebraic moves: a piece letter, squares, capture, promotion, check marks;
    Alquerque's jumps and huffs."""
    piece = st.sampled_from(["", "K", "M", "S", "N", "R", "F", "P", "Q", "k", "m"])
    mark = st.sampled_from(["", "x", "-", ":"])
    end = st.sampled_from(["", "+", "#", "=M", "=F", "m", "!", "?", "=Q"])
    move = st.tuples(piece, st.one_of(st.just(""), _square(), st.sampled_from("abcdefgh")),
                     mark, _square(), end).map("".join)  # fmt: skip
    drop = st.tuples(piece, _square()).map(lambda p: f"{p[0]}@{p[1]}")
    jump = st.lists(_square(), min_size=2, max_size=5).map("x".join)
    huff = st.tuples(_square(), move).map(lambda p: f"h{p[0]},{p[1]}")
    return _with_position(st.one_of(move, drop, jump, huff, _junk(_PIECES + _SYMBOLS, 10)))


@cache
def uci() -> st.SearchStrategy[bytes]:
    """UCI move strings: two squares and a letter, drops, null moves, pass moves, chains."""
    letter = st.sampled_from(["", "m", "f", "s", "n", "r", "k", "q", "+", "M"])
    move = st.tuples(_square(), _square(), letter).map("".join)
    drop = st.tuples(st.sampled_from("KFSNRPMkx"), _square()).map(lambda p: f"{p[0]}@{p[1]}")
    chain = st.lists(move, min_size=2, max_size=4).map(",".join)
    special = st.sampled_from(["0000", "(none)", "", "@@", "a1a1"])
    return _with_position(st.one_of(move, drop, chain, special, _junk("abcdefgh12345678@,", 8)))


@cache
def thai() -> st.SearchStrategy[bytes]:
    """Thai SAN: Thai piece and file letters and Thai numerals, with SAN's marks."""
    return _with_position(_junk(_THAI + "x-+#=", 8))


def _option_words(values: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    from kradan.games import games

    names = sorted({name for game in games() for name in game.options})
    key = st.one_of(st.sampled_from(names), _junk("abcdefghijklmnopqrstuvwxyz_", 12))
    word = st.one_of(st.tuples(key, values).map(lambda p: f"{p[0]}={p[1]}"), _junk("=", 8))
    return st.lists(word, max_size=6).map(" ".join)


def _option_values() -> st.SearchStrategy[str]:
    from kradan.games import games

    known: set[str] = {"true", "false", "0", "1", "50", "a1,h1", "a1,,h8", ",", "-1"}
    for game in games():
        for option in game.options.values():
            members = getattr(option.kind, "__members__", {})
            known.update(str(member.value) for member in members.values())
            known.update(option.choices)
    return st.one_of(st.sampled_from(sorted(known)), _number(), _junk("abcdefgh12345678,_", 10))


@cache
def options() -> st.SearchStrategy[bytes]:
    """``key=value`` words: real option names and values mostly, made-up ones too."""
    return _encode(_option_words(_option_values()))


@cache
def pgn() -> st.SearchStrategy[bytes]:
    """PGN games: header lines (``[Variant]``, ``[FEN]``, ``[VariantOptions]``, others, some
    broken) and move text of SAN, numbers, comments, count commands, NAGs, variations."""
    value = st.one_of(
        st.sampled_from(GAME_NAMES), _fen_text(), _option_words(_option_values()), _junk('"\\', 10)
    )
    tag = st.sampled_from(["Variant", "FEN", "SetUp", "VariantOptions", "Result", "Event", "X"])
    header = st.one_of(st.tuples(tag, value).map(lambda p: f'[{p[0]} "{p[1]}"]'), _junk('[]"', 16))
    san_text = san().map(lambda data: data[1:].decode("utf-8", "replace"))
    token = st.one_of(
        san_text,
        st.integers(0, 300).map(lambda n: f"{n}."),
        st.sampled_from(["{[%count declare]}", "{[%count stop]}", "{declare count}", "(", ")",
                         "$1", "$255", "$0", "$256", "*", "1-0", "0-1", "1/2-1/2", "{", "}", ";",
                         "%", "\n"]),
        _junk("{}()$;%", 8).map(lambda t: "{" + t + "}"),
    )  # fmt: skip
    game = st.tuples(st.lists(header, max_size=6), st.lists(token, max_size=30)).map(
        lambda p: "\n".join(p[0]) + "\n\n" + " ".join(p[1]) + "\n"
    )
    return _encode(st.one_of(game, st.sampled_from(corpus.pgn_seeds())))


def _uci_text() -> st.SearchStrategy[str]:
    return uci().map(lambda data: data[1:].decode("utf-8", "replace"))


@cache
def uci_lines() -> st.SearchStrategy[bytes]:
    """UCI command lines: ``position`` with FENs and moves, ``go`` with limits, ``setoption``
    with names and values, and every other command, with garbage arguments."""
    moves = st.lists(_uci_text(), max_size=6).map(" ".join)
    position = st.one_of(
        moves.map(lambda m: f"position startpos moves {m}"),
        st.tuples(_fen_text(), moves).map(lambda p: f"position fen {p[0]} moves {p[1]}"),
        _junk("startpos fen moves", 20).map(lambda t: f"position {t}"),
    )
    limit = st.sampled_from(
        ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate",
         "perft", "infinite", "searchmoves", "ponder"]
    )  # fmt: skip
    go = st.lists(st.one_of(limit, st.integers(-5, 3).map(str), _number()), max_size=6).map(
        lambda words: "go " + " ".join(words)
    )
    name = st.sampled_from(
        ["UCI_Variant", "Hash", "Threads", "MultiPV", "Skill Level", "UCI_LimitStrength",
         "UCI_Elo", "Clear Hash", "Move Overhead", "x"]
    )  # fmt: skip
    value = st.one_of(st.sampled_from(GAME_NAMES), _number(), _junk("", 10))
    setoption = st.tuples(name, value).map(lambda p: f"setoption name {p[0]} value {p[1]}")
    other = st.tuples(
        st.sampled_from(["uci", "isready", "ucinewgame", "debug", "ponderhit", "register", "d",
                         "position", "setoption", "go", "", "eval", "flip"]), _junk("", 12)
    ).map(" ".join)  # fmt: skip
    return _encode(st.one_of(position, go, setoption, other))


@cache
def xboard_lines() -> st.SearchStrategy[bytes]:
    """XBoard command lines: ``variant``, ``setboard``, moves, ``level``, ``st``, ``sd``,
    ``time``, ``undo`` and the rest, with garbage arguments."""
    command = st.sampled_from(
        ["xboard", "protover", "new", "variant", "force", "go", "playother", "usermove",
         "setboard", "level", "st", "sd", "time", "otim", "undo", "remove", "?", "result", "post",
         "nopost", "hard", "easy", "memory", "cores", "option", "analyze", "exit", "perft"]
    )  # fmt: skip
    argument = st.one_of(
        st.sampled_from(GAME_NAMES), _fen_text(), _uci_text(), _number(), _junk("", 12)
    )
    line = st.tuples(command, st.lists(argument, max_size=3)).map(lambda p: " ".join([p[0], *p[1]]))
    return _encode(st.one_of(line, _uci_text()))


@cache
def cli_argv() -> st.SearchStrategy[bytes]:
    """Command lines of ``kradan``: a command, its options and values, positional words, and
    an input file's text (tab-separated words, a newline, the file; see :mod:`fuzz.cli`)."""
    command = st.sampled_from(["perft", "show", "convert", "validate", "analyse", "play", "match",
                               "uci", "xboard", "serve", "help", ""])  # fmt: skip
    flag = st.sampled_from(["--variant", "--fen", "--divide", "--no-bulk", "--threads", "--svg",
                            "--flip", "--thai", "--size", "--game", "--ply", "--from", "--to",
                            "--notation", "--dialect", "--strict", "-o", "--depth", "--time",
                            "--multipv", "--annotate", "--color", "--level", "--counting",
                            "--games", "--tc", "--max-plies", "--help", "FILE", "-"])  # fmt: skip
    values = st.sampled_from(["pgn", "fen", "uci", "san", "thai", "pychess", "random"])
    word = st.one_of(
        flag, st.sampled_from(GAME_NAMES), _number(), _fen_text(), _junk("", 10), values
    )
    file_text = st.one_of(pgn().map(lambda b: b.decode("utf-8", "replace")), _fen_text(),
                          _junk("", 40))  # fmt: skip
    case = st.tuples(command, st.lists(word, max_size=6), file_text).map(
        lambda p: "\t".join([p[0], *p[1]]).replace("\n", " ") + "\n" + p[2]
    )
    return _encode(case)


def _analysis(
    variant: st.SearchStrategy[str],
    options: st.SearchStrategy[Any],
    anything: st.SearchStrategy[Any],
) -> st.SearchStrategy[dict[str, Any]]:
    """``POST /api/analysis`` bodies and the analysis socket's messages."""
    fields = {
        "variant": variant, "fen": st.one_of(st.none(), _fen_text()), "options": options,
        "moves": st.one_of(st.lists(_uci_text(), max_size=4), _uci_text()),
        "multipv": st.one_of(st.integers(-1, 7), _number()),
        "movetime_ms": st.sampled_from([0, 19, 20, 50, 10_001, -5, "20", None]),
        "id": st.one_of(st.integers(), _junk("", 8), anything), "extra": anything,
    }  # fmt: skip
    message = st.fixed_dictionaries(
        {"t": st.sampled_from(["analyse", "stop", "analyse", "x", ""])}, optional=fields
    )
    # most random bodies fail a check: these pass them and reach the engine
    plausible = st.fixed_dictionaries(
        {"variant": st.sampled_from(["makruk", "cambodian", "karouk", "sittuyin", "alquerque"])},
        optional={
            "moves": st.lists(st.sampled_from(["e3e4", "d6d5", "c3c4", "b1c3"]), max_size=2),
            "multipv": st.integers(1, 5), "t": st.just("analyse"), "id": st.integers(0, 3),
            "fen": st.sampled_from(corpus.fen_seeds()[:4]),
        },
    )  # fmt: skip
    return st.one_of(st.fixed_dictionaries({}, optional=fields), message, plausible)


def _line_entry() -> st.SearchStrategy[str]:
    """An entry of a line: a UCI move (a drop, a chain, a huff), a count, or garbage."""
    return st.one_of(
        _uci_text(), st.sampled_from(["count:declare", "count:stop", "count:", "count:x"]),
        st.sampled_from(["K@e3", "F@d2", "R@a1", "e3e5c3", "hb3,b2c3", "ha1,d5d3", "e3e4f"]),
        _junk("abcdefgh12345678@,:", 8),
    )  # fmt: skip


def _spliced(seeds: list[str], entry: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """One of ``seeds`` (JSON text) with its ``moves`` list cut at a random place and
    ``entry`` put there: a real line, with a flaw somewhere along it."""

    def splice(args: tuple[str, int, Any, bool]) -> Any:
        text, where, new, cut = args
        value = json.loads(text)
        moves = value.get("moves") if isinstance(value, dict) else None
        if isinstance(moves, list):
            where %= len(moves) + 1
            moves[where:] = [new] if cut else [new, *moves[where:]]
        return value

    return st.tuples(st.sampled_from(seeds), st.integers(0, 10_000), entry, st.booleans()).map(
        splice
    )


def _with_entry(text: str, where: int, entry: str) -> str:
    """A line in text form (:func:`fuzz.study.line_body`) with ``entry`` among its moves."""
    head, _, moves = text.rpartition("\n")
    words = moves.split()
    where %= len(words) + 1
    return head + "\n" + " ".join([*words[:where], entry, *words[where:]])


@cache
def study_bodies() -> dict[str, st.SearchStrategy[str]]:
    """The bodies of the analysis board's kinds (see :mod:`fuzz.web`): ``line`` (JSON or text),
    ``pgn-read`` (PGN text, sometimes a JSON object) and ``pgn-write`` (JSON trees, sometimes
    PGN text that is read and written back)."""
    from . import study

    variant = st.sampled_from(GAME_NAMES)
    options = st.dictionaries(
        st.sampled_from(["counting", "sittuyin_setup", "capture_rule", "chain_continuation",
                         "stalemate", "n_move_rule", "show_promoted", "x"]),
        st.one_of(st.booleans(), st.integers(-1, 2**64), _option_values(), st.lists(_junk("", 4))),
        max_size=3,
    )  # fmt: skip
    fen_field = st.one_of(st.none(), _fen_text(), st.sampled_from(corpus.fen_seeds()[:40]))
    line = st.fixed_dictionaries(
        {},
        optional={"variant": variant, "options": options, "fen": fen_field,
                  "moves": st.lists(_line_entry(), max_size=8), "x": st.integers()},
    )  # fmt: skip
    line_text = st.one_of(
        st.one_of(line, _spliced(study.line_bodies(), _line_entry())).map(json.dumps),
        st.tuples(st.sampled_from(study.line_texts()), st.integers(0, 10_000), _line_entry()).map(
            lambda p: _with_entry(*p)
        ),
    )
    nag = st.one_of(st.integers(1, 255), st.integers(-2, 300))
    node = st.fixed_dictionaries(
        {"uci": _line_entry()},
        optional={"san": _junk("", 6), "fen": st.one_of(_fen_text(), _junk("", 6)),
                  "comment": _junk("{}[]%", 20),
                  "nags": st.lists(nag, max_size=9),
                  "counts": st.lists(st.sampled_from(["count:declare", "count:stop", "x"]),
                                     max_size=5)},
    )  # fmt: skip
    tree_line = st.recursive(
        st.lists(node, max_size=4),
        lambda inner: st.lists(
            st.tuples(node, st.lists(inner, max_size=3)).map(
                lambda pair: {**pair[0], "variations": pair[1]}
            ),
            max_size=4,
        ),
        max_leaves=12,
    )
    headers = st.dictionaries(
        st.one_of(st.sampled_from(["Event", "White", "Result", "Variant", "FEN", "SetUp",
                                   "VariantOptions", "Termination"]), _junk("", 45)),
        st.one_of(st.sampled_from(GAME_NAMES), _fen_text(), _junk('"\\]\n', 12)),
        max_size=4,
    )  # fmt: skip
    tree = st.fixed_dictionaries(
        {},
        optional={"variant": variant, "options": options, "start_fen": fen_field,
                  "headers": headers, "comment": _junk("{}", 12), "moves": tree_line},
    )  # fmt: skip
    tree_text = st.one_of(
        tree, _spliced(study.tree_bodies(), node), _spliced(study.tree_bodies(), node)
    ).map(json.dumps)
    pgn_text = st.one_of(
        pgn().map(lambda b: b.decode("utf-8", "replace")), st.sampled_from(study.pgn_texts())
    )
    return {
        "line": line_text,
        "pgn-read": st.one_of(pgn_text, pgn_text.map(lambda t: json.dumps({"pgn": t}))),
        "pgn-write": st.one_of(tree_text, tree_text, pgn_text),
    }


@cache
def web_requests(kinds: tuple[str, ...] | None = None) -> st.SearchStrategy[bytes]:
    """Requests to the web app and messages on its socket (JSON; see :mod:`fuzz.web`), of
    the ``kinds`` given (none: every kind, and made-up ones)."""
    anything = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                  _junk("", 16)),
        lambda inner: st.one_of(st.lists(inner, max_size=3),
                                st.dictionaries(_junk("", 8), inner, max_size=3)),
        max_leaves=6,
    )  # fmt: skip
    variant = st.sampled_from(GAME_NAMES)
    options = st.dictionaries(
        st.sampled_from(["counting", "sittuyin_setup", "stalemate", "takhen_rua", "n_move_rule",
                         "capture_rule", "x"]),
        st.one_of(st.booleans(), st.integers(), _option_values(), st.lists(_junk("", 4))),
        max_size=3,
    )  # fmt: skip
    analysis = _analysis(variant, options, anything)
    new_game = st.fixed_dictionaries(
        {},
        optional={"variant": variant, "options": options, "opponent": st.sampled_from(["human",
                  "engine", "x"]), "color": st.sampled_from(["white", "black", "random", ""]),
                  "clock": st.one_of(st.sampled_from(["60+1", "0+0", "99999+999", "30s+0",
                                                      "½+0", "1m+0", "0.5+0", "1¾min + 9s"]),
                                     _number()),
                  "fen": _fen_text(), "level": st.integers(-1, 21), "extra": anything},
    )  # fmt: skip
    body = st.one_of(
        st.fixed_dictionaries({"move": _uci_text()}),
        st.fixed_dictionaries({"action": st.sampled_from(["resign", "offer_draw", "accept_draw",
                               "decline_draw", "claim_draw", "takeback", "declare_count",
                               "stop_count", "abort", "claim_win", "x"])}),
        st.fixed_dictionaries({"arrangement": st.one_of(
            st.sampled_from(["standard", "mirrored", "fortress", "x"]),
            st.dictionaries(_square(), st.sampled_from(list("KFSNRPx")), max_size=9))}),
        st.fixed_dictionaries({"type": st.sampled_from(["move", "action", "setup", "auth", "x"]),
                               "move": _uci_text(), "token": _junk("", 10)}),
        st.fixed_dictionaries({}, optional={"depth": st.one_of(st.integers(-1, 18), anything),
                                            "nodes": st.one_of(st.integers(-1, 3_000_000),
                                                               anything)}),
        new_game, anything, analysis,
    )  # fmt: skip
    kind = st.sampled_from(["new", "move", "action", "setup", "get", "pgn", "list", "join",
                            "socket", "analysis", "analysis-socket", "review", "review-get",
                            "page", "raw", "archive", "search", "export", "archived", "explore",
                            "read-move", "line", "pgn-read", "pgn-write", "account", "sign-in",
                            "seek", "take", "rematch", "profile", "leaders", "chat", "chat-read",
                            "chat-remove", "chat-socket", "games-pgn", "abort", "claim-win",
                            "x"])  # fmt: skip
    query = st.dictionaries(
        st.sampled_from(["variant", "fen", "play", "moves", "player", "color", "result", "since",
                         "until", "after", "limit", "x"]),
        st.one_of(variant, _fen_text(), _uci_text(), _number(), _junk("", 12),
                  st.sampled_from(["white", "black", "1-0", "*", "2024", "2024-02-30",
                                   "20240315.7", "e3e4,d6d5", "Anan"])),
        max_size=4,
    ).map(lambda words: urlencode(words))  # fmt: skip
    archive_text = st.one_of(pgn().map(lambda b: b.decode("utf-8", "replace")), query)
    text = st.one_of(body.map(json.dumps), _junk("", 40), archive_text)
    studies = study_bodies()

    def text_of(name: str) -> st.SearchStrategy[str]:
        """Bodies for ``name``: its own grammar's mostly, any request's sometimes."""
        if name in studies:
            return st.one_of(studies[name], studies[name], text)
        if name in ("analysis", "analysis-socket"):
            return st.one_of(analysis.map(json.dumps), text)
        return text

    if kinds:
        requests = st.sampled_from(kinds).flatmap(
            lambda name: st.tuples(st.just(name), st.integers(0, 20), text_of(name))
        )
        return _encode(requests.map(lambda p: f"{p[0]} {p[1]}\n{p[2]}"))
    request = st.tuples(kind, st.integers(0, 20), text)
    # a third of the inputs ask for analysis, with a body made for it; a sixth are the
    # analysis board's, with theirs
    analysing = st.tuples(
        st.sampled_from(["analysis", "analysis-socket"]), st.integers(0, 20),
        analysis.map(json.dumps),
    )  # fmt: skip
    studying = st.sampled_from(sorted(studies)).flatmap(
        lambda name: st.tuples(st.just(name), st.integers(0, 20), studies[name])
    )
    requests = st.one_of(request, analysing, request, studying, request, analysing)
    return _encode(requests.map(lambda p: f"{p[0]} {p[1]}\n{p[2]}"))
