"""The records of a teaching game: a :class:`Turn` of its log, the :class:`Outcome` of a
finished game, a :class:`Hint` listing the legal plays; and the words they are told in.

>>> Outcome(0, "single", 1).describe(["You", "pubeval"])
'You win a single game: 1 point (R8.2)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..play import Play
from ..position import Dice

__all__ = [
    "HINT_PLAYS",
    "Hint",
    "Outcome",
    "Turn",
    "Wording",
    "agree",
    "not_now_words",
    "opening_words",
    "roll_text",
    "waiting_words",
    "words",
]

HINT_PLAYS = 1000
"""Most plays a :class:`Hint` lists, the best first."""

_KIND_WORDS = {
    "single": ("a single game", "R8.2"),
    "gammon": ("a gammon", "R8.2"),
    "backgammon": ("a backgammon", "R8.2"),
    "outside": ("a double game: the loser still has checkers outside its home board", "R8.4"),
    "bar": ("a quadruple game: the loser still has a checker on the bar", "R8.4"),
}


def roll_text(dice: Dice) -> str:
    return f"{max(dice)}-{min(dice)}"


_YOU_FORMS = {"has": "have", "moves": "move", "gets": "get", "wins": "win"}
"""The verbs the messages use, as they read after "You"."""


def agree(name: str, verb: str) -> str:
    """``verb`` as it reads after ``name``: "You move", "pubeval moves"."""
    return _YOU_FORMS.get(verb, verb) if name == "You" else verb


@dataclass(frozen=True)
class Turn:
    """One turn of the game, as the log shows it.

    Attributes
    ----------
    number : int
        1 for the first turn of the game.
    player : int
        The player who moved (0 or 1).
    name : str
        That player's name.
    dice : tuple of int
        The roll, as rolled.
    play : Play
        What was played; its :attr:`~gammonlab.Play.before` is the position
        seen from the mover, its :attr:`~gammonlab.Play.position` the result.
    """

    number: int
    player: int
    name: str
    dice: Dice
    play: Play

    @property
    def notation(self) -> str:
        """The play in notation, ``''`` when the roll could not be played."""
        return self.play.notation

    def __str__(self) -> str:
        return f"{self.number}. {self.name} {roll_text(self.dice)}: {self.notation or 'no move'}"


@dataclass(frozen=True)
class Outcome:
    """How the game ended (R8.1, R8.2).

    Attributes
    ----------
    winner : int
        The player who bore off every checker (0 or 1).
    kind : str
        ``'single'``, ``'gammon'`` or ``'backgammon'`` (R8.2); ``'single'``,
        ``'outside'`` or ``'bar'`` under seed 000's scoring (R8.4).
    points : int
        Points won (no cube on the teaching board).
    """

    winner: int
    kind: str
    points: int

    @property
    def rule(self) -> str:
        """The scoring rule that counts the points."""
        return _KIND_WORDS.get(self.kind, ("", "R8.2"))[1]

    def describe(self, names: Sequence[str]) -> str:
        """One sentence, e.g. ``'pubeval wins a gammon: 2 points (R8.2)'``.

        >>> Outcome(1, "gammon", 2).describe(["You", "pubeval"])
        'pubeval wins a gammon: 2 points (R8.2)'
        """
        words = _KIND_WORDS.get(self.kind, (self.kind, "R8.2"))[0]
        unit = "point" if self.points == 1 else "points"
        name = names[self.winner]
        return f"{name} {agree(name, 'wins')} {words}: {self.points} {unit} ({self.rule})"


@dataclass(frozen=True)
class Hint:
    """The legal plays of the roll, best first when a policy ranks them.

    Attributes
    ----------
    dice : tuple of int
    choices : tuple of Play
        Every legal play (or the one empty play of a roll that cannot be played);
        when there are more than :data:`HINT_PLAYS` (an Acey-Deucey 1-2, R11.2,
        may have a hundred thousand), the best of them.
    best : Play or None
        The ranking policy's choice, ``None`` without a policy.
    policy : str or None
        Name of the ranking policy.
    count : int or None
        How many legal plays there are, when :attr:`choices` holds only some.
    """

    dice: Dice
    choices: tuple[Play, ...]
    best: Play | None = None
    policy: str | None = None
    count: int | None = None

    @property
    def plays(self) -> list[str]:
        """The notation of every choice."""
        return [play.notation for play in self.choices]

    @property
    def message(self) -> str:
        """E.g. ``'3-1: 16 legal plays; pubeval plays 8/5 6/5'``."""
        roll = roll_text(self.dice)
        if len(self.choices) == 1 and not self.choices[0].moves:
            rule = "R6.6" if self.choices[0].before.on_bar[0] else "R5.5"
            return f"{roll}: no legal play, the turn is lost ({rule})"
        n = self.count or len(self.choices)
        text = f"{roll}: {n} legal play{'s' if n > 1 else ''}"
        if n == 1:
            text += f", {self.choices[0].notation}, which must be played (R5.6)"
        elif self.best is not None:
            text += f"; {self.policy} plays {self.best.notation}"
        return text


def waiting_words(
    awaiting: str, names: Sequence[str], on_roll: int, dice: Dice | None, outcome: Outcome | None
) -> str:
    """What a game waiting for ``awaiting`` (``'roll'``, ``'play'``, ``'opponent'`` or
    ``'over'``) waits for, in words: ``'You to play 3-1'``.

    >>> waiting_words("play", ["You", "pubeval"], 0, (1, 3), None)
    'You to play 3-1'
    """
    player = names[on_roll]
    return {
        "roll": f"{player} to roll",
        "play": f"{player} to play {roll_text(dice) if dice else ''}",
        "opponent": f"{player} to move",
        "over": outcome.describe(names) if outcome else "",
    }[awaiting]


def not_now_words(action: str, awaiting: str, names: Sequence[str], on_roll: int) -> str:
    """Why ``action`` cannot be done while the game waits for ``awaiting``.

    >>> not_now_words("step", "play", ["You", "pubeval"], 0)
    'cannot step now: You have rolled and must play'
    """
    player = names[on_roll]
    waiting = {
        "roll": f"{player} must roll first",
        "play": f"{player} {agree(player, 'has')} rolled and must play",
        "opponent": f"it is {player}'s turn (call step())",
        "over": "the game is over (start a new game)",
    }[awaiting]
    return f"cannot {action} now: {waiting}"


Wording = Callable[[Sequence[str]], str]
"""A message in words, written with the players' names when it is read."""


def words(text: str) -> Wording:
    """A message that names no player."""
    return lambda names: text


def opening_words(first: Sequence[int], starter: int) -> Wording:
    """The opening roll (R3.1, R3.2): player 0 rolled ``first[0]``, player 1 ``first[1]``,
    and ``starter`` moves first with both numbers.

    >>> opening_words((3, 5), 1)(["You", "pubeval"])
    'Opening roll: You 3, pubeval 5; pubeval moves first with 5-3 (R3.2)'
    """
    roll = roll_text((first[0], first[1]))

    def opening(names: Sequence[str]) -> str:
        moves = agree(names[starter], "moves")
        return (
            f"Opening roll: {names[0]} {first[0]}, {names[1]} {first[1]}; "
            f"{names[starter]} {moves} first with {roll} (R3.2)"
        )

    return opening
