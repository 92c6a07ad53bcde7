"""Shared fixtures: the reference positions (tests/reference is a copy of ../shared/reference)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

REFERENCE_DIR = Path(__file__).parent / "reference"


@cache
def reference_rows(variant: str) -> list[dict[str, Any]]:
    """Rows of ``<variant>.jsonl``: positions from seeded random games, with verified answers."""
    path = REFERENCE_DIR / f"{variant}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@cache
def spec_positions(variant: str | None = None) -> list[dict[str, Any]]:
    """The hand-picked positions of RULES.md section 9 (``spec_positions.json``)."""
    data = json.loads((REFERENCE_DIR / "spec_positions.json").read_text(encoding="utf-8"))
    rows = data["positions"]
    return [row for row in rows if variant is None or row["variant"] == variant]


def row_id(row: dict[str, Any]) -> str:
    """A short test id for a reference row."""
    return str(row.get("id") or row["fen"])
