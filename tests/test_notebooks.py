"""The notebooks run top to bottom, headless, and are committed without outputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import needs_module

nbformat = needs_module("nbformat")
nbclient = needs_module("nbclient")
needs_module("ipykernel")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
IDS = [path.stem for path in NOTEBOOKS]
CELL_TIMEOUT = 300  # seconds for one cell; a whole notebook takes well under two minutes
NEEDS = {  # optional packages a notebook uses, all in the test extra
    "01_analyse_a_match": ["gnubg_nn"],
    "03_rollouts": ["dask.distributed"],
    "04_cube_decisions": ["gnubg_nn"],
    "05_learn_the_rules": ["ipywidgets"],
}


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
def test_notebook_runs(path, tmp_path, monkeypatch):
    for module in NEEDS.get(path.stem, []):
        needs_module(module)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
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
