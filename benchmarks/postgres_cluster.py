"""A throw-away PostgreSQL cluster: ``initdb`` into a temporary folder, a server on 127.0.0.1 (a
free port, its unix socket in that folder), a database per test, and ``pg_ctl stop -m fast``
at the end. Used by the storage tests (the ``postgresql`` fixtures of ``tests/conftest.py``)
and by ``benchmarks/serve_load.py``.

PostgreSQL refuses to run as root: as root, the cluster runs as the ``postgres`` user that
Debian's package makes (or ``nobody``), and its folder belongs to that user.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from benchmarks.loopback import free_port

#: the programs a cluster needs
PROGRAMS = ("initdb", "pg_ctl", "postgres", "createdb")


def find_bindir() -> tuple[Path | None, str]:
    """The folder of PostgreSQL's server programs, or ``None`` and why not.

    ``pg_config --bindir`` first (Debian's ``/usr/bin/pg_config`` names the client folder,
    which lacks ``initdb``), then the newest ``/usr/lib/postgresql/*/bin``.
    """
    candidates: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        try:
            found = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            candidates.append(Path(found))
        except (OSError, subprocess.SubprocessError):
            pass

    def version(path: str) -> tuple[int, ...]:
        name = Path(path).parent.name
        return tuple(int(part) for part in name.split(".") if part.isdigit())

    candidates += [
        Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=version)[::-1]
    ]
    for folder in candidates:
        if all((folder / program).is_file() for program in PROGRAMS):
            return folder, ""
    looked = (
        ", ".join(str(folder) for folder in candidates) or "no pg_config, no /usr/lib/postgresql"
    )
    return None, (
        f"PostgreSQL's server programs ({', '.join(PROGRAMS)}) were not found (looked in: "
        f"{looked}); install them, e.g. apt-get install postgresql"
    )


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as when we are root (``None``: ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError(
        "running as root, and there is no 'postgres' or 'nobody' user to run PostgreSQL as"
    )


class Cluster:
    """A PostgreSQL cluster of its own in a temporary folder. ``durable=False`` turns off
    ``fsync`` (for tests: faster, and a crash of the machine is not what they test)."""

    def __init__(self, bindir: Path, *, durable: bool = False) -> None:
        self.bindir = bindir
        self.durable = durable
        self.user = _server_user()
        self.folder = Path(tempfile.mkdtemp(prefix="kradan-pg-"))
        self.data = self.folder / "data"
        self.sockets = self.folder / "sockets"
        self.log = self.folder / "server.log"
        self.port = 0
        self.role = "kradan"
        self.names = itertools.count()
        self.running = False

    def _run(self, *args: str, timeout: float = 120) -> None:
        extra: dict[str, Any] = {}
        if self.user is not None:
            extra = {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        env = {**os.environ, "LC_ALL": "C", "PGTZ": "UTC"}
        if self.user is not None:
            env["HOME"] = str(self.folder)
        done = subprocess.run(
            args, capture_output=True, text=True, timeout=timeout, env=env, cwd=self.folder, **extra
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(
                f"{' '.join(args)} failed ({done.returncode}): {done.stdout}{done.stderr}{log}"
            )

    def start(self) -> Cluster:
        """``initdb``, then the server on 127.0.0.1 and a free port (waits until it is up)."""
        self.sockets.mkdir()
        if self.user is not None:
            for path in (self.folder, self.sockets):
                os.chown(path, self.user.pw_uid, self.user.pw_gid)
        bin_ = self.bindir
        self._run(str(bin_ / "initdb"), "-D", str(self.data), "-U", self.role, "--auth=trust",
                  "-E", "UTF8", "--no-sync", "--no-instructions")  # fmt: skip
        settings = [
            "-c listen_addresses=127.0.0.1",
            f"-c unix_socket_directories={self.sockets}",
            "-c max_connections=100",
            "-c timezone=UTC",
        ]
        if not self.durable:
            settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        for attempt in range(5):
            self.port = free_port()
            try:
                options = " ".join([f"-p {self.port}", *settings])
                self._run(str(bin_ / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w",
                          "-t", "60", "-o", options, "start")  # fmt: skip
                break
            except RuntimeError:
                if attempt == 4:
                    raise
        self.running = True
        return self

    def new_database(self) -> str:
        """A new empty database; its ``postgresql+asyncpg://`` URL."""
        name = f"kradan_{next(self.names)}"
        self._run(str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
                  "-U", self.role, name)  # fmt: skip
        return self.url(name)

    def url(self, name: str) -> str:
        return f"postgresql+asyncpg://{self.role}@127.0.0.1:{self.port}/{name}"

    def stop(self) -> None:
        """``pg_ctl stop -m fast`` and the folder removed."""
        try:
            if self.running:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-w", "-m", "fast",
                          "stop")  # fmt: skip
                self.running = False
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


__all__ = ["Cluster", "find_bindir"]
