"""kradan's fuzzers (issue 13 item 3): every way into kradan, fed garbage at scale.

* :mod:`fuzz.corpus`: seed inputs, from ``../shared/reference/`` (or its copy in
  ``tests/reference/``) and from the string literals of the tests;
* :mod:`fuzz.targets`: one :class:`~fuzz.targets.Target` per way in (positions, moves, PGN,
  options, the UCI and XBoard processes, the command line, the web API and its socket); a target
  takes bytes and raises :class:`~fuzz.targets.Crash` (or any error that is not kradan's typed
  one) when kradan misbehaves;
* :mod:`fuzz.engines`: what makes the inputs (``mutate``: random edits of seeds; ``atheris``:
  coverage-guided; ``hypothesis``: structured inputs from a grammar) and the count of crashes,
  hangs, speed and memory.

``benchmarks/fuzz.py`` runs them and prints the table; ``tests/test_fuzz_short.py`` is the short
CI pass.
"""
