"""gammonlab: backgammon analysis for notebooks."""

from __future__ import annotations

from importlib import import_module

from . import met, svg
from .analysis import analyse, analyse_matches, summarise
from .cube import CubeDecision, cube_decision
from .cube_rollout import CubeRollout, rollout_cube
from .errors import (
    GammonlabError,
    IllegalPlayError,
    InvalidNotationError,
    InvalidPositionError,
    MissingDependencyError,
    NetWeightsError,
    OptionError,
    OptionTypeError,
    ParseError,
    SourceError,
    SourceNotFoundError,
)
from .evaluators.base import get_evaluator, register_evaluator
from .evaluators.net import NetEvaluator
from .io.read import read_match, read_matches
from .io.write import write_match
from .match import Action, Game, Match
from .play import LegalPlays, Play
from .position import GameResult, Position
from .rollout import RolloutResult, rollout, rollout_many, rollout_plays
from .rules import BAR, CHECKERS, OFF, VARIANTS, Rules, Variant
from .simulate import play_match
from .state import GameState
from .teaching import LESSONS, TeachingBoard, lesson

__version__ = "0.1.0"

__all__ = [
    "BAR",
    "CHECKERS",
    "LESSONS",
    "OFF",
    "VARIANTS",
    "Action",
    "CubeDecision",
    "CubeRollout",
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
    "NetEvaluator",
    "NetWeightsError",
    "OptionError",
    "OptionTypeError",
    "ParseError",
    "Play",
    "Position",
    "RolloutResult",
    "Rules",
    "SourceError",
    "SourceNotFoundError",
    "TeachingBoard",
    "Variant",
    "analyse",
    "analyse_matches",
    "cube_decision",
    "get_evaluator",
    "lesson",
    "met",
    "play_match",
    "read_match",
    "read_matches",
    "register_evaluator",
    "rollout",
    "rollout_cube",
    "rollout_many",
    "rollout_plays",
    "summarise",
    "svg",
    "write_match",
]


_PLOTS = (
    "plot_board", "plot_cube_decision", "plot_equity", "plot_errors", "plot_first_rolls",
    "plot_gammon_rates", "plot_luck", "plot_met", "plot_pips", "plot_plays", "plot_rollout",
)


def __getattr__(name: str) -> object:
    # plotting imports matplotlib, the widgets ipywidgets, the frames pandas: only on
    # first use, to keep ``import gammonlab`` fast
    if name in _PLOTS:
        return getattr(import_module("gammonlab.plot"), name)
    if name in ("actions_frame", "games_frame"):
        return getattr(import_module("gammonlab.frames"), name)
    if name in ("teach", "widgets"):
        widgets = import_module("gammonlab.widgets")
        return widgets if name == "widgets" else widgets.teach
    raise AttributeError(f"module 'gammonlab' has no attribute {name!r}")
