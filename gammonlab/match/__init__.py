"""Matches: the :class:`Match` model, transcripts replayed through the rules, files
read and written, DataFrames, and simulated matches.

- :mod:`~gammonlab.match.model`: :class:`Match`, :class:`Game`, :class:`Action`;
- :mod:`~gammonlab.match.replay`: a transcript's raw record checked against the rules;
- :mod:`~gammonlab.match.read` and :mod:`~gammonlab.match.write`: files in and out;
- :mod:`~gammonlab.match.frames`: one row per action, one row per game;
- :mod:`~gammonlab.match.simulate`: two policies play a match.
"""

from __future__ import annotations

from importlib import import_module

from .model import ACTIONS, ENDINGS, Action, Game, Match
from .read import read_match, read_matches
from .replay import replay_match
from .simulate import play_match
from .write import write_match

__all__ = [
    "ACTIONS",
    "ENDINGS",
    "Action",
    "Game",
    "Match",
    "actions_frame",
    "games_frame",
    "play_match",
    "read_match",
    "read_matches",
    "replay_match",
    "write_match",
]


def __getattr__(name: str) -> object:
    # the frames need pandas: imported on first use
    if name in ("actions_frame", "games_frame"):
        return getattr(import_module("gammonlab.match.frames"), name)
    raise AttributeError(f"module 'gammonlab.match' has no attribute {name!r}")
