"""Plays: a whole turn's checker moves, their notation, and the legal plays of a roll.

>>> from gammonlab import Position
>>> play = Position.initial().legal_plays((6, 5))[0]
>>> play.notation, play.moves
('24/13', ((24, 18), (18, 13)))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, overload

import numpy as np

from .rules import BAR, OFF

if TYPE_CHECKING:
    from .position import Dice, Position

__all__ = ["LegalPlays", "Move", "Play", "format_moves", "point_name"]

Move = tuple[int, int]
"""One checker moved by one die: ``(from, to)`` in the mover's numbering, 25 bar, 0 off."""


def point_name(point: int) -> str:
    """How notation writes a slot: ``'bar'``, ``'off'`` or the point number."""
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def replay_hits(board: np.ndarray, moves: Sequence[Move]) -> tuple[bool, ...]:
    """For each move in order, whether it hits a blot (R6.1)."""
    opponent = board[1].tolist()
    hits = []
    for _, target in moves:
        hit = target != OFF and opponent[BAR - target] == 1
        if hit:
            opponent[BAR - target] = 0
            opponent[BAR] += 1
        hits.append(bool(hit))
    return tuple(hits)


def format_moves(moves: Sequence[Move], hits: Sequence[bool]) -> str:
    """Canonical notation of a play, in GNU Backgammon's style.

    Moves are sorted from the highest source down, the longer move first
    from the same point; a checker that moves on
    from where it landed is written as one move (``24/13``), keeping the
    intermediate point when it hit there (``24/18*/13``); repeated moves are
    counted (``8/5(2)``).

    >>> format_moves([(8, 5), (6, 5)], [False, False])
    '8/5 6/5'
    >>> format_moves([(24, 18), (18, 13)], [True, False])
    '24/18*/13'
    >>> format_moves([(8, 5), (8, 5), (6, 3), (6, 3)], [False] * 4)
    '8/5(2) 6/3(2)'
    """
    return _format(tuple(moves), tuple(hits))


@lru_cache(maxsize=65536)
def _format(moves: tuple[Move, ...], hits: tuple[bool, ...]) -> str:
    # the same plays come up again and again in a corpus
    if not moves:
        return ""
    # from the highest point down; from one point, the longer move first
    steps = sorted(zip(moves, hits), key=lambda item: (-item[0][0], item[0][1]))
    # Each path is a list of points with hit flags on the landing points.
    paths: list[list[tuple[int, bool]]] = [[(src, False), (dst, hit)] for (src, dst), hit in steps]
    merged = True
    while merged:
        merged = False
        for i, path in enumerate(paths):
            end = path[-1][0]
            if end == OFF:
                continue
            for j in range(len(paths)):
                if j != i and paths[j][0][0] == end:
                    if path[-1][1]:
                        path.append(paths[j][1])  # keep the point where it hit
                    else:
                        path[-1] = paths[j][1]
                    del paths[j]
                    merged = True
                    break
            if merged:
                break
    texts = [
        "/".join(point_name(p) + ("*" if hit else "") for p, hit in path)
        for path in paths
    ]
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if n == 1 else f"{text}({n})" for text, n in counts.items())


class Play:
    """A whole turn: up to four checker moves and the position they lead to.

    Attributes
    ----------
    before : Position
        The position the play was made from.
    dice : tuple of int
        The roll.
    moves : tuple of (int, int)
        The checker moves one die at a time, ``(from, to)`` in the mover's
        numbering (25 bar, 0 off), in an order in which they can be played.
    hits : tuple of int
        The points (mover's numbering) where a blot was hit.
    position : Position
        The resulting position, opponent on roll.
    """

    __slots__ = ("_board", "_dice", "_hit_flags", "_moves", "before")

    def __init__(self, before: Position, dice: Dice, moves: Sequence[Move],
                 board: np.ndarray) -> None:
        self.before = before
        self._dice = dice
        self._moves = tuple(moves) if type(moves) is tuple else tuple(map(tuple, moves))
        self._board = board
        self._hit_flags = replay_hits(before.board, self._moves)

    @property
    def dice(self) -> Dice:
        return self._dice

    @property
    def moves(self) -> tuple[Move, ...]:
        return self._moves

    @property
    def hits(self) -> tuple[int, ...]:
        return tuple(t for (_, t), hit in zip(self._moves, self._hit_flags) if hit)

    @property
    def position(self) -> Position:
        """The resulting position, seen from the opponent, who is now on roll."""
        return type(self.before)._trusted(self._board[::-1], self.before.variant)

    @property
    def board(self) -> np.ndarray:
        """The resulting board seen from the mover (row 0 has just moved)."""
        return self._board

    @property
    def notation(self) -> str:
        """Canonical notation, e.g. ``'24/18 13/11*'``; empty for a roll that cannot be played."""
        return format_moves(self._moves, self._hit_flags)

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        d1, d2 = self._dice
        return f"<Play {d1}{d2}: {self.notation or 'no move'}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return (self.before == other.before
                and bool(np.array_equal(self._board, other._board)))

    def __hash__(self) -> int:
        return hash((self.before, self._board.tobytes()))

    def _repr_svg_(self) -> str | None:
        try:
            from . import svg
        except ImportError:
            return None
        return str(svg.board(self))


class LegalPlays(Sequence[Play]):
    """The legal plays of a position for a roll: a lazy, read-only sequence.

    ``len()`` and :attr:`boards` work on the move generator's arrays without
    building :class:`Play` objects.
    """

    __slots__ = ("_boards", "_dice", "_moves", "before")

    def __init__(self, before: Position, dice: Dice, boards: np.ndarray,
                 moves: np.ndarray) -> None:
        self.before = before
        self._dice = dice
        self._boards = boards
        self._moves = moves

    @property
    def dice(self) -> Dice:
        return self._dice

    @property
    def boards(self) -> np.ndarray:
        """Resulting boards ``(n, 2, 26)``, seen from the mover."""
        return self._boards

    def __len__(self) -> int:
        return int(self._boards.shape[0])

    @overload
    def __getitem__(self, index: int) -> Play: ...

    @overload
    def __getitem__(self, index: slice) -> list[Play]: ...

    def __getitem__(self, index: int | slice) -> Play | list[Play]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("play index out of range")
        moves = [(s, t) for s, t in self._moves[index].tolist() if s >= 0]
        return Play(self.before, self._dice, moves, self._boards[index])

    def __iter__(self) -> Iterator[Play]:
        for i in range(len(self)):
            yield self[i]

    @property
    def notations(self) -> list[str]:
        """The canonical notation of every play."""
        return [play.notation for play in self]

    @property
    def positions(self) -> list[Position]:
        """The resulting positions, opponent on roll."""
        return [play.position for play in self]

    def __repr__(self) -> str:
        d1, d2 = self._dice
        shown = ", ".join(self.notations[:6])
        more = f", ... ({len(self)} in all)" if len(self) > 6 else ""
        return f"<LegalPlays {d1}{d2}: {shown}{more}>"
