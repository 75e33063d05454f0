"""Reading play notation as transcripts write it.

Every spelling found in real transcripts is read: ``24/18 13/11*``,
``bar/22``, ``Bar/22``, ``25/22``, ``6/off``, ``6/0``, ``8/5(2)``,
``24/18/13``, ``8/3*/1*``, ``13/8 13/8``, in any order and case. What the
text means on a particular board is decided in :mod:`gammonlab.explain`.

>>> parse_notation("bar/22 6/off")
(Journey(points=(25, 22), hits=(False,)), Journey(points=(6, 0), hits=(False,)))

Acey-Deucey (R11) adds two things:

- A checker entering from off the board (R2.4, R11.1) comes ``in``:
  ``in/22``, ``in/22(2)``, ``in/18`` (a checker entering with one die and
  moving on with the other); the source ``in`` is
  :data:`~gammonlab._kernels.board.START` (26) in a move.
- The roll 1-2 is played as the 1 and the 2, then four moves of the doubles
  the player chooses (R11.2). Its text is the 1-2 part, the word ``then``, the
  doubles chosen as ``6-6:`` (or ``66:``) and their moves, ``no move`` when
  none of them can be played::

      in/23 in/24 then 6-6: in/19(4)
      13/11 6/5 then 3-3: 24/18(2) 13/10*(2)

  :func:`split_acey_deucey` cuts such a text into its two parts.

>>> parse_notation("in/22(2)")[0]
Journey(points=(26, 22), hits=(False,))
>>> split_acey_deucey("in/24 in/23 then 6-6: in/19(4)")
('in/24 in/23', 6, 'in/19(4)')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ._kernels.board import START
from ._numbers import parse_int
from .errors import InvalidNotationError
from .rules import BAR, OFF

__all__ = ["NO_MOVE", "REMEMBERED_LENGTH", "Journey", "parse_notation", "split_acey_deucey"]

NO_MOVE = frozenset(
    {"", "cannot move", "can't move", "cant move", "no move", "no legal move", "dance", "dances"}
)
"""Texts that stand for a roll that cannot be played (R5.5)."""

_TOKEN = re.compile(r"^(?P<path>[^()]+?)(?:\((?P<count>[0-9]+)\))?(?P<star>\*?)$")
_POINT = re.compile(r"^(?P<point>bar|off|in|[0-9]{1,2})(?P<hit>\*?)$")
_THEN = re.compile(r"\s*\bthen\s+(?:(?P<a>[1-6])-?(?P<b>[1-6]))\s*:?\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Journey:
    """One checker's way through a play, as the text wrote it.

    ``points`` lists the points it touches, first the source, last the
    target (25 bar, 0 off, 26 ``in`` from off the board); ``hits[i]`` says the text marks a hit on
    ``points[i + 1]``.
    """

    points: tuple[int, ...]
    hits: tuple[bool, ...]

    @property
    def source(self) -> int:
        return self.points[0]

    @property
    def target(self) -> int:
        return self.points[-1]

    @property
    def segments(self) -> tuple[tuple[int, int], ...]:
        """Consecutive ``(from, to)`` pairs of the points written."""
        return tuple(zip(self.points[:-1], self.points[1:]))


def _shorten(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width] + "..."


def _bad(text: str, token: str, why: str) -> InvalidNotationError:
    return InvalidNotationError(
        f"cannot read play {_shorten(text)!r}: {why} in {_shorten(token)!r}; "
        "expected moves like '24/18 13/11*', 'bar/22', '6/off', '8/5(2)' or 'in/22'"
    )


def split_acey_deucey(text: str) -> tuple[str, int | None, str]:
    """Cut an Acey-Deucey 1-2's text (R11.2) into the 1-2 part, the doubles chosen
    and their part: ``(first, doubles, second)``; ``(text, None, '')`` when the
    text names no doubles.

    Raises
    ------
    InvalidNotationError
        ``then`` without doubles like ``6-6:``, or twice.

    >>> split_acey_deucey("13/11 6/5 then 33: 24/18(2)")
    ('13/11 6/5', 3, '24/18(2)')
    >>> split_acey_deucey("in/24 in/23")
    ('in/24 in/23', None, '')
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a play is written as text, got {type(text).__name__}")
    if "then" not in text.lower():
        return text, None, ""
    found = list(_THEN.finditer(text))
    if len(found) != 1 or found[0]["a"] != found[0]["b"]:
        raise InvalidNotationError(
            f"cannot read play {_shorten(text)!r}: after a 1-2 write 'then', the doubles "
            f"chosen and their moves, once, like 'in/24 in/23 then 6-6: in/19(4)' (R11.2)"
        )
    where = found[0]
    return text[: where.start()].strip(), int(where["a"]), text[where.end() :].strip()


def parse_notation(text: str) -> tuple[Journey, ...]:
    """Read a play's text into journeys, without looking at any board.

    Raises
    ------
    InvalidNotationError
        The text is not a play in any known notation.

    >>> [j.points for j in parse_notation("8/5(2) 6/5")]
    [(8, 5), (8, 5), (6, 5)]
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"a play is written as text, got {type(text).__name__}")
    return _parse_remembered(text) if len(text) <= REMEMBERED_LENGTH else _parse(text)


REMEMBERED_LENGTH = 64
"""The longest play text whose reading is remembered. The plays of a transcript come
up again and again; a bound on each text, as on their number, bounds the memory
that the remembered readings take."""


def _parse(text: str) -> tuple[Journey, ...]:
    cleaned = " ".join(text.replace(",", " ").split()).lower()
    if cleaned in NO_MOVE:
        return ()
    journeys: list[Journey] = []
    for token in cleaned.split(" "):
        match = _TOKEN.match(token)
        if not match:
            raise _bad(text, token, "unexpected characters")
        parts = match["path"].split("/")
        if len(parts) < 2:
            raise _bad(text, token, "a move needs a source and a target separated by '/'")
        points: list[int] = []
        hits: list[bool] = []
        for i, part in enumerate(parts):
            pm = _POINT.match(part)
            if not pm:
                raise _bad(text, token, f"{part!r} is not a point (1-24, bar or off)")
            name = pm["point"]
            if name == "in":
                if i != 0:
                    raise _bad(text, token, "'in' is where an entering checker comes from")
                point = START
            elif name == "bar":
                point = BAR
            elif name == "off":
                point = OFF
            else:
                point = int(name)
                if point > BAR:
                    raise _bad(text, token, f"there is no point {point}")
            if i == 0:
                if point == OFF:
                    raise _bad(text, token, "a checker cannot move from off the board")
                if pm["hit"]:
                    raise _bad(text, token, "a hit is marked on the point moved to, not from")
            else:
                if point == BAR:
                    raise _bad(text, token, "a checker cannot move to the bar")
                if point == points[-1]:
                    raise _bad(text, token, f"a move from {name} to {name} moves no pips")
                hits.append(bool(pm["hit"]))
            points.append(point)
        if match["star"]:
            hits[-1] = True
        count = parse_int(match["count"]) if match["count"] else 1
        if count is None or not 1 <= count <= 4:
            shown = _shorten(match["count"], 9)
            raise _bad(text, token, f"a move repeats 1 to 4 times, not {shown}")
        if OFF in points[1:-1]:
            raise _bad(text, token, "a checker borne off cannot move on")
        journey = Journey(tuple(points), tuple(hits))
        journeys.extend([journey] * count)
        if len(journeys) > 4:
            raise InvalidNotationError(
                f"cannot read play {_shorten(text)!r}: more than four checker moves in one turn"
            )
    return tuple(journeys)


_parse_remembered = lru_cache(maxsize=65536)(_parse)
