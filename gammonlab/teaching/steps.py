"""A play built one checker move at a time, the way a board clicked on builds it.

:class:`PlayBuilder` holds the moves made so far with a roll (each one die, ``(from,
to)`` in the mover's numbering: 25 the bar, 0 off, 26 a checker waiting off the board
in Acey-Deucey). A move is taken when it is one the rules allow on the board as it
stands (R4.1, R4.2, R6.3, R6.4, R7.1-R7.4) *and* the moves so far with it still begin a
legal play of the whole roll, played in some order: so R5.1-R5.4 (both dice, the
larger die, doubles as far as they go) are judged as soon as a move makes them
impossible. A refused move comes with the rule it breaks.

>>> from gammonlab import Position
>>> builder = PlayBuilder(Position.initial(), (6, 5))
>>> sorted(builder.options()[13])
[2, 7, 8]
>>> builder.add(builder.options()[13][7])
>>> builder.refusal(24, 18)
('R4.1', '24/18 is 6 pips, which the dice left (5) cannot make')
>>> builder.add(builder.options()[13][8])
>>> builder.complete().notation
'13/7 13/8'

Where only one die can be played, the smaller one is refused at once (R5.3):

>>> from gammonlab.teaching.lessons import lesson
>>> builder = PlayBuilder(lesson("R5.3").position, (6, 5))
>>> builder.options(), builder.refusal(14, 9)
({14: {8: ((14, 8),)}}, ('R5.3', 'only one die can be played, so it must be the larger, the 6'))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from .._kernels.board import START
from ..errors import InternalError
from ..play import Move, Play, format_moves, point_name, replay_hits
from ..rules import BAR, HOME_POINTS, OFF

if TYPE_CHECKING:
    import numpy as np

    from ..position import Dice, Position

__all__ = ["CLICK_PLAYS", "PlayBuilder"]

CLICK_PLAYS = 5000
"""Most legal plays a roll may have for its play to be built move by move; a roll with
more (only an Acey-Deucey 1-2, R11.2) is typed or chosen from the list."""

Refusal = tuple[str, str]
"""The rule a move breaks and why, in words."""


class _Board:
    """The board while a play is built: the mover's row, the opponent's, the checkers
    still waiting off the board (Acey-Deucey, R11.1) and the dice not used yet."""

    __slots__ = ("me", "opponent", "pool", "waiting")

    def __init__(self, me: list[int], opponent: list[int], waiting: int, pool: list[int]):
        self.me, self.opponent, self.waiting, self.pool = me, opponent, waiting, pool

    def key(self) -> tuple[int, ...]:
        return (*self.me, *self.opponent, self.waiting, *sorted(self.pool))

    def final(self) -> tuple[int, ...]:
        return (*self.me, *self.opponent)

    def copy(self) -> _Board:
        return _Board(self.me.copy(), self.opponent.copy(), self.waiting, self.pool.copy())

    def check(self, source: int, target: int, checkers: int) -> Refusal | int:
        """The die that moves a checker from ``source`` to ``target``, or why none may."""
        me = self.me
        written = f"{point_name(source)}/{point_name(target)}"
        if source == START:
            if self.waiting <= 0:
                return "R4.1", "no checker of yours waits off the board to enter"
        elif source == OFF:
            return "R4.1", "a checker borne off has left the board and moves no more"
        elif not 0 < source <= BAR or me[source] <= 0:
            where = "on the bar" if source == BAR else f"on the {point_name(source)}-point"
            return "R4.1", f"there is no checker of yours {where}"
        if source != BAR and me[BAR] > 0:
            return "R6.3", "a checker on the bar must enter before any other checker moves"
        start = min(source, BAR)  # a checker waiting off the board enters as from the bar
        if target != OFF:
            if not 0 < target < start:
                return (
                    "R4.1",
                    f"checkers move forward only, towards the 1-point; {written} does not",
                )
            holders = self.opponent[BAR - target]
            if holders >= 2:
                if start == BAR:
                    return "R6.4", (
                        f"the entry point {target} (the opponent's {BAR - target}-point) "
                        f"is blocked by {holders} checkers"
                    )
                return "R4.2", f"the {target}-point is blocked by {holders} opposing checkers"
        else:
            if self.waiting > 0:
                return "R7.1", (
                    f"bearing off starts only when all {checkers} checkers are in the home "
                    f"board, and {self.waiting} still wait off the board to enter (R11.1)"
                )
            outside = [p for p in range(BAR, HOME_POINTS, -1) if me[p] > 0]
            if outside:
                where = ", ".join(point_name(p) for p in outside)
                return "R7.1", (
                    f"bearing off starts only when all {checkers} checkers are in the "
                    f"home board; checkers still stand on {where}"
                )
        if not self.pool:
            return "R4.1", f"every die is already used before {written}"
        if target != OFF:
            distance = start - target
            if distance in self.pool:
                return distance
            return "R4.1", f"{written} is {distance} pips, which no die left makes"
        if source in self.pool:  # R7.2: the die of the point
            return source
        larger = [die for die in self.pool if die > source]
        if not larger:
            return "R4.1", f"no die left is {source} or more, to bear off from the {source}-point"
        higher = [p for p in range(source + 1, HOME_POINTS + 1) if me[p] > 0]
        if higher:
            die = min(larger)
            return "R7.3", (
                f"a {die} bears off from the {source}-point only when no checker "
                f"stands higher; a checker on the {max(higher)}-point must move"
            )
        return min(larger)  # R7.4: from the highest point

    def apply(self, source: int, target: int, die: int) -> None:
        if source == START:
            self.waiting -= 1
        else:
            self.me[source] -= 1
        self.me[target] += 1
        if target != OFF and self.opponent[BAR - target] == 1:  # a hit (R6.1)
            self.opponent[BAR - target] = 0
            self.opponent[BAR] += 1
        self.pool.remove(die)


class PlayBuilder:
    """The moves of a play so far, and what may follow them.

    Parameters
    ----------
    position : Position
        The position before the play, seen from the mover.
    dice : tuple of int
    steps : sequence of (int, int), optional
        The moves made so far, one die each.
    """

    def __init__(self, position: Position, dice: Dice, steps: Sequence[Move] = ()) -> None:
        self.position = position
        self.dice = dice
        legal = position.legal_plays(dice)
        self._legal = legal
        self.count = len(legal)
        self.clickable = self.count <= CLICK_PLAYS and legal.doubles is None
        self._plays: list[Play] = list(legal) if self.clickable else []
        self._required = len(self._plays[0].moves) if self._plays else 0
        # the boards the legal plays lead to: moves in any order that end on one of
        # them make that play (7/6/off is 7/1/off)
        self._finals: dict[tuple[int, ...], int] = {}
        if self.clickable and self.count:
            for i, final in enumerate(legal.boards.reshape(self.count, -1).tolist()):
                self._finals.setdefault(tuple(final), i)
        self._finishing: dict[tuple[int, ...], bool] = {}
        self._checkers = position.variant.checkers
        self.steps: list[Move] = []
        self._options: dict[int, dict[int, tuple[Move, ...]]] | None = None
        for source, target in steps:
            self.add(((source, target),))

    # -- the board so far ---------------------------------------------------------------------

    def _start(self) -> _Board:
        board = self.position.board
        d1, d2 = self.dice
        pool = [d1] * 4 if d1 == d2 else [d1, d2]
        return _Board(
            [int(n) for n in board[0]],
            [int(n) for n in board[1]],
            int(self.position.waiting[0]),
            pool,
        )

    def _now(self) -> _Board:
        board = self._start()
        for source, target in self.steps:
            found = board.check(source, target, self._checkers)
            if isinstance(found, tuple):
                raise InternalError(f"a move made earlier is refused now: {found[1]} ({found[0]})")
            board.apply(source, target, found)
        return board

    def board(self) -> np.ndarray:
        """The ``(2, 26)`` board after the moves so far, row 0 the mover."""
        import numpy as np

        now = self._now()
        return np.array([now.me, now.opponent], dtype=np.int8)

    @property
    def dice_left(self) -> list[int]:
        """The dice not used yet, largest first."""
        return sorted(self._now().pool, reverse=True)

    @property
    def notation(self) -> str:
        """The moves so far in notation (``''`` before the first)."""
        return self._text(self.steps)

    def _text(self, steps: Sequence[Move]) -> str:
        return format_moves(steps, replay_hits(self.position.board, steps))

    # -- what may follow ----------------------------------------------------------------------

    def _moves_from(self, board: _Board) -> Iterator[tuple[Move, int]]:
        """Every move the rules allow on ``board`` with one of the dice left, and its die."""
        if not board.pool:
            return
        sources = [START] if board.waiting > 0 else []
        sources += [p for p in range(BAR, 0, -1) if board.me[p] > 0]
        seen: set[Move] = set()
        for source in sources:
            for die in dict.fromkeys(board.pool):
                landing = min(source, BAR) - die
                move = (source, landing if landing > 0 else OFF)
                if move in seen:
                    continue
                found = board.check(*move, self._checkers)
                if isinstance(found, int):
                    seen.add(move)
                    yield move, found

    def _finishes(self, board: _Board, made: int) -> bool:
        """Whether ``made`` moves that led to ``board`` can go on to a legal play."""
        key = board.key()
        known = self._finishing.get(key)
        if known is not None:
            return known
        if made >= self._required:
            result = board.final() in self._finals
        else:
            result = False
            for (source, target), die in self._moves_from(board):
                after = board.copy()
                after.apply(source, target, die)
                if self._finishes(after, made + 1):
                    result = True
                    break
        self._finishing[key] = result
        return result

    def options(self) -> dict[int, dict[int, tuple[Move, ...]]]:
        """For each point a checker may move from now: each point it may reach, with
        the moves (one die each) that take it there, hitting on the way (R6.2)."""
        if self._options is None:
            found: dict[int, dict[int, tuple[Move, ...]]] = {}

            def extend(board: _Board, made: int, root: int | None, chain: tuple[Move, ...]):
                for move, die in self._moves_from(board):
                    if root is not None and move[0] != chain[-1][1]:
                        continue
                    after = board.copy()
                    after.apply(*move, die)
                    if not self._finishes(after, made + 1):
                        continue
                    steps = (*chain, move)
                    reach = found.setdefault(steps[0][0], {})
                    if move[1] not in reach or len(reach[move[1]]) > len(steps):
                        reach[move[1]] = steps
                    if move[1] != OFF:
                        extend(after, made + 1, steps[0][0], steps)

            if self.clickable and len(self.steps) < self._required:
                extend(self._now(), len(self.steps), None, ())
            self._options = found
        return self._options

    def complete(self) -> Play | None:
        """The legal play the moves so far make, once they make a whole one."""
        if not self.clickable or len(self.steps) != self._required:
            return None
        index = self._finals.get(self._now().final())
        return None if index is None else self._legal[index]

    # -- changing it --------------------------------------------------------------------------

    def add(self, chain: Sequence[Move]) -> None:
        """Make the moves of ``chain``, which :meth:`options` offered."""
        self.steps.extend((int(s), int(t)) for s, t in chain)
        self._options = None

    def take_back(self, count: int = 1) -> list[Move]:
        """Take back the last ``count`` moves; returns them."""
        taken = self.steps[len(self.steps) - count :] if count else []
        del self.steps[len(self.steps) - len(taken) :]
        self._options = None
        return taken

    # -- why not ------------------------------------------------------------------------------

    def refusal(self, source: int, target: int) -> Refusal:
        """Why a checker may not go from ``source`` to ``target`` now, citing the rule."""
        board = self._now()
        first = board.check(source, target, self._checkers)
        if isinstance(first, tuple):
            if first[0] != "R4.1" or target == OFF or "pips" not in first[1]:
                return first
            # not one die: maybe several dice, one checker (R4.4)
            return self._refusal_of_journey(board, source, target)
        return self._refusal_of_play([(source, target)])

    def _refusal_of_journey(self, board: _Board, source: int, target: int) -> Refusal:
        distance = min(source, BAR) - target
        written = f"{point_name(source)}/{point_name(target)}"
        blocked: Refusal | None = None
        for dice in _orderings_summing(board.pool, distance):
            trial, point, steps = board.copy(), source, []
            for die in dice:
                landing = min(point, BAR) - die
                found = trial.check(point, landing, self._checkers)
                if isinstance(found, tuple):
                    if landing != target and found[0] in ("R4.2", "R6.4"):
                        found = (
                            "R4.4",
                            f"{written} touches down on the {landing}-point, which is blocked",
                        )
                    blocked = blocked or found
                    break
                trial.apply(point, landing, found)
                steps.append((point, landing))
                point = landing
            else:
                return self._refusal_of_play(steps)
        if blocked is not None:
            return blocked
        left = "-".join(str(d) for d in sorted(board.pool, reverse=True)) or "no die"
        return "R4.1", f"{written} is {distance} pips, which the dice left ({left}) cannot make"

    def _refusal_of_play(self, steps: list[Move]) -> Refusal:
        """Why moves the board allows still make no legal play (R5.1-R5.4)."""
        after = self._text([*self.steps, *steps])
        move = self._text(steps)
        required = len(self._plays[0].moves) if self._plays else 0
        d1, d2 = self.dice
        if not self._plays:
            return "R5.5", "no number can be played: the turn is lost"
        if d1 == d2:
            return "R5.4", (
                f"with doubles, as many of the four {d1}s as possible must be played, and "
                f"{required} can be; {after} leaves fewer"
            )
        if required == 1:
            return "R5.3", (
                f"only one die can be played, so it must be the larger, the {max(self.dice)}"
            )
        left = self._now()
        for source, target in steps:
            die = left.check(source, target, self._checkers)
            if isinstance(die, int):
                left.apply(source, target, die)
        unplayed = " and the ".join(str(d) for d in sorted(left.pool, reverse=True))
        before = f"after {self.notation}, " if self.steps else ""
        return "R5.1", (
            f"both dice must be played when possible; {before}{move} leaves the "
            f"{unplayed or 'other die'} unplayable"
        )

    def example(self, steps: Sequence[Move] = ()) -> str | None:
        """A legal play sharing the most moves with the moves so far and ``steps``."""
        if not self._plays:
            return None
        wanted = Counter([*self.steps, *steps])
        best = max(self._plays, key=lambda play: sum((Counter(play.moves) & wanted).values()))
        return best.notation


def _orderings_summing(pool: list[int], distance: int) -> list[tuple[int, ...]]:
    """Orders of two or more of the dice in ``pool`` that add up to ``distance``."""
    from itertools import permutations

    found: dict[tuple[int, ...], None] = {}
    for size in range(2, len(pool) + 1):
        for dice in permutations(pool, size):
            if sum(dice) == distance:
                found[dice] = None
    return list(found)
