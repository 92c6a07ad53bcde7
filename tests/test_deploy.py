"""The deployment files of the image and the services (issue 47 item 4, docs/deploy.md) hold
what they promise.

- the Dockerfile: a pinned base, the dependencies installed before the sources, a user of its
  own, the data volume, numba's cache in it, a health check against ``/api/games?limit=1``, the
  command ``kradan serve`` takes; the build context holds what it copies and no more;
- the compose files: pinned images, health checks, named volumes, a memory limit, the port on
  the host's loopback, the database password from ``deploy/.env`` and nowhere else;
- the systemd unit: its keys, a command ``kradan serve`` takes with the example's settings, a
  writable data folder under ``ProtectSystem=strict`` (and ``systemd-analyze verify`` where it
  runs);
- the image's entry point adds the settings of its environment to ``kradan serve``.

Where a Docker daemon answers, the image is built and run until its health check passes.
tests/test_deploy_proxy.py checks the reverse proxies.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.deploy_support import DEPLOY, ROOT, parse_serve, wait_for

COMPOSE_FILES = ("compose.sqlite.yml", "compose.postgresql.yml")


# --- the Dockerfile ---------------------------------------------------------------------------


@dataclass
class Instruction:
    keyword: str
    value: str


def dockerfile(path: Path = ROOT / "Dockerfile") -> list[Instruction]:
    """The Dockerfile's instructions, continuation lines joined and comments dropped."""
    instructions: list[Instruction] = []
    pending = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        keyword, _, value = (pending + stripped).partition(" ")
        instructions.append(Instruction(keyword.upper(), value.strip()))
        pending = ""
    assert not pending, "the Dockerfile ends in a continuation"
    return instructions


def stages(instructions: list[Instruction]) -> list[list[Instruction]]:
    """The build stages, each beginning with its FROM."""
    found: list[list[Instruction]] = []
    for instruction in instructions:
        if instruction.keyword == "FROM":
            found.append([])
        assert found, "an instruction before the first FROM"
        found[-1].append(instruction)
    return found


def exec_form(value: str) -> list[str]:
    """A JSON array (exec form) of CMD, ENTRYPOINT or HEALTHCHECK's CMD."""
    words = json.loads(value)
    assert isinstance(words, list) and all(isinstance(word, str) for word in words), value
    return words


def test_the_base_images_are_pinned_by_tag() -> None:
    froms = [each.value.split() for each in dockerfile() if each.keyword == "FROM"]
    assert len(froms) >= 1
    for words in froms:
        image = next(word for word in words if not word.startswith("--"))
        tag = image.partition(":")[2]
        assert tag and tag != "latest" and "$" not in image, f"unpinned base image {image}"
    final = next(word for word in froms[-1] if not word.startswith("--"))
    assert final.startswith("python:3.11-slim"), final


def test_the_dependencies_are_installed_before_the_sources() -> None:
    build = stages(dockerfile())[0]

    def first(predicate: Any) -> int:
        return next(index for index, each in enumerate(build) if predicate(each))

    metadata = first(lambda each: each.keyword == "COPY" and "pyproject.toml" in each.value)
    requirements = first(lambda each: each.keyword == "RUN" and "pip install -r" in each.value)
    sources = first(lambda each: each.keyword == "COPY" and each.value.split()[0] == "src")
    install = first(lambda each: each.keyword == "RUN" and "pip install '.[web]'" in each.value)
    assert metadata < requirements < sources < install
    assert "src" not in build[metadata].value.split()


def test_the_requirements_step_lists_every_dependency(tmp_path: Path) -> None:
    """The shell of the first pip step, run on pyproject.toml, lists kradan's dependencies and
    the web extra's (the layer that a change of the sources keeps)."""
    import tomllib

    step = next(each.value for each in dockerfile() if each.keyword == "RUN" and "-r" in each.value)
    listing = step.split("&&")[0].replace("/tmp/requirements.txt", str(tmp_path / "req.txt"))
    assert listing.startswith("python -c ")
    listing = shlex.quote(sys.executable) + listing.removeprefix("python")
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    done = subprocess.run(["sh", "-c", listing], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    listed = (tmp_path / "req.txt").read_text(encoding="utf-8").splitlines()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert listed == project["dependencies"] + project["optional-dependencies"]["web"]
    assert any(line.startswith("numba") for line in listed)
    assert any(line.startswith("fastapi") for line in listed)


def test_the_image_runs_as_a_user_of_its_own() -> None:
    final = stages(dockerfile())[-1]
    users = [index for index, each in enumerate(final) if each.keyword == "USER"]
    assert users, "the image runs as root"
    user = final[users[-1]].value.split(":")[0]
    assert user not in ("root", "0")
    made = [each.value for each in final[: users[-1]] if each.keyword == "RUN"]
    assert any(re.search(rf"useradd\b.*\b{user}\b", run) for run in made), "no useradd"
    assert any(re.search(rf"chown\b.*\b{user}\b.*/data\b", run) for run in made)
    starts = [i for i, each in enumerate(final) if each.keyword in ("CMD", "ENTRYPOINT")]
    assert starts and min(starts) > users[-1]


def test_the_image_serves_from_its_data_volume() -> None:
    final = stages(dockerfile())[-1]
    keywords = {each.keyword: each.value for each in final}
    assert exec_form(keywords["VOLUME"]) == ["/data"]
    assert keywords["EXPOSE"] == "8080"
    command = exec_form(keywords["CMD"])
    assert command == ["kradan", "serve", "--host", "0.0.0.0", "--port", "8080",
                       "--db", "/data/games.db"]  # fmt: skip
    args = parse_serve(command[1:])
    assert (args.port, args.db) == (8080, "/data/games.db")
    entry = exec_form(keywords["ENTRYPOINT"])
    assert entry[0] == "/bin/sh" and entry[1].endswith("entrypoint.sh")
    environment = " ".join(each.value for each in final if each.keyword == "ENV")
    assert re.search(r"\bNUMBA_CACHE_DIR=/data/", environment), "numba needs a writable cache"


def test_the_health_check_asks_for_a_game_with_python() -> None:
    final = stages(dockerfile())[-1]
    check = next(each.value for each in final if each.keyword == "HEALTHCHECK")
    options, _, command = check.partition("CMD ")
    assert re.search(r"--start-period=\d+s", options) and re.search(r"--timeout=\d+s", options)
    words = exec_form(command)
    assert words[0] == "python", "the slim image has no curl"
    copied = {each.value.split()[-1]: each.value.split()[0] for each in final
              if each.keyword == "COPY" and not each.value.startswith("--from")}  # fmt: skip
    source = ROOT / copied[words[1]]
    assert source == DEPLOY / "healthcheck.py"
    text = source.read_text(encoding="utf-8")
    assert 'URL = "http://127.0.0.1:8080/api/games?limit=1"' in text
    ours = re.search(r"^TIMEOUT = ([\d.]+)", text, re.M)
    docker = re.search(r"--timeout=(\d+)s", options)
    assert ours and docker and float(ours[1]) < float(docker[1])


def test_the_health_check_fails_where_nothing_answers() -> None:
    from benchmarks.loopback import free_port

    url = f"http://127.0.0.1:{free_port()}/api/games?limit=1"
    done = subprocess.run([sys.executable, str(DEPLOY / "healthcheck.py")],
                          env=dict(os.environ, KRADAN_HEALTHCHECK_URL=url),
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 1
    assert url in done.stderr


def dockerignore_excludes(path: str, patterns: list[str]) -> bool:
    """Whether Docker leaves ``path`` out of the build context: the last pattern that matches it
    or one of its folders decides (``!`` keeps), as moby's patternmatcher does."""

    def regex(pattern: str) -> re.Pattern[str]:
        out = ""
        index = 0
        while index < len(pattern):
            if pattern.startswith("**/", index):
                out, index = out + "(.*/)?", index + 3
            elif pattern.startswith("**", index):
                out, index = out + ".*", index + 2
            elif pattern[index] == "*":
                out, index = out + "[^/]*", index + 1
            elif pattern[index] == "?":
                out, index = out + "[^/]", index + 1
            else:
                out, index = out + re.escape(pattern[index]), index + 1
        return re.compile(out)

    parts = path.split("/")
    candidates = [path] + ["/".join(parts[: i + 1]) for i in range(len(parts) - 1)]
    excluded = False
    for pattern in patterns:
        keep = pattern.startswith("!")
        cleaned = os.path.normpath(pattern.lstrip("!").strip("/"))
        if any(regex(cleaned).fullmatch(each) for each in candidates):
            excluded = not keep
    return excluded


def test_the_build_context_holds_what_the_image_copies() -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]  # fmt: skip
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()  # fmt: skip
    copied = [each.value.split()[:-1] for each in dockerfile() if each.keyword == "COPY"
              and not each.value.startswith("--from")]  # fmt: skip
    needed = {source for sources in copied for source in sources}
    for path in tracked:
        top = path.split("/")[0]
        wanted = path in needed or top in needed
        assert dockerignore_excludes(path, patterns) != wanted, path
    assert "src/kradan/web/static/js/socket.js" in tracked  # the package data goes in too
    for name in ("x/__pycache__/a.cpython-311.pyc", "src/kradan/_core/__pycache__/f.nbi"):
        assert dockerignore_excludes(name, patterns)


# --- the compose files ------------------------------------------------------------------------


def compose(name: str) -> dict[str, Any]:
    yaml = pytest.importorskip("yaml", reason="PyYAML reads the compose files (the docs extra)")
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / name).read_text(encoding="utf-8"))
    return loaded


def env_example(path: Path) -> tuple[dict[str, str], set[str]]:
    """An example env file's settings: those set, and the names only shown (``#NAME=``)."""
    values: dict[str, str] = {}
    shown: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if match := re.fullmatch(r"([A-Z_][A-Z0-9_]*)=(.*)", line):
            values[match[1]] = match[2]
        elif match := re.fullmatch(r"#([A-Z_][A-Z0-9_]*)=.*", line):
            shown.add(match[1])
    return values, shown


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_compose_service_is_pinned_limited_and_restarted(name: str) -> None:
    services = compose(name)["services"]
    assert "kradan" in services
    for service_name, service in services.items():
        image = service["image"]
        tag = image.rpartition(":")[2]
        assert ":" in image and tag != "latest", f"{service_name}: unpinned image {image}"
        assert service["restart"] == "unless-stopped"
        memory = service["deploy"]["resources"]["limits"]["memory"]
        assert re.fullmatch(r"(\$\{[A-Z_]+:-)?\d+[MG]\}?", memory), memory
    kradan = services["kradan"]
    assert (DEPLOY / kradan["build"]["context"] / "Dockerfile").is_file()
    assert kradan["init"] is True
    assert all(port.startswith("127.0.0.1:") for port in kradan["ports"]), kradan["ports"]
    assert {port.rsplit(":", 1)[1] for port in kradan["ports"]} == {"8080"}


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_every_compose_volume_is_named_and_kradan_keeps_data(name: str) -> None:
    loaded = compose(name)
    declared = set(loaded["volumes"])
    used = set()
    for service in loaded["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            assert not source.startswith((".", "/")), f"a bind mount: {volume}"
            used.add(source)
    assert used == declared
    assert "kradan-data:/data" in loaded["services"]["kradan"]["volumes"]


def test_postgresql_is_healthy_before_kradan_starts() -> None:
    services = compose("compose.postgresql.yml")["services"]
    db, kradan = services["db"], services["kradan"]
    assert re.fullmatch(r"postgres:17(\.\d+)?(-\w+)?", db["image"]), db["image"]
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert kradan["depends_on"] == {"db": {"condition": "service_healthy"}}
    url = kradan["environment"]["KRADAN_DB"]
    from kradan.web.storage import database_url

    assert database_url(url) == url and url.startswith("postgresql+asyncpg://kradan@db:")
    assert "@" in url and ":" not in url.split("://")[1].split("@")[0], "a password in the URL"


def test_the_database_password_comes_from_the_env_file_alone() -> None:
    services = compose("compose.postgresql.yml")["services"]
    required = re.compile(r"\$\{KRADAN_DB_PASSWORD:\?[^}]+\}")
    assert required.fullmatch(services["db"]["environment"]["POSTGRES_PASSWORD"])
    assert required.fullmatch(services["kradan"]["environment"]["PGPASSWORD"])
    values, _ = env_example(DEPLOY / "docker.env.example")
    assert values["KRADAN_DB_PASSWORD"] == "", "a password committed in the example"
    ignored = (DEPLOY / ".gitignore").read_text(encoding="utf-8").split()
    assert ".env" in ignored


@pytest.mark.parametrize("name", COMPOSE_FILES)
def test_the_env_example_names_every_setting_of_the_compose_file(name: str) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    values, shown = env_example(DEPLOY / "docker.env.example")
    for variable, how in re.findall(r"\$\{([A-Z_][A-Z0-9_]*)(:[?-])?", text):
        assert variable in values or variable in shown, f"{variable} is not in the example"
        if how == ":?":
            assert variable in values, f"{variable} is required: the example must set it"


# --- the systemd unit -------------------------------------------------------------------------


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(DEPLOY / "kradan.service", encoding="utf-8")
    return parser


def exec_start(settings: dict[str, str]) -> list[str]:
    """The unit's ExecStart, its ``${NAME}`` filled in from ``settings``."""
    line = unit()["Service"]["ExecStart"].replace("\\\n", " ")
    missing = set(re.findall(r"\$\{(\w+)\}", line)) - set(settings)
    assert not missing, f"ExecStart uses {missing}, which the example env file does not set"
    return shlex.split(re.sub(r"\$\{(\w+)\}", lambda match: settings[match[1]], line))


def test_the_unit_runs_as_its_user_and_restarts() -> None:
    parsed = unit()
    service, section = parsed["Service"], parsed["Unit"]
    assert service["User"] == "kradan"
    assert service["EnvironmentFile"] == "/etc/kradan/kradan.env"
    assert service["Restart"] == "on-failure"
    assert "network-online.target" in section["After"].split()
    assert "network-online.target" in section["Wants"].split()
    assert parsed["Install"]["WantedBy"] == "multi-user.target"
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict",
                       "PrivateTmp": "yes", "ProtectHome": "yes"}.items():  # fmt: skip
        assert service[key] == value, key
    assert "MemoryDenyWriteExecute" not in service, "numba compiles machine code at run time"


def test_the_units_command_is_one_kradan_serve_takes() -> None:
    values, _ = env_example(DEPLOY / "kradan.env.example")
    argv = exec_start(values)
    assert argv[0] == "/opt/kradan/venv/bin/kradan" and argv[1] == "serve"
    args = parse_serve(argv[1:])
    assert args.host == "127.0.0.1" and args.port == 8080
    assert "--allowed-hosts" in argv and "--db" in argv


def test_the_units_data_and_cache_folders_are_writable() -> None:
    """Under ProtectSystem=strict only the service's own folders can be written: the example's
    database must be in one of them, and numba's cache in another."""
    service = unit()["Service"]
    writable = [Path("/var/lib") / service["StateDirectory"]]
    writable += [Path(path.lstrip("-")) for path in service.get("ReadWritePaths", "").split()]
    values, _ = env_example(DEPLOY / "kradan.env.example")
    database = Path(values["KRADAN_DB"])
    assert any(folder in database.parents for folder in writable), database
    environment = dict(item.split("=", 1) for item in shlex.split(service["Environment"]))
    cache = Path("/var/cache") / service["CacheDirectory"]
    assert cache in Path(environment["NUMBA_CACHE_DIR"]).parents
    assert "KRADAN_ALLOWED_HOSTS" in values and "KRADAN_ENGINES" in values


def test_systemd_reads_the_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None or not Path("/usr/lib/systemd/system/sysinit.target").exists():
        pytest.skip("systemd-analyze and systemd's units are not installed")
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    shutil.copy(DEPLOY / "kradan.service", root / "etc/systemd/system")
    program = root / "opt/kradan/venv/bin/kradan"  # ExecStart's program must exist
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    done = subprocess.run([analyze, "verify", f"--root={root}",
                           "/etc/systemd/system/kradan.service"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    if "unrecognized option" in done.stderr:
        pytest.skip(f"this systemd-analyze has no --root: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr
    assert "kradan.service" not in done.stderr, done.stderr  # an unknown key, a bad value


# --- the entry point --------------------------------------------------------------------------


def entrypoint(tmp_path: Path, command: list[str], **environment: str) -> list[str]:
    """The command the image's entry point runs for ``command``, with a stand-in ``kradan``
    that prints the arguments it gets."""
    fake = tmp_path / "bin" / "kradan"
    fake.parent.mkdir(exist_ok=True)
    fake.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    fake.chmod(0o755)
    env = {"PATH": f"{fake.parent}{os.pathsep}/usr/bin:/bin", **environment}
    done = subprocess.run(["sh", str(DEPLOY / "entrypoint.sh"), *command], env=env,
                          capture_output=True, text=True, timeout=30, check=True)  # fmt: skip
    printed: list[str] = json.loads(done.stdout)
    return printed


def test_the_entrypoint_adds_the_environments_settings(tmp_path: Path) -> None:
    command = ["kradan", "serve", "--host", "0.0.0.0", "--port", "8080", "--db", "/data/games.db"]
    assert entrypoint(tmp_path, command) == command[1:]
    added = entrypoint(tmp_path, command, KRADAN_DB="postgresql+asyncpg://kradan@db/kradan",
                       KRADAN_ALLOWED_HOSTS="play.example.org,club.local",
                       KRADAN_ENGINES="3", KRADAN_INTERNAL_URL="http://10.0.0.5:8080")  # fmt: skip
    assert added == [
        *command[1:],
        *("--db", "postgresql+asyncpg://kradan@db/kradan"),
        *("--allowed-hosts", "play.example.org,club.local"),
        *("--engines", "3"),
        *("--internal-url", "http://10.0.0.5:8080"),
    ]
    args = parse_serve(added)
    assert args.db.startswith("postgresql") and args.engines == 3  # the last --db counts
    assert args.internal_url == "http://10.0.0.5:8080"
    assert entrypoint(tmp_path, command, KRADAN_ALLOWED_HOSTS="") == command[1:]
    other = ["kradan", "admin", "create-user", "kanya", "--admin"]
    assert entrypoint(tmp_path, other, KRADAN_ALLOWED_HOSTS="x.org") == other[1:]


# --- the image, built and run -------------------------------------------------------------------


def docker_unusable() -> str | None:
    """Why the image cannot be built here, or ``None``."""
    if shutil.which("docker") is None:
        return "docker is not installed"
    done = subprocess.run(["docker", "info"], capture_output=True, text=True, timeout=60)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return f"the Docker daemon does not answer ({lines[-1] if lines else done.returncode})"
    return None


def test_the_image_builds_runs_and_turns_healthy() -> None:
    reason = docker_unusable()
    if reason is not None:
        pytest.skip(f"{reason}: build it with `docker build -t kradan:0.1.0 .` (docs/deploy.md)")
    tag = "kradan:test-deploy"
    built = subprocess.run(["docker", "build", "-t", tag, str(ROOT)], capture_output=True,
                           text=True, timeout=1800)  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    started = subprocess.run(["docker", "run", "-d", "--init", "-p", "127.0.0.1::8080",
                              "-e", "KRADAN_ENGINES=1", tag],
                             capture_output=True, text=True, check=True)  # fmt: skip
    container = started.stdout.strip()
    try:

        def state() -> str:
            command = ["docker", "inspect", "-f", "{{.State.Health.Status}}", container]
            return subprocess.run(command, capture_output=True, text=True).stdout.strip()

        wait_for(lambda: state() in ("healthy", "unhealthy"), 300, "the health check's verdict")
        assert state() == "healthy"
        user = subprocess.run(["docker", "exec", container, "id", "-u"], capture_output=True,
                              text=True, check=True).stdout.strip()  # fmt: skip
        assert user != "0"
        ports = subprocess.run(["docker", "port", container, "8080"], capture_output=True,
                               text=True, check=True).stdout  # fmt: skip
        port = ports.split()[0].rsplit(":", 1)[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games?limit=1") as answer:
            assert answer.status == 200
        admin = ["kradan", "admin", "create-user", "kanya", "--admin", "--db", "/data/games.db"]
        made = subprocess.run(["docker", "exec", "-e", "KRADAN_PASSWORD=a long password",
                               container, *admin], capture_output=True, text=True)  # fmt: skip
        assert made.returncode == 0, made.stderr
    finally:
        subprocess.run(["docker", "rm", "-f", container], capture_output=True)
