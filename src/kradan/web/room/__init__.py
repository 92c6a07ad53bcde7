"""One game in memory, by concern, in the spirit of lila's round (``Drawer``, ``Takebacker``,
``Finisher``...): :class:`Room` (:mod:`.room`) keeps the lock and the rule that a change is
stored before it is applied and announced, and hands each change to its concern:

* :mod:`.base`: the game's state, the steps every change shares, and the host a room needs;
* :mod:`.moves`: a move read, checked, stored and played;
* :mod:`.counts`: declaring and stopping counts;
* :mod:`.draws`: draw offers, their answers, and claims;
* :mod:`.takeback`: taking back a move against the engine;
* :mod:`.clock`: which clock runs, and the flag's fall;
* :mod:`.setup`: Sittuyin's screened setup;
* :mod:`.engine_turn`: the engine's moves, setup and answers to draw offers;
* :mod:`.view`: the one game view (:class:`GameView`), sent as it is over HTTP and the socket;
* :mod:`.pgn`: the game as PGN;
* :mod:`.replay`: a room rebuilt from the store.
"""

from __future__ import annotations

from .base import RoomBase, RoomHost
from .replay import rebuild
from .room import Room
from .view import GameView

__all__ = ["GameView", "Room", "RoomBase", "RoomHost", "rebuild"]
