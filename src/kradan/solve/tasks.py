"""The work split of ``kradan solve alquerque-bell``: the positions a few plies below the root
are tasks for an executor (:mod:`kradan.executors`); a task that spends its node budget
unproven is split into the positions after each of its moves for the next round. The driver
keeps the tree above the tasks, combines their values (a win when some move leads to a lost
position, a loss when every move leads to a won one) and saves the positions it proves, so
that the checker can walk from the root down into the tasks' proofs.

Every task writes its own proof file into the shared database directory (on a cluster, a
directory every node mounts at the same path).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ..alquerque import Board
from ..executors import Executor, run_tasks
from .dfpn import INF
from .keys import text_key
from .proofdb import ProofDatabase, ProofWriter, pack
from .solver import Solver, require_bell

VARIANT = "alquerque-bell"


@dataclass(frozen=True)
class SolveTask:
    """One position to solve in a worker, with its node budget."""

    text: str
    directory: str
    max_nodes: int
    chunk: int
    table_bits: int


@dataclass(frozen=True)
class TaskResult:
    """What a task proved (``win`` None: its budget ran out) and what it spent."""

    key: int
    win: bool | None
    phi: int
    delta: int
    nodes: int
    saved: int
    seconds: float


def solve_task(task: SolveTask) -> TaskResult:
    """Solve one position (in a worker), saving into a proof file of its own."""
    board = Board(task.text, variant=VARIANT)
    database = ProofDatabase(task.directory)
    key = text_key(task.text)
    writer = database.writer(f"task-{key:016x}-{os.getpid()}-{time.time_ns() % 10**9}")
    try:
        solver = Solver(database, writer, table_bits=task.table_bits)
        found = solver.solve(board, max_nodes=task.max_nodes, chunk=task.chunk)
    finally:
        writer.close()
    return TaskResult(key, found.win, found.phi, found.delta, found.nodes, found.saved,
                      found.seconds)  # fmt: skip


@dataclass
class Node:
    """A position of the driver's tree: its children (move code, key) once split."""

    text: str
    key: int
    depth: int
    children: list[tuple[int, int]] | None = None
    win: bool | None = None
    move: int = 0
    phi: int = 1
    delta: int = 1
    parents: list[int] = field(default_factory=list)
    ran: bool = False  # searched as a task


@dataclass(frozen=True)
class Report:
    """A progress line's numbers."""

    proven: int
    nodes: int
    seconds: float
    root_phi: int
    root_delta: int
    tasks_done: int
    tasks: int

    def line(self) -> str:
        rate = self.nodes / self.seconds if self.seconds > 0 else 0.0

        def number(value: int) -> str:
            return "inf" if value >= INF else f"{value:,}"

        return (f"proven {self.proven:,} positions  {self.nodes:,} nodes  {rate:,.0f} nodes/s  "
                f"root proof/disproof {number(self.root_phi)}/{number(self.root_delta)}  "
                f"tasks {self.tasks_done}/{self.tasks}  {self.seconds:.0f} s")  # fmt: skip


class Driver:
    """The tree from ``root`` down to the tasks, over the database in ``directory``."""

    def __init__(self, root: Board, directory: str, *, split_depth: int, max_nodes: int,
                 chunk: int = 1_000_000, table_bits: int = 22) -> None:  # fmt: skip
        require_bell(root)
        self.directory = directory
        self.database = ProofDatabase(directory)
        self.max_nodes = max_nodes
        self.chunk = chunk
        self.table_bits = table_bits
        self.nodes: dict[int, Node] = {}
        self.root = self._node(root.text(), 0)
        self.proven = len(self.database)
        self.searched = 0
        self._writer: ProofWriter | None = None
        frontier = [self.root]
        for _ in range(split_depth):
            frontier = [child for node in frontier for child in self.split(node)]

    def _node(self, text: str, depth: int) -> Node:
        key = text_key(text)
        node = self.nodes.get(key)
        if node is None:
            node = self.nodes[key] = Node(text, key, depth)
            entry = self.database.get(key)
            if entry is not None:
                node.win, node.move = entry.win, entry.move
                node.phi, node.delta = (0, INF) if entry.win else (INF, 0)
            else:
                board = Board(text, variant=VARIANT)
                if board.outcome() is not None:  # no move: the side to move has lost
                    node.win, node.phi, node.delta = False, INF, 0
        return node

    def split(self, node: Node) -> list[Node]:
        """The children of ``node`` (made once), unless it is decided already."""
        if node.win is not None:
            return []
        if node.children is None:
            board = Board(node.text, variant=VARIANT)
            node.children = []
            for move in list(board.legal_moves):
                code = board.encode_move(move)
                board.push(move)
                child = self._node(board.text(), node.depth + 1)
                board.pop()
                child.parents.append(node.key)
                node.children.append((int(code or 0), child.key))
        return [self.nodes[key] for _, key in node.children]

    def leaves(self) -> list[Node]:
        """The undecided positions without children below the root: the next tasks."""
        found: dict[int, Node] = {}

        def walk(node: Node) -> None:
            if node.win is not None or node.key in found:
                return
            if node.children is None:
                found[node.key] = node
                return
            for _, key in node.children:
                walk(self.nodes[key])

        walk(self.root)
        return list(found.values())

    def settle(self, node: Node) -> None:
        """Recompute ``node``'s numbers from its children, then its parents'."""
        if node.children is not None and node.win is None:
            phi, delta, winning = INF, 0, 0
            for code, key in node.children:
                child = self.nodes[key]
                if child.delta < phi:
                    phi, winning = child.delta, code
                delta = INF if child.phi >= INF or delta >= INF else min(delta + child.phi, INF - 1)
            node.phi, node.delta = phi, delta
            if phi == 0 or delta == 0:
                node.win = phi == 0
                node.move = winning if node.win else 0
                self._save(node)
        for parent in node.parents:
            self.settle(self.nodes[parent])

    def _save(self, node: Node) -> None:
        import numpy as np

        if self._writer is None:
            self._writer = self.database.writer(f"driver-{os.getpid()}-{time.time_ns() % 10**9}")
        record = pack(bool(node.win), node.move)
        self._writer.append(np.array([node.key], dtype=np.uint64), np.array([record]))
        self.proven += 1

    def take(self, result: TaskResult) -> None:
        """A task's answer into the tree."""
        node = self.nodes[result.key]
        self.searched += result.nodes
        self.proven += result.saved
        node.phi, node.delta = result.phi, result.delta
        node.ran = True
        if result.win is not None:
            node.win = result.win
        for parent in node.parents:
            self.settle(self.nodes[parent])

    def run(
        self,
        executor: Executor | None,
        *,
        seconds: float | None = None,
        in_flight: int = 1,
        on_progress: Callable[[Report], None] | None = None,
    ) -> Report:
        """Rounds of tasks until the root is proven, the time is up, or nothing is left."""
        start = time.perf_counter()
        done = total = 0
        while self.root.win is None:
            leaves = self.leaves()
            if not leaves:
                break
            if any(leaf.ran for leaf in leaves):  # what a round left unproven is split
                for leaf in [leaf for leaf in leaves if leaf.ran]:
                    self.split(leaf)
                leaves = self.leaves()
            work = [SolveTask(leaf.text, self.directory, self.max_nodes, self.chunk,
                              self.table_bits) for leaf in leaves]  # fmt: skip
            total += len(work)
            results = self._results(executor, work, in_flight)
            try:
                for _, result in results:
                    self.take(result)
                    done += 1
                    report = self.report(start, done, total)
                    if on_progress is not None:
                        on_progress(report)
                    if self.root.win is not None or (
                        seconds is not None and time.perf_counter() - start >= seconds
                    ):
                        return report
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
        return self.report(start, done, total)

    def _results(self, executor: Executor | None, work: list[SolveTask],
                 in_flight: int) -> Iterator[tuple[int, TaskResult]]:  # fmt: skip
        if executor is None:
            return ((i, solve_task(task)) for i, task in enumerate(work))
        return run_tasks(executor, solve_task, work, in_flight=in_flight)

    def report(self, start: float, done: int, total: int) -> Report:
        return Report(self.proven, self.searched, time.perf_counter() - start, self.root.phi,
                      self.root.delta, done, total)  # fmt: skip

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    def at_depth(self, depth: int) -> list[Node]:
        """The tree's positions ``depth`` plies below the root."""
        return [node for node in self.nodes.values() if node.depth == depth]
