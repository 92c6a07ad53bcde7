"""Mark the mutants inside type annotations as skipped in a cosmic-ray session.

Every kradan module starts with ``from __future__ import annotations``, so annotations are never
evaluated: ``-> Game | None`` mutated to ``-> Game % None`` runs exactly as before. Those
mutants are equivalent by construction, and a run would spend seconds on each to find that out.
Run after ``cosmic-ray init`` and before ``cosmic-ray exec`` (or after it: only pending and
surviving mutants are marked):

    python mutation/skip_annotations.py SESSION.sqlite
"""

from __future__ import annotations

import ast
import sys
from functools import cache
from pathlib import Path

from cosmic_ray.work_item import WorkItem
from skipping import skip_where

Span = tuple[tuple[int, int], tuple[int, int]]


@cache
def annotation_spans(path: Path) -> list[Span]:
    """The (line, column) spans of every annotation in ``path``; lines count from 1."""
    source = path.read_text(encoding="utf-8")
    if "from __future__ import annotations" not in source:
        return []  # annotations are evaluated here: a mutant in one is not equivalent
    spans: list[Span] = []
    for node in ast.walk(ast.parse(source)):
        annotations: list[ast.expr | None] = []
        if isinstance(node, ast.arg):
            annotations.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            if annotation is not None and annotation.end_lineno is not None:
                start = (annotation.lineno, annotation.col_offset)
                end = (annotation.end_lineno, annotation.end_col_offset or 0)
                spans.append((start, end))
    return spans


def inside_annotation(path: Path, start: tuple[int, int], end: tuple[int, int]) -> bool:
    """Whether the mutated stretch ``start``-``end`` lies wholly inside one annotation."""
    return any(low <= start and end <= high for low, high in annotation_spans(path))


def main(session: str) -> int:
    def annotated(item: WorkItem) -> bool:
        return all(
            inside_annotation(Path(m.module_path), tuple(m.start_pos), tuple(m.end_pos))
            for m in item.mutations
        )

    count = skip_where(session, annotated, "inside a type annotation, never evaluated: equivalent")
    print(f"{count} mutants inside annotations marked skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
