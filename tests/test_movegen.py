"""The move generator against GNU Backgammon's, and its batch entry points."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from boards import START, random_board, random_play
from conftest import needs_module

from gammonlab._kernels.movegen import (
    count_plays_batch,
    generate_plays,
    generate_plays_batch,
)

HERE = Path(__file__).resolve().parent


def run_oracle(seed: int, random_games: int, selfplay_games: int, boards: int) -> dict:
    """Run the comparison in a child process: a crash of the reference library
    fails this test instead of the whole run."""
    needs_module("gnubg_nn")
    path = os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run(
        [
            sys.executable,
            str(HERE / "gnubg_movegen_check.py"),
            str(seed),
            str(random_games),
            str(selfplay_games),
            str(boards),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_same_plays_as_gnubg_on_20000_positions():
    report = run_oracle(seed=20261130, random_games=150, selfplay_games=60, boards=1000)
    print(json.dumps(report, indent=1))
    assert report["checked"] >= 20_000
    assert report["mismatches"] == 0, report["examples"]
    # the sample covers the hard cases
    assert report["no_legal_play"] > 100
    assert report["on_bar"] > 1000
    assert report["bearoff"] > 1000
    assert report["by_source"]["gnubg self-play"] > 2000


def test_same_plays_as_gnubg_with_a_fresh_seed():
    seed = int.from_bytes(os.urandom(4), "little")
    report = run_oracle(seed=seed, random_games=20, selfplay_games=5, boards=200)
    assert report["mismatches"] == 0, (seed, report["examples"])


@pytest.fixture(scope="module")
def sample():
    rng = np.random.default_rng(7)
    items = random_play(rng, 20)
    items += [
        (random_board(rng, kind), 6, 6) for kind in ("any", "bar", "bearoff") for _ in range(30)
    ]
    boards = np.stack([b for b, _, _ in items])
    dice = np.array([(d1, d2) for _, d1, d2 in items], dtype=np.int64)
    return boards, dice


def test_batch_equals_one_by_one(sample):
    boards, dice = sample
    offsets, results, moves = generate_plays_batch(boards, dice)
    counts = count_plays_batch(boards, dice)
    assert offsets[-1] == len(results) == len(moves) == counts.sum()
    for i in range(len(boards)):
        single, single_moves = generate_plays(boards[i], dice[i, 0], dice[i, 1])
        assert counts[i] == len(single)
        np.testing.assert_array_equal(results[offsets[i] : offsets[i + 1]], single)
        np.testing.assert_array_equal(moves[offsets[i] : offsets[i + 1]], single_moves)


def test_results_are_unique_and_keep_checker_counts(sample):
    boards, dice = sample
    for board, (d1, d2) in zip(boards, dice):
        results, moves = generate_plays(board, d1, d2)
        assert len({r.tobytes() for r in results}) == len(results)
        assert (results[:, 0].sum(axis=1) == board[0].sum()).all()
        assert (results[:, 1].sum(axis=1) == board[1].sum()).all()
        assert (results >= 0).all()
        used = (moves[:, :, 0] >= 0).sum(axis=1)
        assert len(set(used.tolist())) <= 1  # every play uses the same number of dice (R5)


def test_dice_order_does_not_matter():
    rng = np.random.default_rng(3)
    for board, d1, d2 in random_play(rng, 5):
        a, _ = generate_plays(board, d1, d2)
        b, _ = generate_plays(board, d2, d1)
        assert {x.tobytes() for x in a} == {x.tobytes() for x in b}


def test_opening_counts():
    # well-known counts of distinct plays from the opening position
    assert len(generate_plays(START, 6, 5)[0]) == 7
    assert len(generate_plays(START, 2, 1)[0]) == 15
    assert len(generate_plays(START, 1, 1)[0]) == 42
    assert len(generate_plays(START, 6, 6)[0]) == 11
