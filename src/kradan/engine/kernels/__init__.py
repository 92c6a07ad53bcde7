"""The compiled hot path: the chess family's search (:mod:`.search`) and evaluation
(:mod:`.evaluate`), and Alquerque's search (:mod:`.alquerque_search`). Only the drivers
(:mod:`kradan.engine.chess`, :mod:`kradan.engine.alquerque`) and tests import these."""
