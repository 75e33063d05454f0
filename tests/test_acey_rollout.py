"""Rollouts of Acey-Deucey positions (R2.4, R11): whole games, scoring, the 1-2 roll.

Boards use gammonlab's layout ``(2, 26)``: row 0 on roll, column 0 off, 1..24
points, 25 bar; a side's checkers not yet entered are 15 minus its row's sum.
"""

from __future__ import annotations

import numpy as np
import pytest
from conftest import needs_module

import gammonlab as gl
from gammonlab._kernels import playout as ka
from gammonlab._kernels.acey import acey_deucey_plays, acey_plays
from gammonlab._kernels.outcome import STANDARD
from gammonlab._kernels.policy import PUBEVAL, RANDOM
from gammonlab._kernels.rng import seed_key
from gammonlab.evaluators.base import waiting_on_bar
from gammonlab.rollout import RolloutError, rollout, rollout_plays

CHECKERS = 15
QUIET = {"progress": False, "n_jobs": 1}
ACEY = "acey-deucey"
START = gl.Position.from_board(np.zeros((2, 26), dtype=np.int8), variant=ACEY)


def acey_board(on_roll: dict[int, int], opponent: dict[int, int]) -> np.ndarray:
    """A board from ``{column: checkers}`` of each side (0 off, 1..24 points, 25 bar);
    the rest of each side's 15 checkers wait to enter."""
    board = np.zeros((2, 26), dtype=np.int8)
    for side, spots in enumerate((on_roll, opponent)):
        for col, count in spots.items():
            board[side, col] = count
    return board


# Both sides with 13 checkers home and 2 still to enter: short games with every
# kind of ending under random play.
HOME = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3}
HOME_STRETCH = acey_board(HOME, HOME)


def play_logged(root: np.ndarray, policy: int, seed: int, trial: int):
    """One game through the rollout's own game loop, with its log."""
    log = np.zeros((20000, ka.LOG_FIELDS), dtype=np.int64)
    log_boards = np.zeros((20000, 2, 26), dtype=np.int8)
    board = np.array(root, dtype=np.int8)
    outcome, plies, side = ka.play_acey_game(
        board, 0, 0, policy, seed_key(seed), trial, False, CHECKERS, log, log_boards
    )
    return outcome, plies, side, log[:plies], log_boards[:plies]


# -- the rollout of the start ----------------------------------------------------------------


def test_start_position_pubeval():
    res = rollout(START, trials=288, seed=1, policy="pubeval", **QUIET)
    assert res.settings["variant"] == ACEY and res.settings["bearoff_finish"] is False
    assert "R11.2" in res.settings["acey_deucey_method"]
    assert res.trials == 288
    # about even, with an edge for the side on roll (the first move)
    assert 0.45 < res.win < 0.75
    assert res.win - 1.0 * res.stderr["win"] > 0.5
    assert 0.0 < res.stderr["win"] < 0.05 and 0.0 < res.stderr["equity"] < 0.2
    # gammons and backgammons happen to both sides, but not in most games
    for name in ("win_gammon", "lose_gammon", "win_backgammon", "lose_backgammon"):
        assert 0.02 < getattr(res, name) < 0.5, name
    assert res.win_backgammon <= res.win_gammon <= res.win
    assert res.lose_backgammon <= res.lose_gammon <= 1 - res.win
    expected = (
        2 * res.win
        - 1
        + res.win_gammon
        - res.lose_gammon
        + res.win_backgammon
        - res.lose_backgammon
    )
    assert res.equity == pytest.approx(expected)
    assert np.isfinite(res.variance_ratio)


def test_start_position_random_policy_is_about_even():
    res = rollout(START, trials=72, seed=2, policy="random", keep_trials=True, **QUIET)
    assert abs(res.win - 0.5) < 4 * res.stderr["win"] + 0.05
    frame = res.to_frame()
    assert set(frame["end"]) <= {"single", "gammon", "backgammon"}
    assert (frame["plies"] > 30).all()  # 15 checkers a side to enter, bring round and bear off


@pytest.mark.parametrize("variance_reduction", [True, False])
def test_standard_errors_match_the_spread_of_repeated_rollouts(variance_reduction):
    pos = gl.Position.from_board(HOME_STRETCH, variant=ACEY)
    estimates, errors = [], []
    for seed in range(200):
        res = rollout(
            pos, trials=72, seed=20_000 + seed, variance_reduction=variance_reduction, **QUIET
        )
        estimates.append([res.equity, res.win])
        errors.append([res.stderr["equity"], res.stderr["win"]])
    spread = np.std(estimates, axis=0, ddof=1)
    reported = np.sqrt(np.mean(np.square(errors), axis=0))  # root mean square
    assert np.all(np.abs(spread / reported - 1) < 0.15), (spread, reported)


# -- every game, play by play ----------------------------------------------------------------


def check_game(
    root: np.ndarray, outcome: int, side: int, log: np.ndarray, boards: np.ndarray
) -> int:
    """Assert the rules along one logged game; returns the rolls again seen."""
    before = np.array(root, dtype=np.int64)  # row 0: the root's side
    expected_roller = 0
    again = 0
    for ply, (row, board) in enumerate(zip(log, boards.astype(np.int64))):
        roller = int(row[ka.LOG_SIDE])
        assert roller == expected_roller, ply
        assert (board >= 0).all()
        assert (board.sum(axis=1) <= CHECKERS).all()  # 15 a side: placed plus waiting
        assert not ((board[0, 1:25] > 0) & (board[1, 24:0:-1] > 0)).any()  # R4.6
        # entered checkers stay entered; borne-off ones stay off
        assert (board.sum(axis=1) >= before.sum(axis=1)).all()
        assert (board[:, 0] >= before[:, 0]).all()
        if board[roller, 0] > before[roller, 0]:
            # R7.1: bearing off with every checker home and none waiting, which
            # stays so to the end of the play (a play may enter the last checker
            # and bring it home before bearing off)
            assert board[roller].sum() == CHECKERS and board[roller, 7:].sum() == 0
        deuce = {int(row[ka.LOG_DIE1]), int(row[ka.LOG_DIE2])} == {1, 2}
        six = row[ka.LOG_MOVES] == 6
        game_over = ply == len(log) - 1
        assert row[ka.LOG_MOVES] <= (6 if deuce else 4)
        assert bool(row[ka.LOG_AGAIN]) == (deuce and six and not game_over)  # R11.2
        again += int(row[ka.LOG_AGAIN])
        expected_roller = roller if row[ka.LOG_AGAIN] else 1 - roller
        before = board
    winner = 1 - side
    assert int(log[-1, ka.LOG_SIDE]) == winner
    final = boards[-1].astype(np.int64)
    assert final[winner, 0] == CHECKERS  # R8.1
    loser = final[1 - winner]
    if loser[0] > 0:
        points = 1
    elif loser.sum() < CHECKERS or loser[19:26].sum() > 0:
        points = 3  # waiting to enter, on the bar or in the winner's home board (R8.2)
    else:
        points = 2
    assert outcome == points
    return again


@pytest.mark.parametrize(
    "policy, root, games",
    [
        (PUBEVAL, START.board, 12),
        (RANDOM, HOME_STRETCH, 300),
        (PUBEVAL, HOME_STRETCH, 300),
    ],
)
def test_every_game_accounts_for_its_checkers_and_a_full_1_2_rolls_again(policy, root, games):
    rolls_again = 0
    deuces = 0
    for trial in range(games):
        outcome, plies, side, log, boards = play_logged(root, policy, seed=5, trial=trial)
        assert plies > 0
        rolls_again += check_game(root, outcome, side, log, boards)
        deuces += int(((log[:, ka.LOG_DIE1] + log[:, ka.LOG_DIE2]) == 3).sum())
    assert deuces > 0 and rolls_again > 0
    assert rolls_again <= deuces


def test_a_1_2_from_the_start_is_played_in_six_moves_and_rolled_again():
    res_again = rollout(
        START, dice=(1, 2), truncate=1, evaluator=side_on_roll_wins, trials=36, seed=3, **QUIET
    )
    res_not = rollout(
        START, dice=(6, 5), truncate=1, evaluator=side_on_roll_wins, trials=36, seed=3, **QUIET
    )
    # after the 1-2 the root's side is on roll again; after 6-5 its opponent is
    assert res_again.win == 1.0 and res_not.win == 0.0
    _, moves, doubles = acey_deucey_plays(START.board.copy())
    assert (moves[:, 5, 0] >= 0).all() and set(doubles.tolist()) == set(range(1, 7))


# -- endings ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "opponent, points",
    [
        ({}, 3),  # all 15 still to enter: backgammoned (R8.2, R11.1)
        ({6: 15}, 2),  # all home, none off: gammoned
        ({19: 1, 6: 14}, 3),  # a checker in the winner's home board
        ({25: 1, 6: 14}, 3),  # on the bar
        ({6: 14}, 3),  # one still to enter
        ({0: 1, 6: 14}, 1),  # one borne off: a single game
    ],
)
@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_a_last_checker_borne_off_scores_by_r8(opponent, points, policy):
    pos = gl.Position.from_board(acey_board({0: 14, 1: 1}, opponent), variant=ACEY)
    res = rollout(pos, trials=36, seed=1, policy=policy, **QUIET)
    assert res.win == 1.0 and res.equity == points
    assert res.stderr["equity"] == 0.0


@pytest.mark.parametrize("policy", ["random", "pubeval"])
def test_a_side_with_every_checker_still_to_enter_is_backgammoned(policy):
    # on roll, but the opponent bears off its last checker next: whatever the roll
    # (a 1-2 rolling again included), checkers are still waiting (R8.2, R11.1)
    pos = gl.Position.from_board(acey_board({}, {0: 14, 1: 1}), variant=ACEY)
    res = rollout(pos, trials=72, seed=1, policy=policy, **QUIET)
    assert res.win == 0.0 and res.lose_backgammon == 1.0 and res.equity == -3.0


# -- against a plain-Python game on the same move generators --------------------------------


def reference_game(root: np.ndarray, rng: np.random.Generator) -> tuple[int, int, int]:
    """Random play with numpy dice: ``(winner, points, plies)``, winner 0 the root's side."""
    board = np.array(root, dtype=np.int8)
    side = 0
    plies = 0
    while True:
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        if {d1, d2} == {1, 2}:
            boards, moves, _ = acey_deucey_plays(board, CHECKERS)
            again = moves[:, 5, 0] >= 0
        else:
            boards, moves = acey_plays(board, d1, d2, CHECKERS)
            again = np.zeros(len(boards), dtype=bool)
        plies += 1
        if len(boards) == 0:
            board = board[::-1].copy()
            side ^= 1
            continue
        c = int(rng.integers(len(boards)))
        after = boards[c].astype(np.int64)
        if after[0, 0] == CHECKERS:
            loser = after[1]
            if loser[0] > 0:
                return side, 1, plies
            if loser.sum() < CHECKERS or loser[19:26].sum() > 0:
                return side, 3, plies
            return side, 2, plies
        if again[c]:
            board = boards[c].copy()
        else:
            board = boards[c][::-1].copy()
            side ^= 1


def test_random_games_agree_with_a_plain_python_simulation():
    n = 4000
    roots = HOME_STRETCH[np.newaxis].copy()
    probs = np.empty((1, n, 5))
    plies = np.empty((1, n), dtype=np.int32)
    end = np.empty((1, n), dtype=np.int8)
    rolled = np.empty(n, dtype=np.int64)
    boards = np.empty((1, n, 2, 26), dtype=np.int8)
    side = np.empty((1, n), dtype=np.int8)
    weights = (
        np.zeros((2, 1, 1), dtype=np.float32),
        np.zeros((2, 1), dtype=np.float32),
        np.zeros((2, 5, 1), dtype=np.float32),
        np.zeros((2, 5), dtype=np.float32),
    )
    assert (
        ka.play_acey_trials(
            roots,
            0,
            0,
            0,
            RANDOM,
            seed_key(11),
            0,
            False,
            -1,
            False,
            np.zeros(1),
            np.zeros((1, 1)),
            np.zeros((1, 1)),
            (probs, plies, end, rolled, boards, side),
            STANDARD,
            CHECKERS,
            weights,
            ka.no_log(),
        )
        == 0
    )
    rng = np.random.default_rng(12)
    games = [reference_game(HOME_STRETCH, rng) for _ in range(1000)]
    winner, points, length = (np.array(x, dtype=np.float64) for x in zip(*games))
    kernel = {
        "win": probs[0, :, 0],
        "gammon": (end[0] >= 2).astype(float),
        "backgammon": (end[0] == 3).astype(float),
        "plies": plies[0].astype(float),
    }
    python = {
        "win": (winner == 0).astype(float),
        "gammon": (points >= 2).astype(float),
        "backgammon": (points == 3).astype(float),
        "plies": length,
    }
    for name in kernel:
        a, b = kernel[name], python[name]
        se = np.hypot(a.std(ddof=1) / np.sqrt(a.size), b.std(ddof=1) / np.sqrt(b.size))
        assert abs(a.mean() - b.mean()) < 4 * se, (name, a.mean(), b.mean(), se)
    assert 0.3 < kernel["win"].mean() < 0.7 and kernel["gammon"].mean() > 0.05


# -- evaluators and lockstep play ------------------------------------------------------------


def side_on_roll_wins(boards: np.ndarray) -> np.ndarray:
    """An evaluator that only accepts boards with all 15 checkers of each side placed."""
    assert (boards.sum(axis=2) == CHECKERS).all(), "an evaluator saw checkers waiting to enter"
    out = np.zeros((len(boards), 5))
    out[:, 0] = 1.0
    return out


def pip_race(boards: np.ndarray) -> np.ndarray:
    """A crude evaluator: the side with fewer pips (bar 25) wins; for lockstep play."""
    assert (boards.sum(axis=2) == CHECKERS).all(), "an evaluator saw checkers waiting to enter"
    pips = (boards * np.arange(26)).sum(axis=2)
    out = np.zeros((len(boards), 5))
    out[:, 0] = 1.0 / (1.0 + np.exp((pips[:, 0] - pips[:, 1] - 8) / 20.0))
    return out


def test_waiting_checkers_go_to_the_bar_for_evaluators():
    board = acey_board({6: 3, 25: 1}, {24: 2})
    seen = waiting_on_bar(board)
    assert seen.shape == (2, 26)
    assert seen[0, 25] == 12 and seen[1, 25] == 13
    assert (seen[:, 1:25] == board[:, 1:25]).all()
    assert (seen.sum(axis=1) == CHECKERS).all()
    assert waiting_on_bar(board[np.newaxis]).shape == (1, 2, 26)


def test_a_python_evaluator_plays_acey_deucey_in_lockstep():
    pos = gl.Position.from_board(HOME_STRETCH, variant=ACEY)
    one = rollout(pos, trials=72, seed=4, policy=pip_race, **QUIET)
    again = rollout(pos, trials=72, seed=4, policy=pip_race, **QUIET)
    assert one.equity == again.equity and one.trials == 72
    assert 0.3 < one.win < 0.9 and one.stderr["equity"] > 0
    # truncated games are scored from the side on roll, waiting checkers on the bar
    cut = rollout(
        START, trials=36, seed=4, policy="pubeval", truncate=3, evaluator=pip_race, **QUIET
    )
    assert 0.0 < cut.win < 1.0


def test_same_numbers_in_one_or_two_processes():
    pos = gl.Position.from_board(HOME_STRETCH, variant=ACEY)
    one = rollout(pos, trials=144, seed=9, policy="pubeval", progress=False, n_jobs=1)
    two = rollout(pos, trials=144, seed=9, policy="pubeval", progress=False, n_jobs=2)
    assert (one.win, one.equity, dict(one.stderr)) == (two.win, two.equity, dict(two.stderr))


def test_rollout_many_mixes_variants():
    pos = gl.Position.from_board(HOME_STRETCH, variant=ACEY)
    df = gl.rollout_many([pos, gl.Position.initial()], trials=36, seed=2, **QUIET)
    alone = rollout(pos, trials=36, seed=2, **QUIET)
    assert df.equity.iloc[0] == alone.equity
    assert df.result.iloc[0].settings["bearoff_finish"] is False
    assert df.result.iloc[1].settings["bearoff_finish"] is True


def test_gnubg_plays_acey_deucey():
    needs_module("gnubg_nn")
    pos = gl.Position.from_board(HOME_STRETCH, variant=ACEY)
    res = rollout(pos, trials=36, seed=1, policy="gnubg", **QUIET)
    assert 0.2 < res.win < 1.0 and res.settings["policy"] == "gnubg"
    assert res.equity == rollout(pos, trials=36, seed=1, policy="gnubg", **QUIET).equity


def test_what_cannot_roll_out_acey_deucey():
    with pytest.raises(RolloutError, match=r"R11\.2"):
        rollout(START, trials=36, policy="bearoff", **QUIET)
    with pytest.raises(RolloutError, match="bear-off database"):
        rollout(START, trials=36, truncate=2, evaluator="bearoff", **QUIET)
    with pytest.raises(RolloutError, match="acey-deucey"):
        rollout_plays(START, (6, 5), trials=36, **QUIET)
    # the bear-off finish is switched off, and the settings say so
    res = rollout(
        gl.Position.from_board(acey_board({0: 14, 1: 1}, {6: 15}), variant=ACEY),
        trials=36,
        seed=1,
        bearoff_finish=True,
        **QUIET,
    )
    assert res.settings["bearoff_finish"] is False
    assert "1-2" in res.settings["bearoff_finish_method"]
