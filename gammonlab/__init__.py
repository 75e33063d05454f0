"""gammonlab: backgammon analysis for notebooks."""

from __future__ import annotations

from importlib import import_module

from . import met
from .analysis import analyse, analyse_matches, summarise
from .cube import CubeDecision, CubeRollout, cube_decision, rollout_cube
from .draw import svg
from .errors import (
    AnalysisError,
    ArgumentError,
    ArgumentTypeError,
    CellError,
    CubeError,
    EvaluatorError,
    GammonlabError,
    IllegalPlayError,
    ImmutableError,
    InternalError,
    InvalidDiceError,
    InvalidNotationError,
    InvalidPositionError,
    InvalidProbabilitiesError,
    MetError,
    MissingDependencyError,
    NetWeightsError,
    OptionError,
    OptionTypeError,
    OutOfTurnError,
    ParseError,
    PlayIndexError,
    PlotDataError,
    RolloutError,
    SourceError,
    SourceNotFoundError,
    TrainingError,
    UnknownNameError,
    WriteError,
)
from .evaluators.base import get_evaluator, register_evaluator
from .evaluators.net import NetEvaluator
from .io.samples import sample_folder, sample_matches
from .match import Action, Game, Match, play_match, read_match, read_matches, write_match
from .play import LegalPlays, Play
from .position import GameResult, Position
from .rollout import RolloutResult, rollout, rollout_many, rollout_plays
from .rules import BAR, CHECKERS, OFF, VARIANTS, Rules, Variant
from .state import GameState
from .teaching import LESSONS, TeachingBoard, lesson

__all__ = [
    "BAR",
    "CHECKERS",
    "LESSONS",
    "OFF",
    "VARIANTS",
    "Action",
    "AnalysisError",
    "ArgumentError",
    "ArgumentTypeError",
    "CellError",
    "CubeDecision",
    "CubeError",
    "CubeRollout",
    "EvaluatorError",
    "Game",
    "GameResult",
    "GameState",
    "GammonlabError",
    "IllegalPlayError",
    "ImmutableError",
    "InternalError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidProbabilitiesError",
    "LegalPlays",
    "Match",
    "MetError",
    "MissingDependencyError",
    "NetEvaluator",
    "NetWeightsError",
    "OptionError",
    "OptionTypeError",
    "OutOfTurnError",
    "ParseError",
    "Play",
    "PlayIndexError",
    "PlotDataError",
    "Position",
    "RolloutError",
    "RolloutResult",
    "Rules",
    "SourceError",
    "SourceNotFoundError",
    "TeachingBoard",
    "TrainingError",
    "UnknownNameError",
    "Variant",
    "WriteError",
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
    "sample_folder",
    "sample_matches",
    "summarise",
    "svg",
    "write_match",
]


_PLOTS = (
    "plot_board",
    "plot_cube_decision",
    "plot_equity",
    "plot_errors",
    "plot_first_rolls",
    "plot_gammon_rates",
    "plot_luck",
    "plot_met",
    "plot_pips",
    "plot_plays",
    "plot_rollout",
)


def __getattr__(name: str) -> object:
    if name == "__version__":  # from the installed package's metadata, on first use
        return import_module("gammonlab.cli.output").gammonlab_version()
    # plotting imports matplotlib, the widgets ipywidgets, the frames pandas: only on
    # first use, to keep ``import gammonlab`` fast
    if name in _PLOTS:
        return getattr(import_module("gammonlab.plot"), name)
    if name in ("actions_frame", "games_frame"):
        return getattr(import_module("gammonlab.match.frames"), name)
    if name in ("teach", "widgets"):
        widgets = import_module("gammonlab.teaching.widget")
        return widgets if name == "widgets" else widgets.teach
    raise AttributeError(f"module 'gammonlab' has no attribute {name!r}")
