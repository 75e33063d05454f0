"""Rollouts: results, settings, reproducibility, variance reduction, honest errors.

The comparisons with GNU Backgammon (``gnubg-nn``) are in ``test_rollout_gnubg.py``.
"""

from __future__ import annotations

import importlib
import math
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import needs_module

import gammonlab as gl
from gammonlab._kernels import rng
from gammonlab._kernels.outcome import flip_probabilities
from gammonlab._kernels.stats import stratified_stderr
from gammonlab.errors import InvalidDiceError, InvalidPositionError, MissingDependencyError
from gammonlab.evaluators.base import (
    PROBABILITY_NAMES,
    CallableEvaluator,
    EvaluatorError,
    equity,
    finished_probabilities,
    get_evaluator,
)
from gammonlab.evaluators.bearoff import evaluate_bearoff
from gammonlab.rollout import (
    BLOCK,
    STATISTICS,
    RolloutError,
    RolloutResult,
    rollout,
    rollout_many,
    rollout_plays,
)

rollout_module = importlib.import_module("gammonlab.rollout.rollouts")
run_module = importlib.import_module("gammonlab.rollout.tasks")

QUIET = {"progress": False, "n_jobs": 1}


def board_of(on_roll: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    """A board from ``{point: checkers}`` of each side (own numbering); the rest is off."""
    board = np.zeros((2, 26), dtype=np.int8)
    for side, spots in enumerate((on_roll, opponent)):
        for point, count in spots.items():
            board[side, point] = count
        board[side, 0] = 15 - sum(spots.values())
    return board


# A race where the first roll matters a great deal (variance reduction pays), and a
# pure bear-off.
RACE = gl.Position.from_board(
    board_of({8: 2, 6: 3, 5: 3, 4: 2, 2: 2}, {9: 1, 7: 2, 6: 3, 4: 3, 3: 2, 1: 2})
)
BEAROFF = gl.Position.from_board(board_of({6: 2, 5: 1, 2: 2}, {5: 2, 4: 1, 1: 2}))
# After 6-2 played 24/18 13/11: two blots for the side now on roll to aim at.
SHOT = gl.GameState(gl.Position.initial().play("24/18 13/11", (6, 2)))


def same(a: RolloutResult, b: RolloutResult) -> bool:
    """Bit-for-bit equal estimates and errors."""
    return (
        a.trials == b.trials
        and all(getattr(a, s) == getattr(b, s) for s in STATISTICS)
        and dict(a.stderr) == dict(b.stderr)
    )


# -- random numbers ------------------------------------------------------------------------


def first_rolls(seed: int, n: int) -> list[int]:
    key = rng.seed_key(seed)
    return [rng.roll_index(np.uint64(rng.stream_key(key, t, rng.DICE)), 0)[0] for t in range(n)]


def test_streams_are_pure_functions_of_seed_and_trial():
    key = rng.seed_key(2024)
    assert first_rolls(2024, 200) == first_rolls(2024, 200)
    assert first_rolls(2024, 200) != first_rolls(2025, 200)
    assert rng.stream_key(key, 5, rng.DICE) != rng.stream_key(key, 5, rng.CHOICE)
    assert rng.seed_key(2**200 + 7) != rng.seed_key(7)
    with pytest.raises(ValueError):
        rng.seed_key(-1)


def test_dice_are_uniform():
    base = np.uint64(rng.stream_key(rng.seed_key(1), 0, rng.DICE))
    counts = np.zeros(rng.ROLLS)
    counter = 0
    n = 72_000
    for _ in range(n):
        roll, counter = rng.roll_index(base, counter)
        counts[roll] += 1
    chi2 = ((counts - n / 36) ** 2 / (n / 36)).sum()
    assert chi2 < 70  # 35 degrees of freedom: P(chi2 > 70) < 1e-3
    for bound in (1, 2, 7, 36, 500):
        values = {rng.draw_below(base, c, bound)[0] for c in range(2000)}
        assert values == set(range(bound)) if bound <= 36 else max(values) < bound


# -- the result ----------------------------------------------------------------------------


def test_result_fields_and_displays():
    res = rollout(gl.Position.initial(), trials=144, seed=11, keep_trials=True, **QUIET)
    assert res.trials == 144 and res.position == gl.Position.initial() and res.dice is None
    p = res.probabilities
    assert 0 < p[0] < 1 and p[1] <= p[0] and p[2] <= p[1] and p[4] <= p[3] <= 1 - p[0]
    assert res.lose == pytest.approx(1 - res.win)
    assert res.equity == pytest.approx(equity(p))
    assert set(res.stderr) == set(STATISTICS) and all(v >= 0 for v in res.stderr.values())
    assert res.stderr["equity"] > 0 and res.stderr["win"] > 0
    low, high = res.ci95["equity"]
    assert low < res.equity < high
    assert high - low == pytest.approx(2 * 1.959964 * res.stderr["equity"], rel=1e-5)
    assert res.covariance.shape == (6, 6)
    assert np.sqrt(np.diag(res.covariance)) == pytest.approx(
        [res.stderr[s] for s in STATISTICS], rel=1e-9, abs=1e-12
    )
    assert np.allclose(res.covariance, res.covariance.T)
    single = rollout(RACE, trials=36, seed=2, **QUIET)  # one block: doubles collapsed
    assert np.sqrt(single.covariance[5, 5]) == pytest.approx(single.stderr["equity"])
    series = res.to_series()
    assert series["win"] == res.win and series["stderr_equity"] == res.stderr["equity"]
    html = res._repr_html_()
    assert "<table>" in html and "net" in html and "stratified" in html
    assert "equity" in repr(res)
    settings = res.settings
    assert settings["policy"] == "net" and settings["seed"] == 11
    assert settings["variance_reduction"] and settings["bearoff_finish"]
    assert "stratified" in settings["stderr_method"]
    frame = res.to_frame()
    assert list(frame.columns) == [
        "trial",
        "die1",
        "die2",
        "plies",
        "end",
        "points",
        *PROBABILITY_NAMES,
    ]
    assert len(frame) == 144 and frame.trial.tolist() == list(range(144))
    assert frame.points.mean() == pytest.approx(res.equity)
    assert frame.win.mean() == pytest.approx(res.win)
    assert set(frame.end.astype(str)) <= {"single", "gammon", "backgammon", "bearoff"}
    finished = frame[frame.end.astype(str) != "bearoff"]
    assert set(finished.points.abs()) <= {1.0, 2.0, 3.0}
    with pytest.raises(RolloutError, match="keep_trials"):
        rollout(gl.Position.initial(), trials=36, seed=1, **QUIET).to_frame()


def test_first_rolls_rotate_in_blocks_of_36():
    frame = rollout(gl.Position.initial(), trials=108, seed=3, keep_trials=True, **QUIET).to_frame()
    for block in range(3):
        rows = frame.iloc[block * BLOCK : (block + 1) * BLOCK]
        assert sorted(zip(rows.die1, rows.die2)) == [
            (a, b) for a in range(1, 7) for b in range(1, 7)
        ]
    plain = rollout(
        gl.Position.initial(),
        trials=108,
        seed=3,
        keep_trials=True,
        variance_reduction=False,
        **QUIET,
    )
    rolls = plain.to_frame()
    assert len(set(zip(rolls.die1[:36], rolls.die2[:36]))) < 36  # random, not rotated
    assert math.isnan(plain.variance_ratio) and "plain" in plain.settings["stderr_method"]


def test_trials_come_in_whole_blocks():
    assert rollout(RACE, trials=40, seed=1, **QUIET).trials == 72
    assert rollout(RACE, trials=40, seed=1, variance_reduction=False, **QUIET).trials == 40


def test_dice_already_rolled():
    state = SHOT
    assert state.dice is None
    rolled = state.replace(dice=(6, 4))
    res = rollout(rolled, trials=72, seed=5, keep_trials=True, **QUIET)
    assert res.dice == (6, 4)
    assert "reply" in res.settings["variance_reduction_method"]
    frame = res.to_frame()
    assert sorted(zip(frame.die1[:36], frame.die2[:36])) == sorted(
        (a, b) for a in range(1, 7) for b in range(1, 7)
    )  # the reply rotates
    assert (frame.plies >= 1).all()
    # the same as giving the dice to a Position, or by ID
    assert same(res, rollout(state.position, dice=(6, 4), trials=72, seed=5, **QUIET))
    assert same(res, rollout(state.position, (6, 4), trials=72, seed=5, **QUIET))
    assert same(res, rollout(rolled.xgid, trials=72, seed=5, **QUIET))
    with pytest.raises(InvalidDiceError):
        rollout(state.position, dice=(7, 1), trials=36, **QUIET)


def test_rolled_dice_equal_the_policys_candidate_in_rollout_plays():
    # Trial t sees the same dice whether the position is rolled out with its dice
    # (the policy picks the play) or the policy's play is rolled out as a candidate.
    pos, dice = SHOT.position, (6, 4)
    table = rollout_plays(pos, dice, top=3, trials=144, seed=9, **QUIET)
    res = rollout(pos, dice, trials=144, seed=9, **QUIET)
    keyword = rollout_plays(pos, dice=dice, top=3, trials=144, seed=9, **QUIET)
    np.testing.assert_array_equal(table["equity"], keyword["equity"])
    plays = pos.legal_plays(dice)
    choice = plays[rollout_module._rank(get_evaluator("pubeval"), pos.board, plays.boards)[0]]
    row = table.set_index("play").loc[choice.notation]
    for name in STATISTICS:
        assert row[name] == pytest.approx(getattr(res, name), abs=1e-12)
    assert row["stderr"] == pytest.approx(res.stderr["equity"], abs=1e-12)


def test_rollout_plays_table():
    table = rollout_plays(gl.Position.initial(), (4, 3), top=4, trials=144, seed=2, **QUIET)
    assert list(table.columns) == [
        "play",
        *STATISTICS,
        "stderr",
        "difference",
        "difference_stderr",
        "trials",
    ]
    assert len(table) == 4 and table.equity.is_monotonic_decreasing
    assert table.difference.iloc[0] == 0 and table.difference_stderr.iloc[0] == 0
    assert (table.difference.iloc[1:] <= 0).all() and (table.difference_stderr.iloc[1:] > 0).all()
    assert table.attrs["settings"]["top"] == 4
    every = rollout_plays(gl.Position.initial(), (6, 6), top=100, trials=36, seed=2, **QUIET)
    assert len(every) == len(gl.Position.initial().legal_plays((6, 6)))
    with pytest.raises(RolloutError, match="dice"):
        rollout_plays(gl.Position.initial(), trials=36, **QUIET)


def test_common_random_numbers_make_differences_precise():
    # In a race the candidates' games stay alike, so the paired standard error of
    # the difference is far below the unpaired one.
    table = rollout_plays(RACE, (6, 2), top=3, trials=360, seed=4, **QUIET)
    unpaired = np.hypot(table.stderr.iloc[1:], table.stderr.iloc[0])
    assert (table.difference_stderr.iloc[1:] < 0.7 * unpaired).all()


def test_a_play_that_wins_is_known_exactly():
    pos = gl.Position.from_board(board_of({1: 1, 2: 1}, {6: 4}))
    table = rollout_plays(pos, (2, 1), trials=36, seed=1, **QUIET)
    assert table.play.iloc[0] == "2/off 1/off" and table.win.iloc[0] == 1.0
    assert table.win_gammon.iloc[0] == 0.0 and table.stderr.iloc[0] == 0.0


# -- reproducibility -----------------------------------------------------------------------


def test_same_seed_same_numbers_whatever_the_chunks(monkeypatch):
    reference = rollout(SHOT, trials=360, seed=77, **QUIET)
    assert same(reference, rollout(SHOT, trials=360, seed=77, **QUIET))
    assert not same(reference, rollout(SHOT, trials=360, seed=78, **QUIET))
    for size in (36, 108, 252):
        monkeypatch.setattr(run_module, "_TASK_GAMES", size)
        assert same(reference, rollout(SHOT, trials=360, seed=77, **QUIET))
    assert same(
        reference,
        rollout(SHOT, trials=360, seed=np.random.default_rng(0).integers(0, 1) + 77, **QUIET),
    )


def test_same_seed_with_two_processes_and_dask():
    needs_module("distributed")
    from distributed import Client, LocalCluster

    kwargs = {"trials": 1296, "seed": 123, "progress": False}
    one = rollout(SHOT, n_jobs=1, **kwargs)
    two = rollout(SHOT, n_jobs=2, **kwargs)
    assert same(one, two)
    many = rollout_many([SHOT, RACE], n_jobs=2, **kwargs)
    assert same(many.result[0], one)
    # a real cluster of worker processes (spawned by Dask), scheduler included
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        on_dask = rollout(SHOT, client=client, **kwargs)
        plays = rollout_plays(SHOT.position, (6, 4), top=2, client=client, **kwargs)
    assert same(one, on_dask)
    local = rollout_plays(SHOT.position, (6, 4), top=2, n_jobs=1, **kwargs)
    assert plays.drop(columns="play").equals(local.drop(columns="play"))


def test_seed_none_is_recorded_and_reproduces():
    res = rollout(RACE, trials=72, **QUIET)
    again = rollout(RACE, trials=72, seed=res.settings["seed"], **QUIET)
    assert same(res, again)


# -- honest standard errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "trials", "variance_reduction"),
    [
        (RACE, 144, True),
        (RACE, 36, True),  # a single block: doubles collapsed in pairs
        (RACE, 144, False),
        (gl.Position.initial(), 72, True),
    ],
)
def test_standard_errors_match_the_spread_of_repeated_rollouts(
    position, trials, variance_reduction
):
    repeats = 200
    estimates, errors = [], []
    for seed in range(repeats):
        res = rollout(
            position,
            trials=trials,
            seed=10_000 + seed,
            variance_reduction=variance_reduction,
            **QUIET,
        )
        estimates.append([getattr(res, s) for s in ("equity", "win")])
        errors.append([res.stderr[s] for s in ("equity", "win")])
    spread = np.std(estimates, axis=0, ddof=1)
    reported = np.sqrt(np.mean(np.square(errors), axis=0))  # root mean square
    assert np.all(np.abs(spread / reported - 1) < 0.15), (spread, reported)


def test_stratified_standard_error_formula():
    rng_ = np.random.default_rng(4)
    groups = [rng_.normal(m, sd, size=n) for m, sd, n in ((0, 1, 5), (3, 2, 7), (-1, 0.5, 4))]
    count = np.array([len(g) for g in groups])
    s1 = np.array([g.sum() for g in groups])
    s2 = np.array([(g**2).sum() for g in groups])
    total = int(count.sum())
    strat, plain = stratified_stderr(count, s1, s2, total)
    expected = math.sqrt(sum(len(g) * g.var(ddof=1) for g in groups) / total**2)
    assert strat == pytest.approx(expected) and plain == pytest.approx(
        np.concatenate(groups).std(ddof=1) / math.sqrt(total)
    )
    # strata of one trial are collapsed in pairs of neighbours
    lone = np.array([1, 1, 2])
    strat, _ = stratified_stderr(lone, np.array([1.0, 3.0, 4.0]), np.array([1.0, 9.0, 8.0]), 4)
    assert strat == pytest.approx(math.sqrt((2 * 2.0 + 2 * 0.0) / 16))
    # a lone stratum without a partner: the plain formula
    strat, plain = stratified_stderr(
        np.array([1, 2]), np.array([1.0, 4.0]), np.array([1.0, 8.0]), 3
    )
    assert strat == plain


def test_variance_ratio_reports_the_gain():
    res = rollout(RACE, trials=1296, seed=8, **QUIET)
    assert res.variance_ratio > 1.2
    plain = rollout(RACE, trials=1296, seed=8, variance_reduction=False, **QUIET)
    # the gain shows as a smaller error for the same trials
    assert res.stderr["equity"] < plain.stderr["equity"]


def test_target_stderr_stops_at_a_whole_block():
    res = rollout(RACE, trials=36_000, seed=6, target_stderr=0.01, **QUIET)
    assert res.trials % BLOCK == 0 and res.trials < 36_000
    assert res.stderr["equity"] <= 0.01
    shorter = rollout(RACE, trials=res.trials - BLOCK, seed=6, **QUIET)
    assert shorter.stderr["equity"] > 0.01  # it stopped at the first block below the target
    assert same(res, rollout(RACE, trials=res.trials, seed=6, **QUIET))
    assert same(
        res, rollout(RACE, trials=36_000, seed=6, target_stderr=0.01, progress=False, n_jobs=2)
    )


# -- truncation and the bear-off database ----------------------------------------------------


def test_bearoff_finish_uses_the_database():
    # one checker still to come home: most games reach a pure bear-off, and end there
    near = gl.Position.from_board(board_of({8: 1, 5: 2, 3: 2, 2: 1}, {6: 2, 4: 2, 2: 2}))
    res = rollout(near, trials=1296, seed=1, keep_trials=True, **QUIET)
    ends = res.to_frame().end.astype(str)
    assert (ends == "bearoff").mean() > 0.9 and set(ends) <= {"bearoff", "single"}
    assert "two-sided" in res.settings["bearoff_finish_method"]
    played = rollout(near, trials=1296, seed=1, bearoff_finish=False, **QUIET)
    assert abs(res.win - played.win) < 3 * math.hypot(res.stderr["win"], played.stderr["win"])
    assert res.stderr["win"] < played.stderr["win"]  # less variance
    # a position that is a pure bear-off already is played out, with or without dice
    assert same(
        rollout(BEAROFF, trials=144, seed=1, **QUIET),
        rollout(BEAROFF, trials=144, seed=1, bearoff_finish=False, **QUIET),
    )
    rolled = rollout(BEAROFF, dice=(6, 5), trials=72, seed=1, keep_trials=True, **QUIET)
    assert set(rolled.to_frame().end.astype(str)) == {"single"}
    played = rollout(BEAROFF, trials=1296, seed=1, policy="bearoff", **QUIET)
    exact = evaluate_bearoff(BEAROFF.board)
    assert abs(played.win - exact[0]) < 3 * played.stderr["win"] + 1e-3


def test_truncation_scores_with_the_evaluator():
    calls = []

    def coin(boards):
        calls.append(len(boards))
        return np.tile([0.5, 0.2, 0.0, 0.1, 0.0], (len(boards), 1))

    res = rollout(gl.Position.initial(), trials=72, seed=1, truncate=0, evaluator=coin, **QUIET)
    assert res.win == 0.5 and res.equity == pytest.approx(0.1) and res.stderr["win"] == 0
    assert calls == [72]
    # after an odd number of plies the other side is on roll: probabilities flip
    res = rollout(
        gl.Position.initial(),
        trials=72,
        seed=1,
        truncate=1,
        evaluator=coin,
        keep_trials=True,
        **QUIET,
    )
    assert res.win == 0.5 and res.win_gammon == pytest.approx(0.1)
    assert res.lose_gammon == pytest.approx(0.2)
    assert set(res.to_frame().end.astype(str)) == {"truncated"}
    with pytest.raises(RolloutError, match="evaluator"):
        rollout(gl.Position.initial(), trials=36, truncate=4, policy="pubeval", **QUIET)
    with pytest.raises(RolloutError, match="dice"):
        rollout(SHOT.position, dice=(3, 1), truncate=0, evaluator=coin, **QUIET)


def test_race_evaluator():
    ev = get_evaluator("bearoff")
    probs = ev(np.stack([RACE.board, BEAROFF.board]))
    # the database's values, to rounding: the two kernels compiled for one processor
    # may fuse multiply-adds differently
    assert probs[1] == pytest.approx(evaluate_bearoff(BEAROFF.board), abs=1e-14)
    assert np.array_equal(ev(RACE.board), ev(RACE.board))  # deterministic
    # agrees with rollouts played to the end (pubeval bearing in, then the database)
    res = rollout(RACE, trials=2592, seed=2, policy="bearoff", **QUIET)
    assert abs(probs[0, 0] - res.win) < 0.015
    # and serves truncated rollouts of races
    cut = rollout(RACE, trials=72, seed=2, truncate=0, evaluator="bearoff", **QUIET)
    assert cut.win == pytest.approx(probs[0, 0]) and cut.stderr["win"] == 0
    gammonish = gl.Position.from_board(
        board_of(
            {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 8: 1, 9: 1},
            {7: 2, 8: 1, 10: 1, 11: 2, 13: 2, 1: 1, 2: 1, 4: 2, 5: 1, 6: 2},
        )
    )
    p = ev(gammonish.board)[0]
    assert p[0] > 0.99 and 0.05 < p[1] < 0.25 and p[2] == 0


def test_flip_probabilities():
    p = np.array([[0.6, 0.2, 0.05, 0.1, 0.01]])
    assert flip_probabilities(p.copy()).tolist() == [[0.4, 0.1, 0.01, 0.2, 0.05]]


# -- policies and evaluators ---------------------------------------------------------------


def module_level_evaluator(boards: np.ndarray) -> np.ndarray:
    """A picklable evaluator: the bear-off database where it applies, else a flat guess."""
    out = np.tile([0.5, 0.1, 0.0, 0.1, 0.0], (len(boards), 1))
    for i, board in enumerate(boards):
        if gl.Position.from_board(board).is_bearoff:
            out[i] = evaluate_bearoff(board)
    return out


def test_a_python_evaluator_plays_in_lockstep():
    res = rollout(
        BEAROFF,
        trials=144,
        seed=3,
        policy=module_level_evaluator,
        bearoff_finish=False,
        keep_trials=True,
        **QUIET,
    )
    kernel = rollout(BEAROFF, trials=144, seed=3, policy="bearoff", bearoff_finish=False, **QUIET)
    # both take the play with the highest two-sided equity: the same games
    assert res.win == pytest.approx(kernel.win, abs=0.03)
    frame = res.to_frame()
    assert (frame.plies >= 1).all() and set(frame.points.abs()) <= {1.0}
    assert res.settings["policy"] == "module_level_evaluator"
    two = rollout(
        BEAROFF,
        trials=144,
        seed=3,
        policy=module_level_evaluator,
        bearoff_finish=False,
        progress=False,
        n_jobs=2,
    )
    assert same(res, two)
    # scored at once, both ways of playing give the same numbers, and the lockstep
    # games record their rotated rolls too
    finished = rollout(
        RACE,
        trials=72,
        seed=3,
        policy=module_level_evaluator,
        truncate=0,
        keep_trials=True,
        **QUIET,
    )
    assert same(
        finished,
        rollout(RACE, trials=72, seed=3, truncate=0, evaluator=module_level_evaluator, **QUIET),
    )
    frame = finished.to_frame()
    assert sorted(zip(frame.die1[:36], frame.die2[:36])) == sorted(
        (a, b) for a in range(1, 7) for b in range(1, 7)
    )


def test_random_policy_and_contact_play():
    res = rollout(gl.Position.initial(), trials=144, seed=1, policy="random", **QUIET)
    assert res.settings["policy"] == "random"
    # random play is far more gammonish than pubeval's
    assert res.win_gammon + res.lose_gammon > 0.5


def test_registry_and_protocol():
    assert get_evaluator("random").kernel is not None and not get_evaluator("random").evaluates
    assert get_evaluator("bearoff").evaluates
    with pytest.raises(EvaluatorError, match="unknown"):
        get_evaluator("gnubg-3ply")
    with pytest.raises(EvaluatorError):
        get_evaluator(42)
    with pytest.raises(EvaluatorError, match="no probabilities"):
        get_evaluator("pubeval")(gl.Position.initial().board)
    wrong = get_evaluator(lambda b: np.zeros((len(b), 4)))
    with pytest.raises(EvaluatorError, match="shape"):
        wrong(gl.Position.initial().board)
    too_big = get_evaluator(lambda b: np.full((len(b), 5), 2.0))
    with pytest.raises(EvaluatorError, match="outside"):
        too_big(gl.Position.initial().board)
    assert isinstance(get_evaluator(module_level_evaluator), CallableEvaluator)
    assert pickle.loads(pickle.dumps(get_evaluator("bearoff"))) == get_evaluator("bearoff")
    with pytest.raises(InvalidPositionError):
        get_evaluator("bearoff")(gl.Position.initial().board)
    with pytest.raises(RolloutError, match="evaluator"):
        rollout(RACE, truncate=2, evaluator="random", trials=36, **QUIET)


def test_finished_games_are_scored_exactly():
    won = board_of({}, {20: 1, 6: 14})  # side on roll bore off all; a checker in its home
    won[1, 0] = 0
    lost = board_of({1: 2}, {})
    mask, probs = finished_probabilities(np.stack([won, lost]))
    assert mask.tolist() == [True, True]
    assert probs.tolist() == [[1, 1, 1, 0, 0], [0, 0, 0, 0, 0]]
    # in a rollout an evaluator never sees a finished game: those are scored exactly
    seen = []

    def spy(boards):
        seen.append(finished_probabilities(boards)[0].any())
        return module_level_evaluator(boards)

    near_end = gl.Position.from_board(board_of({1: 1, 2: 1}, {1: 1, 3: 1}))
    res = rollout(near_end, trials=72, seed=1, policy=spy, **QUIET)
    assert seen and not any(seen) and res.win > 0.9


def test_gnubg_missing_gives_a_clear_error():
    code = textwrap.dedent("""
        import sys
        sys.modules["gnubg_nn"] = None  # as if it were not installed
        from gammonlab.evaluators.base import get_evaluator
        from gammonlab.errors import MissingDependencyError
        try:
            get_evaluator("gnubg")
        except MissingDependencyError as exc:
            print("missing:", exc)
    """)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert 'pip install -e ".[gnubg]"' in out
    assert issubclass(MissingDependencyError, ImportError)


# -- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"trials": 0},
        {"trials": 2.5},
        {"seed": -1},
        {"seed": "x"},
        {"truncate": -2},
        {"target_stderr": 0},
        {"policy": "nonsense"},
    ],
)
def test_bad_options(options):
    with pytest.raises((RolloutError, EvaluatorError)):
        rollout(RACE, **{"trials": 36, **QUIET, **options})


def test_positions_that_cannot_be_rolled_out():
    over = board_of({}, {6: 15})
    with pytest.raises(InvalidPositionError, match="over"):
        rollout(gl.Position.from_board(over), trials=36, **QUIET)
    with pytest.raises(RolloutError, match="n_jobs"):
        rollout(RACE, trials=72, n_jobs=0, progress=False)


def test_other_variants_roll_out():
    res = rollout(gl.Position.initial("hypergammon-3"), trials=144, seed=1, **QUIET)
    assert 0.4 < res.win < 0.9
    assert rollout(gl.Position.initial("nackgammon"), trials=36, seed=1, **QUIET).trials == 36


def test_kernels_run_without_jit():
    code = textwrap.dedent("""
        import warnings
        warnings.simplefilter("ignore")  # uint64 arithmetic wraps, as it does compiled
        import gammonlab as gl
        from gammonlab.rollout import rollout
        pos = gl.Position.from_board([[13, 1, 1] + [0] * 23, [13, 0, 0, 0, 0, 0, 2] + [0] * 19])
        res = rollout(pos, trials=36, seed=4, progress=False, n_jobs=1, bearoff_finish=False)
        print(res.win, res.equity)
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    pos = gl.Position.from_board([[13, 1, 1] + [0] * 23, [13, 0, 0, 0, 0, 0, 2] + [0] * 19])
    res = rollout(pos, trials=36, seed=4, bearoff_finish=False, **QUIET)
    assert [float(x) for x in out] == [res.win, res.equity]


def test_progress_bar(capsys):
    rollout(RACE, trials=72, seed=1, n_jobs=1, progress=True)
    assert "rollout" in capsys.readouterr().err
