"""The command line, run in process."""

from __future__ import annotations

import pytest

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
