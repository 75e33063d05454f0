"""The gallery: every plot rendered from real matches into PNG and SVG files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from gammonlab.cli import gallery

PLOTS = [
    "pips_game",
    "pips_match",
    "equity_match",
    "equity_game",
    "luck",
    "errors",
    "errors_equity_lost",
    "board_biggest_error",
    "plays",
    "plays_difference",
    "gammon_rates_match_length",
    "gammon_rates_players",
    "cube_money",
    "cube_match",
    "cube_money_gammons",
    "met",
    "board_initial",
    "board_play",
    "rollout_convergence",
    "rollout_first_rolls",
    "gammon_rates_rollout",
]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    data = gallery.find_data()  # the repository's data/ always has matches
    out = tmp_path_factory.mktemp("gallery")
    lines: list[str] = []
    written = gallery.render(out, data=data, log=lines.append)
    return out, written, lines


def test_every_plot_is_written_as_png_and_svg(rendered):
    _, written, lines = rendered
    names = {path.name for path in written}
    for plot in PLOTS:
        assert f"{plot}.png" in names and f"{plot}.svg" in names, plot
    assert lines == [str(path) for path in written]
    for path in written:
        head = path.read_bytes()[:64]
        assert (
            head.startswith(b"\x89PNG")
            if path.suffix == ".png"
            else b"<svg" in head or head.startswith(b"<?xml")
        ), path


def test_command_line(tmp_path, capsys):
    gallery.find_data()
    assert gallery.main([str(tmp_path / "out"), "--no-rollouts", "--formats", "png"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[-1].startswith("wrote ") and printed[0].endswith(".png")
    assert (tmp_path / "out" / "met.png").is_file()
    assert not (tmp_path / "out" / "rollout_convergence.png").exists()


def test_command_line_without_data(tmp_path, capsys):
    assert gallery.main([str(tmp_path / "out"), "--data", str(tmp_path / "nowhere")]) == 1
    assert "no folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert gallery.main([str(tmp_path / "out"), "--data", str(tmp_path / "empty")]) == 1
    assert "no readable matches" in capsys.readouterr().err


def test_data_falls_back_to_the_shared_corpus(tmp_path, monkeypatch):
    (tmp_path / "repo" / "data").mkdir(parents=True)
    (tmp_path / "shared").mkdir()
    monkeypatch.setattr(gallery, "REPO", tmp_path / "repo")
    monkeypatch.setenv("GAMMONLAB_SHARED_DATA", str(tmp_path / "shared"))
    assert gallery.find_data() == tmp_path / "shared"
    (tmp_path / "repo" / "data" / "one.mat").write_text(" 1 point match\n")
    assert gallery.find_data() == tmp_path / "repo" / "data"
    assert gallery.find_data(tmp_path) == tmp_path


def test_gnubg_analysis_in_the_analysis_columns():
    frame = pd.DataFrame(
        {
            "action": ["move", "double", "take", "move"],
            "player": [0, 1, 0, 1],
            "match_length": 7,
            "gnubg_equity_loss": [0.0, None, None, 0.2],
            "gnubg_no_double": [0.5, 0.6, 0.6, 0.55],
            "gnubg_luck": [0.1, None, None, -0.2],
            "gnubg_played_equity": [0.1, None, None, 0.0],
        }
    )
    out = gallery.analysis_from_gnubg(frame)
    assert out["error_class"].tolist() == ["none", "none", "none", "very bad"]  # 0.2 lost
    assert list(out["error_class"].cat.categories) == ["none", "doubtful", "bad", "very bad"]
    assert out["mwc"].tolist()[:2] == [0.5, 0.6] and np.isnan(out["mwc"][2])  # the doubler's
    assert out["luck"].tolist()[0] == 0.1 and "played_equity" in out
    money = gallery.analysis_from_gnubg(frame.assign(match_length=0))
    assert "mwc" not in money
