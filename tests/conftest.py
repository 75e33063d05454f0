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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long checks (marked ``slow``) run only with ``GAMMONLAB_SLOW=1``."""
    if os.environ.get("GAMMONLAB_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="a long check: set GAMMONLAB_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
