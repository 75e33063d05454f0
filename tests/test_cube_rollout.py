"""Cube rollouts: verdicts, and standard errors that match the spread of repeated runs."""

from __future__ import annotations

import numpy as np
import pytest

import gammonlab as gl
from gammonlab.cube.rollout import rollout_cube

# a racing position where the player on roll is a clear favourite
RACE = "XGID=---BBCCDB---------------cdddbbb---:0:0:1:00:0:0:0:0:10"


def test_opening_is_no_double_with_errors():
    """Enough trials that the verdict does not hang on the dice: no double leads double,
    take by about 0.28, where their standard errors are 0.05 and 0.08 (with 144 trials,
    0.15 and 0.24, one seed in a few turns it)."""
    result = rollout_cube(
        gl.GameState.from_id("4HPwATDgc/ABMA"), trials=1296, seed=3, progress=False, n_jobs=1
    )
    assert result.verdict == "No double"
    assert all(v >= 0 for v in result.stderr.values())
    assert result.stderr["double_pass"] == pytest.approx(0.0, abs=1e-9)  # a pass is a constant
    assert "delta method" in result.method and "1296 trials" in result.method
    assert "No double" in result._repr_html_() and "margin" in str(result)
    series = result.to_series()
    assert {"stderr_no_double", "margin", "margin_stderr", "method"} <= set(series.index)


def test_dice_rolled_has_no_cube_decision():
    state = gl.GameState.from_id("4HPwATDgc/ABMA:cIkKAAAAAAAA")
    with pytest.raises(gl.GammonlabError, match="before the roll"):
        rollout_cube(state, trials=36, progress=False, n_jobs=1)


def test_standard_errors_are_honest():
    """The reported error of the no-double equity matches the spread over seeds."""
    state = gl.GameState.from_id("4HPwATDgc/ABMA")
    runs = [
        rollout_cube(state, trials=72, seed=seed, progress=False, n_jobs=1) for seed in range(40)
    ]
    values = np.array([r.decision.no_double for r in runs])
    reported = np.mean([r.stderr["no_double"] for r in runs])
    # 40 runs: the sample standard deviation is itself uncertain by about 11%
    assert 0.7 < values.std(ddof=1) / reported < 1.4


def test_a_chance_that_never_happens_does_not_break_the_errors():
    """A real double (HSBT Paris 2023, game 1) where the doubler is never gammoned."""
    state = gl.GameState.from_id("tu2MACDutgEAAA:MAHgAAAAAAAE")
    result = rollout_cube(state, trials=216, seed=1, progress=False, n_jobs=1)
    assert result.rollout.lose_gammon == 0.0
    assert all(np.isfinite(v) for v in result.stderr.values())
