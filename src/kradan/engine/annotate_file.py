"""Annotating every game of a PGN file, in chunks that run anywhere (:mod:`kradan.executors`).

The file is split at its games' byte offsets (:func:`kradan.pgn.offsets.game_offsets`) into
chunks of at most :data:`CHUNK_GAMES` games; a task gets a chunk's path and offsets, never its
text, reads those bytes, annotates each game (:func:`kradan.engine.annotate.annotate`) and
sends back the annotated text. The chunks are written out in the file's order, whatever order
they finish in. On a cluster the file must be at the same path on every node (a shared
filesystem); docs/cluster.md says more."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import pgn
from ..errors import InputFileError
from ..pgn.offsets import game_offsets
from .annotate import annotate
from .searchers import Searchers
from .types import Limit

#: games per chunk at most (a chunk is one task)
CHUNK_GAMES = 1_000
#: chunks per worker at least, when the file is small, so that the work spreads and the
#: progress moves
CHUNKS_PER_WORKER = 4


@dataclass(frozen=True)
class Chunk:
    """Games ``first``.. (numbered from 1) of the file at ``path``, bytes ``start``..``end``."""

    path: str
    start: int
    end: int
    first: int
    games: int
    variant: str
    limit: Limit


@dataclass
class ChunkResult:
    """A chunk's annotated games as PGN text, and what was done to them."""

    text: str
    games: int = 0
    moves: int = 0
    marked: int = 0
    #: ``"game N: what"`` for each game the reader found damaged (kept, annotated as read)
    problems: list[str] = field(default_factory=list)


def plan_chunks(path: str, variant: str, limit: Limit, workers: int = 1) -> list[Chunk]:
    """The chunks of the file at ``path``: about ``CHUNKS_PER_WORKER`` per worker, at most
    ``CHUNK_GAMES`` games each.

    :raises InputFileError: when the file cannot be read or holds no game.
    """
    try:
        offsets = game_offsets(path)
        with open(path, "rb") as handle:
            size = handle.seek(0, io.SEEK_END)
    except OSError as error:
        raise InputFileError(f"cannot read {path!r}: {error.strerror}") from error
    if not offsets:
        raise InputFileError(f"{path!r} holds no game")
    per_chunk = max(1, min(CHUNK_GAMES, math.ceil(len(offsets) / (workers * CHUNKS_PER_WORKER))))
    bounds = [*offsets, size]
    chunks = []
    for first in range(0, len(offsets), per_chunk):
        last = min(first + per_chunk, len(offsets))
        chunks.append(Chunk(path, bounds[first], bounds[last], first + 1, last - first,
                            variant, limit))  # fmt: skip
    return chunks


def annotate_chunk(chunk: Chunk, on_game: Callable[[int], None] | None = None) -> ChunkResult:
    """Read and annotate the chunk's games (in a worker); ``on_game(n)`` after the n-th."""
    try:
        with open(chunk.path, "rb") as handle:
            handle.seek(chunk.start)
            data = handle.read(chunk.end - chunk.start)
    except OSError as error:
        raise InputFileError(f"cannot read {chunk.path!r} here: {error.strerror}") from error
    source = io.StringIO(data.decode("utf-8", "replace").removeprefix("\ufeff"))
    result = ChunkResult("")
    searchers = Searchers()
    texts: list[str] = []
    while (game := pgn.read_game(source, default_variant=chunk.variant)) is not None:
        number = chunk.first + result.games
        for error in game.errors:
            quoted = f" ({error.text[:60]!r})" if error.text else ""
            result.problems.append(f"game {number}: {error.message}{quoted}")
        annotate(game, chunk.limit, searchers=searchers)
        texts.append(str(game) + "\n\n")
        result.games += 1
        result.moves += len(game.mainline_moves())
        result.marked += sum(1 for node in game.mainline() if node.nags)
        if on_game is not None:
            on_game(result.games)
    result.text = "".join(texts)
    return result


__all__ = ["CHUNK_GAMES", "Chunk", "ChunkResult", "annotate_chunk", "plan_chunks"]
