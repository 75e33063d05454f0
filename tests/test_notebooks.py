"""The notebooks run top to bottom, headless, with the notebook install alone.

They are committed without outputs and with an id on every cell. They run in a kernel
that imports this checkout's gammonlab and to which ``gnubg_nn`` looks not installed,
whether or not it is: the notebook extra leaves GNU Backgammon's nets out, and a
notebook that needs them must say so rather than fail.
"""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import needs_module

nbformat = needs_module("nbformat")
nbclient = needs_module("nbclient")
tomllib = needs_module("tomllib", "Python 3.11 or later", "tomllib reads pyproject.toml")
needs_module("ipykernel")

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
IDS = [path.stem for path in NOTEBOOKS]
CELL_TIMEOUT = 300  # seconds for one cell; a whole notebook takes well under two minutes
CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")  # nbformat 4.5's pattern
HIDDEN = "gnubg_nn"  # optional, GPL: not in the notebook extra
# where the notebooks' imports come from, besides the standard library and gammonlab
CORE = {"numpy", "pandas", "matplotlib"}  # gammonlab's own dependencies
NOTEBOOK_EXTRA = {"IPython": "jupyter", "ipywidgets": "ipywidgets", "dask": "dask"}

BLOCKER = f'''\
"""{HIDDEN} as if it were not installed: ``import {HIDDEN}`` fails, find_spec gives None."""

import sys

sys.modules["{HIDDEN}"] = None
'''


def test_the_notebooks_are_there():
    names = {path.name for path in NOTEBOOKS}
    assert {
        "01_analyse_a_match.ipynb",
        "02_many_matches.ipynb",
        "03_rollouts.ipynb",
        "04_cube_decisions.ipynb",
        "05_learn_the_rules.ipynb",
    } <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_is_committed_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name} cell {index} has outputs"
            assert cell.execution_count is None, f"{path.name} cell {index} has a count"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_every_cell_has_an_id(path):
    # the file itself: nbformat.read makes up the ids that are missing
    repeated: list[str] = []

    def keys_once(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        repeated.extend(sorted({key for key in keys if keys.count(key) > 1}))
        return dict(pairs)

    raw = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=keys_once)
    assert repeated == [], f"{path.name}: a field written twice in one object: {repeated}"
    assert (raw["nbformat"], raw["nbformat_minor"]) >= (4, 5), "cell ids need nbformat 4.5"
    ids = [cell.get("id") for cell in raw["cells"]]
    missing = [index for index, cell_id in enumerate(ids) if cell_id is None]
    assert missing == [], f"{path.name}: cells without an id: {missing}"
    assert all(CELL_ID.match(cell_id) for cell_id in ids), ids
    assert len(set(ids)) == len(ids), f"{path.name}: ids used twice"


def _imported(path: Path) -> set[str]:
    """The top-level modules the code cells of a notebook import."""
    names = set()
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        source = "\n".join(
            line for line in cell.source.splitlines() if not line.lstrip().startswith(("%", "!"))
        )
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_the_notebook_extra_provides_every_import(path):
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]
    provided = {re.split(r"[\[<>=!~; ]", requirement)[0] for requirement in extras["notebook"]}
    for module in sorted(_imported(path) - {"gammonlab"} - set(sys.stdlib_module_names)):
        if module in CORE:
            continue
        assert module in NOTEBOOK_EXTRA, f"{path.name} imports {module}, not in the notebook extra"
        assert NOTEBOOK_EXTRA[module] in provided, (
            f"{path.name} imports {module}: the notebook extra needs {NOTEBOOK_EXTRA[module]}"
        )


def _summary_prints_whole_counts(notebook) -> None:
    # notebook 01's per-player summary: counts print as 147, not 147.000
    (cell,) = [cell for cell in notebook.cells if cell.get("id") == "nb01-14"]
    (text,) = [output.data["text/plain"] for output in cell.outputs if "data" in output]
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line.strip()}
    for count in ("unforced", "doubtful", "bad", "very_bad", "cube_decisions", "cube_errors"):
        assert rows[count] and all(value.isdigit() for value in rows[count]), (count, text)


OUTPUT_CHECKS = {"01_analyse_a_match": _summary_prints_whole_counts}

KERNEL_CHECK = textwrap.dedent(f"""\
    import importlib.util
    from pathlib import Path

    import gammonlab

    assert importlib.util.find_spec("{HIDDEN}") is None
    try:
        import {HIDDEN}
    except ImportError:
        pass
    else:
        raise AssertionError("{HIDDEN} was importable")
    try:
        gammonlab.get_evaluator("gnubg")
    except gammonlab.MissingDependencyError:
        pass
    else:
        raise AssertionError("the gnubg evaluator was available")
    print(Path(gammonlab.__file__).resolve().parent)
""")


@pytest.fixture
def kernel_env(tmp_path, monkeypatch):
    """The kernel's environment: this checkout first on the path, gnubg_nn hidden."""
    blocker = tmp_path / "site"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER, encoding="utf-8")
    path = [str(blocker), str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    workdir = tmp_path / "work"
    workdir.mkdir()
    return workdir


@pytest.mark.parametrize("path", NOTEBOOKS, ids=IDS)
def test_notebook_runs(path, kernel_env):
    notebook = nbformat.read(path, as_version=4)
    check = nbformat.v4.new_code_cell(KERNEL_CHECK)
    check.id = "kernel-check"
    notebook.cells.append(check)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(kernel_env)}},
    )
    # a cell that raises stops the run with a CellExecutionError naming the cell
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert errors == []
    printed = "".join(
        output.text for output in notebook.cells[-1].outputs if output.get("name") == "stdout"
    )
    assert printed.strip() == str(REPO / "gammonlab"), "the kernel imported another gammonlab"
    if path.stem in OUTPUT_CHECKS:
        OUTPUT_CHECKS[path.stem](notebook)
