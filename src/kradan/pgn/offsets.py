"""Where each game of a PGN file begins, found from its bytes without reading the games: the
split points for work on a file's games in parallel (``kradan analyse FILE --annotate``).

A game begins at a tag line (``[`` at the start of a line) that follows something other than
a tag line: the file's start, or a game's movetext. Movetext before the first tag is one game.
A line of a multi-line comment that begins with ``[`` could be taken for a game's start; the
reader of the chunk after it then reports a broken game, but never loses the others."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO

_BOM = b"\xef\xbb\xbf"


def scan_offsets(handle: BinaryIO) -> Iterator[int]:
    """Byte offsets of the games' first lines in ``handle`` (opened in binary), in order."""
    offset = 0
    seen = in_tags = False
    for line in handle:
        text = line.removeprefix(_BOM) if offset == 0 else line
        if text.strip():
            is_tag = text.startswith(b"[")
            if not seen or (is_tag and not in_tags):
                yield offset
            seen, in_tags = True, is_tag
        offset += len(line)


def game_offsets(path: str) -> list[int]:
    """Byte offsets where the games of the PGN file at ``path`` begin (one game for movetext
    without tags, none for a file of blank lines).

    :raises OSError: when the file cannot be read.
    """
    with open(path, "rb") as handle:
        return list(scan_offsets(handle))


__all__ = ["game_offsets", "scan_offsets"]
