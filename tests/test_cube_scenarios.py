"""Scenario tests for the scoring and cube rules of ``rules.md``: the opening (R3.3),
seed 000's scoring (R8.4), doubling (R9.2-R9.5), the cube limit (R9.6), Jacoby (R10.1),
Crawford (R10.2), Holland (R10.3), automatic doubles (R10.4, R10.5), beavers and
raccoons (R10.6).

Each scenario shows its position (Position ID and ASCII diagram, X on roll at
the bottom, Anna = player 0 = X) and checks what the game state machine makes
of it: the points a game is worth, the cube's value and its owner.
"""

from __future__ import annotations

import pytest

import gammonlab as gl
from gammonlab.io.raw import Location, RawAction
from gammonlab.match.replay import _Replay

WHERE = Location("scenario", 1, 1, "")
ANNA, BOB = 0, 1


def transcript(rows: str, *, length: int = 0, score=(0, 0), cube: int = 1) -> str:
    """A one-game ``.mat`` transcript (``; [Cube "n"]``: the cube before play, R10.5)."""
    start = f'; [Cube "{cube}"]\n' if cube != 1 else ""
    return (
        f" {length} point match\n\n Game 1\n{start} Anna : {score[0]}"
        f"                          Bob : {score[1]}\n" + rows
    )


def bear_off(
    rules: gl.Rules, position_id: str, *actions: RawAction, cube: int = 1, owner: int | None = None
) -> _Replay:
    """Anna (X, on roll) in ``position_id`` with the cube at ``cube``: the cube
    actions given, then she rolls 2-1 and bears off her last checker."""
    game = _Replay(rules, (0, 0), False, ("Anna", "Bob"), stated_rules=True)
    game.position = gl.Position.from_gnubg_id(position_id)
    game.on_roll, game.rolls = ANNA, [9, 9]
    game.cube, game.owner, game.cube_turned = cube, owner, owner is not None
    for action in (
        *actions,
        RawAction(player=ANNA, kind="move", dice=(2, 1), play="1/off", loc=WHERE),
    ):
        game.apply(action, None)
    assert game.winner == ANNA
    return game


def double(player: int, cube: int) -> RawAction:
    return RawAction(player=player, kind="double", cube=cube, loc=WHERE)


def take(player: int) -> RawAction:
    return RawAction(player=player, kind="take", loc=WHERE)


# -- R3.3 the opening --------------------------------------------------------------------------


def test_r3_3_the_opener_rolls_both_dice_afresh():
    """R3.3: the opener rolls both dice afresh, so the first roll may be a doublet;
    under R3.1/R3.2 equal opening numbers roll again.

    Position ID 4HPwATDgc/ABMA, Anna opens with 6-6::

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
    rows = "  1) 66: 24/18(2) 13/7(2)             \n"
    with pytest.raises(gl.ParseError, match=r"R3\.1"):
        gl.read_match(transcript(rows, length=3), rules=gl.Rules(match_length=3))
    match = gl.read_match(
        transcript(rows, length=3), rules=gl.Rules(match_length=3, opening="reroll")
    )
    move = match.actions[0]
    assert move.dice == (6, 6) and move.play.notation == "24/18(2) 13/7(2)"
    assert move.state.position.gnubg_id == "4HPwATDgc/ABMA"
    state = match.games[0].final_state
    assert (state.cube_value, state.cube_owner, state.on_roll) == (1, None, BOB)


# -- R8.4 seed 000's scoring -------------------------------------------------------------------


def test_r8_4_loser_all_home_is_a_single_game():
    """R8.4: Bob has every checker home, none borne off: seed 000 scores 1 point (R8.2
    would score a gammon, 2).

    Position ID 3/cBAAABAAAAAA, Anna rolls 2-1 and bears off::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 30  off 0
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 1  off 14  (on roll)
    """
    seed = bear_off(gl.Rules(scoring="seed-000"), "3/cBAAABAAAAAA")
    assert (seed.ending, seed.points) == ("single", 1)
    standard = bear_off(gl.Rules(), "3/cBAAABAAAAAA")
    assert (standard.ending, standard.points) == ("gammon", 2)


def test_r8_4_loser_outside_home_scores_two():
    """R8.4: Bob still has checkers outside his home board (his 8-point, or Anna's
    home board): 2 points, whether or not R8.2 calls it a backgammon.

    Position ID 3wc+AAABAAAAAA, Anna rolls 2-1 and bears off::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 55  off 0
     |             O    |   |             O  O |
     |             O    |   |             O  O |
     |             O    |   |             O  O |
     |             O    |   |             O  O |
     |             O    |   |             O  O |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 1  off 14  (on roll)

    Position ID 3wcA4AMBAAAAAA (Bob's five checkers on his 20-point)::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 115  off 0
     |                  |   |             O  O |
     |                  |   |             O  O |
     |                  |   |             O  O |
     |                  |   |             O  O |
     |                  |   |             O  O |
    v|                  |BAR|                  |
     |                  |   |    O             |
     |                  |   |    O             |
     |                  |   |    O             |
     |                  |   |    O             |
     |                  |   |    O           X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 1  off 14  (on roll)
    """
    rules = gl.Rules(scoring="seed-000")
    game = bear_off(rules, "3wc+AAABAAAAAA")
    assert (game.ending, game.points) == ("outside", 2)
    deep = bear_off(rules, "3wcA4AMBAAAAAA")
    assert (deep.ending, deep.points) == ("outside", 2)
    assert bear_off(gl.Rules(), "3wcA4AMBAAAAAA").ending == "backgammon"
    # R8.3: times the cube
    doubled = bear_off(rules, "3wc+AAABAAAAAA", cube=4, owner=BOB)
    assert doubled.points == 8 and doubled.cube == 4


def test_r8_4_loser_on_the_bar_scores_four():
    """R8.4: Bob has a checker on the bar: 4 points (R8.2: a backgammon, 3).

    Position ID 3/cAAEABAAAAAA, Anna rolls 2-1 and bears off::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 52  off 0
     |                  | O |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |             O  O |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 1  off 14  (on roll)
    """
    game = bear_off(gl.Rules(scoring="seed-000", match_length=5), "3/cAAEABAAAAAA")
    assert (game.ending, game.points) == ("bar", 4)
    assert bear_off(gl.Rules(), "3/cAAEABAAAAAA").points == 3


# -- R9.2-R9.5 doubling ------------------------------------------------------------------------


def test_r9_2_a_double_comes_before_the_roll():
    """R9.2: Anna may double at the start of her turn, before rolling; once she has
    rolled and played, the turn is Bob's and her double is refused.

    Position ID 4HPwATDgc/ABMA, the opening::

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
    game = _Replay(gl.Rules(), (0, 0), False, ("Anna", "Bob"), stated_rules=True)
    game.apply(RawAction(player=ANNA, kind="move", dice=(3, 1), play="8/5 6/5", loc=WHERE), None)
    with pytest.raises(gl.ParseError, match=r"Anna .* doubles out of turn: Bob .* is on roll"):
        game.apply(double(ANNA, 2), None)
    game.apply(double(BOB, 2), None)
    assert game.offer == ("double", BOB, 2)


def test_r9_3_either_player_may_make_the_first_double():
    """R9.3: with the cube centred, Anna doubles first in game 1 and Bob in game 2.

    Position ID 4HPwATDgc/ABMA after the opening (diagram as in R9.2).
    """
    games = (
        " 0 point match\n\n Game 1\n Anna : 0                          Bob : 0\n"
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2)  Doubles => 2                   Drops\n"
        "      Wins 1 point\n\n"
        " Game 2\n Anna : 1                          Bob : 0\n"
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Drops\n"
        "                                      Wins 1 point\n"
    )
    match = gl.read_match(games)
    doublers = [[a.player for a in game.actions if a.kind == "double"] for game in match.games]
    assert doublers == [[ANNA], [BOB]]
    assert [game.winner for game in match.games] == [ANNA, BOB]


def test_r9_4_take_owns_the_cube_pass_loses_the_stake_before_the_double():
    """R9.4: Bob doubles to 2 and Anna takes: the stake is 2 and Anna owns the cube.
    Anna redoubles to 4 and Bob passes: he loses 2, the stake before that double.

    Position ID 4HPwATDgc/ABMA after the opening (diagram as in R9.2).
    """
    rows = (
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Takes                          62: 24/18 13/11\n"
    )
    taken = gl.read_match(transcript(rows)).games[0]
    assert (taken.final_state.cube_value, taken.final_state.cube_owner) == (2, ANNA)
    dropped = gl.read_match(
        transcript(rows + "  3)  Doubles => 4                   Drops\n      Wins 2 points\n")
    ).games[0]
    assert (dropped.winner, dropped.points, dropped.ending) == (ANNA, 2, "drop")


def test_r9_5_only_the_owner_redoubles():
    """R9.5: Anna owns the cube at 2 after taking: Bob may not redouble; Anna may,
    and when Bob takes the cube at 4 is his.

    Position ID 4HPwATDgc/ABMA after the opening (diagram as in R9.2).
    """
    rows = (
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Takes                          62: 24/18 13/11\n"
    )
    with pytest.raises(
        gl.ParseError,
        match=r"Bob .* doubles, but the cube belongs to Anna"
        r" .*\(R9\.5\)",
    ):
        gl.read_match(transcript(rows + "  3) 21: 13/11 6/5                   Doubles => 4\n"))
    redoubled = gl.read_match(transcript(rows + "  3)  Doubles => 4                   Takes\n"))
    state = redoubled.games[0].final_state
    assert (state.cube_value, state.cube_owner) == (4, BOB)


# -- R9.6 the cube limit -----------------------------------------------------------------------


def test_r9_6_no_cube_beyond_the_limit():
    """R9.6: no upper limit, unless the rules set one: with ``cube_limit=4`` Bob,
    owning the cube at 4, may not redouble to 8, nor (limit 2) beaver a double to 4.

    Position ID 4HPwATDgc/ABMA after the opening::

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
    rows = (
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Takes                          62: 24/18 13/11\n"
        "  3)  Doubles => 4                   Takes\n"
    )
    redouble = rows + "  4) 54: 13/8 13/9                   Doubles => 8\n"
    unlimited = gl.read_match(transcript(redouble + "  5)  Takes\n"), rules=gl.Rules())
    state = unlimited.games[0].final_state
    assert (state.cube_value, state.cube_owner) == (8, ANNA)
    limited = gl.Rules(cube_limit=4)
    with pytest.raises(gl.ParseError, match=r"above the cube limit 4 \(R9\.6\)"):
        gl.read_match(transcript(redouble), rules=limited)
    within = gl.read_match(transcript(rows + "  4) 54: 13/8 13/9\n"), rules=limited)
    state = within.games[0].final_state
    assert (state.cube_value, state.cube_owner) == (4, BOB)
    beaver = transcript("  1) 31: 8/5 6/5                     Doubles => 2\n  2)  Beavers => 4\n")
    with pytest.raises(gl.ParseError, match=r"above the cube limit 2 \(R9\.6\)"):
        gl.read_match(beaver, rules=gl.Rules(beavers=True, cube_limit=2))


# -- R10.1 Jacoby ------------------------------------------------------------------------------


def test_r10_1_jacoby_gammon_counts_single_until_the_cube_is_turned():
    """R10.1: money play with the Jacoby rule: Anna's gammon counts 1 while the cube
    is centred, 2 x 2 once Bob has doubled and she has taken; in a match the rule
    does not apply.

    Position ID 3/cBAAABAAAAAA, Anna rolls 2-1 and bears off::

     +13-14-15-16-17-18------19-20-21-22-23-24-+  O  pips 30  off 0
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
     |                  |   |          O  O  O |
    v|                  |BAR|                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                  |
     |                  |   |                X |
     +12-11-10--9--8--7-------6--5--4--3--2--1-+  X  pips 1  off 14  (on roll)
    """
    jacoby = gl.Rules(jacoby=True)
    centred = bear_off(jacoby, "3/cBAAABAAAAAA")
    assert (centred.ending, centred.points, centred.cube, centred.owner) == ("gammon", 1, 1, None)
    turned = bear_off(jacoby, "3/cBAAABAAAAAA", cube=2, owner=ANNA)
    assert (turned.ending, turned.points, turned.owner) == ("gammon", 4, ANNA)
    assert bear_off(gl.Rules(), "3/cBAAABAAAAAA").points == 2
    assert bear_off(gl.Rules(match_length=5), "3/cBAAABAAAAAA").points == 2
    with pytest.raises(gl.OptionError, match=r"money play \(R10\.1\)"):
        gl.Rules(match_length=5, jacoby=True)  # Jacoby is a rule of money play only


# -- R10.2 Crawford ----------------------------------------------------------------------------


def test_r10_2_no_double_in_the_crawford_game_only():
    """R10.2: at 2-3 in a 5-point match Bob wins game 1 and reaches match point:
    game 2 is the Crawford game, and Anna may not double in it; in game 3
    (post-Crawford) she may, and Bob owns the cube at 2.

    Position ID 4HPwATDgc/ABMA after the opening::

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
    game1 = (
        " 5 point match\n\n Game 1\n Anna : 2                          Bob : 3\n"
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Drops\n"
        "                                      Wins 1 point\n\n"
        " Game 2\n Anna : 2                          Bob : 4\n"
    )
    crawford = game1 + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2)  Doubles => 2                   "
    )
    with pytest.raises(gl.ParseError, match=r"Crawford game \(R10\.2\)"):
        gl.read_match(crawford + "\n")
    post = game1 + (
        "  1) 31: 8/5 6/5                     62: ????\n"
        "      Wins 1 point\n\n"
        " Game 3\n Anna : 3                          Bob : 4\n"
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2)  Doubles => 2                   Takes\n"
    )
    match = gl.read_match(post)
    assert [g.crawford for g in match.games] == [False, True, False]
    state = match.games[2].final_state
    assert (state.cube_value, state.cube_owner) == (2, BOB)
    no_rule = gl.read_match(crawford + "Takes\n", rules=gl.Rules(match_length=5, crawford=False))
    assert not no_rule.games[1].crawford and no_rule.games[1].cube_value == 2


# -- R10.3 Holland -----------------------------------------------------------------------------


def test_r10_3_holland_trailer_doubles_after_two_rolls_each():
    """R10.3: post-Crawford (game 1 at 2-0 was the Crawford game) at 2-1 in a
    3-point match, Bob trails: he may double
    only once both sides have played two rolls; then Anna owns the cube at 2.

    Position ID 4HPwATDgc/ABMA at the start of game 2::

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
    header = (
        " 3 point match\n\n Game 1\n Anna : 2                          Bob : 0\n"
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) 64: ????\n"
        "                                      Wins 1 point\n\n"
        " Game 2\n Anna : 2                          Bob : 1\n"
    )
    early = header + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) 64: 24/14*                      Doubles => 2\n"
    )
    holland = gl.Rules(match_length=3, holland=True)
    with pytest.raises(gl.ParseError, match=r"Holland rule, R10\.3"):
        gl.read_match(early, rules=holland)
    assert gl.read_match(early + "  3)  Takes\n").games[1].cube_value == 2
    later = header + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) 64: 24/14*                      43: bar/21 13/10\n"
        "  3) 21: 13/11 6/5                   Doubles => 2\n"
        "  4)  Takes\n"
    )
    crawford, game = gl.read_match(later, rules=holland).games
    assert crawford.crawford and not game.crawford
    assert (game.final_state.cube_value, game.final_state.cube_owner) == (2, ANNA)


# -- R10.4 seed 000's automatic doubles -------------------------------------------------------


def test_r10_4_a_repeated_roll_doubles_the_stake_and_keeps_the_owner():
    """R10.4: Anna owns the cube at 2; she then rolls the 6-2 Bob rolled before: the
    stake doubles to 4 and the cube stays Anna's; a centred cube stays centred.

    Position ID 4HPwATDgc/ABMA after the opening::

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
    rules = gl.Rules(match_length=5, auto_doubles="seed-000")
    rows = (
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Takes                          62: 24/18 13/11\n"
        "  3) 26: 24/18 13/11\n"
    )
    game = gl.read_match(transcript(rows, length=5), rules=rules).games[0]
    assert (game.cube_value, game.final_state.cube_owner) == (4, ANNA)
    centred = transcript("  1) 31: 8/5 6/5                     31: 8/5 6/5\n", length=5)
    game = gl.read_match(centred, rules=rules).games[0]
    assert (game.cube_value, game.final_state.cube_owner) == (2, None)
    assert gl.read_match(centred).games[0].cube_value == 1


# -- R10.5 GNU Backgammon's automatic doubles -------------------------------------------------


def test_r10_5_tied_opening_rolls_turn_the_cube_before_play():
    """R10.5: money play; the opening rolls tied once, so the game starts with the cube
    centred at 2 (``; [Cube "2"]``, SGF ``CV[2]``). A double then offers 4; with
    the Jacoby rule a gammon with the cube still centred counts single, times 2.

    Position ID 4HPwATDgc/ABMA, before the first roll::

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
    rules = gl.Rules(auto_doubles="gnubg", auto_double_limit=2, jacoby=True)
    rows = "  1) 31: 8/5 6/5                     Doubles => 4\n  2)  Takes\n"
    game = gl.read_match(transcript(rows, cube=2), rules=rules).games[0]
    assert game.start_cube == 2 and game.actions[0].state.cube_value == 2
    assert (game.cube_value, game.final_state.cube_owner) == (4, ANNA)
    # read without stated rules: a turned cube at the start means R10.5
    assert gl.read_match(transcript(rows, cube=2)).rules.auto_doubles == "gnubg"
    with pytest.raises(gl.ParseError, match=r"R10\.5"):
        gl.read_match(transcript(rows, cube=2), rules=gl.Rules())
    with pytest.raises(gl.ParseError, match=r"more than the 2 automatic doubles"):
        gl.read_match(transcript(rows, cube=8), rules=rules)
    gammon = bear_off(rules, "3/cBAAABAAAAAA", cube=2)
    assert (gammon.ending, gammon.points, gammon.owner) == ("gammon", 2, None)
    with pytest.raises(gl.GammonlabError, match=r"money play"):
        gl.Rules(match_length=5, auto_doubles="gnubg")


# -- R10.6 beavers and raccoons ----------------------------------------------------------------


def test_r10_6_beaver_and_raccoon():
    """R10.6: Anna doubles to 2; Bob beavers (takes and redoubles to 4, keeping the
    cube); Anna raccoons (8) and keeps the cube herself once Bob takes.

    Position ID 4HPwATDgc/ABMA after the opening::

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
    rules = gl.Rules(beavers=True, raccoons=True)
    rows = (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2)  Doubles => 2                   Beavers => 4\n"
        "  3)  Raccoons => 8                  Takes\n"
    )
    match = gl.read_match(transcript(rows), rules=rules)
    kinds = [a.kind for a in match.actions]
    assert kinds == ["move", "move", "double", "beaver", "raccoon", "take"]
    state = match.games[0].final_state
    assert (state.cube_value, state.cube_owner) == (8, ANNA)
    beaver_only = transcript(rows.rsplit("\n", 2)[0] + "\n  3) 54: 13/8 13/9\n")
    state = gl.read_match(beaver_only, rules=rules).games[0].final_state
    assert (state.cube_value, state.cube_owner) == (4, BOB)  # the beaver taken by playing on
    with pytest.raises(gl.ParseError, match="no raccoons"):
        gl.read_match(transcript(rows), rules=gl.Rules(beavers=True))
    with pytest.raises(gl.ParseError, match="no beavers"):
        gl.read_match(transcript(rows), rules=gl.Rules())
    with pytest.raises(gl.ParseError, match=r"money play only \(R10\.6\)"):
        gl.read_match(transcript(rows, length=5))
