"""gammonlab: backgammon analysis for notebooks."""

from __future__ import annotations

from importlib import import_module

from . import errors, met
from .analysis import analyse, analyse_matches, summarise
from .cube import CubeDecision, CubeRollout, cube_decision, rollout_cube
from .draw import svg
from .errors import *  # noqa: F403 - every error, as errors.__all__ lists them
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
    "CubeDecision",
    "CubeRollout",
    "Game",
    "GameResult",
    "GameState",
    "LegalPlays",
    "Match",
    "NetEvaluator",
    "Play",
    "Position",
    "RolloutResult",
    "Rules",
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
    "sample_folder",
    "sample_matches",
    "summarise",
    "svg",
    "write_match",
]
__all__ += errors.__all__  # the errors, each listed once, in errors.py


def __getattr__(name: str) -> object:
    if name == "__version__":  # from the installed package's metadata, on first use
        return import_module("gammonlab.cli.output").gammonlab_version()
    # plotting imports matplotlib, the widgets ipywidgets, the frames pandas: only on
    # first use, to keep ``import gammonlab`` fast
    if name.startswith("plot_"):
        plot = import_module("gammonlab.plot")
        if name in plot.__all__:
            return getattr(plot, name)
    if name in ("actions_frame", "games_frame"):
        return getattr(import_module("gammonlab.match.frames"), name)
    if name in ("teach", "widgets"):
        widgets = import_module("gammonlab.teaching.widget")
        return widgets if name == "widgets" else widgets.teach
    raise AttributeError(f"module 'gammonlab' has no attribute {name!r}")
