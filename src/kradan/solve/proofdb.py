"""The proof database: position key -> proven value (win or loss for the side to move) and,
for a win, the winning move; a directory of append-only record files.

Why files of fixed records rather than SQLite: the solver finds hundreds of thousands of
positions a second in bursts, and appending 16-byte records is a write and an ``fsync`` per
save (benchmarks/alquerque_solve.py measures both); every writer (a worker's task, the driver)
appends to a file of its own, so no two processes ever write one file and no lock is needed,
also on a directory shared by the nodes of a cluster. Reading loads every file into two sorted
numpy arrays that the compiled search looks keys up in (binary search).

A file is ``MAGIC`` (8 bytes) then records of two little-endian 64-bit words: the key
(:mod:`.keys`) and ``move | value << 60`` (value 1: the side to move wins, 2: it loses).
Records reach the disk only whole: a SIGKILL during a write leaves at most a partial last
record, which reading ignores and the next writer of that file cuts off.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import KradanError
from .dfpn import LOSS, VALUE_SHIFT, WIN

MAGIC = b"KRSOLV01"
SUFFIX = ".proofs"
RECORD = np.dtype([("key", "<u8"), ("rec", "<i8")])
MOVE_MASK = (1 << VALUE_SHIFT) - 1


class ProofDatabaseError(KradanError, ValueError):
    """A proof file that is not one, or records that contradict each other."""


@dataclass(frozen=True)
class Entry:
    """A proven position: ``win`` for the side to move or not, and the winning move's code."""

    win: bool
    move: int


class ProofDatabase:
    """The proof files of ``directory`` (created when missing), read into sorted arrays."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.keys = np.zeros(0, dtype=np.uint64)
        self.recs = np.zeros(0, dtype=np.int64)
        self.conflicts = 0
        self.reload()

    def files(self) -> list[Path]:
        """The record files, by name."""
        return sorted(self.directory.glob(f"*{SUFFIX}"))

    def reload(self) -> int:
        """Read every file again (what other writers added meanwhile); returns the count."""
        parts = [read_records(path) for path in self.files()]
        records = np.concatenate(parts) if parts else np.zeros(0, dtype=RECORD)
        order = np.argsort(records["key"], kind="stable")
        keys = records["key"][order]
        recs = records["rec"][order]
        first = np.ones(len(keys), dtype=bool)
        first[1:] = keys[1:] != keys[:-1]
        values = recs >> VALUE_SHIFT
        same_key = ~first
        self.conflicts = int(np.count_nonzero(same_key & (values != np.roll(values, 1))))
        self.keys = np.ascontiguousarray(keys[first])
        self.recs = np.ascontiguousarray(recs[first])
        return len(self.keys)

    def __len__(self) -> int:
        return len(self.keys)

    def get(self, key: int) -> Entry | None:
        """The entry of ``key``, or ``None``."""
        i = int(np.searchsorted(self.keys, np.uint64(key)))
        if i < len(self.keys) and int(self.keys[i]) == key:
            rec = int(self.recs[i])
            return Entry(rec >> VALUE_SHIFT == WIN, rec & MOVE_MASK)
        return None

    def writer(self, name: str) -> ProofWriter:
        """An appender to this directory's file ``name`` (one writer per name)."""
        return ProofWriter(self.directory / f"{name}{SUFFIX}")


def read_records(path: Path) -> np.ndarray:
    """The whole records of one file (a partial last one is left out).

    :raises ProofDatabaseError: for a file that does not start with :data:`MAGIC`.
    """
    data = path.read_bytes()
    if not data:
        return np.zeros(0, dtype=RECORD)
    if data[: len(MAGIC)] != MAGIC:
        raise ProofDatabaseError(f"{str(path)!r} is not a proof file (no {MAGIC!r} header)")
    body = data[len(MAGIC) :]
    whole = len(body) - len(body) % RECORD.itemsize
    return np.frombuffer(body[:whole], dtype=RECORD).copy()


class ProofWriter:
    """Appends records to one file; each :meth:`append` is on the disk when it returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        size = path.stat().st_size if path.exists() else 0
        self._handle = open(path, "r+b" if size else "wb")  # noqa: SIM115
        if size < len(MAGIC):
            self._handle.truncate(0)
            self._handle.write(MAGIC)
        else:
            body = size - len(MAGIC)
            self._handle.truncate(size - body % RECORD.itemsize)  # a SIGKILLed write's tail
        self._handle.seek(0, os.SEEK_END)
        self.written = 0

    def append(self, keys: np.ndarray, recs: np.ndarray) -> None:
        """Write these records and wait for the disk."""
        if len(keys) == 0:
            return
        records = np.empty(len(keys), dtype=RECORD)
        records["key"] = keys
        records["rec"] = recs
        self._handle.write(records.tobytes())
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.written += len(keys)

    def close(self) -> None:
        self._handle.close()


def pack(win: bool, move: int) -> int:
    """A record's second word."""
    return (move & MOVE_MASK) | ((WIN if win else LOSS) << VALUE_SHIFT)
