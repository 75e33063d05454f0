"""Every variant but Acey-Deucey end to end: simulated, rolled out, analysed, drawn.

Nackgammon in both setups (R2.2, R2.3) and Hypergammon 1-3 (R2.5): rollouts of
their opening positions and of positions from simulated matches, cube rollouts
under the money options (Jacoby R10.1, beavers R10.6), match analysis and
diagrams.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from conftest import needs_gnubg

import gammonlab as gl

VARIANTS = ["nackgammon", "nackgammon-004", "hypergammon-1", "hypergammon-2", "hypergammon-3"]
QUIET = {"progress": False, "n_jobs": 1}


@pytest.mark.parametrize("variant", VARIANTS)
def test_rollout_of_each_variants_opening(variant):
    """The side on roll (after the opening roll has been decided) is the favourite
    by a little in every variant; the five probabilities are ordered."""
    res = gl.rollout(gl.Position.initial(variant), trials=216, seed=2, **QUIET)
    assert res.trials == 216
    assert 0.4 < res.win < 0.75
    assert 0 <= res.win_backgammon <= res.win_gammon <= res.win
    assert 0 <= res.lose_backgammon <= res.lose_gammon <= 1 - res.win
    assert -1 < res.equity < 1.5 and 0 < res.stderr["equity"] < 0.3
    if variant == "hypergammon-1":
        # one checker each, 24 pips: without contact a gammon is the rule, not the exception
        assert res.win_gammon > 0.3


@pytest.mark.parametrize("variant", VARIANTS)
def test_positions_of_simulated_matches_roll_out(variant):
    match = gl.play_match(rules=gl.Rules(variant=variant, match_length=3), seed=4)
    moves = [a for a in match.games[0].actions if a.kind == "move"]
    state = moves[len(moves) // 2].state
    res = gl.rollout(state, trials=72, seed=3, **QUIET)
    expected = "net" if variant.startswith("nack") else "pubeval"  # what the net is trained on
    assert res.settings["policy"] == expected and 0 <= res.win <= 1
    # the same position and roll from its IDs
    again = (
        gl.rollout(gl.GameState.from_gnubg_id(state.gnubg_id), trials=72, seed=3, **QUIET)
        if variant.startswith("nack")
        else res
    )
    assert again.win == res.win


def test_cube_rollout_under_money_options():
    """A Nackgammon money session with Jacoby and beavers: the cube decisions of its
    states (which carry the options) roll out."""
    rules = gl.Rules.gnubg_default(variant="nackgammon")
    match = gl.play_match(rules=rules, games=2, seed=6)
    state = next(
        a.state for a in match.actions if a.kind == "move" and a.state.position.pips[0] < 120
    )
    before_roll = replace(state, dice=None)
    assert before_roll.jacoby and before_roll.beavers and before_roll.match_length == 0
    cube = gl.rollout_cube(before_roll, trials=144, seed=5, **QUIET)
    decision = cube.decision
    assert decision.action in ("No double", "Double", "Too good")
    assert all(np.isfinite(x) for x in (decision.no_double, decision.double_pass))


def test_analysis_of_a_simulated_nackgammon_match_by_its_own_policy():
    """pubeval plays and pubeval judges: every play it made ranks first."""
    match = gl.play_match(rules=gl.Rules(variant="nackgammon", match_length=3), seed=3)
    frame = gl.analyse(match, "pubeval", progress=False)
    moves = frame[(frame.action == "move") & ~frame.forced.fillna(True).astype(bool)]
    assert len(moves) > 20 and (moves.play_rank == 1).all()
    assert (moves.best_play == moves.play).all()


@needs_gnubg
def test_gnubg_analysis_of_a_simulated_nackgammon_match():
    """GNU Backgammon's nets judge pubeval's plays: losses are never negative,
    mostly small; luck averages out; the summary counts every decision."""
    match = gl.play_match(rules=gl.Rules(variant="nackgammon", match_length=3), seed=3)
    frame = gl.analyse(match, "gnubg", progress=False)
    moves = frame[frame.action == "move"]
    loss = moves.equity_loss.dropna().astype(float)
    assert len(loss) > 20 and (loss >= 0).all() and loss.mean() < 0.1
    luck = moves.luck.dropna().astype(float)
    assert abs(luck.mean()) < 0.1 and luck.abs().max() < 3
    p = moves[["p_win", "p_win_gammon"]].dropna().astype(float)
    assert ((p >= 0) & (p <= 1)).all().all()
    summary = gl.summarise(frame)
    assert summary.moves.sum() == len(moves)


@pytest.mark.parametrize("variant", VARIANTS)
def test_diagrams_of_each_variant(variant):
    position = gl.Position.initial(variant)
    checkers = gl.Rules(variant=variant).variant.checkers
    svg = position._repr_svg_()
    assert svg.startswith("<svg") and svg.count("<circle") >= 2 * min(checkers, 5)
    assert f"pips {position.pips[0]}" in str(position)


@pytest.mark.parametrize("variant", VARIANTS)
def test_ids_of_each_variant_round_trip(variant):
    """Position ID, Match ID and XGID hold any variant's positions; the variant is
    given when reading them back (the IDs do not name it)."""
    match = gl.play_match(rules=gl.Rules(variant=variant, match_length=5), seed=8)
    for action in match.games[0].actions[:12]:
        state = action.state
        back = gl.GameState.from_gnubg_id(state.gnubg_id, variant=variant)
        assert back.position == state.position and back.position.variant.name == variant
        assert back.cube_value == state.cube_value and back.score == state.score
        from_xg = gl.GameState.from_xgid(state.xgid, variant=variant)
        assert from_xg.position == state.position
        assert state.dice is None or sorted(from_xg.dice) == sorted(state.dice)
