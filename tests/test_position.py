"""Position: construction, validation, IDs, pips, classification, results, plays."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from boards import random_board, random_play
from hypothesis import given, settings
from hypothesis import strategies as st

import gammonlab as gl
from gammonlab import Position

OPENING_ID = "4HPwATDgc/ABMA"


def test_initial_position():
    pos = Position.initial()
    assert pos.gnubg_id == OPENING_ID
    assert pos.pips == (167, 167)
    assert pos.board.shape == (2, 26) and pos.board.dtype == np.int8
    assert not pos.board.flags.writeable
    assert pos.phase == "contact"
    assert pos.result() is None
    assert repr(pos) == f"Position.from_gnubg_id('{OPENING_ID}')"


@pytest.mark.parametrize(
    "name, setup",
    [
        ("standard", {24: 2, 13: 5, 8: 3, 6: 5}),
        ("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
        ("nackgammon-004", {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}),
        ("hypergammon-1", {24: 1}),
        ("hypergammon-2", {24: 1, 23: 1}),
        ("hypergammon-3", {24: 1, 23: 1, 22: 1}),
    ],
)
def test_variant_setups(name, setup):
    pos = Position.initial(name)
    for side in range(2):
        assert {p: int(n) for p, n in enumerate(pos.board[side]) if n and p} == setup
    assert pos.variant.name == name
    assert eval(repr(pos), {"Position": Position}) == pos


def test_custom_variant():
    mine = gl.Variant.custom("corner", {24: 3, 6: 12})
    pos = Position.initial(mine)
    assert pos.pips == (3 * 24 + 12 * 6,) * 2
    assert len(pos.legal_plays((3, 1))) > 0


def test_from_gnubg_id_vectors():
    pos = Position.from_gnubg_id("4HPwATDgc/ABUA")
    assert pos.board[0, 24] == 1 and pos.board[0, 25] == 1
    assert pos.on_bar == (1, 0)
    assert pos.gnubg_id == "4HPwATDgc/ABUA"


@pytest.mark.parametrize(
    "board, message",
    [
        (np.zeros((2, 25)), "shape"),
        ([[0] * 26, [-1] + [0] * 25], "negative"),
        ([[0, 16] + [0] * 24, [0] * 26], "16 checkers"),
        ([[0] * 6 + [5] + [0] * 19, [0] * 19 + [2] + [0] * 6], "held by both sides"),
        ([[15] + [0] * 25, [15] + [0] * 25], "both sides"),
    ],
)
def test_from_board_rejects(board, message):
    with pytest.raises(gl.InvalidPositionError, match=message):
        Position.from_board(board)


def test_from_board_fills_borne_off():
    board = np.zeros((2, 26), dtype=int)
    board[0, 6] = 3
    board[1, 6] = 2
    pos = Position.from_board(board)
    assert pos.borne_off == (12, 13)


def test_immutable_and_hashable():
    pos = Position.initial()
    with pytest.raises(AttributeError):
        pos.x = 1
    with pytest.raises(ValueError):
        pos.board[0, 1] = 3
    assert len({pos, Position.from_gnubg_id(OPENING_ID), Position.initial("nackgammon")}) == 2
    assert pickle.loads(pickle.dumps(pos)) == pos
    with pytest.raises(TypeError):
        Position()


def test_classification():
    rng = np.random.default_rng(1)
    race = Position.from_board(random_board(rng, "race"))
    assert race.phase in ("race", "bearoff")
    bearoff = Position.from_board(random_board(rng, "bearoff"))
    assert bearoff.phase == "bearoff" and bearoff.is_bearoff and bearoff.is_race
    assert Position.initial().is_contact


def _finished(loser_points: dict[int, int], loser_off: int) -> Position:
    board = np.zeros((2, 26), dtype=int)
    board[1, 0] = 15  # the opponent of the side on roll has just borne off its last checker
    for p, n in loser_points.items():
        board[0, p] = n
    board[0, 0] = loser_off
    return Position.from_board(board)


@pytest.mark.parametrize(
    "loser, off, standard, seed000",
    [
        ({6: 5}, 10, ("single", 1), ("single", 1)),
        ({6: 15}, 0, ("gammon", 2), ("single", 1)),
        ({6: 14, 20: 1}, 0, ("backgammon", 3), ("outside", 2)),
        ({6: 14, 25: 1}, 0, ("backgammon", 3), ("bar", 4)),
        ({6: 13, 25: 1}, 1, ("single", 1), ("bar", 4)),
        ({6: 13, 9: 1}, 1, ("single", 1), ("outside", 2)),
    ],
)
def test_results(loser, off, standard, seed000):
    pos = _finished(loser, off)
    assert pos.is_game_over and pos.phase == "over"
    assert pos.result() == gl.GameResult(1, *standard)
    assert pos.result("seed-000") == gl.GameResult(1, *seed000)
    assert pos.swapped().result().winner == 0


def test_ascii_board_shows_stacks_and_bar():
    pos = Position.from_gnubg_id("4HPwATDgc/ABUA")
    text = str(pos)
    assert "pips 167" in text and "BAR" in text
    board = np.zeros((2, 26), dtype=int)
    board[0, 6] = 12
    board[0, 25] = 3
    board[1, 6] = 15
    diagram = str(Position.from_board(board))
    assert "12" in diagram  # a stack over five shows its count


# -- notation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, dice, expected",
    [
        ("13/11 24/18", (6, 2), "24/18 13/11"),
        ("8/5(2) 6/3(2)", (3, 3), "8/5(2) 6/3(2)"),
        ("8/5 8/5 6/3 6/3", (3, 3), "8/5(2) 6/3(2)"),
        ("24/18/13", (6, 5), "24/13"),
        ("24/13", (5, 6), "24/13"),
        ("13/8 13/8 8/3 8/3", (5, 5), "13/3(2)"),
        ("  13/7   8/3 ", (6, 5), "13/7 8/3"),
        ("13/7, 8/3", (6, 5), "13/7 8/3"),
    ],
)
def test_notation_spellings_from_the_opening(text, dice, expected):
    play = Position.initial().find_play(text, dice)
    if expected is not None:
        assert play.notation == expected


@pytest.mark.parametrize(
    ("text", "dice"), [("24/18 13/11*", (6, 2)), ("24/18*/13", (6, 5)), ("8/4* 6/4", (4, 2))]
)
def test_a_hit_marked_where_no_blot_stands_is_refused(text, dice):
    explanation = Position.initial().explain(text, dice)
    assert not explanation.legal and explanation.rule == "R6.1"
    assert "where no opposing blot stands" in explanation.reason
    with pytest.raises(gl.IllegalPlayError, match=r"R6\.1"):
        Position.initial().play(text, dice)


def test_bar_and_off_spellings():
    on_bar = Position.from_gnubg_id("4HPwATDgc/ABUA")
    for text in ("bar/22 24/18", "Bar/22 24/18", "25/22 24/18", "BAR/22 24/18", "24/18 bar/22"):
        assert on_bar.play(text, (6, 3)) == on_bar.play("bar/22 24/18", (6, 3))
    board = np.zeros((2, 26), dtype=int)
    board[0, 6] = 2
    board[1, 12] = 15
    home = Position.from_board(board)
    results = {home.play(t, (6, 6)) for t in ("6/off 6/off", "6/0(2)", "6/Off 6/OFF", "6/off(2)")}
    assert len(results) == 1
    assert results.pop().result().kind == "gammon"


def test_intermediate_hits_choose_the_play():
    # a blot on the opponent's 7-point (our 18), our 19 open: 24/13 passes either way
    board = np.zeros((2, 26), dtype=int)
    board[0, 24] = 1
    board[0, 6] = 14
    board[1, 7] = 1
    board[1, 2] = 14
    pos = Position.from_board(board)
    hit = pos.find_play("24/18*/13", (6, 5))
    quiet = pos.find_play("24/19/13", (6, 5))
    assert hit.hits == (18,) and quiet.hits == ()
    assert pos.find_play("24/13", (6, 5)) == quiet
    assert hit.notation == "24/18*/13"


@pytest.mark.parametrize(
    "text",
    [
        "24-18",
        "24/18/",
        "x/3",
        "13/30",
        "off/3",
        "24/bar",
        "13/8(5)",
        "24/18*(2)x",
        "6/off/1",
        "13/8 13/8 13/8 13/8 13/8",
        "24",
    ],
)
def test_malformed_notation(text):
    with pytest.raises(gl.InvalidNotationError):
        Position.initial().play(text, (5, 5))


def test_explain_on_legal_and_dance():
    pos = Position.initial()
    ok = pos.explain("13/11 24/18", (6, 2))
    assert ok.legal and ok and ok.play.notation == "24/18 13/11"
    assert "legal" in ok.message
    closed = np.zeros((2, 26), dtype=int)
    closed[0, 25] = 1
    closed[0, 6] = 14
    closed[1, 1:7] = 2
    closed[1, 13] = 3
    dance = Position.from_board(closed)
    assert len(dance.legal_plays((6, 5))) == 0
    assert dance.play("", (6, 5)) == dance.swapped()
    assert dance.play("Cannot Move", (6, 5)) == dance.swapped()
    with pytest.raises(gl.IllegalPlayError) as err:
        pos.play("", (6, 5))
    assert err.value.rule == "R5.6" and err.value.example


def test_illegal_play_error_attributes():
    with pytest.raises(gl.IllegalPlayError) as err:
        Position.initial().play("13/7", (6, 5))
    assert err.value.rule == "R5.1"
    assert "both dice must be played" in str(err.value)
    assert err.value.example in Position.initial().legal_plays((6, 5)).notations
    assert isinstance(err.value, ValueError)


def test_legal_plays_sequence():
    plays = Position.initial().legal_plays((2, 1))
    assert len(plays) == 15
    assert plays[-1] == list(plays)[-1]
    assert len(plays[2:5]) == 3
    with pytest.raises(IndexError):
        plays[15]
    first = plays[0]
    assert first.before == Position.initial()
    assert first.position.swapped().board[0].sum() == 15
    assert str(first) == first.notation and "21" in repr(first)
    with pytest.raises(gl.InvalidDiceError):
        Position.initial().legal_plays((7, 1))


# -- invariants under random play ----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["standard", "nackgammon", "nackgammon-004", "hypergammon-3"]),
)
def test_invariants_under_random_play(seed, variant):
    rng = np.random.default_rng(seed)
    start = gl.VARIANTS[variant].initial_board()
    checkers = gl.VARIANTS[variant].checkers
    for board, d1, d2 in random_play(rng, 1, start=start, max_plies=60):
        pos = Position.from_board(board, variant)
        assert pos.board[0].sum() == pos.board[1].sum() == checkers
        assert Position.from_gnubg_id(pos.gnubg_id, variant) == pos
        assert pos.swapped().swapped() == pos
        assert eval(repr(pos), {"Position": Position}) == pos
        plays = pos.legal_plays((d1, d2))
        for play in plays:
            # every play's canonical notation reads back to the same play
            assert pos.play(play.notation, (d1, d2)) == play.position
            assert play.position.board[1].sum() == checkers


def test_acey_deucey_opening_enters_from_off_the_board():
    # R2.4 / R11.1: 3-1 enters two checkers (on 22 and 24) or one going in/21
    plays = Position.initial("acey-deucey").legal_plays((3, 1))
    assert sorted(plays.notations) == ["in/21", "in/22 in/24"]
