"""The :class:`Position`: a board seen from the side on roll.

>>> pos = Position.initial()
>>> pos.pips
(167, 167)
>>> pos.gnubg_id
'4HPwATDgc/ABMA'
>>> len(pos.legal_plays((6, 5)))
7
>>> pos.play("24/18 18/13", (6, 5)).gnubg_id
'4HPwAyDgc/ABMA'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ._kernels.board import START
from ._kernels.movegen import generate_plays
from ._kernels.outcome import (
    END_BACKGAMMON,
    END_GAMMON,
    END_SINGLE,
    SCORING_CODES,
    SEED_000,
    STANDARD,
    game_class,
)
from .errors import (
    ArgumentTypeError,
    ImmutableError,
    InvalidDiceError,
    InvalidPositionError,
    OptionError,
)
from .play import LegalPlays
from .rules import BAR, HOME_POINTS, OFF, POINTS, Variant
from .rules import variant as lookup_variant

if TYPE_CHECKING:
    from .explain import Explanation
    from .play import Play

__all__ = ["Dice", "GameResult", "Position", "normalise_dice"]

Dice = tuple[int, int]
Phase = Literal["contact", "race", "bearoff", "over"]

_RESULTS = {
    STANDARD: {
        END_SINGLE: ("single", 1),
        END_GAMMON: ("gammon", 2),
        END_BACKGAMMON: ("backgammon", 3),
    },  # R8.2
    SEED_000: {
        END_SINGLE: ("single", 1),
        END_GAMMON: ("outside", 2),
        END_BACKGAMMON: ("bar", 4),
    },  # R8.4
}
"""The kind and points of each class of a game's end
(:func:`~gammonlab._kernels.outcome.game_class`)."""


class GameResult:
    """How a finished game ended, from the point of view of the side on roll.

    Attributes
    ----------
    winner : int
        0 if the side on roll has won, 1 if its opponent has (the usual case:
        the winner bore off its last checker and passed the turn).
    kind : str
        ``'single'``, ``'gammon'`` or ``'backgammon'`` (R8.2), or under seed 000's
        scoring (R8.4) ``'single'``, ``'outside'`` (loser not all home) or
        ``'bar'`` (loser on the bar).
    points : int
        Points won before the cube (R8.2 / R8.4).
    """

    __slots__ = ("kind", "points", "winner")

    def __init__(self, winner: int, kind: str, points: int) -> None:
        self.winner = winner
        self.kind = kind
        self.points = points

    def __repr__(self) -> str:
        return f"GameResult(winner={self.winner}, kind={self.kind!r}, points={self.points})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameResult):
            return NotImplemented
        return (self.winner, self.kind, self.points) == (other.winner, other.kind, other.points)

    def __hash__(self) -> int:
        return hash((self.winner, self.kind, self.points))


def normalise_dice(dice: Iterable[int]) -> Dice:
    """Two dice as a pair of ints from 1 to 6, as given (not sorted).

    Raises :class:`~gammonlab.errors.InvalidPositionError` for anything else.

    >>> normalise_dice(["3", 1])
    (3, 1)
    """
    if type(dice) is tuple and len(dice) == 2:
        d1, d2 = dice
        if type(d1) is int and type(d2) is int and 1 <= d1 <= 6 and 1 <= d2 <= 6:
            return dice
    try:
        d1, d2 = (int(d) for d in dice)
    except (TypeError, ValueError):
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {dice!r}") from None
    if not (1 <= d1 <= 6 and 1 <= d2 <= 6):
        raise InvalidDiceError(f"dice must be two numbers from 1 to 6, got {dice!r}")
    return d1, d2


class Position:
    """A backgammon position, always seen from the side on roll.

    The board is a read-only ``numpy.int8`` array of shape ``(2, 26)``: row 0
    is the side on roll, row 1 its opponent, each row in its own numbering
    (R1.1): column 0 holds the checkers borne off, 1..24 the points, 25 the bar.

    Positions are immutable and hashable; build them with :meth:`initial`,
    :meth:`from_board` or :meth:`from_gnubg_id`.

    >>> Position.from_gnubg_id("4HPwATDgc/ABUA").board[0, 25]
    np.int8(1)
    """

    __slots__ = ("_board", "_hash", "_id", "_pips", "_variant")

    _board: np.ndarray
    _variant: Variant
    _hash: int | None
    _id: str | None
    _pips: tuple[int, int] | None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise ArgumentTypeError(
            "use Position.initial(), Position.from_board() or "
            "Position.from_gnubg_id() to build a Position"
        )

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def _sharing(cls, board: np.ndarray, variant: Variant) -> Position:
        """Wrap a read-only int8 board known to be valid (kernel output) without
        checking or copying it: the kernel's rows of a whole game, one per position."""
        self = object.__new__(cls)
        # the slots written through their descriptors: the cheapest way past __setattr__
        _set_board(self, board)
        _set_variant(self, variant)
        # _hash, _id and _pips stay unset until first worked out (a replay wraps a
        # board per action, and few are ever hashed or named)
        return self

    @classmethod
    def _sharing_all(cls, boards: np.ndarray, variant: Variant) -> list[Position]:
        """:meth:`_sharing` of each board of a read-only array ``(n, 2, 26)``, at once."""
        positions = []
        for board in boards:
            self = object.__new__(cls)
            _set_board(self, board)
            _set_variant(self, variant)
            positions.append(self)
        return positions

    @classmethod
    def _trusted(cls, board: np.ndarray, variant: Variant) -> Position:
        """Wrap a board known to be valid (kernel output) without checking it."""
        frozen = board.copy() if type(board) is np.ndarray and board.dtype == np.int8 else None
        if frozen is None:
            frozen = np.array(board, dtype=np.int8, copy=True)
        frozen.flags.writeable = False
        return cls._sharing(frozen, variant)

    @classmethod
    def initial(cls, variant: str | Variant = "standard") -> Position:
        """The starting position of a variant (R2).

        >>> Position.initial("nackgammon").board[0, 23]
        np.int8(2)
        """
        var = lookup_variant(variant)
        return cls._trusted(var.initial_board(), var)

    @classmethod
    def from_board(
        cls,
        board: Any,
        variant: str | Variant = "standard",
        *,
        waiting: tuple[int, int] | None = None,
    ) -> Position:
        """A position from a ``(2, 26)`` board (row 0 on roll), checked.

        The borne-off column may be left at zero: it is filled in from the
        variant's number of checkers. Otherwise each side must have exactly
        the variant's checkers. In Acey-Deucey the checkers missing from a
        row wait off the board to enter (R2.4); ``waiting``, when given, must
        say how many, as ``repr()`` writes it.

        Raises
        ------
        InvalidPositionError
            Wrong shape, negative counts, too many or too few checkers, a point
            held by both sides (R4.6), or both sides borne off.

        >>> Position.from_board(Position.initial().board).pips
        (167, 167)
        """
        var = lookup_variant(variant)
        try:
            arr = np.asarray(board)
        except (TypeError, ValueError) as exc:
            raise InvalidPositionError(f"not a board: {exc}") from None
        if arr.shape != (2, 26):
            raise InvalidPositionError(
                f"a board has shape (2, 26) (side on roll, opponent; off, points 1-24, bar), "
                f"got shape {arr.shape}"
            )
        if arr.dtype == np.object_:
            try:  # Python integers too large for int64, or anything else
                arr = arr.astype(np.float64)
            except (TypeError, ValueError, OverflowError):
                pass
        if arr.dtype == np.bool_ or not (
            np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
        ):
            raise InvalidPositionError(
                f"checker counts must be whole numbers, got an array of {arr.dtype}"
            )
        if np.issubdtype(arr.dtype, np.floating) and not (
            np.isfinite(arr).all() and np.equal(np.mod(arr, 1), 0).all()
        ):
            raise InvalidPositionError("checker counts must be whole numbers")
        if (np.abs(arr) > 10_000).any():
            largest = float(arr.flat[int(np.argmax(np.abs(arr)))])
            raise InvalidPositionError(
                f"a checker count of {largest:.6g}: no variant has that many checkers"
            )
        counts = arr.astype(np.int64)
        if (counts < 0).any():
            side, col = (int(i) for i in np.argwhere(counts < 0)[0])
            raise InvalidPositionError(
                f"negative checker count {counts[side, col]} for "
                f"{'the side on roll' if side == 0 else 'the opponent'} at {_slot_name(col)}"
            )
        board8 = counts.copy()
        for side in range(2):
            on_board = int(counts[side, 1:].sum())
            total = on_board + int(counts[side, OFF])
            who = "the side on roll" if side == 0 else "the opponent"
            if counts[side, OFF] == 0 and on_board <= var.checkers and not var.enter_from_off:
                board8[side, OFF] = var.checkers - on_board
                total = var.checkers
            if total > var.checkers or (total != var.checkers and not var.enter_from_off):
                raise InvalidPositionError(
                    f"{who} has {total} checkers; {var.name} has {var.checkers} a side"
                )
        for point in range(1, POINTS + 1):
            if counts[0, point] > 0 and counts[1, BAR - point] > 0:
                raise InvalidPositionError(
                    f"point {point} of the side on roll is held by both sides "
                    f"({counts[0, point]} and {counts[1, BAR - point]} checkers) (R4.6)"
                )
        if board8[0, OFF] == var.checkers and board8[1, OFF] == var.checkers:
            raise InvalidPositionError("both sides have borne off every checker")
        position = cls._trusted(board8.astype(np.int8), var)
        if waiting is not None and tuple(waiting) != position.waiting:
            raise InvalidPositionError(
                f"the board leaves {position.waiting[0]} and {position.waiting[1]} checkers "
                f"waiting to enter (R2.4), not {waiting[0]} and {waiting[1]}"
            )
        return position

    @classmethod
    def from_gnubg_id(cls, position_id: str, variant: str | Variant = "standard") -> Position:
        """A position from a GNU Backgammon Position ID (14 characters).

        >>> Position.from_gnubg_id("4HPwATDgc/ABMA") == Position.initial()
        True
        """
        from .ids import board_from_position_id

        var = lookup_variant(variant)
        board = board_from_position_id(position_id, checkers=var.checkers)
        return cls.from_board(board, var)

    @classmethod
    def from_id(cls, text: str, variant: str | Variant = "standard") -> Position:
        """The position of any ID as it is pasted: a Position ID, ``PositionID:MatchID``,
        an XGID (with or without ``XGID=``), seen from the side on roll.

        The cube, score and dice an ID carries are left out; :meth:`GameState.from_id
        <gammonlab.state.GameState.from_id>` keeps them.

        Raises
        ------
        InvalidPositionError
            The text is none of these: the message names each form tried and why.

        >>> Position.from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10").gnubg_id
        '4HPwATDgc/ABMA'
        """
        from .state import GameState

        return GameState.from_id(text, variant=variant).position

    # -- basic properties -------------------------------------------------------------------

    @property
    def board(self) -> np.ndarray:
        """The read-only ``(2, 26)`` int8 board, row 0 on roll."""
        return self._board

    @property
    def variant(self) -> Variant:
        """The variant this position belongs to."""
        return self._variant

    @property
    def gnubg_id(self) -> str:
        """GNU Backgammon's Position ID.

        The ID records the checkers on the points and the bar only; GNU
        Backgammon reads every other checker as borne off. An Acey-Deucey
        position with checkers still waiting to enter (R2.4) has no ID that says
        so: asking for one raises :class:`InvalidPositionError` rather than
        giving the ID of a position whose waiting checkers are borne off.
        Once every checker has entered, the ID is exact.

        >>> Position.initial().gnubg_id
        '4HPwATDgc/ABMA'
        >>> Position.initial("acey-deucey").gnubg_id
        Traceback (most recent call last):
        ...
        gammonlab.errors.InvalidPositionError: a GNU Backgammon Position ID cannot tell a \
checker waiting to enter (Acey-Deucey, R2.4) from one borne off, and 15 and 15 checkers \
wait here; use repr(position) or Position.from_board() instead
        """
        cached = getattr(self, "_id", None)
        if cached is None:
            waiting = self.waiting
            if any(waiting):
                raise InvalidPositionError(
                    "a GNU Backgammon Position ID cannot tell a checker waiting to enter "
                    f"(Acey-Deucey, R2.4) from one borne off, and {waiting[0]} and "
                    f"{waiting[1]} checkers wait here; use repr(position) or "
                    "Position.from_board() instead"
                )
            from .ids import position_id_unchecked

            cached = position_id_unchecked(self._board)
            object.__setattr__(self, "_id", cached)
        return cached

    @property
    def label(self) -> str:
        """A short name for the position in text: its Position ID, or where checkers
        still wait to enter (Acey-Deucey, R2.4), which a Position ID cannot show, the
        ID of the checkers on the board and the number waiting.

        >>> Position.initial().label
        '4HPwATDgc/ABMA'
        >>> Position.initial("acey-deucey").play("in/20 in/19", (6, 5)).label
        'AAAUAAAAAAAAAA, 15 and 13 waiting to enter'
        """
        waiting = self.waiting
        if not any(waiting):
            return self.gnubg_id
        from .ids import position_id_unchecked

        return (
            f"{position_id_unchecked(self._board)}, {waiting[0]} and {waiting[1]} waiting to enter"
        )

    @property
    def pips(self) -> tuple[int, int]:
        """Pip counts ``(side on roll, opponent)``; a checker on the bar counts 25,
        and so does an Acey-Deucey checker waiting to enter (R11.1).

        >>> Position.initial().pips
        (167, 167)
        >>> Position.initial("acey-deucey").pips
        (375, 375)
        """
        pips = getattr(self, "_pips", None)
        if pips is None:
            me, opponent = self._board.tolist()
            waiting = self.waiting
            pips = (
                sum(i * n for i, n in enumerate(me)) + BAR * waiting[0],
                sum(i * n for i, n in enumerate(opponent)) + BAR * waiting[1],
            )
            object.__setattr__(self, "_pips", pips)
        return pips

    @property
    def waiting(self) -> tuple[int, int]:
        """Checkers not yet entered ``(side on roll, opponent)``: Acey-Deucey's checkers
        start off the board (R2.4); ``(0, 0)`` in the other variants.

        >>> Position.initial("acey-deucey").waiting
        (15, 15)
        """
        if not self._variant.enter_from_off:
            return (0, 0)
        n = self._variant.checkers
        totals = self._board.sum(axis=1, dtype=np.int64)
        return n - int(totals[0]), n - int(totals[1])

    @property
    def borne_off(self) -> tuple[int, int]:
        """Checkers borne off ``(side on roll, opponent)``."""
        return int(self._board[0, OFF]), int(self._board[1, OFF])

    @property
    def on_bar(self) -> tuple[int, int]:
        """Checkers on the bar ``(side on roll, opponent)``."""
        return int(self._board[0, BAR]), int(self._board[1, BAR])

    def swapped(self) -> Position:
        """The same board seen from the other side.

        >>> pos = Position.from_gnubg_id("4HPwATDgc/ABUA")
        >>> pos.swapped().swapped() == pos
        True
        """
        return Position._trusted(self._board[::-1], self._variant)

    # -- classification and results ---------------------------------------------------------

    @property
    def is_contact(self) -> bool:
        """True while some checker still has an opposing checker ahead of it."""
        me, opp = self._board
        my_back = _furthest(me)
        opp_back = _furthest(opp)
        if my_back == 0 or opp_back == 0:
            return False
        # My checker on my point p faces the opponent's checkers on their points
        # above 25 - p; contact remains while the two rearmost checkers have not passed.
        return my_back + opp_back > BAR

    @property
    def is_race(self) -> bool:
        """True when the sides have passed each other and the game is not over."""
        return not self.is_contact and not self.is_game_over

    @property
    def is_bearoff(self) -> bool:
        """True in a race where both sides have every checker home (R7.1)."""
        return (
            self.is_race
            and _furthest(self._board[0]) <= HOME_POINTS
            and _furthest(self._board[1]) <= HOME_POINTS
        )

    @property
    def phase(self) -> Phase:
        """``'contact'``, ``'race'``, ``'bearoff'`` (both sides home) or ``'over'``."""
        if self.is_game_over:
            return "over"
        if self.is_contact:
            return "contact"
        return "bearoff" if self.is_bearoff else "race"

    @property
    def is_game_over(self) -> bool:
        """True when one side has borne off every checker (R8.1)."""
        n = self._variant.checkers
        board = self._board
        return board.item(0, OFF) == n or board.item(1, OFF) == n

    def result(self, scoring: str = "standard") -> GameResult | None:
        """How the game ended, or ``None`` while it goes on.

        Parameters
        ----------
        scoring : {'standard', 'seed-000'}
            R8.2 (1, 2 for a gammon, 3 for a backgammon) or R8.4 (1; 2 if the
            loser still has a checker outside its home board; 4 if one on the bar).
            An Acey-Deucey checker still waiting to enter counts as one on the bar.

        >>> board = Position.initial().board.copy()
        >>> board[1] = 0; board[1, 0] = 15
        >>> Position.from_board(board).result()
        GameResult(winner=1, kind='backgammon', points=3)
        """
        if not self.is_game_over:
            return None
        n = self._variant.checkers
        winner = 0 if int(self._board[0, OFF]) == n else 1
        code = SCORING_CODES.get(scoring)
        if code is None:
            raise OptionError(
                f"unknown scoring {scoring!r}; known: standard (R8.2), seed-000 (R8.4)",
                option="scoring",
            )
        # Acey-Deucey: a checker that never entered (R2.4) is scored as one on the
        # bar, which it is like: 25 pips from home, entering on the winner's home board
        won = np.ascontiguousarray(self._board[::-1] if winner else self._board)
        kind, points = _RESULTS[code][game_class(won, code, self.waiting[1 - winner])]
        return GameResult(winner, kind, points)

    # -- plays ------------------------------------------------------------------------------

    def legal_plays(self, dice: Iterable[int]) -> LegalPlays:
        """Every legal play for a roll, unique by resulting position (R4-R7, R11).

        The sequence is lazy: ``len()`` does not build :class:`Play` objects.
        A roll that cannot be played at all (R5.5) gives an empty sequence.

        In Acey-Deucey, checkers waiting off the board enter like checkers on
        the bar (R11.1, written ``in/22``), and a 1-2 is played with the doubles
        the player chooses (R11.2): each such play holds up to six moves and
        its :attr:`~gammonlab.play.Play.doubles`. A 1-2 may have over a
        hundred thousand plays; they stay arrays until a play is asked for.

        >>> plays = Position.initial().legal_plays((3, 1))
        >>> len(plays), plays[0].notation
        (16, '24/21 24/23')
        >>> acey = Position.initial("acey-deucey")
        >>> acey.legal_plays((6, 5)).notations
        ['in/19 in/20', 'in/14']
        >>> print(acey.legal_plays((1, 2))[0])
        in/23 in/24 then 1-1: in/24(4)
        """
        d1, d2 = normalise_dice(dice)
        if self.is_game_over:
            return LegalPlays(
                self, (d1, d2), np.empty((0, 2, 26), np.int8), np.empty((0, 4, 2), np.int8)
            )
        if self._variant.enter_from_off:
            if (min(d1, d2), max(d1, d2)) == (1, 2):
                from ._kernels.acey import acey_deucey_plays

                boards, moves, doubles = acey_deucey_plays(self._board, self._variant.checkers)
                return LegalPlays(self, (d1, d2), boards, moves, doubles)
            return self._roll_plays((d1, d2))
        boards, moves = generate_plays(self._board, d1, d2)
        return LegalPlays(self, (d1, d2), boards, moves)

    def _roll_plays(self, dice: Dice) -> LegalPlays:
        """The legal plays of ``dice`` as an ordinary roll (an Acey-Deucey 1-2 too)."""
        d1, d2 = dice
        if self._variant.enter_from_off:
            from ._kernels.acey import acey_plays

            boards, moves = acey_plays(self._board, d1, d2, self._variant.checkers)
        else:
            boards, moves = generate_plays(self._board, d1, d2)
        return LegalPlays(self, (d1, d2), boards, moves)

    def play(self, text: str, dice: Iterable[int]) -> Position:
        """The position after playing ``text`` with ``dice``, opponent on roll.

        Accepts every spelling found in transcripts: ``24/18 13/11*``,
        ``bar/22``, ``25/22``, ``6/off``, ``6/0``, ``8/5(2)``, ``24/18/13``, in
        any order and case. An empty text (or ``Cannot Move``) passes a roll that
        cannot be played.

        Raises
        ------
        InvalidNotationError, IllegalPlayError
            As :func:`~gammonlab.explain.resolve_play`, which finds the play.

        >>> Position.initial().play("8/5 6/5", (3, 1)).swapped().board[0, 5]
        np.int8(2)
        """
        return self.find_play(text, dice).position

    def find_play(self, text: str, dice: Iterable[int]) -> Play:
        """The legal :class:`Play` that ``text`` describes (see :meth:`play`)."""
        from .explain import resolve_play

        return resolve_play(self, text, normalise_dice(dice))

    def explain(self, text: str, dice: Iterable[int]) -> Explanation:
        """Whether ``text`` is legal with ``dice`` and, if not, which rule it breaks.

        >>> Position.initial().explain("13/7", (6, 5)).rule
        'R5.1'
        """
        from .explain import explain_play

        return explain_play(self, text, normalise_dice(dice))

    # -- dunder -----------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._variant.name == other._variant.name and bool(
            np.array_equal(self._board, other._board)
        )

    def __hash__(self) -> int:
        cached = getattr(self, "_hash", None)
        if cached is None:
            cached = hash((self._board.tobytes(), self._variant.name))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __setattr__(self, name: str, value: object) -> None:
        raise ImmutableError("Position is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self._board.tobytes(), self._variant))

    def __repr__(self) -> str:
        if self._variant.enter_from_off:
            # R2.4: the checkers waiting to enter are on no point: say how many
            return (
                f"Position.from_board({self._board.tolist()!r}, "
                f"variant={self._variant.name!r}, waiting={self.waiting!r})"
            )
        args = repr(self.gnubg_id)
        if self._variant.name != "standard":
            args += f", variant={self._variant.name!r}"
        return f"Position.from_gnubg_id({args})"

    def __str__(self) -> str:
        from .draw.ascii import ascii_board

        return ascii_board(self)

    def _repr_svg_(self) -> str:
        from .draw import svg

        return str(svg.board(self))


_set_board = Position.__dict__["_board"].__set__
_set_variant = Position.__dict__["_variant"].__set__


def _furthest(row: np.ndarray) -> int:
    """The highest occupied slot of a row (25 for the bar), 0 if none."""
    occupied = np.flatnonzero(row[1:]) + 1
    return int(occupied[-1]) if occupied.size else 0


_SLOT_NAMES = {START: "off the board, waiting to enter", BAR: "the bar", OFF: "off"}
"""How messages name the slots that are no point of the board."""


def _slot_name(col: int) -> str:
    return _SLOT_NAMES.get(col, f"point {col}")


def _rebuild(data: bytes, variant: Variant) -> Position:
    board = np.frombuffer(data, dtype=np.int8).reshape(2, 26)
    return Position._trusted(board, variant)
