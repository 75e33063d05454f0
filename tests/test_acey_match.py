"""Acey-Deucey games (R2.4, R8, R11) through the state machine, simulation and files."""

from __future__ import annotations

from itertools import pairwise

import pandas as pd
import pytest

import gammonlab as gl
from gammonlab.io.mat import parse_mat
from gammonlab.match import replay_match

RULES = gl.Rules(variant="acey-deucey", match_length=3)
CHECKERS = 15


def _moves(match: gl.Match) -> list[tuple[gl.Game, int, gl.Action]]:
    return [
        (game, i, action)
        for game in match.games
        for i, action in enumerate(game.actions)
        if action.kind == "move"
    ]


def test_r11_2_the_same_player_rolls_again_after_a_full_1_2():
    """R11.2 in a transcript: A opens 2-1, enters on 24 and 23, chooses double sixes
    and rolls again (row 2, A's column); B's turn comes after."""
    text = (
        '; [Variation "Acey-Deucey"]\n\n 1 point match\n\n Game 1\n'
        " A : 0                          B : 0\n"
        "  1) 21: in/24 in/23 then 6-6: in/19(4)\n"
        "  2) 31: in/22 in/24                 43: in/21 in/22\n"
    )
    match = replay_match(parse_mat(text))
    actions = match.games[0].actions
    assert [a.player for a in actions] == [0, 0, 1]
    assert actions[0].play.doubles == 6 and actions[0].play.roll_again
    assert actions[1].state.on_roll == 0
    assert actions[2].state.position.waiting == (15, 9 - 2)
    frame = match.to_frame()
    assert frame.play.iloc[0] == "in/23 in/24 then 6-6: in/19(4)"
    assert frame.position_id.isna().all()  # waiting checkers: no Position ID (R2.4)


def test_r11_2_the_opponent_may_not_move_after_a_full_1_2():
    text = (
        '; [Variation "Acey-Deucey"]\n\n 1 point match\n\n Game 1\n'
        " A : 0                          B : 0\n"
        "  1) 21: in/24 in/23 then 6-6: in/19(4)  31: in/22 in/24\n"
    )
    with pytest.raises(gl.ParseError, match="out of turn"):
        replay_match(parse_mat(text))


def test_r11_2_no_roll_again_when_the_1_2_is_not_played_in_full():
    """B holds its 2- and 3-points (A's 23 and 22): A's 1-2 plays only the 1, no doubles,
    and B is on roll next."""
    text = (
        '; [Variation "Acey-Deucey"]\n\n 1 point match\n\n Game 1\n'
        " A : 0                          B : 0\n"
        "  1)                             42: in/21 in/23\n"
        "  2) 55: in/20(2) 20/15(2)       66: in/19(2) 21/15 23/17\n"
    )
    match = replay_match(parse_mat(text))
    assert match.games[0].actions[-1].player == 1


def _check_game(game: gl.Game) -> None:
    final = game.final_state.position
    board = final.board
    for row in range(2):
        assert int(board[row].sum()) + final.waiting[row] == CHECKERS
    assert game.winner in (0, 1)
    # the winner has borne off all 15 (R8.1); points from the loser's checkers (R8.2)
    last_move = [a for a in game.actions if a.kind == "move"][-1]
    assert last_move.player == game.winner
    after = last_move.play.position  # seen from the loser, who would be on roll
    loser, winner = after.board
    assert int(winner[0]) == CHECKERS
    if loser[0] > 0:
        expected = 1
    elif loser[25] > 0 or after.waiting[0] > 0 or loser[19:25].sum() > 0:
        expected = 3
    else:
        expected = 2
    assert game.points == expected * game.cube_value


@pytest.mark.parametrize("games", [100, pytest.param(1000, marks=pytest.mark.slow)])
def test_random_acey_deucey_games_end_in_valid_results(games):
    match = gl.play_match(
        ("random", "random"),
        rules=gl.Rules(variant="acey-deucey"),
        games=games,
        seed=3,
        cube=False,
    )
    assert len(match.games) == games
    for game in match.games:
        _check_game(game)
    frame = match.games_frame()
    assert set(frame.ending) <= {"single", "gammon", "backgammon"}
    again = 0
    moves = _moves(match)
    for (game, i, action), following in pairwise(moves):
        if following[0] is not game or action.play is None:
            continue
        if action.play.roll_again and following[1] == i + 1:
            assert following[2].player == action.player
            again += 1
        elif following[1] == i + 1:
            assert following[2].player != action.player
    assert again > games // 4


@pytest.mark.parametrize("seed", [5, 8])
def test_acey_deucey_matches_read_back_from_mat_and_sgf(seed, tmp_path):
    match = gl.play_match(("pubeval", "random"), rules=RULES, seed=seed)
    assert max(match.score) >= 3
    for game in match.games:
        _check_game(game)
    frame = match.to_frame()
    assert frame.play.str.contains(" then ", na=False).any()
    for suffix in (".mat", ".sgf"):
        path = tmp_path / f"acey{suffix}"
        gl.write_match(match, path)
        back = gl.read_match(path)
        assert back.rules.variant.name == "acey-deucey"
        pd.testing.assert_frame_equal(back.to_frame(), frame)
        doubles = [a.play.doubles for _, _, a in _moves(back) if a.play is not None]
        assert doubles == [a.play.doubles for _, _, a in _moves(match) if a.play is not None]


def test_policies_see_waiting_checkers_as_on_the_bar():
    from gammonlab.evaluators.base import waiting_on_bar

    pos = gl.Position.initial("acey-deucey").play("in/14", (6, 5))
    shown = waiting_on_bar(pos.board, CHECKERS)
    assert shown[:, 25].tolist() == [15, 14] and shown[1, 14] == 1
    assert shown.sum(axis=1).tolist() == [CHECKERS, CHECKERS]
    match = gl.play_match(("pubeval", "pubeval"), rules=RULES, seed=1)
    assert match.winner in (0, 1)
