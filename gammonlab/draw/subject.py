"""What a board diagram shows: a position, a play, a game state or an action of a match,
reduced to the same facts (board, players' names, dice, cube, score), and the journeys of
the checkers that moved."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeGuard, cast

from ..errors import ArgumentError, ArgumentTypeError
from ..rules import OFF

if TYPE_CHECKING:
    from ..play import Play
    from ..position import Position
    from ..state import GameState

__all__ = ["Subject", "checker_journeys", "pip_count", "subject_of"]


class _Action(Protocol):
    """What a board reads from an action of a match (:class:`gammonlab.match.Action`):
    this layer imports nothing from the layers above it."""

    @property
    def kind(self) -> str: ...
    @property
    def state(self) -> GameState: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def play(self) -> Play | None: ...


if TYPE_CHECKING:
    from typing import TypeAlias

    Drawable: TypeAlias = "Position | GameState | Play | _Action"


@dataclass
class Subject:
    board: list[list[int]]  # (2, 26); row 0 on roll
    players: tuple[int, int]  # absolute player (colour) of row 0 and row 1
    names: tuple[str, str]
    dice: tuple[int, int] | None = None
    cube_value: int | None = None  # None: no cube to draw
    cube_owner_row: int | None = None
    cube_offered: bool = False
    scores: tuple[int, int] | None = None  # by row
    match_line: str = ""
    caption: str = ""
    moves: tuple[tuple[int, int], ...] = ()
    waiting: tuple[int, int] = (0, 0)  # Acey-Deucey checkers not yet entered, by row


def _is_state(item: object) -> TypeGuard[GameState]:
    """Whether an item to draw is a game state. Drawing reads what an item shows and
    needs the board, not the rules objects, so this layer imports none of them."""
    return hasattr(item, "cube_value") and hasattr(item, "position")


def _is_play(item: object) -> TypeGuard[Play]:
    return hasattr(item, "before") and hasattr(item, "moves")


def _is_position(item: object) -> TypeGuard[Position]:
    return hasattr(item, "board") and hasattr(item, "variant")


def _is_action(item: object) -> TypeGuard[_Action]:
    """A match's action: the state it was taken in, its play, and the players' names."""
    return hasattr(item, "kind") and _is_state(getattr(item, "state", None))


def subject_of(
    item: Drawable, player: int | None, names: Sequence[str] | None = None
) -> tuple[Subject, int]:
    """The facts to draw, and the row drawn at the bottom and numbered."""
    if _is_action(item):
        subject, bottom = _action_facts(item, player, names)
        pos = item.state.position
    else:
        shown = cast("Position | GameState | Play", item)
        subject, bottom = _facts(shown, player, _names(names))
        pos = (
            shown.position
            if _is_state(shown)
            else shown.before
            if _is_play(shown)
            else cast("Position", shown)
        )
    if pos.variant.enter_from_off:
        # R2.4: the checkers a side has not entered yet are on no point of the board
        subject.waiting = tuple(  # type: ignore[assignment]
            pos.variant.checkers - sum(row) for row in subject.board
        )
    return subject, bottom


def _names(names: Sequence[str] | None) -> tuple[str, str] | None:
    """Two players' names, or None for the generic labels."""
    if names is None:
        return None
    if isinstance(names, str) or len(names) != 2:
        raise ArgumentTypeError(f"names must be two players' names, got {names!r}")
    return str(names[0]), str(names[1])


def _action_facts(
    action: _Action, player: int | None, names: Sequence[str] | None
) -> tuple[Subject, int]:
    """An action: its state with the players' names, and a move's play as arrows."""
    known = _names(names if names is not None else getattr(action, "players", None))
    subject, bottom = _facts(action.state, player, known)
    play = action.play
    if action.kind == "move" and action.dice is not None:
        d1, d2 = action.dice
        subject.caption = f"{d1}-{d2}: {play.notation if play is not None else 'no legal move'}"
        subject.moves = play.moves if play is not None else ()
    return subject, bottom


def _facts(
    item: Position | GameState | Play, player: int | None, known: tuple[str, str] | None
) -> tuple[Subject, int]:
    """``known``: the names of player 0 and player 1 of a state; of the side on roll and
    its opponent of a position or a play."""
    if _is_state(item):
        on_roll = item.on_roll
        rows = (on_roll, 1 - on_roll)
        who = known or ("Player 0", "Player 1")
        names = tuple(who[p] + (" \u00b7 on roll" if r == 0 else "") for r, p in enumerate(rows))
        owner_row = None if item.cube_owner is None else rows.index(item.cube_owner)
        if item.money:
            match_line = "money game" + (" \u00b7 Jacoby" if item.jacoby else "")
        else:
            match_line = f"{item.match_length}-point match" + (
                " \u00b7 Crawford game" if item.crawford else ""
            )
        if item.double_offered:
            match_line += f" \u00b7 {who[on_roll]} doubles to {2 * item.cube_value}"
        subject = Subject(
            board=item.position.board.tolist(),
            players=rows,  # type: ignore[arg-type]
            names=names,  # type: ignore[arg-type]
            dice=item.dice,
            cube_value=item.cube_value,
            cube_owner_row=owner_row,
            cube_offered=item.double_offered,
            scores=None if item.money else (item.score[rows[0]], item.score[rows[1]]),
            match_line=match_line,
        )
        bottom = 0 if player is None else rows.index(_check_player(player))
        return subject, bottom
    sides = ("On roll", "Opponent") if known is None else (f"{known[0]} \u00b7 on roll", known[1])
    if _is_play(item):
        d1, d2 = item.dice
        subject = Subject(
            board=item.before.board.tolist(),
            players=(0, 1),
            names=sides,
            dice=item.dice,
            cube_value=None,  # a play knows no cube: draw none rather than a guess
            caption=f"{d1}-{d2}: {item.notation or 'no legal move'}",
            moves=item.moves,
        )
    elif _is_position(item):
        subject = Subject(
            board=item.board.tolist(), players=(0, 1), names=sides
        )  # a position knows no cube
    else:
        raise ArgumentTypeError(
            "board() draws a Position, a Play, a GameState or a match's Action, "
            f"not {type(item).__name__}"
        )
    return subject, 0 if player is None else _check_player(player)


def _check_player(player: int) -> int:
    if player not in (0, 1):
        raise ArgumentError(f"player must be 0 or 1, got {player!r}")
    return int(player)


def checker_journeys(moves: Play | Iterable[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The path of each checker that moved: consecutive moves of one checker joined.

    Follows the play's notation: ``24/18 18/13`` is one checker's ``24/13``, and
    ``8/5(2) 5/2(2)`` two checkers going ``8/2``. Points are in the mover's
    numbering, 25 the bar and 0 off.

    >>> checker_journeys([(24, 18), (18, 13), (8, 5)])
    [(24, 18, 13), (8, 5)]
    >>> checker_journeys([(8, 5), (8, 5), (5, 2), (5, 2)])
    [(8, 5, 2), (8, 5, 2)]
    """
    steps = moves.moves if _is_play(moves) else tuple(moves)  # type: ignore[arg-type]
    # highest source first, the longer move first from one point: as the notation sorts them
    paths = [[int(s), int(t)] for s, t in sorted(steps, key=lambda m: (-m[0], m[1]))]
    merged = True
    while merged:
        merged = False
        for path in paths:
            if path[-1] == OFF:
                continue
            follower = next(
                (other for other in paths if other is not path and other[0] == path[-1]), None
            )
            if follower is not None:
                path.extend(follower[1:])
                paths.remove(follower)
                merged = True
                break
    return [tuple(path) for path in paths]


def pip_count(row: Sequence[int], waiting: int = 0) -> int:
    """Pip count of a board row: a checker on point p counts p, on the bar 25 (R1.2), and
    so does an Acey-Deucey checker waiting to enter (R11.1)."""
    return sum(point * count for point, count in enumerate(row)) + 25 * waiting
