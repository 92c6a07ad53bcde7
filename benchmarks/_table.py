"""Printing the benchmark tables (shared by the benchmark scripts)."""

from __future__ import annotations

import resource


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """A Markdown table: the header left-aligned, the cells right-aligned."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    print(f"\n{title}\n")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print("| " + " | ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) + " |")


def peak_memory_mb() -> float:
    """This process's peak resident memory."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
