"""The plot helpers: what each draws, the ax= contract, and clear errors for missing columns."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import same_color

import gammonlab as gl
from gammonlab import plot
from gammonlab.cube import cube_decision, cube_points
from gammonlab.draw.style import PLAYER_COLORS
from gammonlab.errors import GammonlabError
from gammonlab.match import ACTIONS
from gammonlab.plot import PlotDataError
from gammonlab.rollout import rollout, rollout_plays

AMBER, BLUE = PLAYER_COLORS


@pytest.fixture
def ax():
    fig, axes = plt.subplots(figsize=(8, 4.5))
    yield axes
    plt.close(fig)


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("a plot helper called show()"))
    monkeypatch.setattr(plt, "savefig", lambda *a, **k: pytest.fail("a plot helper saved"))


# -- hand-made frames ----------------------------------------------------------------------------


def action_frame() -> pd.DataFrame:
    """Two games of a 5-point match: a hit, a double taken, a double passed."""
    rows = [
        # game, index, player, action, pips, opp_pips, hits, cube
        (1, 0, 0, "move", 167, 167, 0, None),
        (1, 1, 1, "move", 167, 159, 1, None),  # Bea hits Ann
        (1, 2, 0, "move", 170, 160, 0, None),  # Ann's count jumped to 170
        (1, 3, 1, "double", 160, 165, None, 2),
        (1, 4, 0, "take", 165, 160, None, None),
        (1, 5, 1, "move", 160, 165, 0, None),
        (1, 6, 0, "move", 165, 150, 0, None),
        (1, 7, 0, "win", 0, 40, None, None),
        (2, 0, 1, "move", 167, 167, 0, None),
        (2, 1, 0, "move", 167, 159, 0, None),
        (2, 2, 1, "move", 159, 160, 0, None),
        (2, 3, 0, "double", 160, 150, None, 2),
        (2, 4, 1, "drop", 150, 160, None, None),
        (2, 5, 0, "win", 160, 150, None, None),
    ]
    frame = pd.DataFrame(
        rows,
        columns=["game", "action_index", "player", "action", "pips", "opp_pips", "hits", "cube"],
    )
    frame["player_name"] = frame["player"].map({0: "Ann", 1: "Bea"})
    frame["hits"] = frame["hits"].astype("Int8")
    frame["cube"] = frame["cube"].astype("Int32")
    frame["action"] = pd.Categorical(frame["action"], categories=list(ACTIONS))
    return frame


def analysis_frame() -> pd.DataFrame:
    """The action frame with analysis columns, each value from the mover's side."""
    frame = action_frame()
    moves = frame["action"] == "move"
    frame["played_equity"] = np.where(
        moves, [0.1, -0.2, 0.3, 0, 0, 0.5, 0.6, 0, 0.05, 0.1, -0.4, 0, 0, 0], np.nan
    )
    frame["mwc"] = np.where(
        moves | (frame["action"] == "double"),
        [0.5, 0.45, 0.6, 0.7, 0, 0.3, 0.8, 0, 0.6, 0.4, 0.7, 0.75, 0, 0],
        np.nan,
    )
    frame["equity_loss"] = np.where(
        moves, [0, 0.05, 0, 0, 0, 0.2, 0.09, 0, 0, 0.1, 0, 0, 0, 0], np.nan
    )
    classes = [
        "none",
        "doubtful",
        "none",
        None,
        None,
        "very bad",
        "bad",
        None,
        "none",
        "bad",
        "none",
        None,
        None,
        None,
    ]
    frame["error_class"] = pd.Categorical(
        classes, categories=["none", "doubtful", "bad", "very bad"], ordered=True
    )
    frame["luck"] = np.where(
        moves, [0.2, -0.1, 0.3, 0, 0, 0.05, -0.4, 0, 0.1, 0.1, -0.2, 0, 0, 0], np.nan
    )
    # Bea's double in game 1 was bad; her pass in game 2 very bad
    cube_classes = [
        None,
        "none",
        "none",
        "bad",
        "none",
        "none",
        "none",
        None,
        None,
        "none",
        "none",
        "none",
        "very bad",
        None,
    ]
    frame["cube_error_class"] = pd.Categorical(
        cube_classes, categories=["none", "doubtful", "bad", "very bad"]
    )
    frame["cube_equity_loss"] = [np.nan, 0, 0, 0.07, 0, 0, 0, np.nan, np.nan, 0, 0, 0, 0.3, np.nan]
    return frame


def games_frame() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "game": range(1, 9),
            "winner": [0, 0, 0, 1, 1, 1, 1, 1],
            "winner_name": ["Ann"] * 3 + ["Bea"] * 5,
            "points": [1, 2, 4, 1, 3, 2, 2, 1],
            "cube_value": [1, 1, 2, 1, 1, 1, 1, 1],
            "ending": [
                "single",
                "gammon",
                "gammon",
                "drop",
                "backgammon",
                "resign",
                "single",
                "resign",
            ],
            "complete": [True] * 7 + [False],
            "match_length": [0, 0, 7, 7, 7, 7, 7, 7],
        }
    )


def fake_rollout(win_gammon: float, lose_gammon: float, se: float = 0.01) -> SimpleNamespace:
    names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity"]
    values = [0.55, win_gammon, 0.01, lose_gammon, 0.005, 0.1]
    return SimpleNamespace(**dict(zip(names, values)), stderr=dict.fromkeys(names, se))


def line(ax, label):
    found = [artist for artist in ax.get_lines() if artist.get_label() == label]
    assert found, f"no line labelled {label!r}: {[a.get_label() for a in ax.get_lines()]}"
    return found[0]


def by_gid(artists, gid):
    return next(artist for artist in artists if artist.get_gid() == gid)


def legend_texts(ax) -> list[str]:
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


def bars(ax, gid=None) -> list:
    return [
        p for p in ax.patches if p.get_gid() is not None and (gid is None or p.get_gid() == gid)
    ]


@pytest.fixture(scope="module")
def small_rollout():
    return rollout(
        gl.Position.initial(), trials=144, seed=11, keep_trials=True, progress=False, n_jobs=1
    )


# -- the contract, for every helper -------------------------------------------------------------


def calls(rollout_result):
    plays = pd.DataFrame(
        {
            "play": ["8/5 6/5", "24/21 13/12", "13/10 6/5"],
            "equity": [0.16, 0.01, 0.05],
            "stderr": [0.01, 0.02, 0.015],
            "difference": [0.0, -0.15, -0.11],
            "difference_stderr": [0.0, 0.01, 0.012],
        }
    )
    return {
        "plot_pips": (plot.plot_pips, (action_frame(),), {}),
        "plot_gammon_rates": (plot.plot_gammon_rates, (games_frame(),), {}),
        "plot_rollout": (plot.plot_rollout, (rollout_result,), {}),
        "plot_first_rolls": (plot.plot_first_rolls, (rollout_result,), {}),
        "plot_plays": (plot.plot_plays, (plays,), {}),
        "plot_cube_decision": (
            plot.plot_cube_decision,
            ([0.7, 0.12, 0.005, 0.04, 0.002],),
            {"points": 21},
        ),
        "plot_equity": (plot.plot_equity, (analysis_frame(),), {}),
        "plot_luck": (plot.plot_luck, (analysis_frame(),), {}),
        "plot_errors": (plot.plot_errors, (analysis_frame(),), {}),
        "plot_met": (plot.plot_met, ("Kazaross-XG2",), {"max_away": 5}),
        "plot_board": (plot.plot_board, (gl.Position.initial(),), {}),
    }


HELPERS = [
    "plot_pips",
    "plot_gammon_rates",
    "plot_rollout",
    "plot_first_rolls",
    "plot_plays",
    "plot_cube_decision",
    "plot_equity",
    "plot_luck",
    "plot_errors",
    "plot_met",
    "plot_board",
]


def test_every_helper_is_public():
    assert sorted(HELPERS) == sorted(name for name in plot.__all__ if name.startswith("plot_"))


@pytest.mark.parametrize("name", HELPERS)
def test_draws_on_the_axes_given(name, small_rollout):
    function, args, kwargs = calls(small_rollout)[name]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    try:
        plt.sca(left)
        assert function(*args, ax=right, **kwargs) is right
        assert right.has_data() or right.images or right.patches
        assert not (left.lines or left.patches or left.collections or left.images)
    finally:
        plt.close(fig)


@pytest.mark.parametrize("name", HELPERS)
def test_without_ax_draws_on_the_current_axes(name, small_rollout):
    function, args, kwargs = calls(small_rollout)[name]
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    try:
        plt.sca(right)
        assert function(*args, **kwargs) is right
        assert not (left.lines or left.patches or left.collections)
    finally:
        plt.close(fig)


@pytest.mark.parametrize(
    "name, drop, message",
    [
        ("plot_pips", "opp_pips", "'opp_pips'"),
        ("plot_pips", "hits", "'hits'"),
        ("plot_gammon_rates", "ending", "'ending'"),
        ("plot_equity", "error_class", "'error_class'"),
        ("plot_luck", "luck", "'luck'"),
        ("plot_errors", "error_class", "'error_class'"),
    ],
)
def test_a_missing_column_is_named(name, drop, message, small_rollout):
    function, (frame,), kwargs = calls(small_rollout)[name]
    with pytest.raises(PlotDataError, match=message) as caught:
        function(frame.drop(columns=[drop]), **kwargs)
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, GammonlabError)
    assert name in str(caught.value)


def test_two_missing_columns_are_both_named():
    frame = action_frame().drop(columns=["pips", "game"])
    with pytest.raises(PlotDataError, match=r"columns 'game', 'pips'"):
        plot.plot_pips(frame)


def test_not_a_frame_is_refused():
    with pytest.raises(PlotDataError, match="needs a pandas DataFrame"):
        plot.plot_pips([1, 2, 3])
    with pytest.raises(PlotDataError, match="no rows"):
        plot.plot_luck(analysis_frame().iloc[:0])


# -- pip counts ----------------------------------------------------------------------------------


def test_pips_lines_per_player_break_between_games(ax):
    plot.plot_pips(action_frame(), ax=ax)
    ann, bea = line(ax, "Ann"), line(ax, "Bea")
    assert same_color(ann.get_color(), AMBER) and same_color(bea.get_color(), BLUE)
    y = ann.get_ydata()
    # game 1: Ann's count at each of its 8 rows, a break, then game 2's 6 rows
    assert np.isnan(y[8]) and len(y) == 8 + 1 + 6
    assert list(y[:8]) == [167, 159, 170, 165, 165, 165, 165, 0]
    assert list(ann.get_xdata()[:8]) == [1, 2, 3, 3.5, 3.5, 4, 5, 5.5]
    assert ann.get_xdata()[9] == 7  # game 1 takes 5 rolls and a gap: game 2 starts at 6
    assert ax.get_xlim() == (0.0, 10.0)
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= 170
    assert ax.get_ylabel() == "pip count" and "Ann vs Bea" in ax.get_title(loc="left")
    assert legend_texts(ax) == ["Ann", "Bea", "hit", "double: cube value, answer"]


def test_pips_marks_hits_on_the_hit_players_jump(ax):
    plot.plot_pips(action_frame(), ax=ax)
    hits = [c for c in ax.collections if c.get_gid() == "hits"]
    assert len(hits) == 1
    assert hits[0].get_offsets().tolist() == [[3.0, 170.0]]


def test_pips_marks_doubles_with_value_and_answer(ax):
    plot.plot_pips(action_frame(), ax=ax)
    cubes = {
        t.get_text(): t.get_gid() for t in ax.texts if (t.get_gid() or "").startswith("double")
    }
    assert cubes == {"2 take": "double player-1", "2 pass": "double player-0"}


def test_pips_one_game_and_options(ax):
    plot.plot_pips(action_frame(), game=2, hits=False, cube=False, ax=ax)
    assert ax.get_xlabel() == "roll (game 2)"
    assert not ax.collections and not ax.texts
    assert legend_texts(ax) == ["Ann", "Bea"]
    frame = action_frame().drop(columns=["hits"])
    plot.plot_pips(frame, hits=False, ax=ax)  # hits= False needs no hits column
    with pytest.raises(PlotDataError, match="no game"):
        plot.plot_pips(action_frame(), game=9, ax=ax)


def test_pips_refuses_many_matches(ax):
    frame = pd.concat([action_frame().assign(match="a"), action_frame().assign(match="b")])
    with pytest.raises(PlotDataError, match="one match"):
        plot.plot_pips(frame, ax=ax)


def test_pips_of_a_real_match(ax, shared_data):
    path = shared_data / "mat" / "gnubg_synthetic" / "gnubg_selfplay_7pt_crawford_resign.mat"
    frame = gl.read_match(path).to_frame()
    plot.plot_pips(frame, ax=ax, linewidth=1.5)
    assert line(ax, frame.player_name[frame.player == 0].iloc[0]).get_linewidth() == 1.5
    top = [t.get_text() for t in ax.child_axes[0].get_xticklabels()]
    assert len(top) == frame.game.nunique()


# -- gammon rates --------------------------------------------------------------------------------


def test_wilson_interval_matches_known_values():
    low, high = plot.matches._wilson(np.array([0, 5, 10]), np.array([10, 10, 10]))
    assert np.allclose(low, [0.0, 0.236593, 0.722467], atol=1e-6)
    assert np.allclose(high, [0.277533, 0.763407, 1.0], atol=1e-6)


def test_gammon_rates_by_player(ax):
    plot.plot_gammon_rates(games_frame(), by="winner", ax=ax)
    gammons, backgammons = bars(ax, "gammon"), bars(ax, "backgammon")
    # Ann won 3 (2 gammons); Bea 4 complete games: a backgammon, a resigned gammon
    assert [b.get_height() for b in gammons] == pytest.approx([2 / 3, 2 / 4])
    assert [b.get_height() for b in backgammons] == pytest.approx([0, 1 / 4])
    assert same_color(gammons[0].get_facecolor(), AMBER)
    assert same_color(gammons[1].get_facecolor(), BLUE)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["player 0\nn=3", "player 1\nn=4"]
    assert ax.get_ylabel() == "share of games won"
    assert legend_texts(ax) == ["gammon or backgammon", "backgammon"]
    whiskers = ax.containers[1].lines[2][0].get_segments()  # the gammon bars' error bars
    low, high = plot.matches._wilson(np.array([2, 2]), np.array([3, 4]))
    assert [s[0][1] for s in whiskers] == pytest.approx(low)
    assert [s[1][1] for s in whiskers] == pytest.approx(high)


def test_gammon_rates_by_name_in_one_match_use_player_colours(ax):
    plot.plot_gammon_rates(games_frame(), ax=ax)  # by winner_name
    assert [t.get_text() for t in ax.get_xticklabels()] == ["Bea\nn=4", "Ann\nn=3"]
    assert same_color(bars(ax, "gammon")[0].get_facecolor(), BLUE)


def test_gammon_rates_by_match_length(ax):
    plot.plot_gammon_rates(games_frame(), by="match_length", ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["money\nn=2", "7-point\nn=5"]
    assert [b.get_height() for b in bars(ax, "gammon")] == pytest.approx([0.5, 3 / 5])
    assert same_color(bars(ax, "gammon")[0].get_facecolor(), plot.NEUTRAL_BAR)
    assert ax.get_xlabel() == "match length" and ax.get_ylabel() == "share of games"
    ax.clear()
    plot.plot_gammon_rates(games_frame(), by="match_length", min_games=3, ax=ax)
    assert len(bars(ax)) == 2
    with pytest.raises(PlotDataError, match="no group"):
        plot.plot_gammon_rates(games_frame(), by="match_length", min_games=50, ax=ax)
    with pytest.raises(PlotDataError, match="'match_length'"):
        plot.plot_gammon_rates(
            games_frame().drop(columns=["match_length"]), by="match_length", ax=ax
        )


def test_gammon_rates_from_rollouts(ax):
    results = {"opening": fake_rollout(0.2, 0.1), "blitz": fake_rollout(0.3, 0.05, se=0.02)}
    plot.plot_gammon_rates(results, ax=ax)
    own = bars(ax, "side on roll gammon")
    theirs = bars(ax, "opponent gammon")
    assert [b.get_height() for b in own] == pytest.approx([0.2, 0.3])
    assert [b.get_height() for b in theirs] == pytest.approx([0.1, 0.05])
    assert all(same_color(b.get_facecolor(), AMBER) for b in own)
    assert all(same_color(b.get_facecolor(), BLUE) for b in theirs)
    assert len(bars(ax)) == 8
    assert [t.get_text() for t in ax.get_xticklabels()] == ["opening", "blitz"]
    whiskers = ax.containers[1].lines[2][0].get_segments()
    assert whiskers[1][1][1] - whiskers[1][0][1] == pytest.approx(2 * 1.959964 * 0.02)
    assert "side on roll: gammon or better" in legend_texts(ax)


def test_gammon_rates_from_a_rollout_result_and_rollout_many(ax, small_rollout):
    plot.plot_gammon_rates(small_rollout, ax=ax)
    assert bars(ax, "side on roll gammon")[0].get_height() == pytest.approx(
        small_rollout.win_gammon
    )
    ax.clear()
    frame = pd.DataFrame([small_rollout.to_series()])
    plot.plot_gammon_rates(frame, ax=ax)
    assert bars(ax, "opponent backgammon")[0].get_height() == pytest.approx(
        small_rollout.lose_backgammon
    )
    with pytest.raises(PlotDataError, match="'stderr_win_gammon'"):
        plot.plot_gammon_rates(frame.drop(columns=["stderr_win_gammon"]), ax=ax)
    with pytest.raises(PlotDataError, match="games frame or rollout results"):
        plot.plot_gammon_rates(42, ax=ax)


# -- rollouts ------------------------------------------------------------------------------------


def test_rollout_convergence_ends_at_the_rollouts_own_numbers(ax, small_rollout):
    plot.plot_rollout(small_rollout, ax=ax)
    equity = line(ax, "equity so far")
    assert equity.get_xdata().tolist() == [36, 72, 108, 144]
    assert equity.get_ydata()[-1] == pytest.approx(small_rollout.equity, abs=1e-12)
    band = by_gid(ax.collections, "band")
    top = band.get_paths()[0].vertices[:, 1].max()
    half = 1.959963984540054 * small_rollout.stderr["equity"]
    final = line(ax, f"final {small_rollout.equity:+.3f} ± {half:.3f}")
    assert final.get_ydata()[0] == pytest.approx(small_rollout.equity)
    assert top >= small_rollout.equity + half - 1e-12
    assert "blocks of 36" in ax.get_xlabel() and "144 trials" in ax.get_title(loc="left")
    assert legend_texts(ax)[:2] == ["95% interval", "equity so far"]


def test_rollout_stderr_is_the_stratified_one(small_rollout):
    _, _, stderr, rotated = plot.rollouts._running_equity(small_rollout.to_frame())
    assert rotated
    assert stderr[-1] == pytest.approx(small_rollout.stderr["equity"], rel=1e-9)


def test_rollout_without_variance_reduction_is_drawn_trial_by_trial(ax):
    res = rollout(
        gl.Position.initial(),
        trials=40,
        seed=2,
        keep_trials=True,
        variance_reduction=False,
        progress=False,
        n_jobs=1,
    )
    plot.plot_rollout(res, ax=ax)
    assert line(ax, "equity so far").get_xdata().tolist() == list(range(2, 41))
    assert "blocks" not in ax.get_xlabel()


def test_rollout_convergence_needs_its_trials(ax):
    res = rollout(gl.Position.initial(), trials=36, seed=2, progress=False, n_jobs=1)
    with pytest.raises(PlotDataError, match="keep_trials=True"):
        plot.plot_rollout(res, kind="convergence", ax=ax)
    with pytest.raises(PlotDataError, match="'points'"):
        plot.plot_first_rolls(pd.DataFrame({"trial": [0], "die1": [1], "die2": [2]}), ax=ax)


OUTCOMES = ["win", "win gammon", "win backgammon", "lose", "lose gammon", "lose backgammon"]


def outcome_bars(ax) -> dict[str, float]:
    return {
        p.get_gid().removeprefix("outcome "): p.get_height()
        for p in ax.patches
        if (p.get_gid() or "").startswith("outcome ")
    }


def test_a_default_rollout_draws_its_outcomes(ax):
    res = rollout(gl.Position.initial(), trials=72, seed=3, progress=False, n_jobs=1)
    assert plot.plot_rollout(res, ax=ax) is ax
    heights = outcome_bars(ax)
    assert list(heights) == OUTCOMES
    assert heights["win"] == pytest.approx(res.win)
    assert heights["lose"] == pytest.approx(1 - res.win)
    assert heights["lose gammon"] == pytest.approx(res.lose_gammon)
    assert [t.get_text() for t in ax.get_xticklabels()] == OUTCOMES
    # 95% error bars: 1.96 standard errors either side of each bar
    whiskers = next(c for c in ax.collections if len(c.get_segments()) == len(OUTCOMES))
    low, high = whiskers.get_segments()[0][:, 1]
    assert (high - low) / 2 == pytest.approx(1.959963984540054 * res.stderr["win"])
    assert f"{res.win:.1%}" in [t.get_text() for t in ax.texts]
    half = 1.959963984540054 * res.stderr["equity"]
    assert f"equity {res.equity:+.3f} ± {half:.3f}" in ax.get_title(loc="left")
    assert ax.get_ylabel() == "chance of the side on roll"
    ax.clear()
    plot.plot_rollout(res.to_series(), ax=ax)  # its Series draws the same
    assert outcome_bars(ax) == pytest.approx(heights)


def test_outcomes_from_the_opponents_side(ax):
    res = rollout(gl.Position.initial(), trials=72, seed=3, progress=False, n_jobs=1)
    plot.plot_rollout(res, side="opponent", name="Bea", ax=ax)
    heights = outcome_bars(ax)
    assert heights["win"] == pytest.approx(1 - res.win)
    assert heights["win gammon"] == pytest.approx(res.lose_gammon)
    assert heights["lose backgammon"] == pytest.approx(res.win_backgammon)
    assert ax.get_ylabel() == "Bea's chance"
    assert f"Bea's equity {-res.equity:+.3f}" in ax.get_title(loc="left")


def test_kept_trials_draw_the_convergence_and_may_draw_the_outcomes(ax, small_rollout):
    plot.plot_rollout(small_rollout, ax=ax)
    assert line(ax, "equity so far") and not outcome_bars(ax)
    ax.clear()
    plot.plot_rollout(small_rollout, kind="outcomes", ax=ax)
    assert list(outcome_bars(ax)) == OUTCOMES
    with pytest.raises(PlotDataError, match="per-trial frame"):
        plot.plot_rollout(small_rollout.to_frame(), kind="outcomes", ax=ax)


def test_rollout_refuses_what_it_cannot_draw(ax, small_rollout):
    with pytest.raises(PlotDataError, match="RolloutResult, its to_frame"):
        plot.plot_rollout(42, ax=ax)
    with pytest.raises(PlotDataError, match="kind must be"):
        plot.plot_rollout(small_rollout, kind="bars", ax=ax)
    with pytest.raises(PlotDataError, match="side must be"):
        plot.plot_rollout(small_rollout, side="mover", ax=ax)
    with pytest.raises(PlotDataError, match="stderr_equity"):
        plot.plot_rollout(small_rollout.to_series().drop("stderr_equity"), ax=ax)


def test_rollout_convergence_from_the_side_that_played(ax, small_rollout):
    """The position after a play has the opponent on roll: its equity, turned round."""
    plot.plot_rollout(small_rollout, side="opponent", name="Bea", ax=ax)
    equity = line(ax, "equity so far")
    assert equity.get_ydata()[-1] == pytest.approx(-small_rollout.equity, abs=1e-12)
    half = 1.959963984540054 * small_rollout.stderr["equity"]
    final = line(ax, f"final {-small_rollout.equity:+.3f} ± {half:.3f}")
    assert final.get_ydata()[0] == pytest.approx(-small_rollout.equity)
    assert ax.get_ylabel() == "Bea's equity (cubeless)"
    assert f"Bea's equity {-small_rollout.equity:+.3f}" in ax.get_title(loc="left")
    band = by_gid(ax.collections, "band").get_paths()[0].vertices[:, 1]
    assert band.min() <= -small_rollout.equity - half + 1e-12
    ax.clear()
    plot.plot_rollout(small_rollout, side="opponent", ax=ax)
    assert ax.get_ylabel() == "equity of the opponent of the side on roll (cubeless)"


def test_first_rolls(ax, small_rollout):
    plot.plot_first_rolls(small_rollout, order="roll", ax=ax)
    rolls = bars(ax)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert len(rolls) == 21 and labels[:3] == ["1-1", "2-1", "2-2"] and labels[-1] == "6-6"
    frame = small_rollout.to_frame()
    pair = frame[((frame.die1 == 2) & (frame.die2 == 1)) | ((frame.die1 == 1) & (frame.die2 == 2))]
    assert rolls[1].get_height() == pytest.approx(pair.points.mean())
    for bar in rolls:
        assert same_color(bar.get_facecolor(), AMBER if bar.get_height() >= 0 else BLUE)
    assert ax.get_xlabel() == "first roll"
    ax.clear()
    plot.plot_first_rolls(small_rollout.to_frame(), ax=ax)
    heights = [b.get_height() for b in bars(ax)]
    assert heights == sorted(heights, reverse=True)
    with pytest.raises(PlotDataError, match="order"):
        plot.plot_first_rolls(small_rollout, order="dice", ax=ax)


# -- candidate plays -----------------------------------------------------------------------------


def test_plays_best_on_top_with_95_percent_bars(ax, small_rollout):
    _, (plays,), _ = calls(small_rollout)["plot_plays"]
    plot.plot_plays(plays, ax=ax)
    assert [t.get_text() for t in ax.get_yticklabels()] == ["8/5 6/5", "13/10 6/5", "24/21 13/12"]
    bars_x = ax.containers[0].lines[2][0].get_segments()
    assert [s[1][0] - s[0][0] for s in bars_x] == pytest.approx(
        [2 * 1.959964 * se for se in (0.01, 0.015, 0.02)], rel=1e-5
    )
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # the best play on top
    best = by_gid(ax.collections, "best")
    assert best.get_offsets().tolist() == [[0.16, 0.0]]
    assert "+0.160 ± 0.020" in [t.get_text() for t in ax.texts]
    ax.clear()
    plot.plot_plays(plays, value="difference", ax=ax)
    assert "difference" in ax.get_xlabel()
    with pytest.raises(PlotDataError, match="'stderr'"):
        plot.plot_plays(plays.drop(columns=["stderr"]), ax=ax)


def test_plays_from_a_real_rollout(ax):
    plays = rollout_plays(
        gl.Position.initial(), (4, 3), top=3, trials=36, seed=1, progress=False, n_jobs=1
    )
    plot.plot_plays(plays, ax=ax)
    assert len(ax.get_yticklabels()) == 3
    assert "36 trials" in ax.get_title(loc="left")


# -- cube decisions ------------------------------------------------------------------------------


PROBABILITIES = [0.70, 0.12, 0.005, 0.04, 0.002]


def test_cube_decision_curves_are_cube_decisions(ax):
    plot.plot_cube_decision(PROBABILITIES, points=31, ax=ax)
    no_double, take, cash = (
        line(ax, name) for name in ("No double", "Double, take", "Double, pass")
    )
    x = no_double.get_xdata()
    assert x[0] == pytest.approx(0.4) and x[-1] == 1.0 and len(x) == 31  # from below 50%
    for i in (3, 17, 29):
        ratio = np.array(PROBABILITIES)
        probabilities = [
            x[i],
            x[i] * ratio[1] / ratio[0],
            x[i] * ratio[2] / ratio[0],
            (1 - x[i]) * ratio[3] / 0.3,
            (1 - x[i]) * ratio[4] / 0.3,
        ]
        decision = cube_decision(None, probabilities)
        assert no_double.get_ydata()[i] == pytest.approx(decision.no_double)
        assert take.get_ydata()[i] == pytest.approx(decision.double_take)
        assert cash.get_ydata()[i] == pytest.approx(1.0)
    here = by_gid(ax.collections, "position")
    assert here.get_offsets().tolist()[0] == pytest.approx(
        [0.70, cube_decision(None, PROBABILITIES).equity]
    )
    marks = cube_points(None, PROBABILITIES)
    lines = {artist.get_gid(): artist.get_xdata()[0] for artist in ax.get_lines()}
    assert lines["double point"] == pytest.approx(marks.double_point)
    assert lines["cash point"] == pytest.approx(marks.cash_point)
    texts = [t.get_text() for t in ax.texts]
    assert any(f"take point {marks.take_point:.1%}" in t for t in texts)
    regions = [p.get_gid() for p in ax.patches if (p.get_gid() or "").startswith("region")]
    assert regions == [
        "region No double",
        "region Double, take",
        "region Double, pass",
        "region Too good",
    ]
    assert "Double, take" in ax.get_title(loc="left")
    assert legend_texts(ax) == [
        "No double",
        "Double, take",
        "Double, pass",
        "proper cube action",
        "this position",
    ]


def test_cube_decision_in_a_match_is_in_match_winning_chances(ax):
    state = gl.GameState.initial(match_length=7, score=(3, 5))
    decision = cube_decision(state, PROBABILITIES)
    plot.plot_cube_decision(decision, state=state, points=21, ax=ax)
    here = by_gid(ax.collections, "position")
    assert here.get_offsets().tolist()[0] == pytest.approx([0.70, decision.mwc])
    assert ax.get_ylabel() == "match winning chance"
    assert "4-away, 2-away" in ax.get_title(loc="left")
    ax.clear()
    plot.plot_cube_decision(PROBABILITIES, state=state, mwc=False, points=11, ax=ax)
    assert ax.get_ylabel().startswith("equity")


def test_cube_decision_against_gammons(ax):
    plot.plot_cube_decision(PROBABILITIES, x="gammons", points=21, ax=ax)
    assert ax.get_xlim() == pytest.approx((0.0, 0.70))
    assert "gammon" in ax.get_xlabel()
    here = by_gid(ax.collections, "position")
    assert here.get_offsets().tolist()[0][0] == pytest.approx(0.12)


def test_cube_decision_without_a_cube_to_turn(ax):
    crawford = gl.GameState.initial(match_length=5, score=(4, 2)).replace(crawford=True)
    with pytest.raises(PlotDataError, match="Crawford"):
        plot.plot_cube_decision(PROBABILITIES, state=crawford, ax=ax)
    with pytest.raises(PlotDataError, match="x must be"):
        plot.plot_cube_decision(PROBABILITIES, x="pips", ax=ax)


def overlapping_texts(ax) -> list[tuple[str, str]]:
    """The pairs of texts of the axes whose boxes, with a point of margin, overlap when drawn."""
    ax.figure.canvas.draw()
    margin = ax.figure.dpi / 72  # one point, in pixels
    boxes = [
        (t.get_text(), t.get_window_extent().padded(margin)) for t in ax.texts if t.get_visible()
    ]
    return [
        (first, second)
        for i, (first, a) in enumerate(boxes)
        for second, b in boxes[i + 1 :]
        if a.overlaps(b)
    ]


@pytest.mark.parametrize(
    ("score", "size"),
    [
        ((5, 3), (9, 4.5)),  # 2-away, 4-away: the three cube points within 5%
        ((5, 3), (5, 3)),
        ((3, 5), (9, 4.5)),
        ((0, 0), (6, 4)),
        (None, (8, 4.5)),
        (None, (4, 3)),
    ],
)
def test_cube_decision_labels_never_overlap(score, size):
    chances = [0.70, 0.20, 0.01, 0.05, 0.00]
    state = None if score is None else gl.GameState.initial(match_length=7, score=score)
    fig, ax = plt.subplots(figsize=size)
    try:
        plot.plot_cube_decision(chances, state=state, ax=ax)
        assert overlapping_texts(ax) == []
        marks = cube_points(state, chances)
        low, high = ax.get_xlim()
        wanted = [
            name
            for name, where in [
                ("double point", marks.double_point),
                ("cash point", marks.cash_point),
                ("too good", marks.too_good_point),
            ]
            if where is not None and low < where < high
        ]
        lines = [line.get_gid() for line in ax.get_lines() if line.get_gid() in wanted]
        assert sorted(lines) == sorted(wanted)
        # every cube point is named once: by a label along its line or in the legend
        labels = [t.get_gid().removesuffix(" label") for t in ax.texts if t.get_gid()]
        in_legend = [text.split(" ")[0] for text in legend_texts(ax) if "%" in text]
        assert len(labels) + len(in_legend) == len(wanted)
        assert set(labels) <= set(wanted)
    finally:
        plt.close(fig)


# -- analysed matches ----------------------------------------------------------------------------


def test_equity_from_player_0s_side_with_errors_marked(ax):
    plot.plot_equity(analysis_frame(), y="played_equity", ax=ax)
    value = by_gid(ax.get_lines(), "value")
    y = value.get_ydata()
    # Bea's equities flip sign; cube rows and the end are interpolated within the game
    assert y[:3].tolist() == pytest.approx([0.1, 0.2, 0.3])
    assert np.isnan(y).sum() == 1  # the break between the games
    marks = {c.get_gid(): c for c in ax.collections if (c.get_gid() or "").startswith("errors")}
    assert sorted(marks) == [
        "errors checker play bad",
        "errors checker play doubtful",
        "errors checker play very bad",
        "errors cube bad",
        "errors cube very bad",
    ]
    bad = marks["errors checker play bad"]
    # Ann's bad play in game 1 (roll 5) and in game 2 (roll 8)
    assert bad.get_offsets()[:, 0].tolist() == [5.0, 8.0]
    assert all(same_color(c, AMBER) for c in bad.get_facecolors())
    assert same_color(marks["errors checker play very bad"].get_facecolors()[0], BLUE)
    # cube errors: hollow marks edged in the erring player's colour, between the rolls
    cube = marks["errors cube bad"]
    assert cube.get_offsets()[:, 0].tolist() == [3.5]
    assert same_color(cube.get_facecolors()[0], "white")
    assert same_color(cube.get_edgecolors()[0], BLUE)
    assert legend_texts(ax) == [
        "Ann ahead / erring",
        "Bea ahead / erring",
        "doubtful (1)",
        "bad (3)",
        "very bad (2)",
        "hollow: cube",
    ]
    assert ax.get_ylabel() == "Ann's equity"


def test_equity_as_match_winning_chance(ax):
    plot.plot_equity(analysis_frame(), ax=ax)  # 'mwc' when the frame has it
    value = by_gid(ax.get_lines(), "value")
    assert value.get_ydata()[:3].tolist() == pytest.approx([0.5, 0.55, 0.6])
    assert ax.get_ylim() == (0.0, 1.0)
    assert "Match winning chance through the match" in ax.get_title(loc="left")
    ax.clear()
    plot.plot_equity(analysis_frame().drop(columns=["error_class"]), errors=False, ax=ax)
    assert not [c for c in ax.collections if (c.get_gid() or "").startswith("errors")]
    with pytest.raises(PlotDataError, match="'win_chance'"):
        plot.plot_equity(analysis_frame(), y="win_chance", ax=ax)


def test_equity_line_stops_at_the_last_value_of_a_game(ax):
    frame = analysis_frame()
    last_move = frame.index[(frame["game"] == 1) & (frame["action"] == "move")][-1]
    frame.loc[last_move, "played_equity"] = np.nan  # game 1's last roll has no value
    plot.plot_equity(frame, y="played_equity", ax=ax)
    value = by_gid(ax.get_lines(), "value")
    x, y = value.get_xdata(), value.get_ydata()
    game_1 = x[: int(np.flatnonzero(np.isnan(y))[0])]
    # the line ends at roll 4 (Bea's, the last value), not carried flat on to roll 5 and
    # the end; the double and the take between rolls 3 and 4 are interpolated
    assert game_1.tolist() == [1.0, 2.0, 3.0, 3.5, 3.5, 4.0]


def test_luck_counts_rolls_only(ax):
    """A resignation's row may carry the luck of a roll not played: it is no move, and
    the totals are the ones :func:`gammonlab.summarise` gives."""
    frame = analysis_frame()
    frame.loc[frame["action"] == "win", "luck"] = -0.25
    plot.plot_luck(frame, ax=ax)
    assert legend_texts(ax) == ["Ann +0.20", "Bea -0.15"]
    assert "Ann +0.20, Bea -0.15" in ax.get_title(loc="left")


def test_luck_adds_up_per_player(ax):
    plot.plot_luck(analysis_frame(), ax=ax)
    ann = by_gid(ax.get_lines(), "luck player-0")
    bea = by_gid(ax.get_lines(), "luck player-1")
    assert ann.get_ydata()[-1] == pytest.approx(0.2 + 0.3 - 0.4 + 0.1)
    assert bea.get_ydata()[-1] == pytest.approx(-0.1 + 0.05 + 0.1 - 0.2)
    assert same_color(ann.get_color(), AMBER) and ann.get_drawstyle() == "steps-post"
    assert legend_texts(ax) == ["Ann +0.20", "Bea -0.15"]
    assert "Ann +0.20" in ax.get_title(loc="left")


def test_errors_by_class_and_player(ax):
    plot.plot_errors(analysis_frame(), ax=ax)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["doubtful", "bad", "very bad"]

    def heights(prefix):
        return [b.get_height() for b in ax.patches if (b.get_gid() or "").startswith(prefix)]

    assert heights("errors player-0 checker play") == [0, 2, 0]
    assert heights("errors player-0 cube") == [0, 0, 0]
    assert heights("errors player-1 checker play") == [1, 0, 1]
    assert heights("errors player-1 cube") == [0, 1, 1]
    cube_bars = [b for b in ax.patches if (b.get_gid() or "").startswith("errors player-1 cube")]
    assert [b.get_y() for b in cube_bars] == [1, 0, 1]  # stacked on the checker-play errors
    assert cube_bars[0].get_hatch() == "///"
    assert same_color(ax.patches[0].get_facecolor(), AMBER)
    assert legend_texts(ax) == ["Ann", "Ann, cube", "Bea", "Bea, cube"]
    assert "Ann 2 (−0.190), Bea 4 (−0.620)" in ax.get_title(loc="left")
    labels = [t.get_text() for t in ax.texts]
    assert "2\n−0.500" in labels and "1\n−0.070" in labels  # Bea: very bad, bad
    ax.clear()
    plot.plot_errors(
        analysis_frame().drop(columns=["cube_error_class"]), value="equity_loss", ax=ax
    )
    assert heights("errors player-1") == pytest.approx([0.05, 0.0, 0.2])
    with pytest.raises(PlotDataError, match="names no error class"):
        plot.plot_errors(analysis_frame().assign(error_class="none"), ax=ax)


def errors_frame(n: int) -> pd.DataFrame:
    """Bea's ``n`` more very bad errors make the tallest bar, at the right, where a legend
    inside the axes would stand."""
    frame = analysis_frame()
    extra = pd.concat([frame[frame["action"] == "move"].head(1)] * n, ignore_index=True)
    extra["player"], extra["player_name"] = 1, "Bea"
    extra["error_class"] = pd.Categorical(
        ["very bad"] * n, categories=frame["error_class"].cat.categories, ordered=True
    )
    extra["equity_loss"] = 0.6
    extra["cube_error_class"] = "none"
    return pd.concat([frame, extra], ignore_index=True)


@pytest.mark.parametrize("n", [3, 11])
@pytest.mark.parametrize("value", ["count", "equity_loss"])
@pytest.mark.parametrize("size, layout", [((8.0, 4.4), "constrained"), ((6.4, 4.8), None)])
def test_errors_legend_covers_no_label(n, value, size, layout):
    fig = plt.figure(figsize=size, layout=layout)
    try:
        ax = plot.plot_errors(errors_frame(n), value=value, ax=fig.add_subplot())
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        legend = ax.get_legend().get_window_extent(renderer)
        labels = [t for t in ax.texts if t.get_text()]
        assert len(labels) == 6  # a label on each bar
        others = [*labels, ax.title, ax._left_title, ax.xaxis.label, ax.yaxis.label]
        others += [t for t in ax.get_xticklabels() + ax.get_yticklabels() if t.get_text()]
        for text in others:
            if text.get_text():
                box = text.get_window_extent(renderer)
                assert not legend.overlaps(box), f"the legend covers {text.get_text()!r}"
    finally:
        plt.close(fig)


def test_errors_without_cube_judgements_draw_no_cube_bars(ax):
    frame = analysis_frame().assign(cube_error_class=pd.NA, cube_equity_loss=np.nan)
    plot.plot_errors(frame, ax=ax)
    assert not [b for b in ax.patches if " cube " in (b.get_gid() or "")]
    assert legend_texts(ax) == ["Ann", "Bea"]


# -- match equity tables -------------------------------------------------------------------------


def test_met_heat_map(ax):
    table = gl.met.load()
    plot.plot_met(table, max_away=7, ax=ax)
    image = ax.images[0]
    assert image.get_array().shape == (7, 7)
    assert image.get_array()[2, 4] == pytest.approx(table.equity(3, 5))
    assert len(ax.texts) == 49 and ax.texts[4].get_text() == "84"
    assert same_color(image.cmap(1.0), AMBER) and same_color(image.cmap(0.0), BLUE)
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(i) for i in range(1, 8)]
    assert table.name in ax.get_title(loc="left")
    ax.clear()
    plot.plot_met(table.to_frame(), annotate=False, colorbar=True, ax=ax)
    assert ax.images[0].get_array().shape == (11, 11) and not ax.texts
    assert len(ax.figure.axes) == 2  # the colour bar
    with pytest.raises(PlotDataError, match="square"):
        plot.plot_met(table.to_frame("post-crawford"), ax=ax)
    with pytest.raises(PlotDataError, match="MatchEquityTable"):
        plot.plot_met(3, ax=ax)


def test_lazy_names_on_the_package():
    for name in [name for name in plot.__all__ if name.startswith("plot_")]:
        assert getattr(gl, name) is getattr(plot, name)
    with pytest.raises(AttributeError, match="plot_nothing"):
        gl.plot_nothing  # noqa: B018


def test_rollout_band_uses_the_rollouts_own_errors_from_the_first_block():
    """A one-block rollout: its band's error is the rollout's reported error."""
    from gammonlab.rollout import rollout

    result = rollout(
        gl.Position.initial(), trials=36, seed=5, keep_trials=True, progress=False, n_jobs=1
    )
    trials, _, stderr, rotated = plot.rollouts._running_equity(result.to_frame())
    assert rotated and list(trials) == [36]
    assert stderr[0] == pytest.approx(result.stderr["equity"], rel=1e-9)


@pytest.mark.parametrize("name", [name for name in plot.__all__ if name.startswith("plot_")])
def test_every_helper_has_one_shape(name):
    """plot_x(data, *, <options>, ax=None, **kwargs) -> Axes, its kwargs documented."""
    helper = getattr(plot, name)
    parameters = list(inspect.signature(helper).parameters.values())
    first, *rest = parameters
    assert first.name == "data" and first.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert rest[-1].kind is inspect.Parameter.VAR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in rest[:-1])
    ax = next(p for p in rest if p.name == "ax")
    assert ax.default is None
    assert inspect.signature(helper).return_annotation in ("Axes", "matplotlib.axes.Axes")
    doc = inspect.getdoc(helper)
    assert "**kwargs" in doc and "Returns" in doc
