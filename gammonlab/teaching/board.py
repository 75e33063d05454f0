"""A teaching board: play a game against a policy, and learn why a play is illegal.

:class:`TeachingBoard` holds one game between you and an opponent policy
(``'pubeval'``, ``'random'``, any name :func:`~gammonlab.evaluators.base.get_evaluator`
knows, or ``None`` for two people at one board). You roll or set the dice,
enter a play in notation or pick one of the legal plays; an illegal play is
refused with the rules engine's explanation, citing the rule of ``rules.md``
and showing a legal play. The opponent plays one turn per :meth:`~TeachingBoard.step`,
so that a user interface can draw each turn; :meth:`~TeachingBoard.undo` takes
back your last play and the replies to it.

:data:`~gammonlab.teaching.lessons.LESSONS` holds one hand-made position per rule R4-R7
(moving, which dice must be played, hitting and the bar, bearing off): load one
with :meth:`TeachingBoard.from_scenario`.

Everything here is plain Python; :mod:`gammonlab.teaching.widget` draws it in Jupyter.

>>> board = TeachingBoard.from_scenario("R6.3")
>>> board.dice
(6, 5)
>>> board.explain("13/7 13/8").rule
'R6.3'
>>> board.play("bar/20 13/7", reply=False).notation
'bar/20 13/7'
>>> board.awaiting
'opponent'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from ..errors import (
    ArgumentError,
    ArgumentTypeError,
    IllegalPlayError,
    OptionError,
    OutOfTurnError,
    PlayIndexError,
)
from ..explain import Explanation
from ..play import LegalPlays, Move, Play, point_name
from ..position import Dice, Position, normalise_dice
from ..rules import Variant
from ..rules import variant as lookup_variant
from .lessons import LESSONS, Lesson, lesson
from .policies import empty_play, find_hint_policy, find_policy, hint_for, pick_play
from .records import (
    HINT_PLAYS,
    Hint,
    Outcome,
    Turn,
    Wording,
    agree,
    not_now_words,
    opening_words,
    roll_text,
    waiting_words,
    words,
)
from .steps import PlayBuilder

if TYPE_CHECKING:
    from ..draw.svg import SVG
    from ..evaluators.base import Policy
    from ..state import GameState

__all__ = [
    "HINT_PLAYS",
    "LESSONS",
    "Awaiting",
    "Hint",
    "Lesson",
    "Outcome",
    "TeachingBoard",
    "Turn",
    "lesson",
]


Awaiting = Literal["roll", "play", "opponent", "over"]
"""What the game waits for: a person to roll, a person to play, the opponent policy, nothing."""

PlayChoice = str | int | Play
"""A play as :meth:`TeachingBoard.play` takes it: notation, an index into
:attr:`TeachingBoard.choices`, or a :class:`~gammonlab.Play`."""


@dataclass(frozen=True)
class _Snapshot:
    """The game just before a person's play, for :meth:`TeachingBoard.undo`."""

    position: Position
    on_roll: int
    dice: Dice
    turns: int


# -- the board ------------------------------------------------------------------------------


class TeachingBoard:
    """A game between you and an opponent policy, or between two people.

    Parameters
    ----------
    opponent : str, Policy or None
        The policy that plays the other side: ``'pubeval'``, ``'random'`` or any
        name or object :func:`~gammonlab.evaluators.base.get_evaluator` accepts;
        ``None`` when two people share the board.
    variant : str or Variant
        ``standard``, ``nackgammon``, ``nackgammon-004``, ``hypergammon-1`` to ``-3``
        or ``acey-deucey`` (checkers entering from off the board, R11.1; a 1-2
        played with the doubles you choose, then a roll again, R11.2).
    seed : int, optional
        Seeds the dice and the random policy's choices.
    user : {0, 1}
        Your player, drawn at the bottom of the board.
    position : Position, optional
        Start here instead of the opening (R3.1); seen from ``on_roll``.
    on_roll : {0, 1}, optional
        Who is on roll in ``position`` (default: ``user``).
    dice : tuple of int, optional
        The dice already rolled in ``position``.
    hint_policy : str, Policy or None
        The policy :meth:`hint` ranks plays with: gammonlab's net by default
        (pubeval in the variants the net is not trained for, see
        :data:`~gammonlab.evaluators.net.TRAINED_VARIANTS`); ``None`` ranks none.
    names : pair of str, optional
        Names of player 0 and player 1.
    scoring : {'standard', 'seed-000'}
        How a finished game is scored (R8.2 or R8.4).
    auto_reply : bool
        :meth:`play` and :meth:`new_game` let the opponent reply at once,
        unless told otherwise.

    >>> board = TeachingBoard("pubeval", seed=7, position=Position.initial(), dice=(3, 1))
    >>> board.awaiting, len(board.choices)
    ('play', 16)
    >>> board.play("8/5 6/5", reply=False).notation
    '8/5 6/5'
    >>> turn = board.step()
    >>> turn.name, turn.number
    ('pubeval', 2)
    >>> [str(t) for t in board.undo()]
    ['1. You 3-1: 8/5 6/5', '2. pubeval 5-2: 13/8 13/11']
    """

    def __init__(
        self,
        opponent: str | Policy | None = "pubeval",
        *,
        variant: str | Variant = "standard",
        seed: int | None = None,
        user: int = 0,
        position: Position | None = None,
        on_roll: int | None = None,
        dice: Iterable[int] | None = None,
        hint_policy: str | Policy | None = "net",
        names: Sequence[str] | None = None,
        scoring: str = "standard",
        auto_reply: bool = True,
    ) -> None:
        if user not in (0, 1):
            raise ArgumentError(f"user must be player 0 or 1, got {user!r}")
        self._user = int(user)
        self._variant = _playable(position.variant if position is not None else variant)
        seeds = np.random.SeedSequence(seed).spawn(2)
        self._dice_rng = np.random.default_rng(seeds[0])
        self._choice_rng = np.random.default_rng(seeds[1])
        self._opponent: Policy | None = None
        self._names_given = tuple(names) if names is not None else None
        self.opponent = opponent
        self._hint_policy = find_hint_policy(hint_policy, self._variant)
        if scoring not in ("standard", "seed-000"):
            raise OptionError(
                f"unknown scoring {scoring!r}; known: standard, seed-000", option="scoring"
            )
        self._scoring = scoring
        self.auto_reply = auto_reply
        self.lesson: Lesson | None = None
        self.refusal: Explanation | None = None
        """The explanation of the last play refused, until the next play."""
        self._say: Wording = words("")
        self._reset()
        if position is None:
            self.new_game()
        else:
            who = self._user if on_roll is None else int(on_roll)
            if who not in (0, 1):
                raise ArgumentError(f"on_roll must be player 0 or 1, got {on_roll!r}")
            self._position = position
            self._on_roll = who
            self._dice = None if dice is None else normalise_dice(dice)
            self._check_over()
            if self._dice is not None and not self.is_game_over:
                roll = roll_text(self._dice)
                self._say = lambda names: f"{names[who]} to play {roll}"

    # -- construction -----------------------------------------------------------------------

    @classmethod
    def from_scenario(
        cls,
        rule: str,
        *,
        opponent: str | Policy | None = "pubeval",
        seed: int | None = None,
        **options: Any,
    ) -> TeachingBoard:
        """A board set up with the lesson of a rule (:data:`LESSONS`), you on roll.

        >>> board = TeachingBoard.from_scenario("R6.6", opponent=None)
        >>> board.lesson.title, board.dice
        ('A closed board', (6, 5))
        >>> board.explain("bar/20").rule
        'R6.6'
        """
        item = lesson(rule)
        board = cls(opponent, seed=seed, position=item.position, dice=item.dice, **options)
        board.lesson = item
        board.message = f"{item.rule} {item.title}. {item.text}"
        return board

    def new_game(self, *, variant: str | Variant | None = None, reply: bool | None = None) -> None:
        """Start a new game with the opening roll (R3.1, R3.2).

        Each side rolls one die, again on a tie; the higher moves first with the
        two numbers. When the opponent wins the opening it replies at once if
        ``reply`` (default :attr:`auto_reply`); otherwise call :meth:`step`.
        """
        if variant is not None:
            self._variant = _playable(variant)
        self._reset()
        self.lesson = None
        self._position = Position.initial(self._variant)
        while True:  # R3.1: equal numbers roll again
            first = tuple(int(d) for d in self._dice_rng.integers(1, 7, size=2))
            if first[0] != first[1]:
                break
        starter = 0 if first[0] > first[1] else 1
        self._on_roll = starter
        self._dice = (first[starter], first[1 - starter])  # R3.2
        self._say = opening_words(first, starter)
        if self._should_reply(reply):
            self.advance()

    @property
    def message(self) -> str:
        """What just happened, in words, for a user interface; the players are named as
        :attr:`names` names them now (after a change of opponent too)."""
        return self._say(self.names)

    @message.setter
    def message(self, text: str) -> None:
        self._say = words(text)

    def _reset(self) -> None:
        self._partial: list[tuple[Move, ...]] = []
        self._builder: PlayBuilder | None = None
        self._turns: list[Turn] = []
        self._snapshots: list[_Snapshot] = []
        self._outcome: Outcome | None = None
        self.refusal = None

    # -- who plays ---------------------------------------------------------------------------

    @property
    def opponent(self) -> Policy | None:
        """The policy playing the other side, ``None`` for two people.

        May be changed during a game, e.g. from ``'pubeval'`` to ``'random'``.
        """
        return self._opponent

    @opponent.setter
    def opponent(self, value: str | Policy | None) -> None:
        self._opponent = None if value is None else find_policy(value)

    @property
    def user(self) -> int:
        """Your player (0 or 1), drawn at the bottom."""
        return self._user

    @property
    def names(self) -> tuple[str, str]:
        """Names of player 0 and player 1."""
        if self._names_given is not None:
            return self._names_given[0], self._names_given[1]
        if self._opponent is None:
            return "Player 0", "Player 1"
        names = ["", ""]
        names[self._user] = "You"
        names[1 - self._user] = self._opponent.name
        return names[0], names[1]

    def is_person(self, player: int) -> bool:
        """Whether ``player`` is moved by a person (not by the opponent policy)."""
        return self._opponent is None or player == self._user

    # -- state --------------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position, seen from the player on roll."""
        return self._position

    @property
    def variant(self) -> Variant:
        """The variant played."""
        return self._variant

    @property
    def on_roll(self) -> int:
        """The player whose turn it is (0 or 1)."""
        return self._on_roll

    @property
    def dice(self) -> Dice | None:
        """The dice of the player on roll, ``None`` before the roll."""
        return self._dice

    @property
    def awaiting(self) -> Awaiting:
        """What the game waits for: ``'roll'`` or ``'play'`` (a person),
        ``'opponent'`` (call :meth:`step`) or ``'over'``."""
        if self._outcome is not None:
            return "over"
        if not self.is_person(self._on_roll):
            return "opponent"
        return "roll" if self._dice is None else "play"

    @property
    def is_game_over(self) -> bool:
        """True once a side has borne off every checker (R8.1)."""
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        """Who won and how (R8.2), ``None`` while the game goes on."""
        return self._outcome

    @property
    def history(self) -> tuple[Turn, ...]:
        """Every turn of the game so far."""
        return tuple(self._turns)

    @property
    def log(self) -> list[str]:
        """The game in notation, one line per turn: ``'1. You 3-1: 8/5 6/5'``."""
        return [str(turn) for turn in self._turns]

    @property
    def last_turn(self) -> Turn | None:
        """The turn that led to the current position, ``None`` before the first."""
        return self._turns[-1] if self._turns else None

    @property
    def legal_plays(self) -> LegalPlays:
        """The legal plays of the dice (empty for a roll that cannot be played).

        Raises
        ------
        OutOfTurnError
            No dice rolled yet.
        """
        return self._position.legal_plays(self._need_dice())

    @property
    def choices(self) -> list[Play]:
        """What may be played now: every legal play, or the one empty play of a
        roll that cannot be played (R5.5, R6.6). :meth:`play` takes an index into it.

        An Acey-Deucey 1-2 (R11.2) may have a hundred thousand plays: use
        :attr:`legal_plays`, a lazy sequence in the same order, to look at a few.
        """
        plays = self.legal_plays
        if len(plays) == 0:
            return [empty_play(self._position, plays.dice)]
        return list(plays)

    def _choice(self, index: int) -> Play:
        """``choices[index]`` without building the others."""
        plays = self.legal_plays
        if len(plays) == 0 and index == 0:
            return empty_play(self._position, plays.dice)
        if not 0 <= index < max(len(plays), 1):
            raise PlayIndexError(
                f"there is no play number {index}: {max(len(plays), 1)} to choose from"
            )
        return plays[index]

    @property
    def can_undo(self) -> bool:
        """Whether a person's play can be taken back."""
        return bool(self._snapshots)

    @property
    def state(self) -> GameState:
        """The game as a :class:`~gammonlab.GameState` (money play, no cube)."""
        from ..state import GameState

        return GameState(self._position, on_roll=self._on_roll, dice=self._dice, bottom=self._user)

    # -- dice ---------------------------------------------------------------------------------

    def roll(self) -> Dice:
        """Roll the dice for the person on roll.

        >>> board = TeachingBoard(None, seed=3, position=Position.initial())
        >>> board.roll()
        (4, 4)
        """
        if self.awaiting != "roll":
            raise OutOfTurnError(self._not_now("roll"))
        self._dice = self._throw()
        self._partial = []
        self.refusal = None
        self._say = self._rolled_message(self._on_roll, self._dice)
        return self._dice

    def set_dice(self, dice: Iterable[int]) -> Dice:
        """Set the dice of the player on roll, instead of rolling them or to try another roll.

        Allowed until the player on roll has played, also for the opponent
        policy, which then plays them at its next :meth:`step`.

        >>> board = TeachingBoard(None, position=Position.initial())
        >>> board.set_dice((6, 6))
        (6, 6)
        """
        if self.is_game_over:
            raise OutOfTurnError(self._not_now("set the dice"))
        self._dice = normalise_dice(dice)
        self._partial = []
        self.refusal = None
        self._say = self._rolled_message(self._on_roll, self._dice, "gets")
        return self._dice

    def _throw(self) -> Dice:
        d1, d2 = (int(d) for d in self._dice_rng.integers(1, 7, size=2))
        return d1, d2

    def _rolled_message(self, player: int, dice: Dice, verb: str = "rolled") -> Wording:
        lost = ""
        if len(self._position.legal_plays(dice)) == 0:
            rule = "R6.6" if self._position.on_bar[0] else "R5.5"
            lost = f": no legal play, the turn is lost ({rule})"
        roll = roll_text(dice)
        return lambda names: f"{names[player]} {agree(names[player], verb)} {roll}{lost}"

    # -- playing ------------------------------------------------------------------------------

    def explain(self, text: str) -> Explanation:
        """Whether ``text`` is legal with the dice and, if not, which rule it breaks.

        Nothing is played. See :meth:`Position.explain <gammonlab.Position.explain>`.
        """
        return self._position.explain(text, self._need_dice())

    def play(self, move: PlayChoice, *, reply: bool | None = None) -> Turn:
        """Play for the person on roll.

        Parameters
        ----------
        move : str, int or Play
            Notation (``'24/18 13/11*'``; ``''`` passes a roll that cannot be
            played), an index into :attr:`choices`, or one of the legal plays.
        reply : bool, optional
            Let the opponent policy reply at once (default :attr:`auto_reply`).

        Returns
        -------
        Turn
            Your turn as the log records it.

        Raises
        ------
        IllegalPlayError
            The play breaks a rule: the message, :attr:`refusal` and the error's
            ``rule`` and ``example`` say which and show a legal play.
        InvalidNotationError
            The text is no play in any notation.
        OutOfTurnError
            Not a person's turn to play (roll first, or the game is over).

        >>> board = TeachingBoard.from_scenario("R5.1", opponent=None)
        >>> try:
        ...     board.play("14/9")
        ... except IllegalPlayError as error:
        ...     print(error)
        14/9 is illegal with 6-5: both dice must be played when possible (R5.1); for example 14/3
        >>> board.refusal.rule, board.refusal.example
        ('R5.1', '14/3')
        """
        if self.awaiting != "play":
            raise OutOfTurnError(self._not_now("play"))
        self.refusal = None
        chosen = self._resolve(move)
        self._snapshots.append(
            _Snapshot(self._position, self._on_roll, self._need_dice(), len(self._turns))
        )
        turn = self._record(chosen)
        if self._should_reply(reply):
            self.advance()
        return turn

    def _resolve(self, move: PlayChoice) -> Play:
        dice = self._need_dice()
        if isinstance(move, Play):
            plays = self.legal_plays
            if move.before == self._position:
                if len(plays) == 0 and not move.moves:
                    return empty_play(self._position, plays.dice)
                same = np.flatnonzero((plays.boards == move.board).all(axis=(1, 2)))
                for i in same:
                    if plays[int(i)] == move:
                        return plays[int(i)]
            raise IllegalPlayError(
                f"{move.notation or 'no move'} is not a legal play of "
                f"{roll_text(dice)} in this position"
            )
        if isinstance(move, (int, np.integer)) and not isinstance(move, bool):
            return self._choice(int(move))
        if not isinstance(move, str):
            raise ArgumentTypeError(
                f"a play is notation, an index or a Play, not {type(move).__name__}"
            )
        explanation = self._position.explain(move, dice)
        if not explanation.legal or explanation.play is None:
            self.refusal = explanation
            self.message = explanation.message
            raise IllegalPlayError(
                explanation.message,
                rule=explanation.rule or "",
                reason=explanation.reason,
                example=explanation.example,
            )
        return explanation.play

    def step(self) -> Turn:
        """Let the opponent policy play one turn (rolling first if needed).

        One call per turn, so that a user interface can draw each. The random
        policy picks uniformly with the board's seeded generator; any other
        picks the play its scores rank highest.

        Raises
        ------
        OutOfTurnError
            It is not the opponent's turn.
        """
        if self.awaiting != "opponent" or self._opponent is None:
            raise OutOfTurnError(self._not_now("step"))
        if self._dice is None:
            self._dice = self._throw()
        plays = self.legal_plays
        pick = pick_play(self._opponent, self._position, plays, rng=self._choice_rng)
        return self._record(self._choice(pick))

    def advance(self) -> list[Turn]:
        """Let the opponent play until a person must act or the game is over."""
        turns = []
        while self.awaiting == "opponent":
            turns.append(self.step())
        return turns

    def _record(self, play: Play) -> Turn:
        player = self._on_roll
        turn = Turn(
            number=len(self._turns) + 1,
            player=player,
            name=self.names[player],
            dice=self._need_dice(),
            play=play,
        )
        self._turns.append(turn)
        self._partial = []
        self.refusal = None
        self._dice = None
        roll, notation = roll_text(turn.dice), turn.notation or "no move"
        self._say = lambda names: f"{names[player]} played {roll}: {notation}"
        self._hand_over(turn)
        self._check_over()
        return turn

    def _hand_over(self, turn: Turn) -> None:
        """Pass the dice to the next player, or, after an Acey-Deucey 1-2 played in
        full, give the roller a roll again (R11.2)."""
        if turn.play.roll_again and not turn.play.position.is_game_over:
            self._on_roll = turn.player
            self._position = turn.play.position.swapped()
            played = self._say
            self._say = lambda names: played(names) + ": a 1-2 played in full, roll again (R11.2)"
            return
        self._on_roll = 1 - turn.player
        self._position = turn.play.position

    def _check_over(self) -> bool:
        result = self._position.result(self._scoring)
        if result is None:
            self._outcome = None
            return False
        winner = self._on_roll if result.winner == 0 else 1 - self._on_roll
        self._outcome = Outcome(winner=winner, kind=result.kind, points=result.points)
        self._dice = None
        self._say = self._outcome.describe
        return True

    # -- a play move by move -----------------------------------------------------------------

    @property
    def partial(self) -> tuple[Move, ...]:
        """The moves of the play being built with :meth:`move`, one die each, in the
        mover's numbering (25 the bar, 0 off, 26 entering from off the board)."""
        return tuple(step for chain in self._partial for step in chain)

    @property
    def partial_notation(self) -> str:
        """:attr:`partial` in notation, ``''`` before the first move."""
        return self._steps().notation if self._partial else ""

    @property
    def dice_left(self) -> list[int]:
        """The dice the moves of :attr:`partial` leave to play (four for doubles, R4.5)."""
        return self._steps().dice_left if self.awaiting == "play" else []

    def _steps(self) -> PlayBuilder:
        position, dice, steps = self._position, self._need_dice(), self.partial
        built = self._builder
        if (
            built is None
            or built.position is not position
            or built.dice != dice
            or tuple(built.steps) != steps
        ):
            built = self._builder = PlayBuilder(position, dice, steps)
        return built

    def movable(self) -> list[int]:
        """The points (mover's numbering) a checker may be moved from now, as the next
        move of the play being built; empty unless a person is to play."""
        if self.awaiting != "play":
            return []
        return sorted(self._steps().options())

    def targets(self, source: int) -> list[int]:
        """The points a checker on ``source`` may reach now (0 off, R7), with one die
        or several (R4.4), as the next moves of the play being built."""
        if self.awaiting != "play":
            return []
        return sorted(self._steps().options().get(int(source), {}))

    def move(self, source: int, target: int, *, reply: bool | None = None) -> Turn | None:
        """Move one checker from ``source`` to ``target`` as part of the play.

        The move is taken when the rules allow it on the board as it stands and the
        moves so far with it still begin a legal play (R4-R7); once they make a whole
        play it is played (:meth:`play`) and its turn returned. Points are in the
        mover's numbering: 25 the bar, 0 off, 26 a checker waiting off the board
        (Acey-Deucey, R11.1).

        Raises
        ------
        IllegalPlayError
            The move breaks a rule: :attr:`refusal` says which, e.g. ``R6.3`` for
            a checker moved while another waits on the bar.
        OutOfTurnError
            Not a person's turn to play.

        >>> board = TeachingBoard.from_scenario("R6.3", opponent=None)
        >>> try:
        ...     board.move(13, 7)
        ... except IllegalPlayError as error:
        ...     print(error.rule, error.example)
        R6.3 bar/20 13/7
        >>> board.move(25, 20) is None, board.partial_notation, board.targets(13)
        (True, 'bar/20', [7])
        >>> board.move(13, 7).notation
        'bar/20 13/7'
        """
        if self.awaiting != "play":
            raise OutOfTurnError(self._not_now("move"))
        source, target = int(source), int(target)
        built = self._steps()
        if not built.clickable:
            raise IllegalPlayError(
                f"a {roll_text(built.dice)} with {built.count} legal plays is played "
                "with doubles of your choice: type it or choose it from the list (R11.2)",
                rule="R11.2",
            )
        chain = built.options().get(source, {}).get(target)
        if chain is None:
            rule, reason = built.refusal(source, target)
            text = f"{point_name(source)}/{point_name(target)}"
            self.refusal = Explanation(
                text=text,
                dice=built.dice,
                legal=False,
                rule=rule,
                reason=reason,
                example=built.example([(source, target)]),
            )
            self.message = self.refusal.message
            raise IllegalPlayError(
                self.refusal.message,
                rule=rule,
                reason=reason,
                example=self.refusal.example,
            )
        self._partial.append(chain)
        self.refusal = None
        built = self._steps()
        whole = built.complete()
        if whole is not None and not built.options():
            self._partial = []
            return self.play(whole, reply=reply)
        self._say = self._partial_words()
        return None

    def _partial_words(self) -> Wording:
        player, built = self._on_roll, self._steps()
        so_far, left = built.notation, built.dice_left
        whole = built.complete() is not None
        rest = " and ".join(str(d) for d in left)
        then = "; complete: send it, or play on" if whole else f"; to play: {rest}"
        return lambda names: f"{names[player]}: {so_far}{then}"

    def take_back(self) -> tuple[Move, ...]:
        """Take back the last move of the play being built (with every die it used);
        returns its moves, empty when there was none."""
        if not self._partial:
            return ()
        chain = self._partial.pop()
        self.refusal = None
        if self._partial:
            self._say = self._partial_words()
        else:
            roll, player = roll_text(self._need_dice()), self._on_roll
            self._say = lambda names: f"{names[player]} to play {roll}"
        return chain

    def take_back_all(self) -> tuple[Move, ...]:
        """Take back every move of the play being built; returns them."""
        taken = self.partial
        while self._partial:
            self.take_back()
        return taken

    def send(self, *, reply: bool | None = None) -> Turn:
        """Play the moves of :attr:`partial` as the whole play.

        Raises
        ------
        IllegalPlayError
            They are not a whole legal play yet: the refusal says which rule
            asks for more (R5.1, R5.4, R5.6).
        """
        if self.awaiting != "play":
            raise OutOfTurnError(self._not_now("play"))
        whole = self._steps().complete() if self._partial else None
        if whole is None:
            return self.play(self.partial_notation, reply=reply)
        return self.play(whole, reply=reply)

    # -- help ---------------------------------------------------------------------------------

    def hint(self) -> Hint:
        """The legal plays of the dice, ranked by :attr:`hint_policy` when there is one.

        >>> board = TeachingBoard(None, position=Position.initial(), dice=(3, 1))
        >>> board.hint().message
        '3-1: 16 legal plays; net plays 8/5 6/5'
        """
        found = hint_for(self._hint_policy, self._position, self._need_dice(), self.legal_plays)
        self.message = found.message
        return found

    def undo(self) -> list[Turn]:
        """Take back the last play of a person and every turn after it.

        The board returns to that decision, with the same dice. Returns the
        turns taken back, newest last; empty when there is nothing to undo.
        """
        if not self._snapshots:
            self.message = "nothing to undo"
            return []
        snap = self._snapshots.pop()
        undone = self._turns[snap.turns :]
        self._partial = []
        del self._turns[snap.turns :]
        self._position = snap.position
        self._on_roll = snap.on_roll
        self._dice = snap.dice
        self._outcome = None
        self.refusal = None
        taken, roll = ", ".join(str(t) for t in undone), roll_text(snap.dice)
        self._say = lambda names: f"took back {taken}; {names[snap.on_roll]} to play {roll}"
        return undone

    # -- drawing ------------------------------------------------------------------------------

    def board_svg(
        self,
        *,
        preview: PlayChoice | None = None,
        arrows: bool = True,
        flip: bool = False,
        numbering: bool = True,
        size: float | None = 480,
        highlight: Iterable[int] | None = None,
        hit_areas: bool = False,
    ) -> SVG:
        """The board as SVG: you at the bottom, the dice, the last play's arrows.

        While a play is built with :meth:`move`, the board shows the checkers
        where its moves took them, with their arrows.

        Parameters
        ----------
        preview : str, int or Play, optional
            A play of the side on roll to draw as arrows instead of the last play.
        arrows : bool
            Draw the last play's arrows (checkers that moved, rings where blots were hit).
        flip : bool
            Home boards on the left (R1.3).
        numbering : bool
            Write the point numbers.
        size : float or None
            Width in pixels; ``None`` fills the width of the page (the picture keeps
            its proportions).
        highlight : iterable of int, optional
            Points to tint, as the board numbers them from the bottom (25 the bar,
            0 the tray).
        hit_areas : bool
            Invisible ``<rect class="hit-area" data-point="p">`` over every point,
            the bar and the trays, for a page that maps clicks to points.

        >>> board = TeachingBoard(None, position=Position.initial(), dice=(3, 1))
        >>> _ = board.play("8/5 6/5")
        >>> svg = board.board_svg()
        >>> svg.count('class="arrow"'), "Player 1 \\u00b7 on roll" in svg
        (2, True)
        """
        from .picture import draw_teaching_board

        building = bool(self._partial) and not self.is_game_over and preview is None
        shown = (
            Position.from_board(self._steps().board(), self._variant)
            if building
            else self._position
        )
        return draw_teaching_board(
            self,
            shown,
            preview=None if preview is None else self._resolve_quietly(preview).moves,
            arrows=arrows,
            flip=flip,
            numbering=numbering,
            size=size,
            highlight=highlight,
            hit_areas=hit_areas,
        )

    def _resolve_quietly(self, move: PlayChoice) -> Play:
        say, refusal = self._say, self.refusal
        try:
            return self._resolve(move)
        finally:
            self._say, self.refusal = say, refusal

    def _repr_svg_(self) -> str:
        return str(self.board_svg())

    def __repr__(self) -> str:
        names, on_roll = self.names, self._on_roll
        status = waiting_words(self.awaiting, names, on_roll, self._dice, self._outcome)
        return (
            f"<TeachingBoard {names[0]} vs {names[1]}, {self._variant.name}, "
            f"turn {len(self._turns) + 1}: {status}>"
        )

    # -- helpers ------------------------------------------------------------------------------

    def _need_dice(self) -> Dice:
        if self._dice is None:
            raise OutOfTurnError(self._not_now("use the dice"))
        return self._dice

    def _should_reply(self, reply: bool | None) -> bool:
        return self.auto_reply if reply is None else reply

    def _not_now(self, action: str) -> str:
        return not_now_words(action, self.awaiting, self.names, self._on_roll)


def _playable(variant: str | Variant) -> Variant:
    return lookup_variant(variant)
