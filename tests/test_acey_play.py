"""Acey-Deucey (R2.4, R11) through the public API: positions, legal plays,
notation, explanations, diagrams and IDs.

Scenario positions have checkers waiting off the board, which no Position ID
can record: they are built from their ASCII diagram's counts with
:func:`acey`. The expected plays are worked out by hand from the rules.
"""

from __future__ import annotations

import numpy as np
import pytest

import gammonlab as gl
from gammonlab import Position

VARIANT = "acey-deucey"


def acey(
    me: dict[int, int], opponent: dict[int, int], *, off: tuple[int, int] = (0, 0)
) -> Position:
    """An Acey-Deucey position from the checkers on each side's points (own numbering,
    25 the bar); the checkers not placed or borne off wait to enter."""
    board = np.zeros((2, 26), dtype=np.int8)
    for row, points in enumerate((me, opponent)):
        for point, count in points.items():
            board[row, point] = count
        board[row, 0] = off[row]
    return Position.from_board(board, VARIANT)


def positions(pos: Position, texts: list[str], dice: tuple[int, int]) -> set[Position]:
    return {pos.play(text, dice) for text in texts}


def legal_positions(pos: Position, dice: tuple[int, int]) -> set[Position]:
    return {play.position for play in pos.legal_plays(dice)}


# -- scenarios ------------------------------------------------------------------------------


def test_r2_4_every_checker_starts_off_the_board():
    """R2.4: All 15 checkers of each side start off the board; 6-5 enters two checkers
    or one that moves on.

    Position.initial("acey-deucey"), roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 375  off 0  to enter 15
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 375  off 0  to enter 15  (on roll)
    """
    pos = Position.initial(VARIANT)
    assert not pos.board.any()
    assert pos.waiting == (15, 15)
    assert pos.borne_off == (0, 0)
    assert pos.pips == (15 * 25, 15 * 25)
    assert "to enter 15" in str(pos)
    # in/19 in/20; in/19/14 and in/20/14 reach one position
    assert legal_positions(pos, (6, 5)) == positions(pos, ["in/19 in/20", "in/14"], (6, 5))
    assert len(pos.legal_plays((6, 5))) == 2
    # 4-4: one checker in/9; in/13 in/21; in/17(2); in/17 in/21(2); in/21(4)
    fours = ["in/9", "in/13 in/21", "in/17(2)", "in/17 in/21(2)", "in/21(4)"]
    assert legal_positions(pos, (4, 4)) == positions(pos, fours, (4, 4))
    assert len(pos.legal_plays((4, 4))) == 5


def test_r11_1_entering_is_on_the_opponents_home_board_and_can_be_blocked():
    """R11.1 / R6.4: 6-5 cannot enter on 19 or 20 (the opponent's 6- and 5-points);
    only the 6 can be played, by the checker on 10 (R5.3), and it may not bear off
    while 14 checkers wait (R7.1).

    Roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 297  off 0  to enter 11
     |                  |   | O  O             |
     |                  |   | O  O             |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |       X          |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 360  off 0  to enter 14  (on roll)
    """
    pos = acey({10: 1}, {6: 2, 5: 2})
    assert pos.waiting == (14, 11)
    assert pos.legal_plays((6, 5)).notations == ["10/4"]
    blocked = pos.explain("in/20", (6, 5))
    assert not blocked.legal and blocked.rule == "R6.4"
    bear_off = pos.explain("10/4/off", (6, 5))
    assert bear_off.rule == "R7.1" and "R11.1" in bear_off.reason
    smaller = pos.explain("10/5", (6, 5))
    assert smaller.rule == "R5.3"
    # with 3-1 the checkers enter on the open 22 and 24
    assert pos.explain("in/22 in/24", (3, 1)).legal


def test_r11_1_a_waiting_checker_is_not_on_the_bar():
    """R11.1: a checker waiting off the board enters from 'in', not from the bar.

    Roll 6-5, one checker home, 14 waiting::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 375  off 0  to enter 15
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   | X                |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 356  off 0  to enter 14  (on roll)
    """
    pos = acey({6: 1}, {})
    explanation = pos.explain("bar/19 in/20", (6, 5))
    assert not explanation.legal and explanation.rule == "R11.1"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R11.1\)"):
        pos.play("bar/19 in/20", (6, 5))


def test_r11_1_bearing_off_waits_for_every_checker_to_enter():
    """R7.1 / R11.1: 14 checkers home, one still to enter: no checker bears off.

    Roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 375  off 0  to enter 15
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   | X  X             |
     |                  |   | X  X  X          |
     |                  |   | X  X  X          |
     |                  |   | X  X  X          |
     |                  |   | X  X  X          |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 96  off 0  to enter 1  (on roll)
    """
    pos = acey({6: 5, 5: 5, 4: 4}, {})
    explanation = pos.explain("6/off 5/off", (6, 5))
    assert explanation.rule == "R7.1" and "1 still waits" in explanation.reason
    # without the waiting checker the same board bears off as usual (R11.3)
    home = acey({6: 5, 5: 5, 4: 5}, {})
    assert home.explain("6/off 5/off", (6, 5)).legal


def test_r11_2_acey_deucey_plays_the_1_the_2_then_any_doubles_and_rolls_again():
    """R11.2: from the start, 1-2 enters on 24 and 23, then the player chooses doubles.

    Position.initial("acey-deucey"), roll 1-2 (diagram as in R2.4).
    """
    pos = Position.initial(VARIANT)
    plays = pos.legal_plays((1, 2))
    assert plays.doubles is not None and set(plays.doubles.tolist()) == set(range(1, 7))
    sixes = pos.find_play("in/24 in/23 then 6-6: in/19(4)", (2, 1))
    assert sixes.doubles == 6 and len(sixes.moves) == 6 and sixes.roll_again
    assert sixes.position.waiting == (15, 9)
    assert sixes.position in legal_positions(pos, (1, 2))
    # any doubles: 3-3 moving the checkers already entered
    threes = pos.find_play("in/22 then 3-3: 22/16 in/22(2)", (1, 2))
    assert threes.doubles == 3 and threes.roll_again
    assert threes.position.swapped().board[0, [16, 22]].tolist() == [1, 2]
    # the 1-2 alone, or the doubles short of what can be played, are illegal
    alone = pos.explain("in/24 in/23", (1, 2))
    assert not alone.legal and alone.rule == "R11.2"
    assert alone.example is not None and " then " in alone.example
    short = pos.explain("in/24 in/23 then 6-6: in/19(3)", (1, 2))
    assert short.rule == "R5.4"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R11.2\)"):
        pos.play("in/24 in/23", (1, 2))


def test_r11_2_a_1_2_not_played_in_full_has_no_doubles():
    """R11.2 / R5.2: the 2 cannot be played (23 and 22 are blocked), so only the 1 is
    played: no doubles, no roll again.

    Roll 1-2::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 285  off 0  to enter 11
     |                  |   |          O  O    |
     |                  |   |          O  O    |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 375  off 0  to enter 15  (on roll)
    """
    pos = acey({}, {2: 2, 3: 2})
    plays = pos.legal_plays((1, 2))
    assert plays.notations == ["in/24"]
    assert plays[0].doubles is None and not plays[0].roll_again
    explanation = pos.explain("in/24 then 1-1: 24/23", (1, 2))
    assert explanation.rule == "R11.2"


def test_r11_3_the_bar_comes_first_and_entering_hits_blots():
    """R11.3 / R6.3: the checker on the bar enters before a waiting checker or the 8;
    and entering on a blot hits it (R6.1).

    Roll 6-5::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 375  off 0  to enter 15
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |             X    | X |                  |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 358  off 0  to enter 13  (on roll)
    """
    pos = acey({25: 1, 8: 1}, {})
    texts = ["bar/19 in/20", "bar/14", "bar/19 8/3", "bar/20 8/2"]
    assert legal_positions(pos, (6, 5)) == positions(pos, texts, (6, 5))
    assert len(pos.legal_plays((6, 5))) == 4
    assert pos.explain("in/20 8/2", (6, 5)).rule == "R6.3"
    # a blot on the opponent's 6-point (our 19) is hit by a checker entering there
    blot = acey({}, {6: 1})
    hit = blot.find_play("in/19* in/20", (6, 5))
    assert hit.hits == (19,)
    assert hit.position.on_bar == (1, 0)


# -- notation, laziness, IDs, pictures -----------------------------------------------------


def test_entering_notation_reads_and_writes():
    pos = Position.initial(VARIANT)
    play = pos.find_play("in/22(2) 22/19(2)", (3, 3))
    assert play.moves == ((26, 22), (26, 22), (22, 19), (22, 19))
    assert play.notation == "in/19(2)"
    assert pos.explain("in/22(2)", (3, 3)).rule == "R5.4"
    assert pos.find_play("in/22(4)", (3, 3)).notation == "in/22(4)"
    with pytest.raises(gl.InvalidNotationError):
        gl.Position.initial(VARIANT).play("24/in", (3, 1))
    with pytest.raises(gl.InvalidNotationError):
        pos.play("in/24 then 6-5: in/19", (1, 2))


@pytest.mark.parametrize(
    ("games", "least_checked", "least_twelves"),
    [(3, 750, 100), pytest.param(12, 1000, 50, marks=pytest.mark.slow)],
)
def test_round_trip_over_random_acey_deucey_play(games, least_checked, least_twelves):
    """str(play) reads back (Position.play, find_play, Play.parse) to the same play, for
    plays drawn from random games, 1-2 rolls and their doubles included."""
    rng = np.random.default_rng(11)
    checked = twelves = 0
    for _ in range(games):
        pos = Position.initial(VARIANT)
        for _ in range(120):
            dice = (int(rng.integers(1, 7)), int(rng.integers(1, 7)))
            if rng.random() < 0.15:
                dice = (1, 2)
            plays = pos.legal_plays(dice)
            if len(plays) == 0:
                pos = pos.swapped()
                continue
            for index in rng.integers(len(plays), size=min(3, len(plays))):
                play = plays[int(index)]
                text = str(play)
                found = pos.find_play(text, dice)
                assert found == play and str(found) == text
                assert gl.Play.parse(text, pos, dice) == play
                assert pos.play(text, dice) == play.position
                assert found.position.board[1].sum() + found.position.waiting[1] == 15
                checked += 1
                twelves += play.doubles is not None
            pos = play.position
            if pos.is_game_over:
                break
    print(f"{games} games: {checked} plays read back, {twelves} after a 1-2")
    assert checked > least_checked and twelves > least_twelves


def test_a_1_2_keeps_its_plays_as_arrays(monkeypatch):
    pos = acey({24: 2, 13: 3, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    built = []
    original = gl.Play.__init__

    def counting(self, *args, **kwargs):
        built.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(gl.Play, "__init__", counting)
    plays = pos.legal_plays((2, 1))
    assert len(plays) > 1000 and plays.boards.shape == (len(plays), 2, 26)
    assert not built
    assert plays[len(plays) - 1].doubles in range(1, 7)
    assert len(built) == 1


def test_position_id_refuses_waiting_checkers_and_reads_back_without_them():
    pos = acey({6: 5, 5: 5}, {})
    with pytest.raises(gl.InvalidPositionError, match="waiting to enter"):
        pos.gnubg_id  # noqa: B018
    entered = acey({6: 5, 5: 5, 4: 3}, {13: 15}, off=(2, 0))
    assert entered.waiting == (0, 0)
    assert Position.from_gnubg_id(entered.gnubg_id, VARIANT) == entered
    assert eval(repr(pos), {"Position": Position}) == pos
    assert "waiting=(5, 15)" in repr(pos)
    with pytest.raises(gl.InvalidPositionError, match="waiting"):
        Position.from_board(pos.board, VARIANT, waiting=(0, 0))
    state = gl.GameState(pos, dice=(2, 1))
    with pytest.raises(gl.InvalidPositionError, match="waiting to enter"):
        state.xgid  # noqa: B018
    assert state.match_id in str(state) and "to enter 5" in str(state)


def test_svg_shows_the_waiting_checkers_and_entering_arrows():
    pos = Position.initial(VARIANT).play("in/14", (6, 5))
    svg = pos._repr_svg_()
    assert svg.count("waiting-checker") == 15 + 14
    assert "14 to enter" in svg and "364 pips" in svg
    play = Position.initial(VARIANT).legal_plays((6, 5))[0]
    assert 'class="arrow' in play._repr_svg_()
