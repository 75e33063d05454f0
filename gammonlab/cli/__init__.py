"""The ``gammonlab`` command line: :mod:`~gammonlab.cli.commands` parses the commands;
``analyse``, ``simulate``, ``demo`` and ``gallery`` have a module each."""

from __future__ import annotations

from .commands import main

__all__ = ["main"]
