"""The reverse proxies in front of ``kradan serve`` (issue 47 item 4, docs/deploy.md): nginx's
configuration passes the websocket upgrade on every socket route the app has (a new socket
route fails here until the proxy covers it), keeps idle sockets open longer than the server's
pings, and passes Host and the forwarded headers; the Caddyfile passes everything on.

Where nginx and openssl are installed, ``deploy/nginx.conf`` runs in front of a ``kradan serve``
started by the image's entry point (up once the image's health check passes), and every socket
opens through it; the Origin check and Secure cookies work through it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.deploy_support import DEPLOY, ROOT, healthy, kradan_parser, serve_options, wait_for

#: the socket routes the app has today (the route list is read from the app; these must be in it)
KNOWN_SOCKETS = {
    "/api/games/{game_id}/socket",
    "/api/games/{game_id}/chat/socket",
    "/api/analysis/socket",
}


# --- nginx, Caddy and the websockets ----------------------------------------------------------


@dataclass
class Directive:
    name: str
    args: list[str]
    block: list[Directive] | None = None


def every_directive(block: list[Directive]) -> Iterator[Directive]:
    """Every directive of ``block`` and of the blocks within it."""
    for each in block:
        yield each
        if each.block:
            yield from every_directive(each.block)


def nginx_config(text: str) -> list[Directive]:
    """nginx's configuration as directives and blocks (comments dropped)."""
    text = re.sub(r"#[^\n]*", "", text)
    tokens = re.findall(r"'[^']*'|\"[^\"]*\"|[{};]|[^\s{};'\"]+", text)

    def parse(at: int) -> tuple[list[Directive], int]:
        found: list[Directive] = []
        words: list[str] = []
        while at < len(tokens):
            token = tokens[at]
            at += 1
            if token == ";":
                found.append(Directive(words[0], words[1:]))
                words = []
            elif token == "{":
                block, at = parse(at)
                found.append(Directive(words[0], words[1:], block))
                words = []
            elif token == "}":
                return found, at
            else:
                words.append(token.strip("'\""))
        assert not words, f"unterminated directive {words}"
        return found, at

    return parse(0)[0]


def choose_location(server: list[Directive], path: str) -> Directive | None:
    """The location nginx picks for ``path`` in ``server``: an exact match, else the longest
    prefix if it is ``^~``, else the first regular expression that matches, else the longest
    prefix."""
    locations = [each for each in server if each.name == "location"]
    for each in locations:
        if each.args[0] == "=" and each.args[1] == path:
            return each
    prefixes = [each for each in locations if len(each.args) == 1 or each.args[0] == "^~"]
    matching = [each for each in prefixes if path.startswith(each.args[-1])]
    longest = max(matching, key=lambda each: len(each.args[-1]), default=None)
    if longest is not None and longest.args[0] == "^~":
        return longest
    for each in locations:
        if each.args[0] in ("~", "~*"):
            flags = re.IGNORECASE if each.args[0] == "~*" else 0
            if re.search(each.args[1], path, flags):
                return each
    return longest


def effective(name: str, *levels: list[Directive]) -> list[list[str]]:
    """The arguments of ``name`` where the innermost of ``levels`` that sets it sets it (nginx
    inherits a directive, proxy_set_header among them, only from a level that sets none)."""
    for level in levels:
        found = [each.args for each in level if each.name == name]
        if found:
            return found
    return []


def seconds(text: str) -> float:
    """An nginx time (``300s``, ``5m``; plain numbers are seconds) in seconds."""
    match = re.fullmatch(r"(\d+)(ms|s|m|h)?", text)
    assert match, text
    scale = {"ms": 0.001, "s": 1, None: 1, "m": 60, "h": 3600}[match[2]]
    return int(match[1]) * scale


def app_socket_routes() -> set[str]:
    """The paths of the app's websocket routes, read from the app itself."""
    from starlette.routing import Mount, WebSocketRoute

    from kradan.web import create_app

    found: set[str] = set()

    def walk(routes: list[Any], prefix: str) -> None:
        for route in routes:
            if isinstance(route, WebSocketRoute):
                found.add(prefix + route.path)
            elif isinstance(route, Mount):
                walk(list(route.routes), prefix + route.path)
            elif hasattr(route, "original_router"):  # FastAPI's included routers
                context = getattr(route, "include_context", None)
                walk(list(route.original_router.routes), prefix + getattr(context, "prefix", ""))

    walk(list(create_app("sqlite+aiosqlite:///:memory:").routes), "")
    return found


def source_socket_routes() -> set[str]:
    """The paths of every ``@router.websocket(...)`` in the web app's sources."""
    found: set[str] = set()
    for path in (ROOT / "src" / "kradan" / "web").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("websocket", "add_websocket_route")
                    and node.args and isinstance(node.args[0], ast.Constant)):  # fmt: skip
                found.add(str(node.args[0].value))
    return found


@pytest.fixture(scope="module")
def socket_routes() -> set[str]:
    routes = app_socket_routes()
    assert routes >= KNOWN_SOCKETS, f"the app's socket routes were not all found: {routes}"
    assert routes == source_socket_routes()
    return routes


@pytest.fixture(scope="module")
def uvicorn_settings() -> dict[str, Any]:
    """What ``kradan serve`` passes to uvicorn.run (uvicorn itself stubbed out)."""
    import uvicorn

    from kradan.cli import serve

    captured: dict[str, Any] = {}
    patch = pytest.MonkeyPatch()
    patch.setattr(uvicorn, "run", lambda app, **settings: captured.update(settings))
    try:
        args = kradan_parser().parse_args(["serve", "--db", "sqlite+aiosqlite:///:memory:"])
        assert serve.run(args) == 0
    finally:
        patch.undo()
    return captured


def test_kradan_serve_leaves_the_pings_and_the_proxy_headers_to_uvicorn(
    uvicorn_settings: dict[str, Any],
) -> None:
    """docs/deploy.md counts on uvicorn's own defaults: pings on every socket, and the forwarded
    headers believed from FORWARDED_ALLOW_IPS."""
    import uvicorn

    assert uvicorn_settings.get("ws_ping_interval", 20.0) is not None
    assert uvicorn_settings.get("proxy_headers", True) is True
    assert "forwarded_allow_ips" not in uvicorn_settings
    config = uvicorn.Config("kradan.web.app:app")
    assert config.ws_ping_interval is not None and config.proxy_headers


def test_nginx_passes_every_socket_route_on(
    socket_routes: set[str], uvicorn_settings: dict[str, Any]
) -> None:
    import uvicorn

    ping = uvicorn_settings.get("ws_ping_interval", uvicorn.Config("x:y").ws_ping_interval)
    http = nginx_config((DEPLOY / "nginx.conf").read_text(encoding="utf-8"))
    maps = {each.args[1]: each.block for each in http
            if each.name == "map" and each.args[0] == "$http_upgrade" and each.block}  # fmt: skip
    upgrades = {
        variable
        for variable, block in maps.items()
        if any(entry.name == "default" and entry.args == ["upgrade"] for entry in block)
    }
    upstreams = {each.args[0]: each.block for each in http if each.name == "upstream"}
    servers = [each.block for each in http if each.name == "server" and each.block]
    proxying = [block for block in servers
                if any(each.name == "proxy_pass" for each in every_directive(block))]  # fmt: skip
    assert proxying, "no server passes requests on"
    for server in proxying:
        for route in sorted(socket_routes):
            path = re.sub(r"\{\w+\}", "Xy12_-ab", route)
            location = choose_location(server, path)
            assert location is not None and location.block is not None, route
            levels = (location.block, server, http)
            assert effective("proxy_pass", *levels), route
            assert effective("proxy_http_version", *levels) == [["1.1"]], route
            headers = {args[0].lower(): args[1] for args in effective("proxy_set_header", *levels)}
            assert headers.get("upgrade") == "$http_upgrade", route
            connection = headers.get("connection", "")
            assert connection.lower() == "upgrade" or connection in upgrades, route
            assert headers.get("host") == "$http_host", "the Origin check needs Host's port"
            assert headers.get("x-forwarded-for") == "$proxy_add_x_forwarded_for"
            assert headers.get("x-forwarded-proto") == "$scheme"
            timeout = effective("proxy_read_timeout", *levels)
            assert seconds(timeout[0][0] if timeout else "60s") > ping, route
    targets = {each.args[0] for server in proxying for each in every_directive(server)
               if each.name == "proxy_pass"}  # fmt: skip
    for target in targets:
        name = target.removeprefix("http://")
        members = upstreams[name] if name in upstreams else [Directive("server", [name])]
        assert [each.args for each in members if each.name == "server"] == [["127.0.0.1:8080"]]


def test_caddy_passes_everything_to_the_server() -> None:
    text = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    active = "\n".join(line for line in text.splitlines() if not line.strip().startswith("#"))
    assert re.search(r"^\s*reverse_proxy 127\.0\.0\.1:8080\b", active, re.M)
    assert "encode" not in active, "compression would hold back streamed answers"
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed: its own check of the Caddyfile is skipped")
    done = subprocess.run([caddy, "adapt", "--adapter", "caddyfile", "--config",
                           str(DEPLOY / "Caddyfile")],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "127.0.0.1:8080" in done.stdout


# --- live: the entry point's server, nginx in front of it, the image --------------------------


@dataclass
class Served:
    url: str
    port: int
    allowed: str | None  # the name --allowed-hosts was given, when kradan serve has it


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``kradan serve`` started as the image starts it (its entry point, the settings in the
    environment), on 127.0.0.1; up once the image's health check passes."""
    from benchmarks.loopback import free_port

    binaries = str(Path(sys.executable).parent)
    path = binaries + os.pathsep + os.environ.get("PATH", "")
    if shutil.which("kradan", path=path) is None:
        pytest.skip("the kradan command is not installed (pip install -e '.[web]')")
    folder = tmp_path_factory.mktemp("deploy")
    port = free_port()
    allowed = "play.example.org" if "--allowed-hosts" in serve_options() else None
    environment = dict(os.environ, PATH=path, KRADAN_ENGINES="1")
    if allowed:
        environment["KRADAN_ALLOWED_HOSTS"] = allowed
    log = (folder / "serve.log").open("w")
    process = subprocess.Popen(
        ["sh", str(DEPLOY / "entrypoint.sh"), "kradan", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(folder / "games.db")],
        env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    log.close()
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: healthy(url + "/api/games?limit=1") or process.poll() is not None,
                 120, "the server's health check passing")  # fmt: skip
        assert process.poll() is None, (folder / "serve.log").read_text()[-3000:]
        yield Served(url, port, allowed)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(30)


@dataclass
class Proxy:
    https: str
    http: str
    context: ssl.SSLContext


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (str(path) for path in (Path("/usr/sbin/nginx"),) if path.exists()), None
    )


@pytest.fixture(scope="module")
def proxy(served: Served, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """deploy/nginx.conf run by nginx in front of ``served``: its ports, certificate and
    upstream replaced with local ones, nothing else changed."""
    from benchmarks.loopback import free_port

    nginx, openssl = nginx_binary(), shutil.which("openssl")
    if nginx is None or openssl is None:
        pytest.skip("nginx and openssl are needed to run deploy/nginx.conf (apt-get install "
                    "nginx-light openssl)")  # fmt: skip
    prefix = tmp_path_factory.mktemp("nginx")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=play.example.org", "-keyout", str(prefix / "key.pem"),
                    "-out", str(prefix / "cert.pem")], check=True, capture_output=True)  # fmt: skip
    plain, secure = free_port(), free_port()
    text = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    replacements = {
        "server 127.0.0.1:8080;": f"server 127.0.0.1:{served.port};",
        "listen 80;": f"listen 127.0.0.1:{plain};",
        "listen [::]:80;": "",
        "listen 443 ssl;": f"listen 127.0.0.1:{secure} ssl;",
        "listen [::]:443 ssl;": "",
        "/etc/letsencrypt/live/play.example.org/fullchain.pem": str(prefix / "cert.pem"),
        "/etc/letsencrypt/live/play.example.org/privkey.pem": str(prefix / "key.pem"),
    }
    for old, new in replacements.items():
        assert text.count(old) == 1, f"deploy/nginx.conf changed: {old!r}"
        text = text.replace(old, new)
    (prefix / "kradan.conf").write_text(text)
    temporary = prefix / "temp"
    temporary.mkdir()
    temporary.chmod(0o777)  # nginx's workers may run as another user
    (prefix / "nginx.conf").write_text(f"""
daemon off;
pid {prefix}/nginx.pid;
error_log {prefix}/error.log;
events {{}}
http {{
    access_log off;
    client_body_temp_path {temporary}/body;
    proxy_temp_path {temporary}/proxy;
    fastcgi_temp_path {temporary}/fastcgi;
    uwsgi_temp_path {temporary}/uwsgi;
    scgi_temp_path {temporary}/scgi;
    include {prefix}/kradan.conf;
}}
""")
    process = subprocess.Popen([nginx, "-p", str(prefix), "-e", str(prefix / "error.log"),
                                "-c", str(prefix / "nginx.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip

    def listening() -> bool:
        if process.poll() is not None:
            return True
        try:
            socket.create_connection(("127.0.0.1", secure), timeout=1).close()
        except OSError:
            return False
        return True

    try:
        wait_for(listening, 30, "nginx listening")
        if process.poll() is not None:
            errors = process.stderr.read().decode() if process.stderr else ""
            log = prefix / "error.log"
            pytest.fail(f"nginx stopped: {errors}{log.read_text() if log.exists() else ''}")
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        yield Proxy(f"https://127.0.0.1:{secure}", f"http://127.0.0.1:{plain}", context)
    finally:
        process.terminate()
        process.wait(30)


def through(proxy: Proxy, method: str, path: str, body: Any = None,
            headers: dict[str, str] | None = None) -> tuple[int, Any, Any]:  # fmt: skip
    """A request through nginx: its status, headers and JSON body."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(proxy.https + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    request.add_header("origin", proxy.https)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30, context=proxy.context) as answer:
            return answer.status, answer.headers, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, json.loads(error.read() or b"null")


def test_nginx_serves_the_api_and_sends_plain_http_to_https(proxy: Proxy) -> None:
    status, _, body = through(proxy, "GET", "/api/games?limit=1")
    assert status == 200 and "games" in body

    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        urllib.request.build_opener(Stay).open(proxy.http + "/api/games", timeout=10)
        pytest.fail("plain HTTP was answered")
    except urllib.error.HTTPError as error:
        assert error.code == 301 and error.headers["Location"].startswith("https://")


def test_the_origin_check_and_secure_cookies_work_through_nginx(proxy: Proxy) -> None:
    """Host with its port reaches the server (a POST from the server's own page passes the
    Origin check), and X-Forwarded-Proto makes the session cookie Secure."""
    status, _, game = through(proxy, "POST", "/api/games",
                              {"variant": "makruk", "opponent": "engine", "level": 1})  # fmt: skip
    assert status in (200, 201), game
    account = {"username": "deployed", "password": "a long password"}
    status, headers, _ = through(proxy, "POST", "/api/accounts", account)
    assert status == 201
    cookie = headers["Set-Cookie"]
    assert "kradan_session=" in cookie and "Secure" in cookie, cookie
    status, _, _ = through(proxy, "POST", "/api/games", {"variant": "makruk"},
                           {"origin": "https://another.example"})  # fmt: skip
    assert status == 403


def test_every_socket_opens_through_nginx(proxy: Proxy, socket_routes: set[str]) -> None:
    from websockets.sync.client import connect

    status, _, game = through(proxy, "POST", "/api/games",
                              {"variant": "makruk", "opponent": "engine", "level": 1})  # fmt: skip
    assert status in (200, 201), game
    secure = proxy.https.replace("https://", "wss://")
    for route in sorted(socket_routes):
        path = route.replace("{game_id}", game["id"])
        query = "?room=spectators" if "/chat/" in route else ""
        with connect(secure + path + query, ssl=proxy.context, origin=proxy.https,
                     open_timeout=20) as socket_:  # fmt: skip
            if route == "/api/games/{game_id}/socket":
                message = json.loads(socket_.recv(timeout=20))
                assert message["type"] == "game" and message["game"]["id"] == game["id"]


def test_the_allowed_host_passes_nginx_and_another_is_refused(proxy: Proxy, served: Served) -> None:
    if served.allowed is None:
        pytest.skip("kradan serve has no --allowed-hosts yet")
    import http.client

    answers = {}
    for host in (served.allowed, "elsewhere.example"):
        connection = http.client.HTTPSConnection(proxy.https.removeprefix("https://"),
                                                 context=proxy.context, timeout=30)  # fmt: skip
        connection.request("GET", "/api/games?limit=1", headers={"Host": host})
        answers[host] = connection.getresponse().status
        connection.close()
    assert answers[served.allowed] == 200
    assert 400 <= answers["elsewhere.example"] < 500
