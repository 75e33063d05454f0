"""The suite's own rules: a skip says what the test needs in one phrasing, given by
conftest.py, and ``GAMMONLAB_STRICT_TESTS=1`` turns those skips into failures."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import INSTALL, corpus_reason, needs_reason

TESTS = Path(__file__).resolve().parent
SKIPS = {"skip", "skipif", "importorskip"}


def skips_in(path: Path) -> list[str]:
    """Each use of pytest's skip, skipif or importorskip in a file, as ``line: code``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SKIPS:
            found.append(f"{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Name) and node.id in SKIPS:
            found.append(f"{node.lineno}: {node.id}")
        elif isinstance(node, ast.ImportFrom) and {a.name for a in node.names} & SKIPS:
            found.append(f"{node.lineno}: from {node.module} import ...")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_every_skip_goes_through_conftest():
    files = sorted(p for p in TESTS.glob("*.py") if p.name != "conftest.py")
    assert len(files) > 40
    offending = {p.name: skips_in(p) for p in files if skips_in(p)}
    assert not offending, (
        "skip with conftest's needs, needs_if, needs_module, corpus, needs_corpus or "
        f"needs_gnubg, not pytest's own: {offending}"
    )


def test_the_scan_finds_each_kind_of_skip(tmp_path):
    path = tmp_path / "test_skips.py"
    path.write_text(
        textwrap.dedent("""
            import pytest
            from pytest import skip
            np = pytest.importorskip("numpy")

            @pytest.mark.skipif(True, reason="why")
            def test_a():
                pytest.skip("why")

            @pytest.mark.skip
            def test_b():
                skip("why")
        """),
        encoding="utf-8",
    )
    assert [line.split(":")[0] for line in skips_in(path)] == ["3", "4", "6", "8", "10", "12"]


def test_one_phrasing():
    assert needs_reason("gnubg-nn") == 'needs gnubg-nn (pip install -e ".[test]")'
    assert INSTALL == 'pip install -e ".[test]"'
    assert corpus_reason(Path("/srv/corpus")) == (
        "needs the shared corpus at /srv/corpus (set GAMMONLAB_SHARED_DATA)"
    )


EXAMPLES = """
import pytest
from conftest import corpus, needs, needs_if, needs_module

def test_needs():
    needs("a thing")

@needs_if(True, "another thing", "how to get it")
def test_marked():
    pass

def test_module():
    needs_module("gammonlab_no_such_module")

def test_corpus():
    corpus("ids")

@pytest.mark.slow
def test_slow():
    pass

def test_passes():
    pass
"""


def run_examples(tmp_path: Path, strict: bool) -> str:
    (tmp_path / "conftest.py").write_text(
        (TESTS / "conftest.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (tmp_path / "test_examples.py").write_text(EXAMPLES, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: long\n")
    env = dict(os.environ, GAMMONLAB_SHARED_DATA=str(tmp_path / "nowhere"))
    env.pop("GAMMONLAB_STRICT_TESTS", None)
    if strict:
        env["GAMMONLAB_STRICT_TESTS"] = "1"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rsf", "-m", "not slow"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.stdout + done.stderr


def test_skips_say_what_the_test_needs(tmp_path):
    out = run_examples(tmp_path, strict=False)
    assert "1 passed, 4 skipped, 1 deselected" in out, out
    assert 'needs a thing (pip install -e ".[test]")' in out
    assert "needs another thing (how to get it)" in out
    assert 'needs gammonlab_no_such_module (pip install -e ".[test]")' in out
    nowhere = tmp_path / "nowhere" / "ids"
    assert f"needs the shared corpus at {nowhere} (set GAMMONLAB_SHARED_DATA)" in out


def test_strict_mode_fails_them_and_leaves_slow_tests_out(tmp_path):
    out = run_examples(tmp_path, strict=True)
    # a skip mark fails the test's setup: an error
    assert "3 failed, 1 passed, 1 deselected, 1 error" in out, out
    assert "ERROR at setup of test_marked" in out
    assert "needs another thing (how to get it)" in out


def test_ci_refuses_to_run_without_the_corpus(tmp_path):
    """In CI a missing corpus is an error before anything is installed, not a skip."""
    script = tmp_path / ".ci" / "run"
    script.parent.mkdir()
    script.write_text((TESTS.parent / ".ci" / "run").read_text(encoding="utf-8"))
    nowhere = tmp_path / "nowhere"
    env = dict(os.environ, CI="true", GAMMONLAB_SHARED_DATA=str(nowhere))
    done = subprocess.run(
        ["bash", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert f".ci/run: no shared corpus at {nowhere}" in done.stderr
    assert not (tmp_path / ".venv").exists()
