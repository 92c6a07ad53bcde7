"""The container's health check (the Dockerfile's HEALTHCHECK): asks the server for its newest
game, ``GET /api/games?limit=1``, and exits 0 when it answers 200 within the time allowed, else
1 with the reason on standard error. Python's own library only: the slim image has no curl.

``KRADAN_HEALTHCHECK_URL`` names another address (the default is the Dockerfile's port on the
container's loopback, a Host every ``--allowed-hosts`` list answers)."""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

URL = "http://127.0.0.1:8080/api/games?limit=1"
#: seconds to wait for the answer (below the HEALTHCHECK's --timeout)
TIMEOUT = 4.0


def main() -> int:
    url = os.environ.get("KRADAN_HEALTHCHECK_URL") or URL
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except (OSError, ValueError) as error:
        print(f"kradan healthcheck: {url}: {error}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"kradan healthcheck: {url}: status {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
