"""``python -m kradan``: the same as the ``kradan`` command."""

from __future__ import annotations

import sys

from .cli.main import main

sys.exit(main())
