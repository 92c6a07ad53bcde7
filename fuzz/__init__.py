"""kradan's fuzzers (issue 13 item 3): every way into kradan, fed garbage at scale.

* :mod:`fuzz.corpus`: seed inputs, from ``../shared/reference/`` (or its copy in
  ``tests/reference/``) and from the string literals of the tests;
* :mod:`fuzz.base`: :class:`~fuzz.base.Target` and :class:`~fuzz.base.Crash`; a target takes
  bytes and raises :class:`~fuzz.base.Crash` (or any error that is not kradan's typed one) when
  kradan misbehaves;
* :mod:`fuzz.targets`: one target per way in (positions, moves, PGN and options in
  :mod:`fuzz.library`, the UCI and XBoard processes in :mod:`fuzz.process`, the command line in
  :mod:`fuzz.cli`, the web API and its socket in :mod:`fuzz.web`);
* :mod:`fuzz.engines`: what makes the inputs (``mutate``: random edits of seeds; ``atheris``:
  coverage-guided; ``hypothesis``: structured inputs from a grammar) and the count of crashes,
  hangs, speed and memory.

``benchmarks/fuzz.py`` runs them and prints the table; ``tests/test_fuzz_short.py`` is the short
CI pass.
"""
