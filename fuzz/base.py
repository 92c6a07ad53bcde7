"""What every fuzz target is made of: :class:`Target` (one way into kradan: bytes in, and either
an answer, one of kradan's typed errors, or a crash), :class:`Crash` (misbehaviour that raises
nothing here), and the helpers the targets share. The targets themselves live in
:mod:`fuzz.library`, :mod:`fuzz.process`, :mod:`fuzz.cli` and :mod:`fuzz.web`;
:mod:`fuzz.targets` gathers them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


class Crash(Exception):
    """kradan misbehaved without raising an error of its own here: a dead or silent engine, a
    500 answer, a traceback on standard error, a text that does not read back."""


def _nothing() -> None:
    """No setup (the library targets need none)."""


@dataclass
class Target:
    """One way in: ``run`` feeds it one input (bytes; a text target decodes them as UTF-8,
    replacing what is not); ``seeds`` gives the corpus to start from; ``grammar`` the structured
    inputs that hypothesis draws (none: hypothesis draws plain text); ``start``/``stop`` bring up
    and take down what the target talks to (an engine process, a web app), and ``ready`` starts it
    again, untimed, when an input ended it."""

    name: str
    run: Callable[[bytes], None]
    seeds: Callable[[], list[bytes]]
    grammar: Callable[[], SearchStrategy[bytes]] | None = None
    start: Callable[[], None] = _nothing
    stop: Callable[[], None] = _nothing
    #: brings back, before an input is timed, what an earlier input ended (an engine that quit)
    ready: Callable[[], None] = _nothing
    #: peak resident memory (MB) of a process the target talks to, if any
    child_peak_mb: Callable[[], float] | None = None
    #: inputs per target in the short CI pass (the slow targets take fewer)
    short_inputs: int = 10_000
    notes: dict[str, Any] = field(default_factory=dict)


def text_of(data: bytes) -> str:
    """The input as text: UTF-8, with what is not replaced."""
    return data.decode("utf-8", "replace")


def encoded(texts: list[str]) -> list[bytes]:
    return [text.encode("utf-8") for text in texts]


def grammar(kind: str) -> Callable[[], SearchStrategy[bytes]]:
    """The structured inputs of ``kind`` (see :mod:`fuzz.grammars`), made when first asked."""

    def make() -> SearchStrategy[bytes]:
        from . import grammars

        strategy: SearchStrategy[bytes] = getattr(grammars, kind)()
        return strategy

    return make
