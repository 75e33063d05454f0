"""Cube decisions from rollouts, with standard errors.

:func:`rollout_cube` rolls the position out cubeless, with the player on roll
to roll, and translates the rolled-out probabilities into cubeful equities
and a cube decision with the cube theory of :mod:`gammonlab.cube` (Janowski's
model at the position's cube efficiency, or GNU Backgammon's match-play
formulas with the match equity table). The standard error of each cubeful
figure comes from the rollout by the delta method: the gradient of the
translation at the rolled-out probabilities, applied to the rollout's covariance of
those probabilities (estimated stratum by stratum over the rotated first
rolls, as its own standard errors are).

>>> from gammonlab import GameState
>>> result = rollout_cube(GameState.from_id("4HPwATDgc/ABMA"), trials=1296, seed=1,
...                       progress=False, n_jobs=1)
>>> result.decision.verdict
'No double'
>>> sorted(result.stderr) == ['double_pass', 'double_take', 'equity', 'no_double']
True
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import CubeError
from ..evaluators.base import PROBABILITY_NAMES
from ..rollout.result import RolloutResult
from ..rollout.rollouts import rollout
from ..rules import Rules
from ..state import GameState
from .decision import CubeDecision, cube_decision
from .theory import InvalidProbabilitiesError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CubeRollout", "rollout_cube"]

_OPTIONS = ("no_double", "double_take", "double_pass")
_STEP = 1e-4


@dataclass(frozen=True)
class CubeRollout:
    """A cubeless rollout, its cubeful translation and the cube decision.

    Attributes
    ----------
    state : GameState
        The position, cube and score, before the roll.
    rollout : RolloutResult
        The cubeless rollout (player on roll to roll).
    decision : CubeDecision
        The decision from the rolled-out probabilities.
    stderr : dict of str to float
        Standard errors of ``no_double``, ``double_take``, ``double_pass`` and
        of the chosen ``equity``, in the decision's units (money equity per
        cube, or in a match the match winning chances mapped to equity).
    margin : float
        How far the proper action is ahead of the next best one.
    margin_stderr : float
        Its standard error (the options share the rollout, so it is computed
        on the difference, not from the two errors).
    method : str
        How the cubeful figures were obtained.
    """

    state: GameState
    rollout: RolloutResult
    decision: CubeDecision
    stderr: dict[str, float]
    margin: float
    margin_stderr: float
    method: str

    @property
    def verdict(self) -> str:
        """The decision's verdict (:attr:`CubeDecision.verdict
        <gammonlab.cube.decision.CubeDecision.verdict>`), e.g. ``'Double, take'``."""
        return self.decision.verdict

    def to_series(self) -> pd.Series:
        """The decision, its equities and their standard errors, with the rollout."""
        import pandas as pd

        decision = self.decision.to_series()
        errors = pd.Series({f"stderr_{k}": v for k, v in self.stderr.items()}, dtype=object)
        extra = pd.Series(
            {
                "margin": self.margin,
                "margin_stderr": self.margin_stderr,
                "trials": self.rollout.trials,
                "method": self.method,
            },
            dtype=object,
        )
        return pd.concat([decision, errors, extra])

    def __str__(self) -> str:
        lines = [f"Cube rollout, {self.rollout.trials} trials: {self.decision.verdict}"]
        for option in _OPTIONS:
            value = getattr(self.decision, option)
            name = option.replace("_", " ")
            lines.append(f"  {name:12s} {value:+.3f} ± {self.stderr[option]:.3f}")
        lines.append(f"  margin {self.margin:+.3f} ± {self.margin_stderr:.3f}")
        lines.append(self.method)
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{option.replace('_', ' ')}</td>"
            f"<td>{getattr(self.decision, option):+.3f}</td>"
            f"<td>± {self.stderr[option]:.3f}</td></tr>"
            for option in _OPTIONS
        )
        from ..draw.svg import beside

        text = (
            f"<div><b>{escape(self.decision.verdict)}</b> "
            f"(margin {self.margin:+.3f} ± {self.margin_stderr:.3f}; "
            f"{self.rollout.trials} trials)<table><tr><th>option</th><th>equity</th>"
            f"<th>stderr</th></tr>{rows}</table><p><small>{escape(self.method)}</small>"
            f"</p></div>"
        )
        return beside(self.state, text)


def _figures(state: GameState, p: np.ndarray, **options: Any) -> np.ndarray:
    decision = cube_decision(state, p, **options)
    return np.array(
        [decision.no_double, decision.double_take, decision.double_pass, decision.equity],
        dtype=float,
    )


def rollout_cube(
    state: GameState | str,
    *,
    trials: int = 1296,
    policy: Any = None,
    seed: Any = None,
    met: Any = None,
    cube_efficiency: float | None = None,
    rules: Rules | None = None,
    **rollout_options: Any,
) -> CubeRollout:
    """Roll out a cube decision: cubeless rollout, cubeful translation, verdict.

    Parameters
    ----------
    state : GameState or ID
        Before the roll: a state with dice already rolled has no cube decision.
    trials, policy, seed
        As :func:`gammonlab.rollout`.
    met, cube_efficiency
        As :func:`gammonlab.cube_decision`.
    rules : Rules, optional
        Checked against the position's variant and passed to the rollout. Only
        R8.2's scoring is accepted: the cube theory (Janowski's model, the match
        equity table's gammon prices) values gammons at 2 and backgammons at 3
        points, so seed 000's scoring (R8.4: 1, 2, 4) is refused. The Jacoby
        rule (R10.1) is the state's (``state.jacoby``).
    **rollout_options
        Passed to :func:`gammonlab.rollout` (``n_jobs``, ``client``, ``progress``,
        ``truncate``, ``evaluator`` ...).

    Returns
    -------
    CubeRollout
    """
    if isinstance(state, str):
        state = GameState.from_id(state)
    if state.dice is not None:
        raise CubeError(
            "a cube decision comes before the roll: this state has dice "
            f"{state.dice[0]}-{state.dice[1]} rolled"
        )
    if rules is not None and getattr(rules, "scoring", "standard") != "standard":
        raise CubeError(
            f"rollout_cube cannot translate a rollout under {rules.scoring!r} scoring (R8.4: "
            "1, 2 if the loser has a checker outside its home board, 4 if one on the bar): "
            "its cube theory values gammons at 2 and backgammons at 3 points (R8.2) only"
        )
    result = rollout(
        state.position, trials=trials, policy=policy, seed=seed, rules=rules, **rollout_options
    )
    options = {"met": met, "cube_efficiency": cube_efficiency}
    p = np.array([getattr(result, name) for name in PROBABILITY_NAMES], dtype=float)
    decision = cube_decision(state, result, **options)
    base = _figures(state, p, **options)
    gradient = np.zeros((len(base), 5))
    for k in range(5):
        # central differences; one-sided where a step would leave the valid
        # probabilities (a chance at 0, gammons bounded by wins); none where both would,
        # which happens only for a chance that no trial moved (its variance is 0)
        points: list[tuple[float, np.ndarray]] = []
        for step in (-_STEP, _STEP):
            shifted = p.copy()
            shifted[k] += step
            try:
                points.append((step, _figures(state, shifted, **options)))
            except InvalidProbabilitiesError:
                points.append((0.0, base))
        (low_step, low), (high_step, high) = points
        if high_step != low_step:
            gradient[:, k] = (high - low) / (high_step - low_step)
    # the rollout's own stratified covariance of the five probabilities
    covariance = np.asarray(result.covariance)[:5, :5]
    variances = np.einsum("ik,kl,il->i", gradient, covariance, gradient)
    stderr = dict(
        zip(
            ("no_double", "double_take", "double_pass", "equity"),
            np.sqrt(np.maximum(variances, 0.0)).tolist(),
        )
    )
    # the margin between doubling (worth the taker's better reply) and not doubling,
    # as one difference of the same rollout
    values = {"no_double": base[0], "double": min(base[1], base[2])}
    best, other = (
        ("no_double", "double")
        if values["no_double"] >= values["double"]
        else ("double", "no_double")
    )
    index = {"no_double": 0, "double": 1 if base[1] <= base[2] else 2}
    difference = gradient[index[best]] - gradient[index[other]]
    margin = float(values[best] - values[other])
    margin_stderr = float(np.sqrt(max(difference @ covariance @ difference, 0.0)))
    method = (
        f"cubeless rollout ({result.trials} trials, policy {result.settings['policy']}, "
        f"{result.settings['stderr_method']}); cubeful equities from its probabilities "
        f"by {'Janowski' if state.money else 'GNU Backgammon match-play'} cube theory at "
        f"cube efficiency x = {decision.cube_efficiency:.2f}; standard errors by the "
        f"delta method"
    )
    return CubeRollout(
        state=state,
        rollout=result,
        decision=decision,
        stderr=stderr,
        margin=margin,
        margin_stderr=margin_stderr,
        method=method,
    )
