"""What a written play means on a board, and why an illegal one is illegal.

:func:`resolve_play` turns text into the legal :class:`~gammonlab.play.Play` it
describes; :func:`explain_play` says, citing ``rules.md``, which rule a play
breaks and shows a legal play that would do. Both serve
:meth:`Position.play <gammonlab.position.Position.play>` and
:meth:`Position.explain <gammonlab.position.Position.explain>`.

>>> from gammonlab import Position
>>> print(Position.initial().explain("13/7", (6, 5)).message)
13/7 is illegal with 6-5: both dice must be played when possible (R5.1); for example 13/7 13/8
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations, permutations
from typing import TYPE_CHECKING

import numpy as np

from ._kernels.board import START
from ._kernels.movegen import plays_with_change, replay_changes
from .errors import IllegalPlayError, InvalidDiceError, InvalidNotationError
from .notation import REMEMBERED_LENGTH, Journey, parse_notation, split_acey_deucey
from .play import ACEY_DEUCEY, LegalPlays, Move, Play, _moves_of_rows, point_name
from .position import normalise_dice
from .rules import BAR, HOME_POINTS, OFF

if TYPE_CHECKING:
    from .position import Dice, Position

__all__ = ["RULES_IN_WORDS", "Explanation", "explain_play", "resolve_play", "resolve_turns"]

RULES_IN_WORDS: dict[str, str] = {
    "R4.1": "each die moves one checker forward by exactly its number",
    "R4.2": "a checker may not land on a point held by two or more opposing checkers",
    "R4.4": "a checker using both dice must touch down on an open point in between",
    "R5.1": "both dice must be played when possible",
    "R5.3": "when only one die can be played, the larger must be played if it can",
    "R5.4": "with doubles, as many of the four moves as possible must be played",
    "R5.5": "when no number can be played, the turn is lost",
    "R5.6": "a move must be played when one is possible",
    "R6.3": "while a checker is on the bar, no other checker may move",
    "R6.4": "a checker enters on the opponent's home board, on a point that is not blocked",
    "R6.6": "when no checker can enter, the whole turn is lost",
    "R7.1": "bearing off starts only when every checker is in the home board",
    "R7.3": "a die larger than the highest point bears off only from the highest point",
    "R11.1": "a checker waiting off the board enters into the opponent's home board first",
    "R11.2": "after the 1 and the 2 of a 1-2, the player chooses doubles and plays them",
}
"""The rules an explanation can cite, in words (ids of ``rules.md``)."""


@dataclass(frozen=True)
class Explanation:
    """The verdict on a written play.

    Attributes
    ----------
    text : str
        The play as written.
    dice : tuple of int
    legal : bool
    play : Play or None
        The legal play the text describes, when it is legal.
    rule : str or None
        Id of the broken rule (``'R5.1'``) when it is illegal.
    reason : str
        What is wrong, in words.
    example : str or None
        A legal play that would do (canonical notation), when there is one.
    """

    text: str
    dice: Dice
    legal: bool
    play: Play | None = None
    rule: str | None = None
    reason: str = ""
    example: str | None = None

    @property
    def message(self) -> str:
        """One sentence, e.g. ``13/7 is illegal with 6-5: both dice must be played ...``."""
        roll = f"{max(self.dice)}-{min(self.dice)}"
        shown = self.text.strip() or "playing no move"  # an empty play (R5.5, R5.6)
        if self.legal:
            notation = self.play.notation if self.play is not None else ""
            return f"{notation or 'no move'} is legal with {roll}"
        text = f"{shown} is illegal with {roll}: {self.reason} ({self.rule})"
        if self.example is not None:
            text += f"; for example {self.example or 'no move'}"
        return text

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        return self.message


# -- resolving text -------------------------------------------------------------------------


def _pass(position: Position, dice: Dice) -> Play:
    return Play(position, dice, (), np.array(position.board))


def _dice_pool(dice: Dice) -> list[int]:
    d1, d2 = dice
    return [d1] * 4 if d1 == d2 else [max(dice), min(dice)]


@lru_cache(maxsize=64)
def _sub_multisets(pool: tuple[int, ...]) -> list[tuple[int, ...]]:
    found = set()
    for size in range(1, len(pool) + 1):
        for combo in combinations(sorted(pool, reverse=True), size):
            found.add(combo)
    return sorted(found, key=lambda c: (len(c), [-d for d in c]))


def _covers(distance: int, target: int, dice: tuple[int, ...]) -> bool:
    """Whether ``dice`` carry one checker ``distance`` pips to ``target``."""
    total = sum(dice)
    if target == OFF:
        # the checker reaches off on its last die, possibly with pips to spare (R7.4):
        # played largest die last, the others must leave it short of off
        return total >= distance and total - max(dice) < distance
    return total == distance


def _dice_shape(segments: Sequence[tuple[int, int]]) -> tuple[tuple[int, bool], ...]:
    """What matters of the written segments for the dice they use: only each
    segment's length and whether it bears off; a checker entering from off the
    board comes in as from the bar (R11.1)."""
    return tuple(sorted((min(source, BAR) - target, target == OFF) for source, target in segments))


@lru_cache(maxsize=64)
@lru_cache(maxsize=64)
def _sorted_pool(dice: Dice) -> tuple[int, ...]:
    """The dice to play, largest first: four of a doublet (R5.4)."""
    return tuple(sorted(_dice_pool(dice), reverse=True))


@lru_cache(maxsize=4096)
def _dice_counts_of_shape(
    shape: tuple[tuple[int, bool], ...], pool: tuple[int, ...]
) -> frozenset[int]:
    if not shape:
        return frozenset({0})
    (distance, off), rest = shape[0], shape[1:]
    counts: set[int] = set()
    for dice in _sub_multisets(pool):
        if _covers(distance, OFF if off else -1, dice):
            remaining = list(pool)
            for die in dice:
                remaining.remove(die)
            counts |= {len(dice) + n for n in _dice_counts_of_shape(rest, tuple(remaining))}
    return frozenset(counts)


@dataclass(frozen=True)
class _Written:
    """What the journeys of a written play say, independent of the board."""

    sources: tuple[int, ...]  # the columns a checker leaves (none for one entering from off)
    entering: int  # checkers entering from off the board (R11.1)
    targets: tuple[int, ...]
    touchdowns: tuple[int, ...]  # points written between a source and its target (R4.4)
    segments: tuple[tuple[int, int], ...]
    shape: tuple[tuple[int, bool], ...]
    marked: frozenset[int]  # the points the text marks as hit
    change: np.ndarray = field(compare=False)  # checkers put on (+) and taken from (-) row 0


@lru_cache(maxsize=16384)
def _written(journeys: tuple[Journey, ...]) -> _Written:
    segments = tuple(segment for journey in journeys for segment in journey.segments)
    sources = tuple(j.source for j in journeys if j.source != START)
    targets = tuple(j.target for j in journeys)
    change = np.zeros(BAR + 1, dtype=np.int8)
    for source in sources:
        change[source] -= 1
    for target in targets:
        change[target] += 1
    change.flags.writeable = False
    return _Written(
        sources=sources,
        entering=sum(j.source == START for j in journeys),
        targets=targets,
        touchdowns=tuple(p for j in journeys for p in j.points[1:-1]),
        segments=segments,
        shape=_dice_shape(segments),
        marked=frozenset(
            point for j in journeys for point, hit in zip(j.points[1:], j.hits) if hit
        ),
        change=change,
    )


def _read_play(text: str) -> tuple[tuple[Journey, ...], _Written | None]:
    """The journeys of a play's text and what they say (the same texts come up again
    and again in a transcript: those up to
    :data:`~gammonlab.notation.REMEMBERED_LENGTH` long are remembered); raises
    InvalidNotationError."""
    if len(text) <= REMEMBERED_LENGTH:
        return _read_play_remembered(text)
    return _read_new_play(text)


def _read_new_play(text: str) -> tuple[tuple[Journey, ...], _Written | None]:
    journeys = parse_notation(text)
    return journeys, _written(journeys) if journeys else None


_read_play_remembered = lru_cache(maxsize=65536)(_read_new_play)


def _match(
    position: Position,
    journeys: tuple[Journey, ...],
    legal: LegalPlays,
    written: _Written | None = None,
) -> Play | None:
    if not journeys:
        return _pass(position, legal.dice) if len(legal) == 0 else None
    boards = legal.boards
    if boards.shape[0] == 0:
        return None
    if written is None:
        written = _written(journeys)
    if written.entering and written.entering > position.waiting[0]:
        return None
    board = position.board
    if written.touchdowns:
        # A point written between source and target is a touch-down point: it
        # must be open (R4.4); blocks cannot change during a turn.
        opponent = board[1].tolist()
        if any(opponent[BAR - p] >= 2 for p in written.touchdowns):
            return None
    # the row the written play leaves (none when it moves checkers that are not there)
    candidates = plays_with_change(boards, board, written.change)
    if candidates.size == 0:
        return None
    plays = [legal[int(i)] for i in candidates]
    if len(plays[0].moves) not in _dice_counts_of_shape(written.shape, _sorted_pool(legal.dice)):
        return None
    if len(plays) == 1:
        return plays[0]
    return _closest(plays, written)


def _closest(plays: list[Play], written: _Written) -> Play:
    """Of plays with the same end points, the one the text writes.

    Plays with the same end points differ only in blots hit on the way. The
    points the text writes choose between them (some writers never mark a
    hit: '18/16 16/11' hits on 16), then its hit marks ('24/18*/13'); the first
    of those that tie."""
    shared = [_shared(play.moves, written.segments) for play in plays]
    most = max(shared)
    closest = [play for play, n in zip(plays, shared, strict=True) if n == most]
    if len(closest) == 1:
        return closest[0]  # hits are worked out only where the points written tie
    return min(closest, key=lambda play: len(written.marked ^ set(play.hits)))


def _shared(moves: tuple[Move, ...], segments: tuple[tuple[int, int], ...]) -> int:
    """How many of the moves the segments write, each segment written once."""
    left = list(segments)
    shared = 0
    for move in moves:
        if move in left:
            left.remove(move)
            shared += 1
    return shared


def _false_hit(text: str, dice: Dice, play: Play, written: _Written) -> Explanation | None:
    """Why the text of a play is illegal when it marks a hit where the play hits nothing;
    None when its marks are true (or it marks none)."""
    false = written.marked - set(play.hits)
    if not false:
        return None
    points = ", ".join(str(p) for p in sorted(false, reverse=True))
    return Explanation(
        text=text,
        dice=dice,
        legal=False,
        rule="R6.1",
        reason=f"it marks a hit on {points}, where no opposing blot stands",
        example=str(play),
    )


def resolve_play(
    position: Position, text: str, dice: Dice, *, legal: LegalPlays | None = None
) -> Play:
    """The legal play that ``text`` describes on ``position`` with ``dice``.

    ``legal`` may pass the legal plays when they are already at hand.

    Raises
    ------
    InvalidNotationError
        The text is not a play in any known notation.
    IllegalPlayError
        The play breaks a rule; the message cites it and shows a legal play.
    """
    if _is_acey_deucey(position, dice):
        play, explanation = _acey_deucey(position, text, dice, legal)
    else:
        if type(text) is str:
            journeys, written = _read_play(text)
        else:
            journeys, written = parse_notation(text), None  # raises InvalidNotationError
        if legal is None:
            legal = position.legal_plays(dice)
        play = _match(position, journeys, legal, written)
        explanation = None if play is not None else _diagnose(position, text, dice, journeys, legal)
        if play is not None and written is not None:
            explanation = _false_hit(text, dice, play, written)
            if explanation is not None:
                play = None
    if play is not None:
        return play
    assert explanation is not None
    raise IllegalPlayError(
        explanation.message,
        rule=explanation.rule or "",
        reason=explanation.reason,
        example=explanation.example,
    )


_Turn = tuple[tuple[Journey, ...], "_Written | None", bytes, frozenset[int]]
_TURNS_SEEN: dict[tuple[str, Dice], _Turn | None] = {}
_TURNS_KEPT = 1 << 16


def _read_turn(text: str, dice: Dice) -> _Turn | None:
    """What a turn writes, as :func:`resolve_turns` needs it: the journeys, what they
    say, the kernel's row (the change of the mover's row, then the dice) and how many
    moves the dice allow the text's shape; ``None`` for a turn it leaves to
    :func:`resolve_play` (an unreadable play or roll, an entry from off the board)."""
    key = (text, dice)
    if key in _TURNS_SEEN:
        return _TURNS_SEEN[key]
    turn: _Turn | None = None
    try:
        d1, d2 = normalise_dice(dice)
        journeys, written = _read_play(text)
    except (InvalidDiceError, InvalidNotationError):
        pass
    else:
        # nothing waits to enter outside Acey-Deucey: resolve_play says why
        if written is None or not written.entering:
            change = written.change.tobytes() if written is not None else bytes(BAR + 1)
            counts = (
                _dice_counts_of_shape(written.shape, _sorted_pool((d1, d2)))
                if written is not None
                else frozenset()
            )
            turn = (journeys, written, change + bytes((d1, d2)), counts)
    if len(text) <= REMEMBERED_LENGTH:
        if len(_TURNS_SEEN) >= _TURNS_KEPT:
            _TURNS_SEEN.clear()
        _TURNS_SEEN[key] = turn
    return turn


def resolve_turns(
    position: Position, turns: Sequence[tuple[str, Dice]]
) -> list[tuple[Play, int, Position]]:
    """The legal plays that a game's turns write, sides alternating from ``position``'s
    side on roll: each turn's ``(play text, dice)``. For each turn, in order, its
    play, how many legal plays its roll had and the position it leaves, the next
    side on roll; the list stops before the first turn that :func:`resolve_play`
    would not resolve this way (an illegal or unreadable play, an Acey-Deucey 1-2),
    which the caller resolves on its own, and after a turn that ends the game (R8.1).

    The move generator and the search of each written play among the legal plays
    run in one kernel call for the whole game.

    >>> from gammonlab import Position
    >>> turns = resolve_turns(Position.initial(), [("8/5 6/5", (3, 1)), ("24/18 13/11", (6, 2))])
    >>> [(str(play), n_legal) for play, n_legal, _ in turns]
    [('8/5 6/5', 16), ('24/18 13/11', 14)]
    """
    variant = position.variant
    if variant.enter_from_off or position.is_game_over:
        return []
    readings: list[_Turn] = []
    seen = _TURNS_SEEN
    for text, dice in turns:
        if type(text) is not str or type(dice) is not tuple:
            break
        # a transcript's turns come up again and again: most were read before
        key = (text, dice)
        turn = seen[key] if key in seen else _read_turn(text, dice)
        if turn is None:
            break
        readings.append(turn)
    m = len(readings)
    rows = np.frombuffer(bytearray(b"".join([turn[2] for turn in readings])), dtype=np.int8)
    rows = rows.reshape(m, BAR + 3)
    resolved: list[tuple[Play, int, Position]] = []
    sharing_all = type(position)._sharing_all
    before = position
    while len(resolved) < m:
        first = len(resolved)
        done, choose, befores, results, n_legal, offsets, found, found_boards = replay_changes(
            before.board, rows[first:]
        )
        befores.flags.writeable = False
        # R8.1: the turn that bears off a side's last checker ends the game, and the list;
        # a checker borne off stays off, so the last board says whether a turn did
        checkers = variant.checkers
        if befores.item(done, 0, OFF) == checkers or befores.item(done, 1, OFF) == checkers:
            ended = np.flatnonzero((befores[1 : done + 1, :, OFF] == checkers).any(axis=1))
            done, choose = int(ended[0]) + 1, False
        taken = done + choose
        bounds = offsets[: taken + 1].tolist()
        # the moves, positions after and boards of the turns taken, from the kernel's rows
        found_moves = _moves_of_rows(found)
        afters = sharing_all(befores[1 : done + 1], variant)
        for i, (journeys, written, _, allowed), (_, dice), n, start, end, board in zip(
            range(taken),
            readings[first : first + taken],
            turns[first : first + taken],
            n_legal[:taken].tolist(),
            bounds,
            bounds[1:],
            list(results[:taken]),
        ):
            if written is None:
                if journeys:
                    return resolved
                play = _pass(before, dice)
            else:
                if written.touchdowns:
                    # R4.4: a point written between source and target must be open
                    opponent = before.board[1].tolist()
                    if any(opponent[BAR - p] >= 2 for p in written.touchdowns):
                        return resolved
                moves = found_moves[start]
                if len(moves) not in allowed:
                    return resolved
                if end - start == 1:
                    play = Play(before, dice, moves, board)
                else:
                    play = _closest(
                        [
                            Play(before, dice, found_moves[k], found_boards[k])
                            for k in range(start, end)
                        ],
                        written,
                    )
                if written.marked and not written.marked <= set(play.hits):
                    return resolved  # resolve_play says why
            after = afters[i] if i < done else play.position
            resolved.append((play, n, after))
            before = after
        if not choose or before.is_game_over:
            break
    return resolved


def explain_play(position: Position, text: str, dice: Dice) -> Explanation:
    """Whether ``text`` is a legal play with ``dice`` and, if not, why.

    Raises
    ------
    InvalidNotationError
        The text is not a play in any known notation.
    """
    if _is_acey_deucey(position, dice):
        play, explanation = _acey_deucey(position, text, dice, None)
        if explanation is not None:
            return explanation
        return Explanation(text=text, dice=dice, legal=True, play=play)
    journeys, written = _read_play(text) if isinstance(text, str) else (parse_notation(text), None)
    legal = position.legal_plays(dice)
    play = _match(position, journeys, legal, written)
    if play is not None:
        false_hit = None if written is None else _false_hit(text, dice, play, written)
        if false_hit is not None:
            return false_hit
        return Explanation(text=text, dice=dice, legal=True, play=play)
    return _diagnose(position, text, dice, journeys, legal)


# -- Acey-Deucey's 1-2 ----------------------------------------------------------------------


def _is_acey_deucey(position: Position, dice: Dice) -> bool:
    return position.variant.enter_from_off and (min(dice), max(dice)) == ACEY_DEUCEY


def _acey_deucey(
    position: Position, text: str, dice: Dice, legal: LegalPlays | None
) -> tuple[Play | None, Explanation | None]:
    """Resolve an Acey-Deucey 1-2 (R11.2): the 1 and the 2 as an ordinary roll
    (R5.1-R5.3), then, when both are played, the doubles named after ``then``
    (R5.4) from the position they leave. Returns the play or why it is illegal."""
    first_text, doubles, second_text = split_acey_deucey(text)
    journeys = parse_notation(first_text)
    ordinary = position._roll_plays(dice)
    full = len(ordinary) > 0 and int(ordinary._moves[0, 1, 0]) >= 0
    if legal is None:
        legal = position.legal_plays(dice)

    # a 1-2 may have a hundred thousand plays: examples are found through its
    # 1-2 part, among the few ordinary plays, not by building every play
    first = _match(position, journeys, ordinary)
    example = _with_doubles(legal, first or _example_play(ordinary, [], journeys))

    def verdict(rule: str, reason: str) -> Explanation:
        return Explanation(
            text=text, dice=dice, legal=False, rule=rule, reason=reason, example=example
        )

    if doubles is None:
        play = _match(position, journeys, legal)
        if play is not None:
            return play, None
        if full and first is not None:
            return None, verdict(
                "R11.2",
                "after the 1 and the 2 the player chooses doubles and "
                "plays them, written after 'then' like "
                "'then 6-6: 13/7(2)'",
            )
        return None, replace(
            _diagnose(position, first_text, dice, journeys, ordinary), text=text, example=example
        )
    if first is None:
        return None, replace(
            _diagnose(position, first_text, dice, journeys, ordinary), text=text, example=example
        )
    if len(first.moves) < 2:
        return None, verdict(
            "R11.2", "doubles follow a 1-2 only when both the 1 and the 2 are played"
        )
    middle = type(position)._trusted(first.board, position.variant)
    roll = (doubles, doubles)
    second_journeys = parse_notation(second_text)
    second_legal = middle._roll_plays(roll)
    second = _match(middle, second_journeys, second_legal)
    if second is None:
        problem = _diagnose(middle, second_text, roll, second_journeys, second_legal)
        example = problem.example
        if example is not None:
            example = f"{first.notation} then {doubles}-{doubles}: {example or 'no move'}"
        return None, replace(problem, text=text, dice=dice, example=example)
    play = Play(position, dice, first.moves + second.moves, second.board, doubles)
    return play, None


# -- explaining illegal plays ---------------------------------------------------------------


def _step_problem(
    board: np.ndarray, source: int, die: int, checkers: int
) -> tuple[str, str] | None:
    """Why one checker may not move ``die`` pips from ``source``, or ``None``."""
    me, opponent = board
    if me[source] <= 0:
        if source == START:
            return "R4.1", "no checker of yours waits off the board to enter"
        if source == BAR and me[START] > 0:
            return "R11.1", (
                "there is no checker of yours on the bar; a checker waiting off "
                "the board enters from 'in', like in/22"
            )
        where = "on the bar" if source == BAR else f"on the {source}-point"
        return "R4.1", f"there is no checker of yours {where}"
    if me[BAR] > 0 and source != BAR:
        return "R6.3", "a checker on the bar must enter before any other checker moves"
    target = min(source, BAR) - die
    if target >= 1:
        holders = int(opponent[BAR - target])
        if holders >= 2:
            if source >= BAR:
                return "R6.4", (
                    f"the entry point {target} (the opponent's {die}-point) "
                    f"is blocked by {holders} checkers"
                )
            return "R4.2", f"the {target}-point is blocked by {holders} opposing checkers"
        return None
    if me[START] > 0:
        waits = "still waits" if me[START] == 1 else "still wait"
        return "R7.1", (
            f"bearing off starts only when all {checkers} checkers are in the home "
            f"board, and {me[START]} {waits} off the board to enter (R11.1)"
        )
    outside = [p for p in range(HOME_POINTS + 1, BAR + 1) if me[p] > 0]
    if outside:
        where = ", ".join(point_name(p) for p in outside[::-1])
        return "R7.1", (
            f"bearing off starts only when all {checkers} checkers are in the "
            f"home board; checkers still stand on {where}"
        )
    if target < 0:
        higher = [p for p in range(source + 1, HOME_POINTS + 1) if me[p] > 0]
        if higher:
            return "R7.3", (
                f"a {die} bears off from the {source}-point only when no checker "
                f"stands higher; a checker on the {max(higher)}-point must move"
            )
    return None


def _move(board: np.ndarray, source: int, die: int) -> int:
    target = max(min(source, BAR) - die, OFF)
    board[0, source] -= 1
    board[0, target] += 1
    if target != OFF and board[1, BAR - target] == 1:
        board[1, BAR - target] = 0
        board[1, BAR] += 1
    return target


def _options(source: int, target: int, pool: list[int]) -> list[tuple[int, ...]]:
    distance = min(source, BAR) - target  # R11.1: entering from off the board as from the bar
    exact = [d for d in _sub_multisets(tuple(pool)) if _covers(distance, target, d)]
    return sorted(exact, key=len)


def _simulate(
    position: Position, journeys: tuple[Journey, ...], dice: Dice
) -> tuple[list[Move], list[int], tuple[str, str] | None]:
    """Play the written moves die by die; stop at the first broken rule."""
    # one more column, START, for Acey-Deucey's checkers waiting off the board (R2.4)
    board = np.zeros((2, START + 1), dtype=np.int64)
    board[:, :START] = position.board
    board[:, START] = position.waiting
    pool = _dice_pool(dice)
    steps: list[Move] = []
    used: list[int] = []
    checkers = position.variant.checkers
    roll = f"{max(dice)}-{min(dice)}"
    for journey in journeys:
        for source, target in journey.segments:
            written = f"{point_name(source)}/{point_name(target)}"
            if target != OFF and target >= source:
                return (
                    steps,
                    used,
                    (
                        "R4.1",
                        f"checkers move forward only, towards the "
                        f"1-point; {written} goes backwards",
                    ),
                )
            options = _options(source, target, pool)
            if not options:
                if not pool:
                    return (
                        steps,
                        used,
                        ("R4.1", f"every die of {roll} is already used before {written}"),
                    )
                distance = min(source, BAR) - target
                return (
                    steps,
                    used,
                    (
                        "R4.1",
                        f"{written} is {distance} pips, which "
                        f"{roll} cannot make with the dice left",
                    ),
                )
            problem: tuple[str, str] | None = None
            for option in options:
                for order in dict.fromkeys(permutations(option)):
                    trial = board.copy()
                    point = source
                    trial_steps: list[Move] = []
                    failed = None
                    for k, die in enumerate(order):
                        failed = _step_problem(trial, point, die, checkers)
                        if failed is not None:
                            if k < len(order) - 1 and failed[0] == "R4.2":
                                failed = (
                                    "R4.4",
                                    f"{written} touches down on the "
                                    f"{point - die}-point, which is blocked",
                                )
                            break
                        new_point = _move(trial, point, die)
                        trial_steps.append((point, new_point))
                        point = new_point
                    if failed is None:
                        board = trial
                        steps.extend(trial_steps)
                        used.extend(order)
                        for die in order:
                            pool.remove(die)
                        break
                    problem = problem or failed
                else:
                    continue
                break
            else:
                return steps, used, problem
    return steps, used, None


def _with_doubles(legal: LegalPlays, first: Play | None) -> str | None:
    """A legal Acey-Deucey 1-2 play (R11.2) whose 1-2 part is ``first``'s, when one is."""
    if len(legal) == 0:
        return ""
    if first is not None and len(first.moves) == 2:
        pairs = legal._moves[:, :2]  # the 1 and the 2 of every play, in either order
        one, two = (np.array(move) for move in first.moves)
        same = ((pairs[:, 0] == one).all(axis=1) & (pairs[:, 1] == two).all(axis=1)) | (
            (pairs[:, 0] == two).all(axis=1) & (pairs[:, 1] == one).all(axis=1)
        )
        found = np.flatnonzero(same)
        if found.size:
            return legal[int(found[0])].notation
    return legal[0].notation


def _example(legal: LegalPlays, steps: list[Move], journeys: tuple[Journey, ...]) -> str | None:
    if len(legal) == 0:
        return ""
    best = _example_play(legal, steps, journeys)
    return None if best is None else best.notation


def _example_play(
    legal: LegalPlays, steps: list[Move], journeys: tuple[Journey, ...]
) -> Play | None:
    """The legal play sharing the most moves with what was written."""
    if len(legal) == 0:
        return None
    wanted = Counter(steps) + Counter(segment for j in journeys for segment in j.segments)
    sources = Counter(j.source for j in journeys)

    def overlap(play: Play) -> tuple[int, int]:
        moves = Counter(play.moves)
        return (
            sum((moves & wanted).values()),
            sum((Counter(s for s, _ in play.moves) & sources).values()),
        )

    return max(legal, key=overlap)


def _diagnose(
    position: Position, text: str, dice: Dice, journeys: tuple[Journey, ...], legal: LegalPlays
) -> Explanation:
    def verdict(rule: str, reason: str, steps: list[Move] | None = None) -> Explanation:
        return Explanation(
            text=text,
            dice=dice,
            legal=False,
            rule=rule,
            reason=reason,
            example=_example(legal, steps or [], journeys),
        )

    if not journeys:
        return verdict("R5.6", RULES_IN_WORDS["R5.6"])
    if len(legal) == 0:
        if position.on_bar[0] > 0:
            return verdict("R6.6", "no checker on the bar can enter: the turn is lost")
        return verdict("R5.5", "no number can be played: the turn is lost")
    steps, used, problem = _simulate(position, journeys, dice)
    if problem is not None:
        return verdict(*problem, steps)
    required = len(legal[0].moves)
    d1, d2 = dice
    if len(steps) < required:
        if d1 == d2:
            return verdict(
                "R5.4",
                f"with doubles, as many of the four {d1}s as possible must "
                f"be played, and {required} can be",
                steps,
            )
        return verdict("R5.1", RULES_IN_WORDS["R5.1"], steps)
    if d1 != d2 and required == 1 and used and used[0] != max(dice):
        return verdict(
            "R5.3", f"only one die can be played, so it must be the larger, the {max(dice)}", steps
        )
    return verdict("R4.1", "these moves do not make a legal play of this roll", steps)
