"""``/docs`` served from the package (issue 46: it loaded Swagger UI from a CDN, so it failed
offline): the page names only this server's files, they are served, the policy names no other
site, ``/redoc`` is not offered, and in Chromium the page renders the API's operations with
every request to another host blocked and no violation of its Content Security Policy."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import ROOT, Page, needs_browser, wait_until

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from kradan.web.server import DOCS_FILES

from .web_helpers import database_url, serving

#: what board-bundle/build.mjs copies from swagger-ui-dist, and nothing else
SWAGGER_FILES = {
    "swagger-ui-bundle.js",
    "swagger-ui-bundle.js.LICENSE.txt",
    "swagger-ui.css",
    "favicon-32x32.png",
    "LICENSE",
    "NOTICE",
}
STATIC_DOCS = ROOT / "src" / "kradan" / "web" / "static" / "docs"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with serving(database_url(tmp_path_factory.mktemp("docs"))) as client:
        yield client


def test_the_docs_page_names_only_this_servers_files(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    assert not re.search(r"(https?:)?//[a-z]", page.text), "a URL of another site"
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    names = ("swagger-ui.css", "favicon-32x32.png", "swagger-ui-bundle.js")
    assert sorted(sources) == sorted(DOCS_FILES + name for name in names)
    assert "validatorUrl" in page.text and '"validatorUrl": null' in page.text
    policy = page.headers["content-security-policy"]
    assert "http" not in policy and "cdn" not in policy
    script = policy.split("script-src")[1].split(";")[0]
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script
    assert "'sha256-" in script  # the one inline script of the page, by its hash


def test_swagger_uis_files_are_served(client: TestClient) -> None:
    kinds = {"swagger-ui-bundle.js": "text/javascript", "swagger-ui.css": "text/css",
             "favicon-32x32.png": "image/png"}  # fmt: skip
    for name, kind in kinds.items():
        answer = client.get(DOCS_FILES + name)
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(kind)
        assert answer.content == (STATIC_DOCS / name).read_bytes()


def test_the_copy_is_exactly_what_the_build_makes() -> None:
    """board-bundle/build.mjs copies these files of the pinned swagger-ui-dist, with its licence."""
    assert {path.name for path in STATIC_DOCS.iterdir()} == SWAGGER_FILES
    assert "Apache License" in (STATIC_DOCS / "LICENSE").read_text()
    package = json.loads((ROOT / "board-bundle" / "package.json").read_text())
    pinned = package["devDependencies"]["swagger-ui-dist"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", pinned), f"swagger-ui-dist {pinned!r}: pin one version"
    build = (ROOT / "board-bundle" / "build.mjs").read_text()
    assert f"'{pinned}'" in build  # the build checks the version it copies
    for name in SWAGGER_FILES:
        assert f"'{name}'" in build


def test_redoc_is_not_offered(client: TestClient) -> None:
    assert client.get("/redoc").status_code == 404


def test_the_docs_page_passes_the_host_allowlist_and_its_other_guards(tmp_path: Path) -> None:
    from kradan.web import create_app

    with TestClient(create_app(database_url(tmp_path)), base_url="http://localhost:8080") as local:
        answer = local.get("/docs")
        assert answer.status_code == 200
        assert answer.headers["x-frame-options"] == "DENY"
        assert local.get("/docs", headers={"host": "evil.example"}).status_code == 400


@needs_browser
def test_the_docs_page_renders_offline_within_its_policy(page: Page, server: str) -> None:
    """Every request that leaves the server is blocked (and counted); the operations list is
    drawn, and nothing breaks the page's Content Security Policy."""
    left: list[str] = []

    def elsewhere(route: Any) -> None:
        left.append(route.request.url)
        route.abort()

    page.context.route(re.compile(r"^(?!" + re.escape(server) + r"/).*"), elsewhere)
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.on("pageerror", lambda error: console.append(str(error)))
    page.add_init_script(
        "window.__cspViolations = [];"
        "document.addEventListener('securitypolicyviolation', event => {"
        "  window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI); });"
    )
    page.goto(server + "/docs")
    wait_until(page, "document.querySelectorAll('.opblock').length >= 20")
    paths = page.eval_on_selector_all(
        ".opblock-summary-path", "nodes => nodes.map(node => node.dataset.path)"
    )
    assert "/api/games" in paths and "/api/games/{game_id}/moves" in paths
    page.click(".opblock-summary-path[data-path='/api/games/{game_id}']")  # it opens, in place
    wait_until(page, "document.querySelector('.opblock.is-open .parameters')")
    assert page.evaluate("window.__cspViolations") == []
    assert not [text for text in console if "Content Security Policy" in text], console
    assert not [text for text in console if "Failed to load" in text], console
    assert left == []
