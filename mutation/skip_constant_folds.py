"""Mark the mutants that only rewrite a constant expression to the same value as skipped.

The kernels index their arrays with named offsets: ``bbs[BB_TYPE + PAWN]``, where
``BB_TYPE = 0`` and ``PAWN = 0`` (``kradan/_core/layout.py``). A mutant that turns that ``+``
into ``*``, ``&`` or ``^`` reads the same element, and so do ``BB_TYPE | MET`` and
``BB_TYPE ^ KING``: numba folds both to the same constant, and no input can tell them
apart. This script substitutes every whole-number constant the module imports from
``layout`` (or defines itself at module level), folds the arithmetic on constants alone, and
compares the folded syntax trees of the original and the mutant: equal trees are
equivalent by construction, like the mutants inside annotations (``skip_annotations.py``).
A mutant whose expression involves a variable (``BB_COLOR + us``) is never skipped here, nor
is one whose source does not parse (some operators make such mutants): the run judges those.

    python mutation/skip_constant_folds.py SESSION.sqlite
"""

from __future__ import annotations

import ast
import operator
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from cosmic_ray.mutating import mutate_code
from cosmic_ray.plugins import get_operator
from cosmic_ray.work_item import WorkItem
from skipping import skip_where

REASON = "folds to the same constant: equivalent (mutation/skip_constant_folds.py)"

FOLDS: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.BitAnd: operator.and_,
}


def whole(node: ast.expr) -> int | None:
    """The value of ``node`` when it is a whole-number literal (not a bool)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def module_constants(tree: ast.Module, layout: dict[str, int]) -> dict[str, int]:
    """Names bound once at module level to whole numbers: imported from layout or assigned."""
    constants: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith("layout"):
            for alias in node.names:
                if alias.name in layout:
                    constants[alias.asname or alias.name] = layout[alias.name]
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], whole(node.value)
            if isinstance(target, ast.Name) and value is not None:
                constants[target.id] = value
    return constants


class Folder(ast.NodeTransformer):
    """Replaces known constant names by their values and folds integer arithmetic on them."""

    def __init__(self, constants: dict[str, int]) -> None:
        self.constants = constants

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.constants:
            return ast.copy_location(ast.Constant(self.constants[node.id]), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        fold = FOLDS.get(type(node.op))
        left, right = whole(node.left), whole(node.right)
        if fold and left is not None and right is not None:
            try:
                return ast.copy_location(ast.Constant(fold(left, right)), node)
            except (ZeroDivisionError, ValueError, OverflowError):
                return node
        return node


def folded(source: str, constants: dict[str, int]) -> str:
    tree = Folder(constants).visit(ast.parse(source))
    return ast.dump(tree, include_attributes=False)


@cache
def layout_constants() -> dict[str, int]:
    from kradan._core import layout

    return {k: v for k, v in vars(layout).items() if type(v) is int and k.isupper()}


@cache
def original(path: str) -> tuple[str, dict[str, int], str]:
    source = Path(path).read_text(encoding="utf-8")
    constants = module_constants(ast.parse(source), layout_constants())
    return source, constants, folded(source, constants)


def folds_to_the_original(item: WorkItem) -> bool:
    """Whether the mutant's folded syntax tree is the original's."""
    if len(item.mutations) != 1:
        return False
    mutation = item.mutations[0]
    source, constants, before = original(str(mutation.module_path))
    op = get_operator(mutation.operator_name)(**(mutation.operator_args or {}))
    mutant = mutate_code(source, op, mutation.occurrence)
    if mutant is None:
        return False
    try:
        return folded(mutant, constants) == before
    except SyntaxError:  # a mutant that does not parse is left for the run (it fails there)
        return False


def main(session: str) -> int:
    count = skip_where(session, folds_to_the_original, REASON)
    print(f"{count} mutants that fold to the same constants marked skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
