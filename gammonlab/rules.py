"""Variants, scoring and cube options, as data.

A :class:`Variant` says where the checkers start and how many each side has;
:class:`Rules` names a whole combination of variant, scoring and cube options
(``gl.Rules(variant="nackgammon", match_length=7)``). Rule ids refer to
``rules.md``.

Points are numbered from the side they belong to (R1.1): 1-6 home board,
24 the furthest back; :data:`BAR` and :data:`OFF` are the two extra slots of
the ``(2, 26)`` board.

>>> Rules(variant="hypergammon-3").variant.checkers
3
>>> Rules.seed_000().scoring
'seed-000'
"""

from __future__ import annotations

import difflib
import numbers
from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from ._kernels.board import BAR, CHECKERS, HOME, OFF, POINTS
from .errors import OptionError, OptionTypeError

__all__ = [
    "BAR",
    "CHECKERS",
    "HIGHEST_CUBE",
    "HOME_POINTS",
    "MAX_AUTO_DOUBLES",
    "MAX_MATCH_LENGTH",
    "OFF",
    "POINTS",
    "SCORINGS",
    "VARIANTS",
    "Rules",
    "Variant",
    "variant",
]

HOME_POINTS = HOME
"""Points in a home board (R1.1): a side bears off from its points 1-6."""
MAX_MATCH_LENGTH = (1 << 15) - 1
"""The longest match (and the highest score) a Match ID can record: 15 bits."""
HIGHEST_CUBE = 1 << 15
"""The highest cube a Match ID can record (its cube field is the log2 in four bits)."""
MAX_AUTO_DOUBLES = HIGHEST_CUBE.bit_length() - 1
"""The most automatic doubles a game can have before the cube reaches :data:`HIGHEST_CUBE`."""

Scoring = Literal["standard", "seed-000"]
SCORINGS: tuple[str, ...] = ("standard", "seed-000")
AutoDoubles = Literal["none", "seed-000", "gnubg"]
AUTO_DOUBLES: tuple[str, ...] = ("none", "seed-000", "gnubg")
Opening = Literal["standard", "reroll"]
OPENINGS: tuple[str, ...] = ("standard", "reroll")


@dataclass(frozen=True)
class Variant:
    """A setup of the board: how many checkers each side has and where they start.

    Parameters
    ----------
    name : str
        The variant's name as used in the API, the CLI and transcripts.
    setup : tuple of (point, count)
        Where one side's checkers start, on its own numbering (R1.1). Both sides
        start alike.
    checkers : int
        Checkers per side.
    enter_from_off : bool
        Acey-Deucey (R2.4, R11.1): checkers start off the board and enter into
        the opponent's home board before moving on.
    """

    name: str
    setup: tuple[tuple[int, int], ...]
    checkers: int = CHECKERS
    enter_from_off: bool = False
    description: str = ""

    def __post_init__(self) -> None:
        placed = sum(count for _, count in self.setup)
        if not self.enter_from_off and placed != self.checkers:
            raise OptionError(
                f"variant {self.name!r}: setup places {placed} checkers, expected {self.checkers}",
                option="variant",
            )
        for point, count in self.setup:
            if not 1 <= point <= POINTS or count < 0:
                raise OptionError(
                    f"variant {self.name!r}: bad setup entry {(point, count)}", option="variant"
                )
        if not 1 <= self.checkers <= CHECKERS:
            raise OptionError(
                f"variant {self.name!r}: {self.checkers} checkers a side; a side has 1 to "
                f"{CHECKERS} (what a Position ID can record)",
                option="variant",
            )
        held = {point for point, count in self.setup if count}
        for point in sorted(held):
            if POINTS + 1 - point in held:
                raise OptionError(
                    f"variant {self.name!r}: both sides would start on the same point, the "
                    f"{point}-point of one and the {POINTS + 1 - point}-point of the other (R4.6)",
                    option="variant",
                )

    def initial_board(self) -> np.ndarray:
        """The ``(2, 26)`` int8 starting board, both sides alike."""
        row = np.zeros(26, dtype=np.int8)
        for point, count in self.setup:
            row[point] += count
        return np.stack([row, row])

    @classmethod
    def custom(cls, name: str, setup: dict[int, int] | tuple[tuple[int, int], ...]) -> Variant:
        """A variant of your own: ``Variant.custom("mine", {24: 3, 13: 4, 8: 4, 6: 4})``."""
        items = tuple(sorted(setup.items() if isinstance(setup, dict) else setup, reverse=True))
        return cls(
            name=name, setup=items, checkers=sum(c for _, c in items), description="custom setup"
        )


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "standard", ((24, 2), (13, 5), (8, 3), (6, 5)), description="standard backgammon (R2.1)"
        ),
        Variant(
            "nackgammon",
            ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
            description="Nackgammon as GNU Backgammon and XG play it (R2.2)",
        ),
        Variant(
            "nackgammon-004",
            ((24, 4), (23, 1), (13, 2), (8, 3), (6, 5)),
            description="Nackgammon as the Finnish rule text sets it up (R2.3)",
        ),
        Variant(
            "hypergammon-1",
            ((24, 1),),
            checkers=1,
            description="Hypergammon with one checker (R2.5)",
        ),
        Variant(
            "hypergammon-2",
            ((24, 1), (23, 1)),
            checkers=2,
            description="Hypergammon with two checkers (R2.5)",
        ),
        Variant(
            "hypergammon-3",
            ((24, 1), (23, 1), (22, 1)),
            checkers=3,
            description="Hypergammon with three checkers (R2.5)",
        ),
        Variant(
            "acey-deucey",
            (),
            enter_from_off=True,
            description="Acey-Deucey: all checkers start off the board (R2.4, R11)",
        ),
    )
}
"""The built-in variants by name."""

_ALIASES = {
    "backgammon": "standard",
    "nack": "nackgammon",
    "nackgammon_004": "nackgammon-004",
    "hypergammon": "hypergammon-3",
    "hypergammon1": "hypergammon-1",
    "hypergammon2": "hypergammon-2",
    "hypergammon3": "hypergammon-3",
    "hypergammon 1": "hypergammon-1",
    "hypergammon 2": "hypergammon-2",
    "hypergammon 3": "hypergammon-3",
    "aceydeucey": "acey-deucey",
    "acey deucey": "acey-deucey",
}


def variant(name: str | Variant) -> Variant:
    """Look a variant up by name (case and a few common spellings forgiven).

    >>> variant("NackGammon").setup[0]
    (24, 2)
    """
    if isinstance(name, Variant):
        return name
    if not isinstance(name, str):
        raise OptionTypeError(
            f"variant must be a name or a Variant, got {type(name).__name__}", option="variant"
        )
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise OptionError(
            f"unknown variant {name!r}; known variants: {known}", option="variant"
        ) from None


def _flag(name: str, value: object) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise OptionTypeError(f"{name} must be True or False, got {value!r}", option=name)


def _integer(name: str, value: object, low: int, high: int, what: str = "") -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise OptionTypeError(f"{name} must be an integer, got {value!r}", option=name)
    number = int(value)
    if not low <= number <= high:
        raise OptionError(f"{name} must be from {low} to {high}{what}, got {number}", option=name)
    return number


def _choice(name: str, value: object, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise OptionTypeError(
            f"{name} must be one of {', '.join(choices)}, got {value!r}", option=name
        )
    if value not in choices:
        raise OptionError(f"unknown {name} {value!r}; known: {', '.join(choices)}", option=name)
    return value


@dataclass(frozen=True)
class Rules:
    """A combination of variant, scoring and cube options.

    Parameters
    ----------
    variant : str or Variant
        ``standard``, ``nackgammon``, ``nackgammon-004``, ``hypergammon-1`` to
        ``hypergammon-3``, ``acey-deucey`` or a custom :class:`Variant`.
    match_length : int
        Points to win the match, at most :data:`MAX_MATCH_LENGTH`; 0 is money
        play (R8.5).
    scoring : {'standard', 'seed-000'}
        R8.2 (single 1, gammon 2, backgammon 3) or seed 000's R8.4 (single 1;
        2 if the loser has checkers outside home; 4 if one is on the bar).
    cube : bool
        Whether the doubling cube is in play (R9).
    jacoby : bool
        R10.1, money only: gammons count single unless the cube was turned.
    crawford : bool
        R10.2, match only (in money play it has no effect).
    holland : bool
        R10.3, match only, post-Crawford: the trailer may double only after both
        sides have played two rolls.
    auto_doubles : {'none', 'seed-000', 'gnubg'}
        R10.4 (a roll repeating the opponent's last numbers doubles the stake) or
        R10.5 (equal opening rolls turn the cube, up to ``auto_double_limit``).
    auto_double_limit : int
        Most automatic doubles per game, 0 for no limit but the cube limit
        (GNU Backgammon's ``set automatic doubles N`` is R10.5 with limit N); at
        most :data:`MAX_AUTO_DOUBLES`, and only with ``auto_doubles``.
    beavers, raccoons : bool
        R10.6, money only; raccoons need beavers.
    cube_limit : int or None
        Highest cube value, a power of two up to :data:`HIGHEST_CUBE`; ``None`` is
        no limit but that one (R9.6).
    opening : {'standard', 'reroll'}
        R3.2 (the opening player plays the two numbers rolled to start) or R3.3
        (the opening player rolls both dice afresh).

    Raises
    ------
    OptionError
        An option out of range or unknown, or options that do not go together
        (Jacoby, beavers or raccoons in a match, Holland in money play or without
        the Crawford rule, GNU Backgammon's automatic doubles in a match, and with
        ``cube=False`` automatic doubles, beavers, Holland or a cube limit). A value of
        the wrong type (``match_length='3'``, ``cube='no'``), or an option that does not exist
        (``matchlength=7``: the message names the nearest), raises
        :class:`OptionTypeError`, which is also a ``TypeError``.

    >>> Rules(match_length=7, jacoby=True)
    Traceback (most recent call last):
    ...
    gammonlab.errors.OptionError: jacoby is a rule of money play (R10.1), not of a 7-point match
    """

    variant: Variant = field(default_factory=lambda: VARIANTS["standard"])
    match_length: int = 0
    scoring: Scoring = "standard"
    cube: bool = True
    jacoby: bool = False
    crawford: bool = True
    holland: bool = False
    auto_doubles: AutoDoubles = "none"
    auto_double_limit: int = 0
    beavers: bool = False
    raccoons: bool = False
    cube_limit: int | None = None
    opening: Opening = "standard"

    def __new__(cls, *args: object, **options: object) -> Rules:
        # the options' names are checked before the dataclass's __init__ takes them, so
        # that a misspelt one is refused as an option, with the name it comes nearest
        names = tuple(cls.__dataclass_fields__)
        if len(args) > len(names):
            raise OptionTypeError(
                f"Rules() takes at most {len(names)} options by position, got {len(args)} "
                f"(the options: {', '.join(names)})"
            )
        for name in options:
            if name in names[: len(args)]:
                raise OptionTypeError(
                    f"Rules() got {name} twice, by position and by name", option=name
                )
            if name not in names:
                nearest = difflib.get_close_matches(name, names, n=1)
                guess = f"; did you mean {nearest[0]!r}?" if nearest else ""
                raise OptionTypeError(
                    f"Rules() got an unexpected keyword argument {name!r}{guess} "
                    f"(the options: {', '.join(names)})",
                    option=name,
                )
        return super().__new__(cls)

    def __post_init__(self) -> None:
        def put(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        put("variant", variant(self.variant))
        put(
            "match_length",
            _integer("match_length", self.match_length, 0, MAX_MATCH_LENGTH, " (0 is money play)"),
        )
        put("scoring", _choice("scoring", self.scoring, SCORINGS))
        for name in ("cube", "jacoby", "crawford", "holland", "beavers", "raccoons"):
            put(name, _flag(name, getattr(self, name)))
        put("auto_doubles", _choice("auto_doubles", self.auto_doubles, AUTO_DOUBLES))
        put(
            "auto_double_limit",
            _integer(
                "auto_double_limit", self.auto_double_limit, 0, MAX_AUTO_DOUBLES, " (0 is no limit)"
            ),
        )
        if self.cube_limit is not None:
            limit = _integer("cube_limit", self.cube_limit, 1, HIGHEST_CUBE)
            if limit & (limit - 1):
                raise OptionError(
                    f"cube_limit must be a power of two (R9.1), got {limit}", option="cube_limit"
                )
            put("cube_limit", limit)
        put("opening", _choice("opening", self.opening, OPENINGS))
        money = self.match_length == 0
        if self.auto_doubles == "gnubg" and not money:
            raise OptionError(
                "GNU Backgammon's automatic doubles (R10.5) are for money play (match_length=0)",
                option="auto_doubles",
            )
        if self.auto_double_limit and self.auto_doubles == "none":
            raise OptionError(
                "auto_double_limit limits automatic doubles (R10.4, R10.5): give auto_doubles too",
                option="auto_double_limit",
            )
        for name, rule in (("jacoby", "R10.1"), ("beavers", "R10.6"), ("raccoons", "R10.6")):
            if getattr(self, name) and not money:
                raise OptionError(
                    f"{name} is a rule of money play ({rule}), not of a "
                    f"{self.match_length}-point match",
                    option=name,
                )
        if self.holland and money:
            raise OptionError(
                "holland is a rule of match play (R10.3), not of money play", option="holland"
            )
        if self.raccoons and not self.beavers:
            raise OptionError("raccoons need beavers (R10.6)", option="raccoons")
        if self.holland and not self.crawford:
            raise OptionError(
                "holland is a rule of the games after the Crawford game (R10.3): it needs "
                "crawford=True",
                option="holland",
            )
        if not self.cube:
            for name, rule in (
                ("auto_doubles", "R10.4, R10.5"),
                ("beavers", "R10.6"),
                ("holland", "R10.3"),
                ("cube_limit", "R9.6"),
            ):
                if getattr(self, name) not in (False, None, "none"):
                    raise OptionError(
                        f"{name} is a rule of the cube ({rule}), and cube=False leaves it "
                        "out of play",
                        option=name,
                    )

    def __repr__(self) -> str:
        defaults = Rules.__dataclass_fields__
        shown = [f"variant={self.variant.name!r}"]
        for name, spec in defaults.items():
            if name == "variant":
                continue
            value = getattr(self, name)
            if value != spec.default:
                shown.append(f"{name}={value!r}")
        return f"Rules({', '.join(shown)})"

    @property
    def money(self) -> bool:
        """True in money play (R8.5)."""
        return self.match_length == 0

    def replace(self, **changes: object) -> Rules:
        """A copy with some options changed."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def gnubg_default(cls, match_length: int = 0, **changes: object) -> Rules:
        """GNU Backgammon's defaults: Crawford in matches; Jacoby, beavers and raccoons
        in money play (``set beavers 3``: a raccoon is a second beaver).

        >>> Rules.gnubg_default()
        Rules(variant='standard', jacoby=True, beavers=True, raccoons=True)
        """
        money = match_length == 0
        cube = bool(changes.get("cube", True))
        options: dict[str, object] = {
            "match_length": match_length,
            "jacoby": money,
            "beavers": money and cube,
            "raccoons": money and cube,
        }
        options.update(changes)
        return cls(**options)  # type: ignore[arg-type]

    @classmethod
    def seed_000(cls, **changes: object) -> Rules:
        """The game of seed 000: a 5-point match (R8.5), its scoring (R8.4) and its
        automatic doubles (R10.4)."""
        options: dict[str, object] = {
            "match_length": 5,
            "scoring": "seed-000",
            "auto_doubles": "seed-000",
        }
        options.update(changes)
        return cls(**options)  # type: ignore[arg-type]
