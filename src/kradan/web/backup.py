"""A consistent copy of ``kradan serve``'s database, and its restoration (``kradan admin backup``
and ``restore``, issue 47 item 2).

- **SQLite**: SQLite's online backup (:meth:`sqlite3.Connection.backup`) copies the database
  page by page while the server runs: the copy is the database as one moment saw it. The backup
  is an SQLite file; restoring copies it back the same way.
- **PostgreSQL**: ``pg_dump --format=custom`` (one snapshot of the database) and
  ``pg_restore``, PostgreSQL's own tools (the client programs, ``postgresql-client``).

A restore goes into a database that holds no kradan tables, unless ``replace`` is given: a
restore by mistake over a live club's games must be asked for.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import URL, make_url

#: the first bytes of an SQLite file and of a pg_dump archive in the custom format
SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, quoting the input."""


def _kind(url: URL) -> str:
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"database {url.render_as_string()!r}: expected SQLite or PostgreSQL")
    return backend


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError(f"database {url.render_as_string()!r}: not a file")
    return Path(url.database)


def _libpq(url: URL) -> str:
    """``url`` as PostgreSQL's own programs read it (``postgresql://...``)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def _program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {done.stderr.strip()[-800:]}")


def backup(database: str, target: Path) -> str:
    """Copy the database at ``database`` (a SQLAlchemy URL) to the file ``target``; what was
    done, in words."""
    url = make_url(database)
    if target.exists():
        raise BackupError(f"{str(target)!r} exists: choose a new file")
    if _kind(url) == "sqlite":
        source_path = _sqlite_path(url)
        if not source_path.is_file():
            raise BackupError(f"no database file {str(source_path)!r}")
        with sqlite3.connect(source_path) as source, sqlite3.connect(target) as copy:
            source.backup(copy)
        source.close()
        copy.close()
        return f"backed up {source_path} to {target} (SQLite)"
    _run([_program("pg_dump"), "--format=custom", "--no-owner", "--file", str(target),
          "--dbname", _libpq(url)])  # fmt: skip
    return f"backed up {url.database} to {target} (pg_dump)"


def _has_tables_sqlite(path: Path) -> bool:
    if not path.exists():
        return False
    with sqlite3.connect(path) as db:
        found = db.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()
    db.close()
    return bool(found[0])


def _has_tables_postgresql(url: URL) -> bool:
    query = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
    done = subprocess.run([_program("psql"), "--no-psqlrc", "-tA", "-c", query, _libpq(url)],
                          capture_output=True, text=True, check=False)  # fmt: skip
    if done.returncode != 0:
        raise BackupError(f"psql failed: {done.stderr.strip()[-800:]}")
    return int(done.stdout.strip() or 0) > 0


def restore(source: Path, database: str, *, replace: bool = False) -> str:
    """Restore the backup ``source`` into the database at ``database``; what was done."""
    url = make_url(database)
    kind = _kind(url)
    if not source.is_file():
        raise BackupError(f"no backup file {str(source)!r}")
    with source.open("rb") as handle:
        head = handle.read(16)
    made_by = {SQLITE_MAGIC: "sqlite", PG_DUMP_MAGIC: "postgresql"}.get(
        head if head == SQLITE_MAGIC else head[:5]
    )
    if made_by is None:
        raise BackupError(f"{str(source)!r} is no backup of kradan admin backup")
    if made_by != kind:
        raise BackupError(f"{str(source)!r} is a {made_by} backup: it restores into {made_by}")
    if kind == "sqlite":
        path = _sqlite_path(url)
        if _has_tables_sqlite(path) and not replace:
            raise BackupError(f"{str(path)!r} holds tables already: restore with --replace")
        with sqlite3.connect(source) as backup_db, sqlite3.connect(path) as target:
            backup_db.backup(target)
        backup_db.close()
        target.close()
        return f"restored {source} into {path} (SQLite)"
    if _has_tables_postgresql(url) and not replace:
        raise BackupError(f"database {url.database!r} holds tables already: restore with --replace")
    _run([_program("pg_restore"), "--no-owner", "--clean", "--if-exists", "--exit-on-error",
          "--single-transaction", "--dbname", _libpq(url), str(source)])  # fmt: skip
    return f"restored {source} into {url.database} (pg_restore)"


__all__ = ["BackupError", "backup", "restore"]
