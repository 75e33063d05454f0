"""The sample matches that come with gammonlab (the demo and notebooks read them).

They are real matches under the MIT license; ``sample_folder() / "README.md"``
says where each one comes from.

>>> len(sample_matches()) >= 20
True
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SourceNotFoundError

__all__ = ["sample_folder", "sample_matches"]

_SUFFIXES = (".mat", ".txt", ".sgf")


def sample_folder() -> Path:
    """The folder of sample matches: inside the installed package, or ``data/matches``
    of a source checkout."""
    package = Path(__file__).resolve().parents[1]
    for folder in (package / "data" / "matches", package.parent / "data" / "matches"):
        if folder.is_dir():
            return folder
    raise SourceNotFoundError(
        f"{package / 'data' / 'matches'}: no such folder; the sample "
        "matches are missing from this installation"
    )


def sample_matches(pattern: str = "*") -> list[Path]:
    """Paths of the sample matches (``.mat``, ``.txt``, ``.sgf``), sorted by name."""
    return sorted(p for p in sample_folder().glob(pattern) if p.suffix.lower() in _SUFFIXES)
