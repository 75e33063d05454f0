"""The cube arithmetic is written once (:mod:`gammonlab._kernels.cube`): the public theory of
:mod:`gammonlab.cube` (one position: the kernels' Python source) and analysis's batches of
positions (the compiled kernels) give the same numbers, and the numbers are those the cube
theory gave before it was moved there."""

from __future__ import annotations

import numpy as np
import pytest

import gammonlab as gl
from gammonlab import cube
from gammonlab.cube.batch import Cube, cubeful, decide, options
from gammonlab.errors import GammonlabError
from gammonlab.met import load

KAZAROSS = load("Kazaross-XG2")
P = [0.7, 0.12, 0.005, 0.04, 0.002]
Q = [0.35, 0.08, 0.004, 0.15, 0.01]

# cubeful_equity and cube_decision(...).equity at x = 0.68, as the cube theory gave them before
# its arithmetic moved into the kernels
PINNED = [
    # money centred
    (dict(), P, 0.6831466666666668, 0.7619999999999999),
    (dict(), Q, -0.5292266666666666, -0.5292266666666666),
    # money Jacoby
    (dict(jacoby=True), P, 0.6565866666666669, 0.7619999999999999),
    (dict(jacoby=True), Q, -0.5049066666666666, -0.5049066666666666),
    # money owned
    (dict(cube_value=2, cube_owner=0), P, 0.7210000000000001, 0.7619999999999999),
    (dict(cube_value=2, cube_owner=0), Q, -0.257, -0.257),
    # money theirs
    (dict(cube_value=4, cube_owner=1), P, 0.38099999999999995, 0.38099999999999995),
    (dict(cube_value=4, cube_owner=1), Q, -0.597, -0.597),
    # money limit
    (dict(cube_value=2, cube_owner=0, cube_limit=2), P, 0.48299999999999993, 0.48299999999999993),
    (dict(cube_value=2, cube_owner=0, cube_limit=2), Q, -0.376, -0.376),
    # 7-point 0-0
    (dict(match_length=7), P, 0.6919196915275386, 0.780940716885226),
    (dict(match_length=7), Q, -0.537935557319145, -0.537935557319145),
    # 7-point 4-5 cube 2 mine
    (dict(match_length=7, score=(4, 5), cube_value=2, cube_owner=0), P, 0.8523739020398522, 1.0),
    (
        dict(match_length=7, score=(4, 5), cube_value=2, cube_owner=0),
        Q,
        -0.048884185661981876,
        0.033423880949568906,
    ),
    # 5-point 4-2 Crawford
    (dict(match_length=5, score=(4, 2), crawford=True), P, 0.3939397168206871, 0.3939397168206871),
    (
        dict(match_length=5, score=(4, 2), crawford=True),
        Q,
        -0.32784869782595366,
        -0.32784869782595366,
    ),
    # 5-point 2-4 post-Crawford
    (dict(match_length=5, score=(2, 4)), P, 0.5957148863799357, 0.6802245763580108),
    (dict(match_length=5, score=(2, 4)), Q, -0.17297792348831023, -0.11890662459275061),
    # 11-point 3-6 cube 4 theirs
    (
        dict(match_length=11, score=(3, 6), cube_value=4, cube_owner=1),
        P,
        0.561857995903391,
        0.561857995903391,
    ),
    (
        dict(match_length=11, score=(3, 6), cube_value=4, cube_owner=1),
        Q,
        -0.2561735147171071,
        -0.2561735147171071,
    ),
    # 3-point 1-1 (2-away 2-away)
    (dict(match_length=3, score=(1, 1)), P, 0.5455299954894004, 0.9999999999999999),
    (dict(match_length=3, score=(1, 1)), Q, -0.4273387460532251, -0.4273387460532251),
]


@pytest.mark.parametrize(("options_", "p", "no_action", "proper"), PINNED)
def test_cubeful_values_are_unchanged(options_, p, no_action, proper):
    state = gl.GameState.initial(**options_)
    assert cube.cubeful_equity(state, p, cube_efficiency=0.68) == pytest.approx(
        no_action, abs=1e-12
    )
    assert cube.cube_decision(state, p, cube_efficiency=0.68).equity == pytest.approx(
        proper, abs=1e-12
    )


def probability_grid() -> np.ndarray:
    rng = np.random.default_rng(12)
    win = rng.uniform(0.001, 0.999, 30)
    win_gammon = win * rng.uniform(0.0, 0.6, 30)
    lose_gammon = (1.0 - win) * rng.uniform(0.0, 0.6, 30)
    p = np.stack(
        [
            win,
            win_gammon,
            win_gammon * rng.uniform(0.0, 0.3, 30),
            lose_gammon,
            lose_gammon * rng.uniform(0.0, 0.3, 30),
        ],
        axis=1,
    )
    p[:4, 1:3] = 0.0  # gammonless
    edges = [
        [0.5, 0, 0, 0, 0],
        [1e-8, 0, 0, 0.3, 0.01],
        [1 - 1e-8, 0.4, 0.1, 0, 0],
        [0.0, 0, 0, 0.2, 0],
        [1.0, 0.3, 0, 0, 0],
    ]
    return np.vstack([p, edges])


def grid_states() -> list[gl.GameState]:
    """Money (owners, Jacoby, beavers, a limit); matches (lengths, scores, cubes, Crawford)."""
    states = [
        gl.GameState.initial(
            cube_value=value, cube_owner=owner, jacoby=jacoby, beavers=beavers, cube_limit=limit
        )
        for value, owner in ((1, None), (2, 0), (4, 1))
        for jacoby in (False, True)
        for beavers in (False, True)
        for limit in (None, 4)
    ]
    for length in (1, 2, 3, 5, 7, 11, 17):
        for score in (
            (0, 0),
            (length - 1, 0),
            (0, length - 1),
            (length - 2, length - 3),
            (length - 1, length - 1),
            (length - 2, length - 2),
            (1, 2),
        ):
            if min(score) < 0 or max(score) >= length:
                continue
            for value, owner in ((1, None), (2, 0), (2, 1), (4, 1), (8, None)):
                for crawford in (False, True):
                    try:
                        states.append(
                            gl.GameState.initial(
                                match_length=length,
                                score=score,
                                cube_value=value,
                                cube_owner=owner,
                                crawford=crawford,
                            )
                        )
                    except GammonlabError:
                        pass  # a Crawford game needs a 1-away player
    return states


def test_the_theory_and_the_batches_agree_on_a_grid():
    p = probability_grid()
    worst = 0.0
    for state in grid_states():
        batch = Cube.of(state, KAZAROSS if state.match_length else None)
        for x in (0.0, 0.68, 1.0):
            ours = batch.to_equity(cubeful(p, batch, x))
            theirs = [cube.cubeful_equity(state, row, cube_efficiency=x) for row in p]
            worst = max(worst, float(np.max(np.abs(ours - theirs))))
            if state.match_length:
                mwc = [cube.cubeful_mwc(state, row, cube_efficiency=x) for row in p]
                worst = max(worst, float(np.max(np.abs(cubeful(p, batch, x) - mwc))))
            no_double, double_take, double_pass = options(p, batch, x)
            for i in (0, 5, 17, len(p) - 2):
                decision = cube.cube_decision(state, p[i], cube_efficiency=x)
                assert decide(p[i], batch, x).verdict == decision.verdict
                if decision.double_take is None:
                    assert double_take is None
                    continue
                values = (no_double[i], double_take[i], double_pass)
                expected = (
                    (decision.mwc_no_double, decision.mwc_double_take, decision.mwc_double_pass)
                    if state.match_length
                    else (decision.no_double, decision.double_take, decision.double_pass)
                )
                worst = max(worst, *(abs(a - b) for a, b in zip(values, expected)))
    assert worst <= 1e-12
