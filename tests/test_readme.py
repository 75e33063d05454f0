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
    # the comments after print() calls state what they print
    for line in code.splitlines():
        call = re.match(r"\s*print\((.*)\)\s+# (\S.*)$", line)
        if call and not call.group(2).startswith(("ASCII", "(167")):
            expected = re.split(r"[,:]? ", call.group(2))[0].strip()
            assert expected in printed, (line, printed)
