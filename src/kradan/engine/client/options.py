"""An engine's options, as UCI's ``option`` lines and XBoard's ``feature option="..."`` declare
them, and the check of a value before it is sent.

>>> hash_option = uci_option("option name Hash type spin default 16 min 1 max 4096")
>>> hash_option.type, hash_option.default, hash_option.text(64)
('spin', 16, '64')
>>> hash_option.text(0)
Traceback (most recent call last):
...
kradan.errors.InvalidArgumentError: option 'Hash' 0 is outside 1..4096
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...arguments import check_number
from ...errors import InvalidArgumentError

#: the words of a UCI ``option`` line after its name
_UCI_WORDS = ("type", "default", "min", "max", "var")
#: XBoard's option kinds by UCI's names for them
_XBOARD_TYPES = {"spin": "spin", "slider": "spin", "check": "check", "string": "string",
                 "file": "string", "path": "string", "combo": "combo", "button": "button",
                 "save": "button", "reset": "button"}  # fmt: skip


@dataclass(frozen=True)
class EngineOption:
    """One option of an engine: its name, kind (``spin``, ``check``, ``combo``, ``string``,
    ``button``), default, bounds (``spin``) and choices (``combo``)."""

    name: str
    type: str
    default: Any = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = field(default=())

    def text(self, value: object) -> str:
        """``value`` as the engine reads it (``true``/``false`` for a ``check``).

        :raises InvalidArgumentError: for a value the option does not take, quoted.
        """
        what = f"option {self.name!r}"
        if self.type == "check":
            if not isinstance(value, bool):
                raise InvalidArgumentError(f"{what} {value!r}: expected True or False")
            return "true" if value else "false"
        if self.type == "spin":
            low = self.min if self.min is not None else -(2**63)
            return str(check_number(value, what, low, self.max))
        if self.type == "combo":
            choices = {choice.lower(): choice for choice in self.var}
            if not isinstance(value, str) or (choices and value.lower() not in choices):
                raise InvalidArgumentError(f"{what} {value!r}: expected one of {list(self.var)}")
            return choices.get(value.lower(), value)
        if self.type == "button":
            if value is not None:
                raise InvalidArgumentError(f"{what} is a button: configure it with None")
            return ""
        if not isinstance(value, str | int | float) or isinstance(value, bool):
            raise InvalidArgumentError(f"{what} {value!r}: expected text")
        return str(value)


def find_option(options: Mapping[str, EngineOption], name: object, engine: str) -> EngineOption:
    """The option called ``name`` (in any case, as UCI compares them).

    :raises InvalidArgumentError: for a name the engine does not offer, quoted.
    """
    if isinstance(name, str):
        for option in options.values():
            if option.name.lower() == name.lower():
                return option
    known = ", ".join(sorted(options)) or "none"
    raise InvalidArgumentError(f"engine {engine!r} has no option {name!r} (its options: {known})")


def _value(kind: str, text: str) -> Any:
    if kind == "spin":
        try:
            return int(text)
        except ValueError:
            return text
    if kind == "check":
        return text.lower() in ("true", "1")
    return text


def uci_option(line: str) -> EngineOption:
    """A UCI ``option name NAME type KIND [default D] [min M] [max M] [var V]...`` line."""
    words = line.split()[2:]
    parts: dict[str, list[str]] = {"name": []}
    choices: list[str] = []
    current = "name"
    for word in words:
        if word in _UCI_WORDS and (current != "name" or word == "type"):
            current = word
            if word == "var":
                choices.append("")
            parts.setdefault(word, [])
            continue
        if current == "var":
            choices[-1] = f"{choices[-1]} {word}".strip()
        else:
            parts[current].append(word)
    kind = " ".join(parts.get("type", [])) or "string"
    default = " ".join(parts["default"]) if "default" in parts else None

    def bound(key: str) -> int | None:
        try:
            return int(" ".join(parts[key])) if key in parts else None
        except ValueError:
            return None

    return EngineOption(
        " ".join(parts["name"]),
        kind,
        None if default is None else _value(kind, default),
        bound("min"),
        bound("max"),
        tuple(choices),
    )


def xboard_option(text: str) -> EngineOption | None:
    """An XBoard ``feature option="NAME -KIND VALUES"`` (the text within the quotes); ``None``
    for a kind this client does not know."""
    name, _, rest = text.partition(" -")
    while rest and rest.split(" ", 1)[0] not in _XBOARD_TYPES:
        more, _, rest = rest.partition(" -")  # a name with " -" in it
        name = f"{name} -{more}"
    if not rest:
        return None
    kind_word, _, values = rest.partition(" ")
    kind = _XBOARD_TYPES[kind_word]
    if kind == "spin":
        numbers = values.split()
        try:
            default, low, high = (int(number) for number in numbers[:3])
        except ValueError:
            return EngineOption(name.strip(), kind)
        return EngineOption(name.strip(), kind, default, low, high)
    if kind == "combo":
        choices = [choice.strip() for choice in values.split("///")]
        marked = next((c[1:] for c in choices if c.startswith("*")), choices[0])
        return EngineOption(name.strip(), kind, marked, var=tuple(c.lstrip("*") for c in choices))
    return EngineOption(name.strip(), kind, _value(kind, values) if values else None)


__all__ = ["EngineOption", "find_option", "uci_option", "xboard_option"]
