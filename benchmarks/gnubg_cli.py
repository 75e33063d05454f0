"""Debian's GNU Backgammon command line (``gnubg -t -q``) as the benchmarks' reference."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path


def gnubg_cli() -> str | None:
    """Debian's GNU Backgammon, or None."""
    return shutil.which("gnubg") or (
        "/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None
    )


def open_command(path: Path) -> str:
    """The command that opens one transcript: ``load match`` for SGF, ``import mat`` else."""
    verb = "load match" if path.suffix.lower() == ".sgf" else "import mat"
    return f'{verb} "{path}"'


def run_commands(gnubg: str, lines: list[str]) -> float:
    """Wall seconds of one ``gnubg -t -q`` process reading ``lines`` on its standard
    input (a ``quit`` added), in a fresh home folder so that no settings carry over."""
    with tempfile.TemporaryDirectory() as home:
        t0 = time.perf_counter()
        subprocess.run(
            [gnubg, "-t", "-q"],
            input="\n".join([*lines, "quit"]) + "\n",
            text=True,
            capture_output=True,
            env=dict(os.environ, HOME=home),
            timeout=3600,
        )
        return time.perf_counter() - t0
