"""The demo report's pictures and tables say the same thing: the match winning chance to
the end of every game, one luck, one side's equity, the players by name."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from gammonlab import plot
from gammonlab.cli import demo, report
from gammonlab.match.read import read_match
from gammonlab.rollout import rollout


@pytest.fixture(scope="module")
def stored():
    """The demo's match judged as without equities: by the analysis stored in the file."""
    path = demo._find_match(demo.DEFAULT_MATCH)
    lines: list[str] = []
    match, _, judged, used, _ = demo._analyse(path, "pubeval", lines.append)
    summary = demo._summarise(judged, match, own_analysis=False, log=lines.append)
    return match, judged, used, summary


def test_the_chance_follows_every_game_to_its_end(stored):
    match, judged, _, _ = stored
    game = match.games[6]
    rows = judged.index[judged["game"] == 7]
    after_take = [i for i in rows if i > rows[0] + 17 and judged.loc[i, "action"] == "move"]
    # one side had no legal play for much of the game's end: its rolls have a chance, the
    # one after the opponent's play before; the rolls after them are drawn in between
    no_play = [i for i in after_take if judged.loc[i, "play"] == ""]
    assert len(no_play) >= 10
    assert judged.loc[no_play, "mwc"].notna().all()
    fig = Figure(figsize=(10, 4.4))
    ax = plot.plot_equity(judged, ax=fig.add_subplot())
    value = next(line for line in ax.get_lines() if line.get_gid() == "value")
    x, y = value.get_xdata(), value.get_ydata()
    last = x[int(np.flatnonzero(np.isnan(x))[-1]) + 1 :]  # game 7, after the last break
    shown = y[-len(last) :]
    assert last[-1] >= game.moves  # to the last roll of the game and its resignation
    tail = shown[-35:]
    assert len(np.unique(np.round(tail, 4))) > 30  # not a flat line
    assert tail[-1] > 0.95  # Kévin Unger, on the way to winning the match


def test_the_nets_line_follows_the_rolls_with_no_legal_play():
    """The default analysis evaluates every roll, those with no legal play included."""
    import dataclasses

    from gammonlab.analysis import analyse

    match = read_match(demo._find_match(demo.DEFAULT_MATCH))
    game_7 = dataclasses.replace(match, games=(match.games[6],))
    judged = analyse(game_7, "net", progress=False)
    moves = judged[judged["action"] == "move"]
    assert (moves["n_legal"] == 0).sum() >= 10
    assert moves["position_equity"].notna().all()
    fig = Figure(figsize=(10, 4.4))
    ax = plot.plot_equity(judged, ax=fig.add_subplot())
    value = next(line for line in ax.get_lines() if line.get_gid() == "value")
    x, y = value.get_xdata(), value.get_ydata()
    assert x[-1] >= match.games[6].moves
    assert len(np.unique(np.round(y[-35:], 4))) > 30


def test_luck_is_one_number_in_the_table_and_the_plot(stored):
    _, judged, _, summary = stored
    table = report._summary_table(summary)
    fig = Figure(figsize=(10, 4.4))
    ax = plot.plot_luck(judged, ax=fig.add_subplot())
    title = ax.get_title(loc="left")
    for _, row in summary.iterrows():
        assert f'<td class="number">{row["luck"]:.2f}</td>' in table
        assert f"{row['player_name']} {row['luck']:+.2f}" in title


def test_without_cube_decisions_one_error_rate_is_shown(stored):
    _, _, _, summary = stored
    headings = re.findall(r"<th>([^<]*)</th>", report._summary_table(summary))
    assert "checker error rate" in headings
    assert not [h for h in headings if h.startswith("error rate")]


def test_with_cube_decisions_the_two_error_rates_are_told_apart(stored):
    _, _, _, summary = stored
    judged_cube = summary.assign(cube_decisions=[10, 12], error_rate=[12.0, 20.0])
    headings = re.findall(r"<th>([^<]*)</th>", report._summary_table(judged_cube))
    assert "checker error rate" in headings and "error rate (checker and cube)" in headings


def test_the_rollout_chart_speaks_of_the_player_who_made_the_play(stored):
    match, judged, used, _ = stored
    decision = demo._pick_decision(match, judged, used)
    assert decision is not None and decision.action.play is not None
    result = rollout(
        decision.action.play.position,
        trials=72,
        policy="pubeval",
        seed=1,
        keep_trials=True,
        progress=False,
        n_jobs=1,
    )
    found = report.PlayRollout("play made", decision.action.play.notation, result, decision.mover)
    assert found.equity == pytest.approx(-result.equity)
    ax = report._rollout_figure([found]).axes[0]
    name = decision.mover
    title = ax.get_title(loc="left")
    # the table's number, with the table's sign: the mover's equity
    shown = float(re.search(r"equity ([+-]\d\.\d{3})$", title).group(1))
    assert shown == pytest.approx(round(found.equity, 3))
    assert title == f"play made {found.play}: {name}'s equity {found.equity:+.3f}"
    assert ax.get_ylabel() == f"{name}'s equity (cubeless)"
    final = next(line for line in ax.get_lines() if line.get_gid() == "final")
    assert final.get_ydata()[0] == pytest.approx(found.equity)
    assert "opponent" not in title + ax.get_ylabel()


def test_the_boards_name_the_players(stored):
    match, judged, used, _ = stored
    decision = demo._pick_decision(match, judged, used)
    assert decision is not None
    boards = report._boards(decision)
    mover = match.players[decision.action.player]
    other = match.players[1 - decision.action.player]
    for picture in boards.values():
        names = re.findall(r'class="name"[^>]*>([^<]*)<', picture)
        assert names == [f"{mover} \u00b7 on roll", other]


def test_chances_are_gnubgs_own_where_it_wrote_them(stored):
    match, judged, _, _ = stored
    from gammonlab.cli.gallery import analysis_from_gnubg

    written = analysis_from_gnubg(match.to_frame())["mwc"]
    known = written.notna()
    assert pd.Series(judged["mwc"])[known].tolist() == pytest.approx(written[known].tolist())
