"""Fitting the engine to games: the evaluation's weights (:mod:`.tuning`) and its network
(:mod:`.nnue`, whose compiled parts are :mod:`kradan.engine.kernels.nnue_training`), from the
positions the runners' self-play writes.

Nothing is imported here: each module loads its own (numpy, scipy, numba) on use."""
