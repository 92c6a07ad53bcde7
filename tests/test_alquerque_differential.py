"""The compiled Alquerque generator against the slow reference in ``alquerque_reference``, on
thousands of random positions, for both rule sets and random combinations of every option."""

from __future__ import annotations

import itertools
import random

import pytest

from kradan import alquerque

from . import alquerque_reference as ref


def random_rules(rng: random.Random) -> tuple[ref.Rules, dict]:
    bell = rng.random() < 0.5
    options: dict = {
        "capture_rule": rng.choice(["forced", "huff"]),
        "huff_target": rng.choice(["opponent_chooses_one", "all"]),
        "chain_continuation": rng.choice(["mandatory", "optional"]),
        "alquerque_kings": rng.random() < 0.4,
    }
    if bell:
        options["bell_capture_directions"] = rng.choice(["any", "forward_sideways"])
        options["no_return"] = rng.choice(["any_previous", "start_point", "off"])
        options["no_return_scope"] = rng.choice(["steps", "all_moves"])
    rules = ref.Rules(
        bell=bell,
        forced=options["capture_rule"] == "forced",
        huff_all=options["huff_target"] == "all",
        chain_mandatory=options["chain_continuation"] == "mandatory",
        capture_forward=options.get("bell_capture_directions") == "forward_sideways",
        no_return=options.get("no_return", "off") if bell else "off",
        no_return_all=options.get("no_return_scope") == "all_moves",
        kings=options["alquerque_kings"],
    )
    return rules, options


def random_position(rng: random.Random, rules: ref.Rules) -> ref.Pos:
    pieces: dict[int, tuple[str, bool]] = {}
    density = rng.uniform(0.2, 0.9)
    for p in rng.sample(range(25), 25):
        if rng.random() < density:
            color = rng.choice("wb")
            if sum(1 for c, _ in pieces.values() if c == color) < 12:
                pieces[p] = (color, rules.kings and rng.random() < 0.2)
    side = rng.choice("wb")
    history = {}
    for p in pieces:
        if rng.random() < 0.4:
            start = rng.randrange(25)
            visited = {p, start} | set(rng.sample(range(25), rng.randint(0, 4)))
            history[p] = (start, visited)
    pos = ref.Pos(pieces, side, set(), history)
    if not rules.forced:
        theirs = [p for p, (c, _) in pieces.items() if c != side]
        pos.huff = set(rng.sample(theirs, min(len(theirs), rng.choice([0, 0, 1, 2]))))
    return pos


def to_text(pos: ref.Pos) -> str:
    rows = []
    for y in range(4, -1, -1):
        row, empty = "", 0
        for x in range(5):
            piece = pos.pieces.get(y * 5 + x)
            if piece is None:
                empty += 1
                continue
            letter = "k" if piece[1] else "p"
            row += (str(empty) if empty else "") + (letter.upper() if piece[0] == "w" else letter)
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    huff = ",".join(ref.NAMES[p] for p in sorted(pos.huff)) or "-"
    history = []
    for p, (start, visited) in sorted(pos.history.items()):
        others = sorted(visited - {p, start})
        history.append(
            ref.NAMES[p] + ":" + ref.NAMES[start] + "".join(ref.NAMES[q] for q in others)
        )
    return f"{'/'.join(rows)} {pos.side} {huff} 0 1 {','.join(history) or '-'}"


def every_combination() -> list[tuple[ref.Rules, dict]]:
    """All 208 combinations of the options that change move generation."""
    combos = []
    for bell, forced, huff_all, mandatory, kings in itertools.product([False, True], repeat=5):
        base = {
            "capture_rule": "forced" if forced else "huff",
            "huff_target": "all" if huff_all else "opponent_chooses_one",
            "chain_continuation": "mandatory" if mandatory else "optional",
            "alquerque_kings": kings,
        }
        rules = ref.Rules(bell, forced, huff_all, mandatory, kings=kings, no_return="off")
        if not bell:
            combos.append((rules, base))
            continue
        for forward, no_return, all_moves in itertools.product(
            [False, True], ["any_previous", "start_point", "off"], [False, True]
        ):
            options = base | {
                "bell_capture_directions": "forward_sideways" if forward else "any",
                "no_return": no_return,
                "no_return_scope": "all_moves" if all_moves else "steps",
            }
            combos.append(
                (
                    ref.Rules(
                        bell, forced, huff_all, mandatory, forward, no_return, all_moves, kings
                    ),
                    options,
                )
            )
    return combos


COMBINATIONS = every_combination()


@pytest.mark.parametrize("index", range(0, len(COMBINATIONS), 8))
def test_legal_moves_agree_for_every_option_combination(index: int) -> None:
    """Each test takes 8 of the 208 combinations and 20 random positions for each: over 4000
    positions in all."""
    rng = random.Random(index)
    for rules, options in COMBINATIONS[index : index + 8]:
        variant = "alquerque-bell" if rules.bell else "alquerque"
        for _ in range(20):
            pos = random_position(rng, rules)
            board = alquerque.Board(to_text(pos), variant=variant, **options)
            ours = sorted(m.uci() for m in board.legal_moves)
            theirs = sorted(ref.legal_moves(pos, rules))
            assert ours == theirs, (to_text(pos), options)


@pytest.mark.parametrize("seed", range(8))
def test_perft_agrees_on_random_positions(seed: int) -> None:
    """Depth 2 and 3 also check make: histories, huff liability, promotion, captures. The
    reference is slow, so trees beyond a few thousand nodes are left to the generation test."""
    rng = random.Random(100 + seed)
    checked = 0
    while checked < 25:
        rules, options = random_rules(rng)
        variant = "alquerque-bell" if rules.bell else "alquerque"
        pos = random_position(rng, rules)
        board = alquerque.Board(to_text(pos), variant=variant, **options)
        two = board.perft(2)
        if two > 2000:
            continue
        checked += 1
        assert two == ref.perft(pos, rules, 2), (to_text(pos), options)
        if two < 400:
            assert board.perft(3) == ref.perft(pos, rules, 3), (to_text(pos), options)
        assert board.perft(2, bulk=False) == two


@pytest.mark.parametrize("variant", ["alquerque", "alquerque-bell"])
def test_games_replayed_against_the_reference(variant: str) -> None:
    """Whole random games: the position text after each move matches the reference's."""
    rng = random.Random(7)
    for _ in range(15):
        rules, options = random_rules(rng)
        rules.bell = variant == "alquerque-bell"
        if not rules.bell:
            rules.no_return, rules.capture_forward, rules.no_return_all = "off", False, False
            options = {k: v for k, v in options.items() if not k.startswith(("bell", "no_return"))}
        else:
            options.setdefault("no_return", "any_previous")
            rules.no_return = options["no_return"]
        board = alquerque.Board(variant=variant, **options)
        pos = ref.Pos(
            {p: ("w", False) for p in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14)}
            | {p: ("b", False) for p in (15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 10, 11)},
            "w",
        )
        for _ in range(80):
            moves = sorted(ref.legal_moves(pos, rules))
            assert sorted(m.uci() for m in board.legal_moves) == moves, (board.text(), options)
            if not moves or board.outcome() is not None:
                break
            move = rng.choice(moves)
            board.push_uci(move)
            pos = ref.play(pos, rules, move)
            assert board.text().split()[0] == to_text(pos).split()[0]
            assert board.huff_liable() == sorted(pos.huff)
