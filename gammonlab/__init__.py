"""gammonlab: backgammon analysis for notebooks."""

from __future__ import annotations

from .errors import (
    GammonlabError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidPositionError,
    MissingDependencyError,
    ParseError,
)
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
    "GameResult",
    "GameState",
    "GammonlabError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidPositionError",
    "LegalPlays",
    "MissingDependencyError",
    "ParseError",
    "Play",
    "Position",
    "Rules",
    "Variant",
]
