"""Teaching the rules: the :class:`TeachingBoard` model (:mod:`~gammonlab.teaching.board`),
one lesson per rule of moving (:mod:`~gammonlab.teaching.lessons`) and the Jupyter widget
(:mod:`~gammonlab.teaching.widget`, imported on first use: it needs ipywidgets)."""

from __future__ import annotations

from importlib import import_module

from .board import TeachingBoard
from .lessons import LESSONS, Lesson, lesson

__all__ = ["LESSONS", "Lesson", "TeachingBoard", "TeachingWidget", "lesson", "teach"]


def __getattr__(name: str) -> object:
    if name in ("TeachingWidget", "teach"):
        return getattr(import_module("gammonlab.teaching.widget"), name)
    raise AttributeError(f"module 'gammonlab.teaching' has no attribute {name!r}")
