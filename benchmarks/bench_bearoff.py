"""Bear-off database: build time, file size, load time, and the policy's speed.

Run: ``python benchmarks/bench_bearoff.py`` (uses a temporary cache folder, so
it builds from scratch; numba's compiled-code cache may already be warm).

The reference for ``bearoff_best`` is the same choice written as a plain
Python loop (index formula and comparison per candidate), timed in the same run.
"""

from __future__ import annotations

import math
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

from gammonlab._kernels import bearoff as kernels
from gammonlab.evaluators.bearoff import BearoffDatabase, bearoff_best


def python_best(candidates: np.ndarray, expected: np.ndarray) -> int:
    """The reference: bearoff_best in plain Python."""
    best, best_index = -1, -1
    for c, board in enumerate(candidates.tolist()):
        row = board[0]
        s, index = 0, 0
        for k in range(1, 7):
            s += row[7 - k]
            index += math.comb(s + k - 1, k)
        if (
            best < 0
            or expected[index] < expected[best_index]
            or (expected[index] == expected[best_index] and index > best_index)
        ):
            best, best_index = c, index
    return best


@njit
def best_of_all(sets: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """bearoff_best called inside a kernel, as a rollout does."""
    out = np.empty(sets.shape[0], dtype=np.int64)
    for i in range(sets.shape[0]):
        out[i] = bearoff_best(sets[i], expected)
    return out


def candidate_sets(rng: np.random.Generator, n_sets: int, size: int) -> list[np.ndarray]:
    out = []
    for _ in range(n_sets):
        boards = np.zeros((size, 2, 26), dtype=np.int8)
        for j in range(size):
            n = int(rng.integers(1, 16))
            boards[j, 0, 1:7] = np.bincount(rng.integers(0, 6, n), minlength=6)
            boards[j, 0, 0] = 15 - n
            boards[j, 1, 6] = 15
        out.append(boards)
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["GAMMONLAB_CACHE_DIR"] = folder
        start = time.perf_counter()
        db = BearoffDatabase.load()
        first = time.perf_counter() - start
        path = Path(db.path) if db.path else None
        size = path.stat().st_size if path else 0
        start = time.perf_counter()
        kernels.build_tables()
        warm = time.perf_counter() - start
        start = time.perf_counter()
        loaded = BearoffDatabase.load()
        load = time.perf_counter() - start
        assert loaded.build_seconds is None

    print(f"build + write, first call in this process (incl. numba load/compile): {first:.2f} s")
    print(f"build tables, warm:                          {warm:.3f} s")
    print(f"cache file: {size / 1e6:.2f} MB; load + verify: {load:.3f} s")

    rng = np.random.default_rng(1)
    sets = candidate_sets(rng, 2000, 12)
    expected = db.expected
    bearoff_best(sets[0], expected)  # compile outside the timing
    start = time.perf_counter()
    ours = [bearoff_best(s, expected) for s in sets]
    kernel = time.perf_counter() - start
    start = time.perf_counter()
    reference = [python_best(s, expected) for s in sets]
    python = time.perf_counter() - start
    assert ours == reference
    stacked = np.stack(sets)
    best_of_all(stacked[:1], expected)
    start = time.perf_counter()
    inside = best_of_all(stacked, expected)
    batched = time.perf_counter() - start
    assert inside.tolist() == ours
    n = len(sets)
    print(
        f"bearoff_best on {n} sets of 12 candidates: called from Python "
        f"{kernel / n * 1e6:.2f} us/set, inside a kernel {batched / n * 1e6:.3f} us/set; "
        f"Python loop (reference) {python / n * 1e6:.1f} us/set; "
        f"ratios {python / kernel:.0f}x and {python / batched:.0f}x"
    )


if __name__ == "__main__":
    main()
