"""Shared fixtures and the one way a test says what it needs.

A test that cannot run here (an optional package, the shared corpus, Chromium)
is skipped through :func:`needs` and its relatives, with one phrasing:
``needs WHAT (HOW)``. With ``GAMMONLAB_STRICT_TESTS=1`` each such skip is a
failure instead. The shared corpus is found in one place, :data:`SHARED_DATA`:
``$GAMMONLAB_SHARED_DATA`` or ``../shared/data`` next to the repository.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

os.environ.setdefault("MPLBACKEND", "Agg")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("GAMMONLAB_SHARED_DATA", REPO.parent / "shared" / "data"))
STRICT = os.environ.get("GAMMONLAB_STRICT_TESTS") == "1"
"""``GAMMONLAB_STRICT_TESTS=1``: what a test needs and does not find fails it."""

INSTALL = 'pip install -e ".[test]"'
SET_CORPUS = "set GAMMONLAB_SHARED_DATA"
NEEDS = "needs "
"""How every reason for a skip begins."""


def needs_reason(what: str, how: str = INSTALL) -> str:
    """The reason a test does not run: ``needs WHAT (HOW)``."""
    return f"{NEEDS}{what} ({how})"


def needs(what: str, how: str = INSTALL) -> NoReturn:
    """Skip the test (fail it under ``GAMMONLAB_STRICT_TESTS=1``): ``what`` is missing."""
    reason = needs_reason(what, how)
    if STRICT:
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def needs_if(missing: bool, what: str, how: str = INSTALL) -> pytest.MarkDecorator:
    """A mark skipping the test when ``missing`` (failing it in strict mode)."""
    return pytest.mark.skipif(missing, reason=needs_reason(what, how))


PACKAGES = {"gnubg_nn": "gnubg-nn", "distributed": "dask[distributed]"}
"""The package that installs a module, where the names differ."""


def has_module(module: str) -> bool:
    """Whether ``module`` (dotted names too) can be imported, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def needs_module(module: str, what: str | None = None, how: str = INSTALL) -> ModuleType:
    """``module`` imported, or the test (or the whole file) skipped: ``needs WHAT (HOW)``."""
    try:
        return importlib.import_module(module)
    except ImportError:
        pass
    needs(what or PACKAGES.get(module.split(".")[-1], module), how)


def corpus_reason(path: Path = SHARED_DATA) -> str:
    return needs_reason(f"the shared corpus at {path}", SET_CORPUS)


def corpus(*parts: str) -> Path:
    """A file or folder of the shared corpus; the test is skipped when it is not there."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        needs(f"the shared corpus at {path}", SET_CORPUS)
    return path


def needs_corpus(*parts: str) -> pytest.MarkDecorator:
    """A mark skipping the test when the shared corpus (or ``parts`` of it) is not there."""
    path = SHARED_DATA.joinpath(*parts)
    return pytest.mark.skipif(not path.exists(), reason=corpus_reason(path))


needs_gnubg = needs_if(not has_module("gnubg_nn"), PACKAGES["gnubg_nn"])
"""Skips a test when GNU Backgammon's move generator and nets (gnubg-nn) are missing."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The folder of real transcripts and ID lists; the test is skipped without it."""
    return corpus()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    """Under ``GAMMONLAB_STRICT_TESTS=1`` a test skipped for something it needs fails."""
    report = yield
    if STRICT and report.skipped and isinstance(report.longrepr, tuple):
        reason = str(report.longrepr[2]).removeprefix("Skipped: ")
        if reason.startswith(NEEDS):
            report.outcome = "failed"
            report.longrepr = f"GAMMONLAB_STRICT_TESTS=1 and the test {reason}"
    return report
