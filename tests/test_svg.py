"""kradan.svg (issue 7): the boards' structure, pieces, highlights, arrows, labels, errors, PNG."""

from __future__ import annotations

import doctest
import itertools
import math
import re
import sys
import xml.etree.ElementTree as ET

import pytest

import kradan
import kradan.svg
from kradan import alquerque
from kradan.alquerque.geometry import POINT_NAMES, STEP
from kradan.errors import InvalidSquareError
from kradan.svg import Arrow, InvalidSvgOptionError, PngUnavailableError

SVG = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"
FILES, RANKS = "abcdefgh", "12345678"
NAMES = {"k": "king", "m": "met", "s": "khon", "n": "knight", "r": "rook", "p": "pawn", "f": "ferz"}
AFTER_SETUP = "r1s2s1r/1n1fk1n1/4pppp/pppp4/4PPPP/PPPP4/1N1FK1N1/R1S2S1R[] w - - 0 9"


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def classes(element: ET.Element) -> list[str]:
    return element.get("class", "").split()


def having(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """Every ``tag`` element whose class list contains ``cls``."""
    return [e for e in root.iter(SVG + tag) if cls in classes(e)]


def squares(root: ET.Element) -> dict[str, ET.Element]:
    found = {}
    for rect in having(root, "rect", "square"):
        name = classes(rect)[1]
        assert name not in found
        found[name] = rect
    return found


def pieces(root: ET.Element) -> dict[str, str]:
    """Square name -> the id its piece uses."""
    found = {}
    for use in having(root, "use", "piece"):
        found[classes(use)[1]] = use.get(HREF, "").lstrip("#")
    return found


def expected_pieces(fen: str) -> dict[str, str]:
    """What the board part of ``fen`` holds, read here without kradan's FEN code."""
    result = {}
    for index, row in enumerate(fen.split()[0].split("[")[0].split("/")):
        file = 0
        for token in re.findall(r"\d|[A-Za-z]~?", row):
            if token.isdigit():
                file += int(token)
                continue
            side = "white" if token[0].isupper() else "black"
            promoted = "promoted-" if token.endswith("~") else ""
            result[f"{FILES[file]}{8 - index}"] = f"{side}-{promoted}{NAMES[token[0].lower()]}"
            file += 1
    return result


def square_box(root: ET.Element, name: str) -> tuple[float, float]:
    rect = squares(root)[name]
    return float(rect.get("x", "nan")), float(rect.get("y", "nan"))


def square_centre(root: ET.Element, name: str) -> tuple[float, float]:
    x, y = square_box(root, name)
    size = float(squares(root)[name].get("width", "nan"))
    return x + size / 2, y + size / 2


# --- the 8 x 8 board -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["makruk", "cambodian", "karouk"])
def test_chess_board_has_64_plain_squares_and_lines_between_them(variant: str) -> None:
    root = parse(kradan.svg.board(kradan.Board(variant=variant)))
    found = squares(root)
    assert sorted(found) == sorted(f + r for f in FILES for r in RANKS)
    assert len({rect.get("fill") for rect in found.values()}) == 1  # uncheckered
    grid = having(root, "line", "grid")
    vertical = [g for g in grid if g.get("x1") == g.get("x2")]
    horizontal = [g for g in grid if g.get("y1") == g.get("y2")]
    assert len(vertical) == len(horizontal) == 7 and len(grid) == 14
    assert not having(root, "line", "diagonal")
    assert len(having(root, "rect", "border")) == 1


def test_white_is_at_the_bottom_and_squares_tile_the_board() -> None:
    root = parse(kradan.svg.board(kradan.Board()))
    a1, h1, a8 = (square_box(root, name) for name in ("a1", "h1", "a8"))
    assert a1[1] > a8[1] and a1[1] == h1[1] and h1[0] > a1[0]
    assert a1[0] == a8[0]
    assert h1[0] - a1[0] == 7 * float(squares(root)["a1"].get("width", "nan"))


def test_flipped_view_puts_a1_at_the_top_right() -> None:
    root = parse(kradan.svg.board(kradan.Board(), flipped=True))
    boxes = {name: square_box(root, name) for name in squares(root)}
    top = min(y for _, y in boxes.values())
    right = max(x for x, _ in boxes.values())
    assert boxes["a1"] == (right, top)
    assert boxes["h8"] == (min(x for x, _ in boxes.values()), max(y for _, y in boxes.values()))


@pytest.mark.parametrize(
    ("variant", "fen"),
    [
        ("makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
        ("makruk", "4k3/8/1M~6/4p3/3p1P2/4R3/8/3K4 b - - 0 1"),
        ("makruk", "r1s1k2r/3n1s2/p1pNp1pp/1p3p2/4P3/PPM~2PPP/4M3/R1SK1S1R b - - 0 20"),
        ("sittuyin", AFTER_SETUP),
        ("cambodian", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w DEde - 0 1"),
    ],
)
def test_one_piece_per_occupied_square_with_the_right_drawing(variant: str, fen: str) -> None:
    board = kradan.Board(fen, variant=variant)
    root = parse(kradan.svg.board(board))
    found = pieces(root)
    assert found == expected_pieces(fen)
    defined = [g.get("id") for g in root.iter(SVG + "g") if g.get("id")]
    assert len(defined) == len(set(defined))  # each drawing defined once ...
    assert set(found.values()) == set(defined)  # ... and only the ones used


def test_promoted_pawn_and_original_met_look_different() -> None:
    board = kradan.Board("4k3/8/1M~6/8/8/8/8/3KM3 w - - 0 1")
    found = pieces(parse(kradan.svg.board(board)))
    assert found["b6"] == "white-promoted-met" and found["e1"] == "white-met"
    drawings = {
        g.get("id"): ET.tostring(g[1])
        for g in parse(kradan.svg.board(board)).iter(SVG + "g")
        if g.get("id")
    }
    white = drawings["white-met"].replace(b"#f8f3e6", b"")
    assert drawings["white-promoted-met"].replace(b"#f8f3e6", b"") != white


def test_white_and_black_pieces_are_drawn_differently() -> None:
    root = parse(kradan.svg.board(kradan.Board()))
    drawings = {g.get("id"): g for g in root.iter(SVG + "g") if g.get("id")}
    for name in ("king", "met", "khon", "knight", "rook", "pawn"):
        white = {p.get("fill") for p in drawings[f"white-{name}"].iter(SVG + "path")}
        black = {p.get("fill") for p in drawings[f"black-{name}"].iter(SVG + "path")}
        assert white - {"none"} and black - {"none"} and not (white & black) - {"none"}


@pytest.mark.parametrize(("variant", "fen"), [("makruk", None), ("sittuyin", AFTER_SETUP)])
def test_each_piece_kind_has_its_own_drawing(variant: str, fen: str | None) -> None:
    root = parse(kradan.svg.board(kradan.Board(fen, variant=variant)))
    bodies = {
        g.get("id"): ET.tostring(g[1])
        for g in root.iter(SVG + "g")
        if g.get("id", "").startswith("white")
    }
    assert len(bodies) == 6 and len(set(bodies.values())) == 6


# --- Sittuyin ------------------------------------------------------------------------------------


def test_sittuyin_draws_both_long_diagonals_corner_to_corner() -> None:
    root = parse(kradan.svg.board(kradan.Board(AFTER_SETUP, variant="sittuyin")))
    diagonals = having(root, "line", "diagonal")
    assert len(diagonals) == 2
    border = having(root, "rect", "border")[0]
    x0, y0 = float(border.get("x", "nan")), float(border.get("y", "nan"))
    x1, y1 = x0 + float(border.get("width", "nan")), y0 + float(border.get("height", "nan"))
    ends = {
        frozenset(
            {
                (float(d.get("x1", "nan")), float(d.get("y1", "nan"))),
                (float(d.get("x2", "nan")), float(d.get("y2", "nan"))),
            }
        )
        for d in diagonals
    }
    assert ends == {frozenset({(x0, y1), (x1, y0)}), frozenset({(x0, y0), (x1, y1)})}
    assert not having(root, "rect", "hand-panel")  # the setup is over


def hand_counts(root: ET.Element) -> dict[str, str]:
    return {t.get("data-piece", ""): t.text or "" for t in having(root, "text", "hand-count")}


def test_sittuyin_setup_shows_the_pieces_in_hand_with_counts() -> None:
    board = kradan.Board(variant="sittuyin")
    root = parse(kradan.svg.board(board))
    assert len(having(root, "rect", "hand-panel")) == 1
    expected = {"king": "×1", "ferz": "×1", "rook": "×2", "khon": "×2", "knight": "×2"}
    assert hand_counts(root) == {
        f"{side}-{name}": count for side in ("white", "black") for name, count in expected.items()
    }
    hand_uses = {u.get(HREF) for u in having(root, "use", "hand-piece")}
    assert hand_uses == {f"#{key}" for key in hand_counts(root)}
    assert len(pieces(root)) == 16  # only the pawns stand on the board
    board.push_uci("R@a1")
    board.push_uci("K@e7")
    root = parse(kradan.svg.board(board))
    counts = hand_counts(root)
    assert counts["white-rook"] == "×1" and "black-king" not in counts
    assert pieces(root)["a1"] == "white-rook" and pieces(root)["e7"] == "black-king"
    thai = hand_counts(parse(kradan.svg.board(board, labels="thai")))
    assert thai["white-rook"] == "×๑"


def hand_heights(root: ET.Element, side: str) -> list[float]:
    found = []
    for use in having(root, "use", "hand-piece"):
        if side in classes(use):
            found.append(float(re.findall(r"translate\(\S+ (\S+)\)", use.get("transform", ""))[0]))
    return found


def test_each_hand_stands_on_its_own_side_of_the_board() -> None:
    board = kradan.Board(variant="sittuyin")
    normal = parse(kradan.svg.board(board))
    assert max(hand_heights(normal, "black")) < min(hand_heights(normal, "white"))
    flipped = parse(kradan.svg.board(board, flipped=True))
    assert max(hand_heights(flipped, "white")) < min(hand_heights(flipped, "black"))


def test_the_hand_panel_widens_the_picture_and_the_size_is_its_width() -> None:
    with_hands = parse(kradan.svg.board(kradan.Board(variant="sittuyin"), size=500))
    without = parse(kradan.svg.board(kradan.Board(AFTER_SETUP, variant="sittuyin"), size=500))
    assert with_hands.get("width") == without.get("width") == "500"
    assert int(with_hands.get("height", "0")) < int(without.get("height", "0")) == 500


def test_drops_mark_only_the_target_square() -> None:
    board = kradan.Board(variant="sittuyin")
    board.push_uci("R@a1")
    marked = {classes(r)[1] for r in having(parse(kradan.svg.board(board)), "rect", "lastmove")}
    assert marked == {"a1"}


# --- highlights and arrows -----------------------------------------------------------------------


def test_last_move_comes_from_the_board_or_the_argument() -> None:
    board = kradan.Board()
    root = parse(kradan.svg.board(board))
    assert not having(root, "rect", "lastmove")
    board.push_san("e4")
    marked = {classes(r)[1] for r in having(parse(kradan.svg.board(board)), "rect", "lastmove")}
    assert marked == {"e3", "e4"}
    root = parse(kradan.svg.board(board, lastmove=("b1", "c3")))
    assert {classes(r)[1] for r in having(root, "rect", "lastmove")} == {"b1", "c3"}
    root = parse(kradan.svg.board(board, lastmove=kradan.Move.from_uci("g1f3")))
    assert {classes(r)[1] for r in having(root, "rect", "lastmove")} == {"g1", "f3"}
    assert not having(parse(kradan.svg.board(board, lastmove=False)), "rect", "lastmove")


def test_check_marks_the_king_of_the_side_in_check() -> None:
    board = kradan.Board("r1s1k2r/3n1s2/p1pNp1pp/1p3p2/4P3/PPM~2PPP/4M3/R1SK1S1R b - - 0 20")
    root = parse(kradan.svg.board(board))
    marks = having(root, "rect", "check")
    assert [classes(m)[1] for m in marks] == ["e8"]
    assert square_box(root, "e8") == (float(marks[0].get("x", "0")), float(marks[0].get("y", "0")))
    assert marks[0].get("fill") == "url(#check-gradient)"
    assert any(g.get("id") == "check-gradient" for g in root.iter(SVG + "radialGradient"))
    assert not having(parse(kradan.svg.board(board, check=False)), "rect", "check")
    quiet = parse(kradan.svg.board(kradan.Board()))
    assert (
        not having(quiet, "rect", "check") and "check-gradient" not in ET.tostring(quiet).decode()
    )
    chosen = having(parse(kradan.svg.board(kradan.Board(), check="d1")), "rect", "check")
    assert [classes(m)[1] for m in chosen] == ["d1"]


def test_fill_colours_the_squares_given() -> None:
    root = parse(kradan.svg.board(kradan.Board(), fill={"a1": "#123456", 63: "red"}))
    found = squares(root)
    assert found["a1"].get("fill") == "#123456" and found["h8"].get("fill") == "red"
    assert {classes(r)[1] for r in having(root, "rect", "fill")} == {"a1", "h8"}
    assert found["b1"].get("fill") == kradan.svg.DEFAULT_COLORS["board"]


def test_squares_are_crossed_out_through_their_centres() -> None:
    root = parse(kradan.svg.board(kradan.Board(), squares=["d5", 37, "f5"]))
    crosses = having(root, "g", "cross")
    assert sorted(classes(g)[1] for g in crosses) == ["d5", "f5"]  # each square once
    for group in crosses:
        cx, cy = square_centre(root, classes(group)[1])
        lines = group.findall(f"{SVG}line")
        assert len(lines) == 2
        for line in lines:  # each stroke is a diagonal whose midpoint is the centre
            x1, y1, x2, y2 = (float(line.get(k) or "nan") for k in ("x1", "y1", "x2", "y2"))
            assert math.isclose((x1 + x2) / 2, cx) and math.isclose((y1 + y2) / 2, cy)
            assert math.isclose(abs(x2 - x1), abs(y2 - y1)) and x1 != x2
    stones = parse(kradan.svg.board(alquerque.Board(), squares=["c3"]))
    assert [classes(g)[1] for g in having(stones, "g", "cross")] == ["c3"]


def test_arrows_run_from_tail_centre_to_head_centre() -> None:
    board = kradan.Board()
    svg = kradan.svg.board(board, arrows=[("e3", "e5"), Arrow("b1", "c3", "red"), ("d3", "d3")])
    root = parse(svg)
    groups = having(root, "g", "arrow")
    assert [(g.get("data-tail"), g.get("data-head")) for g in groups] == [
        ("e3", "e5"),
        ("b1", "c3"),
        ("d3", "d3"),
    ]
    for group, (tail, head) in zip(groups[:2], [("e3", "e5"), ("b1", "c3")], strict=True):
        line = group.find(SVG + "line")
        polygon = group.find(SVG + "polygon")
        assert line is not None and polygon is not None
        start = (float(line.get("x1", "nan")), float(line.get("y1", "nan")))
        assert start == square_centre(root, tail)
        tip = tuple(float(v) for v in polygon.get("points", "").split()[0].split(","))
        assert tip == square_centre(root, head)
        (tx, ty), (hx, hy) = square_centre(root, tail), square_centre(root, head)
        end = (float(line.get("x2", "nan")), float(line.get("y2", "nan")))
        assert abs((hx - tx) * (end[1] - ty) - (hy - ty) * (end[0] - tx)) < 1  # on the way
        assert (end[0] - tx) * (hx - tx) + (end[1] - ty) * (hy - ty) > 0  # ... towards the head
        assert math.dist(end, (hx, hy)) < math.dist(end, (tx, ty))
    assert groups[1].find(SVG + "polygon").get("fill") == "red"  # type: ignore[union-attr]
    ring = groups[2].find(SVG + "circle")
    assert ring is not None
    assert (float(ring.get("cx", "nan")), float(ring.get("cy", "nan"))) == square_centre(root, "d3")


def test_arrows_accept_square_numbers_and_follow_a_flipped_board() -> None:
    root = parse(kradan.svg.board(kradan.Board(), arrows=[(0, 63)], flipped=True))
    line = having(root, "g", "arrow")[0].find(SVG + "line")
    assert line is not None
    assert (float(line.get("x1", "nan")), float(line.get("y1", "nan"))) == square_centre(root, "a1")
    assert float(line.get("y1", "nan")) < float(line.get("y2", "nan"))  # a1 is at the top


# --- coordinates ---------------------------------------------------------------------------------


def coordinate_texts(root: ET.Element) -> tuple[list[str], list[str]]:
    texts = having(root, "text", "coord")
    files = [t.text or "" for t in texts if "file" in classes(t)]
    ranks = [t.text or "" for t in texts if "rank" in classes(t)]
    return files, ranks


def test_latin_and_thai_labels() -> None:
    files, ranks = coordinate_texts(parse(kradan.svg.board(kradan.Board())))
    assert files == list("abcdefgh") and ranks == list("12345678")
    files, ranks = coordinate_texts(parse(kradan.svg.board(kradan.Board(), labels="thai")))
    assert files == list("กขคงจฉชญ") and ranks == list("๑๒๓๔๕๖๗๘")


def test_khmer_and_burmese_labels() -> None:
    """Issue 46: the coordinates the web board shows on Khmer and Burmese pages, each in a font
    of its script (cairosvg does not fall back)."""
    for labels, files_, ranks_, family in (
        ("khmer", "កខគឃងចឆជ", "១២៣៤៥៦៧៨", "Noto Sans Khmer, sans-serif"),
        ("burmese", "ကခဂဃငစဆဇ", "၁၂၃၄၅၆၇၈", "Noto Sans Myanmar, sans-serif"),
    ):
        root = parse(kradan.svg.board(kradan.Board(), labels=labels))
        assert coordinate_texts(root) == (list(files_), list(ranks_))
        assert {text.get("font-family") for text in having(root, "text", "coord")} == {family}


def test_thai_labels_name_a_thai_font_first() -> None:
    """Issue 43: cairosvg (``kradan show --thai --png``) reads only the first font family and
    does not fall back, so a bare ``sans-serif`` drew the Thai coordinates as empty boxes."""
    for labels, family in (("thai", "Noto Sans Thai, sans-serif"), ("latin", "sans-serif")):
        root = parse(kradan.svg.board(kradan.Board(), labels=labels))
        families = {text.get("font-family") for text in having(root, "text", "coord")}
        assert families == {family}


def test_labels_sit_beside_their_file_and_rank() -> None:
    for flipped in (False, True):
        root = parse(kradan.svg.board(kradan.Board(), flipped=flipped))
        for text in having(root, "text", "coord"):
            x, y = float(text.get("x", "nan")), float(text.get("y", "nan"))
            label = text.text or ""
            if "file" in classes(text):
                assert abs(x - square_centre(root, label + "1")[0]) < 1
            else:
                assert abs(y - square_centre(root, "a" + label)[1]) < 10


def test_coordinates_outside_inside_or_none() -> None:
    board = kradan.Board()
    outside = parse(kradan.svg.board(board))
    border = having(outside, "rect", "border")[0]
    x0 = float(border.get("x", "nan"))
    assert all(float(t.get("x", "nan")) < x0 for t in having(outside, "text", "rank"))
    inside = parse(kradan.svg.board(board, coordinates="inside"))
    border = having(inside, "rect", "border")[0]
    x0, y0 = float(border.get("x", "nan")), float(border.get("y", "nan"))
    x1 = x0 + float(border.get("width", "nan"))
    for text in having(inside, "text", "coord"):
        assert x0 < float(text.get("x", "nan")) < x1 and y0 < float(text.get("y", "nan"))
    assert len(having(inside, "text", "coord")) == 16
    assert not having(parse(kradan.svg.board(board, coordinates=False)), "text", "coord")


# --- Alquerque -----------------------------------------------------------------------------------


def point_centres(root: ET.Element) -> dict[tuple[float, float], str]:
    return {
        (float(c.get("cx", "nan")), float(c.get("cy", "nan"))): classes(c)[1]
        for c in having(root, "circle", "point")
    }


def unit_segments(root: ET.Element) -> set[frozenset[str]]:
    """The neighbour pairs that the drawn lines join, each line cut at the points it crosses."""
    centres = point_centres(root)
    result = set()
    for line in having(root, "line", "line"):
        x1, y1 = float(line.get("x1", "nan")), float(line.get("y1", "nan"))
        x2, y2 = float(line.get("x2", "nan")), float(line.get("y2", "nan"))
        on_line = sorted(
            (px, py)
            for px, py in centres
            if abs((x2 - x1) * (py - y1) - (y2 - y1) * (px - x1)) < 1e-6
            and min(x1, x2) - 1e-6 <= px <= max(x1, x2) + 1e-6
            and min(y1, y2) - 1e-6 <= py <= max(y1, y2) + 1e-6
        )
        assert (x1, y1) in on_line and (x2, y2) in on_line  # lines end on points
        for a, b in itertools.pairwise(on_line):
            result.add(frozenset({centres[a], centres[b]}))
    return result


@pytest.mark.parametrize("flipped", [False, True])
def test_alquerque_has_25_points_and_exactly_the_lines_of_the_rules(flipped: bool) -> None:
    board = alquerque.Board(variant="alquerque-bell")
    root = parse(kradan.svg.board(board, flipped=flipped))
    assert sorted(point_centres(root).values()) == sorted(POINT_NAMES)
    lines = having(root, "line", "line")
    assert len(lines) == 16
    assert len(having(root, "line", "orthogonal")) == 10
    assert len(having(root, "line", "diagonal")) == 6
    rules = {
        frozenset({POINT_NAMES[p], POINT_NAMES[int(q)]})
        for p in range(25)
        for q in STEP[p]
        if q >= 0
    }
    assert len(rules) == 56
    assert unit_segments(root) == rules


def test_alquerque_pieces_are_stones_on_points() -> None:
    board = alquerque.Board("pppkp/ppppp/pp1PP/PPPPP/KPPPP w - 0 1", variant="alquerque")
    root = parse(kradan.svg.board(board))
    found = pieces(root)
    assert len(found) == 24 and "c3" not in found
    assert found["a1"] == "white-king" and found["d5"] == "black-king"
    assert found["b1"] == "white-man" and found["a3"] == "black-man" and found["d3"] == "white-man"
    centres = {name: xy for xy, name in point_centres(root).items()}
    for use in having(root, "use", "piece"):
        name = classes(use)[1]
        x, y = float(use.get("x", "nan")), float(use.get("y", "nan"))
        cx, cy = centres[name]
        assert cx - x == cy - y > 0  # the stone is centred on its point


def test_alquerque_flipped_puts_a1_top_right_and_labels() -> None:
    root = parse(kradan.svg.board(alquerque.Board(), flipped=True, labels="thai"))
    centres = {name: xy for xy, name in point_centres(root).items()}
    assert centres["a1"] == (
        max(x for x, _ in centres.values()),
        min(y for _, y in centres.values()),
    )
    files, ranks = coordinate_texts(root)
    assert files == list("กขคงจ") and ranks == list("๑๒๓๔๕")


def test_alquerque_last_move_arrows_and_fill() -> None:
    board = alquerque.Board(variant="alquerque-bell")
    board.push_uci("d2c3")
    root = parse(kradan.svg.board(board, arrows=[("b4", "d2")], fill={"e5": "blue"}))
    assert {classes(c)[1] for c in having(root, "circle", "lastmove")} == {"d2", "c3"}
    assert [classes(c)[1] for c in having(root, "circle", "fill")] == ["e5"]
    group = having(root, "g", "arrow")[0]
    assert (group.get("data-tail"), group.get("data-head")) == ("b4", "d2")
    board.push_uci("b4d2")
    root = parse(kradan.svg.board(board))
    assert {classes(c)[1] for c in having(root, "circle", "lastmove")} == {"b4", "d2"}
    assert not having(root, "circle", "check")
    with pytest.raises(InvalidSquareError, match="'f6'"):
        kradan.svg.board(board, fill={"f6": "red"})
    with pytest.raises(InvalidSquareError, match="'h8'"):
        kradan.svg.board(board, arrows=[("a1", "h8")])


# --- errors, determinism, the root ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "quoted"),
    [
        ({"labels": "klingon"}, InvalidSvgOptionError, "'klingon'"),
        ({"coordinates": "around"}, InvalidSvgOptionError, "'around'"),
        ({"size": 0}, InvalidSvgOptionError, "0"),
        ({"size": "big"}, InvalidSvgOptionError, "'big'"),
        ({"colors": {"sky": "blue"}}, InvalidSvgOptionError, "'sky'"),
        ({"fill": {"e4": 7}}, InvalidSvgOptionError, "7"),
        ({"arrows": ["e3e4"]}, InvalidSvgOptionError, "'e3e4'"),
        ({"lastmove": "e3e4"}, InvalidSvgOptionError, "'e3e4'"),
        ({"fill": {"i9": "red"}}, InvalidSquareError, "'i9'"),
        ({"arrows": [("e3", "e9")]}, InvalidSquareError, "'e9'"),
        ({"arrows": [Arrow("z1", "a1")]}, InvalidSquareError, "'z1'"),
        ({"check": "k1"}, InvalidSquareError, "'k1'"),
        ({"check": 64}, InvalidSquareError, "64"),
        ({"lastmove": ("a1", "a0")}, InvalidSquareError, "'a0'"),
        ({"squares": "e4"}, InvalidSvgOptionError, "'e4'"),
        ({"squares": 12}, InvalidSvgOptionError, "12"),
        ({"squares": ["e9"]}, InvalidSquareError, "'e9'"),
    ],
)
def test_bad_arguments_raise_typed_value_errors_quoting_the_input(
    kwargs: dict[str, object], error: type[Exception], quoted: str
) -> None:
    with pytest.raises(error) as info:
        kradan.svg.board(kradan.Board(), **kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError) and isinstance(info.value, kradan.KradanError)
    assert quoted in str(info.value)


def test_only_boards_can_be_drawn() -> None:
    with pytest.raises(InvalidSvgOptionError, match="'e4'"):
        kradan.svg.board("e4")  # type: ignore[arg-type]


def test_output_is_deterministic_and_sized() -> None:
    board = kradan.Board()
    board.push_san("e4")
    first = kradan.svg.board(board, arrows=[("d3", "d4")], size=321)
    assert first == kradan.svg.board(board.copy(), arrows=[("d3", "d4")], size=321)
    root = parse(first)
    assert root.tag == SVG + "svg" and root.get("width") == "321" and root.get("height") == "321"
    assert "viewBox" in root.attrib
    assert "width" not in parse(kradan.svg.board(board, size=None)).attrib
    title = root.find(SVG + "title")
    assert title is not None and title.text == f"Makruk: {board.fen()}"


def test_colors_override_the_defaults() -> None:
    root = parse(kradan.svg.board(kradan.Board(), colors={"board": "#abcdef"}))
    assert {r.get("fill") for r in squares(root).values()} == {"#abcdef"}


def test_single_piece_picture() -> None:
    root = parse(kradan.svg.piece(kradan.Piece(kradan.KNIGHT, kradan.BLACK), size=90))
    assert root.get("width") == "90"
    use = root.find(SVG + "use")
    assert use is not None and use.get(HREF) == "#black-knight"


def test_module_docstring_example() -> None:
    assert doctest.testmod(kradan.svg).failed == 0


# --- PNG -----------------------------------------------------------------------------------------


def test_png_names_the_extra_when_cairosvg_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # makes "import cairosvg" fail
    with pytest.raises(PngUnavailableError, match=r"pip install 'kradan\[png\]'"):
        kradan.svg.to_png(kradan.svg.board(kradan.Board()))


def test_png_rendering(tmp_path: object) -> None:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as error:
        pytest.skip(f"cairosvg is not usable here ({error}); pip install 'kradan[png]'")
    from pathlib import Path

    target = Path(str(tmp_path)) / "board.png"
    data = kradan.svg.to_png(kradan.svg.board(kradan.Board(variant="sittuyin"), size=200), target)
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and target.read_bytes() == data
    width = int.from_bytes(data[16:20], "big")
    assert width == 200
