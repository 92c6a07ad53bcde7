"""``kradan show`` (issue 7): text boards, SVG and PNG pictures, bad input, the README pictures."""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import kradan
from kradan import alquerque
from kradan.cli.common import load_position
from kradan.cli.main import main
from kradan.errors import InvalidFenError, VariantError

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
SVG = "{http://www.w3.org/2000/svg}"
AFTER_SETUP = "r1s2s1r/1n1fk1n1/4pppp/pppp4/4PPPP/PPPP4/1N1FK1N1/R1S2S1R[] w - - 0 9"


def test_load_position_reads_fens_and_alquerque_texts() -> None:
    board = load_position(AFTER_SETUP, "sittuyin")
    assert isinstance(board, kradan.Board) and board.fen() == AFTER_SETUP
    text = "ppppp/ppppp/pp1PP/PPPPP/PPPP1 b - 0 1"
    board = load_position(text, "alquerque-bell")
    assert isinstance(board, alquerque.Board) and board.text() == text
    assert board.variant.name == "alquerque-bell"


@pytest.mark.parametrize("variant", ["makruk", "thai", "cambodian", "sittuyin", "alquerque"])
def test_load_position_without_text_is_the_start(variant: str) -> None:
    for text in (None, "", "   "):
        board = load_position(text, variant)
        assert board == (
            alquerque.Board() if variant == "alquerque" else kradan.Board(variant=variant)
        )


def test_load_position_errors_are_typed() -> None:
    with pytest.raises(InvalidFenError, match="'8/8 w'"):
        load_position("8/8 w", "makruk")
    with pytest.raises(VariantError, match="'chess'"):
        load_position(None, "chess")
    with pytest.raises(InvalidFenError):
        load_position("rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", "alquerque")


def test_text_board_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["8", "r", "n", "s", "m", "k", "s", "n", "r"]
    assert "White to move" in out and "\033[" not in out  # no colours when not a terminal


def test_text_board_takes_the_fen_as_one_or_several_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fen = "4k3/8/1r6/2P1p3/3p1P2/4R3/8/3K4 b - - 0 1"
    assert main(["show", fen]) == 0
    one = capsys.readouterr().out
    assert main(["show", *fen.split()]) == 0
    assert capsys.readouterr().out == one
    assert "Black to move" in one and one.splitlines()[0].split()[5] == "k"


def test_text_board_flipped_and_hands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--variant", "sittuyin", "--flip"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("1 ")
    assert "White in hand:" in out and "Black in hand:" in out and "Rx2" in out


def test_text_board_alquerque(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--variant", "alquerque-bell"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "5  p---p---p---p---p"


def test_svg_file(tmp_path: Path) -> None:
    target = tmp_path / "board.svg"
    argv = ["show", "--variant", "sittuyin", AFTER_SETUP, "--svg", str(target), "--flip"]
    assert main([*argv, "--thai", "--size", "300"]) == 0
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.get("width") == "300"
    assert len([e for e in root.iter(SVG + "line") if "diagonal" in e.get("class", "")]) == 2
    texts = [t.text for t in root.iter(SVG + "text")]
    assert "ก" in texts and "a" not in texts
    assert main(["show", "--svg", str(target), "--no-coordinates"]) == 0
    assert not list(ET.fromstring(target.read_text(encoding="utf-8")).iter(SVG + "text"))


def test_png_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "board.png"
    status = main(["show", "--variant", "alquerque", "--png", str(target)])
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:
        assert status == 2 and "pip install 'kradan[png]'" in capsys.readouterr().err
        pytest.skip(f"cairosvg is not usable here ({error}); checked the error message instead")
    assert status == 0
    assert target.read_bytes().startswith(b"\x89PNG")


def test_help_shows_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["show", "--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert "kradan show 'rnsmksnr/" in out and "--svg" in out


# --- the README's pictures ------------------------------------------------------------------------


def readme_picture_commands() -> list[list[str]]:
    """The ``kradan show ... --svg docs/images/...`` commands of the README's Pictures section."""
    commands = []
    for line in README.read_text(encoding="utf-8").splitlines():
        if line.startswith("kradan show ") and "--svg docs/images/" in line:
            commands.append(shlex.split(line)[1:])
    return commands


def test_readme_shows_every_picture_with_its_command() -> None:
    commands = readme_picture_commands()
    targets = [argv[argv.index("--svg") + 1] for argv in commands]
    names = ("makruk", "cambodian", "sittuyin", "alquerque")
    assert targets == [f"docs/images/{name}.svg" for name in names]
    text = README.read_text(encoding="utf-8")
    for target in targets:
        assert f"]({target})" in text  # the picture is shown, not only made


@pytest.mark.parametrize("argv", readme_picture_commands(), ids=lambda argv: argv[-1])
def test_readme_pictures_are_up_to_date(argv: list[str], tmp_path: Path) -> None:
    index = argv.index("--svg") + 1
    checked_in = ROOT / argv[index]
    fresh = tmp_path / "fresh.svg"
    assert main([*argv[:index], str(fresh), *argv[index + 1 :]]) == 0
    assert fresh.read_bytes() == checked_in.read_bytes(), (
        f"{argv[index]} is out of date: run kradan {shlex.join(argv)}"
    )
