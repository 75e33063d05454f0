"""Shared fixtures: the corpus in ../shared/data and small helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("GAMMONLAB_SHARED_DATA", REPO.parent / "shared" / "data"))


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of real transcripts and ID lists; the test is skipped without it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared corpus is not at {SHARED_DATA}")
    return SHARED_DATA
