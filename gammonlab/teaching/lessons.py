"""Lessons: one hand-made position per rule of moving (R4), using the dice (R5), hitting and
the bar (R6) and bearing off (R7), with the plays that show the rule and a tempting play the
rules forbid. :meth:`gammonlab.TeachingBoard.from_scenario` sets one up.

>>> lesson("R6.4").title
'Entering from the bar'
>>> lesson("R6.4").refused
'bar/19'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UnknownNameError
from ..position import Dice, Position

__all__ = ["LESSONS", "Lesson", "lesson"]


@dataclass(frozen=True)
class Lesson:
    """A position that shows one rule at work.

    Attributes
    ----------
    rule : str
        The rule's id in ``rules.md`` (``'R6.4'``).
    title : str
    text : str
        The lesson in words, for the player on roll (at the bottom of the board).
    position_id : str
        GNU Backgammon Position ID, the side on roll to play.
    dice : tuple of int
    shows : tuple of str
        Legal plays that show the rule (``''`` passes a roll that cannot be played).
    refused : str or None
        A tempting play the rules forbid.
    refused_by : str or None
        The rule the engine cites when refusing it: :attr:`rule` itself, or the
        rule that forbids what :attr:`rule` allows.
    variant : str
    """

    rule: str
    title: str
    text: str
    position_id: str
    dice: Dice
    shows: tuple[str, ...] = ()
    refused: str | None = None
    refused_by: str | None = None
    variant: str = "standard"

    @property
    def position(self) -> Position:
        """The lesson's position, the learner on roll.

        >>> lesson("R6.6").position.on_bar
        (1, 0)
        """
        return Position.from_gnubg_id(self.position_id, self.variant)


def _lesson(
    rule: str,
    title: str,
    position_id: str,
    dice: Dice,
    text: str,
    *,
    shows: tuple[str, ...] = (),
    refused: str | None = None,
    refused_by: str | None = None,
) -> Lesson:
    return Lesson(
        rule=rule,
        title=title,
        text=text,
        position_id=position_id,
        dice=dice,
        shows=shows,
        refused=refused,
        refused_by=refused_by if refused_by or refused is None else rule,
    )


LESSONS: dict[str, Lesson] = {
    item.rule: item
    for item in (
        # R4 Moving checkers
        _lesson(
            "R4.1",
            "Each die moves one checker",
            "4HPwATDgc/ABMA",
            (3, 1),
            "Each die moves one checker forward by exactly its number: with 3-1 you move a "
            "3 and a 1 (8/5 6/5), or one checker both (24/20). 13/11 is a 2, which neither "
            "die makes.",
            shows=("8/5 6/5", "24/20"),
            refused="13/11 6/5",
        ),
        _lesson(
            "R4.2",
            "Where a checker may land",
            "4OvgATDgc/ABMA",
            (6, 5),
            "A checker may land on an empty point, on your own checkers, or on a single "
            "opposing checker, a blot, which it hits (R6.1). Two or more opposing checkers "
            "block a point: 24/19 would land on five.",
            shows=("24/18* 13/8",),
            refused="24/19 13/7",
        ),
        _lesson(
            "R4.3",
            "Jumping blocked points",
            "2DbwATDQ5+ADIA",
            (6, 1),
            "Only the points a checker lands on count. The opponent holds your points 18 to "
            "21, so your back checker cannot stop there, but 6-1 carries it over them: "
            "24/23/17.",
            shows=("24/17",),
            refused="24/18/17",
            refused_by="R4.2",
        ),
        _lesson(
            "R4.4",
            "One checker, both dice",
            "YAMfwDbQ5+ADIA",
            (6, 5),
            "A checker that uses both dice touches down in between, and that point must be "
            "open, in whichever order you take the dice. 24/13 would stop on 18 or 19, and "
            "both are blocked: move other checkers.",
            shows=("13/7 13/8",),
            refused="24/13",
        ),
        _lesson(
            "R4.5",
            "Doubles are played four times",
            "4HPwATDgc/ABMA",
            (6, 6),
            "6-6 gives four moves of 6, shared among your checkers as you like: "
            "24/18(2) 13/7(2). Playing only two of them is refused (R5.4).",
            shows=("24/18(2) 13/7(2)", "13/7(4)"),
            refused="24/18(2)",
            refused_by="R5.4",
        ),
        _lesson(
            "R4.6",
            "A point belongs to one side",
            "4HPwATDgc/ABMA",
            (5, 5),
            "A point holds any number of one side's checkers: 13/8(4) puts seven on your "
            "8-point. It never holds both colours: the opponent's two back checkers hold "
            "your 1-point, so 6/1 is blocked (R4.2).",
            shows=("13/8(4)",),
            refused="13/8(3) 6/1",
            refused_by="R4.2",
        ),
        # R5 Which dice must be played
        _lesson(
            "R5.1",
            "Play both dice",
            "8PsAGDDg/wcIAA",
            (6, 5),
            "When some legal play uses both numbers, you must use both. 14/9 alone leaves "
            "the 6 unplayed; taking the 5 first and then the 6, 14/9/3, plays both (14/8 is "
            "blocked).",
            shows=("14/3",),
            refused="14/9",
        ),
        _lesson(
            "R5.2",
            "Only one number can be played",
            "8D4AZgzw/wMIAA",
            (6, 2),
            "No 6 can be played: 14/8 is blocked, and bearing off waits while a checker is "
            "outside (R7.1). The 2 can be played, so it must be: 14/12. Not moving is "
            "refused (R5.6).",
            shows=("14/12",),
            refused="",
            refused_by="R5.6",
        ),
        _lesson(
            "R5.3",
            "Either number, not both: play the larger",
            "8PsAADPg/wcIAA",
            (6, 5),
            "14/8 and 14/9 are both possible, but after either the other die is blocked. "
            "When only one die can be played, it must be the larger: 14/8.",
            shows=("14/8",),
            refused="14/9",
        ),
        _lesson(
            "R5.4",
            "Doubles: as many moves as possible",
            "vw8AgBng/wcAAg",
            (4, 4),
            "The 4s carry the checker from 20 to 16, 12 and 8, but your 4-point is blocked "
            "and so is 6/2: three 4s can be played, so all three must be: 20/8.",
            shows=("20/8",),
            refused="20/12",
        ),
        _lesson(
            "R5.5",
            "No number can be played",
            "/z6AAQDg/wcAAg",
            (6, 6),
            "Every 6 is blocked: 20/14 lands on two opposing checkers, and bearing off waits "
            "until the checker on 20 is home (R7.1). When no number can be played the turn "
            "is lost.",
            shows=("",),
            refused="20/14",
        ),
        _lesson(
            "R5.6",
            "A move must be played",
            "8PcHABDsdjsAAA",
            (6, 6),
            "Your prime from 3 to 8 traps a checker on your 2-point, but 6-6 must be played "
            "even though every play breaks the prime. Passing is refused while any legal "
            "play exists.",
            shows=("8/2* 8/2(2) 7/1",),
            refused="",
        ),
        # R6 Hitting and the bar
        _lesson(
            "R6.1",
            "Hitting is never compulsory",
            "4OvgATDgc/ABMA",
            (6, 1),
            "The opponent's blot on your 18-point may be hit, 24/18*, which sends it to the "
            "bar; a quiet play such as 13/7 8/7 is just as legal.",
            shows=("24/18* 24/23", "13/7 8/7"),
        ),
        _lesson(
            "R6.2",
            "Hit and continue",
            "4OvgATDgc/ABMA",
            (6, 5),
            "A checker may hit with one die and move on with the other: 24/18*/13 hits the "
            "blot on 18 and runs on to your 13-point.",
            shows=("24/18*/13",),
        ),
        _lesson(
            "R6.3",
            "The bar comes first",
            "4HPwATDgc/ABUA",
            (6, 5),
            "While one of your checkers is on the bar, no other checker may move. Enter it "
            "first (bar/20 with the 5), then play the 6 with any checker.",
            shows=("bar/20 13/7", "bar/14"),
            refused="13/7 13/8",
        ),
        _lesson(
            "R6.4",
            "Entering from the bar",
            "4HPwATDgc/ABUA",
            (6, 4),
            "A die n enters on the opponent's n-point, your point 25-n. The 6 would enter on "
            "your 19-point, the opponent's 6-point, where five checkers block it; the 4 "
            "enters on 21.",
            shows=("bar/21 13/7",),
            refused="bar/19",
        ),
        _lesson(
            "R6.5",
            "Several checkers on the bar",
            "4HPwATDgc/ABYA",
            (6, 3),
            "Each die enters one checker. The 3 enters (bar/22); the 6 is blocked, so it is "
            "lost, and nothing else may move while a checker waits on the bar (R6.3).",
            shows=("bar/22",),
            refused="bar/22 13/7",
            refused_by="R6.3",
        ),
        _lesson(
            "R6.6",
            "A closed board",
            "27YDBgDgc/ADQA",
            (6, 5),
            "The opponent holds all six points of its home board: no checker can enter, and "
            "the whole turn is lost.",
            shows=("",),
            refused="bar/20",
        ),
        # R7 Bearing off
        _lesson(
            "R7.1",
            "Bearing off waits for every checker",
            "+L4PAADcvRcAAA",
            (6, 1),
            "Bearing off starts only when all 15 checkers are in the home board. 6/off is "
            "refused while a checker stands on 7; bring it home with the 1 and bear off with "
            "the 6: 7/6/off.",
            shows=("7/off", "7/1 6/5"),
            refused="6/off 6/5",
        ),
        _lesson(
            "R7.2",
            "A die bears off from its point",
            "+L4PAADb7g4AAA",
            (4, 2),
            "With every checker home, a 4 bears off a checker from the 4-point and a 2 one "
            "from the 2-point: 4/off 2/off.",
            shows=("4/off 2/off",),
        ),
        _lesson(
            "R7.3",
            "A higher checker must move",
            "+L4PAABuZwAAAA",
            (5, 2),
            "Your 5-point is empty but checkers stand higher, on 6: the 5 must move one of "
            "them (6/1); it may not bear off from the 4-point.",
            shows=("6/1 6/4",),
            refused="4/off 6/4",
        ),
        _lesson(
            "R7.4",
            "Bearing off from the highest point",
            "+L4PAABtAAAAAA",
            (6, 5),
            "No checker stands on the 6-point or the 5-point or higher, so each die bears "
            "off from the highest point occupied: 3/off(2). 2/off is refused while a checker "
            "stands on 3 (R7.3).",
            shows=("3/off(2)",),
            refused="3/off 2/off",
            refused_by="R7.3",
        ),
        _lesson(
            "R7.5",
            "Bearing off is not compulsory",
            "+L4PAAC22wAAAA",
            (4, 2),
            "With 4-2 you may bear off, 4/off 2/off, or move inside your home board, "
            "6/2 6/4: both are legal.",
            shows=("4/off 2/off", "6/2 6/4"),
        ),
        _lesson(
            "R7.6",
            "Hit during the bear-off",
            "d84BBwDs3gMAIA",
            (6, 5),
            "A checker hit during the bear-off must enter and come home before bearing off "
            "resumes: after bar/20 the 6 cannot bear off (R7.1); the checker runs on, "
            "bar/14.",
            shows=("bar/14",),
            refused="bar/20 6/off",
            refused_by="R7.1",
        ),
    )
}
"""One lesson per rule R4.1-R7.6, by rule id."""


def lesson(rule: str) -> Lesson:
    """The lesson of a rule (``'R6.4'``; ``'6.4'`` works too).

    Raises
    ------
    UnknownNameError
        No lesson for that rule (also a ``KeyError``).

    >>> lesson("R6.4").title
    'Entering from the bar'
    """
    key = rule.strip().upper()
    if not key.startswith("R"):
        key = "R" + key
    try:
        return LESSONS[key]
    except KeyError:
        raise UnknownNameError(
            f"no lesson for rule {rule!r}; lessons: {', '.join(LESSONS)}"
        ) from None
