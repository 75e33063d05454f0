"""The README's Python examples run as they are written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("code", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_example_runs(code, capsys):
    exec(compile(code, str(README), "exec"), {"__name__": "__readme__"})
    printed = capsys.readouterr().out
    # a comment "# -> VALUE" after a print() states what it prints
    for line in code.splitlines():
        stated = re.match(r"\s*print\(.*\)\s+# -> (.+?)(?:\s{2,}.*)?$", line)
        if stated:
            assert stated.group(1) in printed, (line, printed)
