"""What every training run shares: the starting positions of its self-play
games, and its log, a CSV file of one row a checkpoint or epoch."""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from ..position import Position

__all__ = ["STARTS", "read_log", "starts", "write_log"]

STARTS: tuple[tuple[str, int], ...] = (("standard", 8), ("nackgammon", 1), ("nackgammon-004", 1))
"""Starting positions of the self-play games and their weights."""


def starts() -> tuple[np.ndarray, np.ndarray]:
    """The boards of :data:`STARTS` and their cumulative weights, as the
    self-play kernels take them."""
    boards = np.stack([Position.initial(v).board for v, _ in STARTS]).astype(np.int8)
    weights = np.cumsum([w for _, w in STARTS]).astype(np.int64)
    return boards, weights


def read_log(path: Path) -> list[dict[str, str]]:
    """The rows of a run's log (none if it has no log yet)."""
    if not path.is_file():
        return []
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def write_log(
    path: Path,
    rows: list[dict],
    fields: Sequence[str],
    cell: Callable[[dict, str], object] = lambda row, field: row.get(field, ""),
) -> None:
    """Write a run's log whole, through a temporary file: ``cell(row, field)``
    gives each value."""
    temporary = path.with_name(path.name + ".part")
    with open(temporary, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(fields))
        writer.writeheader()
        for row in rows:
            writer.writerow({field: cell(row, field) for field in fields})
    temporary.replace(path)
