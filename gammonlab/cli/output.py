"""What the commands share about their output: the checks on the files they are asked
to write (made before the work), and the version they report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

__all__ = ["check_output", "gammonlab_version"]


def gammonlab_version() -> str:
    """The installed gammonlab's version, as ``pyproject.toml`` states it (its one source).

    >>> gammonlab_version().count(".") >= 1
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gammonlab")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def check_output(path: str | Path, suffixes: Sequence[str], command: str) -> str | None:
    """Why ``path`` cannot take the output of ``command`` (a suffix it does not
    write, a folder that does not exist), or None; checked before the work."""
    out = Path(path)
    if out.suffix.lower() not in suffixes:
        kinds = " or ".join(dict.fromkeys(s for s in suffixes if s != ".pq"))
        return f"gammonlab {command}: write {kinds}, not {out.suffix or out.name!r}"
    folder = out.parent
    if not folder.is_dir():
        why = "is not a folder" if folder.exists() else "does not exist"
        return f"{out}: the folder {folder} {why}"
    if out.is_dir():
        return f"{out}: is a folder, not a file to write"
    return None
