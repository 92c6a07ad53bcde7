"""The application for uvicorn: ``uvicorn kradan.web.app:app``, on the database named by the
environment variable ``KRADAN_DB`` (default: ``games.db`` in the user's data folder)."""

from __future__ import annotations

import os

from .server import create_app

app = create_app(os.environ.get("KRADAN_DB") or None)

__all__ = ["app"]
