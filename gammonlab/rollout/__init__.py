"""Monte-Carlo rollouts: play a position out many times and average the results.

- :mod:`~gammonlab.rollout.rollouts`: :func:`rollout`, :func:`rollout_many`,
  :func:`rollout_plays` and the checking of their options;
- :mod:`~gammonlab.rollout.result`: their :class:`RolloutResult`;
- :mod:`~gammonlab.rollout.trials`: how a task plays its trials (numba kernels, or
  lockstep around an evaluator);
- :mod:`~gammonlab.rollout.tasks`: running the tasks here, in local processes or on Dask;
- :mod:`~gammonlab.rollout.stats`: stratified means, standard errors and covariances.
"""

from __future__ import annotations

from ..errors import RolloutError
from .result import STATISTICS, Z95, RolloutResult
from .rollouts import (
    BLOCK,
    DEFAULT_TRIALS,
    default_policy,
    rollout,
    rollout_many,
    rollout_plays,
)

__all__ = [
    "BLOCK",
    "DEFAULT_TRIALS",
    "STATISTICS",
    "Z95",
    "RolloutError",
    "RolloutResult",
    "default_policy",
    "rollout",
    "rollout_many",
    "rollout_plays",
]
