"""The parts of :class:`kradan.Board`, each with one job.

* :mod:`.state`: the position in the kernel's arrays, its FEN and what it holds;
* :mod:`.moves`: legal moves, making and taking back moves, checks;
* :mod:`.endings`: the end of the game and the draw rules;
* :mod:`.counts`: declaring and stopping counts;
* :mod:`.setup`: Sittuyin's setup phase;
* :mod:`.kernel`: the kernel's view, for code that works on its arrays, and perft.

Each part builds on the one before it (``moves`` on ``state``, the others on ``moves``);
:mod:`kradan.board` puts them together. Import :class:`kradan.Board`, not these parts.
"""
