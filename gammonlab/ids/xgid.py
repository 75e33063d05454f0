"""eXtreme Gammon's XGID, and its conversion to and from GNU Backgammon's IDs.

An XGID carries the board (26 letters, bottom player upper case), the cube, the
turn, the dice, the score and the match length. :class:`XgidFields` holds it with
the board in gammonlab's convention (row 0 the side on roll).

>>> xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
'4HPwATDgc/ABMA:cInqAAAAAAAE'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._numbers import MAX_DIGITS, parse_int
from ..errors import ArgumentTypeError, InvalidPositionError
from ..rules import BAR, CHECKERS, OFF, POINTS
from .gnubg import (
    _DIE_FACES,
    _FINISHED_STATES,
    _MAX_LOG_CUBE,
    GAME_PLAYING,
    MatchIdFields,
    _as_board,
    _board_problem,
    _is_power_of_two,
    _normalise,
    _quote,
    board_from_position_id,
    fields_from_match_id,
    match_id_from_fields,
    position_id_from_board,
    split_gnubg_id,
)

__all__ = [
    "XGID_BOTTOM",
    "XGID_CENTRED",
    "XGID_TOP",
    "XgidFields",
    "format_xgid",
    "gnubg_id_to_xgid",
    "parse_xgid",
    "xgid_to_gnubg_id",
]

XGID_BOTTOM = 1
"""XGID player code of the bottom player (upper-case checkers, turn ``1``)."""
XGID_TOP = -1
"""XGID player code of the top player (lower-case checkers, turn ``-1``)."""
XGID_CENTRED = 0
"""XGID cube position of a centred cube."""
_XGID_PLAYERS = (XGID_BOTTOM, XGID_TOP)

_XGID_PREFIX = "XGID="
_XGID_BOARD_LENGTH = 26
_XGID_FIELDS = 10
_XGID_MAX_PER_POINT = 16  # letters A-P / a-p
_XGID_TOP_BAR = 0
_XGID_BOTTOM_BAR = 25
_XGID_CUBE_ACTIONS = ("D", "B", "R")
_XGID_JACOBY_FLAG = 1
_XGID_BEAVER_FLAG = 2
_XGID_DEFAULT_MAX_CUBE = 1 << 10


@dataclass(frozen=True, eq=False)
class XgidFields:
    """The fields of an XGID, with the board in gammonlab's convention.

    Attributes
    ----------
    board : numpy.ndarray
        Read-only ``(2, 26)`` int8 board; row 0 is the player named by
        ``turn``, row 1 the other, each in its own numbering.
    turn : int
        The player the XGID's turn field names: :data:`XGID_BOTTOM` (1) or
        :data:`XGID_TOP` (-1). With a double offered GNU Backgammon reads this
        as the doubler.
    cube_value : int
        Value of the cube (before the double, if one is offered).
    cube_owner : int
        :data:`XGID_BOTTOM`, :data:`XGID_TOP` or :data:`XGID_CENTRED`.
    dice : tuple of int
        The dice in the order written, ``(0, 0)`` if not rolled.
    cube_action : str
        ``''`` none, ``'D'`` double offered, ``'B'`` beavered, ``'R'`` raccooned.
    score : tuple of int
        Points of the bottom player and the top player.
    match_length : int
        0 is money play.
    crawford : bool
        This is the Crawford game (match play).
    jacoby, beaver : bool
        The Jacoby rule and beavers (money play).
    max_cube : int or None
        Highest cube value (the 10th field holds its log2); None when the XGID
        has only nine fields.

    Examples
    --------
    >>> fields = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
    >>> fields.turn, fields.dice, fields.match_length, int(fields.board[0, 6])
    (1, (5, 2), 7, 5)
    """

    board: np.ndarray
    turn: int = XGID_BOTTOM
    cube_value: int = 1
    cube_owner: int = XGID_CENTRED
    dice: tuple[int, int] = (0, 0)
    cube_action: str = ""
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int | None = _XGID_DEFAULT_MAX_CUBE

    def __post_init__(self) -> None:
        board = _as_board(self.board)
        totals = board.sum(axis=1)
        problem = None
        if totals[0] != totals[1]:
            problem = (
                f"the sides have {totals[0]} and {totals[1]} checkers counting the "
                f"borne-off ones; they must have as many"
            )
        else:
            problem = _board_problem(board, limit=int(totals[0]))
        if problem is not None:
            raise InvalidPositionError(f"XGID fields: {problem}")
        frozen = board.astype(np.int8)
        frozen.setflags(write=False)
        object.__setattr__(self, "board", frozen)
        _normalise(self, "XGID fields", ("crawford", "jacoby", "beaver"))
        problem = _xgid_fields_problem(self)
        if problem is not None:
            raise InvalidPositionError(f"XGID fields: {problem}")

    def _key(self) -> tuple[Any, ...]:
        return (
            self.board.tobytes(),
            self.turn,
            self.cube_value,
            self.cube_owner,
            self.dice,
            self.cube_action,
            self.score,
            self.match_length,
            self.crawford,
            self.jacoby,
            self.beaver,
            self.max_cube,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, XgidFields):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"parse_xgid({format_xgid(self)!r})"


def _xgid_fields_problem(fields: XgidFields) -> str | None:
    """Why the fields describe no position XG could show, or None."""
    if fields.turn not in _XGID_PLAYERS:
        return f"turn {fields.turn!r} is not 1 (bottom) or -1 (top)"
    if not _is_power_of_two(fields.cube_value) or fields.cube_value > 1 << _MAX_LOG_CUBE:
        return (
            f"cube value {fields.cube_value} is not a power of two from 1 to {1 << _MAX_LOG_CUBE}"
        )
    if fields.cube_owner not in (XGID_BOTTOM, XGID_CENTRED, XGID_TOP):
        return f"cube position {fields.cube_owner!r} is not 1 (bottom), 0 (centred) or -1 (top)"
    if fields.cube_value == 1 and fields.cube_owner != XGID_CENTRED:
        owner = "bottom" if fields.cube_owner == XGID_BOTTOM else "top"
        return (
            f"cube position {fields.cube_owner} (the {owner} player owns the cube) with the "
            f"cube at 1: a cube of 1 is centred, and a player owns the cube only by taking "
            f"a double (R9.1, R9.4)"
        )
    die1, die2 = fields.dice
    if (die1, die2) != (0, 0) and (die1 not in _DIE_FACES or die2 not in _DIE_FACES):
        return f"dice {fields.dice} are not two numbers from 1 to 6, nor (0, 0) for not rolled"
    if die1:
        for side in (0, 1):  # row 0: the player the turn names
            if not fields.board[side, OFF + 1 :].any():
                player = "bottom" if (side == 0) == (fields.turn == XGID_BOTTOM) else "top"
                return (
                    f"dice {die1}{die2} are rolled, but the game is over: the {player} player "
                    f"has borne off every checker (R8.1)"
                )
    if fields.cube_action not in ("", *_XGID_CUBE_ACTIONS):
        return f"cube action {fields.cube_action!r} is not '', 'D', 'B' or 'R'"
    if fields.cube_action and die1:
        return f"cube action {fields.cube_action!r} with the dice {fields.dice} already rolled"
    if fields.max_cube is not None and not _is_power_of_two(fields.max_cube):
        return f"max cube {fields.max_cube} is not a power of two"
    length = fields.match_length
    if length < 0:
        return f"match length {length} is negative"
    for name, points in zip(("bottom", "top"), fields.score, strict=True):
        if points < 0:
            return f"the {name} player's score {points} is negative"
    if length == 0:
        if fields.crawford:
            return "a Crawford game in money play"
        if fields.cube_action in ("B", "R") and not fields.beaver:
            return f"cube action {fields.cube_action!r} but beavers are not allowed"
        return None
    if fields.jacoby or fields.beaver:
        return "the Jacoby rule and beavers belong to money play, not to a match"
    if fields.cube_action in ("B", "R"):
        return f"cube action {fields.cube_action!r}: there are no beavers in match play"
    for name, points in zip(("bottom", "top"), fields.score, strict=True):
        if points >= length:
            return f"the {name} player's score {points} is not below the match length {length}"
    if fields.crawford:
        if length - 1 not in fields.score:
            return (
                f"a Crawford game at {fields.score[0]}-{fields.score[1]} in a {length}-point "
                f"match: neither player is 1-away (R10.2)"
            )
        if fields.score[0] == fields.score[1] and length > 1:
            return (
                f"a Crawford game at {fields.score[0]}-{fields.score[1]} in a {length}-point "
                f"match: both players are 1-away, which only the games after the Crawford "
                f"game can be (R10.2)"
            )
        if fields.cube_value != 1 or fields.cube_owner != XGID_CENTRED or fields.cube_action:
            return "the cube is used in the Crawford game (R10.2)"
    return None


def _parse_int(text: str, number: int, name: str, original: str) -> int:
    value = parse_int(text, signed=True)
    if value is None:
        shown = text if len(text) <= 20 else text[:20] + "..."
        what = (
            f"must have at most {MAX_DIGITS} digits"
            if text.lstrip("+-").isascii() and text.lstrip("+-").isdigit()
            else "must be an integer"
        )
        raise InvalidPositionError(
            f"XGID {_quote(original)}: field {number} ({name}) {what}, got {shown!r}"
        )
    return value


def _parse_xgid_board(text: str, original: str, checkers: int) -> tuple[list[int], list[int]]:
    """Rows ``(bottom, top)`` of an XGID board, each in its own numbering."""
    if len(text) != _XGID_BOARD_LENGTH:
        raise InvalidPositionError(
            f"XGID {_quote(original)}: the board field must have {_XGID_BOARD_LENGTH} "
            f"characters, got {len(text)}"
        )
    bottom = [0] * (BAR + 1)
    top = [0] * (BAR + 1)
    for index, char in enumerate(text):
        if char == "-":
            continue
        if "A" <= char <= "P":
            if index == _XGID_TOP_BAR:
                raise InvalidPositionError(
                    f"XGID {_quote(original)}: bottom checkers {char!r} on the top player's bar "
                    f"(board character 0)"
                )
            bottom[index] = ord(char) - ord("A") + 1
        elif "a" <= char <= "p":
            if index == _XGID_BOTTOM_BAR:
                raise InvalidPositionError(
                    f"XGID {_quote(original)}: top checkers {char!r} on the bottom player's bar "
                    f"(board character 25)"
                )
            top[BAR - index] = ord(char) - ord("a") + 1
        else:
            raise InvalidPositionError(
                f"XGID {_quote(original)}: bad board character {char!r} at {index}; expected "
                f"'-', A-P (bottom) or a-p (top)"
            )
    for name, row in (("bottom", bottom), ("top", top)):
        on_board = sum(row)
        if on_board > checkers:
            raise InvalidPositionError(
                f"XGID {_quote(original)}: too many checkers: the {name} player has {on_board}, "
                f"more than {checkers}"
            )
        row[OFF] = checkers - on_board
    return bottom, top


def parse_xgid(text: str, *, checkers: int = CHECKERS) -> XgidFields:
    """Read an XGID.

    Parameters
    ----------
    text : str
        ``XGID=`` (optional) and nine or ten colon-separated fields; whitespace
        around it (a stray trailing TAB, a newline) is ignored.
    checkers : int
        Checkers a side has.

    Returns
    -------
    XgidFields
        The board, absolute in the XGID, comes back seen from the player the
        turn field names.

    Raises
    ------
    InvalidPositionError
        If a field is missing or malformed, or the fields describe no position.

    Examples
    --------
    >>> fields = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:3:4:0:7:10\\t")
    >>> fields.turn == XGID_TOP, fields.cube_value, fields.cube_owner, fields.score
    (True, 2, 1, (3, 4))
    """
    if not isinstance(text, str):
        raise InvalidPositionError(f"XGID must be a string, got {type(text).__name__}")
    body = text.strip()
    if body[: len(_XGID_PREFIX)].upper() == _XGID_PREFIX:
        body = body[len(_XGID_PREFIX) :]
    parts = body.split(":")
    if len(parts) not in (_XGID_FIELDS - 1, _XGID_FIELDS):
        raise InvalidPositionError(
            f"XGID {_quote(text)}: expected {_XGID_FIELDS - 1} or {_XGID_FIELDS} colon-separated "
            f"fields, got {len(parts)}"
        )
    bottom, top = _parse_xgid_board(parts[0], text, checkers)
    cube_log = _parse_int(parts[1], 2, "log2 of the cube", text)
    cube_owner = _parse_int(parts[2], 3, "cube position", text)
    turn = _parse_int(parts[3], 4, "turn", text)
    dice_field = parts[4]
    score_bottom = _parse_int(parts[5], 6, "bottom player's score", text)
    score_top = _parse_int(parts[6], 7, "top player's score", text)
    flags = _parse_int(parts[7], 8, "Crawford / Jacoby / beaver", text)
    match_length = _parse_int(parts[8], 9, "match length", text)
    max_cube_log = (
        _parse_int(parts[9], 10, "log2 of the max cube", text)
        if len(parts) == _XGID_FIELDS
        else None
    )

    if turn not in _XGID_PLAYERS:
        raise InvalidPositionError(
            f"XGID {_quote(text)}: field 4 (turn) must be 1 (bottom) or -1 (top), got {turn}"
        )
    for number, name, log in (
        (2, "log2 of the cube", cube_log),
        (10, "log2 of the max cube", max_cube_log),
    ):
        if log is not None and not 0 <= log <= _MAX_LOG_CUBE:
            raise InvalidPositionError(
                f"XGID {_quote(text)}: field {number} ({name}) must be from 0 to "
                f"{_MAX_LOG_CUBE}, got {log}"
            )
    cube_action = ""
    dice = (0, 0)
    if dice_field in _XGID_CUBE_ACTIONS:
        cube_action = dice_field
    elif len(dice_field) == 2 and dice_field.isascii() and dice_field.isdigit():
        dice = (int(dice_field[0]), int(dice_field[1]))
    else:
        raise InvalidPositionError(
            f"XGID {_quote(text)}: field 5 (dice) must be '00', 'D', 'B', 'R' or two dice like "
            f"'52', got {dice_field!r}"
        )
    if match_length > 0:
        if flags not in (0, 1):
            raise InvalidPositionError(
                f"XGID {_quote(text)}: field 8 must be 0 or 1 (Crawford game) in match play, "
                f"got {flags}"
            )
        crawford, jacoby, beaver = bool(flags), False, False
    else:
        if not 0 <= flags <= _XGID_JACOBY_FLAG | _XGID_BEAVER_FLAG:
            raise InvalidPositionError(
                f"XGID {_quote(text)}: field 8 must be 0-3 (1 Jacoby + 2 beaver) in money play, "
                f"got {flags}"
            )
        crawford = False
        jacoby = bool(flags & _XGID_JACOBY_FLAG)
        beaver = bool(flags & _XGID_BEAVER_FLAG)
    rows = [bottom, top] if turn == XGID_BOTTOM else [top, bottom]
    try:
        return XgidFields(
            board=np.array(rows, dtype=np.int8),
            turn=turn,
            cube_value=1 << cube_log,
            cube_owner=cube_owner,
            dice=dice,
            cube_action=cube_action,
            score=(score_bottom, score_top),
            match_length=match_length,
            crawford=crawford,
            jacoby=jacoby,
            beaver=beaver,
            max_cube=None if max_cube_log is None else 1 << max_cube_log,
        )
    except InvalidPositionError as error:
        detail = str(error).removeprefix("XGID fields: ")
        raise InvalidPositionError(f"XGID {_quote(text)}: {detail}") from None


def format_xgid(fields: XgidFields) -> str:
    """Write an XGID.

    Parameters
    ----------
    fields : XgidFields

    Returns
    -------
    str
        ``XGID=`` and ten fields (nine when ``max_cube`` is None).

    Examples
    --------
    >>> text = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
    >>> format_xgid(parse_xgid(text)) == text
    True
    """
    if not isinstance(fields, XgidFields):
        raise ArgumentTypeError(f"expected XgidFields, got {type(fields).__name__}")
    rows = fields.board.tolist()
    bottom, top = (rows[0], rows[1]) if fields.turn == XGID_BOTTOM else (rows[1], rows[0])
    if max(max(bottom[OFF + 1 :]), max(top[OFF + 1 :])) > _XGID_MAX_PER_POINT:
        raise InvalidPositionError(
            f"cannot write an XGID with more than {_XGID_MAX_PER_POINT} checkers on one point"
        )
    chars = ["-"] * _XGID_BOARD_LENGTH
    if top[BAR]:
        chars[_XGID_TOP_BAR] = chr(ord("a") + top[BAR] - 1)
    if bottom[BAR]:
        chars[_XGID_BOTTOM_BAR] = chr(ord("A") + bottom[BAR] - 1)
    for index in range(1, POINTS + 1):
        if bottom[index]:
            chars[index] = chr(ord("A") + bottom[index] - 1)
        elif top[BAR - index]:
            chars[index] = chr(ord("a") + top[BAR - index] - 1)
    if fields.cube_action:
        dice_field = fields.cube_action
    else:
        dice_field = f"{fields.dice[0]}{fields.dice[1]}"
    if fields.match_length > 0:
        flags = int(fields.crawford)
    else:
        flags = (_XGID_JACOBY_FLAG * fields.jacoby) | (_XGID_BEAVER_FLAG * fields.beaver)
    parts = [
        "".join(chars),
        str(fields.cube_value.bit_length() - 1),
        str(fields.cube_owner),
        str(fields.turn),
        dice_field,
        str(fields.score[0]),
        str(fields.score[1]),
        str(flags),
        str(fields.match_length),
    ]
    if fields.max_cube is not None:
        parts.append(str(fields.max_cube.bit_length() - 1))
    return _XGID_PREFIX + ":".join(parts)


# -- XGID <-> GNU Backgammon -------------------------------------------------------------------


def xgid_to_gnubg_id(xgid: str | XgidFields) -> str:
    """The ``PositionID:MatchID`` GNU Backgammon makes of an XGID (``set xgid``).

    GNU Backgammon puts the player the turn field names on roll as its player 1
    (swapping players when that is the top player), so player 0 is the other
    one; the dice owner and the turn are both player 1. It cannot hold an
    offered double: with ``D`` the doubler is simply on roll, cube unturned.
    The Crawford flag survives only when a player is 1-away in a match longer
    than one point. The game state is "playing".

    Parameters
    ----------
    xgid : str or XgidFields

    Returns
    -------
    str
        ``'PositionID:MatchID'``.

    Raises
    ------
    InvalidPositionError
        If the XGID is invalid, or is one GNU Backgammon refuses (a beavered or
        raccooned cube, ``B`` / ``R``).

    Notes
    -----
    GNU Backgammon reads the fields from the right and misreads an XGID with
    nine fields; here nine fields mean what ten do.

    Examples
    --------
    >>> xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:2:1:-1:00:3:1:0:7:3")
    '4HPwATDgc/ABMA:QgngADAACAAE'
    """
    fields = parse_xgid(xgid) if isinstance(xgid, str) else xgid
    if not isinstance(fields, XgidFields):
        raise ArgumentTypeError(f"expected an XGID string or XgidFields, got {type(xgid).__name__}")
    if fields.cube_action in ("B", "R"):
        raise InvalidPositionError(
            f"XGID {_quote(format_xgid(fields))}: GNU Backgammon does not accept a "
            f"{'beavered' if fields.cube_action == 'B' else 'raccooned'} cube "
            f"(dice field {fields.cube_action!r})"
        )
    match = _gnubg_match_fields(fields)
    return f"{position_id_from_board(fields.board)}:{match_id_from_fields(match)}"


def _gnubg_match_fields(fields: XgidFields) -> MatchIdFields:
    """The match state GNU Backgammon's ``set xgid`` ends in, the player on roll as player 1."""
    on_roll, other = 1, 0
    if fields.cube_owner == XGID_CENTRED:
        cube_owner = None
    else:
        cube_owner = on_roll if fields.cube_owner == fields.turn else other
    bottom_score, top_score = fields.score
    if fields.turn == XGID_BOTTOM:
        score = (top_score, bottom_score)
    else:
        score = (bottom_score, top_score)
    money = fields.match_length == 0
    return MatchIdFields(
        cube_value=fields.cube_value,
        cube_owner=cube_owner,
        dice_owner=on_roll,
        crawford=fields.crawford and fields.match_length > 1,
        game_state=GAME_PLAYING,
        turn=on_roll,
        double_offered=False,
        resignation=0,
        dice=fields.dice,
        match_length=fields.match_length,
        score=score,
        jacoby=fields.jacoby and money,
    )


def gnubg_id_to_xgid(
    gnubg_id: str, *, beaver: bool = False, max_cube: int | None = _XGID_DEFAULT_MAX_CUBE
) -> str:
    """An XGID for a GNU Backgammon ``PositionID:MatchID``.

    GNU Backgammon's player 1 becomes the bottom player and player 0 the top
    player, the way ``set xgid`` reads an XGID before it swaps; the XGID turn
    is the player on roll (the doubler while a double is offered, written
    ``D``).

    Parameters
    ----------
    gnubg_id : str
        ``'PositionID:MatchID'``.
    beaver : bool
        Whether beavers are allowed (money play); a Match ID does not say.
    max_cube : int or None
        The XGID's max cube; None writes nine fields.

    Returns
    -------
    str

    Raises
    ------
    InvalidPositionError
        If either ID is invalid, or the state has no XGID: a finished game, a
        resignation offered, a beavered double waiting.

    Examples
    --------
    >>> gnubg_id_to_xgid("4HPwATDgc/ABMA:cInqAAAAAAAE")
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
    """
    pid, mid = split_gnubg_id(gnubg_id)
    board = board_from_position_id(pid)
    match = fields_from_match_id(mid)
    if match.game_state in _FINISHED_STATES:
        raise InvalidPositionError(
            f"GNU Backgammon ID {_quote(gnubg_id)}: the game is over (state "
            f"{match.game_state}); an XGID describes a game in progress"
        )
    if match.resignation:
        raise InvalidPositionError(
            f"GNU Backgammon ID {_quote(gnubg_id)}: a resignation is offered; an XGID cannot say so"
        )
    if match.double_offered and match.turn == match.dice_owner:
        raise InvalidPositionError(
            f"GNU Backgammon ID {_quote(gnubg_id)}: a beavered double waits for an answer; "
            f"its XGID is not known"
        )
    player_code = {1: XGID_BOTTOM, 0: XGID_TOP}
    cube_owner = XGID_CENTRED if match.cube_owner is None else player_code[match.cube_owner]
    money = match.match_length == 0
    try:
        fields = XgidFields(
            board=board,
            turn=player_code[match.dice_owner],
            cube_value=match.cube_value,
            cube_owner=cube_owner,
            dice=match.dice,
            cube_action="D" if match.double_offered else "",
            score=(match.score[1], match.score[0]),
            match_length=match.match_length,
            crawford=match.crawford,
            jacoby=match.jacoby and money,
            beaver=beaver and money,
            max_cube=max_cube,
        )
    except InvalidPositionError as error:
        detail = str(error).removeprefix("XGID fields: ")
        raise InvalidPositionError(f"GNU Backgammon ID {_quote(gnubg_id)}: {detail}") from None
    return format_xgid(fields)
