"""How gammonlab's modules import each other: no private names across packages, and
imports that only point down the layers."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "gammonlab"

SHARED_PRIVATE = ("_kernels", "_numbers")
"""Private layers shared by every package: their public names may be imported anywhere."""

CORE = "gammonlab"
"""The unit of the top-level modules (position.py, rules.py, ...) for the private-name rule."""

LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "_numbers"),
    ("_kernels",),
    ("rules",),
    ("ids", "draw"),
    ("position", "play", "state", "notation", "explain"),
    ("io",),
    ("met",),
    ("evaluators",),
    ("rollout",),
    ("cube",),
    ("match",),
    ("analysis",),
    ("plot",),
    ("teaching",),
    ("train",),
    ("cli",),
    ("__init__", "__main__"),
)
"""Bottom to top: a module imports from its own layer or those below it."""

LEVEL = {unit: level for level, units in enumerate(LAYERS) for unit in units}


@dataclass(frozen=True)
class Import:
    where: str  # file:line
    importer: str  # dotted module name
    target: str  # the module imported from, dotted
    name: str | None  # the name taken from it (``from target import name``)
    typing_only: bool  # under ``if TYPE_CHECKING:``


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def is_module(dotted: str) -> bool:
    """Whether ``dotted`` names a module or package file of gammonlab."""
    relative = Path(*dotted.split("."))
    base = ROOT.parent / relative
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _typing_only(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(path: Path) -> list[Import]:
    """Every import of gammonlab's modules in one file, function-level ones included."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    importer = module_name(path)
    package = importer if is_package(path) else importer.rpartition(".")[0]
    where = path.relative_to(ROOT.parent).as_posix()
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _typing_only(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "gammonlab":
                    found.append(
                        Import(f"{where}:{node.lineno}", importer, alias.name, None, typing_only)
                    )
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if source.split(".")[0] == "gammonlab":
                for alias in node.names:
                    found.append(
                        Import(f"{where}:{node.lineno}", importer, source, alias.name, typing_only)
                    )
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(tree, False)
    return found


FILES = sorted(ROOT.rglob("*.py"))
IMPORTS = [item for path in FILES for item in imports(path)]


def unit(dotted: str) -> str:
    """The top-level package (``cube``) or module (``position``) a module belongs to."""
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def private_unit(dotted: str) -> str:
    """As :func:`unit`, with every top-level module in one unit, the core."""
    name = unit(dotted)
    if name in SHARED_PRIVATE:
        return name
    return name if (ROOT / name).is_dir() else CORE


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def imported_module(item: Import) -> str:
    """The module an import reaches: ``from gammonlab import rules`` reaches gammonlab.rules."""
    if item.name is not None and item.name != "*" and is_module(f"{item.target}.{item.name}"):
        return f"{item.target}.{item.name}"
    return item.target


def test_the_walk_sees_the_imports():
    assert len(FILES) > 50 and len(IMPORTS) > 300
    assert all(unit(module_name(path)) in LEVEL for path in FILES), sorted(
        {unit(module_name(path)) for path in FILES} - set(LEVEL)
    )
    assert private_unit("gammonlab.position") == private_unit("gammonlab.rules") == CORE
    assert private_unit("gammonlab.cube.theory") == "cube"
    assert private_unit("gammonlab._kernels.rng") == "_kernels"


def test_no_private_name_is_imported_from_another_package():
    wrong = []
    for item in IMPORTS:
        if item.name is None or not is_private(item.name):
            continue
        if private_unit(item.importer) != private_unit(item.target):
            wrong.append(f"{item.where}: {item.name} from {item.target}")
    assert not wrong, "private names imported from another package:\n" + "\n".join(wrong)


@pytest.mark.parametrize("layer", range(len(LAYERS)), ids=["/".join(u) for u in LAYERS])
def test_imports_point_down_the_layers(layer):
    wrong = []
    for item in IMPORTS:
        if item.typing_only or LEVEL[unit(item.importer)] != layer:
            continue
        target = imported_module(item)
        if LEVEL[unit(target)] > layer:
            wrong.append(
                f"{item.where}: {item.importer} ({unit(item.importer)}) imports "
                f"{target} ({unit(target)})"
            )
    assert not wrong, "imports up the layers:\n" + "\n".join(wrong)


CYCLE_FREE = ("cli",)
"""Packages whose modules import each other in no circle, even lazily. (Elsewhere a lazy
import inside the package may close one: evaluators.base's registry and its evaluators,
match.model's frames.)"""


def test_the_commands_import_each_other_in_no_cycle():
    graph: dict[str, set[str]] = {}
    for item in IMPORTS:
        if item.typing_only:
            continue
        target = imported_module(item)
        if (
            unit(target) == unit(item.importer)
            and unit(target) in CYCLE_FREE
            and target != item.importer
        ):
            graph.setdefault(item.importer, set()).add(target)
    cycles = []
    for start in sorted(graph):
        stack, seen = [(start, (start,))], set()
        while stack:
            node, route = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                # a package's __init__ re-exports its modules: only module-to-module cycles
                if nxt == start and not any(is_package_name(m) for m in route):
                    cycles.append(" -> ".join((*route, nxt)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*route, nxt)))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(set(cycles)))


def is_package_name(dotted: str) -> bool:
    return (ROOT.parent / Path(*dotted.split(".")) / "__init__.py").is_file()
