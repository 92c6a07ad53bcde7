"""Rule sets and their options: one mechanism for every family of games.

A rule set is a frozen dataclass with a ``name``, a ``title`` and ``aliases``; its rule options
are fields, each described by an :class:`Option` (the values it takes and the rule sets it
applies to). A :class:`Catalogue` finds a rule set by any of its names, case and separators
ignored, and applies options with their values checked. The chess family
(:mod:`kradan.variants`) and Alquerque (:mod:`kradan.alquerque.variant`) both use it.

An option carries its own words: a label, a help text and a label for each value, in English,
declared where the option is. The labels are gettext message ids, marked with :func:`N_` so
that ``pybabel extract`` finds them; the web pages translate them where they show them
(docs/translating.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Generic, Protocol, Self, TypeVar

from .errors import VariantError


class RuleSet(Protocol):
    """What every rule set has: its name (UCI ``UCI_Variant``, PGN ``[Variant]``), the name
    people use, and other names it answers to."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...

    def with_options(self, **options: Any) -> Any:
        """A copy with rule options set (see :func:`apply_options`)."""
        ...


R = TypeVar("R", bound=RuleSet)


def N_(message: str) -> str:
    """``message`` unchanged: marks an English string for translators (``pybabel extract``),
    to be translated later where it is shown."""
    return message


def _always(rules: Any) -> bool:
    return True


@dataclass(frozen=True)
class Option:
    """One rule option: the values it takes and the rule sets it belongs to.

    ``kind`` is an ``Enum`` class (strings of its values are accepted), ``bool``, ``int`` (a
    whole number >= 0) or ``tuple`` (a selection from ``choices``). ``label``, ``help`` and
    ``value_labels`` are what people read of it, in English (labels marked with :func:`N_`).
    """

    kind: type[Enum] | type[bool] | type[int] | type[tuple[str, ...]]
    applies: Callable[[Any], bool] = _always
    #: said when the option does not apply, e.g. "use 'alquerque-bell'"
    hint: str = ""
    #: the allowed elements of a ``tuple`` option, and what they are called
    choices: tuple[str, ...] = ()
    choice_name: str = "a selection"
    #: what the option is, in a few words ("Counting rule"); empty: its name is shown
    label: str = ""
    #: a sentence or two more: what the option changes, and where the rule comes from
    help: str = ""
    #: what each value of an ``Enum`` option means, by the value's text ("any_knight")
    value_labels: Mapping[str, str] = field(default_factory=dict, hash=False)

    def label_of(self, value: object) -> str:
        """What ``value`` (a member of the option's ``Enum``, or its text) means, in English:
        its label, or the value itself with spaces for ``_``."""
        text = str(value.value) if isinstance(value, Enum) else str(value)
        return self.value_labels.get(text) or text.replace("_", " ")

    def convert(self, key: str, value: object) -> object:
        """``value`` as the option's type.

        :raises VariantError: for a value the option does not take, quoting it.
        """
        if self.kind is bool:
            if not isinstance(value, bool):
                raise VariantError(f"option {key}={value!r}: expected True or False")
            return value
        if self.kind is int:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise VariantError(f"option {key}={value!r}: expected a whole number >= 0")
            return value
        if isinstance(self.kind, type) and issubclass(self.kind, Enum):
            try:
                return self.kind(value)
            except ValueError:
                allowed = ", ".join(repr(member.value) for member in self.kind)
                raise VariantError(f"option {key}={value!r}: expected one of {allowed}") from None
        items = (value,) if isinstance(value, str) else value
        if not isinstance(items, tuple | list) or not all(item in self.choices for item in items):
            allowed = ", ".join(repr(choice) for choice in self.choices)
            raise VariantError(
                f"option {key}={value!r}: expected {self.choice_name} from {allowed}"
            )
        return tuple(dict.fromkeys(items))


def apply_options(rules: R, catalogue: Mapping[str, Option], options: Mapping[str, Any]) -> R:
    """A copy of ``rules`` with ``options`` set, each checked against ``catalogue``.

    :raises VariantError: for an unknown option, one that does not apply to ``rules``, or a
        value the option does not take.
    """
    changes: dict[str, object] = {}
    for key, value in options.items():
        spec = catalogue.get(key)
        if spec is None:
            known = ", ".join(sorted(catalogue))
            raise VariantError(f"unknown option {key!r}; options: {known}")
        if not spec.applies(rules):
            hint = f": {spec.hint}" if spec.hint else ""
            raise VariantError(f"option {key!r} does not apply to {rules.name}{hint}")
        changes[key] = spec.convert(key, value)
    return dataclasses.replace(rules, **changes)  # type: ignore[type-var]


def normalise_name(name: str) -> str:
    """``name`` as names are compared: lower case, ``-`` and ``_`` as spaces, single spaces."""
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def option_text(value: object) -> str:
    """An option's value as text (``true``, ``any_knight``, ``a1,h1``), as PGN headers and
    UCI options write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    return str(value)


class Catalogue(Generic[R]):
    """Rule sets found by name: their ``name``, ``title`` or any alias, ignoring case, ``-``,
    ``_`` and spaces.

    :param kind: what the rule sets are called in error messages ("variant").
    """

    def __init__(self, kind: str, rule_sets: Iterable[R], options: Mapping[str, Option]) -> None:
        self.kind = kind
        self.rule_sets: dict[str, R] = {rules.name: rules for rules in rule_sets}
        self.options = options
        self._names: dict[str, R] = {}
        for rules in self.rule_sets.values():
            for alias in (rules.name, rules.title, *rules.aliases):
                self._names[normalise_name(alias)] = rules
                self._names[normalise_name(alias).replace(" ", "")] = rules

    def names(self) -> list[str]:
        """The canonical names, sorted."""
        return sorted(self.rule_sets)

    def get(self, name: object) -> R | None:
        """The rule set called ``name`` (a rule set of this catalogue passes), or ``None``."""
        if isinstance(name, str):
            key = normalise_name(name)
            return self._names.get(key) or self._names.get(key.replace(" ", ""))
        if any(type(name) is type(rules) for rules in self.rule_sets.values()):
            return name  # type: ignore[return-value]
        return None

    def find(self, name: str | R, **options: Any) -> R:
        """The rule set called ``name`` with ``options`` applied.

        :raises VariantError: for an unknown name, listing the known ones, or a bad option.
        """
        found = self.get(name)
        if found is None:
            raise VariantError(f"unknown {self.kind} {name!r}; known: {', '.join(self.names())}")
        return found.with_options(**options) if options else found


@dataclass(frozen=True)
class RuleSetBase:
    """The fields and option handling every rule set shares; a game's rule set is a frozen
    dataclass built on it that adds its rule fields and names its option table."""

    #: the canonical name, used in UCI ``UCI_Variant`` and PGN ``[Variant]`` (Fairy-Stockfish's
    #: for the chess family)
    name: str
    #: the name people use
    title: str
    #: other names it answers to
    aliases: tuple[str, ...]

    def option_table(self) -> Mapping[str, Option]:
        """The rule options this family of rule sets takes, by field name."""
        raise NotImplementedError

    def with_options(self, **options: Any) -> Self:
        """A copy with rule options set, each checked against :meth:`option_table`.

        Strings are accepted for enum options (``ouk_king_leap="any_knight"``).

        :raises VariantError: for an unknown option, one that does not apply to this game, or
            a value outside the option's range.
        """
        return apply_options(self, self.option_table(), options)

    def replace(self, **changes: object) -> Self:
        """A copy with some fields changed (no checks: see :meth:`with_options`).

        :raises VariantError: for a field name the rule set does not have.
        """
        names = {field.name for field in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise VariantError(
                f"unknown variant field(s) {', '.join(map(repr, unknown))}; "
                f"known fields: {', '.join(sorted(names))}"
            )
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]


__all__ = [
    "N_",
    "Catalogue",
    "Option",
    "RuleSet",
    "RuleSetBase",
    "apply_options",
    "normalise_name",
    "option_text",
]
