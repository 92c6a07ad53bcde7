"""The README's examples run as doctests, so the README stays true."""

from __future__ import annotations

import doctest
from pathlib import Path

README = Path(__file__).parent.parent / "README.md"


def test_readme_examples() -> None:
    result = doctest.testfile(
        str(README),
        module_relative=False,
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE,
    )
    assert result.attempted > 10
    assert result.failed == 0


def test_docstring_examples() -> None:
    import kradan
    import kradan.board
    import kradan.pgn
    import kradan.variants

    for module in (kradan, kradan.board, kradan.pgn, kradan.variants):
        result = doctest.testmod(module)
        assert result.failed == 0, module.__name__
