"""Rollouts under the rules' scoring: R8.2 (1, 2, 3) and seed 000's R8.4 (1, 2, 4).

R8.4, after seed 000's text: the winner gets 1 point; 2 if the loser has not yet
brought all its checkers into its home board; 4 if a checker of the loser is
still on the bar. Borne-off checkers do not matter.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import gammonlab as gl
from gammonlab._kernels import outcome as ka
from gammonlab._kernels.outcome import END_BACKGAMMON, END_GAMMON, END_SINGLE, SEED_000, STANDARD
from gammonlab.cube import InvalidProbabilitiesError
from gammonlab.evaluators.base import equity
from gammonlab.rollout import RolloutError, rollout, rollout_many, rollout_plays

matplotlib.use("Agg")

QUIET = {"progress": False, "n_jobs": 1}
SEED_000_RULES = gl.Rules(scoring="seed-000")
POINTS = {"standard": (1, 2, 3), "seed-000": (1, 2, 4)}


def board_of(on_roll: dict[int, int], opponent: dict[int, int], checkers: int = 15) -> np.ndarray:
    """A board from ``{column: checkers}`` of each side (1..24 points, 25 the bar);
    the rest of each side's checkers are borne off."""
    board = np.zeros((2, 26), dtype=np.int8)
    for side, spots in enumerate((on_roll, opponent)):
        for point, count in spots.items():
            board[side, point] = count
        board[side, 0] = checkers - sum(spots.values())
    return board


def rules_for(scoring: str, variant: str = "standard") -> gl.Rules | None:
    return None if scoring == "standard" else gl.Rules(variant=variant, scoring=scoring)


# -- games whose outcome is forced -----------------------------------------------------------

# The side on roll has one checker left, on its 1-point: any roll bears it off (R7.4).
LAST_CHECKER = {1: 1}
# The opponent's checkers, and the points it pays under R8.2 and R8.4.
FORCED = {
    "on the bar": ({25: 1, 6: 14}, 3, 4),
    "all home, none off": ({6: 5, 5: 5, 4: 5}, 2, 1),
    "outside home, none off": ({13: 5, 8: 5, 6: 5}, 2, 2),
    "one off, some outside": ({13: 4, 6: 10}, 1, 2),
    "in the winner's home, none off": ({20: 1, 6: 14}, 3, 2),
}


def flat_evaluator(boards: np.ndarray) -> np.ndarray:
    """Every position even: a Python callable, so the games are played in lockstep."""
    return np.tile([0.5, 0.0, 0.0, 0.0, 0.0], (len(boards), 1))


@pytest.mark.parametrize("case", list(FORCED))
@pytest.mark.parametrize("policy", ["random", "pubeval", "lockstep"])
def test_a_last_checker_borne_off_scores_by_the_rules(case, policy):
    opponent, standard_points, seed_000_points = FORCED[case]
    pos = gl.Position.from_board(board_of(LAST_CHECKER, opponent))
    chosen = flat_evaluator if policy == "lockstep" else policy
    # the position after the last checker is off: Position.result agrees
    over = gl.Position.from_board(board_of({}, opponent)).swapped()
    assert over.result().points == standard_points
    assert over.result(scoring="seed-000").points == seed_000_points
    for scoring, points in (("standard", standard_points), ("seed-000", seed_000_points)):
        res = rollout(
            pos,
            trials=36,
            seed=1,
            policy=chosen,
            rules=rules_for(scoring),
            keep_trials=True,
            **QUIET,
        )
        top = POINTS[scoring][2]
        assert res.scoring == scoring
        assert res.equity == points and res.stderr["equity"] == 0.0
        assert res.probabilities.tolist() == [
            1.0,
            float(points >= 2),
            float(points == top),
            0.0,
            0.0,
        ]
        frame = res.to_frame()
        assert (frame.points == points).all()
        # with the dice known the same
        known = rollout(
            pos, dice=(6, 5), trials=36, seed=1, policy=chosen, rules=rules_for(scoring), **QUIET
        )
        assert known.equity == points
        # a candidate play that bears off the last checker is scored without a rollout
        plays = rollout_plays(
            pos, (6, 5), trials=36, seed=1, policy=chosen, rules=rules_for(scoring), **QUIET
        )
        assert plays.equity.tolist() == [points] and plays.trials.tolist() == [0]


# The side on roll is on the bar with 14 checkers on its 13-point; the opponent bears
# off its last two checkers (on its 1-point, so the 1 cannot enter) with any roll.
STUCK = gl.Position.from_board(board_of({25: 1, 13: 14}, {1: 2}))


@pytest.mark.parametrize("policy", ["random", "pubeval", "lockstep"])
def test_a_loser_left_on_the_bar_pays_four(policy):
    """Only 1-1 keeps the checker on the bar: 4 points once in 36 rotated rolls, 2
    points (checkers outside home) in the other 35 (R8.4)."""
    chosen = flat_evaluator if policy == "lockstep" else policy
    res = rollout(
        STUCK, trials=72, seed=3, policy=chosen, rules=SEED_000_RULES, keep_trials=True, **QUIET
    )
    assert res.win == 0.0 and res.lose_gammon == 1.0
    assert res.lose_backgammon == pytest.approx(1 / 36, abs=1e-15)
    assert res.equity == pytest.approx(-(35 * 2 + 4) / 36, abs=1e-12)
    frame = res.to_frame()
    bar = frame[frame.end.astype(str) == "bar"]
    assert len(bar) == 2 and (bar.die1 == 1).all() and (bar.die2 == 1).all()
    assert set(frame.end.astype(str)) == {"outside", "bar"}
    assert set(frame.points) == {-2.0, -4.0}
    # R8.2: none off, so a gammon at least; 1-1 leaves the checker on the bar: a backgammon
    standard = rollout(STUCK, trials=72, seed=3, policy=chosen, keep_trials=True, **QUIET)
    assert standard.lose_gammon == 1.0 and standard.lose_backgammon >= 1 / 36
    assert set(standard.to_frame().end.astype(str)) <= {"gammon", "backgammon"}


# -- whole games -----------------------------------------------------------------------------


def test_start_position_under_both_scorings():
    """The policies play alike under both scorings, so the same seed gives the same
    games, counted differently: the same wins, each trial's points by its class."""
    pos = gl.Position.initial()
    standard = rollout(pos, trials=720, seed=5, keep_trials=True, **QUIET)
    seed_000 = rollout(pos, trials=720, seed=5, keep_trials=True, rules=SEED_000_RULES, **QUIET)
    assert seed_000.win == standard.win
    for res in (standard, seed_000):
        p = res.probabilities
        assert 0 <= p[2] <= p[1] <= p[0] <= 1 and 0 <= p[4] <= p[3] <= 1 - p[0]
        assert res.equity == pytest.approx(equity(p, res.scoring), abs=1e-12)
        assert res.to_frame().points.mean() == pytest.approx(res.equity, abs=1e-12)
    a, b = standard.to_frame(), seed_000.to_frame()
    # games finished by the bear-off database are single under R8.4: both sides home
    bearoff = b.end.astype(str) == "bearoff"
    assert bearoff.any()
    assert (
        (b.loc[bearoff, ["win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]] == 0)
        .all()
        .all()
    )
    assert (b.loc[bearoff, "win"] == a.loc[bearoff, "win"]).all()
    # games played to the end: the same winner, points 1, 2 or 4
    played = ~bearoff
    assert (np.sign(a.points[played]) == np.sign(b.points[played])).all()
    assert set(b.points[played].abs()) <= {1.0, 2.0, 4.0}
    assert set(b.end[played].astype(str)) <= {"single", "outside", "bar"}
    # a game ending on the bar is a backgammon under R8.2 (none can be off then)
    on_bar = (b.end.astype(str) == "bar").to_numpy()
    assert (a.end.astype(str)[on_bar] == "backgammon").all()
    # the equities differ by exactly the trials' differences
    assert seed_000.equity - standard.equity == pytest.approx(
        (b.points - a.points).mean(), abs=1e-12
    )
    assert seed_000.equity != standard.equity


# A blitz: the side on roll has the opponent's two checkers on the bar and bears off.
BLITZ = gl.Position.from_board(board_of({1: 2, 2: 2, 3: 2, 4: 1}, {25: 2, 20: 1, 13: 5, 6: 7}))


def test_equities_of_a_blitz_move_as_the_classes_say():
    """Won games against checkers on the bar are R8.2 backgammons (3 points) and R8.4's
    4 points; won games with the loser's checkers back in the winner's home board but
    none on the bar are R8.2 backgammons and only 2 points under R8.4. Here the second
    kind dominates, so the equity is lower under R8.4, by exactly the trials' changes."""
    standard = rollout(BLITZ, trials=360, seed=2, keep_trials=True, policy="pubeval", **QUIET)
    seed_000 = rollout(
        BLITZ, trials=360, seed=2, keep_trials=True, rules=SEED_000_RULES, policy="pubeval", **QUIET
    )
    a, b = standard.to_frame(), seed_000.to_frame()
    won = (b.points > 0) & (b.end.astype(str) != "bearoff")
    assert (won == ((a.points > 0) & (a.end.astype(str) != "bearoff"))).all()
    bar = won & (b.end.astype(str) == "bar")
    outside = won & (b.end.astype(str) == "outside")
    assert bar.any() and outside.any()
    assert (b.points[bar] == 4.0).all() and (a.points[bar] == 3.0).all()
    assert (b.points[outside] == 2.0).all() and a.points[outside].isin([2.0, 3.0]).all()
    gained = int(bar.sum())
    lost = int((a.points[outside] == 3.0).sum())
    assert lost > gained
    assert seed_000.equity < standard.equity
    assert seed_000.equity - standard.equity == pytest.approx(
        (b.points - a.points).mean(), abs=1e-12
    )


def random_game(start: gl.Position, rng: np.random.Generator, scoring: str) -> int:
    """Points won by the side on roll at the start, random play through
    ``Position.legal_plays`` and ``Position.result``."""
    pos, side = start, 0
    while True:
        dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
        plays = pos.legal_plays(dice)
        if len(plays):
            pos = plays[int(rng.integers(len(plays)))].position
        else:
            pos = pos.swapped()  # R5.5
        side ^= 1
        result = pos.result(scoring=scoring)
        if result is not None:  # the side that has just played won (R8.1)
            return result.points if side == 1 else -result.points


@pytest.mark.parametrize("scoring", ["standard", "seed-000"])
@pytest.mark.parametrize(
    "start", [gl.Position.initial("hypergammon-3"), BLITZ], ids=["hypergammon-3", "blitz"]
)
def test_random_games_agree_with_a_plain_python_simulation(start, scoring):
    rng = np.random.default_rng(2024)
    games = 2500
    points = np.array([random_game(start, rng, scoring) for _ in range(games)])
    _, two, top = POINTS[scoring]
    reference = {
        "win": points > 0,
        "win_gammon": points >= two,
        "win_backgammon": points == top,
        "lose_gammon": points <= -two,
        "lose_backgammon": points == -top,
        "equity": points.astype(float),
    }
    res = rollout(
        start,
        trials=7200,
        seed=11,
        policy="random",
        bearoff_finish=False,
        rules=rules_for(scoring, start.variant.name),
        **QUIET,
    )
    assert res.scoring == scoring
    for name, sample in reference.items():
        mean = float(np.mean(sample))
        error = math.hypot(float(np.std(sample, ddof=1)) / math.sqrt(games), res.stderr[name])
        if error == 0.0:
            assert getattr(res, name) == mean, name
        else:
            assert abs(getattr(res, name) - mean) < 4.5 * error, (name, getattr(res, name), mean)


# -- shortcuts and options -------------------------------------------------------------------

# A race into a bear-off: most games end in the bear-off database when it is on.
RACE = gl.Position.from_board(
    board_of({8: 2, 6: 3, 5: 3, 4: 2, 2: 2}, {9: 1, 7: 2, 6: 3, 4: 3, 3: 2, 1: 2})
)


@pytest.mark.parametrize("policy", ["pubeval", "lockstep"])
def test_the_bearoff_finish_agrees_with_playing_out_under_seed_000(policy):
    """Both sides home, nobody on the bar and no contact: every game ends single under
    R8.4, so finishing with the database's win probability changes the figures by no
    more than its error (the database's one-sided play)."""
    chosen = flat_evaluator if policy == "lockstep" else policy
    trials = 1296 if policy == "pubeval" else 360
    on = rollout(
        RACE, trials=trials, seed=8, policy=chosen, rules=SEED_000_RULES, keep_trials=True, **QUIET
    )
    off = rollout(
        RACE,
        trials=trials,
        seed=8,
        policy=chosen,
        rules=SEED_000_RULES,
        bearoff_finish=False,
        keep_trials=True,
        **QUIET,
    )
    frame = on.to_frame()
    assert (frame.end.astype(str) == "bearoff").mean() > 0.5
    assert "single" in on.settings["bearoff_finish_method"]
    assert "R8.4" in on.settings["bearoff_finish_method"]
    played = off.to_frame()
    assert set(played.end.astype(str)) <= {"single", "outside", "bar"}
    for name in ("win", "win_gammon", "lose_gammon", "equity"):
        error = math.hypot(on.stderr[name], off.stderr[name])
        assert abs(getattr(on, name) - getattr(off, name)) <= 4 * error + 1e-12, name
    assert on.win_backgammon == off.win_backgammon == 0.0
    assert on.lose_backgammon == off.lose_backgammon == 0.0


def test_truncation_is_refused_under_seed_000():
    with pytest.raises(RolloutError, match=r"R8\.4"):
        rollout(
            RACE, trials=36, seed=1, truncate=2, evaluator="bearoff", rules=SEED_000_RULES, **QUIET
        )
    with pytest.raises(RolloutError, match=r"R8\.4"):
        rollout_plays(
            RACE,
            (3, 1),
            trials=36,
            seed=1,
            truncate=2,
            evaluator="bearoff",
            rules=SEED_000_RULES,
            **QUIET,
        )
    # R8.2 rules truncate as before
    res = rollout(
        RACE, trials=36, seed=1, truncate=2, evaluator="bearoff", rules=gl.Rules(), **QUIET
    )
    assert res.scoring == "standard" and res.settings["truncate"] == 2


def test_rules_must_be_of_the_positions_variant():
    with pytest.raises(RolloutError, match="nackgammon"):
        rollout(gl.Position.initial("nackgammon"), trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    with pytest.raises(RolloutError, match="Rules"):
        rollout(gl.Position.initial(), trials=36, seed=1, rules="seed-000", **QUIET)
    with pytest.raises(RolloutError, match="hypergammon-2"):
        rollout_many(
            [gl.Position.initial(), gl.Position.initial("hypergammon-2")],
            trials=36,
            seed=1,
            rules=SEED_000_RULES,
            **QUIET,
        )
    res = rollout(
        gl.Position.initial("nackgammon"),
        trials=36,
        seed=1,
        **QUIET,
        rules=gl.Rules(variant="nackgammon", scoring="seed-000", jacoby=True),
    )
    assert res.scoring == "seed-000" and "jacoby=True" in res.settings["rules"]


def test_rules_with_standard_scoring_change_nothing():
    plain = rollout(RACE, trials=72, seed=4, **QUIET)
    ruled = rollout(
        RACE, trials=72, seed=4, rules=gl.Rules(crawford=False, match_length=5), **QUIET
    )
    assert (
        ruled.equity == plain.equity
        and ruled.probabilities.tolist() == plain.probabilities.tolist()
    )
    assert ruled.settings["scoring"] == plain.settings["scoring"]


def test_displays_say_the_scoring():
    res = rollout(BLITZ, trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    assert "seed-000" in repr(res) and "R8.4" in repr(res)
    html = res._repr_html_()
    assert "win 4 (on the bar)" in html and "R8.4" in html
    series = res.to_series()
    assert series.attrs["scoring"] == "seed-000" and series["equity"] == res.equity
    assert series.round(4)["win"] == round(res.win, 4)  # numbers only
    table = rollout_many([BLITZ, RACE], trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    assert table.scoring.tolist() == ["seed-000", "seed-000"]
    plays = rollout_plays(BLITZ, (6, 5), top=2, trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    assert "R8.4" in plays.attrs["settings"]["scoring"]
    assert plays.attrs["scoring"] == "seed-000"
    kept = rollout(BLITZ, trials=36, seed=1, rules=SEED_000_RULES, keep_trials=True, **QUIET)
    assert kept.to_frame().attrs["scoring"] == "seed-000"
    standard = rollout(BLITZ, trials=36, seed=1, **QUIET)
    assert "seed-000" not in repr(standard)
    assert standard.to_series().attrs["scoring"] == "standard"
    assert "win backgammon" in standard._repr_html_()


def test_cube_theory_refuses_seed_000_figures():
    state = gl.GameState(BLITZ)
    with pytest.raises(gl.GammonlabError, match=r"R8\.4"):
        gl.rollout_cube(state, trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    res = rollout(BLITZ, trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    with pytest.raises(InvalidProbabilitiesError, match=r"R8\.4"):
        gl.cube_decision(state, res)
    with pytest.raises(InvalidProbabilitiesError, match=r"R8\.4"):
        gl.cube_decision(state, res.to_series())
    # R8.2 figures still go through
    cube = gl.rollout_cube(state, trials=36, seed=1, rules=gl.Rules(), **QUIET)
    assert cube.rollout.scoring == "standard"


def test_gammon_rates_plot_names_the_classes():
    import matplotlib.pyplot as plt

    seed_000 = rollout(BLITZ, trials=36, seed=1, rules=SEED_000_RULES, **QUIET)
    standard = rollout(BLITZ, trials=36, seed=1, **QUIET)
    fig, ax = plt.subplots()
    gl.plot_gammon_rates(seed_000, ax=ax)
    assert "R8.4" in ax.get_title(loc="left")
    assert any("4 points" in t.get_text() for t in ax.get_legend().get_texts())
    ax.clear()
    gl.plot_gammon_rates(standard, ax=ax)
    assert "Gammon" in ax.get_title(loc="left")
    with pytest.raises(gl.GammonlabError, match="scorings"):
        gl.plot_gammon_rates({"a": seed_000, "b": standard}, ax=ax)
    plt.close(fig)


# -- Acey-Deucey ------------------------------------------------------------------------------


def acey_board(on_roll: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    """Columns as given; the rest of each side's 15 checkers wait to enter."""
    board = np.zeros((2, 26), dtype=np.int8)
    for side, spots in enumerate((on_roll, opponent)):
        for col, count in spots.items():
            board[side, col] = count
    return board


@pytest.mark.parametrize(
    ("loser", "standard", "seed_000"),
    [
        ({}, END_BACKGAMMON, END_BACKGAMMON),  # all still to enter: as if on the bar
        ({6: 14}, END_BACKGAMMON, END_BACKGAMMON),  # one still to enter
        ({25: 1, 6: 14}, END_BACKGAMMON, END_BACKGAMMON),  # on the bar
        ({19: 1, 6: 14}, END_BACKGAMMON, END_GAMMON),  # in the winner's home: outside its own
        ({7: 1, 6: 14}, END_GAMMON, END_GAMMON),  # outside home, none off
        ({6: 15}, END_GAMMON, END_SINGLE),  # all home, none off
        ({0: 1, 8: 1, 6: 13}, END_SINGLE, END_GAMMON),  # one off, one outside
    ],
)
def test_acey_deucey_classes(loser, standard, seed_000):
    board = acey_board({0: 15}, loser)
    assert ka.acey_points(board, 15, STANDARD) == standard
    assert ka.acey_points(board, 15, SEED_000) == seed_000


@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_acey_deucey_last_checker_under_seed_000(policy):
    for loser, points in (({6: 14}, 4.0), ({8: 1, 0: 1, 6: 13}, 2.0), ({6: 15}, 1.0)):
        pos = gl.Position.from_board(acey_board({0: 14, 1: 1}, loser), variant="acey-deucey")
        res = rollout(
            pos,
            trials=36,
            seed=1,
            policy=policy,
            rules=gl.Rules(variant="acey-deucey", scoring="seed-000"),
            **QUIET,
        )
        assert res.win == 1.0 and res.equity == points and res.stderr["equity"] == 0.0


def test_acey_deucey_rollout_under_seed_000():
    home = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3}  # 13 home, 2 still to enter each
    pos = gl.Position.from_board(acey_board(home, home), variant="acey-deucey")
    rules = gl.Rules(variant="acey-deucey", scoring="seed-000")
    standard = rollout(pos, trials=144, seed=6, policy="random", keep_trials=True, **QUIET)
    seed_000 = rollout(
        pos, trials=144, seed=6, policy="random", keep_trials=True, rules=rules, **QUIET
    )
    assert seed_000.win == standard.win  # the same games
    assert "4 points" in seed_000.settings["acey_deucey_method"]
    assert seed_000.settings["bearoff_finish"] is False
    frame = seed_000.to_frame()
    assert set(frame.end.astype(str)) <= {"single", "outside", "bar"}
    assert set(frame.points.abs()) <= {1.0, 2.0, 4.0}
    assert frame.points.mean() == pytest.approx(seed_000.equity, abs=1e-12)
