"""The code passes ruff's checks and formatting and mypy, as configured in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import needs, needs_module

REPO = Path(__file__).resolve().parents[1]
CODE = ["gammonlab", "tests", "benchmarks"]


def _ruff() -> str:
    ruff = shutil.which("ruff")
    if ruff is None:
        needs("ruff on PATH")
    return ruff


def test_ruff_check():
    done = subprocess.run([_ruff(), "check", *CODE], cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_format():
    done = subprocess.run(
        [_ruff(), "format", "--check", *CODE], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, "run `ruff format`:\n" + done.stdout + done.stderr


def test_mypy():
    needs_module("mypy")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "gammonlab"], cwd=REPO, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
