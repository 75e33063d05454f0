"""Codes of the built-in policies, the ``policy`` argument of the game-playing kernels."""

from __future__ import annotations

__all__ = ["BEAROFF", "NET", "PUBEVAL", "RANDOM"]

RANDOM = 0
"""A legal play drawn uniformly from the trial's choice stream."""
PUBEVAL = 1
"""Tesauro's pubeval (:mod:`gammonlab._kernels.pubeval`)."""
BEAROFF = 2
"""Pubeval, with the bear-off database's choice once both sides (or the mover) are home."""
NET = 3
"""The neural evaluator at 0-ply (:mod:`gammonlab._kernels.net_play`)."""
