"""gammonlab: backgammon analysis for notebooks."""

from __future__ import annotations

from . import met, svg
from .cube import CubeDecision, cube_decision
from .errors import (
    GammonlabError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidPositionError,
    MissingDependencyError,
    ParseError,
)
from .io.read import read_match, read_matches
from .io.write import write_match
from .match import Action, Game, Match
from .play import LegalPlays, Play
from .position import GameResult, Position
from .rules import BAR, CHECKERS, OFF, VARIANTS, Rules, Variant
from .state import GameState

__version__ = "0.1.0"

__all__ = [
    "BAR",
    "CHECKERS",
    "OFF",
    "VARIANTS",
    "Action",
    "CubeDecision",
    "Game",
    "GameResult",
    "GameState",
    "GammonlabError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidPositionError",
    "LegalPlays",
    "Match",
    "MissingDependencyError",
    "ParseError",
    "Play",
    "Position",
    "Rules",
    "Variant",
    "cube_decision",
    "met",
    "read_match",
    "read_matches",
    "svg",
    "write_match",
]


_PLOTS = ("plot_board",)


def __getattr__(name: str) -> object:
    # plotting imports matplotlib: only on first use, to keep ``import gammonlab`` fast
    if name in _PLOTS:
        from . import plot

        return getattr(plot, name)
    raise AttributeError(f"module 'gammonlab' has no attribute {name!r}")
