"""The documentation builds with no warning (``mkdocs build --strict``), with a page per
topic and the API reference: cross-references are links, examples are code."""

from __future__ import annotations

import re
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
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr[-3000:]
    for page in ("formats", "rules", "rollouts", "cube"):
        assert (site / page / "index.html").exists(), page
    reference = (site / "api" / "positions" / "index.html").read_text(encoding="utf-8")
    assert "legal_plays" in reference and "from_gnubg_id" in reference
    pages = {path: path.read_text(encoding="utf-8") for path in (site / "api").glob("*/index.html")}
    for path, text in pages.items():
        # references written as :class:`Match` show as links or code, never as written
        assert not ROLE.search(text), (path, ROLE.search(text)[0])
        # every interactive example is code: no >>> in running text
        prose = re.sub(r"<pre.*?</pre>|<code.*?</code>", "", text, flags=re.DOTALL)
        assert "&gt;&gt;&gt;" not in prose, path
    matches = pages[site / "api" / "matches" / "index.html"]
    # read_match's docstring names Match by its short name: a link to its entry
    assert re.search(
        r'<a class="autorefs autorefs-internal"[^>]*href="[^"]*#gammonlab\.match\.model\.Match"',
        matches,
    )
    shutil.rmtree(site)


ROLE = re.compile(r":(class|func|meth|mod|attr|data|exc):`")
