"""PGN headers: the tag pairs, the rule options they carry, and the start position they
describe (``[Variant]``, ``[VariantOptions]``, ``[FEN]``). Below the visitors and the tree."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, MutableMapping

from ..errors import KradanError, PgnError, VariantError
from ..games import AnyBoard, find_game, game_of, replay_options
from ..rulesets import Option, option_text

#: the Seven Tag Roster, always written first and in this order
SEVEN_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
#: the game-termination markers movetext may end with (a ``[Result]`` tag may hold anything)
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
DEFAULT_VARIANT = "makruk"
#: the header that records rule options differing from the variant's defaults
OPTIONS_TAG = "VariantOptions"
#: names other programs give international chess, which kradan does not play
_CHESS_NAMES = ("standard", "chess")


class Headers(MutableMapping[str, str]):
    """PGN tag pairs: the Seven Tag Roster first, in its order, then the rest as added."""

    def __init__(self, data: Mapping[str, str] | Iterable[tuple[str, str]] = (), **tags: str):
        self._tags: dict[str, str] = {}
        self.update(data, **tags)

    @classmethod
    def roster(cls) -> Headers:
        """The Seven Tag Roster with unknown values (``?``) and today's date."""
        headers = cls({tag: "?" for tag in SEVEN_TAGS})
        headers["Date"] = dt.date.today().strftime("%Y.%m.%d")
        headers["Result"] = "*"
        return headers

    def __getitem__(self, key: str) -> str:
        return self._tags[key]

    def __setitem__(self, key: str, value: str) -> None:
        if not isinstance(value, str):
            raise TypeError(f"header {key!r} must be a string, not {value!r}")
        self._tags[key] = value

    def __delitem__(self, key: str) -> None:
        del self._tags[key]

    def __iter__(self) -> Iterator[str]:
        yield from (tag for tag in SEVEN_TAGS if tag in self._tags)
        yield from (tag for tag in self._tags if tag not in SEVEN_TAGS)

    def __len__(self) -> int:
        return len(self._tags)

    def copy(self) -> Headers:
        return Headers(self)

    def __repr__(self) -> str:
        return f"Headers({dict(self)!r})"


def options_text(board: AnyBoard) -> str:
    """The board's rule options that differ from its game's defaults, as ``key=value`` words
    (the value of the ``[VariantOptions]`` header); empty for the defaults."""
    defaults = game_of(board).option_defaults()
    words = []
    for name, default in defaults.items():
        value = getattr(board.variant, name)
        if value != default:
            words.append(f"{name}={option_text(value)}")
    return " ".join(words)


def parse_options(text: str, options: Mapping[str, Option] | None = None) -> dict[str, object]:
    """``key=value`` words back into keyword options: ``true``/``false``, whole numbers, comma
    lists (for the options that ``options``, a game's catalogue, says take a selection, or any
    value with a comma), strings for the rest.

    :raises PgnError: for a word without ``=``.
    """
    catalogue = options or {}
    parsed: dict[str, object] = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise PgnError(f"bad [{OPTIONS_TAG}] word {word!r} in {text!r}: expected key=value")
        spec = catalogue.get(key)
        if (spec is not None and spec.kind is tuple) or "," in value:
            parsed[key] = tuple(filter(None, value.split(",")))
        elif value in ("true", "false"):
            parsed[key] = value == "true"
        elif value.isdecimal():  # not isdigit: int() refuses "²"
            parsed[key] = int(value)
        else:
            parsed[key] = value
    return parsed


def start_board(headers: Mapping[str, str], default_variant: str = DEFAULT_VARIANT) -> AnyBoard:
    """The position a game with these headers starts from: ``[Variant]`` (any name or alias of a
    registered game, pychess.org's capitalised names too), ``[VariantOptions]``, and ``[FEN]``.

    A screened setup (``sittuyin_setup=screened``) hands in each camp whole; the movetext
    records the camps as the drops the alternate setup makes one by one, so the moves are read
    under the rules that play them so (:func:`kradan.games.replay_options`).

    :raises PgnError: for an unknown variant, a bad option or a bad FEN, quoting the header.
    """
    name = headers.get("Variant", "").strip() or default_variant
    try:
        game = find_game(name)
    except VariantError as error:
        if name.lower() in _CHESS_NAMES:
            message = f"[Variant {name!r}] is international chess, which kradan does not play"
            raise PgnError(message) from error
        raise PgnError(f"cannot set up the game from its headers: {error}") from error
    try:
        options = parse_options(headers.get(OPTIONS_TAG, ""), game.options)
        fen = headers.get("FEN")
        board = game.new_board(fen.strip() if fen else None, **options)
        replay = replay_options(board, options)
        if replay != options:
            board = game.new_board(fen.strip() if fen else None, **replay)
        return board
    except KradanError as error:
        raise PgnError(f"cannot set up the game from its headers: {error}") from error


__all__ = [
    "DEFAULT_VARIANT",
    "OPTIONS_TAG",
    "SEVEN_TAGS",
    "Headers",
    "options_text",
    "parse_options",
    "start_board",
]
