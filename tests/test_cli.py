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
    assert printed.startswith("Rules(variant='nackgammon', match_length=3, holland=True)")
    match = gl.read_match(out)
    assert match.rules == gl.Rules(variant="nackgammon", match_length=3, holland=True)
    assert max(match.score) >= 3
    assert f"pubeval {match.score[0]}, random {match.score[1]}" in printed
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
    assert out.startswith(
        "Rules(variant='standard', jacoby=True, beavers=True, raccoons=True, cube_limit=8)"
    )
    assert "money session, 2 games" in out
    assert main(["simulate", "--preset", "seed-000", "--seed", "3", "--games", "1"]) == 0
    assert capsys.readouterr().out.startswith(
        "Rules(variant='standard', match_length=5, scoring='seed-000', auto_doubles='seed-000')"
    )


def test_simulate_errors(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--variant", "chouette"])
    assert "invalid choice: 'chouette'" in capsys.readouterr().err
    assert main(["simulate", "--match-length", "0"]) == 1
    assert "needs games=" in capsys.readouterr().err
    assert main(["simulate", "--seed", "1", "-o", "match.csv"]) == 2
