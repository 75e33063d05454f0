"""pubeval: scores and choices against GNU Backgammon's (gnubg-nn), and the wrapper.

Boards here are gammonlab's (2, 26) arrays. GNU Backgammon's [2][25] layout:
row 0 = the player NOT on roll, row 1 = the player on roll, index 0..23 =
points 1..24, 24 = bar. ``pub_eval_score`` scores its row 0, so a board seen
from the mover (our row 0) goes in as ``[row0[1:], row1[1:]]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import needs_module

from gammonlab._kernels.pubeval import (
    WEIGHTS_CONTACT,
    WEIGHTS_RACE,
    pubeval_best,
    pubeval_encode,
    pubeval_is_race,
    pubeval_score,
    pubeval_scores,
)
from gammonlab.errors import InvalidPositionError
from gammonlab.evaluators import pubeval as wrapper
from gammonlab.evaluators.base import EvaluatorError, PubevalPolicy, get_evaluator

gnubg = needs_module("gnubg_nn")

START = np.zeros((2, 26), dtype=np.int8)
for _point, _count in ((24, 2), (13, 5), (8, 3), (6, 5)):
    START[0, _point] = START[1, _point] = _count


def gnubg_mover(board: np.ndarray) -> list[list[int]]:
    """GNU Backgammon board of a position seen from the mover (the opponent is on roll)."""
    return [board[0, 1:].tolist(), board[1, 1:].tolist()]


def gnubg_on_roll(board: np.ndarray) -> list[list[int]]:
    """GNU Backgammon board of a position whose row 0 is on roll."""
    return [board[1, 1:].tolist(), board[0, 1:].tolist()]


def apply_steps(board: np.ndarray, steps) -> np.ndarray:
    """Play (from, to) steps in GNU Backgammon numbering (25 bar, 0 off) for row 0."""
    result = board.copy()
    for source, target in steps:
        result[0, source] -= 1
        if target <= 0:
            result[0, 0] += 1
            continue
        result[0, target] += 1
        if result[1, 25 - target] == 1:  # R6.1: a blot is hit
            result[1, 25 - target] = 0
            result[1, 25] += 1
    return result


def candidates(board: np.ndarray, d1: int, d2: int) -> np.ndarray:
    """Resulting boards of every legal play (gnubg's generator), seen from the mover."""
    plays = gnubg.moves(gnubg_on_roll(board), d1, d2, 1)
    if not plays:
        return np.zeros((0, 2, 26), dtype=np.int8)
    return np.stack([apply_steps(board, steps) for _key, steps in plays])


def random_placement(rng: np.random.Generator, race: bool) -> np.ndarray:
    """15 checkers a side scattered at random (bar and borne-off included)."""
    while True:
        board = np.zeros((2, 26), dtype=np.int8)
        split = int(rng.integers(1, 24))
        top = (split, 24 - split) if race else (25, 25)
        for side in range(2):
            off = int(rng.integers(0, 15)) if rng.random() < 0.3 else 0
            board[side, 0] = off
            placed = off
            while placed < 15:
                point = int(rng.integers(1, top[side] + 1))
                if side == 1 and point < 25 and board[0, 25 - point] > 0:
                    continue
                board[side, point] += 1
                placed += 1
        if board[0, 1:].sum() and board[1, 1:].sum() and pubeval_is_race(board) == race:
            return board


def random_games(rng: np.random.Generator, n_positions: int) -> list[np.ndarray]:
    """Positions (side on roll in row 0) from games of random legal plays."""
    out: list[np.ndarray] = []
    board = START.copy()
    while len(out) < n_positions:
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        cands = candidates(board, d1, d2)
        if len(cands):
            board = cands[rng.integers(len(cands))]
        board = np.ascontiguousarray(board[::-1])
        if board[0, 0] == 15 or board[1, 0] == 15:
            board = START.copy()
            continue
        out.append(board)
    return out


@pytest.fixture(scope="module")
def boards() -> list[np.ndarray]:
    rng = np.random.default_rng(20240611)
    out = random_games(rng, 2000)
    out += [random_placement(rng, race=i % 2 == 0) for i in range(2000)]
    return out


def test_weights_are_the_published_vectors():
    assert WEIGHTS_RACE.shape == WEIGHTS_CONTACT.shape == (122,)
    # race positions have no opponent blots: those inputs carry no weight
    assert not WEIGHTS_RACE[0:120:5].any()
    assert WEIGHTS_RACE[121] == pytest.approx(3.42040)
    assert WEIGHTS_CONTACT[0] == pytest.approx(0.25696)
    assert WEIGHTS_CONTACT[120] == pytest.approx(5.62596)


def test_orientation_is_the_movers():
    board = START.copy()
    board[0, 24] -= 1
    board[0, 18] += 1
    board[0, 13] -= 1
    board[0, 11] += 1
    assert pubeval_score(board) == gnubg.pub_eval_score(gnubg_mover(board))
    assert pubeval_score(board) != gnubg.pub_eval_score(gnubg_on_roll(board))
    assert pubeval_score(START) == pytest.approx(6.84055, abs=1e-5)


def test_scores_match_gnubg(boards):
    ours = np.array([pubeval_score(b) for b in boards])
    theirs = np.array([gnubg.pub_eval_score(gnubg_mover(b)) for b in boards])
    races = np.array([pubeval_is_race(b) for b in boards])
    assert 1000 < races.sum() < len(boards) - 1000  # plenty of both
    relative = np.abs(ours - theirs) / np.maximum(1.0, np.abs(theirs))
    assert relative.max() <= 1e-4
    # computed in gnubg's single-precision order: equal bit for bit here
    assert (ours == theirs).mean() > 0.99


def test_encoding_reproduces_the_score(boards):
    for b in boards[::20]:
        x = pubeval_encode(b).astype(np.float64)
        weights = WEIGHTS_RACE if pubeval_is_race(b) else WEIGHTS_CONTACT
        assert x @ weights == pytest.approx(pubeval_score(b), abs=1e-4)


def test_best_play_matches_gnubg(boards):
    rng = np.random.default_rng(7)
    compared = ties = tied_choice = inferred_differs = 0
    for i in range(3000):
        board = boards[i % len(boards)]
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        cands = candidates(board, d1, d2)
        if len(cands) == 0:
            continue
        race = int(pubeval_is_race(board))
        ours = pubeval_best(cands, race)
        inferred_differs += pubeval_best(cands) != ours
        move = gnubg.pub_best_move(gnubg_on_roll(board), d1, d2)
        # 0-based from/to pairs: 24 = bar, -1 = off
        steps = [(move[k] + 1, move[k + 1] + 1) for k in range(0, len(move), 2)]
        chosen = apply_steps(board, steps)
        matches = np.flatnonzero((cands == chosen).all(axis=(1, 2)))
        assert len(matches) == 1
        theirs = int(matches[0])
        scores = pubeval_scores(cands, race)
        compared += 1
        ties += (scores == scores.max()).sum() > 1
        if ours != theirs:
            # only an exact tie may separate the two choices
            assert scores[ours] == scores[theirs]
            tied_choice += 1
    assert compared > 2900
    print(
        f"\npubeval best play: {compared} (board, dice) pairs, {ties} with a tie for best, "
        f"{tied_choice} resolved differently, {inferred_differs} where inferring race from "
        f"the candidates changes the choice"
    )
    assert ties < compared * 0.01
    assert inferred_differs < compared * 0.01


def test_race_inference_from_candidates():
    # Contact before the play (the mover's last checker is on the bar, the
    # opponent's on its 3-point); every play of 6-5 runs past it, so the
    # candidates alone look like a race and the explicit flag matters.
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 25], board[0, 0] = 1, 14
    board[1, 3], board[1, 0] = 1, 14
    assert not pubeval_is_race(board)
    cands = candidates(board, 6, 5)
    assert len(cands) and all(pubeval_is_race(c) for c in cands)
    assert pubeval_scores(cands).tolist() == pubeval_scores(cands, 1).tolist()
    assert pubeval_scores(cands, 0).tolist() != pubeval_scores(cands, 1).tolist()


def test_all_checkers_off_scores_best():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 0] = 15
    board[1, 6] = 15
    assert pubeval_score(board) == gnubg.pub_eval_score(gnubg_mover(board)) == 1e8
    cands = np.stack([board, board])
    cands[0, 0, 0], cands[0, 0, 1] = 14, 1
    assert pubeval_best(cands) == 1


def test_empty_candidate_list():
    assert pubeval_best(np.zeros((0, 2, 26), dtype=np.int8)) == -1
    assert wrapper.pubeval_best(np.zeros((0, 2, 26), dtype=np.int8)) == -1


def test_wrapper_and_the_policy_without_probabilities():
    policy = get_evaluator("pubeval")
    assert isinstance(policy, PubevalPolicy)
    assert policy.name == "pubeval" and not policy.evaluates
    with pytest.raises(EvaluatorError, match="is a policy"):
        policy(START[np.newaxis])
    assert wrapper.pubeval_score(START) == pubeval_score(START)
    assert wrapper.pubeval_score(START.tolist(), race=True) == pubeval_score(START, 1)
    assert wrapper.is_race(START) is False
    cands = candidates(START, 6, 1)
    assert wrapper.pubeval_best(cands) == pubeval_best(cands)
    assert int(np.argmax(policy.scores(START, cands))) == pubeval_best(cands)
    np.testing.assert_array_equal(wrapper.pubeval_scores(cands), policy.scores(START, cands))
    with pytest.raises(InvalidPositionError):
        wrapper.pubeval_score(np.zeros((2, 25), dtype=np.int8))
    with pytest.raises(InvalidPositionError):
        wrapper.pubeval_best(np.zeros((3, 26), dtype=np.int8))


def test_kernels_run_without_jit():
    code = textwrap.dedent("""
        import numpy as np
        from gammonlab._kernels.pubeval import pubeval_best, pubeval_score, pubeval_scores
        b = np.zeros((2, 26), dtype=np.int8)
        for p, c in ((24, 2), (13, 5), (8, 3), (6, 5)):
            b[0, p] = b[1, p] = c
        c = np.stack([b, b])
        c[1, 0, 13] -= 1; c[1, 0, 7] += 1; c[1, 0, 8] -= 1; c[1, 0, 7] += 1
        print(float(pubeval_score(b)), int(pubeval_best(c)))
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    cands = np.stack([START, START])
    cands[1, 0, 13] -= 1
    cands[1, 0, 7] += 2
    cands[1, 0, 8] -= 1
    assert float(plain[0]) == pubeval_score(START)
    assert int(plain[1]) == pubeval_best(cands) == 1
