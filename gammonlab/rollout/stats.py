"""Rollout statistics: per-stratum sums of the trials, stratified standard errors
and covariances (the estimator is described in :mod:`gammonlab.rollout`).

>>> import numpy as np
>>> count = np.array([2, 2])
>>> s1, s2 = np.array([[2.0], [0.0]]), np.array([[2.0], [0.0]])
>>> strat, plain = _stratified(count, s1, s2, 4)
>>> float(strat[0]) < float(plain[0])
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._kernels import stats as _k
from .._kernels.rng import ROLLS

if TYPE_CHECKING:
    from .trials import _Chunk


class _Sums:
    """Per-stratum sums of the trials of one rollout, added in trial order."""

    def __init__(self, k: int, rotate: bool, top: float = 3.0) -> None:
        n_strata = _k.STRATA if rotate else 1
        self.rotate = rotate
        self.top = float(top)  # points of the top class: 3 (R8.2) or 4 (R8.4)
        self.count = np.zeros(n_strata, dtype=np.int64)
        self.s1 = np.zeros((n_strata, k, 6))
        self.products = np.zeros((n_strata, k, 6, 6))
        self.cross = np.zeros((n_strata, k, k))
        self.trials = 0

    @property
    def s2(self) -> np.ndarray:
        """Sums of squares, ``(n_strata, k, 6)``."""
        return np.diagonal(self.products, axis1=2, axis2=3)

    def add(self, chunk: _Chunk, target: float) -> tuple[int, bool]:
        """Add a chunk's trials in order (blocks of 36 for the target); returns
        ``(added, target reached)``."""
        strata = _k.ROLL_STRATUM[chunk.rolled] if self.rotate else np.zeros_like(chunk.rolled)
        used, stop = _k.accumulate(
            self.count,
            self.s1,
            self.products,
            self.cross,
            chunk.probs,
            strata,
            self.trials,
            target,
            ROLLS,
            self.top,
        )
        self.trials += used
        return used, stop

    def means(self) -> np.ndarray:
        """``(k, 6)``: the five probabilities and the equity of each root."""
        return self.s1.sum(axis=0) / max(self.trials, 1)

    def stderr(self) -> tuple[np.ndarray, np.ndarray]:
        """``(stratified, plain)`` standard errors, each ``(k, 6)``."""
        return _stratified(self.count, self.s1, self.s2, self.trials)

    def covariance(self, root: int = 0) -> np.ndarray:
        """Stratified covariance ``(6, 6)`` of the means of the five probabilities
        and the equity of one root (its diagonal is ``stderr() ** 2``)."""
        return _stratified_covariance(
            self.count, self.s1[:, root], self.products[:, root], self.trials
        )

    def difference_stderr(self, best: int) -> np.ndarray:
        """Standard error of ``equity[r] - equity[best]`` for each root (paired)."""
        e1 = self.s1[:, :, 5]
        e2 = self.s2[:, :, 5]
        # sums of (e_r - e_best) and of its square, per stratum
        d1 = e1 - e1[:, [best]]
        d2 = e2 - 2.0 * self.cross[:, :, best] + e2[:, [best]]
        strat, _ = _stratified(self.count, d1, d2, self.trials)
        return strat


def _stratified(
    count: np.ndarray, s1: np.ndarray, s2: np.ndarray, total: int
) -> tuple[np.ndarray, np.ndarray]:
    """Stratified and plain standard errors of means from per-stratum sums, each
    over the trailing axes: :func:`gammonlab._kernels.stats.stratified_stderr`
    for every column."""
    flat1 = s1.reshape(s1.shape[0], -1)
    flat2 = s2.reshape(s2.shape[0], -1)
    strat = np.empty(flat1.shape[1])
    plain = np.empty(flat1.shape[1])
    for j in range(flat1.shape[1]):
        strat[j], plain[j] = _k.stratified_stderr(
            count, np.ascontiguousarray(flat1[:, j]), np.ascontiguousarray(flat2[:, j]), total
        )
    return strat.reshape(s1.shape[1:]), plain.reshape(s1.shape[1:])


def _stratified_covariance(
    count: np.ndarray, s1: np.ndarray, products: np.ndarray, total: int
) -> np.ndarray:
    """The covariance matrix of means from per-stratum sums ``s1 (n_strata, m)`` and
    ``products (n_strata, m, m)``: :func:`gammonlab._kernels.stats.stratified_stderr`
    for every pair of columns, lone strata collapsed in pairs the same way."""
    m = s1.shape[1]
    if total < 2:
        return np.full((m, m), np.nan)
    grand = s1.sum(axis=0)
    plain = (products.sum(axis=0) - np.outer(grand, grand) / total) / (total - 1) / total
    lone = np.flatnonzero(count == 1)
    if lone.size == 1:
        return plain
    groups = [[s] for s in np.flatnonzero(count >= 2)]
    pairs = [list(lone[i : i + 2]) for i in range(0, lone.size, 2)]
    if len(pairs) > 1 and len(pairs[-1]) == 1:
        pairs[-2].extend(pairs.pop())  # an odd one joins the last pair
    covariance = np.zeros((m, m))
    for group in groups + pairs:
        c = float(count[group].sum())
        g1 = s1[group].sum(axis=0)
        g2 = products[group].sum(axis=0)
        covariance += c * (g2 - np.outer(g1, g1) / c) / (c - 1)
    return covariance / (total * total)
