"""The ``ray`` backend: each task a Ray task of one CPU, on a cluster or on a Ray instance that
this process starts on the local cores.

Ray is an optional extra (``pip install 'kradan[ray]'``): it adds about 260 MB and idles at
about 600 MB, too much for everyone who plays on one machine. What travels over the wire is the
task's function, by name (kradan must be installed at the same path on every node), and its
item, pickled: a match's game description or a PGN chunk's file offsets, never a file's text.

Ray's own task retries are off (``max_retries=0``): a lost worker comes back as an error that
:func:`~kradan.executors.run_tasks` counts and submits again, the same way on both backends.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

from ..errors import ExecutorError
from .base import Executor
from .warm import call_warm

T = TypeVar("T")
R = TypeVar("R")

#: the object store of a Ray instance started here: tasks pass small items and results only
LOCAL_OBJECT_STORE = 128 * 2**20


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as error:
        raise ExecutorError(
            f"the ray executor needs Ray: pip install 'kradan[ray]' ({error})"
        ) from error
    return ray


def _use_token_if_any() -> None:
    """Ray 2.60's ``ray start`` turns token authentication on and saves the token in
    ~/.ray/auth_token; a driver that names the cluster's address must then say so."""
    if "RAY_AUTH_MODE" in os.environ:
        return
    token_file = os.environ.get("RAY_AUTH_TOKEN_PATH") or str(Path.home() / ".ray" / "auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or Path(token_file).is_file():
        os.environ["RAY_AUTH_MODE"] = "token"


#: seconds to wait for the cluster's port to answer before giving up on it
CONNECT_TIMEOUT = 10.0


def _check_reachable(address: str) -> None:
    """Fail at once on a ``[ray://]HOST:PORT`` nobody listens on (Ray itself keeps trying for
    minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdecimal():
        return  # "auto", or a form Ray knows better
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as error:
        raise ExecutorError(
            f"cannot reach the Ray cluster at {address!r}: nothing answers there ({error})"
        ) from error


class RayExecutor(Executor):
    """Tasks on the Ray cluster at ``address`` (or ``RAY_ADDRESS``), or on a Ray instance of
    ``workers`` CPUs started here when neither names one."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int = 1) -> None:
        super().__init__()
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        # Ray reads these when it is imported
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        if self.address:
            _use_token_if_any()
        else:  # a private instance: keep it on loopback (docs/cluster.md)
            os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        ray = self.ray = _import_ray()
        env_vars = {"RAY_USAGE_STATS_ENABLED": "0"}
        if os.environ.get("NUMBA_CACHE_DIR"):  # a path each node has: see docs/cluster.md
            env_vars["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]
        self.started_here = not ray.is_initialized()
        if self.started_here:
            try:
                if self.address:
                    _check_reachable(self.address)
                    ray.init(address=self.address, log_to_driver=False,
                             logging_level=logging.WARNING,
                             runtime_env={"env_vars": env_vars})  # fmt: skip
                else:
                    # "local": a new instance, even where a cluster runs on this machine
                    ray.init(address="local", num_cpus=workers, include_dashboard=False,
                             log_to_driver=False, object_store_memory=LOCAL_OBJECT_STORE,
                             logging_level=logging.ERROR,
                             runtime_env={"env_vars": env_vars})  # fmt: skip
            except (ConnectionError, RuntimeError, ValueError) as error:
                what = f"reach the Ray cluster at {self.address!r}" if self.address else "start Ray"
                raise ExecutorError(f"cannot {what}: {error}") from error
        self._task = ray.remote(num_cpus=1, max_retries=0)(call_warm)
        self._refs: dict[Future[Any], Any] = {}
        self._lost = tuple(
            getattr(ray.exceptions, name)
            for name in ("WorkerCrashedError", "NodeDiedError", "OwnerDiedError",
                         "ObjectLostError", "LocalRayletDiedError", "RaySystemError")
            if hasattr(ray.exceptions, name)
        )  # fmt: skip

    @property
    def slots(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def submit(self, function: Callable[[T], R], item: T) -> Future[R]:
        ref = self._task.remote(function, item)
        future: Future[R] = ref.future()
        self._refs[future] = ref
        future.add_done_callback(self._forget)
        return future

    def _forget(self, future: Future[Any]) -> None:
        self._refs.pop(future, None)

    def is_worker_loss(self, error: BaseException) -> bool:
        return isinstance(error, self._lost)

    def cancel(self, futures: list[Future[Any]]) -> None:
        for future in futures:
            ref = self._refs.pop(future, None)
            if ref is not None:
                # it may have finished already, or the cluster may be gone
                with contextlib.suppress(Exception):
                    self.ray.cancel(ref, force=True)
            future.cancel()

    def nodes(self) -> int:
        return sum(1 for node in self.ray.nodes() if node.get("Alive"))

    def describe(self) -> str:
        where = f"the Ray cluster at {self.address}" if self.address else "Ray on this machine"
        nodes = self.nodes()
        cpus = self.slots
        nodes_text = f"{nodes} node{'s' if nodes != 1 else ''}"
        return f"{where}: {nodes_text}, {cpus} CPU{'s' if cpus != 1 else ''}"

    def shutdown(self) -> None:
        if self.started_here and self.ray.is_initialized():
            self.ray.shutdown()
