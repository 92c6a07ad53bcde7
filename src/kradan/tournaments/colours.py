"""The colour rules of the Swiss pairing (FIDE C.04.3, A.6, C.3 and E): a player's colour
preference, the colours a player may not get, and who gets White in a pair.

* **Preference** (A.6): none before a first game; *absolute* when the colour difference (games
  with White less games with Black) is beyond ±1 or the last two games had the same colour (for
  the other colour); *strong* at a difference of ±1 (for the colour played less); *mild* at 0
  (for the other colour than last time).
* **Forbidden** (the absolute criterion): a colour that takes the difference beyond ±2 or gives
  the same colour a third time running.
* **Allocation** (E.1-E.5): both preferences when they differ; else the stronger one (two
  absolute ones: the wider difference); else the colours opposite to the latest round in which the
  two had different colours; else the higher-ranked player's preference; else (no games yet) the
  higher-ranked player gets the initial colour when their pairing number is odd.
"""

from __future__ import annotations

from typing import Literal

from .history import History
from .records import Colour

#: how strong a preference is
Strength = Literal[0, 1, 2, 3]
NONE: Strength = 0
MILD: Strength = 1
STRONG: Strength = 2
ABSOLUTE: Strength = 3


def other(colour: Colour) -> Colour:
    return "black" if colour == "white" else "white"


def preference(history: History) -> tuple[Colour | None, Strength]:
    """The colour ``history``'s player prefers next, and how strongly."""
    colours = history.colours
    if not colours:
        return None, NONE
    difference = history.difference
    if difference < -1:
        return "white", ABSOLUTE
    if difference > 1:
        return "black", ABSOLUTE
    if len(colours) >= 2 and colours[-1] == colours[-2]:
        return other(colours[-1]), ABSOLUTE
    if difference:
        return ("white" if difference < 0 else "black"), STRONG
    return other(colours[-1]), MILD


def allowed(history: History, colour: Colour) -> bool:
    """Whether ``colour`` keeps the colour difference within ±2 (or brings it back towards 0)
    and is not the same colour a third time running."""
    colours = history.colours
    before = history.difference
    after = before + (1 if colour == "white" else -1)
    if abs(after) > 2 and abs(after) >= abs(before):
        return False
    return not (len(colours) >= 2 and colours[-1] == colours[-2] == colour)


def allocate(higher: History, lower: History, initial: Colour) -> Colour:
    """The colour of ``higher`` (the higher-ranked player) against ``lower`` (FIDE E.1-E.5);
    ``lower`` gets the other one."""
    mine, my_strength = preference(higher)
    theirs, their_strength = preference(lower)
    if mine is not None and mine != theirs:
        return mine  # E.1 (the lower-ranked player has the other preference, or none)
    if mine is None and theirs is not None:
        return other(theirs)  # E.1
    if mine is not None:  # the same preference: E.2
        if my_strength != their_strength:
            return mine if my_strength > their_strength else other(mine)
        if my_strength == ABSOLUTE and abs(higher.difference) != abs(lower.difference):
            return mine if abs(higher.difference) > abs(lower.difference) else other(mine)
        # E.3: the colours opposite to the latest round in which they differed
        for back in range(1, min(len(higher.colours), len(lower.colours)) + 1):
            if higher.colours[-back] != lower.colours[-back]:
                return other(higher.colours[-back])
        return mine  # E.4
    # E.5: no preference on either side (no games yet)
    return initial if higher.number % 2 == 0 else other(initial)
