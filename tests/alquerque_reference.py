"""A slow, obviously correct Alquerque move generator, written apart from the kernel, as a
cross-check (DESIGN.md: a second generator may exist in the tests only).

Positions are plain dictionaries; every rule is spelled out from docs/rules.md section 6 and the
decisions in ``kradan.alquerque.variant``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

NAMES = [f"{'abcde'[p % 5]}{p // 5 + 1}" for p in range(25)]
DIRECTIONS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]


@dataclass
class Rules:
    bell: bool = False
    forced: bool = True
    huff_all: bool = False
    chain_mandatory: bool = True
    capture_forward: bool = False
    no_return: str = "any_previous"  # "off", "start_point", "any_previous" (Bell only)
    no_return_all: bool = False
    kings: bool = False


@dataclass
class Pos:
    # point -> (colour "w"/"b", is_king)
    pieces: dict[int, tuple[str, bool]]
    side: str
    huff: set[int] = field(default_factory=set)
    # point -> (start point, set of points stood on)
    history: dict[int, tuple[int, set[int]]] = field(default_factory=dict)

    def hist(self, p: int) -> tuple[int, set[int]]:
        return self.history.get(p, (p, {p}))


def xy(p: int) -> tuple[int, int]:
    return p % 5, p // 5


def neighbour(p: int, dx: int, dy: int, distance: int = 1) -> int | None:
    x, y = xy(p)
    if dx and dy and (x + y) % 2:
        return None  # no diagonal line through an odd point
    nx, ny = x + dx * distance, y + dy * distance
    if 0 <= nx < 5 and 0 <= ny < 5:
        return ny * 5 + nx
    return None


def forward_or_sideways(side: str, dy: int) -> bool:
    return dy >= 0 if side == "w" else dy <= 0


def far_row(side: str, p: int) -> bool:
    return xy(p)[1] == (4 if side == "w" else 0)


def may_enter(rules: Rules, hist: tuple[int, set[int]], to: int) -> bool:
    start, visited = hist
    if rules.no_return == "any_previous":
        return to not in visited
    if rules.no_return == "start_point":
        return to != start
    return True


def steps(pos: Pos, rules: Rules) -> list[str]:
    out = []
    for p, (color, king) in pos.pieces.items():
        if color != pos.side:
            continue
        men_rules = rules.bell and not king
        if men_rules and far_row(color, p):
            continue
        for dx, dy in DIRECTIONS:
            to = neighbour(p, dx, dy)
            if to is None or to in pos.pieces:
                continue
            if men_rules and not forward_or_sideways(color, dy):
                continue
            if men_rules and not may_enter(rules, pos.hist(p), to):
                continue
            out.append(NAMES[p] + NAMES[to])
    return out


def chains(pos: Pos, rules: Rules, p: int, all_prefixes: bool) -> list[str]:
    color, king = pos.pieces[p]
    men_rules = rules.bell and not king
    start, _ = pos.hist(p)
    results: list[str] = []

    def walk(here: int, taken: set[int], visited: set[int], text: str) -> None:
        continued = False
        if not (rules.kings and not king and text != NAMES[p] and far_row(color, here)):
            for dx, dy in DIRECTIONS:
                over, to = neighbour(here, dx, dy), neighbour(here, dx, dy, 2)
                if over is None or to is None:
                    continue
                enemy = over in pos.pieces and pos.pieces[over][0] != color and over not in taken
                # the mover's own point and the points of pieces already taken are empty
                landing_free = to == p or to not in pos.pieces or to in taken
                if not enemy or not landing_free:
                    continue
                if men_rules and rules.capture_forward and not forward_or_sideways(color, dy):
                    continue
                if men_rules and rules.no_return_all:
                    if rules.no_return == "any_previous" and to in visited:
                        continue
                    if rules.no_return == "start_point" and to == start:
                        continue
                continued = True
                walk(to, taken | {over}, visited | {to}, text + NAMES[to])
        if text != NAMES[p] and (all_prefixes or not continued):
            results.append(text)

    walk(p, set(), set(pos.hist(p)[1]), NAMES[p])
    return results


def can_capture(pos: Pos, rules: Rules, p: int) -> bool:
    return bool(chains(pos, rules, p, all_prefixes=True))


def plain_moves(pos: Pos, rules: Rules) -> list[str]:
    all_prefixes = not rules.chain_mandatory or not rules.forced
    captures = []
    for p, (color, _) in pos.pieces.items():
        if color == pos.side:
            captures += chains(pos, rules, p, all_prefixes)
    if rules.forced and captures:
        return captures
    return captures + steps(pos, rules)


def without(pos: Pos, points: set[int]) -> Pos:
    return replace(
        pos,
        pieces={p: v for p, v in pos.pieces.items() if p not in points},
        history={p: v for p, v in pos.history.items() if p not in points},
        huff=set(),
    )


def legal_moves(pos: Pos, rules: Rules) -> list[str]:
    if not pos.huff:
        return plain_moves(pos, rules)
    if rules.huff_all:
        return plain_moves(without(pos, pos.huff), rules)
    out = []
    for h in sorted(pos.huff):
        out += [f"h{NAMES[h]},{m}" for m in plain_moves(without(pos, {h}), rules)]
    return out


def play(pos: Pos, rules: Rules, move: str) -> Pos:
    """The position after ``move`` (one of ``legal_moves``)."""
    if move.startswith("h"):
        huffed = {NAMES.index(move[1:3])}
        move = move[4:]
    else:
        huffed = set(pos.huff) if rules.huff_all else set()
    pos = without(pos, huffed) if huffed or pos.huff else pos
    points = [NAMES.index(move[i : i + 2]) for i in range(0, len(move), 2)]
    origin, final = points[0], points[-1]
    color, king = pos.pieces[origin]
    dx, dy = abs(xy(points[1])[0] - xy(origin)[0]), abs(xy(points[1])[1] - xy(origin)[1])
    capturing = max(dx, dy) == 2
    liable: set[int] = set()
    if not rules.forced and not capturing:
        liable = {
            p for p, (c, _) in pos.pieces.items() if c == color and can_capture(pos, rules, p)
        }
    pieces = dict(pos.pieces)
    history = dict(pos.history)
    start, visited = pos.hist(origin)
    visited = set(visited)
    here = origin
    for landing in points[1:]:
        if capturing:
            over = (here + landing) // 2
            pieces.pop(over)
            history.pop(over, None)
        visited.add(landing)
        here = landing
    del pieces[origin]
    history.pop(origin, None)
    promoted = rules.kings and not king and far_row(color, final)
    pieces[final] = (color, king or promoted)
    history[final] = (start, visited)
    after = Pos(pieces, "b" if pos.side == "w" else "w", set(), history)
    if not rules.forced:
        if not capturing:
            if origin in liable:
                liable = (liable - {origin}) | {final}
            after.huff = liable
        elif rules.chain_mandatory and not promoted:
            probe = Pos(pieces, pos.side, set(), history)
            after.huff = {final} if can_capture(probe, rules, final) else set()
    return after


def perft(pos: Pos, rules: Rules, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(play(pos, rules, m), rules, depth - 1) for m in legal_moves(pos, rules))
