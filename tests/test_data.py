"""The sample matches bundled in data/ read cleanly: the demo and notebooks rely on them."""

from __future__ import annotations

from pathlib import Path

import gammonlab as gl

DATA = Path(__file__).resolve().parents[1] / "data" / "matches"


def test_every_bundled_match_reads_strictly_and_is_attributed():
    files = sorted(p for p in DATA.iterdir() if p.suffix in (".txt", ".mat", ".sgf"))
    assert len(files) >= 20
    readme = (DATA.parent / "README.md").read_text(encoding="utf-8")
    for path in files:
        match = gl.read_match(path)
        assert match.games and not match.problems, path.name
        assert f"`{path.name}`" in readme, f"{path.name} has no attribution line"
