"""The matplotlib board: honours ax=, draws every checker as a patch, saves to PNG and PDF."""

from __future__ import annotations

import io

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import same_color

import gammonlab as gl
from gammonlab.draw.style import PLAYER_COLORS
from gammonlab.draw.svg import MAX_STACK
from gammonlab.plot import plot_board
from gammonlab.rules import BAR, OFF


@pytest.fixture
def figure():
    fig, ax = plt.subplots(figsize=(4.8, 3.9))
    yield fig, ax
    plt.close(fig)


def checkers_drawn(board: np.ndarray) -> int:
    """Patches a board needs: at most MAX_STACK per point and bar, every borne-off checker."""
    on_board = np.minimum(board[:, 1 : BAR + 1], MAX_STACK).sum()
    return int(on_board + board[:, OFF].sum())


def checker_patches(ax) -> list:
    return [p for p in ax.patches if (p.get_gid() or "").startswith("checker")]


def tall_stacks_position() -> gl.Position:
    b = np.zeros((2, 26), dtype=int)
    b[0, 6] = 11
    b[0, BAR] = 2
    b[0, OFF] = 2
    b[1, 1] = 3
    b[1, 24] = 7
    b[1, BAR] = 1
    b[1, OFF] = 4
    return gl.Position.from_board(b)


def test_draws_on_the_axes_given(figure):
    fig, ax = figure
    other = fig.add_subplot(2, 2, 4)
    assert plot_board(gl.Position.initial(), ax=ax) is ax
    assert len(other.patches) == 0 and len(ax.patches) > 30
    assert not ax.axison and ax.get_aspect() == 1.0
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # y points down, as in the SVG


def test_keyword_arguments_go_to_every_artist(figure):
    _, ax = figure
    plot_board(gl.Position.initial(), ax=ax, rasterized=True)
    assert ax.patches and all(p.get_rasterized() for p in ax.patches)
    assert ax.texts and all(t.get_rasterized() for t in ax.texts)


def test_without_ax_draws_on_the_current_axes(figure):
    _, ax = figure
    plt.sca(ax)
    assert plot_board(gl.Position.initial()) is ax


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "hypergammon-2"])
def test_one_patch_per_checker_drawn(figure, variant):
    _, ax = figure
    pos = gl.Position.initial(variant)
    plot_board(pos, ax=ax)
    assert len(checker_patches(ax)) == checkers_drawn(pos.board) == 2 * pos.variant.checkers


def test_tall_stacks_bar_and_off(figure):
    _, ax = figure
    pos = tall_stacks_position()
    plot_board(pos, ax=ax, flip=True, player=1)
    patches = checker_patches(ax)
    assert len(patches) == checkers_drawn(pos.board)
    by_colour = {
        colour: sum(same_color(p.get_facecolor()[:3], colour) for p in patches)
        for colour in PLAYER_COLORS
    }
    assert by_colour == {PLAYER_COLORS[0]: 5 + 2 + 2, PLAYER_COLORS[1]: 3 + 5 + 1 + 4}
    assert "11" in [t.get_text() for t in ax.texts]


def test_random_positions(figure):
    _, ax = figure
    rng = np.random.default_rng(3)
    pos = gl.Position.initial()
    for ply in range(60):
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        plays = pos.legal_plays(dice)
        pos = plays[int(rng.integers(len(plays)))].position if len(plays) else pos.swapped()
        if ply % 15 == 0:
            ax.clear()
            plot_board(pos, ax=ax)
            assert len(checker_patches(ax)) == checkers_drawn(pos.board)


def test_a_play_has_its_arrows_and_hits(figure):
    _, ax = figure
    pos = gl.Position.initial().play("24/18 13/11", (6, 2))
    play = pos.find_play("24/14*", (6, 4))
    plot_board(play, ax=ax)
    gids = [p.get_gid() or "" for p in ax.patches]
    assert sum(g.startswith("hit") for g in gids) == 1
    assert any(t.get_text() == "6-4: 24/14*" for t in ax.texts)
    assert len(checker_patches(ax)) == checkers_drawn(play.before.board)


def test_game_state_with_cube_and_dice(figure):
    _, ax = figure
    state = gl.GameState(
        tall_stacks_position(),
        on_roll=1,
        dice=(6, 6),
        cube_value=4,
        cube_owner=0,
        score=(3, 4),
        match_length=7,
    )
    plot_board(state, ax=ax)
    texts = [t.get_text() for t in ax.texts]
    assert "4" in texts and "7-point match" in texts
    assert any("score 3" in t for t in texts)


def test_saves_to_png_and_pdf_without_showing(figure, monkeypatch):
    fig, ax = figure
    monkeypatch.setattr(plt, "show", lambda *a, **k: pytest.fail("plot_board called show()"))
    plot_board(gl.GameState.initial(match_length=5).replace(dice=(3, 1)), ax=ax)
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=80)
    assert png.getvalue().startswith(b"\x89PNG")
    pdf = io.BytesIO()
    fig.savefig(pdf, format="pdf")
    assert pdf.getvalue().startswith(b"%PDF")


def test_an_action_of_a_match_names_its_players(figure):
    _, ax = figure
    match = gl.read_match(
        " 3 point match\n\n Game 1\n Anna : 0                           Bob : 0\n"
        "  1) 31: 8/5 6/5                     42: 8/4 6/4\n"
    )
    plot_board(match.actions[1], ax=ax)
    names = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("name")]
    assert names == ["Bob \u00b7 on roll", "Anna"]
    assert any(t.get_text().startswith("4-2: 8/4 6/4") for t in ax.texts)
    ax.clear()
    plot_board(match.actions[1].play, ax=ax)
    names = [t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("name")]
    assert names == ["On roll", "Opponent"]
