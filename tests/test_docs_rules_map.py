"""The rules map of ``docs/rules.md``: a row for every rule, naming code and tests that exist."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RULES = REPO / "docs" / "rules.md"
MAP_HEADING = "## Where each rule is enforced and tested"

RULE_ITEM = re.compile(r"^- (R\d+\.\d+) ", re.MULTILINE)
ROW = re.compile(r"^\| (R\d+\.\d+) \|(.*)\|(.*)\|$", re.MULTILINE)
CODE = re.compile(r"`(gammonlab/[\w/]+\.py): ([\w.]+)`")
TEST = re.compile(r"`(tests/[\w/]+\.py)::(\w+)`")


def _sections() -> tuple[str, str]:
    text = RULES.read_text(encoding="utf-8")
    assert text.count(MAP_HEADING) == 1
    rules, table = text.split(MAP_HEADING)
    return rules, table


def _rule_ids() -> list[str]:
    return RULE_ITEM.findall(_sections()[0])


def _rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for rule, enforced, pinned in ROW.findall(_sections()[1]):
        assert rule not in rows, f"two rows for {rule}"
        rows[rule] = (enforced, pinned)
    return rows


@cache
def _names(path: Path) -> frozenset[str]:
    """Every function, class and module-level name of a module, methods and
    nested functions as ``Outer.inner``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(prefix + child.name)
                visit(child, prefix + child.name + ".")
            elif not prefix and isinstance(child, (ast.Assign, ast.AnnAssign)):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                names.update(t.id for t in targets if isinstance(t, ast.Name))

    visit(tree, "")
    return frozenset(names)


@cache
def _tests(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(
        node.name
        for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.name.startswith("test_")
    )


def test_every_rule_has_a_row_and_every_row_a_rule():
    ids = _rule_ids()
    assert len(ids) == len(set(ids)) and len(ids) > 50
    rows = _rows()
    assert [rule for rule in ids if rule not in rows] == []
    assert [rule for rule in rows if rule not in ids] == []
    assert list(rows) == ids  # in the order of the rules


def test_every_row_names_code_and_tests():
    for rule, (enforced, pinned) in _rows().items():
        assert CODE.search(enforced), f"{rule}: no code named"
        assert TEST.search(pinned), f"{rule}: no test named"
        assert not TEST.search(enforced) and not CODE.search(pinned), rule


def test_the_code_the_map_names_exists():
    for rule, (enforced, _) in _rows().items():
        for path, name in CODE.findall(enforced):
            module = REPO / path
            assert module.is_file(), f"{rule}: no module {path}"
            assert name in _names(module), f"{rule}: {path} defines no {name}"


def test_the_tests_the_map_names_exist():
    for rule, (_, pinned) in _rows().items():
        for path, name in TEST.findall(pinned):
            module = REPO / path
            assert module.is_file(), f"{rule}: no test file {path}"
            assert name in _tests(module), f"{rule}: {path} has no test {name}"


def test_every_rule_of_r4_to_r7_has_a_named_scenario():
    """A scenario test named after its rule (``test_r4_5_...``) for each of R4-R7."""
    for rule, (_, pinned) in _rows().items():
        if rule.split(".")[0] not in ("R4", "R5", "R6", "R7"):
            continue
        prefix = "test_" + rule.lower().replace(".", "_") + "_"
        named = [name for _, name in TEST.findall(pinned) if name.startswith(prefix)]
        assert named, f"{rule}: the map names no test {prefix}..."
