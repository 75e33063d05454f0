"""The command line, run in process."""

from __future__ import annotations

import pytest

import gammonlab as gl
from gammonlab.cli import main

OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"


def test_show_xgid(capsys):
    assert main(["show", OPENING_XGID]) == 0
    out = capsys.readouterr().out
    assert "7-point match" in out and "4HPwATDgc/ABMA:cInqAAAAAAAE" in out and "BAR" in out


def test_plays_with_dice_from_the_id(capsys):
    assert main(["plays", OPENING_XGID]) == 0
    out = capsys.readouterr().out
    assert out.startswith("5-2: 8 legal plays")
    assert "13/8 13/11" in out


@pytest.mark.parametrize("dice", ["65", "6-5", "6,5"])
def test_plays_dice_spellings(capsys, dice):
    assert main(["plays", "4HPwATDgc/ABMA", dice]) == 0
    assert "7 legal plays" in capsys.readouterr().out


def test_errors(capsys):
    assert main(["show", "not-an-id"]) == 1
    assert "expected 14 characters" in capsys.readouterr().err
    assert main(["plays", "4HPwATDgc/ABMA"]) == 2
    with pytest.raises(SystemExit):
        main(["plays", "4HPwATDgc/ABMA", "77"])


@pytest.mark.parametrize("suffix", [".mat", ".sgf"])
def test_simulate_writes_a_match_that_reads_back(tmp_path, capsys, suffix):
    out = tmp_path / f"match{suffix}"
    argv = [
        "simulate",
        "--variant",
        "nackgammon",
        "--match-length",
        "3",
        "--seed",
        "5",
        "--players",
        "pubeval",
        "random",
        "--holland",
        "on",
        "-o",
        str(out),
    ]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(
        "rules: nackgammon, 3-point match, Crawford rule (R10.2), cube in play (R9), "
        "Holland rule (R10.3)\n"
    )
    match = gl.read_match(out)
    assert match.rules == gl.Rules(variant="nackgammon", match_length=3, holland=True)
    assert max(match.score) >= 3
    winner, loser = ("pubeval", "random") if match.winner == 0 else ("random", "pubeval")
    high, low = max(match.score), min(match.score)
    assert f"result: {winner} won the 3-point match against {loser}, {high}-{low} in " in printed
    again = tmp_path / f"again{suffix}"
    assert main([*argv[:-1], str(again)]) == 0  # the same seed, the same match
    assert again.read_text() == out.read_text()


def test_simulate_presets_and_options(capsys):
    assert (
        main(
            [
                "simulate",
                "--preset",
                "gnubg",
                "--match-length",
                "0",
                "--games",
                "2",
                "--seed",
                "1",
                "--cube-limit",
                "8",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert " ".join(out.split("\nplayers:")[0].split()) == (
        "rules: standard backgammon, money play, cube in play up to 8 (R9.6), Jacoby rule "
        "(R10.1), beavers and raccoons (R10.6)"
    )
    assert "result: money session of 2 games: " in out
    assert main(["simulate", "--preset", "seed-000", "--seed", "3", "--games", "1"]) == 0
    assert " ".join(capsys.readouterr().out.split("\nplayers:")[0].split()) == (
        "rules: standard backgammon, 5-point match, seed 000's scoring: 1, 2 or 4 points (R8.4), "
        "Crawford rule (R10.2), cube in play (R9), automatic doubles: seed 000's (R10.4)"
    )


def test_simulate_errors(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--variant", "chouette"])
    assert "invalid choice: 'chouette'" in capsys.readouterr().err
    assert main(["simulate", "--match-length", "0"]) == 1
    assert "needs games=" in capsys.readouterr().err
    assert main(["simulate", "--seed", "1", "-o", "match.csv"]) == 2
