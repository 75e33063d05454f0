"""The result of a rollout: :class:`RolloutResult` (estimates, standard errors, 95%
intervals, settings; its Series, per-trial frame and HTML view), the names of its
estimates (:data:`STATISTICS`) and the per-trial frame's construction.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np

from .._kernels import outcome as _k
from ..errors import RolloutError
from ..evaluators.base import PROBABILITY_NAMES, equity
from ..position import Position
from ..state import GameState

if TYPE_CHECKING:
    import pandas as pd

    from .tasks import _Job

__all__ = ["STATISTICS", "Z95", "RolloutResult"]

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the normal distribution."""
STATISTICS = (*PROBABILITY_NAMES, "equity")
"""Keys of :attr:`RolloutResult.stderr`."""
_END_NAMES = {
    _k.END_SINGLE: "single",
    _k.END_GAMMON: "gammon",
    _k.END_BACKGAMMON: "backgammon",
    _k.END_TRUNCATED: "truncated",
    _k.END_BEAROFF: "bearoff",
}
_END_NAMES_SEED_000 = {**_END_NAMES, _k.END_GAMMON: "outside", _k.END_BACKGAMMON: "bar"}
_LABELS = {
    "standard": {
        "win": "win",
        "win_gammon": "win gammon",
        "win_backgammon": "win backgammon",
        "lose_gammon": "lose gammon",
        "lose_backgammon": "lose backgammon",
        "equity": "equity (cubeless)",
    },
    "seed-000": {
        "win": "win",
        "win_gammon": "win 2+ (outside home)",
        "win_backgammon": "win 4 (on the bar)",
        "lose_gammon": "lose 2+ (outside home)",
        "lose_backgammon": "lose 4 (on the bar)",
        "equity": "equity (cubeless, R8.4)",
    },
}


@dataclass(frozen=True, eq=False)
class RolloutResult:
    """The outcome of :func:`rollout`: probabilities, equity, errors and settings.

    Attributes
    ----------
    position : Position
        The position rolled out, seen from the side on roll.
    dice : tuple of int or None
        Dice already rolled at the start, if any.
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon : float
        Estimated probabilities for the side on roll (GNU Backgammon's order;
        win includes gammons, gammons include backgammons).
    equity : float
        Cubeless money equity (points per game; R8.2).
    stderr : Mapping[str, float]
        Standard error of each of the above (keys :data:`STATISTICS`).
    trials : int
        Trials played.
    variance_ratio : float
        Variance of plain random dice over that of the rotated rolls, for the
        equity, estimated in this run (NaN without variance reduction).
    covariance : numpy.ndarray
        ``(6, 6)`` covariance of the estimates, in the order of
        :data:`STATISTICS` (same estimator as the standard errors, which are
        the square roots of its diagonal): for functions of several
        probabilities, such as cube decisions, by the delta method.
    settings : Mapping[str, Any]
        Everything the numbers depend on, the seed included.
    scoring : {'standard', 'seed-000'}
        How games were counted. ``'standard'`` (R8.2): the probabilities above
        and an equity of 1, 2 or 3 points a game. ``'seed-000'`` (R8.4): the
        five are P(win), P(win 2 or more), P(win 4), P(lose 2 or more),
        P(lose 4), and the equity counts the top class 4.

    >>> from gammonlab import Position
    >>> from gammonlab.rollout import rollout
    >>> res = rollout(Position.initial(), trials=36, seed=7, progress=False, n_jobs=1)
    >>> sorted(res.stderr) == sorted(STATISTICS)
    True
    """

    position: Position
    dice: tuple[int, int] | None
    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    equity: float
    stderr: Mapping[str, float]
    trials: int
    variance_ratio: float
    covariance: np.ndarray
    settings: Mapping[str, Any]
    scoring: str = "standard"
    _trial_frame: Any = field(default=None, repr=False)

    @property
    def lose(self) -> float:
        """Probability that the side on roll loses (``1 - win``)."""
        return 1.0 - self.win

    @property
    def probabilities(self) -> np.ndarray:
        """The five probabilities as a float64 array in GNU Backgammon's order."""
        return np.array([getattr(self, name) for name in PROBABILITY_NAMES])

    @property
    def ci95(self) -> Mapping[str, tuple[float, float]]:
        """95% intervals ``estimate +- 1.96 stderr`` (probabilities clipped to [0, 1])."""
        out = {}
        for name in STATISTICS:
            value = getattr(self, name)
            half = Z95 * self.stderr[name]
            low, high = value - half, value + half
            if name != "equity":
                low, high = max(low, 0.0), min(high, 1.0)
            out[name] = (low, high)
        return MappingProxyType(out)

    def to_series(self) -> pd.Series:
        """Estimates, standard errors and trials as a pandas Series of numbers; the
        scoring in its ``attrs["scoring"]``.

        >>> from gammonlab import Position
        >>> from gammonlab.rollout import rollout
        >>> res = rollout(Position.initial(), trials=36, seed=7, progress=False, n_jobs=1)
        >>> list(res.to_series().index[:3]), res.to_series().attrs["scoring"]
        (['win', 'win_gammon', 'win_backgammon'], 'standard')
        """
        import pandas as pd

        data: dict[str, Any] = {name: getattr(self, name) for name in STATISTICS}
        data.update({f"stderr_{name}": self.stderr[name] for name in STATISTICS})
        data["trials"] = self.trials
        data["variance_ratio"] = self.variance_ratio
        series = pd.Series(data, name=self.position.label)
        series.attrs["scoring"] = self.scoring
        return series

    def to_frame(self) -> pd.DataFrame:
        """One row per trial (only with ``keep_trials=True``).

        Columns: ``trial``; ``die1``, ``die2`` (the rotated roll: the first roll,
        or the opponent's reply when the dice were known); ``plies`` (plays made);
        ``end`` (``single``, ``gammon``, ``backgammon``, ``truncated``,
        ``bearoff``; under seed 000's scoring ``single``, ``outside``, ``bar``,
        ``truncated``, ``bearoff``); ``points`` (won by the side on roll under
        the rollout's scoring; for a bear-off finished game the expected
        points); and the five probabilities.

        >>> from gammonlab import Position
        >>> from gammonlab.rollout import rollout
        >>> res = rollout(Position.initial(), trials=36, seed=7, progress=False,
        ...               n_jobs=1, keep_trials=True)
        >>> res.to_frame().shape
        (36, 11)
        """
        if self._trial_frame is None:
            raise RolloutError("trials were not kept: call rollout(..., keep_trials=True)")
        return self._trial_frame.copy()

    def __repr__(self) -> str:
        dice = "" if self.dice is None else f" {self.dice[0]}-{self.dice[1]}"
        scoring = "" if self.scoring == "standard" else f", scoring {self.scoring} (R8.4)"
        return (
            f"<RolloutResult {self.position.label}{dice}: "
            f"equity {self.equity:+.4f} +- {self.stderr['equity']:.4f}, "
            f"win {self.win:.4f}, {self.trials} trials{scoring}>"
        )

    def _repr_html_(self) -> str:
        rows = []
        labels = _LABELS[self.scoring]
        for name in STATISTICS:
            low, high = self.ci95[name]
            fmt = "{:+.4f}" if name == "equity" else "{:.4f}"
            rows.append(
                f"<tr><td>{labels[name]}</td><td>{fmt.format(getattr(self, name))}</td>"
                f"<td>{self.stderr[name]:.4f}</td>"
                f"<td>{fmt.format(low)} .. {fmt.format(high)}</td></tr>"
            )
        settings = ", ".join(
            f"{key}={value}"
            for key, value in self.settings.items()
            if key not in ("stderr_method", "variance_reduction_method", "scoring")
        )
        dice = "" if self.dice is None else f" {self.dice[0]}-{self.dice[1]} to play"
        text = (
            f"<div><b>Rollout</b> of <code>{html.escape(self.position.label)}</code>{dice}: "
            f"{self.trials} trials"
            "<table><thead><tr><th></th><th>estimate</th><th>stderr</th><th>95% interval</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
            f"<small>{settings}; stderr: {self.settings['stderr_method']}"
            + (
                f"; variance ratio {self.variance_ratio:.2f}"
                if math.isfinite(self.variance_ratio)
                else ""
            )
            + f"; scoring: {self.settings['scoring']}"
            + "</small></div>"
        )
        from ..draw.svg import beside

        return beside(
            self.position if self.dice is None else GameState(self.position, dice=self.dice), text
        )


def _trial_frame(job: _Job, scoring: str) -> pd.DataFrame:
    """One row per kept trial of ``job`` (:meth:`RolloutResult.to_frame`)."""
    import pandas as pd

    chunks = job.keep or []
    if chunks:
        probs = np.concatenate([c.probs[0] for c in chunks])
        plies = np.concatenate([c.plies[0] for c in chunks])
        end = np.concatenate([c.end[0] for c in chunks])
        rolled = np.concatenate([c.rolled for c in chunks])
    else:
        probs, plies = np.zeros((0, 5)), np.zeros(0, dtype=np.int32)
        end, rolled = np.zeros(0, dtype=np.int8), np.zeros(0, dtype=np.int64)
    names = _END_NAMES if scoring == "standard" else _END_NAMES_SEED_000
    frame = pd.DataFrame(
        {
            "trial": np.arange(len(plies)),
            "die1": (rolled // 6 + 1).astype(np.int8),
            "die2": (rolled % 6 + 1).astype(np.int8),
            "plies": plies,
            "end": pd.Categorical([names[int(e)] for e in end], categories=list(names.values())),
            "points": equity(probs, scoring),
        }
    )
    for j, name in enumerate(PROBABILITY_NAMES):
        frame[name] = probs[:, j]
    frame.attrs["scoring"] = scoring
    return frame
