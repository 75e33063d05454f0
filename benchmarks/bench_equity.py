"""How close the net's equities come to rollouts played by GNU Backgammon.

The positions are those before the unforced checker plays of the bundled
transcripts (the side on roll before it rolls), every k-th of them so that
``--positions`` are spread over all the files. Each is rolled out cubeless by
GNU Backgammon at 0 plies playing both sides (``gl.rollout(...,
policy="gnubg")``, ``gnubg_nn.best_move``: gammonlab draws the dice and keeps
the score, GNU Backgammon chooses every play), ``--trials`` games with the
first roll rotated, played to the end.

Each estimate of the position's cubeless money equity is then compared with that
rollout:

- the net at 0 and at 1 ply (``get_evaluator("net")``, ``NetEvaluator(plies=1)``);
- a rollout by the net (``policy="net"``, the same trials and seed);
- GNU Backgammon's own 0-ply evaluation (``gnubg_nn.probabilities``), the
  reference: the rollout's player judges the positions by the same net.

For each: the mean error (estimate less rollout), its root mean square, and the
same with the rollouts' noise taken out (the mean squared standard errors of the
rollouts involved subtracted from the mean squared error), for all positions and
apart for contact positions, the race positions the race net values and those
both sides bear off in (which the bear-off database values, whatever the net).
The rollout is 0-ply play, not the truth: GNU Backgammon's own evaluation has
the advantage of judging positions the way its rollout plays them.

    python benchmarks/bench_equity.py [--positions 200] [--trials 1296] [--seed 1]
        [--weights FILE] [--quick]

``--weights`` names a weights file other than the shipped one (a fit run's
``checkpoint.npz``).

The defaults take about 10 CPU minutes (most of it the rollouts by GNU
Backgammon); ``--quick`` is a smoke run of a few positions.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from bench_net import is_race, transcripts, unforced_plays

import gammonlab as gl
from gammonlab.errors import MissingDependencyError
from gammonlab.evaluators.base import Policy, equity, get_evaluator
from gammonlab.evaluators.bearoff import is_pure_bearoff
from gammonlab.evaluators.net import NetEvaluator


def spread(count: int, total: int) -> np.ndarray:
    """``count`` indices spread evenly over ``range(total)``."""
    return np.unique(np.linspace(0, total - 1, min(count, total)).round().astype(int))


def rollouts(boards: np.ndarray, policy: str | Policy, trials: int, seed: int) -> np.ndarray:
    """``(n, 2)``: each board's rolled-out equity and its standard error."""
    out = np.empty((len(boards), 2))
    for i, board in enumerate(boards):
        result = gl.rollout(
            gl.Position.from_board(board),
            trials=trials,
            policy=policy,
            seed=seed + i,
            n_jobs=1,
            progress=False,
        )
        out[i] = result.equity, result.stderr["equity"]
    return out


def summary(label: str, errors: np.ndarray, noise: np.ndarray) -> str:
    """Mean error with its standard error, RMS error, RMS error less the rollouts' noise."""
    mse = float(np.mean(errors**2))
    clean = np.sqrt(max(0.0, mse - float(np.mean(noise))))
    stderr = errors.std(ddof=1) / np.sqrt(len(errors)) if len(errors) > 1 else float("nan")
    return (
        f"{label:34}{len(errors):5}  {errors.mean():+.4f} ± {stderr:.4f}  "
        f"{np.sqrt(mse):7.4f}  {clean:14.4f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=None, help="positions (default 200)")
    parser.add_argument("--trials", type=int, default=None, help="trials a rollout (1296)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--weights", default=None, help="a weights file (default: shipped)")
    parser.add_argument("--quick", action="store_true", help="8 positions, 72 trials")
    args = parser.parse_args()
    count = args.positions or (8 if args.quick else 200)
    trials = args.trials or (72 if args.quick else 1296)
    try:
        gnubg = get_evaluator("gnubg")
    except MissingDependencyError:
        print("gnubg_nn is not installed: no rollouts to compare with (pip install gnubg-nn)")
        return

    boards, _ = unforced_plays(transcripts(0))
    boards = boards[spread(count, len(boards))]
    contact = ~is_race(boards)
    bearoff = np.array([is_pure_bearoff(b) for b in boards])
    net = NetEvaluator(args.weights)
    print(
        f"equities against GNU Backgammon 0-ply rollouts: {len(boards)} positions of the "
        f"bundled transcripts ({int(contact.sum())} contact, {int(bearoff.sum())} bear-offs "
        f"of both sides), {trials} trials each, seed "
        f"{args.seed}; weights sha256 {net.weights.digest()[:12]}; "
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}"
    )
    start = time.process_time()
    reference = rollouts(boards, "gnubg", trials, args.seed)
    print(
        f"GNU Backgammon's rollouts: {time.process_time() - start:.0f} CPU s, standard error "
        f"of an equity {np.sqrt(np.mean(reference[:, 1] ** 2)):.4f} (root mean square)"
    )
    start = time.process_time()
    by_net = rollouts(boards, net, trials, args.seed)
    print(f"the net's rollouts: {time.process_time() - start:.0f} CPU s")

    ref_noise = reference[:, 1] ** 2
    estimates = {
        "net 0-ply": (equity(net(boards)), ref_noise),
        "net 1-ply": (equity(NetEvaluator(net.weights, plies=1)(boards)), ref_noise),
        "net rollout": (by_net[:, 0], ref_noise + by_net[:, 1] ** 2),
        "GNU Backgammon 0-ply (reference)": (equity(gnubg(boards)), ref_noise),
    }
    print(
        f"\n{'estimate less rollout':34}{'n':>5}  {'mean ± stderr':>16}  {'RMS':>7}  "
        f"{'RMS less noise':>14}"
    )
    for part, keep in (
        ("all", np.ones(len(boards), bool)),
        ("contact", contact),
        ("race (the race net's)", ~contact & ~bearoff),
        ("bear-off of both sides (the database's)", bearoff),
    ):
        if not keep.any():
            continue
        print(f"-- {part}")
        for label, (value, noise) in estimates.items():
            print(summary(label, (value - reference[:, 0])[keep], noise[keep]))


if __name__ == "__main__":
    main()
