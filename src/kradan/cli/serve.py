"""``kradan serve``: play in the browser. Starts the web server (one uvicorn worker, and
``--engines`` engine processes) on 127.0.0.1:8080 and serves until stopped; needs
``pip install 'kradan[web]'``."""

from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import sys
from typing import Any

from ..web.rate_limit import DEFAULT_IMPORT_RATE
from ..web.settings import (
    ANY_HOST,
    DEFAULT_CREATE_BURST,
    DEFAULT_CREATE_RATE,
    EVERY_INTERFACE,
    ServeSettings,
    default_hosts,
    parse_hosts,
    parse_internal_url,
)
from .common import EXIT_BAD_INPUT

#: what the web server needs beyond kradan's own dependencies
WEB_MODULES = ("fastapi", "uvicorn", "websockets", "sqlalchemy", "aiosqlite", "alembic",
               "platformdirs")  # fmt: skip
#: the most engine processes ``--engines`` starts
MAX_ENGINES = 64
INSTALL_HINT = "kradan serve needs the web extra: pip install 'kradan[web]'"
#: ``--import-limit``'s default, in MiB (kradan.web.rate_limit needs no web extra)
DEFAULT_IMPORT_MIB = DEFAULT_IMPORT_RATE / (1 << 20)
#: the most games a minute (or at once) ``--create-rate`` and ``--create-burst`` take
MAX_CREATE = 1_000_000


#: seconds a stop waits for open requests (the bot API's streams) before it ends them
GRACEFUL_SECONDS = 5


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="play in the browser: start the web server",
        description="Start kradan's web server: games against the engine or between people, "
        "kept in a database. Serves until stopped (Ctrl-C).",
        epilog="Example: kradan serve --port 8080 --open\n\n"
        "Before others reach it (--host), see docs/serving.md: the hosts it answers,\n"
        "the Origin check and the limits per client address.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port to listen on (8080)")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database: a file (SQLite) or a URL, sqlite+aiosqlite:///PATH or "
        "postgresql+asyncpg://... (default: games.db in your data folder)",
    )
    parser.add_argument(
        "--engines",
        type=int,
        metavar="N",
        help="engine processes that think for games and analysis (default: one per core, "
        "2 to 8); with two or more, one is kept for quick replies",
    )
    parser.add_argument(
        "--import-limit",
        type=float,
        metavar="MIB",
        default=DEFAULT_IMPORT_MIB,
        help=f"MiB of PGN one address may import into the archive a minute "
        f"({DEFAULT_IMPORT_MIB:g}; 0: no limit)",
    )
    parser.add_argument(
        "--allowed-hosts",
        metavar="HOST[,HOST...]",
        help="the other names (or addresses) browsers reach this server by, beside "
        "127.0.0.1, localhost, ::1 and the --host address: a request for any other Host is "
        "refused, so that a page of another site cannot use the server (DNS rebinding); "
        "ports are ignored. '*' answers any host (unsafe: only behind a proxy that checks it)",
    )
    parser.add_argument(
        "--create-rate",
        metavar="N",
        default=str(DEFAULT_CREATE_RATE),
        help=f"games one client address may create a minute, with new games, seeks and "
        f"rematches ({DEFAULT_CREATE_RATE}; 'off' or 0: no limit); past it the answer is 429",
    )
    parser.add_argument(
        "--create-burst",
        type=int,
        metavar="N",
        default=DEFAULT_CREATE_BURST,
        help=f"games one address may create at once before --create-rate paces it "
        f"({DEFAULT_CREATE_BURST})",
    )
    parser.add_argument(
        "--sign-up",
        choices=("open", "closed"),
        default="open",
        help="whether anyone may make an account (open); closed: only an admin makes them "
        "(kradan admin create-user). An admin may change it at /admin while the server runs",
    )
    parser.add_argument(
        "--notice",
        default="",
        metavar="TEXT",
        help="a notice on the front page (none); an admin may change it at /admin",
    )
    parser.add_argument(
        "--internal-url",
        metavar="URL",
        help="with several kradan serve processes on one PostgreSQL database: the URL the "
        "other processes reach this one by (http://10.0.0.5:8081); each game is served by one "
        "process and the others pass its requests there (docs/scaling.md)",
    )
    parser.add_argument("--open", action="store_true", help="open the browser on the page")
    parser.set_defaults(run=run)


def missing_web_modules() -> list[str]:
    """The web extra's modules that are not installed."""
    return [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def address(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "") else host
    shown = "[::1]" if host == "::" else (f"[{shown}]" if ":" in shown else shown)
    return f"http://{shown}:{port}/"


def open_when_up(url: str, host: str, port: int, wait: float = 30.0) -> None:
    """Open ``url`` in the browser once the server accepts connections (in a thread)."""
    import socket
    import threading
    import time
    import webbrowser

    target = "127.0.0.1" if host in ("0.0.0.0", "") else ("::1" if host == "::" else host)

    def opener() -> None:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((target, port), timeout=1):
                    break
            except OSError:
                time.sleep(0.2)
        webbrowser.open(url)

    threading.Thread(target=opener, name="kradan-open", daemon=True).start()


def create_rate(text: str) -> float:
    """``--create-rate``'s value: games a minute, 0 for ``off``.

    :raises ValueError: for anything else
    """
    if text.strip().lower() in ("off", "none"):
        return 0.0
    try:
        rate = float(text)
    except ValueError:
        rate = -1.0
    if not 0 <= rate <= MAX_CREATE:
        raise ValueError(f"--create-rate {text!r}: expected games a minute, or 'off'")
    return rate


def allowed_hosts(args: argparse.Namespace) -> tuple[str, ...]:
    """The hosts answered: the loopback names and the ``--host`` address (no other site can
    make a browser send these), and those of ``--allowed-hosts``.

    :raises ValueError: for a bad list
    """
    given = getattr(args, "allowed_hosts", None)
    hosts = default_hosts(args.host)
    if given is None:
        return hosts
    try:
        return tuple(dict.fromkeys((*hosts, *parse_hosts(given))))
    except ValueError as error:
        raise ValueError(f"--allowed-hosts: {error}") from None


def serve_settings(args: argparse.Namespace, import_limit: float) -> ServeSettings:
    """The :class:`~kradan.web.settings.ServeSettings` of the options.

    :raises ValueError: for a bad option, saying which
    """
    rate = create_rate(str(getattr(args, "create_rate", DEFAULT_CREATE_RATE)))
    burst = getattr(args, "create_burst", DEFAULT_CREATE_BURST)
    if not 1 <= burst <= MAX_CREATE:
        raise ValueError(f"--create-burst {burst}: expected 1..{MAX_CREATE}")
    internal = getattr(args, "internal_url", None)
    if internal is not None:
        try:
            internal = parse_internal_url(internal)
        except ValueError as error:
            raise ValueError(f"--internal-url: {error}") from None
    return ServeSettings(
        allowed_hosts=allowed_hosts(args),
        create_rate=rate,
        create_burst=burst,
        import_rate=round(import_limit * (1 << 20)),
        sign_up_open=getattr(args, "sign_up", "open") == "open",
        notice=getattr(args, "notice", "") or "",
        internal_url=internal,
    )


def host_warnings(host: str, hosts: tuple[str, ...], given: bool) -> list[str]:
    """What ``kradan serve`` warns about before it starts, listening on ``host`` and answering
    ``hosts`` (``given`` with ``--allowed-hosts``)."""
    warnings = []
    if not is_loopback(host):
        warnings.append(
            f"listening on {host}: anyone on the network can reach this server and play or "
            "watch its games"
        )
    if ANY_HOST in hosts:
        warnings.append(
            "--allowed-hosts '*': any Host is answered, so a page of another site can use this "
            "server through DNS rebinding; put a proxy that checks the host in front of it"
        )
    elif host in EVERY_INTERFACE and not given:
        warnings.append(
            "only requests for 127.0.0.1, localhost or [::1] are answered: name the names "
            "others reach this machine by with --allowed-hosts (e.g. --allowed-hosts "
            "192.168.1.5,club.local)"
        )
    return warnings


def run(args: argparse.Namespace) -> int:
    if missing_web_modules():
        print(INSTALL_HINT, file=sys.stderr)
        return EXIT_BAD_INPUT
    if not 0 < args.port < 65536:
        print(f"kradan: error: --port {args.port}: expected 1..65535", file=sys.stderr)
        return EXIT_BAD_INPUT
    engines = getattr(args, "engines", None)
    if engines is not None and not 1 <= engines <= MAX_ENGINES:
        print(f"kradan: error: --engines {engines}: expected 1..{MAX_ENGINES}", file=sys.stderr)
        return EXIT_BAD_INPUT
    import_limit = getattr(args, "import_limit", DEFAULT_IMPORT_MIB)
    if not 0 <= import_limit < 1 << 20:
        print(
            f"kradan: error: --import-limit {import_limit:g}: expected MiB a minute, 0 for none",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    try:
        settings = serve_settings(args, import_limit)
    except ValueError as error:
        print(f"kradan: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    import uvicorn

    from ..web import create_app
    from ..web.storage import database_url

    if args.db is not None:
        try:
            args.db = database_url(args.db)
        except ValueError as error:
            print(f"kradan: error: --db: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if settings.internal_url is not None and not (args.db or "").startswith("postgresql"):
        print(
            "kradan: error: --internal-url: several processes need PostgreSQL "
            "(--db postgresql+asyncpg://...): an SQLite database is served by one process",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    url = address(args.host, args.port)
    given = getattr(args, "allowed_hosts", None) is not None
    for warning in host_warnings(args.host, settings.allowed_hosts, given):
        print(f"kradan: warning: {warning}", file=sys.stderr)
    print(f"kradan serve: {url}  (Ctrl-C stops it)", flush=True)
    if args.open:
        open_when_up(url, args.host, args.port)
    app = create_app(
        args.db,
        engine_workers=engines,
        warm_engine=True,
        freeze_startup=True,
        settings=settings,
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        workers=1,
        log_level="warning",
        ws="websockets-sansio",
        ws_max_size=4096,
        http="h11",
        lifespan="on",
        # the bot API's streams never end by themselves: a stop waits this long for them
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
    )
    return 0


__all__ = ["INSTALL_HINT", "add_parser", "host_warnings", "missing_web_modules", "run",
           "serve_settings"]  # fmt: skip
