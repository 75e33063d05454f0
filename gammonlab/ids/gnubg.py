"""GNU Backgammon's Position ID and Match ID.

A board here is gammonlab's ``(2, 26)`` integer array: row 0 is the side on
roll, row 1 its opponent, each in its own numbering (R1.1); column :data:`OFF`
holds the borne-off checkers, columns 1-24 the points and column :data:`BAR`
the bar.

GNU Backgammon keeps a board as ``[2][25]``: row 0 the player *not* on roll,
row 1 the player on roll, index 0-23 the points 1-24 and index 24 the bar. That
layout appears only inside this package.

>>> board_from_position_id("4HPwATDgc/ABMA")[0, 1:26].tolist()
[0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
>>> fields_from_match_id("cInqAAAAAAAE").dice
(5, 2)
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._numbers import parse_int
from ..errors import ArgumentTypeError, InvalidPositionError
from ..rules import BAR, CHECKERS, OFF, POINTS

__all__ = [
    "GAME_DROPPED",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MATCH_ID_LENGTH",
    "POSITION_ID_LENGTH",
    "MatchIdFields",
    "board_from_position_id",
    "fields_from_match_id",
    "int_pair",
    "match_id_from_fields",
    "match_id_unchecked",
    "match_score_problem",
    "match_turn_problem",
    "position_id_from_board",
    "position_id_unchecked",
    "split_gnubg_id",
]

POSITION_ID_LENGTH = 14
"""Characters in a Position ID (80 bits of key, base64, no padding)."""
MATCH_ID_LENGTH = 12
"""Characters in a Match ID (9 bytes of key, base64)."""

GAME_NONE = 0
"""Match ID game state: no game started."""
GAME_PLAYING = 1
"""Match ID game state: a game in progress."""
GAME_OVER = 2
"""Match ID game state: the game was played out."""
GAME_RESIGNED = 3
"""Match ID game state: the game ended by a resignation."""
GAME_DROPPED = 4
"""Match ID game state: the game ended by a dropped cube."""
_GAME_STATES = (GAME_NONE, GAME_PLAYING, GAME_OVER, GAME_RESIGNED, GAME_DROPPED)
_FINISHED_STATES = (GAME_OVER, GAME_RESIGNED, GAME_DROPPED)


_BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_BASE64_VALUE = {char: value for value, char in enumerate(_BASE64_ALPHABET)}
_BASE64_BITS = 6

_POSITION_KEY_BYTES = 10
_SLOTS_PER_SIDE = POINTS + 1  # gnubg's 24 points and the bar
_SEPARATORS = 2 * _SLOTS_PER_SIDE
_UNUSED_POSITION_BITS = POSITION_ID_LENGTH * _BASE64_BITS - 8 * _POSITION_KEY_BYTES
_MATCH_KEY_BYTES = 9

_HOME_BOARD = list(range(1, 7))  # a side's home board points, in its own numbering

# Match key layout: (first bit, width), least significant bit first.
_CUBE_BITS = (0, 4)
_CUBE_OWNER_BITS = (4, 2)
_DICE_OWNER_BITS = (6, 1)
_CRAWFORD_BITS = (7, 1)
_GAME_STATE_BITS = (8, 3)
_TURN_BITS = (11, 1)
_DOUBLED_BITS = (12, 1)
_RESIGNATION_BITS = (13, 2)
_DIE1_BITS = (15, 3)
_DIE2_BITS = (18, 3)
_MATCH_LENGTH_BITS = (21, 15)
_SCORE0_BITS = (36, 15)
_SCORE1_BITS = (51, 15)
# GNU Backgammon also writes bit 67 (0-based 66): set when the Jacoby rule is off.
_NO_JACOBY_BITS = (66, 1)
_MATCH_KEY_USED_BITS = 67
_CENTRED_CUBE_CODE = 3
_MAX_LOG_CUBE = (1 << _CUBE_BITS[1]) - 1
_MAX_FIELD_VALUE = (1 << _MATCH_LENGTH_BITS[1]) - 1
_DIE_FACES = range(1, 7)
_RESIGNATIONS = range(0, 4)

_QUOTE_LIMIT = 80


def _quote(text: object) -> str:
    """The input as it will appear in an error message."""
    shown = repr(text)
    return shown if len(shown) <= _QUOTE_LIMIT else shown[: _QUOTE_LIMIT - 3] + "..."


def _is_power_of_two(value: int) -> bool:
    return value >= 1 and value & (value - 1) == 0


# -- base64 ------------------------------------------------------------------------------------


def _base64_value(text: str, what: str, original: object) -> int:
    """The bits of ``text`` as one big-endian integer, six bits a character."""
    value = 0
    for column, char in enumerate(text):
        digit = _BASE64_VALUE.get(char)
        if digit is None:
            raise InvalidPositionError(
                f"{what} {_quote(original)}: bad base64 character {char!r} at position "
                f"{column + 1}; expected A-Z, a-z, 0-9, '+' or '/'"
            )
        value = (value << _BASE64_BITS) | digit
    return value


def _clean_id(text: object, what: str, length: int) -> str:
    if not isinstance(text, str):
        raise InvalidPositionError(f"{what} must be a string, got {type(text).__name__}")
    cleaned = text.strip()
    if len(cleaned) != length:
        raise InvalidPositionError(
            f"{what} {_quote(text)}: expected {length} characters, got {len(cleaned)}"
        )
    return cleaned


# -- boards ------------------------------------------------------------------------------------


def _as_board(board: ArrayLike) -> np.ndarray:
    try:
        array = np.asarray(board)
    except (TypeError, ValueError) as error:
        raise InvalidPositionError(f"board is not an array of checker counts: {error}") from None
    if array.shape != (2, BAR + 1):
        raise InvalidPositionError(
            f"board must have shape (2, {BAR + 1}) (side on roll, opponent; off, points 1-24, "
            f"bar), got {array.shape}"
        )
    if array.dtype.kind not in "iu":
        raise InvalidPositionError(f"board must hold integers, got dtype {array.dtype}")
    return array.astype(np.int64)


def _board_problem(board: np.ndarray, *, limit: int, total: int | None = None) -> str | None:
    """Why ``board`` (validated shape, int64) is no position, or None.

    At most ``limit`` checkers a side may be on the board and bar; with ``total``
    given, each row including its borne-off column must add up to it.
    """
    sides = ("the side on roll", "its opponent")
    if (board < 0).any():
        side, column = (int(i) for i in np.argwhere(board < 0)[0])
        return f"{sides[side]} has {board[side, column]} checkers in column {column}"
    for side in (0, 1):
        on_board = int(board[side, OFF + 1 :].sum())
        if on_board > limit:
            return (
                f"too many checkers: {sides[side]} has {on_board} on the board and bar, "
                f"more than {limit}"
            )
        if total is not None and int(board[side].sum()) != total:
            return (
                f"{sides[side]} has {int(board[side].sum())} checkers counting the "
                f"borne-off ones, expected {total}"
            )
    for point in range(1, POINTS + 1):
        if board[0, point] > 0 and board[1, BAR - point] > 0:
            return (
                f"point held by both sides: the side on roll's point {point} "
                f"({board[0, point]} checkers) is its opponent's point {BAR - point} "
                f"({board[1, BAR - point]} checkers)"
            )
    if (board[:, _HOME_BOARD] >= 2).all() and board[0, BAR] > 0 and board[1, BAR] > 0:
        return "both sides are on the bar against closed home boards"
    return None


def position_id_from_board(board: ArrayLike, *, checkers: int | None = None) -> str:
    """GNU Backgammon's Position ID of a board.

    Parameters
    ----------
    board : array_like, shape (2, 26)
        Row 0 the side on roll, row 1 its opponent, each in its own numbering:
        column 0 borne off, 1-24 the points, 25 the bar.
    checkers : int, optional
        Checkers a side has. When given, each row (borne-off column included)
        must add up to it; by default only the checkers on the board and bar
        are checked (at most 15 a side, all a Position ID holds).

    Returns
    -------
    str
        14 characters of base64.

    Raises
    ------
    InvalidPositionError
        If the board is malformed or no position: too many checkers, a point
        held by both sides, both sides on the bar against closed boards.

    Examples
    --------
    >>> row = [0] * 26
    >>> row[6], row[8], row[13], row[24] = 5, 3, 5, 2
    >>> position_id_from_board([row, row])
    '4HPwATDgc/ABMA'
    """
    array = _as_board(board)
    problem = _board_problem(
        array, limit=CHECKERS if checkers is None else checkers, total=checkers
    )
    if problem is not None:
        raise InvalidPositionError(f"cannot encode board: {problem}")
    return position_id_unchecked(array)


def position_id_unchecked(board: np.ndarray) -> str:
    """The Position ID of a board already known to be a valid position.

    :func:`position_id_from_board` without its checks, for boards that come from
    a :class:`~gammonlab.position.Position` (checked when it was built).

    >>> position_id_unchecked(board_from_position_id("4HPwATDgc/ABMA"))
    '4HPwATDgc/ABMA'
    """
    rows = board.tolist()
    key = 0
    bit = 0
    # gnubg writes the side not on roll first; its slots are our columns 1-25 in order.
    for row in (rows[1], rows[0]):
        for count in row[OFF + 1 :]:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    if bit > 8 * _POSITION_KEY_BYTES:
        raise InvalidPositionError(
            "cannot encode board: too many checkers for the 80 bits of a Position ID"
        )
    data = key.to_bytes(_POSITION_KEY_BYTES, "little")
    return base64.b64encode(data).decode("ascii")[:POSITION_ID_LENGTH]


def board_from_position_id(pid: str, *, checkers: int = CHECKERS) -> np.ndarray:
    """The board of a GNU Backgammon Position ID.

    Parameters
    ----------
    pid : str
        14 base64 characters; surrounding whitespace is ignored.
    checkers : int
        Checkers a side has (15; fewer in Hypergammon). The borne-off column
        holds those not on the board or bar.

    Returns
    -------
    numpy.ndarray
        A new ``(2, 26)`` int8 board, row 0 the side on roll.

    Raises
    ------
    InvalidPositionError
        If the ID has the wrong length, a character outside base64, bits that
        GNU Backgammon never writes, more than ``checkers`` checkers on a side,
        a point held by both sides, or both sides on the bar against closed
        boards.

    Examples
    --------
    >>> board = board_from_position_id("4HPwATDgc/ABUA")
    >>> board[0, [24, 25]].tolist(), board[1, [24, 25]].tolist()
    ([1, 1], [2, 0])
    """
    text = _clean_id(pid, "Position ID", POSITION_ID_LENGTH)
    value = _base64_value(text, "Position ID", pid)
    if value & ((1 << _UNUSED_POSITION_BITS) - 1):
        raise InvalidPositionError(
            f"Position ID {_quote(pid)}: the last character {text[-1]!r} carries bits beyond "
            f"the 80-bit key (GNU Backgammon writes only A, Q, g or w there)"
        )
    key = int.from_bytes(
        (value >> _UNUSED_POSITION_BITS).to_bytes(_POSITION_KEY_BYTES, "big"), "little"
    )
    # Bit i of the key is character i of this string; each slot is a run of ones ended by a 0.
    runs = format(key, f"0{8 * _POSITION_KEY_BYTES}b")[::-1].split("0")
    if len(runs) <= _SEPARATORS:
        raise InvalidPositionError(
            f"Position ID {_quote(pid)}: too many checkers (the key ends before the "
            f"{_SEPARATORS} slots of the two sides do)"
        )
    if any(runs[_SEPARATORS:]):
        raise InvalidPositionError(
            f"Position ID {_quote(pid)}: bits are set after the last slot of the key"
        )
    counts = [len(run) for run in runs[:_SEPARATORS]]
    board = np.zeros((2, BAR + 1), dtype=np.int64)
    board[1, OFF + 1 :] = counts[:_SLOTS_PER_SIDE]
    board[0, OFF + 1 :] = counts[_SLOTS_PER_SIDE:]
    problem = _board_problem(board, limit=checkers)
    if problem is not None:
        raise InvalidPositionError(f"Position ID {_quote(pid)}: {problem}")
    board[:, OFF] = checkers - board[:, OFF + 1 :].sum(axis=1)
    return board.astype(np.int8)


def int_pair(value: Any, what: str) -> tuple[int, int]:
    """``value`` (dice, a score) as a pair of ints, or an error that names ``what``.

    >>> int_pair([5, "2"], "dice")
    (5, 2)
    """
    if type(value) is tuple and len(value) == 2 and type(value[0]) is type(value[1]) is int:
        return value
    try:
        pair = tuple(_whole(item) for item in value)
    except TypeError:
        pair = ()
    if len(pair) != 2 or None in pair:
        raise InvalidPositionError(f"{what} must be a pair of integers, got {value!r}")
    return pair[0], pair[1]  # type: ignore[return-value]


def _whole(item: Any) -> int | None:
    """An integer (a whole float, ASCII digits), or None: 3.5 is no die, nor True."""
    if isinstance(item, (bool, np.bool_)):
        return None
    if isinstance(item, (int, np.integer)):
        return int(item)
    if isinstance(item, (float, np.floating)):
        return int(item) if np.isfinite(item) and float(item).is_integer() else None
    if isinstance(item, str):
        return parse_int(item.strip(), signed=True)
    return None


def _normalise(fields: Any, what: str, flags: tuple[str, ...]) -> None:
    """Make a frozen dataclass's dice and score tuples of ints and its flags bools."""
    for name in ("dice", "score"):
        object.__setattr__(fields, name, int_pair(getattr(fields, name), f"{what}: {name}"))
    for name in flags:
        object.__setattr__(fields, name, bool(getattr(fields, name)))


# -- Match ID ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchIdFields:
    """The fields of a GNU Backgammon Match ID.

    Players are absolute: GNU Backgammon's player 0 and player 1.

    Attributes
    ----------
    cube_value : int
        1, 2, 4, ... up to 32768.
    cube_owner : int or None
        0 or 1; None for a centred cube.
    dice_owner : int
        The player on roll, or who rolled (the doubler while a double is offered).
    crawford : bool
        This is the Crawford game (R10.2).
    game_state : int
        :data:`GAME_NONE`, :data:`GAME_PLAYING`, :data:`GAME_OVER`,
        :data:`GAME_RESIGNED` or :data:`GAME_DROPPED`.
    turn : int
        The player who must act now (the taker, after a double).
    double_offered : bool
        A double waits for an answer.
    resignation : int
        Resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon.
    dice : tuple of int
        The dice rolled, ``(0, 0)`` if not rolled. GNU Backgammon writes the
        higher die first; other writers may not, and the order read is kept.
    match_length : int
        Points to win; 0 is money play.
    score : tuple of int
        Points of player 0 and player 1.
    jacoby : bool
        The Jacoby rule is on (money play). GNU Backgammon stores it in bit 67
        of the key, beyond the 66 its manual describes.

    Examples
    --------
    >>> fields = MatchIdFields(dice_owner=1, turn=1, dice=(5, 2), match_length=7)
    >>> match_id_from_fields(fields)
    'cInqAAAAAAAE'
    """

    cube_value: int = 1
    cube_owner: int | None = None
    dice_owner: int = 0
    crawford: bool = False
    game_state: int = GAME_PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] = (0, 0)
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        _normalise(self, "Match ID fields", ("crawford", "double_offered", "jacoby"))
        problem = _match_fields_problem(self)
        if problem is not None:
            raise InvalidPositionError(f"Match ID fields: {problem}")


def _match_fields_problem(fields: MatchIdFields) -> str | None:
    """Why the fields describe no state GNU Backgammon can be in, or None."""
    return match_turn_problem(
        fields.cube_value,
        fields.cube_owner,
        fields.dice_owner,
        fields.turn,
        fields.game_state,
        fields.resignation,
        fields.dice,
        fields.double_offered,
    ) or match_score_problem(
        fields.match_length,
        fields.score,
        fields.crawford,
        fields.game_state,
        fields.cube_value,
        fields.cube_owner,
        fields.double_offered,
    )


def match_turn_problem(
    cube_value: int,
    cube_owner: int | None,
    dice_owner: int,
    turn: int,
    game_state: int,
    resignation: int,
    dice: tuple[int, int],
    double_offered: bool,
) -> str | None:
    """Why a Match ID's cube, turn and dice fields describe no state, or None.

    With :func:`match_score_problem` it checks every field of :class:`MatchIdFields`;
    the two halves let a caller check the fields that change every turn apart from
    those that change once a game.

    >>> match_turn_problem(3, None, 0, 0, GAME_PLAYING, 0, (0, 0), False)
    'cube value 3 is not a power of two from 1 to 32768'
    """
    if not _is_power_of_two(cube_value) or cube_value > 1 << _MAX_LOG_CUBE:
        return f"cube value {cube_value} is not a power of two from 1 to {1 << _MAX_LOG_CUBE}"
    if cube_owner not in (None, 0, 1):
        return f"cube owner {cube_owner!r} is not 0, 1 or None (centred)"
    if cube_value == 1 and cube_owner is not None:
        return (
            f"cube owner {cube_owner} with the cube at 1: a cube of 1 is centred, and a "
            f"player owns the cube only by taking a double (R9.1, R9.4)"
        )
    if dice_owner not in (0, 1):
        return f"dice owner {dice_owner!r} is not 0 or 1"
    if turn not in (0, 1):
        return f"turn {turn!r} is not 0 or 1"
    if game_state not in _GAME_STATES:
        return f"game state {game_state!r} is not one of 0-4"
    if resignation not in _RESIGNATIONS:
        return f"resignation {resignation!r} is not one of 0-3"
    die1, die2 = dice
    if (die1, die2) != (0, 0) and (die1 not in _DIE_FACES or die2 not in _DIE_FACES):
        return f"dice {dice} are not two numbers from 1 to 6, nor (0, 0) for not rolled"
    if double_offered and die1:
        return f"a double is offered but the dice {dice} are already rolled"
    if game_state == GAME_DROPPED and die1:
        return (
            f"the game ended by a dropped double, but the dice {dice} are rolled: a double "
            "comes before the roll (R9.2)"
        )
    if double_offered and resignation:
        return "a double and a resignation wait for an answer at once (R9.2, R12.1)"
    if double_offered and game_state == GAME_PLAYING:
        # the player on roll doubles (R9.2) and the other answers, or, after a beaver, the
        # doubler answers the beaver of the player who now owns the cube (R10.6)
        answer_beaver = turn == dice_owner and cube_owner == 1 - dice_owner
        answer_double = turn != dice_owner and cube_owner != 1 - dice_owner
        if not (answer_beaver or answer_double):
            if cube_owner == 1 - dice_owner:
                return (
                    f"player {dice_owner} doubles, but player {cube_owner} owns the cube "
                    "(R9.5: only its owner may double)"
                )
            return (
                f"a double by player {dice_owner} waits for an answer, but player {turn} "
                "must act, the doubler (R9.4)"
            )
    return None


def match_score_problem(
    match_length: int,
    score: tuple[int, int],
    crawford: bool,
    game_state: int,
    cube_value: int,
    cube_owner: int | None,
    double_offered: bool,
) -> str | None:
    """Why a Match ID's match length, score and Crawford fields describe no state, or None.

    >>> match_score_problem(5, (4, 5), False, GAME_PLAYING, 1, None, False)
    "player 1's score 5 is not below the match length 5 while the game is not over"
    """
    if not 0 <= match_length <= _MAX_FIELD_VALUE:
        return f"match length {match_length} is not from 0 to {_MAX_FIELD_VALUE}"
    for player, points in enumerate(score):
        if not 0 <= points <= _MAX_FIELD_VALUE:
            return f"player {player}'s score {points} is not from 0 to {_MAX_FIELD_VALUE}"
    if match_length == 0:
        if crawford:
            return "a Crawford game in money play"
        return None
    finished = game_state in _FINISHED_STATES
    if finished:
        # the game just won may take the winner past the length, by at most its points
        if min(score) >= match_length:
            return f"both scores {score[0]}-{score[1]} reach the match length {match_length}"
        highest = match_length - 1 + 3 * cube_value
        if max(score) > highest:
            return (
                f"a score of {max(score)} in a {match_length}-point match: one game at the "
                f"cube {cube_value} wins at most {3 * cube_value} points"
            )
    else:
        for player, points in enumerate(score):
            if points >= match_length:
                return (
                    f"player {player}'s score {points} is not below the match length "
                    f"{match_length} while the game is not over"
                )
    if crawford:
        # The Crawford game starts with a player 1-away; once it is over, its result has
        # either left that player 1-away or won them the match (R10.2). It is the first
        # game with a player 1-away, so both are 1-away only after it.
        if not finished and score[0] == score[1] == match_length - 1 and match_length > 1:
            return (
                f"a Crawford game at {score[0]}-{score[1]} in a {match_length}-point match: "
                "both players are 1-away, which only the games after the Crawford game can "
                "be (R10.2)"
            )
        if match_length - 1 not in score and not (finished and max(score) >= match_length):
            return (
                f"a Crawford game at {score[0]}-{score[1]} in a {match_length}-point "
                f"match: neither player is 1-away"
                + (", and the game just played did not end the match" if finished else "")
                + " (R10.2)"
            )
        if cube_value != 1 or cube_owner is not None or double_offered:
            return "the cube is used in the Crawford game (R10.2)"
        if game_state == GAME_DROPPED:
            return "the Crawford game ended by a dropped double, but no one doubles in it (R10.2)"
    return None


def _get_bits(key: int, where: tuple[int, int]) -> int:
    start, width = where
    return (key >> start) & ((1 << width) - 1)


def _put_bits(value: int, where: tuple[int, int]) -> int:
    start, width = where
    return (value & ((1 << width) - 1)) << start


def match_id_from_fields(fields: MatchIdFields) -> str:
    """GNU Backgammon's Match ID of a match state.

    Parameters
    ----------
    fields : MatchIdFields
        The state; the dice are written higher first, as GNU Backgammon does.

    Returns
    -------
    str
        12 characters of base64.

    Examples
    --------
    >>> match_id_from_fields(MatchIdFields(dice_owner=1, turn=1, dice=(5, 2), jacoby=True))
    'cIkKAAAAAAAA'
    """
    if not isinstance(fields, MatchIdFields):
        raise ArgumentTypeError(f"expected MatchIdFields, got {type(fields).__name__}")
    return match_id_unchecked(
        fields.cube_value,
        fields.cube_owner,
        fields.dice_owner,
        fields.crawford,
        fields.game_state,
        fields.turn,
        fields.double_offered,
        fields.resignation,
        fields.dice,
        fields.match_length,
        fields.score,
        fields.jacoby,
    )


def match_id_unchecked(
    cube_value: int,
    cube_owner: int | None,
    dice_owner: int,
    crawford: bool,
    game_state: int,
    turn: int,
    double_offered: bool,
    resignation: int,
    dice: tuple[int, int],
    match_length: int,
    score: tuple[int, int],
    jacoby: bool,
) -> str:
    """The Match ID of fields already known to be valid, given in the order of
    :class:`MatchIdFields`.

    :func:`match_id_from_fields` without its checks, for the fields of a
    :class:`~gammonlab.state.GameState` (checked when it was built).

    >>> match_id_unchecked(1, None, 1, False, GAME_PLAYING, 1, False, 0, (5, 2), 7, (0, 0), False)
    'cInqAAAAAAAE'
    """
    high, low = max(dice), min(dice)
    owner = _CENTRED_CUBE_CODE if cube_owner is None else cube_owner
    key = (
        _put_bits(cube_value.bit_length() - 1, _CUBE_BITS)
        | _put_bits(owner, _CUBE_OWNER_BITS)
        | _put_bits(dice_owner, _DICE_OWNER_BITS)
        | _put_bits(bool(crawford), _CRAWFORD_BITS)
        | _put_bits(game_state, _GAME_STATE_BITS)
        | _put_bits(turn, _TURN_BITS)
        | _put_bits(bool(double_offered), _DOUBLED_BITS)
        | _put_bits(resignation, _RESIGNATION_BITS)
        | _put_bits(high, _DIE1_BITS)
        | _put_bits(low, _DIE2_BITS)
        | _put_bits(match_length, _MATCH_LENGTH_BITS)
        | _put_bits(score[0], _SCORE0_BITS)
        | _put_bits(score[1], _SCORE1_BITS)
        | _put_bits(not jacoby, _NO_JACOBY_BITS)
    )
    data = key.to_bytes(_MATCH_KEY_BYTES, "little")
    return base64.b64encode(data).decode("ascii")


def fields_from_match_id(mid: str) -> MatchIdFields:
    """The fields of a GNU Backgammon Match ID.

    Parameters
    ----------
    mid : str
        12 base64 characters; surrounding whitespace is ignored.

    Returns
    -------
    MatchIdFields

    Raises
    ------
    InvalidPositionError
        If the ID has the wrong length or a character outside base64, or its
        fields describe no state: cube owner 2, an owner of a cube at 1 (R9.1),
        game state above 4, a die of 7 or only one die rolled, a Crawford game in
        money play or at a score where it cannot be (R10.2), a score not below the
        match length in a game still going, bits beyond the 67 GNU Backgammon writes.

    Examples
    --------
    >>> fields = fields_from_match_id("8IhuACAACAAE")
    >>> fields.match_length, fields.score, fields.crawford, fields.dice, fields.dice_owner
    (3, (2, 1), True, (5, 3), 1)
    """
    text = _clean_id(mid, "Match ID", MATCH_ID_LENGTH)
    value = _base64_value(text, "Match ID", mid)
    key = int.from_bytes(value.to_bytes(_MATCH_KEY_BYTES, "big"), "little")
    if key >> _MATCH_KEY_USED_BITS:
        raise InvalidPositionError(
            f"Match ID {_quote(mid)}: bits are set beyond the {_MATCH_KEY_USED_BITS} of the key"
        )
    owner = _get_bits(key, _CUBE_OWNER_BITS)
    if owner not in (0, 1, _CENTRED_CUBE_CODE):
        raise InvalidPositionError(
            f"Match ID {_quote(mid)}: bad cube owner {owner} (0 = player 0, 1 = player 1, "
            f"3 = centred)"
        )
    try:
        return MatchIdFields(
            cube_value=1 << _get_bits(key, _CUBE_BITS),
            cube_owner=None if owner == _CENTRED_CUBE_CODE else owner,
            dice_owner=_get_bits(key, _DICE_OWNER_BITS),
            crawford=bool(_get_bits(key, _CRAWFORD_BITS)),
            game_state=_get_bits(key, _GAME_STATE_BITS),
            turn=_get_bits(key, _TURN_BITS),
            double_offered=bool(_get_bits(key, _DOUBLED_BITS)),
            resignation=_get_bits(key, _RESIGNATION_BITS),
            dice=(_get_bits(key, _DIE1_BITS), _get_bits(key, _DIE2_BITS)),
            match_length=_get_bits(key, _MATCH_LENGTH_BITS),
            score=(_get_bits(key, _SCORE0_BITS), _get_bits(key, _SCORE1_BITS)),
            jacoby=not _get_bits(key, _NO_JACOBY_BITS),
        )
    except InvalidPositionError as error:
        detail = str(error).removeprefix("Match ID fields: ")
        raise InvalidPositionError(f"Match ID {_quote(mid)}: {detail}") from None


def split_gnubg_id(text: str) -> tuple[str, str]:
    """Split a combined GNU Backgammon ID ``PositionID:MatchID``.

    Parameters
    ----------
    text : str
        ``'4HPwATDgc/ABMA:cIkKAAAAAAAA'``; whitespace around either part is ignored.

    Returns
    -------
    tuple of str
        The Position ID and the Match ID (not yet decoded).

    Examples
    --------
    >>> split_gnubg_id(" 4HPwATDgc/ABMA:cIkKAAAAAAAA ")
    ('4HPwATDgc/ABMA', 'cIkKAAAAAAAA')
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"GNU Backgammon ID must be a string, got {type(text).__name__}")
    parts = text.split(":")
    if len(parts) != 2:
        raise InvalidPositionError(
            f"GNU Backgammon ID {_quote(text)}: expected 'PositionID:MatchID' with one colon, "
            f"got {len(parts) - 1}"
        )
    pid, mid = (part.strip() for part in parts)
    if len(pid) != POSITION_ID_LENGTH or len(mid) != MATCH_ID_LENGTH:
        raise InvalidPositionError(
            f"GNU Backgammon ID {_quote(text)}: expected a {POSITION_ID_LENGTH}-character "
            f"Position ID and a {MATCH_ID_LENGTH}-character Match ID, got {len(pid)} and "
            f"{len(mid)}"
        )
    return pid, mid
