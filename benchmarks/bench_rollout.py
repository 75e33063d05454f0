"""Rollout speed and memory, each against a reference measured in the same run.

Prints, as medians of ``--repeats`` runs:

1. pubeval games/s (whole games from the opening, one process) against a plain
   Python loop over ``gnubg_nn.pub_best_move`` from the same position;
2. random-policy games/s on one core;
3. ``gnubg`` policy games/s with one and two processes against a plain Python
   loop over ``gnubg_nn.best_move`` (one process);
4. the speed-up of ``n_jobs=2`` over ``n_jobs=1`` for pubeval;
5. peak memory of a 100,000-trial pubeval rollout (a fresh process; the largest
   of the parent and its worker processes);
6. the bear-off database: build time (warm numba cache) and file size;
7. Acey-Deucey (R11) games/s from its start, pubeval and random policies, one
   process, against standard backgammon's in the same interleaved runs.

Games are played to the end (``bearoff_finish=False``), as the references do.

    python benchmarks/bench_rollout.py [--repeats 3] [--memory-trials 100000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import gammonlab as gl
from gammonlab.evaluators.base import Policy
from gammonlab.rollout import rollout

START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]


def pub_loop(games: int, seed: int) -> None:
    """The reference: both sides played by ``gnubg_nn.pub_best_move`` in Python."""
    import gnubg_nn

    rng = np.random.default_rng(seed)
    for _ in range(games):
        board = [START[:], START[:]]  # GNU Backgammon's: [not on roll, on roll]
        while True:
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            flat = gnubg_nn.pub_best_move(board, d1, d2)
            mover, other = board[1], board[0]
            for i in range(0, len(flat), 2):  # 0-based points, 24 the bar, -1 off
                source, target = flat[i], flat[i + 1]
                mover[source] -= 1
                if target >= 0:
                    mover[target] += 1
                    if other[23 - target] == 1:
                        other[23 - target] = 0
                        other[24] += 1
            if sum(mover) == 0:
                break
            board = [mover, other]  # the other side is on roll next


def best_move_loop(games: int, seed: int) -> None:
    """The reference: both sides played by ``gnubg_nn.best_move`` (0-ply) in Python."""
    import gnubg_nn

    rng = np.random.default_rng(seed)
    for _ in range(games):
        board = [START[:], START[:]]
        while True:
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            mover, other = board[1], board[0]
            for source, target in gnubg_nn.best_move(board, d1, d2):  # 1..24, 25 bar, 0 off
                mover[source - 1] -= 1
                if target > 0:
                    mover[target - 1] += 1
                    if other[24 - target] == 1:
                        other[24 - target] = 0
                        other[24] += 1
            if sum(mover) == 0:
                break
            board = [mover, other]  # the other side is on roll next


def rates(
    plays: dict[str, tuple[Callable[[int, int], None], int]],
    repeats: int,
    clock: Callable[[], float],
) -> dict[str, float]:
    """Median games per second of each ``play(games, seed)``, run in turn ``repeats``
    times (interleaved, so that a change in the machine's load hits all alike)."""
    seen: dict[str, list[float]] = {name: [] for name in plays}
    for seed in range(repeats):
        for name, (play, games) in plays.items():
            start = clock()
            play(games, seed)
            seen[name].append(games / (clock() - start))
    return {name: statistics.median(values) for name, values in seen.items()}


def ours(policy: str | Policy, n_jobs: int) -> Callable[[int, int], None]:
    def play(games: int, seed: int) -> None:
        rollout(
            gl.Position.initial(),
            trials=games,
            policy=policy,
            seed=seed,
            bearoff_finish=False,
            progress=False,
            n_jobs=n_jobs,
        )

    return play


ACEY_START = gl.Position.from_board(np.zeros((2, 26), dtype=np.int8), variant="acey-deucey")


def ours_acey(policy: str) -> Callable[[int, int], None]:
    def play(games: int, seed: int) -> None:
        rollout(ACEY_START, trials=games, policy=policy, seed=seed, progress=False, n_jobs=1)

    return play


MEMORY_CHILD = """
import json, resource, sys, time
import gammonlab as gl
from gammonlab.rollout import rollout
trials = int(sys.argv[1])
start = time.perf_counter()
res = rollout(gl.Position.initial(), trials=trials, seed=1, policy="pubeval", progress=False,
              n_jobs=2)
seconds = time.perf_counter() - start
import importlib; engine = importlib.import_module("gammonlab.rollout.tasks")
engine._POOL.shutdown(wait=True)  # the workers' peak counts once they have ended
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"trials": res.trials, "seconds": seconds, "self_kb": own,
                  "children_kb": children}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--memory-trials", type=int, default=100_000)
    args = parser.parse_args()
    repeats = args.repeats

    # warm up: numba kernels from the cache, the bear-off database, the process pool
    for policy in ("pubeval", "random", "net"):
        rollout(gl.Position.initial(), trials=72, seed=0, policy=policy, progress=False, n_jobs=1)
    rollout(gl.Position.initial(), trials=5184, seed=0, policy="pubeval", progress=False, n_jobs=2)

    print(
        f"rollout benchmark, medians of {repeats} interleaved runs, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f} (other processes slow the wall-clock "
        "figures)"
    )
    print(
        "one-process figures are per CPU second of this process (time.process_time: "
        "robust to other load);\nn_jobs=2 figures per wall-clock second\n"
    )
    print(f"{'':34}{'games/s':>9}  {'reference':>9}  {'ratio':>6}")

    def row(label: str, value: float, reference: float, note: str) -> None:
        print(f"{label:34}{value:9,.0f}  {reference:9,.0f}  {value / reference:6.2f}   {note}")

    one = rates(
        {
            "pub_loop": (pub_loop, 600),
            "pubeval": (ours("pubeval", 1), 5184),
            "random": (ours("random", 1), 5184),
        },
        repeats,
        time.process_time,
    )
    row(
        "pubeval, 1 process",
        one["pubeval"],
        one["pub_loop"],
        "reference: Python loop over gnubg_nn.pub_best_move",
    )
    row("random policy, 1 process", one["random"], 3000, "reference: the 3,000 games/s target")
    wall = rates(
        {"one": (ours("pubeval", 1), 10368), "two": (ours("pubeval", 2), 10368)},
        repeats,
        time.perf_counter,
    )
    row("pubeval, n_jobs=2 (wall clock)", wall["two"], wall["one"], "reference: n_jobs=1")

    rollout(gl.Position.initial(), trials=72, seed=0, policy="gnubg", progress=False, n_jobs=2)
    gnubg_cpu = rates(
        {"loop": (best_move_loop, 144), "gnubg": (ours("gnubg", 1), 288)},
        repeats,
        time.process_time,
    )
    row(
        "gnubg policy, 1 process",
        gnubg_cpu["gnubg"],
        gnubg_cpu["loop"],
        "reference: Python loop over gnubg_nn.best_move",
    )
    gnubg_wall = rates(
        {
            "loop": (best_move_loop, 144),
            "gnubg": (ours("gnubg", 1), 288),
            "two": (ours("gnubg", 2), 576),
        },
        repeats,
        time.perf_counter,
    )
    row("gnubg policy, 1 process (wall)", gnubg_wall["gnubg"], gnubg_wall["loop"], "")
    row(
        "gnubg policy, n_jobs=2 (wall)",
        gnubg_wall["two"],
        gnubg_wall["loop"],
        "reference: the same loop, one process",
    )

    rollout(ACEY_START, trials=36, seed=0, policy="pubeval", progress=False, n_jobs=1)
    rollout(ACEY_START, trials=36, seed=0, policy="random", progress=False, n_jobs=1)
    acey = rates(
        {
            "pubeval": (ours("pubeval", 1), 2592),
            "acey pubeval": (ours_acey("pubeval"), 72),
            "random": (ours("random", 1), 2592),
            "acey random": (ours_acey("random"), 36),
        },
        repeats,
        time.process_time,
    )
    # a 1-2 roll can have thousands of plays (the 1, the 2 and any doubles, R11.2), all
    # generated and scored: most of the time of an Acey-Deucey game
    for policy in ("pubeval", "random"):
        faster = acey[policy] / acey[f"acey {policy}"]
        row(
            f"acey-deucey {policy}, 1 process",
            acey[f"acey {policy}"],
            acey[policy],
            f"reference: standard backgammon, {policy} ({faster:,.0f} times as fast)",
        )

    done = subprocess.run(
        [sys.executable, "-c", MEMORY_CHILD, str(args.memory_trials)],
        capture_output=True,
        text=True,
        check=True,
    )
    memory = json.loads(done.stdout.splitlines()[-1])
    peak = max(memory["self_kb"], memory["children_kb"]) / 1024
    print(
        f"\npeak memory of a {memory['trials']:,}-trial pubeval rollout (n_jobs=2): "
        f"{peak:.0f} MB (parent {memory['self_kb'] / 1024:.0f} MB, largest worker "
        f"{memory['children_kb'] / 1024:.0f} MB; target 500 MB), "
        f"{memory['seconds']:.1f} s"
    )

    from gammonlab.evaluators.bearoff import BearoffDatabase

    with tempfile.TemporaryDirectory() as folder:
        builds = []
        for _ in range(repeats):
            start = time.perf_counter()
            db = BearoffDatabase.build()
            builds.append(time.perf_counter() - start)
        path = Path(folder) / "bearoff.npz"
        db.save(path)
        size = path.stat().st_size
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    tables = sum(a.nbytes for a in (db.expected, db.rolls, db.first_off))
    print(
        f"bear-off database: build {statistics.median(builds):.2f} s (warm numba cache), "
        f"file {size / 1e6:.1f} MB, tables {tables / 1e6:.1f} MB in memory"
    )


if __name__ == "__main__":
    main()
