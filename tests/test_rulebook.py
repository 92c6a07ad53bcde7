"""The rule book's generated parts stay true: docs/options.md lists every option of every game
with its default, and the committed pictures and reference are what docs/make_rulebook.py
makes from the code now."""

from __future__ import annotations

import dataclasses
import doctest
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

from kradan import games, rulebook
from kradan.rulesets import option_text
from kradan.variants import Variant

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_rulebook", ROOT / "docs" / "make_rulebook.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


MAKE = _script()


def _committed_rows() -> dict[str, dict[str, str]]:
    """docs/options.md as committed: for each game name, each option's default cell."""
    rows: dict[str, dict[str, str]] = {}
    names: list[str] = []
    for line in (ROOT / "docs" / "options.md").read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if cells[:3] == ["option", "what it sets", "values"]:
            names = [cell.strip("`") for cell in cells[3:]]
        elif names and len(cells) == 3 + len(names) and cells[0].startswith("`"):
            for name, default in zip(names, cells[3:], strict=True):
                rows.setdefault(name, {})[cells[0].strip("`")] = default
    return rows


@pytest.mark.parametrize("game", games.games(), ids=lambda game: game.name)
def test_the_committed_reference_lists_every_option_and_its_default(game: games.Game) -> None:
    committed = _committed_rows().get(game.name, {})
    for key, option in game.options.items():
        assert key in committed, f"docs/options.md lacks {key!r} of {game.name}"
        if option.applies(game.rules):
            default = option_text(getattr(game.rules, key))
            assert committed[key] == (f"`{default}`" if default else "none"), key
        else:
            assert committed[key] == rulebook.NOT_APPLICABLE, key


def test_the_reference_has_a_row_for_each_option_of_each_table() -> None:
    reference = rulebook.option_reference()
    for members, table in rulebook.option_families():
        assert members
        for key in table:
            assert f"| `{key}` |" in reference
    assert sum(len(members) for members, _ in rulebook.option_families()) == len(games.games())


@dataclasses.dataclass(frozen=True)
class _Imaginary(Variant):
    """Makruk with one rule more."""

    imaginary_rule: bool = True


def test_a_new_option_shows_in_the_reference() -> None:
    """The reference is read from the tables, so an option added to one appears at once."""
    makruk = games.find_game("makruk")
    table = dict(makruk.options)
    table["imaginary_rule"] = table["sut_met"]
    fields = {
        field.name: getattr(makruk.rules, field.name) for field in dataclasses.fields(Variant)
    }
    fields.update(name="imaginary", title="Imaginary", aliases=())
    rules = _Imaginary(**fields)
    extra = games.Game(rules=rules, board=makruk.board, options=table)
    games.register(extra)
    try:
        reference = rulebook.option_reference()
        meaning = rulebook.option_meaning(table["sut_met"])
        assert f"| `imaginary_rule` | {meaning} | `true`, `false` | `true` |" in reference
    finally:
        games.unregister("imaginary")


def test_option_values_are_written_for_every_kind() -> None:
    chess = games.find_game("makruk").options
    assert rulebook.option_values(chess["stalemate"]).startswith("`draw`, `stalemater_loses`")
    assert rulebook.option_values(chess["sut_met"]) == "`true`, `false`"
    assert rulebook.option_values(chess["repetition_count"]) == "a whole number ≥ 0"
    assert "`a1`, `h1`, `a8`, `h8`" in rulebook.option_values(chess["takhen_rua"])
    assert rulebook.option_default(games.find_game("makruk"), "ouk_king_leap") == "—"
    assert rulebook.option_default(games.find_game("sittuyin"), "n_move_rule") == "`50`"


def test_the_committed_files_are_what_the_script_makes() -> None:
    """Run ``python docs/make_rulebook.py`` after changing an option or a drawing."""
    stale = [str(path.relative_to(ROOT)) for path in MAKE.stale_files()]
    assert stale == [], "stale generated files (run python docs/make_rulebook.py)"


def test_every_picture_is_shown_in_the_rule_book() -> None:
    text = RULES.read_text(encoding="utf-8")
    for name in MAKE.PICTURES:
        assert f"images/rules/{name}.svg" in text, name


def _cited_sections() -> set[str]:
    """Every section number the code, the tests and the other documents cite, e.g. "2.6.1"
    from "docs/rules.md 2.6.1" or "docs/rules.md 2.4-2.7, 3.3"."""
    places = [ROOT / "src", ROOT / "tests", ROOT / "fuzz", ROOT / "benchmarks", ROOT / "docs"]
    paths = [path for place in places for path in place.rglob("*") if path.suffix in (".py", ".md")]
    cited = set()
    for path in paths:
        if path == RULES:
            continue
        source = path.read_text(encoding="utf-8")
        for match in re.finditer(r"(?:RULES|rules)\.md,? (?:section |§)?([0-9][0-9., -]*)", source):
            cited |= {number.rstrip(".") for number in re.findall(r"[0-9][0-9.]*", match[1])}
    return cited


def test_the_rule_book_keeps_the_section_numbers_the_code_cites() -> None:
    """Citations such as "docs/rules.md 2.6.1", "C6" or "Decision 8" find their heading."""
    text = RULES.read_text(encoding="utf-8")
    headings = set(re.findall(r"^#+ ([0-9]+(?:\.[0-9]+)*)\.? ", text, re.MULTILINE))
    cited = _cited_sections()
    assert {"2.6.2", "2.6.4", "5.5", "6.3"} <= cited
    assert sorted(cited - headings) == []
    for conflict in range(1, 24):
        assert f"| C{conflict} |" in text
    decisions = text[text.index("## Decisions") : text.index("## 0. ")]
    numbers = re.findall(r"^([0-9]+)\. \*\*", decisions, re.MULTILINE)
    assert numbers == [str(number) for number in range(1, 14)]


def test_the_module_docstring_example() -> None:
    result = doctest.testmod(rulebook)
    assert result.attempted and result.failed == 0
