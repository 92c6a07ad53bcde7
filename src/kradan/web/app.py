"""The application for uvicorn: ``uvicorn kradan.web.app:app``, on the database named by the
environment variable ``KRADAN_DB`` (default: ``games.db`` in the user's data folder), answering
the loopback names and those of ``KRADAN_ALLOWED_HOSTS`` (comma-separated, as
``kradan serve --allowed-hosts`` takes them), one of several processes when
``KRADAN_INTERNAL_URL`` names its internal URL (``kradan serve --internal-url``)."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .server import create_app
from .settings import LOOPBACK_HOSTS, ServeSettings, parse_hosts


def settings_from_environment(environ: Mapping[str, str]) -> ServeSettings:
    """The settings of ``environ``'s ``KRADAN_ALLOWED_HOSTS`` and ``KRADAN_INTERNAL_URL``.

    :raises ValueError: for a bad list of hosts or URL
    """
    given = environ.get("KRADAN_ALLOWED_HOSTS", "").strip()
    hosts = (*LOOPBACK_HOSTS, *parse_hosts(given)) if given else LOOPBACK_HOSTS
    internal = environ.get("KRADAN_INTERNAL_URL", "").strip() or None
    return ServeSettings(allowed_hosts=hosts, internal_url=internal)


app = create_app(
    os.environ.get("KRADAN_DB") or None, settings=settings_from_environment(os.environ)
)

__all__ = ["app", "settings_from_environment"]
