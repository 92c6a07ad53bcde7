"""Round robins by FIDE's Berger tables (FIDE Handbook C.05, Annex 1).

For an even number ``N`` of players, numbered 1 to ``N``, round ``r`` (1 to ``N - 1``) pairs:

* player ``N`` with ``(r + 1) / 2`` when ``r`` is odd (``N`` has Black), and with
  ``N / 2 + r / 2`` when ``r`` is even (``N`` has White): board 1;
* everyone else in pairs ``a + b = r + 1 (mod N - 1)``, White to the player whose
  ``(opponent - self) mod (N - 1)`` is odd; the boards run as in the printed tables, the pair
  on board ``k`` (2 to ``N / 2``) being the one that holds player ``k + s (mod N - 1)``, with
  ``s = (r - 1) / 2`` in odd rounds and ``N / 2 - 1 + r / 2`` in even ones.

An odd field adds a dummy player ``N = n + 1``: whoever meets it has a free round. A double round
robin plays the cycle twice, the second time with the colours reversed; as FIDE recommends, the
first cycle's last two rounds are played in the other order, so that no one has the same colour
three times running where the cycles meet.
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import Bye, Game, Round, TournamentError, check_players

#: the sizes of field the tables are written for (a bigger field works the same way)
MIN_PLAYERS = 2


def _wrap(value: int, modulus: int) -> int:
    """``value`` reduced into ``1 .. modulus``."""
    return (value - 1) % modulus + 1


def berger_round(players: int, round_number: int) -> list[tuple[int, int]]:
    """Round ``round_number`` of the Berger table for ``players`` players, as (White, Black)
    pairing numbers from 1, board 1 first. An odd field's dummy is number ``players + 1``."""
    for name, value in (("players", players), ("round", round_number)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(f"the number of {name} is a whole number, not {value!r}")
    size = players + players % 2
    if players < MIN_PLAYERS:
        raise TournamentError(f"a round robin needs at least {MIN_PLAYERS} players, not {players}")
    if not 1 <= round_number < size:
        raise TournamentError(
            f"round {round_number!r} is not one of 1..{size - 1} for {players} players"
        )
    r, last = round_number, size - 1
    if r % 2:
        boards = [((r + 1) // 2, size)]
        shift = (r - 1) // 2
    else:
        boards = [(size, size // 2 + r // 2)]
        shift = size // 2 - 1 + r // 2
    for board in range(2, size // 2 + 1):
        a = _wrap(board + shift, last)
        b = _wrap(r + 1 - a, last)
        boards.append((a, b) if (b - a) % last % 2 else (b, a))
    return boards


def berger_table(players: int) -> list[list[tuple[int, int]]]:
    """Every round of the Berger table for ``players`` players (see :func:`berger_round`)."""
    berger_round(players, 1)  # checks the number
    size = players + players % 2
    return [berger_round(players, r) for r in range(1, size)]


def round_robin(players: Sequence[str], *, double: bool = False) -> list[Round]:
    """The rounds of a round robin for ``players`` (in pairing-number order), unplayed. An odd
    field's player paired with the dummy gets a ``"free"`` bye; ``double`` plays the cycle twice,
    colours reversed, with the first cycle's last two rounds swapped (FIDE's note)."""
    players = list(players)
    check_players(players)
    table = berger_table(len(players))
    if double and len(table) >= 2:
        first = [*table[:-2], table[-1], table[-2]]
        cycles = [first, [[(b, a) for a, b in pairs] for pairs in table]]
    else:
        cycles = [table]
        if double:
            cycles.append([[(b, a) for a, b in pairs] for pairs in table])
    rounds = []
    for cycle in cycles:
        for pairs in cycle:
            games, byes = [], []
            for white, black in pairs:
                if black > len(players):
                    byes.append(Bye(players[white - 1], "free"))
                elif white > len(players):
                    byes.append(Bye(players[black - 1], "free"))
                else:
                    games.append(Game(players[white - 1], players[black - 1]))
            rounds.append(Round(tuple(games), tuple(byes)))
    return rounds
