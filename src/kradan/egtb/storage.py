"""One file per table: a small header, then the values compressed with zlib.

Layout (little-endian)::

    magic "KRADANTB" | format version u16 | key length u8 | key (ASCII, e.g. "KRvKN")
    | pieces u8 | entries u64 | SHA-256 of the uncompressed values (32 bytes) | zlib payload

The checksum covers the values themselves, so a file that decompresses but holds other values
than were written is refused as well. A table is read whole: a 4-piece table is 16 MiB.
"""

from __future__ import annotations

import hashlib
import os
import struct
import zlib
from pathlib import Path

import numpy as np

from ..errors import CorruptTableError, MissingTableError
from .index import table_size
from .material import Material

MAGIC = b"KRADANTB"
FORMAT_VERSION = 1
SUFFIX = ".ktb"
_FIXED = struct.Struct("<8sHB")
_AFTER_KEY = struct.Struct("<BQ32s")


def file_name(material: Material, kind: str = "") -> str:
    """``KRvKN.ktb``, or with a ``kind`` such as ``"makruk-count"`` (a conversion table)
    ``KRvKN.makruk-count.ktb``."""
    return _label(material, kind).replace("/", ".") + SUFFIX


def _label(material: Material, kind: str) -> str:
    """The key written in the header: ``KRvKN`` or ``KRvKN/makruk-count``."""
    return f"{material.key}/{kind}" if kind else material.key


def write_table(
    path: Path, material: Material, values: np.ndarray, level: int = 6, kind: str = ""
) -> int:
    """Write ``values`` (uint8, one per position) for ``material`` to ``path`` atomically (a
    temporary file renamed into place, so a reader never sees half a table); returns the file's
    size in bytes."""
    data = np.ascontiguousarray(values, dtype=np.uint8).tobytes()
    if len(data) != table_size(material.pieces):
        raise ValueError(f"{material.key}: {len(data)} values, expected a different size")
    key = _label(material, kind).encode("ascii")
    header = _FIXED.pack(MAGIC, FORMAT_VERSION, len(key)) + key
    header += _AFTER_KEY.pack(material.pieces, len(data), hashlib.sha256(data).digest())
    blob = header + zlib.compress(data, level)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.write_bytes(blob)
    os.replace(temporary, path)
    return len(blob)


def read_table(path: Path, material: Material, kind: str = "") -> np.ndarray:
    """The values stored in ``path``, checked against the header and its checksum.

    :raises MissingTableError: when there is no such file.
    :raises CorruptTableError: for a wrong magic, version, material or size, a payload that does
        not decompress, or values whose checksum differs from the header's.
    """
    try:
        blob = path.read_bytes()
    except FileNotFoundError:
        raise MissingTableError(
            f"no endgame table {_label(material, kind)} at {str(path)!r}; make it with "
            "'kradan egtb generate'"
        ) from None
    except OSError as error:
        raise CorruptTableError(f"cannot read {str(path)!r}: {error.strerror}") from error
    return parse_table(blob, material, str(path), kind)


def parse_table(blob: bytes, material: Material, where: str, kind: str = "") -> np.ndarray:
    """The values in the file contents ``blob`` (see :func:`read_table`)."""

    def corrupt(why: str) -> CorruptTableError:
        return CorruptTableError(
            f"endgame table {where!r} is damaged ({why}); delete it and run "
            f"'kradan egtb generate' again"
        )

    if len(blob) < _FIXED.size or blob[:8] != MAGIC:
        raise corrupt("not a kradan table file")
    _, version, key_length = _FIXED.unpack_from(blob)
    if version != FORMAT_VERSION:
        raise corrupt(f"format version {version}, this kradan reads {FORMAT_VERSION}")
    start = _FIXED.size + key_length
    if len(blob) < start + _AFTER_KEY.size:
        raise corrupt("header cut short")
    key = blob[_FIXED.size : start].decode("ascii", "replace")
    if key != _label(material, kind):
        raise corrupt(f"it holds {key!r}, not {_label(material, kind)!r}")
    pieces, entries, digest = _AFTER_KEY.unpack_from(blob, start)
    if pieces != material.pieces or entries != table_size(material.pieces):
        raise corrupt(f"{entries} entries for {pieces} pieces")
    try:
        data = zlib.decompress(blob[start + _AFTER_KEY.size :])
    except zlib.error as error:
        raise corrupt(f"payload: {error}") from None
    if len(data) != entries:
        raise corrupt(f"{len(data)} values instead of {entries}")
    if hashlib.sha256(data).digest() != digest:
        raise corrupt("checksum mismatch")
    values = np.frombuffer(data, dtype=np.uint8)
    values.flags.writeable = False
    return values
