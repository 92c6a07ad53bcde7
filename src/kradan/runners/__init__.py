"""What runs games and jobs on the engine: the players (kradan's engine at a level, a random
mover, another engine over UCI or XBoard through :mod:`kradan.engine.client`), matches between two
players (:mod:`.match`, ending games early by :mod:`.adjudication`, stopping by :mod:`.sprt`),
self-play for training data (:mod:`.selfplay`), and endgame tables built on an executor
(:mod:`.tablebases`).

Nothing is imported here, so that ``kradan.runners.players`` stays light (no compiled kernel)."""
