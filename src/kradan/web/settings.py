"""What ``kradan serve`` lets in, as one value (:class:`ServeSettings`), given to
:func:`kradan.web.create_app`: the host names it answers (:mod:`.hosts`), how many games one
client address may create a minute (:mod:`.limits`) and how much PGN it may import into the
archive (:mod:`.rate_limit`).

This module needs no web extra: the command line reads its defaults before it imports the
server.

>>> host_name("[::1]:8080"), host_name("Example.COM.:443"), host_name("::1")
('::1', 'example.com', '::1')
>>> default_hosts("0.0.0.0")
('127.0.0.1', 'localhost', '::1')
>>> default_hosts("192.168.1.5")
('127.0.0.1', 'localhost', '::1', '192.168.1.5')
>>> parse_hosts("play.example.org, 192.168.1.5:8080")
('play.example.org', '192.168.1.5')
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import Enum
from urllib.parse import urlsplit

from .rate_limit import DEFAULT_IMPORT_RATE

#: the names of this machine that no other machine can point a browser at
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
#: in ``allowed_hosts``: any host at all (unsafe: see docs/serving.md)
ANY_HOST = "*"
#: the addresses that mean "every interface": they name no host a browser would ask for
EVERY_INTERFACE = ("0.0.0.0", "::", "")
#: games one client address may create a minute, and at once, unless told otherwise
DEFAULT_CREATE_RATE = 30
DEFAULT_CREATE_BURST = 10

#: a host name or address as ``--allowed-hosts`` takes it (after :func:`host_name`)
_HOST = re.compile(r"[a-z0-9_.:-]+")


def host_name(value: str) -> str:
    """The host of a ``Host`` header or an allowed name, as they are compared: lower case,
    without the port, the brackets of an IPv6 address or a final dot."""
    text = value.strip().lower()
    if text.startswith("["):
        text = text[1:].partition("]")[0]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    return text.rstrip(".")


def parse_hosts(text: str) -> tuple[str, ...]:
    """The host names of ``--allowed-hosts``: comma-separated names or addresses, each with or
    without a port (which is ignored), or ``*`` for any host.

    :raises ValueError: for an empty list, a URL, or a name with characters no host has
    """
    hosts: list[str] = []
    for part in text.split(","):
        entry = part.strip()
        if not entry:
            continue
        if entry == ANY_HOST:
            hosts.append(ANY_HOST)
            continue
        if "/" in entry:
            raise ValueError(f"{entry!r}: name a host (play.example.org), not a URL")
        name = host_name(entry)
        if not _HOST.fullmatch(name):
            raise ValueError(
                f"{entry!r}: expected a host name or address (letters, digits, '.', '-', ':'; "
                "an international name in its xn-- form)"
            )
        if name not in hosts:
            hosts.append(name)
    if not hosts:
        raise ValueError(f"{text!r}: expected one host name or more, or '*'")
    return tuple(hosts)


def default_hosts(bind: str) -> tuple[str, ...]:
    """The hosts a server listening on ``bind`` answers unless told otherwise: the loopback
    names, and ``bind`` itself when it names one host (not every interface)."""
    name = host_name(bind)
    if bind in EVERY_INTERFACE or name in LOOPBACK_HOSTS:
        return LOOPBACK_HOSTS
    return (*LOOPBACK_HOSTS, name)


def parse_internal_url(text: str) -> str:
    """``--internal-url``'s value: ``http://HOST:PORT`` with nothing after it.

    >>> parse_internal_url("http://10.0.0.5:8081/")
    'http://10.0.0.5:8081'

    :raises ValueError: for anything else
    """
    parts = urlsplit(text.strip())
    if (
        parts.scheme != "http"
        or not parts.hostname
        or parts.port is None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or parts.username
    ):
        raise ValueError(
            f"internal URL {text!r}: expected http://HOST:PORT, the address the other "
            "processes reach this one by"
        )
    return f"http://{parts.netloc}"


class Unset(Enum):
    """The value of a keyword argument not given (``create_app``'s ``import_rate``)."""

    UNSET = "unset"


UNSET = Unset.UNSET


@dataclass(frozen=True)
class ServeSettings:
    """What the server lets in.

    - ``allowed_hosts``: the names the ``Host`` header may carry (port ignored; ``*``: any);
      other requests are refused with 400, so that a page of another site whose name was
      made to point at this server (DNS rebinding) cannot use it.
    - ``create_rate``: the games one client address may create a minute (``POST /api/games``,
      posting or taking a seek, a rematch), ``create_burst`` of them at once; 0: no limit.
    - ``import_rate``: the bytes of PGN one address may import into the archive a minute;
      0: no limit.
    - ``sign_up_open``: whether anyone may make an account (``POST /api/accounts``), and
      ``notice``: a notice on the front page; both the defaults of what an admin changes at
      run time (:mod:`kradan.web.server_settings`).
    - ``internal_url``: with several processes on one PostgreSQL, the URL the other
      processes reach this one by (``http://10.0.0.5:8081``): each game is served by one
      process, and the others pass its requests there (docs/scaling.md); ``None``: this
      process is the only one.
    - ``clock``: the seconds the limits count by (a test gives its own).

    :raises ValueError: for a negative rate, a burst under one or no allowed host
    """

    allowed_hosts: tuple[str, ...] = LOOPBACK_HOSTS
    create_rate: float = DEFAULT_CREATE_RATE
    create_burst: int = DEFAULT_CREATE_BURST
    import_rate: int = DEFAULT_IMPORT_RATE
    sign_up_open: bool = True
    notice: str = ""
    internal_url: str | None = None
    clock: Callable[[], float] = field(default=time.monotonic, compare=False)

    def __post_init__(self) -> None:
        hosts: Iterable[str] = self.allowed_hosts
        if isinstance(hosts, str):
            hosts = (hosts,)
        normal = tuple(dict.fromkeys(h if h == ANY_HOST else host_name(h) for h in hosts))
        if not normal:
            raise ValueError("allowed_hosts is empty: name one host or more, or '*'")
        object.__setattr__(self, "allowed_hosts", normal)
        if self.create_rate < 0:
            raise ValueError(f"create_rate {self.create_rate!r}: expected games a minute, or 0")
        if self.create_burst < 1:
            raise ValueError(f"create_burst {self.create_burst!r}: expected 1 or more")
        if self.import_rate < 0:
            raise ValueError(f"import_rate {self.import_rate!r}: expected bytes a minute, or 0")
        if self.internal_url is not None:
            object.__setattr__(self, "internal_url", parse_internal_url(self.internal_url))
            internal = host_name(urlsplit(self.internal_url).netloc)
            if not self.any_host and internal not in normal:
                object.__setattr__(self, "allowed_hosts", (*normal, internal))

    @property
    def any_host(self) -> bool:
        """Whether any ``Host`` is answered (``*``)."""
        return ANY_HOST in self.allowed_hosts


__all__ = [
    "ANY_HOST",
    "DEFAULT_CREATE_BURST",
    "DEFAULT_CREATE_RATE",
    "LOOPBACK_HOSTS",
    "UNSET",
    "ServeSettings",
    "Unset",
    "default_hosts",
    "host_name",
    "parse_hosts",
    "parse_internal_url",
]
