"""``kradan admin`` (issue 46's admin role): the first admin is made from the command line, signs
in through the API as an admin, and loses the role again; a bad name, an unknown account and a
missing password are clear errors with exit status 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from kradan.cli.main import main as kradan_main
from tests.web_helpers import PASSWORD, database_url, serving


def main(args: list[str]) -> int:
    """``kradan ARGS`` in a thread of its own (it runs an event loop; Playwright's sync API may
    hold one in this thread when the browser tests run in the same process)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as thread:
        return thread.submit(kradan_main, args).result()


def _session(url: str, username: str) -> dict[str, object]:
    with serving(url) as client:
        answer = client.post("/api/session", json={"username": username, "password": PASSWORD})
        assert answer.status_code == 200, answer.text
        result: dict[str, object] = answer.json()
        return result


def test_the_first_admin_is_made_and_unmade(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = database_url(tmp_path)
    secret = tmp_path / "password.txt"
    secret.write_text(PASSWORD + "\n", encoding="utf-8")
    made = main(["admin", "create-user", "Somchai", "--admin", "--db", url,
                 "--password-file", str(secret)])  # fmt: skip
    assert made == 0 and capsys.readouterr().out.strip() == "created Somchai (admin)"
    assert _session(url, "somchai") == {"username": "Somchai", "admin": True}
    assert main(["admin", "set-admin", "SOMCHAI", "--revoke", "--db", url]) == 0
    assert _session(url, "Somchai") == {"username": "Somchai", "admin": False}
    assert main(["admin", "set-admin", "Somchai", "--db", url]) == 0
    assert _session(url, "Somchai")["admin"] is True


def test_bad_input_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = database_url(tmp_path)
    monkeypatch.setenv("KRADAN_PASSWORD", PASSWORD)
    assert main(["admin", "create-user", "x y", "--db", url]) == 2
    assert "bad username 'x y'" in capsys.readouterr().err
    assert main(["admin", "set-admin", "nobody", "--db", url]) == 2
    assert "no account is named 'nobody'" in capsys.readouterr().err
    assert main(["admin", "create-user", "Nok", "--db", url]) == 0
    assert main(["admin", "create-user", "NOK", "--db", url]) == 2  # taken, in any case
    assert "the username 'NOK' is taken" in capsys.readouterr().err
    monkeypatch.delenv("KRADAN_PASSWORD")
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    assert main(["admin", "create-user", "Dao", "--db", url]) == 2
    assert "KRADAN_PASSWORD" in capsys.readouterr().err
