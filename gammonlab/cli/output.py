"""What the commands share about their options and output: the options several commands
take, the checks on the files they are asked to write (made before the work), writing a
frame, and the version they report."""

from __future__ import annotations

import argparse
import re
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "EVALUATOR_HELP",
    "FRAME_SUFFIXES",
    "WIDTH",
    "add_errors_option",
    "add_evaluator_option",
    "add_id_arguments",
    "add_work_options",
    "check_output",
    "empty_path",
    "gammonlab_version",
    "parse_dice",
    "refuse",
    "wrap",
    "write_frame",
]

WIDTH = 100
"""The widest line a command prints by default."""
FRAME_SUFFIXES = (".csv", ".parquet", ".pq")
"""The files a frame is written to: CSV, or parquet."""
EVALUATOR_HELP = "net (gammonlab's own, the default), gnubg (needs gnubg-nn) or pubeval"


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


def parse_dice(text: str) -> tuple[int, int]:
    """A roll as a command reads it: ``52``, ``5-2``, ``5,2`` or ``5 2``.

    >>> parse_dice("5-2")
    (5, 2)
    """
    digits = re.findall(r"[1-6]", text)
    if len(digits) != 2 or len(re.sub(r"[\s\-,]", "", text)) != 2:
        raise argparse.ArgumentTypeError(
            f"dice are two numbers from 1 to 6, like 52 or 5-2; got {text!r}"
        )
    return int(digits[0]), int(digits[1])


def add_evaluator_option(
    parser: argparse.ArgumentParser,
    flag: str = "--evaluator",
    *,
    choices: Sequence[str] | None = None,
    help: str = EVALUATOR_HELP,
) -> argparse.Action:
    """The option naming who judges or plays; ``None`` (the library's default) unless given."""
    return parser.add_argument(flag, choices=choices, default=None, help=help)


def add_id_arguments(parser: argparse.ArgumentParser) -> None:
    """The ID a command reads (any form: :meth:`GameState.from_id
    <gammonlab.state.GameState.from_id>`) and ``--variant``, the variant it is of."""
    from ..rules import VARIANTS

    parser.add_argument("id", help="Position ID, PositionID:MatchID or XGID (XGID= optional)")
    names = ", ".join(VARIANTS)
    variant = f"the variant the ID is of: {names} (default standard)"
    action = parser.add_argument(
        "--variant", choices=list(VARIANTS), default="standard", help=variant
    )
    action.metavar = "VARIANT"  # the choices are in the help, not in the usage


def add_errors_option(parser: argparse.ArgumentParser) -> None:
    """``--errors raise|collect``, as the readers take it."""
    why = "stop at the first problem, or skip bad games and report them"
    parser.add_argument("--errors", choices=("raise", "collect"), default="collect", help=why)


def refuse(command: str, message: str) -> int:
    """Say on stderr why ``command`` cannot run as asked; the exit status of bad usage, 2."""
    import sys

    print(f"gammonlab {command}: {message}", file=sys.stderr)
    return 2


def add_work_options(parser: argparse.ArgumentParser) -> None:
    """``-j/--jobs`` (worker processes) and ``-q/--quiet`` (no progress bar)."""
    parser.add_argument("-j", "--jobs", type=int, default=None, help="worker processes")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")


def empty_path(command: str, paths: Sequence[str]) -> str | None:
    """Why ``command`` refuses the paths it was given to read: an empty one, which names
    no file (``Path('')`` is the current folder, that would be read whole), or None."""
    if any(path == "" for path in paths):
        return f"gammonlab {command}: an empty path names no file or folder"
    return None


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


def write_frame(frame: pd.DataFrame, path: str | Path, *, attrs: bool = True) -> None:
    """Write ``frame`` as CSV (``.csv``) or parquet (any other suffix), without its index;
    ``attrs=False`` leaves the frame's attrs (settings, problems) out of the parquet file."""
    out = Path(path)
    if not attrs:
        frame = frame.copy()
        frame.attrs = {}
    if out.suffix.lower() == ".csv":
        frame.to_csv(out, index=False)
    else:
        frame.to_parquet(out, index=False)


def wrap(line: str) -> str:
    """A line of prose folded to :data:`WIDTH` columns, each further line indented two more
    than the first; a table (a text of several lines) or a short line as it is, and a word
    longer than a line (a path) whole.

    >>> print(wrap("  " + "word " * 30))
      word word word word word word word word word word word word word word word word word word word
        word word word word word word word word word word word
    """
    if "\n" in line or len(line) <= WIDTH:
        return line
    indent = " " * (len(line) - len(line.lstrip(" ")))
    return textwrap.fill(
        line.strip(),
        WIDTH,
        initial_indent=indent,
        subsequent_indent=indent + "  ",
        break_long_words=False,  # a path or an address stays whole
        break_on_hyphens=False,
    )
