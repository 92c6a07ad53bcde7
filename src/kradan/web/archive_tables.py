"""The archive's tables (Core :class:`~sqlalchemy.Table` objects on the schema's metadata):
``archive_games`` (one row per archived game: its players, variant, result, date, length, its
moves as one text, and a hash that makes a re-import a no-op), ``archive_players`` (one row per
name) and ``archive_positions``, the position index of the opening explorer: one row per
distinct position per game, ``(pos_key, game_id, ply, next_move, result)``.

The position index is the archive's big table (about 80 rows per game). On SQLite it is a
``WITHOUT ROWID`` table whose primary key ``(pos_key, game_id)`` holds the rows themselves, so
that one key's rows lie together (24 bytes a row); on PostgreSQL its primary key index carries
``ply``, ``next_move`` and ``result`` (``INCLUDE``), so that the explorer reads the index alone
(figures in ``research/study-in-browser.md`` section 3 and ``benchmarks/archive.py``).

Written and read by :mod:`.archive` with Core statements; the live games' tables are in
:mod:`.tables`, which imports this module so that Alembic sees one schema
(:mod:`.schema`).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
)

from .schema import Base, JSONType

#: results as the position index stores them (``*`` is ``NULL``)
RESULT_CODES = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}

ARCHIVE_PLAYERS = Table(
    "archive_players",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(200), nullable=False, unique=True),
)

ARCHIVE_GAMES = Table(
    "archive_games",
    Base.metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    #: BLAKE2 (128 bits, hex) of the game's variant, start, tags and moves: a game imported
    #: twice is stored once
    Column("game_hash", String(32), nullable=False, unique=True),
    #: the game's canonical name in the registry
    Column("variant", String(40), nullable=False),
    #: the start position (a FEN; Alquerque's position text)
    Column("start_fen", String(200), nullable=False),
    Column("white_id", Integer, ForeignKey("archive_players.id"), nullable=True),
    Column("black_id", Integer, ForeignKey("archive_players.id"), nullable=True),
    #: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``
    Column("result", String(8), nullable=False),
    #: the ``[Date]`` as a number, ``YYYYMMDD``; an unknown month or day is ``00``, an unknown
    #: date 0 (sortable, and never ``NULL``, so that it can be half of a page's cursor)
    Column("date_key", Integer, nullable=False),
    Column("ply_count", Integer, nullable=False),
    #: the main line's moves in UCI, one space between them (about 5 bytes a ply)
    Column("moves", Text, nullable=False),
    #: counts declared or stopped, as ``[[ply, "declare"], ...]`` (``NULL`` for none)
    Column("counts", JSONType, nullable=True),
    #: every tag pair of the game as read
    Column("headers", JSONType, nullable=False),
    #: ``import`` (a PGN file) or ``live`` (a game played on this server)
    Column("source", String(16), nullable=False),
    Column("created_at", DateTime, nullable=False),
    Index("ix_archive_games_date", "date_key", "id"),
    Index("ix_archive_games_variant", "variant", "date_key", "id"),
    Index("ix_archive_games_white", "white_id", "date_key", "id"),
    Index("ix_archive_games_black", "black_id", "date_key", "id"),
)

ARCHIVE_POSITIONS = Table(
    "archive_positions",
    Base.metadata,
    #: the position's key (:func:`kradan.web.archive_reader.position_key`), as a signed 64-bit
    #: number
    Column("pos_key", BigInteger, nullable=False),
    Column("game_id", Integer, nullable=False),
    #: the first ply at which the game stood in this position (0: the start)
    Column("ply", SmallInteger, nullable=False),
    #: the move the game played from here (UCI), ``NULL`` where the game ended
    Column("next_move", String(64), nullable=True),
    #: the game's result: 1 White won, 0 a draw, -1 Black won, ``NULL`` unknown
    Column("result", SmallInteger, nullable=True),
    PrimaryKeyConstraint("pos_key", "game_id", postgresql_include=["ply", "next_move", "result"]),
    sqlite_with_rowid=False,
)

__all__ = ["ARCHIVE_GAMES", "ARCHIVE_PLAYERS", "ARCHIVE_POSITIONS", "RESULT_CODES"]
