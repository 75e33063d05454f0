"""The :class:`GameState`: a position with its cube, score, dice and turn.

Players are absolute: 0 and 1 as in GNU Backgammon's Match ID (0 is the
first, left player of a transcript). The position is seen from the player on
roll.

>>> state = GameState.from_gnubg_id("4HPwATDgc/ABMA:cInqAAAAAAAE")
>>> state.on_roll, state.dice, state.match_length, state.score
(1, (5, 2), 7, (0, 0))
>>> state.xgid
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from dataclasses import fields as dataclass_fields
from functools import lru_cache
from typing import Any

from . import ids
from .errors import ArgumentError, InvalidDiceError, InvalidPositionError
from .play import LegalPlays
from .position import Position
from .rules import Variant
from .rules import variant as lookup_variant

__all__ = ["GameState", "state_fields"]

_STATUS_NAMES = {
    ids.GAME_NONE: "not started",
    ids.GAME_PLAYING: "playing",
    ids.GAME_OVER: "over",
    ids.GAME_RESIGNED: "resigned",
    ids.GAME_DROPPED: "cube dropped",
}
XGID_MAX_CUBE = 1024
"""The cube limit an XGID states when the state has none."""
_RESIGN_NAMES = {1: "a single game", 2: "a gammon", 3: "a backgammon"}
# the fields a state shares, by name, with a Match ID (whose dice owner is our on_roll)
_MATCH_ID_FIELDS = (
    "turn",
    "dice",
    "cube_value",
    "cube_owner",
    "score",
    "match_length",
    "crawford",
    "game_state",
    "double_offered",
    "resignation",
    "jacoby",
)


@lru_cache(maxsize=4096)
def _turn_problem(*fields: Any) -> str | None:
    """The check of the fields that change every turn (few combinations repeat a lot)."""
    return ids.match_turn_problem(*fields)


@lru_cache(maxsize=4096)
def _score_problem(*fields: Any) -> str | None:
    """The check of the fields that change once a game."""
    return ids.match_score_problem(*fields)


@lru_cache(maxsize=16384)
def _match_problem(fields: tuple[Any, ...]) -> str | None:
    """Why a state's match fields describe no state, or None: the fields that
    change every turn and those that change once a game, each checked once."""
    cube, owner, on_roll, crawford, status, turn, doubled, resigned, dice, length, score, _ = fields
    return _turn_problem(cube, owner, on_roll, turn, status, resigned, dice, doubled) or (
        _score_problem(length, score, crawford, status, cube, owner, doubled)
    )


@lru_cache(maxsize=16384)
def _match_id(fields: tuple[Any, ...]) -> str:
    """Encode a state's match fields, checked when the state was built (states repeat a lot)."""
    return ids.match_id_unchecked(*fields)


def state_fields(
    position: Position,
    on_roll: int,
    turn: int | None,
    dice: tuple[int, int] | None,
    cube_value: int,
    cube_owner: int | None,
    score: tuple[int, int],
    match_length: int,
    crawford: bool,
    game_state: int,
    double_offered: bool,
    resignation: int,
    jacoby: bool,
    beavers: bool,
    cube_limit: int | None,
    bottom: int,
) -> tuple[Any, ...]:
    """A :class:`GameState`'s fields, in its attributes' order, checked and normalised as
    the state's constructor does (the turn defaults to the player on roll, dice ``(0, 0)``
    are no dice).

    A transcript's replay checks the state of every action this way, and leaves the
    state to be built when it is first asked for (:meth:`GameState.from_fields`).

    Raises
    ------
    InvalidPositionError
        The fields describe no state (the check of a Match ID's fields).
    """
    if not isinstance(position, Position):
        raise InvalidPositionError(f"GameState needs a Position, got {type(position).__name__}")
    if turn is None:
        turn = on_roll
    if dice is not None:
        try:
            dice = ids.int_pair(dice, "GameState: dice")
        except InvalidPositionError as error:
            raise InvalidDiceError(str(error)) from None
        if dice == (0, 0):
            dice = None
        elif not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
            raise InvalidDiceError(
                f"GameState: dice {dice[0]}-{dice[1]} are not two numbers from 1 to 6 (R3)"
            )
    score = ids.int_pair(score, "GameState: score")
    if dice is not None and position.is_game_over:
        # the last checker borne off ends the game (R8.1): no one rolls after it
        done = on_roll if position.borne_off[0] == position.variant.checkers else 1 - on_roll
        raise InvalidPositionError(
            f"GameState: dice {dice[0]}-{dice[1]} are rolled, but the game is over: "
            f"player {done} has borne off every checker (R8.1)"
        )
    if game_state == ids.GAME_OVER and not position.is_game_over:
        raise InvalidPositionError(
            "GameState: the game is over (game state 2), but no player has borne off every "
            "checker (R8.1); a game that ends before that is resigned (3) or dropped (4)"
        )
    if bottom not in (0, 1):
        raise ArgumentError(f"bottom must be player 0 or 1, got {bottom!r}")
    if match_length and (jacoby or beavers):
        raise InvalidPositionError(
            f"GameState: {'the Jacoby rule' if jacoby else 'beavers'} in a "
            f"{match_length}-point match: a rule of money play (R10.1, R10.6)"
        )
    if cube_limit is not None and (
        type(cube_limit) is not int or cube_limit < 1 or cube_limit & (cube_limit - 1)
    ):
        raise InvalidPositionError(
            f"GameState: cube_limit {cube_limit!r} is not a power of two (R9.1, R9.6)"
        )
    if double_offered and turn == on_roll and not beavers:
        # only a beaver (R10.6) leaves the doubler to answer
        raise InvalidPositionError(
            f"GameState: player {on_roll}'s double waits for player {turn}, the doubler, to "
            "answer: only a beaver does that, and beavers are not allowed (R10.6)"
        )
    problem = _match_problem(
        (
            cube_value,
            cube_owner,
            on_roll,
            crawford,
            game_state,
            turn,
            double_offered,
            resignation,
            dice or (0, 0),
            match_length,
            score,
            jacoby,
        )
    )
    if problem is not None:
        raise InvalidPositionError(f"Match ID fields: {problem}")
    return (
        position,
        on_roll,
        turn,
        dice,
        cube_value,
        cube_owner,
        score,
        match_length,
        crawford,
        game_state,
        double_offered,
        resignation,
        jacoby,
        beavers,
        cube_limit,
        bottom,
    )


@dataclass(frozen=True, init=False)
class GameState:
    """Everything a player needs to decide: position, cube, score, dice, whose turn.

    Attributes
    ----------
    position : Position
        The board, seen from the player on roll.
    on_roll : int
        The player on roll (who rolls or rolled the dice), 0 or 1.
    turn : int
        The player who must act now: ``on_roll`` unless a double or a
        resignation waits for the opponent's answer.
    dice : tuple of int or None
        The dice rolled, or ``None`` before the roll.
    cube_value : int
    cube_owner : int or None
        The player who owns the cube, ``None`` while it is centred (R9.3).
    score : tuple of int
        Points of player 0 and player 1.
    match_length : int
        0 is money play (R8.5).
    crawford : bool
        This is the Crawford game (R10.2): no doubling.
    game_state : int
        GNU Backgammon's game state: 0 not started, 1 playing, 2 over,
        3 resigned, 4 cube dropped.
    double_offered : bool
        A double waits for the taker (``turn``).
    resignation : int
        A resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon (R12.1).
    jacoby : bool
        The Jacoby rule is in force (R10.1, money play).
    beavers : bool
        Beavers are allowed (R10.6, money play).
    cube_limit : int or None
        The highest value a double may take the cube to, ``None`` for no limit.
        XGIDs carry it (their 10th field); a cube already above it stays.
    bottom : int
        The player drawn at the bottom of diagrams and written as the XGID's
        bottom player.
    """

    position: Position
    on_roll: int = 0
    turn: int | None = None
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    game_state: int = ids.GAME_PLAYING
    double_offered: bool = False
    resignation: int = 0
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int | None = None
    bottom: int = 1

    def __init__(
        self,
        position: Position,
        on_roll: int = 0,
        turn: int | None = None,
        dice: tuple[int, int] | None = None,
        cube_value: int = 1,
        cube_owner: int | None = None,
        score: tuple[int, int] = (0, 0),
        match_length: int = 0,
        crawford: bool = False,
        game_state: int = ids.GAME_PLAYING,
        double_offered: bool = False,
        resignation: int = 0,
        jacoby: bool = False,
        beavers: bool = False,
        cube_limit: int | None = None,
        bottom: int = 1,
    ) -> None:
        arguments = locals()  # the fields as given, taken in the attributes' order
        _fill(self, state_fields(*[arguments[name] for name in _FIELDS]))

    @classmethod
    def from_fields(cls, fields: tuple[Any, ...]) -> GameState:
        """The state of fields checked by :func:`state_fields` (in the attributes' order).

        >>> GameState.from_fields(state_fields(Position.initial(), 1, None, (3, 1),
        ...     1, None, (0, 0), 0, False, 1, False, 0, False, False, None, 1)).turn
        1
        """
        state = cls.__new__(cls)
        _fill(state, fields)
        return state

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def initial(
        cls,
        variant: str | Variant = "standard",
        *,
        match_length: int = 0,
        on_roll: int = 0,
        **options: Any,
    ) -> GameState:
        """The start of a game: the variant's setup, cube centred, no dice yet."""
        return cls(Position.initial(variant), on_roll=on_roll, match_length=match_length, **options)

    @classmethod
    def from_gnubg_id(cls, gnubg_id: str, *, variant: str | Variant = "standard") -> GameState:
        """A state from GNU Backgammon's ``PositionID:MatchID``.

        Raises
        ------
        InvalidPositionError
            Either ID is malformed or describes no legal state, or the two do not fit
            together: dice rolled in a position where the game is over (R8.1).

        >>> GameState.from_gnubg_id("4HPwATDgc/ABMA:MIHmAAAAAAAE").dice
        (5, 1)
        """
        pid, mid = ids.split_gnubg_id(gnubg_id)
        var = lookup_variant(variant)
        fields = ids.fields_from_match_id(mid)
        shared = {name: getattr(fields, name) for name in _MATCH_ID_FIELDS}
        position = Position.from_gnubg_id(pid, var)
        # a double that waits for the doubler's answer is a beaver's (R10.6): beavers are on
        beaver = fields.double_offered and fields.turn == fields.dice_owner
        try:
            return cls(position, on_roll=fields.dice_owner, beavers=beaver, **shared)
        except InvalidPositionError as error:  # the two IDs, each valid, do not fit together
            detail = str(error).removeprefix("GameState: ")
            raise InvalidPositionError(f"GNU Backgammon ID {pid + ':' + mid!r}: {detail}") from None

    @classmethod
    def from_xgid(cls, xgid: str, *, variant: str | Variant = "standard") -> GameState:
        """A state from an eXtreme Gammon XGID, as GNU Backgammon reads it.

        The player the XGID's turn field names becomes player 1 (on roll);
        ``bottom`` remembers which player the XGID drew at the bottom, so that
        :attr:`xgid` writes the same string back. Like GNU Backgammon, an
        offered double (``D``) is read as the doubler on roll before doubling.

        >>> GameState.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").gnubg_id
        '4HPwATDgc/ABMA:cInqAAAAAAAE'
        """
        var = lookup_variant(variant)
        fields = ids.parse_xgid(xgid, checkers=var.checkers)
        state = cls.from_gnubg_id(ids.xgid_to_gnubg_id(fields), variant=var)
        return replace(
            state,
            dice=state.dice and fields.dice,  # in the XGID's order (a Match ID's is higher first)
            beavers=fields.beaver and fields.match_length == 0,
            bottom=1 if fields.turn == ids.XGID_BOTTOM else 0,
            cube_limit=fields.max_cube,
        )

    @classmethod
    def from_id(cls, text: str, *, variant: str | Variant = "standard") -> GameState:
        """A state from any ID as it is pasted: an XGID (with or without ``XGID=``),
        ``PositionID:MatchID``, a bare Position ID, or GNU Backgammon's labelled
        ``Position ID: ...`` and ``Match ID: ...``.

        A bare Position ID gives money play, cube centred, player 0 on roll.

        Raises
        ------
        InvalidPositionError
            The text is none of these: the message says what is wrong with it as
            the form its shape suggests (``XGID=`` or nine colons: an XGID; one colon:
            ``PositionID:MatchID``; none: a Position ID), then why it is not either of
            the other forms.

        >>> GameState.from_id("4HPwATDgc/ABMA").position == Position.initial()
        True
        >>> GameState.from_id("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").dice
        (5, 2)
        """
        import re

        if not isinstance(text, str):
            raise InvalidPositionError(f"an ID is text, got {type(text).__name__}")
        body = text.strip()
        labelled = {
            name.lower(): value
            for name, value in re.findall(r"\b(Position|Match)\s*ID\s*:\s*(\S+)", body, re.I)
        }
        if "position" in labelled:
            body = labelled["position"] + (":" + labelled["match"] if "match" in labelled else "")
        forms = {
            "an XGID": lambda: cls.from_xgid(body, variant=variant),
            "PositionID:MatchID": lambda: cls.from_gnubg_id(body, variant=variant),
            "a Position ID": lambda: cls(Position.from_gnubg_id(body, variant)),
        }
        colons = body.count(":")
        if body[:5].upper() == "XGID=" or colons >= 8:
            order = ["an XGID", "PositionID:MatchID", "a Position ID"]
        elif colons:
            order = ["PositionID:MatchID", "an XGID", "a Position ID"]
        else:
            order = ["a Position ID", "PositionID:MatchID", "an XGID"]
        errors = []
        for name in order:
            try:
                return forms[name]()
            except InvalidPositionError as error:  # not this form: try the next
                errors.append(str(error))
        others = [f"{name} ({why.split(': ', 1)[-1]})" for name, why in zip(order[1:], errors[1:])]
        raise InvalidPositionError(
            f"{errors[0]}; read as {order[0]}, the form its shape suggests, and it is not "
            f"{others[0]} or {others[1]} either"
        )

    # -- IDs --------------------------------------------------------------------------------

    def _match_fields(self) -> tuple[Any, ...]:
        return (
            self.cube_value,
            self.cube_owner,
            self.on_roll,
            self.crawford,
            self.game_state,
            self.turn,
            self.double_offered,
            self.resignation,
            self.dice or (0, 0),
            self.match_length,
            self.score,
            self.jacoby,
        )

    @property
    def position_id(self) -> str:
        """GNU Backgammon's Position ID of the board (seen from the player on roll)."""
        return self.position.gnubg_id

    @property
    def match_id(self) -> str:
        """GNU Backgammon's Match ID."""
        return _match_id(self._match_fields())

    @property
    def gnubg_id(self) -> str:
        """``PositionID:MatchID`` as GNU Backgammon writes it."""
        return f"{self.position_id}:{self.match_id}"

    @property
    def xgid(self) -> str:
        """The XGID of this state (``D`` when a double is offered)."""
        if self.game_state != ids.GAME_PLAYING and self.game_state != ids.GAME_NONE:
            raise InvalidPositionError("an XGID describes a game in progress; this one is over")
        if self.resignation:
            raise InvalidPositionError("an XGID cannot say that a resignation is offered")
        if any(self.position.waiting):
            raise InvalidPositionError(
                "an XGID cannot tell a checker waiting to enter (Acey-Deucey, R2.4) from one "
                "borne off; use repr(state.position) instead"
            )
        code = {self.bottom: ids.XGID_BOTTOM, 1 - self.bottom: ids.XGID_TOP}
        money = self.match_length == 0
        fields = ids.XgidFields(
            board=self.position.board,
            turn=code[self.on_roll],
            cube_value=self.cube_value,
            cube_owner=ids.XGID_CENTRED if self.cube_owner is None else code[self.cube_owner],
            dice=self.dice or (0, 0),
            cube_action="D" if self.double_offered else "",
            score=(self.score[self.bottom], self.score[1 - self.bottom]),
            match_length=self.match_length,
            crawford=self.crawford,
            jacoby=self.jacoby and money,
            beaver=self.beavers and money,
            # an XGID cannot say "no limit": write eXtreme Gammon's usual 1024 then
            max_cube=self.cube_limit if self.cube_limit is not None else XGID_MAX_CUBE,
        )
        return ids.format_xgid(fields)

    # -- derived ----------------------------------------------------------------------------

    @property
    def money(self) -> bool:
        """True in money play."""
        return self.match_length == 0

    @property
    def away(self) -> tuple[int, int] | None:
        """Points each player still needs, or ``None`` in money play."""
        if self.money:
            return None
        return (self.match_length - self.score[0], self.match_length - self.score[1])

    def legal_plays(self) -> LegalPlays:
        """The legal plays for the dice rolled."""
        if self.dice is None:
            raise InvalidDiceError("no dice rolled yet")
        return self.position.legal_plays(self.dice)

    def replace(self, **changes: Any) -> GameState:
        """A copy with some fields changed."""
        return replace(self, **changes)

    # -- display ----------------------------------------------------------------------------

    def describe(self) -> str:
        """The state in words: match, score, cube, dice, whose turn."""
        who = f"player {self.on_roll}"
        if self.money:
            lines = [
                "money game"
                + (", Jacoby" if self.jacoby else "")
                + (", beavers" if self.beavers else "")
            ]
        else:
            lines = [
                f"{self.match_length}-point match, score {self.score[0]}-{self.score[1]}"
                + (", Crawford game" if self.crawford else "")
            ]
        owner = "centred" if self.cube_owner is None else f"owned by player {self.cube_owner}"
        lines.append(f"cube {self.cube_value}, {owner}")
        if self.game_state != ids.GAME_PLAYING:
            lines.append(f"game {_STATUS_NAMES[self.game_state]}")
        if self.dice is not None:
            lines.append(f"{who} rolled {self.dice[0]}-{self.dice[1]}")
        else:
            lines.append(f"{who} on roll")
        if self.double_offered:
            lines.append(f"player {self.on_roll} doubles; player {self.turn} to take or pass")
        if self.resignation:
            turn = self.on_roll if self.turn is None else self.turn
            lines.append(f"player {1 - turn} offers to resign {_RESIGN_NAMES[self.resignation]}")
        return "\n".join(lines)

    def __str__(self) -> str:
        if any(self.position.waiting):
            # no Position ID records Acey-Deucey's checkers waiting to enter (R2.4)
            return f"{self.position}\n{self.describe()}\nMatch ID {self.match_id}"
        return f"{self.position}\n{self.describe()}\n{self.gnubg_id}"

    def _repr_svg_(self) -> str:
        from .draw import svg

        return str(svg.board(self))


_FIELDS = tuple(field.name for field in dataclass_fields(GameState))


def _fill(state: GameState, fields: tuple[Any, ...]) -> None:
    """Give a new state its checked fields (:func:`state_fields`): the dataclass is
    frozen, so they are written straight into its dict."""
    state.__dict__.update(zip(_FIELDS, fields))
