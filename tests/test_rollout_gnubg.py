"""Rollouts against GNU Backgammon (``gnubg-nn``), every gnubg call in a child process.

- Pure bear-offs with at most six checkers a side: GNU Backgammon evaluates them
  with its exact two-sided database; rollouts with the ``bearoff`` policy,
  played to the end, must agree within three standard errors.
- The opening position with pubeval: an independent game loop in a child
  process plays both sides with ``gnubg_nn.pub_best_move`` (checking each play
  against ``gnubg_nn.moves``); win and gammon rates must agree.
- The race evaluator (bear-off database plus one-sided playouts) against GNU
  Backgammon's own one-sided rollout evaluation (``p_osr``).
- The ``gnubg`` policy itself (``gnubg_nn.best_move``) in a child process.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from conftest import needs_module
from gnubg_worker import call_all

import gammonlab as gl
from gammonlab.evaluators.base import get_evaluator
from gammonlab.rollout import rollout, rollout_many

needs_module("gnubg_nn")

# GNU Backgammon's two-sided bear-off database stores probabilities in 16 bits:
# its numbers are exact only to about 1/65535 (positions decided by the first roll
# show it: 0.08334479 for 3/36).
GNUBG_DATABASE_RESOLUTION = 2.0 / 65535


def in_child(script: str, *args: str) -> dict:
    """The JSON object a script prints last, run in a child process (a crash of
    ``gnubg_nn`` fails the test instead of taking the run down)."""
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    return json.loads(done.stdout.splitlines()[-1])


def random_bearoff(rng: np.random.Generator, max_checkers: int = 6) -> np.ndarray:
    board = np.zeros((2, 26), dtype=np.int8)
    for side in range(2):
        n = int(rng.integers(1, max_checkers + 1))
        for point in rng.integers(1, 7, size=n):
            board[side, point] += 1
        board[side, 0] = 15 - n
    return board


def test_bearoff_rollouts_agree_with_gnubg_exact_database():
    rng = np.random.default_rng(20261130)
    boards = [random_bearoff(rng) for _ in range(50)]
    exact = call_all("probabilities", [(b[::-1, 1:].tolist(), 0) for b in boards])
    assert all(isinstance(e, list) for e in exact)
    exact = np.array(exact)
    table = rollout_many(
        [gl.Position.from_board(b) for b in boards],
        trials=1296,
        seed=42,
        policy="bearoff",
        progress=False,
        n_jobs=1,
    )
    agree = 0
    for column, name in enumerate(("win", "win_gammon")):
        estimate = table[name].to_numpy()
        stderr = table[f"stderr_{name}"].to_numpy()
        within = np.abs(estimate - exact[:, column]) <= 3 * stderr + GNUBG_DATABASE_RESOLUTION
        if name == "win":
            agree = int(within.sum())
        else:
            assert within.all()  # nine or more checkers off: no gammons on either side
    assert agree >= 48, agree  # at least 95% of 50


PUB_LOOP = textwrap.dedent(r"""
    import json, sys
    import numpy as np
    import gnubg_nn

    games, seed = int(sys.argv[1]), int(sys.argv[2])
    rng = np.random.default_rng(seed)
    START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
    names = ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"]
    totals = dict.fromkeys(names, 0)
    illegal = 0
    for _ in range(games):
        board = [START[:], START[:]]  # [side not on roll, side on roll]
        first_side = True  # the side on roll at the start is on roll now
        while True:
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            legal = set(gnubg_nn.moves(board, d1, d2, 0))
            flat = gnubg_nn.pub_best_move(board, d1, d2)
            mover, other = board[1], board[0]
            for i in range(0, len(flat), 2):  # 0-based points, 24 bar, -1 off
                source, target = flat[i], flat[i + 1]
                mover[source] -= 1
                if target >= 0:
                    mover[target] += 1
                    if other[23 - target] == 1:
                        other[23 - target] = 0
                        other[24] += 1
            if (legal and gnubg_nn.key_of_board(board) not in legal) or (flat and not legal):
                illegal += 1
            if sum(mover) == 0:
                gammon = sum(other) == 15
                backgammon = gammon and (other[24] > 0 or sum(other[18:24]) > 0)
                if first_side:
                    totals["win"] += 1
                    totals["win_gammon"] += gammon
                    totals["win_backgammon"] += backgammon
                else:
                    totals["lose_gammon"] += gammon
                    totals["lose_backgammon"] += backgammon
                break
            board = [board[1], board[0]]
            first_side = not first_side
    print(json.dumps({"games": games, "illegal": illegal, **totals}))
""")


def test_opening_pubeval_agrees_with_a_gnubg_pubeval_loop():
    games = 2592
    loop = in_child(PUB_LOOP, str(games), "7")
    assert loop["illegal"] == 0
    res = rollout(
        gl.Position.initial(),
        trials=5184,
        seed=7,
        policy="pubeval",
        bearoff_finish=False,
        progress=False,
        n_jobs=1,
    )
    for name in ("win", "win_gammon", "lose_gammon"):
        p = loop[name] / games
        loop_stderr = np.sqrt(p * (1 - p) / games)
        combined = np.hypot(loop_stderr, res.stderr[name])
        assert abs(getattr(res, name) - p) <= 3 * combined, (name, getattr(res, name), p)


GNUBG_POLICY = textwrap.dedent("""
    import json
    import gammonlab as gl
    from gammonlab.rollout import rollout
    kwargs = dict(trials=72, seed=3, policy="gnubg", progress=False)
    one = rollout(gl.Position.initial(), n_jobs=1, **kwargs)
    two = rollout(gl.Position.initial(), n_jobs=2, **kwargs)
    rolled = rollout(gl.Position.initial(), dice=(3, 1), truncate=2, trials=36, seed=1,
                     policy="gnubg", progress=False, n_jobs=1)
    print(json.dumps({"win": one.win, "same": one.win == two.win and one.equity == two.equity,
                      "stderr": one.stderr["equity"], "evaluator": rolled.settings["evaluator"],
                      "rolled_win": rolled.win}))
""")


def test_gnubg_policy_runs_and_is_reproducible():
    out = in_child(GNUBG_POLICY)
    assert out["same"] and 0.2 < out["win"] < 0.8 and out["stderr"] > 0
    assert out["evaluator"] == "gnubg" and 0.4 < out["rolled_win"] < 0.7


GNUBG_LOOK_AHEAD = textwrap.dedent("""
    import json, pickle
    import numpy as np
    import gammonlab as gl
    from gammonlab._kernels.movegen import generate_plays
    from gammonlab.evaluators.gnubg import GnubgEvaluator
    rng = np.random.default_rng(5)
    boards, dice = [], []
    board = gl.Position.initial().board
    for ply in range(60):  # positions of one game played by the 0-ply policy
        d = tuple(int(x) for x in rng.integers(1, 7, 2))
        boards.append(board.copy()); dice.append(d)
        played = GnubgEvaluator().choose(board[None], np.array([d]))[0]
        if played[0, 0] == 15:
            break
        board = played[::-1].copy()
    boards, dice = np.array(boards), np.array(dice)
    zero = GnubgEvaluator()
    one = pickle.loads(pickle.dumps(GnubgEvaluator(plies=1)))
    def is_legal(board, d1, d2, after):
        plays = generate_plays(board, d1, d2)[0]
        if len(plays) == 0:  # no legal play (R5.5): the board stays
            return bool((after == board).all())
        return any((p == after).all() for p in plays)
    legal = all(is_legal(b, int(d1), int(d2), after)
                for b, (d1, d2), after in zip(boards, dice, one.choose(boards, dice)))
    same = (one.choose(boards, dice) == zero.choose(boards, dice)).all(axis=(1, 2))
    start = gl.Position.initial().board[None]
    print(json.dumps({"legal": legal, "plays": len(boards), "same": int(same.sum()),
                      "zero": zero(start)[0].tolist(), "one": one(start)[0].tolist(),
                      "repr": repr(one)}))
""")


def test_gnubg_looks_ahead_when_asked():
    out = in_child(GNUBG_LOOK_AHEAD)
    assert out["legal"] and out["repr"] == "GnubgEvaluator(plies=1)"
    # a look-ahead changes some plays, not most
    assert out["plays"] // 2 < out["same"] < out["plays"]
    assert np.allclose(out["one"], out["zero"], atol=0.03) and out["one"] != out["zero"]


def test_gnubg_plies_are_checked():
    from gammonlab.errors import EvaluatorError
    from gammonlab.evaluators.gnubg import GnubgEvaluator

    for plies in (-1, 3, True, 1.5):
        with pytest.raises(EvaluatorError, match="0, 1 or 2 plies"):
            GnubgEvaluator(plies=plies)


def random_race(rng: np.random.Generator) -> np.ndarray:
    """A race (no contact, not every checker home) with 8 to 15 checkers a side."""
    while True:
        board = np.zeros((2, 26), dtype=np.int8)
        split = int(rng.integers(6, 19))
        for side, top in ((0, split), (1, 24 - split)):
            n = int(rng.integers(8, 16))
            for point in rng.integers(1, max(top, 1) + 1, size=n):
                board[side, point] += 1
            board[side, 0] = 15 - n
        pos = gl.Position.from_board(board)
        if pos.is_race and not pos.is_bearoff:
            return board


def test_race_evaluator_agrees_with_gnubg_one_sided_rollouts():
    import gnubg_nn

    rng = np.random.default_rng(9)
    boards = np.stack([random_race(rng) for _ in range(40)])
    osr = np.array(
        call_all("probabilities", [(b[::-1, 1:].tolist(), gnubg_nn.p_osr) for b in boards])
    )
    ours = get_evaluator("bearoff")(boards)
    difference = np.abs(ours - osr).mean(axis=0)
    assert difference[0] < 0.005 and difference[1] < 0.006 and difference[3] < 0.006, difference
    assert np.abs(ours[:, 0] - osr[:, 0]).max() < 0.03
