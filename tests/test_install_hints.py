"""Every ``pip install`` the project tells its readers works from a checkout, in any shell.

gammonlab is installed from a checkout, so an extra is asked for as ``-e ".[gnubg]"``:
``gammonlab[gnubg]`` names a package no index has, and brackets left unquoted are a
glob pattern to zsh. The hints live in the notebooks, the README, the docs and the
package's own messages; each extra they name is one pyproject.toml defines.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import needs_module

tomllib = needs_module("tomllib", "Python 3.11 or later", "tomllib reads pyproject.toml")

REPO = Path(__file__).resolve().parents[1]
PIP_INSTALL = re.compile(r"pip3? install\b[^\n`]*")
UNQUOTED_EXTRA = re.compile(r"""(?<!["'])\.\[""")  # .[extra] without a quote before it
EXTRAS = re.compile(r"""["']\.\[([^\]]*)\]["']""")


def _texts() -> list[tuple[str, str]]:
    """(where, text) for every file a reader or a user meets."""
    found = []
    files = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    files += sorted((REPO / "gammonlab").rglob("*.py"))
    files += sorted((REPO / "benchmarks").rglob("*.py"))
    for path in files:
        found.append((str(path.relative_to(REPO)), path.read_text(encoding="utf-8")))
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        for index, cell in enumerate(cells):
            found.append((f"{path.relative_to(REPO)} cell {index}", "".join(cell["source"])))
    return found


TEXTS = _texts()
HINTS = [(where, hint.group(0)) for where, text in TEXTS for hint in PIP_INSTALL.finditer(text)]


def test_the_hints_are_found():
    places = {where.split(" cell ")[0] for where, _ in HINTS}
    assert {"README.md", "gammonlab/evaluators/gnubg.py", "gammonlab/teaching/widget.py"} <= places
    assert any(where.startswith("notebooks/") for where in places)


def test_no_hint_installs_gammonlab_from_an_index_or_leaves_brackets_unquoted():
    wrong = [
        (where, hint)
        for where, hint in HINTS
        if "gammonlab[" in hint or UNQUOTED_EXTRA.search(hint)
    ]
    assert wrong == []


def test_every_extra_a_hint_names_exists():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    defined = set(project["project"]["optional-dependencies"])
    named = {
        (where, extra.strip())
        for where, hint in HINTS
        for extras in EXTRAS.findall(hint)
        for extra in extras.split(",")
    }
    assert named, "no hint names an extra"
    assert {(where, extra) for where, extra in named if extra not in defined} == set()
