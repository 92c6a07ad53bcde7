"""Write the rule book's generated files: its pictures and its option reference.

    python docs/make_rulebook.py            # rewrite docs/images/rules/*.svg and docs/options.md
    python docs/make_rulebook.py --check    # only say which files are stale (exit status 1)

The pictures are drawn by :func:`kradan.svg.board` from this checkout's ``src/``, so they show
what the code plays; the option reference is :func:`kradan.rulebook.option_reference`.
``tests/test_rulebook.py`` fails when a committed file differs from what this script makes.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from kradan import svg  # noqa: E402  (after the path to this checkout's code)
from kradan.games import new_board  # noqa: E402
from kradan.rulebook import option_reference  # noqa: E402

PICTURES_DIR = ROOT / "docs" / "images" / "rules"
OPTIONS_FILE = ROOT / "docs" / "options.md"
SIZE = 320

WHITE_AREA = "#9cc3d5"  # squares that belong to White: a camp, a promotion zone
BLACK_AREA = "#e0a899"
STRONG = "#d7c24e"  # the squares a rule is about
BLUE_ARROW = "#1f5fa8"


def _squares(files: str, ranks: str) -> list[str]:
    return [file + rank for file in files for rank in ranks]


def _fill(colour: str, squares: list[str]) -> dict[str, str]:
    return dict.fromkeys(squares, colour)


def _draw(game: str, position: str | None = None, **marks: object) -> str:
    board = new_board(game, position)
    return svg.board(board, size=SIZE, lastmove=False, **marks)  # type: ignore[arg-type]


def makruk_start() -> str:
    return _draw("makruk")


def makruk_moves() -> str:
    """The khon's five steps (green) and the met's four (blue)."""
    khon = [("c4", target) for target in ("b5", "c5", "d5", "b3", "d3")]
    met = [svg.Arrow("f5", target, BLUE_ARROW) for target in ("e6", "g6", "e4", "g4")]
    return _draw("makruk", "4k3/8/8/5M2/2S5/8/8/3K4 w - - 0 1", arrows=[*khon, *met])


def makruk_promotion() -> str:
    """White's promotion zone (ranks 6-8): the pawn on c5 becomes a met on b6 or c6."""
    zone = _fill(WHITE_AREA, _squares("abcdefgh", "678"))
    return _draw(
        "makruk", "4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 w - - 0 1",
        arrows=[("c5", "c6"), ("c5", "b6")], fill=zone,
    )  # fmt: skip


def makruk_met_sutra() -> str:
    """The met sutra: the e-pawn steps to e4, the met moves onto e3, in one turn."""
    return _draw("makruk", arrows=[("e3", "e4"), svg.Arrow("e1", "e3", BLUE_ARROW)])


def cambodian_leaps() -> str:
    """Ouk's first moves: the king's leap to b2 or f2, the met's leap to e3."""
    return _draw(
        "cambodian", "rnsmksnr/8/pppppppp/8/4P3/PPPP1PPP/8/RNSKMSNR w DEde - 0 1",
        arrows=[("d1", "b2"), ("d1", "f2"), svg.Arrow("e1", "e3", BLUE_ARROW)],
    )  # fmt: skip


def karouk_first_check() -> str:
    """Kar Ouk: White's rook has given the first check; Black has lost."""
    return _draw("karouk", "R3k3/8/8/8/8/8/8/3K4 b - 30 0+1 6 1")


def counting_pieces_honour() -> str:
    """Two rooks and a knight against a lone king: 8 - 5 = 3 moves to mate."""
    return _draw("makruk", "8/8/8/4k3/1R6/8/8/3K1N1R b - 16 10 41")


def sittuyin_camps() -> str:
    """The setup: each side's camp, and its back rank (where the chariots go) stronger."""
    white = _fill(WHITE_AREA, [*_squares("abcdefgh", "2"), *_squares("efgh", "3")])
    black = _fill(BLACK_AREA, [*_squares("abcdefgh", "7"), *_squares("abcd", "6")])
    rooks = _fill(STRONG, [*_squares("abcdefgh", "1"), *_squares("abcdefgh", "8")])
    return _draw("sittuyin", fill={**white, **black, **rooks})


def sittuyin_arranged() -> str:
    return _draw(
        "sittuyin", "r1s2s1r/1n1fk1n1/4pppp/pppp4/4PPPP/PPPP4/1N1FK1N1/R1S2S1R[] w - - 0 9"
    )


def sittuyin_promotion() -> str:
    """White's promotion squares; the d5 pawn may become a general on c4, e4 or e6, but not
    on d5 or c6, where it would attack the knight."""
    squares = _fill(WHITE_AREA, ["a8", "b7", "c6", "d5", "e5", "f6", "g7", "h8"])
    return _draw(
        "sittuyin", "4k3/8/2n5/3P4/8/8/P7/4K3[] w - - 0 1",
        arrows=[("d5", "c4"), ("d5", "e4"), ("d5", "e6")], fill=squares,
    )  # fmt: skip


def alquerque_start() -> str:
    return _draw("alquerque-bell")


def alquerque_capture() -> str:
    """After d3-c3, Black must capture: b3 jumps over c3 to d3."""
    board = new_board("alquerque-bell")
    board.push_uci("d3c3")
    return svg.board(board, size=SIZE, arrows=[("b3", "d3")])


def alquerque_bell_steps() -> str:
    """Bell's steps: forward, sideways and (from a point with diagonals) diagonally forward."""
    from_b2 = [("b2", target) for target in ("a2", "c2", "a3", "b3", "c3")]
    from_d3 = [svg.Arrow("d3", target, BLUE_ARROW) for target in ("c3", "e3", "d4")]
    return _draw("alquerque-bell", "p4/5/3P1/1P3/5 w - 0 1", arrows=[*from_b2, *from_d3])


PICTURES: Mapping[str, Callable[[], str]] = {
    "makruk-start": makruk_start,
    "makruk-moves": makruk_moves,
    "makruk-promotion": makruk_promotion,
    "makruk-met-sutra": makruk_met_sutra,
    "cambodian-leaps": cambodian_leaps,
    "karouk-first-check": karouk_first_check,
    "counting-pieces-honour": counting_pieces_honour,
    "sittuyin-camps": sittuyin_camps,
    "sittuyin-arranged": sittuyin_arranged,
    "sittuyin-promotion": sittuyin_promotion,
    "alquerque-start": alquerque_start,
    "alquerque-capture": alquerque_capture,
    "alquerque-bell-steps": alquerque_bell_steps,
}


def generated_files() -> dict[Path, str]:
    """Every generated file and the text it should hold now."""
    files = {PICTURES_DIR / f"{name}.svg": draw() + "\n" for name, draw in PICTURES.items()}
    files[OPTIONS_FILE] = option_reference()
    return files


def stale_files() -> list[Path]:
    """The generated files that are missing or differ from what this script makes, and the
    pictures that no longer belong to any drawing."""
    files = generated_files()
    stale = [path for path, text in files.items() if _read(path) != text]
    leftovers = [path for path in sorted(PICTURES_DIR.glob("*.svg")) if path not in files]
    return stale + leftovers


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only list stale files")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files()
        for path in stale:
            print(f"stale: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    PICTURES_DIR.mkdir(parents=True, exist_ok=True)
    files = generated_files()
    for path in sorted(PICTURES_DIR.glob("*.svg")):
        if path not in files:
            path.unlink()
    for path, text in files.items():
        if _read(path) != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
