"""Move generation speed against GNU Backgammon's generator (``gnubg_nn.moves``).

Times, over the same positions and rolls, in one run:
  1. the batch kernel ``generate_plays_batch`` (all plays of all positions),
  2. ``len(pos.legal_plays(dice))`` called per position from Python,
  3. ``gnubg_nn.moves(board, d1, d2)`` called per position from Python,
and the cold start of ``import gammonlab`` plus a first ``legal_plays`` call.
Each figure is the median of several repeats.

    python benchmarks/bench_movegen.py [--positions 12000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

import gammonlab as gl
from gammonlab._kernels.movegen import generate_plays, generate_plays_batch


def sample_positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions from random play of whole games, with a roll each."""
    rng = np.random.default_rng(seed)
    start = gl.Position.initial().board
    boards, dice = [], []
    while len(boards) < n:
        board = start.copy()
        for _ in range(400):
            d = rng.integers(1, 7, size=2)
            boards.append(board.copy())
            dice.append(d)
            results, _ = generate_plays(board, d[0], d[1])
            if len(results):
                board = results[rng.integers(len(results))]
            if board[0, 0] == 15:
                break
            board = board[::-1].copy()
    return np.stack(boards[:n]), np.array(dice[:n], dtype=np.int64)


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def cold_start() -> float:
    code = (
        "import time; t0 = time.perf_counter(); import gammonlab as gl; "
        "gl.Position.initial().legal_plays((3, 1)); print(time.perf_counter() - t0)"
    )
    return float(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=12_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    boards, dice = sample_positions(args.positions, args.seed)
    n = len(boards)
    generate_plays_batch(boards[:10], dice[:10])  # compile outside the timing
    positions = [gl.Position.from_board(b) for b in boards]
    rolls = [(int(a), int(b)) for a, b in dice]
    print(f"{n} positions and rolls from random play")

    t_batch = median_time(lambda: generate_plays_batch(boards, dice), args.repeats)
    t_len = median_time(
        lambda: [len(p.legal_plays(r)) for p, r in zip(positions, rolls)], args.repeats
    )
    rows = [
        ("batch kernel generate_plays_batch", t_batch),
        ("len(pos.legal_plays(dice)) per position", t_len),
    ]
    try:
        import gnubg_nn
    except ImportError:
        gnubg_nn = None
        print("gnubg_nn is not installed: no reference figure (pip install gnubg-nn)")
    t_ref = None
    if gnubg_nn is not None:
        lists = [
            [[int(b[1, p]) for p in range(1, 26)], [int(b[0, p]) for p in range(1, 26)]]
            for b in boards
        ]
        t_ref = median_time(
            lambda: [gnubg_nn.moves(g, r[0], r[1]) for g, r in zip(lists, rolls)], args.repeats
        )
        rows.append(("gnubg_nn.moves() per position (reference)", t_ref))
    print(f"{'':44s} {'positions/s':>12s} {'x reference':>12s}")
    for name, t in rows:
        ratio = f"{t_ref / t:12.2f}" if t_ref else f"{'-':>12s}"
        print(f"{name:44s} {n / t:12,.0f} {ratio}")
    starts = [cold_start() for _ in range(3)]
    print(
        f"cold start, import gammonlab + first legal_plays (warm numba cache): "
        f"median {statistics.median(starts):.2f} s of {len(starts)}"
    )


if __name__ == "__main__":
    main()
