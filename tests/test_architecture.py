"""The seams of docs/architecture.md, checked on the source of src/kradan, fuzz/ and benchmarks/:
imports run one way (no circles, type-only imports included), every module stands in one layer
of the table below and imports only its own layer and those beneath, nothing imports the tests,
no module of kradan reaches into another's private names (issues 11 and 42), and the tools ask
for capabilities, never for a rule-set or board class or a game's name (issue 42)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src" / "kradan"
#: the folders read: the package, the fuzzers, the benchmarks (each file a module of its own)
FOLDERS = {"kradan": SOURCE, "fuzz": ROOT / "fuzz", "benchmarks": ROOT / "benchmarks"}

#: numba kernels work on arrays that other modules own: the exception the design allows
KERNELS = ("_core/", "alquerque/_kernel.py", "engine/kernels/")


def _module_name(top: str, path: Path) -> str:
    parts = [top, *path.relative_to(FOLDERS[top]).with_suffix("").parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, tuple[Path, ast.Module]]:
    return {
        _module_name(top, path): (path, ast.parse(path.read_text(encoding="utf-8")))
        for top, folder in FOLDERS.items()
        for path in sorted(folder.rglob("*.py"))
    }


MODULES = _modules()


def _named(name: str, path: Path, tree: ast.Module) -> Iterator[str]:
    """Every dotted name ``name`` imports, anywhere in the file (type-only imports too), with
    relative imports made absolute. A benchmark script's bare import of a sibling file
    (``from _table import ...``) names that sibling."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            sibling = f"{package}.{target}"
            yield sibling if name.startswith("benchmarks.") and sibling in MODULES else target


def _imports(name: str, path: Path, tree: ast.Module) -> Iterator[str]:
    """The modules read here that ``name`` imports."""
    for target in _named(name, path, tree):
        while target and target not in MODULES:
            target = target.rpartition(".")[0]
        if target and target != name and not name.startswith(target + "."):
            yield target


GRAPH = {name: set(_imports(name, *MODULES[name])) for name in MODULES}

#: the layers of docs/architecture.md, from the ground up: a module may import its own layer and
#: those below, never one above. ``pkg.*`` is the package and everything in it; a bare name is
#: that module alone. Every module read must stand in one layer (the longest entry wins).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("rule sets", ("kradan._lazy", "kradan.errors", "kradan.interrupts", "kradan.arguments",
                   "kradan.pieces",
                   "kradan.rulesets",
                   "kradan.variants",
                   "kradan.move", "kradan.outcome", "kradan.alquerque.variant",
                   "kradan.alquerque.geometry", "kradan.alquerque.move",
                   "kradan.variant_enums", "kradan.movebase")),
    ("kernel", ("kradan._core.*", "kradan.alquerque._kernel")),
    ("rules", ("kradan.position", "kradan.counting", "kradan.game_end", "kradan.material",
               "kradan.movecodec", "kradan.sittuyin_setup", "kradan.notation.*",
               "kradan.boardbase", "kradan.board", "kradan.chessboard.*",
               "kradan.alquerque.*")),
    ("registry", ("kradan.games", "kradan")),
    ("formats", ("kradan.pgn.*", "kradan.svg.*", "kradan.egtb.*", "kradan.rulebook",
                 "kradan.solve.keys", "kradan.solve.table", "kradan.solve.export")),
    ("engine", ("kradan.engine.*", "kradan.solve.dfpn", "kradan.solve.answers")),
    ("executors", ("kradan.executors.*",)),
    ("runners", ("kradan.runners.*", "kradan.ratings", "kradan.tournaments.*", "kradan.solve.*")),
    ("training", ("kradan.training.*",)),
    ("apps", ("kradan.cli.*", "kradan.web.*", "kradan.__main__")),
    ("fuzzers", ("fuzz.*",)),
    ("benchmarks", ("benchmarks.*",)),
]  # fmt: skip


def _layer(name: str) -> int | None:
    """The index of ``name``'s layer in :data:`LAYERS` (``None``: in none)."""
    best: tuple[int, int] | None = None
    for index, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            package = entry.removesuffix(".*")
            inside = entry.endswith(".*") and name.startswith(package + ".")
            if (name == package or inside) and (best is None or len(package) > best[0]):
                best = (len(package), index)
    return None if best is None else best[1]


def _cycle() -> list[str] | None:
    """One import circle among kradan's modules, if any. A package's ``__init__`` that only
    hands on names of its own submodules is followed like any module."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        stack.append(name)
        for target in sorted(GRAPH[name]):
            if state.get(target) == 1:
                return [*stack[stack.index(target) :], target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        stack.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state:
            found = visit(name)
            if found:
                return found
    return None


def test_no_import_circles() -> None:
    """Across src/kradan, fuzz/ and benchmarks/."""
    assert _cycle() is None


def test_every_module_stands_in_one_layer() -> None:
    assert [name for name in MODULES if _layer(name) is None] == []


def test_no_module_imports_one_of_a_layer_above_it() -> None:
    """Imports run down the layers of docs/architecture.md (or stay in one layer), never up."""
    up = [
        f"{name} ({LAYERS[low][0]}) -> {target} ({LAYERS[high][0]})"
        for name, targets in sorted(GRAPH.items())
        for target in sorted(targets)
        if (low := _layer(name)) is not None and (high := _layer(target)) is not None and high > low
    ]
    assert up == []


def test_the_package_fuzzers_and_benchmarks_never_import_the_tests() -> None:
    """Benchmarks and fuzzers import kradan (and their own folder); what tests and benchmarks
    share lives in benchmarks/."""
    found = [
        f"{name} -> {target}"
        for name, (path, tree) in MODULES.items()
        for target in _named(name, path, tree)
        if target == "tests" or target.startswith("tests.")
    ]
    assert found == []


@pytest.mark.parametrize(
    "low",
    [
        "kradan.errors", "kradan.pieces", "kradan.rulesets", "kradan.variants", "kradan.move",
        "kradan.outcome", "kradan.position", "kradan.counting", "kradan.game_end",
        "kradan.material", "kradan.notation.san", "kradan.notation.fen", "kradan.board",
        "kradan.alquerque.board", "kradan.games",
    ],
)  # fmt: skip
def test_the_rules_never_import_the_tools_above_them(low: str) -> None:
    """Rules objects never import search, pictures, PGN or the command line (DESIGN.md)."""
    above = ("kradan.engine", "kradan.svg", "kradan.pgn", "kradan.cli", "kradan.runners",
             "kradan.training")  # fmt: skip
    assert not [t for t in GRAPH[low] if t.startswith(above)]


def test_the_engine_value_types_and_the_client_import_nothing_compiled() -> None:
    """The value types, the client of :mod:`kradan.engine.client` (kradan's own search in it
    loads when first used) and the players."""
    client = [name for name in MODULES if name.startswith("kradan.engine.client")]
    assert len(client) > 1
    for name in ("kradan.engine.types", *client, "kradan.runners.players"):
        assert not [t for t in GRAPH[name] if "kernels" in t or t.startswith("kradan._core")]
        assert not [t for t in GRAPH[name] if t in ("kradan.engine.chess", "kradan.engine.driver")]


def _reach_ins() -> list[str]:
    """``x._name`` where ``x`` is not ``self`` or ``cls`` and the file does not define
    ``_name``, outside the numba kernels."""
    found = []
    for name, (path, tree) in MODULES.items():
        if not name.startswith("kradan") or any(part in path.as_posix() for part in KERNELS):
            continue
        defined: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id in ("self", "cls"):
                    defined.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                defined |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in defined
            ):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_reaches_into_another_modules_private_names() -> None:
    assert _reach_ins() == []


# --- capabilities, not type checks (issue 42) ---------------------------------------------------

ROOT = SOURCE.parent.parent
#: the rules packages and the registry: the places that may ask which rule set or board a thing
#: is, or compare a game's name (their tests too, which live outside the scanned folders)
RULES = (
    "src/kradan/games.py", "src/kradan/variants.py", "src/kradan/variant_enums.py",
    "src/kradan/rulesets.py", "src/kradan/board.py", "src/kradan/move.py",
    "src/kradan/counting.py", "src/kradan/game_end.py", "src/kradan/material.py",
    "src/kradan/sittuyin_setup.py", "src/kradan/notation/", "src/kradan/_core/",
    "src/kradan/alquerque/", "src/kradan/boardbase.py", "src/kradan/movebase.py",
    "src/kradan/chessboard/",
)  # fmt: skip


def _scanned() -> list[Path]:
    """The Python files of src/kradan, fuzz/ and benchmarks/ outside the rules packages."""
    found = []
    for folder in ("src/kradan", "fuzz", "benchmarks"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not relative.startswith(RULES):
                found.append(path)
    return found


def _rules_classes() -> set[type]:
    """Every registered game's rule-set class and board class, with their bases (a shared
    board base included); the protocols of :mod:`kradan.games` are capabilities, not these."""
    from kradan import games

    found: set[type] = set()
    for game in games.games():
        made = game.hook("board")  # the board class, imported when the game names it as text
        classes = [type(game.rules), *([made] if isinstance(made, type) else [])]
        for cls in classes:
            found |= {base for base in cls.__mro__ if base.__module__.startswith("kradan.")}
    return {cls for cls in found if cls.__module__ != "kradan.games"}


def _names() -> set[str]:
    """What a game or an option is called: every registered game's name, title and aliases (as
    the registry compares them, too), and every option's name; less the names of notations,
    which are words of their own ("thai" is Makruk's alias and the Thai notation)."""
    from kradan import games
    from kradan.rulesets import normalise_name

    found: set[str] = set()
    notations: set[str] = set()
    for game in games.games():
        for name in (game.name, game.title, *game.rules.aliases):
            key = normalise_name(name)
            found |= {name, key, key.replace(" ", "")}
        found |= set(game.options)
        notations |= set(game.notations)
    return found - notations


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[:1] == ["src"]:
        parts = parts[1:]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(path: Path, tree: ast.Module) -> dict[str, object]:
    """The kradan objects the file's imports bind, by the local name."""
    import importlib

    package = (
        _module_of(path) if path.name == "__init__.py" else _module_of(path).rpartition(".")[0]
    )
    bound: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("kradan"):
                continue
            module = importlib.import_module(base)
            for alias in node.names:
                value = getattr(module, alias.name, None)
                if value is None:
                    value = importlib.import_module(f"{base}.{alias.name}")
                bound[alias.asname or alias.name] = value
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("kradan"):
                    module = importlib.import_module(alias.name)
                    if alias.asname:
                        bound[alias.asname] = module
                    else:
                        bound["kradan"] = importlib.import_module("kradan")
    return bound


def _resolve(node: ast.expr, bound: dict[str, object]) -> list[object]:
    """The objects a class argument of ``isinstance`` names (a tuple gives several)."""
    if isinstance(node, ast.Tuple):
        return [found for item in node.elts for found in _resolve(item, bound)]
    if isinstance(node, ast.Name):
        return [bound[node.id]] if node.id in bound else []
    if isinstance(node, ast.Attribute):
        owners = _resolve(node.value, bound)
        return [getattr(owner, node.attr) for owner in owners if hasattr(owner, node.attr)]
    return []


def _strings(node: ast.expr) -> list[str]:
    """The string constants of a comparison's operand (the items of a literal tuple too)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [text for item in node.elts for text in _strings(item)]
    return []


def _type_checks() -> list[str]:
    """``isinstance``/``issubclass`` on a rule-set or board class, and comparisons (``==``,
    ``!=``, ``in``, ``not in``, ``is``, ``match``/``case``, ``startswith``/``endswith``) with a
    game's or an option's name, outside the rules packages: each as ``file:line: code``."""
    classes = _rules_classes()
    names = _names()
    found = []
    for path in _scanned():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = _imported(path, tree)
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(tree):
            bad = False
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("isinstance", "issubclass")
                and len(node.args) == 2
            ):
                bad = any(
                    isinstance(cls, type) and cls in classes
                    for cls in _resolve(node.args[1], bound)
                )
            elif isinstance(node, ast.Compare):
                operands = [node.left, *node.comparators]
                bad = any(text in names for operand in operands for text in _strings(operand))
            elif isinstance(node, ast.MatchValue):
                bad = any(text in names for text in _strings(node.value))
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("startswith", "endswith")
            ):
                bad = any(text in names for arg in node.args for text in _strings(arg))
            if bad:
                found.append(f"{where}:{getattr(node, 'lineno', 0)}: {ast.unparse(node)}")
    return found


def test_tools_ask_for_capabilities_not_for_classes_or_names() -> None:
    """No ``isinstance`` on a rule-set or board class, and no comparison with a game's or an
    option's name, outside the registry and the rules packages: a tool asks the registry
    (:mod:`kradan.games`: a protocol, a field or hook of the game) or the rule set."""
    found = _type_checks()
    assert found == [], "ask for a capability instead:\n" + "\n".join(found)


def test_the_capability_check_catches_what_it_forbids(tmp_path: Path) -> None:
    """The check above finds each kind of question it forbids (and not a notation's name)."""
    module = ast.parse(
        "from kradan.board import Board as B\n"
        "from kradan import alquerque\n"
        "isinstance(x, B)\n"
        "isinstance(x, (int, alquerque.Board))\n"
        "v.name == 'sittuyin'\n"
        "'counting' in options\n"
        "k not in ('x', 'Ouk Chatrang')\n"
        "name.startswith('alquerque')\n"
        "notation == 'thai'\n"
    )
    path = SOURCE / "example.py"
    bound = _imported(path, module)
    classes, names = _rules_classes(), _names()
    calls = [node for node in ast.walk(module) if isinstance(node, ast.Call)]
    checks = [c for c in calls if isinstance(c.func, ast.Name) and c.func.id == "isinstance"]
    assert (
        all(any(cls in classes for cls in _resolve(call.args[1], bound)) for call in checks)
        and len(checks) == 2
    )
    compared = [
        any(text in names for operand in [node.left, *node.comparators]
            for text in _strings(operand))
        for node in ast.walk(module) if isinstance(node, ast.Compare)
    ]  # fmt: skip
    assert compared == [True, True, True, False]
    assert "alquerque" in names and "thai" not in names


# --- sizes (DESIGN.md: a file over 600 lines, a class over 300, a JavaScript module over 400 is
# a sign to split) ------------------------------------------------------------------------------

#: the browser client's own modules (the chessgroundx bundle, board.min.js, is built, not written)
CLIENT = SOURCE / "web" / "static" / "js"


def _oversized() -> list[str]:
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        if len(text.splitlines()) > 600:
            found.append(f"{where}: {len(text.splitlines())} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                length = node.end_lineno - node.lineno + 1
                if length > 300:
                    found.append(f"{where}:{node.lineno}: class {node.name}, {length} lines")
    for path in sorted(CLIENT.rglob("*.js")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 400:
            found.append(f"{path.relative_to(ROOT).as_posix()}: {lines} lines")
    return found


def test_no_file_or_class_outgrows_its_job() -> None:
    assert _oversized() == []


def test_the_client_is_modules_of_one_job() -> None:
    """The browser client is ES modules (issue 42): no one-file client beside them."""
    modules = sorted(path.name for path in CLIENT.glob("*.js"))
    assert "game-page.js" in modules and "new-page.js" in modules
    assert sorted(path.name for path in CLIENT.parent.glob("*.js")) == ["board.min.js"]
