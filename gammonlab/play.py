"""Plays: a whole turn's checker moves, their notation, and the legal plays of a roll.

>>> from gammonlab import Position
>>> play = Position.initial().legal_plays((6, 5))[0]
>>> play.notation, play.moves
('24/13', ((24, 18), (18, 13)))

An Acey-Deucey 1-2 (R11.2) holds the 1 and the 2, then the four moves of the
doubles chosen; the notation says which (see :mod:`gammonlab.notation`):

>>> play = Position.initial("acey-deucey").find_play("in/24 in/23 then 6-6: in/19(4)", (1, 2))
>>> play.doubles, len(play.moves), play.roll_again
(6, 6, True)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, overload

import numpy as np

from ._kernels.board import START
from .errors import PlayIndexError
from .rules import BAR, OFF

if TYPE_CHECKING:
    from .position import Dice, Position

__all__ = ["LegalPlays", "Move", "Play", "format_moves", "point_name"]

Move = tuple[int, int]
"""One checker moved by one die: ``(from, to)`` in the mover's numbering, 25 bar, 0 off,
26 (:data:`START`) off the board waiting to enter (Acey-Deucey)."""

ACEY_DEUCEY = (1, 2)
"""The Acey-Deucey roll (R11.2), low die first."""


_SLOTS = {START: "in", BAR: "bar", OFF: "off"}
"""The slots that notation writes by name, not by number."""


def point_name(point: int) -> str:
    """How notation writes a slot: ``'bar'``, ``'off'``, ``'in'`` (an Acey-Deucey
    checker entering from off the board, R11.1) or the point number."""
    return _SLOTS.get(point, str(point))


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
    >>> format_moves([(26, 22), (26, 22), (26, 20)], [False, False, True])
    'in/20* in/22(2)'
    """
    return _format(tuple(moves), tuple(hits))


def acey_deucey_notation(moves: Sequence[Move], hits: Sequence[bool], doubles: int) -> str:
    """Notation of an Acey-Deucey 1-2 (R11.2): the 1 and the 2, then the doubles chosen.

    >>> acey_deucey_notation([(26, 24), (26, 23)] + [(26, 19)] * 4, [False] * 6, 6)
    'in/23 in/24 then 6-6: in/19(4)'
    >>> acey_deucey_notation([(26, 24), (26, 23)], [False] * 2, 5)
    'in/23 in/24 then 5-5: no move'
    """
    first = _format(tuple(moves[:2]), tuple(hits[:2]))
    second = _format(tuple(moves[2:]), tuple(hits[2:])) or "no move"
    return f"{first} then {doubles}-{doubles}: {second}"


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
    texts = ["/".join(point_name(p) + ("*" if hit else "") for p, hit in path) for path in paths]
    counts: dict[str, int] = {}
    for text in texts:
        counts[text] = counts.get(text, 0) + 1
    return " ".join(text if n == 1 else f"{text}({n})" for text, n in counts.items())


class Play:
    """A whole turn: up to four checker moves and the position they lead to
    (six for an Acey-Deucey 1-2, R11.2).

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
    doubles : int or None
        Acey-Deucey's 1-2 (R11.2): the doubles chosen after the 1 and the 2
        (1 to 6); ``None`` for any other roll, or a 1-2 not played in full.
    """

    __slots__ = ("_board", "_dice", "_doubles", "_hit_flags", "_moves", "before")

    def __init__(
        self,
        before: Position,
        dice: Dice,
        moves: Sequence[Move],
        board: np.ndarray,
        doubles: int | None = None,
    ) -> None:
        self.before = before
        self._dice = dice
        self._moves: tuple[Move, ...] = (
            moves if type(moves) is tuple else tuple(map(tuple, moves))  # type: ignore[assignment,arg-type]
        )
        self._board = board
        self._doubles = doubles
        self._hit_flags: tuple[bool, ...] | None = None

    def _hits_in_order(self) -> tuple[bool, ...]:
        """For each move, whether it hits a blot (R6.1), found when first asked."""
        if self._hit_flags is None:
            self._hit_flags = replay_hits(self.before.board, self._moves)
        return self._hit_flags

    @property
    def doubles(self) -> int | None:
        """The doubles chosen with an Acey-Deucey 1-2 (R11.2), else ``None``."""
        return self._doubles

    @property
    def roll_again(self) -> bool:
        """Whether the mover rolls again: after an Acey-Deucey 1-2 with all six moves
        played, the 1, the 2 and the four doubles (R11.2)."""
        return self._doubles is not None and len(self._moves) == 6

    @classmethod
    def parse(cls, text: str, position: Position, dice: Dice) -> Play:
        """The legal play that ``text`` writes on ``position`` with ``dice``.

        The same as :meth:`Position.find_play <gammonlab.position.Position.find_play>`;
        ``Play.parse(str(play), play.before, play.dice) == play``.

        >>> from gammonlab import Position
        >>> str(Play.parse("13/11 13/8", Position.initial(), (5, 2)))
        '13/8 13/11'
        """
        return position.find_play(text, dice)

    @property
    def dice(self) -> Dice:
        return self._dice

    @property
    def moves(self) -> tuple[Move, ...]:
        return self._moves

    @property
    def hits(self) -> tuple[int, ...]:
        return tuple(t for (_, t), hit in zip(self._moves, self._hits_in_order()) if hit)

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
        """Canonical notation, e.g. ``'24/18 13/11*'``; empty for a roll that cannot be played.

        An Acey-Deucey 1-2 writes its doubles: ``'in/24 in/23 then 6-6: in/19(4)'``.
        """
        if self._doubles is not None:
            return acey_deucey_notation(self._moves, self._hits_in_order(), self._doubles)
        return format_moves(self._moves, self._hits_in_order())

    def __str__(self) -> str:
        return self.notation

    def __repr__(self) -> str:
        d1, d2 = self._dice
        return f"<Play {d1}{d2}: {self.notation or 'no move'}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return (
            self.before == other.before
            and self._doubles == other._doubles
            and bool(np.array_equal(self._board, other._board))
        )

    def __hash__(self) -> int:
        return hash((self.before, self._board.tobytes(), self._doubles))

    def _repr_svg_(self) -> str:
        from .draw import svg

        return str(svg.board(self))


_MOVES_SEEN: dict[object, tuple[Move, ...]] = {}
"""The moves of each play row seen, built once and shared: the same few thousand plays
come up again and again. A row of four int8 moves is keyed by its eight bytes read as
one integer (as :func:`_moves_of_rows` reads a whole array of them at once), any other
by its dtype and bytes."""
_MOVES_KEPT = 1 << 16


def _moves_seen(key: object, row: np.ndarray) -> tuple[Move, ...]:
    moves = _MOVES_SEEN.get(key)
    if moves is None:
        if len(_MOVES_SEEN) >= _MOVES_KEPT:
            _MOVES_SEEN.clear()
        moves = tuple([(s, t) for s, t in row.tolist() if s >= 0])
        _MOVES_SEEN[key] = moves
    return moves


def _moves_of(row: np.ndarray) -> tuple[Move, ...]:
    """The moves of a play from its row of the move generator's array (``-1`` pads it)."""
    data = row.tobytes()
    if row.dtype == np.int8 and len(data) == 8:
        return _moves_seen(int.from_bytes(data, sys.byteorder, signed=True), row)
    return _moves_seen((row.dtype.num, data), row)


def _moves_of_rows(rows: np.ndarray) -> list[tuple[Move, ...]]:
    """The moves of each play of a move generator's int8 array ``(n, 4, 2)``, as
    :func:`_moves_of` gives them (the rows of a whole game, read at once)."""
    codes = memoryview(rows.tobytes()).cast("q").tolist()
    seen = _MOVES_SEEN
    found = []
    for k, code in enumerate(codes):
        moves = seen.get(code)
        found.append(moves if moves is not None else _moves_seen(code, rows[k]))
    return found


class LegalPlays(Sequence[Play]):
    """The legal plays of a position for a roll: a lazy, read-only sequence.

    ``len()`` and :attr:`boards` work on the move generator's arrays without
    building :class:`Play` objects: an Acey-Deucey 1-2 (R11.2) may have over a
    hundred thousand plays.
    """

    __slots__ = ("_boards", "_dice", "_doubles", "_moves", "before")

    def __init__(
        self,
        before: Position,
        dice: Dice,
        boards: np.ndarray,
        moves: np.ndarray,
        doubles: np.ndarray | None = None,
    ) -> None:
        self.before = before
        self._dice = dice
        self._boards = boards
        self._moves = moves
        self._doubles = doubles

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
        n = int(self._boards.shape[0])
        asked = index
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise PlayIndexError(
                f"play index {asked} out of range: {n} legal play{'' if n == 1 else 's'}"
            )
        moves = _moves_of(self._moves[index])
        doubles = None
        if self._doubles is not None and self._doubles[index] > 0:
            doubles = int(self._doubles[index])
        # a copy of the one board, not a view that keeps every play's board alive
        return Play(self.before, self._dice, moves, self._boards[index].copy(), doubles)

    @property
    def doubles(self) -> np.ndarray | None:
        """For an Acey-Deucey 1-2 (R11.2), the doubles of each play (0: the 1-2 was not
        played in full); ``None`` for any other roll."""
        return self._doubles

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
