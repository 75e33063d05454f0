"""Match analysis: agreement with GNU Backgammon's own analyses, luck, error classes, PR,
summaries, many matches and the command line."""

from __future__ import annotations

import argparse
import math
import warnings
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import SET_CORPUS, SHARED_DATA, needs_corpus, needs_gnubg, needs_if

import gammonlab as gl
from gammonlab import cube as cube_theory
from gammonlab.analysis import (
    ANALYSIS_COLUMNS,
    CUBE_ERRORS,
    ERROR_CLASSES,
    analyse,
    analyse_matches,
    error_class,
    luck_class,
    performance_rating,
    rank_plays,
    roll_luck,
    summarise,
)
from gammonlab.cube.batch import Cube, cube_efficiencies, cubeful, decide, value_on_roll
from gammonlab.errors import GammonlabError
from gammonlab.met import load

SGF = SHARED_DATA / "sgf"
ANALYSED = sorted(SGF.rglob("*analysed*.sgf")) if SGF.is_dir() else []
MONEY_SESSION = SGF / "gnubg_synthetic" / "gnubg_money_session_jacoby_beaver_raccoon_resign.sgf"
needs_analysed = needs_if(
    not ANALYSED, f"analysed .sgf files in the shared corpus at {SGF}", SET_CORPUS
)
KAZAROSS = load("Kazaross-XG2")
TRANSCRIPT = " 1 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: 8/5 6/5      21: 13/11 6/5\n"


def random_probabilities(rng: np.random.Generator, n: int) -> np.ndarray:
    win = rng.uniform(0.001, 0.999, n)
    win_gammon = win * rng.uniform(0.0, 0.6, n)
    lose_gammon = (1.0 - win) * rng.uniform(0.0, 0.6, n)
    return np.stack(
        [
            win,
            win_gammon,
            win_gammon * rng.uniform(0.0, 0.3, n),
            lose_gammon,
            lose_gammon * rng.uniform(0.0, 0.3, n),
        ],
        axis=1,
    )


def cube_states() -> list[gl.GameState]:
    """Money and match states: every cube owner, Jacoby, Crawford, dead cubes."""
    states = [
        gl.GameState.initial(cube_value=value, cube_owner=owner, jacoby=jacoby)
        for value, owner in ((1, None), (2, 0), (4, 1))
        for jacoby in (False, True)
    ]
    for length in (1, 3, 5, 7, 11):
        for score in (
            (0, 0),
            (length - 1, 0),
            (0, length - 1),
            (length - 2, length - 3),
            (length - 1, length - 1),
            (1, 2),
        ):
            if min(score) < 0 or max(score) >= length:
                continue
            for value, owner in ((1, None), (2, 0), (2, 1), (4, 1)):
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
                        pass  # not a legal state (a Crawford game needs a 1-away player)
    return states


@cache
def analysed(path: Path, plies: int = 0, luck: bool = True) -> pd.DataFrame:
    return analyse(gl.read_match(path), "gnubg", plies=plies, luck=luck, progress=False)


# -- definitions ---------------------------------------------------------------------------------


def test_error_classes_follow_the_thresholds():
    assert [error_class(loss) for loss in (0.0, 0.029, 0.03, 0.0599, 0.06, 0.1199, 0.12, 2.0)] == [
        "none",
        "none",
        "doubtful",
        "doubtful",
        "bad",
        "bad",
        "very bad",
        "very bad",
    ]
    old = {"doubtful": 0.04, "bad": 0.08, "very bad": 0.16}
    assert [error_class(loss, old) for loss in (0.035, 0.07, 0.1, 0.2)] == [
        "none",
        "doubtful",
        "bad",
        "very bad",
    ]
    assert ERROR_CLASSES == ("none", "doubtful", "bad", "very bad")


def test_luck_classes():
    assert [luck_class(luck) for luck in (0.7, 0.35, 0.0, -0.35, -0.7)] == [
        "very lucky",
        "lucky",
        "none",
        "unlucky",
        "very unlucky",
    ]


def test_performance_rating_is_500_times_the_mean_loss():
    assert performance_rating(0.5, 100) == pytest.approx(2.5)
    assert math.isnan(performance_rating(0.0, 0))


# -- the vectorised cube arithmetic agrees with gammonlab.cube -----------------------------------


def test_cubeful_equities_agree_with_the_cube_module():
    rng = np.random.default_rng(5)
    p = random_probabilities(rng, 25)
    x = rng.uniform(0.5, 0.9, 25)
    for state in cube_states():
        cube = Cube.of(state, KAZAROSS)
        ours = cube.to_equity(cubeful(p, cube, x))
        reference = [
            cube_theory.cubeful_equity(state, row, cube_efficiency=eff) for row, eff in zip(p, x)
        ]
        np.testing.assert_allclose(ours, reference, rtol=0, atol=1e-12, err_msg=str(state))


def test_the_player_on_roll_doubles_as_cube_decision_says():
    """A position reached by a play is worth the opponent's best cube action (GNU's GetECF3)."""
    rng = np.random.default_rng(6)
    p = random_probabilities(rng, 20)
    x = rng.uniform(0.5, 0.9, 20)
    checked = 0
    for state in cube_states():
        cube = Cube.of(state, KAZAROSS)
        ours = cube.to_equity(value_on_roll(p, cube, x))
        for row, eff, value in zip(p, x, ours):
            decision = cube_theory.cube_decision(state, row, cube_efficiency=eff)
            if decision.double_take is None:
                expected = decision.no_double
            elif (
                decision.double_take >= decision.no_double
                and decision.double_pass >= decision.no_double
            ):
                expected = min(decision.double_take, decision.double_pass)
                checked += 1
            else:
                expected = decision.no_double
            assert value == pytest.approx(expected, abs=1e-12), str(state)
    assert checked > 50


def test_cube_decisions_agree_with_the_cube_module():
    rng = np.random.default_rng(7)
    p = random_probabilities(rng, 12)
    p[:3, 1:3] = 0.0  # no gammon to win: "too good" cannot be right
    states = [
        *cube_states(),
        gl.GameState.initial(beavers=True),
        gl.GameState.initial(beavers=True, jacoby=True, cube_value=2, cube_owner=0),
    ]
    verdicts = set()
    for state in states:
        cube = Cube.of(state, KAZAROSS)
        for row, eff in zip(p, rng.uniform(0.5, 0.9, len(p))):
            ours = decide(row, cube, eff)
            reference = cube_theory.cube_decision(state, row, cube_efficiency=eff)
            assert ours.verdict == reference.verdict, str(state)
            verdicts.add(ours.verdict)
            for name in ("no_double", "double_take", "double_pass", "equity"):
                expected = getattr(reference, name)
                if expected is None:
                    assert getattr(ours, name) is None
                else:
                    assert getattr(ours, name) == pytest.approx(expected, abs=1e-12)
            for name, error in reference.errors.items():
                assert ours.errors[name] == pytest.approx(error, abs=1e-12)
    assert {"No double", "Double, take", "Double, pass", "Too good to double, pass"} <= verdicts


def test_cube_efficiency_agrees_with_the_cube_module():
    match = gl.read_match(
        Path(__file__).resolve().parents[1] / "data" / "matches" / "HSBT_Paris_2023_Job-Unger.mat"
    )
    positions = {
        play.position
        for action in match.actions
        if action.kind == "move" and action.dice
        for play in action.state.position.legal_plays(action.dice)
    }
    boards = np.stack([position.board for position in positions])
    expected = [cube_theory.cube_efficiency(position) for position in positions]
    np.testing.assert_allclose(cube_efficiencies(boards, 15), expected, atol=1e-12)
    assert len(set(expected)) > 5  # contact, races of several lengths, bear-offs


# -- agreement with GNU Backgammon -----------------------------------------------------------------


def gnubg_plies(match: gl.Match) -> int:
    """The plies GNU Backgammon used for its best plays (the deepest of each decision)."""
    plies = {
        max(c.get("plies", 0) for c in action.analysis["moves"]["candidates"])
        for action in match.actions
        if action.analysis and "moves" in action.analysis
    }
    return max(plies, default=0)


def gnubg_verdict(no_double: float, double_take: float, double_pass: float) -> str:
    if double_take >= no_double and double_pass >= no_double:
        return "Double, pass" if double_take >= double_pass else "Double, take"
    if no_double > double_pass:
        return "Too good to double, " + ("pass" if double_take >= double_pass else "take")
    return "No double"


def agreement(match: gl.Match, frame: pd.DataFrame) -> dict[str, list[bool]]:
    table = KAZAROSS if match.match_length else None
    found: dict[str, list[bool]] = {"best": [], "loss": [], "class": [], "cube": [], "luck": []}
    for action, (_, row) in zip(match.actions, frame.iterrows()):
        analysis = action.analysis or {}
        moves = analysis.get("moves")
        if action.kind == "move" and moves and not row["forced"]:
            candidates = moves["candidates"]
            best = action.state.position.find_play(candidates[0]["play"], action.dice)
            found["best"].append(best.notation == row["best_play"])
            loss = candidates[0]["equity"] - candidates[moves["played"]]["equity"]
            found["loss"].append(abs(loss - row["equity_loss"]) <= 0.01)
            found["class"].append((analysis.get("skill") or "none") == row["error_class"])
        if action.kind == "move" and "luck" in analysis and not pd.isna(row["luck"]):
            found["luck"].append(abs(analysis["luck"] - row["luck"]) <= 0.01)
        cube = analysis.get("cube")
        if cube and cube.get("eval") == "E" and not pd.isna(row["cube_verdict"]):
            doubler = Cube.of(action.state, table)
            no_double, double_take = cube["no_double"][6], cube["double_take"][6]
            if doubler.money:
                double_pass = 1.0
            else:
                double_pass = doubler.to_equity(doubler.mwc_after(doubler.cube, 0))
                no_double = doubler.to_equity(no_double)
                double_take = doubler.to_equity(double_take)
            margin = min(
                abs(min(double_take, double_pass) - no_double), abs(double_take - double_pass)
            )
            if margin > 0.02:
                verdict = str(row["cube_verdict"]).replace(", beaver", "")
                found["cube"].append(gnubg_verdict(no_double, double_take, double_pass) == verdict)
    return found


@needs_gnubg
@needs_analysed
@pytest.mark.parametrize("path", ANALYSED, ids=lambda path: path.name)
def test_agreement_with_gnubg_analysis(path):
    """Best plays, equity losses and cube verdicts as GNU Backgammon's analysis in the file.

    The analysis runs at the plies GNU Backgammon used for its best plays. At 0
    plies the formulas are GNU Backgammon's (the differences left come from its
    version's nets). Deeper, GNU Backgammon is cubeful at every ply while gammonlab
    makes the deeper cubeless probabilities cubeful at the top, and the 0-ply
    figures GNU Backgammon 1.08 keeps for the plays it filtered out use another
    cube efficiency for some positions: the floors are lower there.
    """
    match = gl.read_match(path)
    plies = gnubg_plies(match)
    found = agreement(match, analysed(path, plies, plies == 0))
    rates = {name: float(np.mean(values)) for name, values in found.items() if values}
    print(
        f"\n{path.name} ({plies} plies): best play {rates['best']:.1%} of "
        f"{len(found['best'])} unforced, equity loss within 0.01 {rates['loss']:.1%}, "
        f"error class {rates['class']:.1%}, cube verdict {rates['cube']:.1%} of "
        f"{len(found['cube'])} clear decisions"
        + (f", luck within 0.01 {rates['luck']:.1%}" if "luck" in rates else "")
    )
    assert len(found["best"]) > 50 and len(found["cube"]) > 20
    best, loss = (0.90, 0.95) if plies == 0 else (0.85, 0.90)
    assert rates["best"] >= best
    assert rates["loss"] >= loss
    assert rates["cube"] >= 0.90
    assert rates["class"] >= 0.90
    if "luck" in rates:
        assert rates["luck"] >= 0.95


# -- the frame ------------------------------------------------------------------------------------


@needs_gnubg
def test_the_analysis_frame_extends_the_action_frame_row_for_row():
    match = gl.read_match(ANALYSED[0]) if ANALYSED else gl.read_match(TRANSCRIPT)
    frame = analyse(match, "gnubg", progress=False)
    base = match.to_frame()
    assert list(frame.columns) == list(base.columns) + list(ANALYSIS_COLUMNS)
    pd.testing.assert_frame_equal(frame[base.columns], base)
    assert frame.attrs["analysis"]["evaluator"] == "gnubg"
    moves = frame[frame["action"] == "move"]
    assert moves["best_play"].notna().all() and moves["luck"].notna().all()
    assert (moves["equity_loss"] >= 0).all()
    assert (moves["equity_loss"] == moves["best_equity"] - moves["played_equity"]).all()
    assert (moves.loc[moves["play_rank"] == 1, "equity_loss"] == 0).all()
    forced = moves[moves["forced"]]
    assert (forced["equity_loss"] == 0).all() and (forced["error_class"] == "none").all()
    assert (forced["n_legal"] <= 1).all()
    classes = [error_class(loss) for loss in moves["equity_loss"]]
    assert classes == moves["error_class"].astype(str).tolist()
    assert frame["error_class"].dtype == pd.CategoricalDtype(list(ERROR_CLASSES), ordered=True)
    assert set(frame["cube_error"].dropna()) <= set(CUBE_ERRORS)
    others = frame[~frame["action"].isin(["move", "double", "take", "drop", "beaver"])]
    assert others[list(ANALYSIS_COLUMNS)].isna().all().all()
    if match.match_length:
        ratio = moves["mwc_loss"] / moves["equity_loss"]
        assert (ratio[moves["equity_loss"] > 0] > 0).all()


@needs_gnubg
@needs_corpus("sgf", "gnubg_synthetic", MONEY_SESSION.name)
def test_money_session_with_jacoby_and_beavers():
    frame = analyse(gl.read_match(MONEY_SESSION), "gnubg", progress=False)
    assert frame["mwc_loss"].isna().all() and frame["luck_mwc"].isna().all()
    cube_rows = frame[frame["action"].isin(["double", "take", "drop", "beaver"])]
    judged = cube_rows[cube_rows["cube_verdict"].notna()]
    assert len(judged) >= 3
    assert judged["cube_decision"].all()
    summary = summarise(frame)
    assert summary["luck_points"].notna().all() and summary["luck_mwc"].isna().all()
    assert summary["result"].sum() == 0  # money: what one wins the other loses


# -- luck -----------------------------------------------------------------------------------------


@needs_gnubg
@pytest.mark.parametrize(
    "state",
    [
        gl.GameState.initial(),
        gl.GameState.from_gnubg_id("4HPwATDgc/ABMA:cInqAAAAAAAE"),
        gl.GameState.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"),
        gl.GameState.from_gnubg_id("jOfgAQPg2+ABIQ:cAnmAAAAAAAE"),
    ],
    ids=["money opening", "match opening", "xgid", "middle game"],
)
def test_luck_averages_zero_over_the_36_rolls(state):
    luck = roll_luck(state, evaluator="gnubg")
    assert len(luck) == 21 and luck["probability"].sum() == pytest.approx(1.0)
    assert float((luck["probability"] * luck["luck"]).sum()) == pytest.approx(0.0, abs=1e-12)
    assert np.ptp(luck["equity"] - luck["luck"]) < 1e-12  # one mean for every roll
    assert luck.loc[luck["roll"] == "6-6", "luck"].iloc[0] > 0.2  # a joker in any opening


@needs_gnubg
def test_luck_of_a_roll_is_its_best_equity_minus_the_average():
    match = gl.read_match(TRANSCRIPT.replace(" 1 point", " 5 point"))
    frame = analyse(match, "gnubg", progress=False)
    second = match.actions[1]  # B's 2-1, an ordinary roll
    table = roll_luck(second.state, evaluator="gnubg")
    expected = table.loc[table["roll"] == "2-1", "luck"].iloc[0]
    assert frame["luck"].iloc[1] == pytest.approx(expected, abs=1e-12)
    best = rank_plays(second.state, evaluator="gnubg")
    assert frame["best_equity"].iloc[1] == pytest.approx(best["equity"].iloc[0], abs=1e-12)
    assert frame["best_play"].iloc[1] == best["play"].iloc[0]
    assert frame["luck_class"].iloc[1] == luck_class(frame["luck"].iloc[1])


@needs_gnubg
def test_opening_luck_counts_both_players_non_double_rolls():
    """At an even score either player may start: the opening rolls average zero."""
    frame = analyse(
        gl.read_match(TRANSCRIPT.replace(" 1 point", " 7 point")), "gnubg", progress=False
    )
    opening = gl.GameState.initial(match_length=7)
    best = rank_plays(opening, (3, 1), evaluator="gnubg")
    assert frame["luck"].iloc[0] == pytest.approx(best["equity"].iloc[0], abs=1e-12)
    assert pd.isna(frame["cube_verdict"].iloc[0])  # no cube before the opening roll (R3.2)


# -- summaries ------------------------------------------------------------------------------------


@needs_gnubg
@needs_analysed
def test_summary_counts_rates_and_pr():
    frame = analysed(ANALYSED[0])
    summary = summarise(frame)
    assert list(summary.index) == [0, 1]
    for player, row in summary.iterrows():
        mine = frame[frame["player"] == player]
        moves = mine[mine["action"] == "move"]
        unforced = moves[~moves["forced"].astype(bool)]
        cube = mine[mine["cube_decision"].fillna(False).astype(bool)]
        assert row["unforced"] == len(unforced)
        assert row["cube_decisions"] == len(cube)
        assert row["checker_errors"] == (unforced["error_class"] != "none").sum()
        assert row["doubtful"] + row["bad"] + row["very_bad"] == row["checker_errors"]
        lost = unforced["equity_loss"].sum() + cube["cube_equity_loss"].sum()
        assert row["equity_loss"] == pytest.approx(lost)
        assert row["pr"] == pytest.approx(500 * lost / (len(unforced) + len(cube)))
        assert row["checker_pr"] == pytest.approx(500 * unforced["equity_loss"].mean())
        assert row["luck"] == pytest.approx(mine["luck"].sum())
        assert 0 < row["pr"] < 30
    winner = gl.read_match(ANALYSED[0]).winner
    assert summary.loc[winner, "result"] == 1.0 and summary.loc[1 - winner, "result"] == 0.0
    adjusted = summary["result"] - summary["luck_mwc"] + summary["luck_mwc"][::-1].to_numpy()
    np.testing.assert_allclose(summary["luck_adjusted_result"], adjusted.clip(0, 1))
    assert summary["luck_adjusted_result"].sum() == pytest.approx(1.0)


def test_summary_of_a_policy_has_no_equities():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = analyse(TRANSCRIPT, "pubeval", progress=False)
    assert frame["equity_loss"].isna().all() and frame["luck"].isna().all()
    assert frame["best_play"].tolist() == ["8/5 6/5", "24/21"]
    summary = summarise(frame)
    assert summary["best_play_rate"].tolist() == [1.0, 0.0]
    assert summary["pr"].isna().all()


def test_summary_counts_are_integers():
    summary = summarise(analyse(TRANSCRIPT, progress=False))
    counts = [
        "moves",
        "unforced",
        "doubtful",
        "bad",
        "very_bad",
        "checker_errors",
        "cube_decisions",
        "missed_doubles",
        "wrong_doubles",
        "wrong_takes",
        "wrong_passes",
        "cube_errors",
        "decisions",
    ]
    for column in counts:
        assert pd.api.types.is_integer_dtype(summary[column]), column


def test_the_net_analyses_by_default_without_gnubg(monkeypatch):
    import warnings

    from gammonlab.evaluators import base

    real = base.get_evaluator

    def no_gnubg(name):
        if name == "gnubg":
            raise gl.MissingDependencyError("no gnubg-nn here")
        return real(name)

    monkeypatch.setattr(base, "get_evaluator", no_gnubg)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = analyse(TRANSCRIPT, progress=False)
    assert frame.attrs["analysis"]["evaluator"] == "net"
    assert frame["equity_loss"].notna().all() and frame["luck"].notna().all()


def test_bad_settings_are_refused():
    with pytest.raises(GammonlabError, match="plies"):
        analyse(TRANSCRIPT, "pubeval", plies=1, progress=False)
    with pytest.raises(GammonlabError, match="plies"):
        analyse(TRANSCRIPT, "pubeval", plies=-1, progress=False)
    with pytest.raises(GammonlabError, match="summarise needs"):
        summarise(gl.read_match(TRANSCRIPT).to_frame())
    acey = gl.play_match(rules=gl.Rules(variant="acey-deucey", match_length=1), seed=3)
    with pytest.raises(GammonlabError, match=r"R11\.2"):
        analyse(acey, "pubeval", progress=False)


# -- many matches and the command line ------------------------------------------------------------


@needs_gnubg
def test_many_matches_in_parallel_and_pooled_by_player(tmp_path):
    files = []
    for name, length in (("a.mat", 3), ("b.mat", 5)):
        path = tmp_path / name
        path.write_text(TRANSCRIPT.replace(" 1 point", f" {length} point"), encoding="utf-8")
        files.append(path)
    (tmp_path / "broken.mat").write_text("not a transcript\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="skipped 1 files"):
        frame = analyse_matches(tmp_path, "gnubg", errors="collect", progress=False, n_jobs=2)
    assert frame["match"].cat.categories.tolist() == ["a.mat", "b.mat"]
    single = analyse(files[0], "gnubg", progress=False)
    pd.testing.assert_series_equal(
        frame.loc[frame["match"] == "a.mat", "luck"].reset_index(drop=True),
        single["luck"],
        check_names=False,
    )
    assert frame.attrs["problems"][0]["file"] == "broken.mat"
    by_match = summarise(frame)
    by_name = summarise(frame, by="player_name")
    assert len(by_match) == 4 and list(by_name.index) == ["A", "B"]
    assert by_name.loc["A", "unforced"] == by_match.xs(0, level="player")["unforced"].sum()
    frame.to_parquet(tmp_path / "out.parquet")  # the attrs survive parquet


@needs_gnubg
def test_analyse_command_prints_a_summary(tmp_path, capsys):
    from gammonlab.cli.analyse import add_analyse_parser

    source = tmp_path / "m.mat"
    source.write_text(TRANSCRIPT.replace(" 1 point", " 3 point"), encoding="utf-8")
    parser = argparse.ArgumentParser(prog="gammonlab")
    add_analyse_parser(parser.add_subparsers(dest="command"))
    out = tmp_path / "m.parquet"
    args = parser.parse_args(["analyse", str(source), "-o", str(out), "-q", "-j", "1"])
    assert args.run(args) == 0
    printed = capsys.readouterr().out
    assert "analysed 1 of 1 files with net" in printed and "PR" in printed
    assert "A" in printed and "B" in printed
    assert len(pd.read_parquet(out)) == 2
    args = parser.parse_args(["analyse", str(source), "-o", str(tmp_path / "m.txt")])
    assert args.run(args) == 2


# -- the fast gnubg path --------------------------------------------------------------------------


@needs_gnubg
def test_gnubg_move_lists_give_the_evaluators_probabilities():
    """gnubg-nn's own move list (checked, some entries re-evaluated) equals one call per play."""
    from gammonlab.analysis._plays import ROLLS, Engine, GnubgEngine, decode_keys, encode_key
    from gammonlab.evaluators.base import get_evaluator

    evaluator = get_evaluator("gnubg")
    fast, plain = GnubgEngine(evaluator, 15), Engine(evaluator, 15)
    match = gl.read_match(
        Path(__file__).resolve().parents[1] / "data" / "matches" / "HSBT_Paris_2023_Job-Unger.mat"
    )
    positions = [a.state.position for a in match.actions if a.kind == "move"][::15]
    for position in positions:
        a, b = fast.rolls(position, ROLLS), plain.rolls(position, ROLLS)
        assert (a.starts == b.starts).all()
        for i in range(len(ROLLS)):
            rows = slice(a.starts[i], a.starts[i + 1])
            order_a = np.lexsort(a.boards[rows].reshape(-1, 52).T)
            order_b = np.lexsort(b.boards[rows].reshape(-1, 52).T)
            assert (a.boards[rows][order_a] == b.boards[rows][order_b]).all()
            np.testing.assert_allclose(
                a.probabilities[rows][order_a], b.probabilities[rows][order_b], atol=1e-6
            )
        keys = [encode_key(board) for board in a.boards]
        assert (decode_keys(keys, 15) == a.boards).all()
