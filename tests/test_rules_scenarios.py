"""Scenario tests: one position per rule of ``rules.md`` (R4-R7).

Each scenario gives the position's GNU Backgammon Position ID and an ASCII
diagram (the side on roll, X, at the bottom), the roll, the exact set of
legal plays where it is small, and illegal plays with the rule they break.
"""

from __future__ import annotations

import pytest

import gammonlab as gl


def test_r4_3_jump_over_blocked_points():
    """R4.3: A checker jumps the opponent's points 20-22; only landing points count.

    Position ID bAMAAAAAQAAAAA, roll 6-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 9
     |                  |   |    O  O  O     X |
     |                  |   |    O  O  O       |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 14  (on roll)
    """
    pos = gl.Position.from_gnubg_id("bAMAAAAAQAAAAA")
    plays = pos.legal_plays((6, 1))
    assert sorted(plays.notations) == ["24/17"]
    assert pos.explain("24/23 23/17", (6, 1)).legal


def test_r4_4_both_dice_one_checker_needs_open_midpoint():
    """R4.4: 24/13 must touch down on 19: 18 is blocked, 19 is open.

    Position ID wAAAAAAABAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 14  off 13
     |                O |   |                X |
     |                O |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 14  (on roll)
    """
    pos = gl.Position.from_gnubg_id("wAAAAAAABAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["24/13"]
    explanation = pos.explain("24/18/13", (6, 5))
    assert not explanation.legal and explanation.rule == "R4.2"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R4.2\)"):
        pos.play("24/18/13", (6, 5))


def test_r4_4_blocked_midpoints_stop_a_combined_move():
    """R4.4: With 18 and 19 blocked, the back checker cannot use both dice;
    only the 5 can be played (6/1).

    Position ID YAMAAAQAIAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 26  off 11
     |                O |   | O              X |
     |                O |   | O                |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 30  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("YAMAAAQAIAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["6/1"]
    explanation = pos.explain("24/13", (6, 5))
    assert not explanation.legal and explanation.rule == "R4.4"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R4.4\)"):
        pos.play("24/13", (6, 5))


def test_r4_2_blocked_point_and_blot():
    """R4.2: Landing on the blot on 18 hits it (R6.1); 19 is blocked.

    Position ID /h8WAADg/wcAIA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 43  off 0
     |                O |   | O           O  X |
     |                  |   | O           O    |
     |                  |   |             O    |
     |                  |   |             O    |
     |                  |   |            12    |
    v|                  |BAR|                  |
     |                  |   |14                |
     |                  |   | X                |
     |                  |   | X                |
     |                  |   | X                |
     |                  |   | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 108  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("/h8WAADg/wcAIA")
    plays = pos.legal_plays((6, 5))
    assert len(plays) == 2
    assert "24/18*" in plays.notations[0] or any("24/18*" in n for n in plays.notations)
    explanation = pos.explain("24/19", (6, 5))
    assert not explanation.legal and explanation.rule == "R4.2"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R4.2\)"):
        pos.play("24/19", (6, 5))


def test_r6_2_hit_and_continue():
    """R6.2: A checker may hit with one die and continue with the other.

    Position ID /n8QAADg/wcAIA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 35  off 0
     |                O |   |             O  X |
     |                  |   |             O    |
     |                  |   |             O    |
     |                  |   |             O    |
     |                  |   |            14    |
    v|                  |BAR|                  |
     |                  |   |14                |
     |                  |   | X                |
     |                  |   | X                |
     |                  |   | X                |
     |                  |   | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 108  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("/n8QAADg/wcAIA")
    plays = pos.legal_plays((6, 5))
    assert len(plays) == 3
    assert "24/18*/13" in plays.notations
    assert pos.play("24/18*/13", (6, 5)).on_bar == (1, 0)


def test_r5_1_both_dice_must_be_played():
    """R5.1: Opening 6-5: playing one die only is illegal.

    Position ID 4HPwATDgc/ABMA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 167  off 0
     | X           O    |   | O              X |
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    v|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    |   | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 167  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("4HPwATDgc/ABMA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == [
        "13/2",
        "13/7 13/8",
        "13/7 8/3",
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "8/2 8/3",
    ]
    explanation = pos.explain("13/7", (6, 5))
    assert not explanation.legal and explanation.rule == "R5.1"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.1\)"):
        pos.play("13/7", (6, 5))
    explanation = pos.explain("24/18", (6, 5))
    assert not explanation.legal and explanation.rule == "R5.1"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.1\)"):
        pos.play("24/18", (6, 5))


def test_r5_2_only_one_number_playable():
    """R5.2: Only the 5 can be played (6/1); the 6 is blocked everywhere.

    Position ID YAMAAAQAIAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 26  off 11
     |                O |   | O              X |
     |                O |   | O                |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 30  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("YAMAAAQAIAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["6/1"]


def test_r5_3_larger_die_when_not_both():
    """R5.3: Either die alone can be played from 10 but not both: the 6 must be played.

    Position ID YAMAAEAAIAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 26  off 11
     |                O |   | O              X |
     |                O |   | O                |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |       X          |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 34  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("YAMAAEAAIAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["10/4"]
    explanation = pos.explain("10/5", (6, 5))
    assert not explanation.legal and explanation.rule == "R5.3"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.3\)"):
        pos.play("10/5", (6, 5))


def test_r5_4_doubles_as_many_as_possible():
    """R5.4: 6-6: 24/18/12, then 12/6 is blocked: two sixes are played.

    Position ID AAAMAAAABAAAAA, roll 6-6::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 38  off 13
     |                  |   |                X |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | O                |
     |                  |   | O                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 14  (on roll)
    """
    pos = gl.Position.from_gnubg_id("AAAMAAAABAAAAA")
    plays = pos.legal_plays((6, 6))
    assert sorted(plays.notations) == ["24/12"]
    explanation = pos.explain("24/18", (6, 6))
    assert not explanation.legal and explanation.rule == "R5.4"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.4\)"):
        pos.play("24/18", (6, 6))


def test_r5_5_no_number_can_be_played():
    """R5.5: The back checker is shut in: 18 and 19 are blocked.

    Position ID YAMAAAAAEAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 26  off 11
     |                O |   | O              X |
     |                O |   | O                |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 14  (on roll)
    """
    pos = gl.Position.from_gnubg_id("YAMAAAAAEAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == []
    explanation = pos.explain("24/13", (6, 5))
    assert not explanation.legal and explanation.rule == "R5.5"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.5\)"):
        pos.play("24/13", (6, 5))


def test_r6_3_bar_first():
    """R6.3: A checker on the bar must enter before anything else moves.

    Position ID 4HPwATDgc/ABUA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 167  off 0
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    v|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    | X | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 168  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("4HPwATDgc/ABUA")
    plays = pos.legal_plays((6, 5))
    assert len(plays) == 4
    explanation = pos.explain("13/7 13/8", (6, 5))
    assert not explanation.legal and explanation.rule == "R6.3"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R6.3\)"):
        pos.play("13/7 13/8", (6, 5))


def test_r6_4_entry_point_blocked():
    """R6.4: Die n enters on the opponent's n-point: the 5 enters on 20, the
    6-point (19) is blocked.

    Position ID 4HPwATDgc/ABUA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 167  off 0
     | X           O    |   | O              X |
     | X           O    |   | O                |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    v|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |
     | O           X    | X | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 168  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("4HPwATDgc/ABUA")
    plays = pos.legal_plays((6, 5))
    assert len(plays) == 4
    explanation = pos.explain("bar/19", (6, 5))
    assert not explanation.legal and explanation.rule == "R6.4"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R6.4\)"):
        pos.play("bar/19", (6, 5))


def test_r6_5_two_on_the_bar_one_enters():
    """R6.5: Two checkers on the bar; only the 5 enters; the 6 is lost.

    Position ID 4HPwATDgc/ABYA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 167  off 0
     | X           O    |   | O                |
     | X           O    |   | O                |
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    v|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    | X | X              O |
     | O           X    | X | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 169  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("4HPwATDgc/ABYA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["bar/20"]
    explanation = pos.explain("bar/20 20/14", (6, 5))
    assert not explanation.legal and explanation.rule == "R6.3"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R6.3\)"):
        pos.play("bar/20 20/14", (6, 5))


def test_r6_5_two_on_the_bar_both_enter():
    """R6.5: Two checkers on the bar, both entry points open: both dice enter.

    Position ID H3DwATDgc/ABYA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 142  off 0
     | X           O    |   |                O |
     | X           O    |   |                O |
     | X           O    |   |                O |
     | X                |   |                O |
     | X                |   |                O |
    v|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    | X | X              O |
     | O           X    | X | X              O |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 169  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("H3DwATDgc/ABYA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["bar/19 bar/20"]


def test_r6_6_closed_board():
    """R6.6: Against a closed board no checker can enter: the turn is lost.

    Position ID 27YBBwDg5+ADQA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 81  off 0
     | X                |   | O  O  O  O  O  O |
     | X                |   | O  O  O  O  O  O |
     | X                |   |                  |
     | X                |   |                  |
     | X                |   |                  |
    v|                  |BAR|                  |
     |                  |   | 6                |
     |                  |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X                |
     | O           X    | X | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 150  off 0  (on roll)
    """
    pos = gl.Position.from_gnubg_id("27YBBwDg5+ADQA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == []
    explanation = pos.explain("bar/20", (6, 5))
    assert not explanation.legal and explanation.rule == "R6.6"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R6.6\)"):
        pos.play("bar/20", (6, 5))


def test_r7_1_no_bear_off_with_checker_outside():
    """R7.1: A checker on 7 keeps the side from bearing off.

    Position ID ABgAgC0AAAAAAA, roll 6-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X  X             |
     |                X |   | X  X             |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 29  off 10  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgAgC0AAAAAAA")
    plays = pos.legal_plays((6, 1))
    assert len(plays) == 3
    explanation = pos.explain("6/off 6/5", (6, 1))
    assert not explanation.legal and explanation.rule == "R7.1"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R7.1\)"):
        pos.play("6/off 6/5", (6, 1))


def test_r7_2_bear_off_exact():
    """R7.2: A die n bears off a checker from the n-point.

    Position ID ABgAQAIAAAAAAA, roll 6-4::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X     X          |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 10  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgAQAIAAAAAAA")
    plays = pos.legal_plays((6, 4))
    assert sorted(plays.notations) == ["6/2 4/off", "6/off 4/off"]


def test_r7_3_higher_checker_must_move():
    """R7.3: The 5-point is empty and a checker stands on 6: the 5 moves it;
    2/off with the 5 comes only after.

    Position ID ABgAEAIAAAAAAA, roll 5-4::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X           X    |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 8  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgAEAIAAAAAAA")
    plays = pos.legal_plays((5, 4))
    assert sorted(plays.notations) == ["6/1 2/off", "6/off"]
    assert pos.explain("2/off 6/2", (5, 4)).legal


def test_r7_3_higher_checker_must_move_first():
    """R7.3: Three checkers on 6: a 5 cannot bear off from 2; it must move 6/1.

    Position ID ABgAEA4AAAAAAA, roll 5-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X                |
     |                  |   | X                |
     |                  |   | X           X    |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 20  off 11  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgAEA4AAAAAAA")
    plays = pos.legal_plays((5, 1))
    assert len(plays) == 3
    explanation = pos.explain("2/off 6/5", (5, 1))
    assert not explanation.legal and explanation.rule == "R7.3"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R7.3\)"):
        pos.play("2/off 6/5", (5, 1))


def test_r7_4_bear_off_from_highest():
    """R7.4: No checker on the 6- or 5-point or higher: both dice bear off from the highest points.

    Position ID ABgAUAAAAAAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |          X  X    |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 5  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgAUAAAAAAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["3/off 2/off"]


def test_r7_5_bearing_off_not_compulsory():
    """R7.5: A 1 may bear off from the 1-point or move 6/5.

    Position ID ABgACAIAAAAAAA, roll 1-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 24  off 13
     | O                |   |                  |
     | O                |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X              X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 7  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("ABgACAIAAAAAAA")
    plays = pos.legal_plays((1, 1))
    assert len(plays) == 2
    assert any("off" not in n for n in plays.notations)
    assert any("off" in n for n in plays.notations)


def test_r4_1_each_die_moves_one_checker_forward():
    """R4.1: Each die moves one checker by its number, towards the 1-point: with 4-2
    the two checkers on 12 go to 8 and 10, or one goes 12/6 a die at a time.

    Position ID +L4PAAAAGAAAAA, roll 4-2::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 75  off 0
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     | X                |   |                  |
     | X                |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("+L4PAAAAGAAAAA")
    plays = pos.legal_plays((4, 2))
    assert sorted(plays.notations) == ["12/6", "12/8 12/10"]
    for play in plays:
        assert sorted(source - target for source, target in play.moves) == [2, 4]
    for text in ("12/14 12/8", "12/9", "12/8 12/6"):
        explanation = pos.explain(text, (4, 2))
        assert not explanation.legal and explanation.rule == "R4.1", text
    with pytest.raises(gl.IllegalPlayError, match=r"forward only.*\(R4.1\)"):
        pos.play("12/14 12/8", (4, 2))


def test_r4_5_doubles_are_played_four_times():
    """R4.5: 2-2 is four moves of 2, split between the two checkers as the player likes.

    Position ID +L4PAAAAGAAAAA, roll 2-2::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 75  off 0
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     | X                |   |                  |
     | X                |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 24  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("+L4PAAAAGAAAAA")
    plays = pos.legal_plays((2, 2))
    assert sorted(plays.notations) == ["12/4", "12/6 12/10", "12/8(2)"]
    for play in plays:
        assert [source - target for source, target in play.moves] == [2, 2, 2, 2]
    assert pos.play("12/10 10/8 12/10 10/8", (2, 2)) == pos.play("12/8(2)", (2, 2))
    explanation = pos.explain("12/10 12/10", (2, 2))
    assert not explanation.legal and explanation.rule == "R5.4"


def test_r4_6_a_point_never_holds_both_colours():
    """R4.6: A board with both sides on one point is refused; a hit leaves the point
    to the hitter alone (the blot on 11 goes to the bar).

    Position ID eN8HCAAAMAAAAA, roll 2-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 85  off 0
     | X                |   | O  O  O          |
     | X                |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O             |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |    O             |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 26  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("eN8HCAAAMAAAAA")
    shared = pos.board.copy()
    shared[0, 11] = 1
    shared[0, 13] = 1
    with pytest.raises(gl.InvalidPositionError, match=r"point 11 .* both sides.*\(R4.6\)"):
        gl.Position.from_board(shared)
    plays = pos.legal_plays((2, 1))
    hit = pos.play("13/11* 13/12", (2, 1)).swapped()  # the mover's side again in row 0
    assert (hit.board[0, 11], hit.board[1, 25 - 11], hit.on_bar) == (1, 0, (0, 1))
    for play in plays:
        board = play.position.board
        assert not ((board[0, 1:25] > 0) & (board[1, 24:0:-1] > 0)).any(), play.notation


def test_r5_6_a_move_must_be_played_even_when_bad():
    """R5.6: 6-5 must be played 8/2 8/3, breaking the 8-point; passing is illegal.

    Position ID +L4PAACAAQAAAA, roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 75  off 0
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |             X    |   |                  |
     |             X    |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 16  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("+L4PAACAAQAAAA")
    plays = pos.legal_plays((6, 5))
    assert sorted(plays.notations) == ["8/2 8/3"]
    for text in ("", "Cannot Move"):
        explanation = pos.explain(text, (6, 5))
        assert not explanation.legal and explanation.rule == "R5.6"
        assert explanation.example == "8/2 8/3"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R5.6\)"):
        pos.play("", (6, 5))


def test_r6_1_hitting_is_never_compulsory():
    """R6.1: 2-1 may hit the blot on 11 (13/11*) or play 13/12/10 past it.

    Position ID eN8HCAAAMAAAAA, roll 2-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 85  off 0
     | X                |   | O  O  O          |
     | X                |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O             |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |    O             |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 26  off 13  (on roll)
    """
    pos = gl.Position.from_gnubg_id("eN8HCAAAMAAAAA")
    plays = pos.legal_plays((2, 1))
    assert sorted(plays.notations) == ["13/10", "13/11* 13/12", "13/11*/10"]
    on_bar = {play.notation: play.position.on_bar for play in plays}
    # the position after the play has the opponent on roll: its bar is on_bar[0]
    assert on_bar == {"13/10": (0, 0), "13/11* 13/12": (1, 0), "13/11*/10": (1, 0)}
    assert pos.explain("13/12/10", (2, 1)).play.notation == "13/10"


def test_r7_6_a_checker_hit_in_the_bear_off_comes_home_first():
    """R7.6: X has borne off 4 checkers and was hit. With 6-1 the checker enters on 24
    (19 is blocked) and must run on with the 6: nothing bears off. Once on 18 it still
    stops the bear-off; back on 7, 6-5 brings it home and bearing off resumes.

    Position ID +L4PAABsdwAABA, roll 6-1::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 75  off 0
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
     |                  |   | O  O  O          |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X  X             |
     |                  |   | X  X  X  X       |
     |                  | X | X  X  X  X       |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 72  off 4  (on roll)

    Then the same with the checker on 18 (+L4PAABsdwAIAA, roll 6-5) and on 7
    (+L4PAABsdwEAAA, roll 6-5).
    """
    hit = gl.Position.from_gnubg_id("+L4PAABsdwAABA")
    assert hit.borne_off[0] == 4 and hit.on_bar[0] == 1
    assert sorted(hit.legal_plays((6, 1)).notations) == ["bar/18"]
    for text in ("bar/24 6/off", "bar/24 3/off"):
        explanation = hit.explain(text, (6, 1))
        assert not explanation.legal and explanation.rule == "R7.1", text
    with pytest.raises(gl.IllegalPlayError, match=r"\(R7.1\)"):
        hit.play("bar/24 6/off", (6, 1))
    outside = gl.Position.from_gnubg_id("+L4PAABsdwAIAA")
    assert sorted(outside.legal_plays((6, 5)).notations) == ["18/12 6/1", "18/7"]
    explanation = outside.explain("6/off 5/off", (6, 5))
    assert not explanation.legal and explanation.rule == "R7.1"
    back = gl.Position.from_gnubg_id("+L4PAABsdwEAAA")
    assert sorted(back.legal_plays((6, 5)).notations) == ["7/1 5/off", "7/1 6/1", "7/2 6/off"]
