"""Where the endgame tables live by default (the user's data directory, or
``$KRADAN_EGTB_DIR``); a module of its own so that naming the place loads nothing heavy."""

from __future__ import annotations

import os
from pathlib import Path

#: the environment variable that overrides the default table directory
ENV_DIRECTORY = "KRADAN_EGTB_DIR"


def default_directory() -> Path:
    """``$KRADAN_EGTB_DIR``, else ``egtb`` in the user's data directory (platformdirs when it is
    installed, else ``~/.local/share/kradan/egtb``)."""
    custom = os.environ.get(ENV_DIRECTORY)
    if custom:
        return Path(custom).expanduser()
    try:
        from platformdirs import user_data_dir
    except ImportError:
        return Path.home() / ".local" / "share" / "kradan" / "egtb"
    return Path(user_data_dir("kradan")) / "egtb"


__all__ = ["ENV_DIRECTORY", "default_directory"]
