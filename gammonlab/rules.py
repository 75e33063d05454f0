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

from dataclasses import dataclass, field, replace
from typing import Literal

import numpy as np

from .errors import GammonlabError

__all__ = [
    "BAR",
    "CHECKERS",
    "HOME_POINTS",
    "OFF",
    "POINTS",
    "SCORINGS",
    "VARIANTS",
    "Rules",
    "Variant",
    "variant",
]

OFF = 0
"""Column of the borne-off checkers in a board row."""
BAR = 25
"""Column of the checkers on the bar in a board row."""
POINTS = 24
"""Points on the board."""
HOME_POINTS = 6
"""Points in a home board (R1.1): a side bears off from its points 1-6."""
CHECKERS = 15
"""Checkers a side has in every variant but Hypergammon."""

Scoring = Literal["standard", "seed-000"]
SCORINGS: tuple[str, ...] = ("standard", "seed-000")
AutoDoubles = Literal["none", "seed-000", "gnubg"]
Opening = Literal["standard", "reroll"]


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
            raise GammonlabError(
                f"variant {self.name!r}: setup places {placed} checkers, expected {self.checkers}")
        for point, count in self.setup:
            if not 1 <= point <= POINTS or count < 0:
                raise GammonlabError(f"variant {self.name!r}: bad setup entry {(point, count)}")

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
        return cls(name=name, setup=items, checkers=sum(c for _, c in items),
                   description="custom setup")


VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant("standard", ((24, 2), (13, 5), (8, 3), (6, 5)),
                description="standard backgammon (R2.1)"),
        Variant("nackgammon", ((24, 2), (23, 2), (13, 4), (8, 3), (6, 4)),
                description="Nackgammon as GNU Backgammon and XG play it (R2.2)"),
        Variant("nackgammon-004", ((24, 4), (23, 1), (13, 2), (8, 3), (6, 5)),
                description="Nackgammon as the Finnish rule text sets it up (R2.3)"),
        Variant("hypergammon-1", ((24, 1),), checkers=1,
                description="Hypergammon with one checker (R2.5)"),
        Variant("hypergammon-2", ((24, 1), (23, 1)), checkers=2,
                description="Hypergammon with two checkers (R2.5)"),
        Variant("hypergammon-3", ((24, 1), (23, 1), (22, 1)), checkers=3,
                description="Hypergammon with three checkers (R2.5)"),
        Variant("acey-deucey", (), enter_from_off=True,
                description="Acey-Deucey: all checkers start off the board (R2.4, R11)"),
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
    key = str(name).strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise GammonlabError(f"unknown variant {name!r}; known variants: {known}") from None


@dataclass(frozen=True)
class Rules:
    """A combination of variant, scoring and cube options.

    Parameters
    ----------
    variant : str or Variant
        ``standard``, ``nackgammon``, ``nackgammon-004``, ``hypergammon-1`` to
        ``hypergammon-3``, ``acey-deucey`` or a custom :class:`Variant`.
    match_length : int
        Points to win the match; 0 is money play (R8.5).
    scoring : {'standard', 'seed-000'}
        R8.2 (single 1, gammon 2, backgammon 3) or seed 000's R8.4 (single 1;
        2 if the loser has checkers outside home; 4 if one is on the bar).
    cube : bool
        Whether the doubling cube is in play (R9).
    jacoby : bool
        R10.1, money only: gammons count single unless the cube was turned.
    crawford : bool
        R10.2, match only.
    holland : bool
        R10.3, post-Crawford: the trailer may double only after both sides have
        played two rolls.
    auto_doubles : {'none', 'seed-000', 'gnubg'}
        R10.4 (a roll repeating the opponent's last numbers doubles the stake) or
        R10.5 (equal opening rolls turn the cube, up to ``auto_double_limit``).
    auto_double_limit : int
        Most automatic doubles per game, 0 for no limit but the cube limit
        (GNU Backgammon's ``set automatic doubles N`` is R10.5 with limit N).
    beavers, raccoons : bool
        R10.6, money only.
    cube_limit : int or None
        Highest cube value; ``None`` is no limit (R9.6).
    opening : {'standard', 'reroll'}
        R3.2 (the opening player plays the two numbers rolled to start) or R3.3
        (the opening player rolls both dice afresh).
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", variant(self.variant))
        if self.match_length < 0:
            raise GammonlabError(f"match_length must be >= 0 (0 is money), got {self.match_length}")
        if self.scoring not in SCORINGS:
            raise GammonlabError(f"unknown scoring {self.scoring!r}; known: {', '.join(SCORINGS)}")
        if self.auto_doubles not in ("none", "seed-000", "gnubg"):
            raise GammonlabError(f"unknown auto_doubles {self.auto_doubles!r}")
        if self.opening not in ("standard", "reroll"):
            raise GammonlabError(f"unknown opening {self.opening!r}")
        if self.cube_limit is not None and (self.cube_limit < 1
                                            or self.cube_limit & (self.cube_limit - 1)):
            raise GammonlabError(f"cube_limit must be a power of two, got {self.cube_limit}")
        if self.auto_double_limit < 0:
            raise GammonlabError(f"auto_double_limit must be >= 0, got {self.auto_double_limit}")
        if self.auto_doubles == "gnubg" and self.match_length:
            raise GammonlabError("GNU Backgammon's automatic doubles (R10.5) are for money "
                                 "play (match_length=0)")
        if self.raccoons and not self.beavers:
            raise GammonlabError("raccoons need beavers (R10.6)")

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
        options: dict[str, object] = {"match_length": match_length, "jacoby": money,
                                      "beavers": money, "raccoons": money}
        options.update(changes)
        return cls(**options)  # type: ignore[arg-type]

    @classmethod
    def seed_000(cls, **changes: object) -> Rules:
        """The game of seed 000: a 5-point match (R8.5), its scoring (R8.4) and its
        automatic doubles (R10.4)."""
        options: dict[str, object] = {"match_length": 5, "scoring": "seed-000",
                                      "auto_doubles": "seed-000"}
        options.update(changes)
        return cls(**options)  # type: ignore[arg-type]
