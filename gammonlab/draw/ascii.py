"""ASCII board diagrams, as ``str(position)`` prints them.

>>> from gammonlab import Position
>>> print(Position.initial())  # doctest: +NORMALIZE_WHITESPACE
 +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 167  off 0
 | X           O    |   | O              X |
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |
 | O           X    |   | X              O |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 167  off 0  (on roll)

In Acey-Deucey the checkers still waiting off the board to enter (R2.4) are
counted after the checkers borne off:

>>> print(Position.initial("acey-deucey").play("in/14", (6, 5)))  # doctest: +NORMALIZE_WHITESPACE
 +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 364  off 0  to enter 14
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
v|                  |BAR|                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |    O             |   |                  |
 +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 375  off 0  to enter 15  (on roll)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules import BAR, OFF

if TYPE_CHECKING:
    from ..position import Position

__all__ = ["ascii_board"]

ROWS = 5
TOP_POINTS = tuple(range(13, 25))
BOTTOM_POINTS = tuple(range(12, 0, -1))


def _cell(count: int, mark: str, level: int) -> str:
    """The 3-character cell of a point at stack level ``level`` (0 = rim)."""
    if count > ROWS and level == ROWS - 1:
        return f"{count:>2} "
    return f" {mark} " if count > level else "   "


def _half(
    points: tuple[int, ...], counts: dict[int, tuple[int, str]], level: int
) -> tuple[str, str]:
    cells = [_cell(*counts.get(p, (0, " ")), level) for p in points]
    return "".join(cells[:6]), "".join(cells[6:])


def ascii_board(position: Position, *, on_roll: str = "X", opponent: str = "O") -> str:
    """An ASCII diagram with the side on roll (``X``) at the bottom, numbered from its side."""
    board = position.board
    counts: dict[int, tuple[int, str]] = {}
    for point in range(1, 25):
        if board[0, point]:
            counts[point] = (int(board[0, point]), on_roll)
        if board[1, BAR - point]:
            counts[point] = (int(board[1, BAR - point]), opponent)
    pips = position.pips
    waiting = ["", ""]
    if position.variant.enter_from_off:
        waiting = [f"  to enter {n}" for n in position.waiting]
    lines = [
        " +13-14-15-16-17-18------19-20-21-22-23-24-+"
        f"  {opponent}  pips {pips[1]}  off {int(board[1, OFF])}{waiting[1]}"
    ]
    for level in range(ROWS):
        left, right = _half(TOP_POINTS, counts, level)
        bar = _cell(int(board[1, BAR]), opponent, level)
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append("v|                  |BAR|                  |")
    for level in reversed(range(ROWS)):
        left, right = _half(BOTTOM_POINTS, counts, level)
        bar = _cell(int(board[0, BAR]), on_roll, level)
        lines.append(f" |{left}|{bar}|{right}|")
    lines.append(
        " +12-11-10--9--8--7-------6--5--4--3--2--1-+"
        f"  {on_roll}  pips {pips[0]}  off {int(board[0, OFF])}{waiting[0]}  (on roll)"
    )
    return "\n".join(line.rstrip() if line.endswith("  ") else line for line in lines)
