"""Talking to a server on 127.0.0.1 from tests and benchmarks: a free port, and a JSON call.
Standard library only, so that the tests and the benchmarks (``serve_load.py``) share it and
neither needs the other."""

from __future__ import annotations

import json
import socket
import urllib.request
from typing import Any


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def call(
    url: str, body: dict[str, Any] | None = None, token: str | None = None, timeout: float = 30
) -> Any:
    """GET ``url`` (or POST ``body`` as JSON, with a Bearer ``token``); the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read())
