"""The documentation builds, with a page per topic and the API reference."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from conftest import needs_module

REPO = Path(__file__).resolve().parents[1]


def test_docs_build(tmp_path):
    needs_module("mkdocs")
    needs_module("mkdocstrings")
    site = tmp_path / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    for page in ("formats", "rules", "rollouts", "cube"):
        assert (site / page / "index.html").exists(), page
    reference = (site / "api" / "positions" / "index.html").read_text(encoding="utf-8")
    assert "legal_plays" in reference and "from_gnubg_id" in reference
    shutil.rmtree(site)
