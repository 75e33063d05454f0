"""The command line's commands as a newcomer meets them: every command and option
described, --version, explain, rollout, readable simulate and analyse output, no line
wider than 100 columns; and the summary frame behind ``analyse``."""

from __future__ import annotations

import argparse
import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import SET_CORPUS, needs

import gammonlab as gl
from gammonlab.analysis.frame import BRIEF_COLUMNS, Summary
from gammonlab.cli import main
from gammonlab.cli.commands import build_parser
from gammonlab.cli.output import WIDTH, gammonlab_version

REPO = Path(__file__).resolve().parents[1]
OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
BARE_XGID = OPENING_XGID.removeprefix("XGID=")
INITIAL = "4HPwATDgc/ABMA"
FAST = ["--trials", "36", "--seed", "1", "-j", "1", "-q"]


@functools.cache
def transcript(first: str = "Alice") -> str:
    """A whole 1-point match as a .mat transcript."""
    match = gl.play_match(rules=gl.Rules(match_length=1), seed=3, names=(first, "Bob"))
    return gl.write_match(match)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_narrow(text: str) -> None:
    wide = [line for line in text.splitlines() if len(line) > WIDTH]
    assert not wide, wide


# -- the parser -----------------------------------------------------------------------------------


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_every_command_and_option_is_described():
    parser = build_parser()
    assert parser.description
    commands = subparsers(parser)
    assert {"show", "plays", "explain", "rollout", "read", "analyse", "simulate", "demo"} <= set(
        commands
    )
    for name, command in {"gammonlab": parser, **commands}.items():
        assert command.description, f"{name} has no description"
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            assert action.help and action.help != argparse.SUPPRESS, (name, action.dest)


def test_help_is_narrow(capsys):
    for name in ["", *subparsers(build_parser())]:
        with pytest.raises(SystemExit) as done:
            main([name, "--help"] if name else ["--help"])
        assert done.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith("usage: gammonlab")
        assert_narrow(out)


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"gammonlab {gammonlab_version()}"


def test_version_through_python_m():
    done = subprocess.run(
        [sys.executable, "-m", "gammonlab", "--version"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.startswith("gammonlab ")


# -- explain --------------------------------------------------------------------------------------


def test_explain_a_legal_play(capsys):
    code, out, _ = run(capsys, "explain", INITIAL, "62", "24/18 13/11")
    assert code == 0
    assert out.startswith("24/18 13/11 is legal with 6-2")
    code, out, _ = run(capsys, "explain", BARE_XGID, "5-2", "13/8", "13/11")  # unquoted
    assert code == 0 and "is legal with 5-2" in out
    assert_narrow(out)


def test_explain_an_illegal_play_cites_the_rule(capsys):
    code, out, _ = run(capsys, "explain", INITIAL, "65", "13/7")
    assert code == 1
    assert "(R5.1)" in out and "for example" in out
    assert "R5.1: both dice must be played when possible" in out
    code, out, _ = run(capsys, "explain", INITIAL, "62", "24/18 13/11 6/5")
    assert code == 1 and "(R4.1)" in out
    assert_narrow(out)


def test_explain_bad_input_exits_2(capsys):
    code, out, err = run(capsys, "explain", "hello", "62", "24/18")
    assert code == 2 and not out
    assert err.startswith("gammonlab explain: Position ID 'hello': expected 14 characters")
    code, _, err = run(capsys, "explain", INITIAL, "62", "xx")
    assert code == 2 and err.startswith("gammonlab explain: ")
    with pytest.raises(SystemExit) as done:
        main(["explain", INITIAL, "77", "13/7"])
    assert done.value.code == 2


# -- rollout --------------------------------------------------------------------------------------


def test_rollout_before_the_roll(capsys, tmp_path):
    out_file = tmp_path / "rollout.csv"
    code, out, _ = run(capsys, "rollout", OPENING_XGID, *FAST, "-o", str(out_file))
    assert code == 0
    assert "before the roll" in out and "the ID's 52 is left out" in out
    assert "36 trials, policy net, seed 1" in out  # the library's default policy
    for outcome in ("win", "win gammon", "lose backgammon", "equity"):
        assert f"\n{outcome} " in out
    assert "std. error" in out and "95% interval" in out
    assert_narrow(out)
    table = pd.read_csv(out_file)
    assert list(table.columns) == ["outcome", "estimate", "stderr", "ci95_low", "ci95_high"]
    assert len(table) == 6 and (table["stderr"] >= 0).all()
    # the same as the library's rollout
    result = gl.rollout(gl.Position.from_id(OPENING_XGID), trials=36, seed=1, progress=False)
    assert table["estimate"].iloc[-1] == pytest.approx(result.equity)


def test_rollout_of_the_plays_of_a_roll(capsys, tmp_path):
    out_file = tmp_path / "plays.parquet"
    argv = ["rollout", BARE_XGID, "--dice", "5-2", "--plays", "--top", "3", *FAST]
    code, out, _ = run(capsys, *argv, "--policy", "pubeval", "-o", str(out_file))
    assert code == 0
    assert "the 3 best of 8 legal plays" in out and "policy pubeval" in out
    assert_narrow(out)
    frame = pd.read_parquet(out_file)
    assert len(frame) == 3 and frame["difference"].iloc[0] == 0.0
    assert frame["equity"].is_monotonic_decreasing
    for rank, play in enumerate(frame["play"], start=1):
        assert f"\n{rank}    {play} " in out
    # the dice of the ID when --dice is not given
    code, again, _ = run(capsys, *[a for a in argv if a not in ("--dice", "5-2")], "-q")
    assert code == 0 and "plays of 5-2" in again
    code, _, err = run(capsys, "rollout", INITIAL, "--plays", *FAST)
    assert code == 2 and "--plays needs a roll" in err


def test_rollout_with_a_roll_to_play(capsys):
    code, out, _ = run(capsys, "rollout", INITIAL, "--dice", "31", *FAST)
    assert code == 0 and "with 3-1 to play" in out


def test_rollout_of_a_cube_decision(capsys, tmp_path):
    out_file = tmp_path / "cube.csv"
    code, out, _ = run(
        capsys, "rollout", "4HPwATDgc/ABMA:cIkKAAAAAAAA", "--cube", *FAST, "-o", str(out_file)
    )
    assert code == 0
    assert "cube decision of" in out and "margin" in out
    assert "no double" in out and "double, take" in out and "double, pass" in out
    assert_narrow(out)
    table = pd.read_csv(out_file)
    assert list(table["option"]) == ["no double", "double, take", "double, pass"]
    assert table["verdict"].nunique() == 1
    with pytest.raises(SystemExit):
        main(["rollout", INITIAL, "--cube", "--plays"])


def test_rollout_refuses_an_output_before_the_work(capsys, tmp_path):
    code, out, err = run(capsys, "rollout", INITIAL, *FAST, "-o", str(tmp_path / "r.txt"))
    assert code == 2 and not out and err.startswith("gammonlab rollout: write .csv or .parquet")
    missing = tmp_path / "nowhere" / "r.csv"
    code, out, err = run(capsys, "rollout", INITIAL, *FAST, "-o", str(missing))
    assert code == 2 and not out and "does not exist" in err
    code, _, err = run(capsys, "rollout", "nonsense", *FAST)
    assert code == 1 and err.startswith("gammonlab rollout: Position ID 'nonsense'")


def test_rollout_shows_progress_on_stderr(capsys):
    code, out, err = run(capsys, "rollout", INITIAL, "--trials", "36", "--seed", "1", "-j", "1")
    assert code == 0 and "trial" in err and "trial/s" not in out


# -- simulate -------------------------------------------------------------------------------------


def test_simulate_prints_readable_rules_and_result(capsys):
    code, out, _ = run(capsys, "simulate", "--seed", "1", "--games", "7")
    assert code == 0
    lines = out.splitlines()
    assert (
        lines[0]
        == "rules: standard backgammon, 5-point match, Crawford rule (R10.2), cube in play (R9)"
    )
    assert "Rules(" not in out
    assert lines[1] == "players: pubeval-A (pubeval) and pubeval-B (pubeval)"
    assert lines[2].startswith("result: pubeval-")
    assert " won the 5-point match against pubeval-" in lines[2] and " games" in lines[2]
    assert_narrow(out)


def test_simulate_money_session_result(capsys):
    code, out, _ = run(capsys, "simulate", "--match-length", "0", "--games", "2", "--seed", "1")
    assert code == 0 and "result: money session of 2 games: " in out
    assert "money play" in out.splitlines()[0]


@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
def test_simulate_writes_the_format_of_the_suffix(capsys, tmp_path, suffix):
    out_file = tmp_path / f"m{suffix}"
    code, out, _ = run(
        capsys, "simulate", "--seed", "2", "--match-length", "1", "-o", str(out_file)
    )
    assert code == 0 and f"written to {out_file}" in out
    text = out_file.read_text(encoding="utf-8")
    assert text.startswith("(;FF[4]") == (suffix == ".sgf")
    assert gl.read_match(out_file).match_length == 1


def test_simulate_refuses_other_suffixes(capsys, tmp_path):
    code, out, err = run(capsys, "simulate", "--seed", "1", "-o", str(tmp_path / "m.txt"))
    assert code == 2 and not out
    assert err.startswith("gammonlab simulate: write .mat or .sgf, not '.txt'")
    assert not (tmp_path / "m.txt").exists()


# -- show, plays, read, analyse: narrow ------------------------------------------------------------


def test_show_plays_and_read_are_narrow(capsys, tmp_path, monkeypatch):
    for argv in (["show", OPENING_XGID], ["plays", INITIAL, "11"], ["plays", BARE_XGID]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert_narrow(out)
    # relative paths: the line names the output file, whose folder's length is the runner's
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.mat").write_text(transcript(), encoding="utf-8")
    code, out, _ = run(capsys, "read", "m.mat", "-o", "m.csv", "-q")
    assert code == 0
    assert_narrow(out)


def test_analyse_summary_is_narrow_and_headed_once(capsys, tmp_path):
    source = tmp_path / "a_transcript_with_a_rather_long_file_name_to_see_it_fit.mat"
    source.write_text(transcript("Alexandra_the_great_and_long_named"), encoding="utf-8")
    code, out, _ = run(capsys, "analyse", str(source), "-q", "-j", "1")
    assert code == 0
    assert_narrow(out)
    header = next(line for line in out.splitlines() if line.startswith("player"))
    headings = header.split()
    assert headings.count("player") == 1
    assert "unforced" in headings and "moves" not in headings
    assert source.name in out  # the match's name heads its table
    summary = gl.summarise(gl.analyse(source, progress=False))
    row = next(line for line in out.splitlines() if line.startswith("Alexandra"))
    assert row.split()[1] == str(int(summary["unforced"].iloc[0]))


# -- the summary frame ----------------------------------------------------------------------------


def small_analysis() -> pd.DataFrame:
    return gl.analyse(transcript(), progress=False)


def test_summary_prints_its_main_columns():
    summary = gl.summarise(small_analysis())
    assert isinstance(summary, Summary) and isinstance(summary, pd.DataFrame)
    text = str(summary)
    assert "..." not in text
    for column in BRIEF_COLUMNS:
        assert column in text, column
    assert "checker_equity_loss" not in text
    assert "summary.full() shows all" in text
    assert "Alice" in text and "Bob" in text
    html = summary._repr_html_()
    assert html is not None and "luck_adjusted_result" in html and "summary.full()" in html
    # every column is still there, and what is computed from it is a plain frame
    assert summary["checker_equity_loss"].notna().all()
    assert summary.full().shape == summary.shape and type(summary.full()) is pd.DataFrame
    assert type(summary.reset_index()) is pd.DataFrame
    assert type(summary[["pr", "luck"]]) is pd.DataFrame
    assert list(summary.brief().columns) == [c for c in BRIEF_COLUMNS if c in summary]


def test_summary_moves_and_unforced():
    frame = small_analysis()
    summary = gl.summarise(frame)
    for player, row in summary.iterrows():
        moves = frame[(frame["player"] == player) & (frame["action"] == "move")]
        assert row["moves"] == len(moves)
        assert row["unforced"] == (~moves["forced"].astype(bool)).sum()


# -- the luck-adjusted result is a probability ----------------------------------------------------


def synthetic_match(luck_mwc: tuple[float, float]) -> pd.DataFrame:
    """A finished 1-point match player 0 won, its rolls as lucky as ``luck_mwc`` says."""
    rows = []
    for player in (0, 1):
        rows.append(
            {
                "game": 1,
                "player": player,
                "player_name": "AB"[player],
                "action": "move",
                "forced": False,
                "error_class": "none",
                "play_rank": 1,
                "equity_loss": 0.0,
                "mwc_loss": 0.0,
                "cube_decision": False,
                "cube_error": pd.NA,
                "cube_equity_loss": np.nan,
                "cube_mwc_loss": np.nan,
                "luck": luck_mwc[player] * 2,
                "luck_mwc": luck_mwc[player],
                "cube_value": 1,
                "match_length": 1,
                "score": 0,
                "opp_score": 0,
                "points": np.nan,
            }
        )
    rows.append({**rows[0], "action": "win", "points": 1, "luck": np.nan, "luck_mwc": np.nan})
    return pd.DataFrame(rows)


@pytest.mark.parametrize("luck", [(0.9, -0.4), (-0.3, 0.5), (0.1, 0.05)])
def test_luck_adjusted_result_stays_a_probability(luck):
    summary = gl.summarise(synthetic_match(luck))
    raw = summary["result"] - summary["luck_mwc"] + summary["luck_mwc"][::-1].to_numpy()
    adjusted = summary["luck_adjusted_result"]
    assert ((adjusted >= 0) & (adjusted <= 1)).all()
    np.testing.assert_allclose(adjusted, raw.clip(0, 1))
    assert adjusted.sum() == pytest.approx(1.0)
    assert summary.loc[0, "result"] == 1.0


def test_luck_adjusted_money_result_is_not_clipped():
    frame = synthetic_match((0.9, -0.4)).assign(match_length=0)
    summary = gl.summarise(frame)
    assert summary.loc[0, "luck_adjusted_result"] == pytest.approx(1 - 2 * 0.9 - 2 * 0.4)


@pytest.mark.parametrize("name", ["match1199847.txt", "match7287043.txt"])
def test_luck_adjusted_result_of_real_matches(shared_data, name):
    found = sorted(shared_data.rglob(name))
    if not found:
        needs(f"{name} in the shared corpus at {shared_data}", SET_CORPUS)
    summary = gl.summarise(gl.analyse(found[0], progress=False))
    adjusted = summary["luck_adjusted_result"]
    assert ((adjusted >= 0) & (adjusted <= 1)).all(), adjusted.tolist()
    assert adjusted.sum() == pytest.approx(1.0)
    raw = summary["result"] - summary["luck_mwc"] + summary["luck_mwc"][::-1].to_numpy()
    np.testing.assert_allclose(adjusted, raw.clip(0, 1))


# -- IDs as they are pasted -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        OPENING_XGID,
        BARE_XGID,
        "xgid=" + BARE_XGID,
        f"  {OPENING_XGID}\n",
        "4HPwATDgc/ABMA:cInqAAAAAAAE",
        "Position ID: 4HPwATDgc/ABMA\nMatch ID   : cInqAAAAAAAE",
    ],
)
def test_from_id_reads_every_form(text):
    state = gl.GameState.from_id(text)
    assert state.gnubg_id == "4HPwATDgc/ABMA:cInqAAAAAAAE"
    assert gl.Position.from_id(text) == gl.Position.initial() == state.position


def test_from_id_reads_a_bare_position_id():
    assert gl.Position.from_id(INITIAL) == gl.Position.initial()
    assert gl.GameState.from_id(INITIAL).money


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("hello", "a Position ID"),
        ("", "a Position ID"),
        ("a:b:c", "PositionID:MatchID"),
        ("4HPwATDgc/ABMA:junk", "PositionID:MatchID"),
        ("XGID=nonsense", "an XGID"),
        ("XGID=-bbbb-E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "an XGID"),
    ],
)
def test_from_id_names_the_forms_tried(text, first):
    for read in (gl.GameState.from_id, gl.Position.from_id):
        with pytest.raises(gl.InvalidPositionError) as error:
            read(text)
        message = str(error.value)
        assert f"; read as {first}, the form its shape suggests, and it is not " in message
        for form in ("a Position ID", "PositionID:MatchID", "an XGID"):
            assert form in message
    with pytest.raises(gl.InvalidPositionError, match="an ID is text"):
        gl.GameState.from_id(None)  # type: ignore[arg-type]


def test_from_id_says_first_what_is_wrong_with_the_form_of_the_shape():
    with pytest.raises(gl.InvalidPositionError, match=r"^XGID '.*too many checkers"):
        gl.Position.from_id("XGID=-bbbb-E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
    with pytest.raises(gl.InvalidPositionError, match=r"^Position ID 'hello': expected 14"):
        gl.GameState.from_id("hello")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--plies", "-1"], "--plies must be 0 or more"),
        (["--met", "no-such-table"], "--met no-such-table: no match equity table"),
    ],
)
def test_analyse_refuses_bad_options_before_reading(capsys, tmp_path, options, message):
    source = tmp_path / "a.mat"
    source.write_text(transcript("anna"), encoding="utf-8")
    code, out, err = run(capsys, "analyse", str(source), "-q", *options)
    assert code == 2 and message in err and "Traceback" not in out + err


def test_analyse_names_a_missing_file(capsys, tmp_path):
    missing = tmp_path / "no_such.mat"
    code, _, err = run(capsys, "analyse", str(missing), "-q")
    assert code == 2 and err.startswith(f"{missing}: no such file or folder")


def test_read_of_nothing_readable_gives_the_located_reasons(capsys, tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;GM[6]MI[length:x];W[99zz]", encoding="utf-8")
    code, _, err = run(capsys, "read", str(bad), "-o", str(tmp_path / "o.csv"), "-q")
    assert code == 1
    assert f"{bad}:1:8:" in err and "nothing could be read" in err
    assert all(line.startswith((f"{bad}:", "gammonlab read:")) for line in err.splitlines())
