"""Training gammonlab's neural evaluator from its own self-play.

One command trains, resumes and records::

    python -m gammonlab.train --run data/training --games 2000000

The run folder holds ``checkpoint.npz`` (the weights and the training
record: games played, seed, schedule) and ``log.csv`` (one row a checkpoint:
games, CPU seconds, loss, the result of a short duplicate-dice match against
pubeval). Started again, the command goes on from the checkpoint; game ``g``'s
dice and starting position depend only on the run's seed and ``g``, so a run
played in pieces plays the same games as one played at once.

Everything the net learns comes from gammonlab's own engine: its move
generator and rules, its self-play games, its bear-off database. pubeval is
only the yardstick of the log, never a teacher.

The schedule is a list of stages ``(until_games, alpha, lambda)``
(:data:`SCHEDULE`); see :mod:`gammonlab._kernels.net_train` for the method.

A net made so can then teach a new one: :func:`fit` (``--teacher``,
:mod:`gammonlab.train.supervised`) fits a new net to its 1-ply values.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .._kernels.net_play import play_pairs
from .._kernels.net_train import N_STATS, train_games
from .._kernels.policy import PUBEVAL
from .._kernels.rng import seed_key
from ..errors import TrainingError
from ..evaluators.bearoff import BearoffDatabase
from ..evaluators.net import NetWeights
from ..position import Position
from .runs import STARTS, read_log, starts, write_log
from .supervised import FitOptions, fit

__all__ = [
    "DISTIL_ALPHA",
    "SCHEDULE",
    "STARTS",
    "FitOptions",
    "Stage",
    "TrainingError",
    "average",
    "distil",
    "fit",
    "match_against_pubeval",
    "train",
]

CHECKPOINT = "checkpoint.npz"
LOG = "log.csv"
SNAPSHOTS = "snapshots"
"""The run folder's folder of kept checkpoints, ``games-N.npz`` after ``N`` games."""
LABELS = "labels"
"""The run folder's folder of distillation labels kept (``keep_labels``)."""
_LOG_FIELDS = (
    "games",
    "cpu_seconds",
    "games_per_second",
    "plies_per_game",
    "win_mse",
    "gammon_rate",
    "pubeval_ppg",
    "pubeval_stderr",
    "alpha",
    "lambda",
    "stage",
)
_DISTIL_GAMES = 10**12
"""Self-play games of the distillation stage are numbered from here, apart from TD's."""
_ROLLOUT_SEEDS = 1 << 64
"""A run's rollout labels draw their dice with the key of its seed plus this, apart
from the self-play games' dice."""


@dataclass(frozen=True)
class Stage:
    """Train with learning rate ``alpha`` and ``lam`` until ``until`` games."""

    until: int
    alpha: float
    lam: float


SCHEDULE: tuple[Stage, ...] = (
    Stage(300_000, 0.01, 0.7),
    Stage(1_000_000, 0.005, 0.5),
    Stage(3_000_000, 0.0025, 0.3),
    Stage(8_500_000, 0.001, 0.0),
    Stage(9_500_000, 0.0005, 0.0),
    Stage(13_000_000, 0.00025, 0.0),
    Stage(14_000_000, 0.001, 0.0),
    Stage(15_000_000, 0.0005, 0.0),
    Stage(10**12, 0.00025, 0.0),
)
"""The default schedule: a larger step and a longer lambda early, smaller later; the
step rises again after 13,000,000 games, where eight inputs joined with zero weights."""


def _stage(schedule: Sequence[Stage], games: int) -> Stage:
    for stage in schedule:
        if games < stage.until:
            return stage
    return schedule[-1]


def match_against_pubeval(
    weights: NetWeights, pairs: int = 1000, seed: int = 99, first_pair: int = 0
) -> tuple[float, float, np.ndarray]:
    """Net (0-ply) against pubeval: ``pairs`` duplicate-dice pairs of cubeless
    money games from the standard start. Returns points per game for the net,
    its standard error (over pairs) and the points ``(pairs, 2)``."""
    db = BearoffDatabase.get()
    points = np.zeros((pairs, 2), dtype=np.int64)
    plies = np.zeros((pairs, 2), dtype=np.int64)
    start = Position.initial().board.astype(np.int8)
    play_pairs(
        weights.arrays,
        (db.rolls, db.first_off),
        PUBEVAL,
        seed_key(seed),
        first_pair,
        pairs,
        start,
        points,
        plies,
    )
    per_pair = points.sum(axis=1) / 2.0
    return float(per_pair.mean()), float(per_pair.std(ddof=1) / np.sqrt(pairs)), points


def train(
    run: str | Path,
    games: int,
    *,
    seed: int = 1,
    hidden: int = 128,
    schedule: Sequence[Stage] = SCHEDULE,
    checkpoint_every: int = 20_000,
    snapshot_every: int | None = None,
    match_pairs: int = 500,
    progress: bool = True,
) -> NetWeights:
    """Train (or go on training) the run in folder ``run`` until ``games`` games.

    Parameters
    ----------
    run : path
        The run folder; created if missing, resumed from its checkpoint if present.
    games : int
        Total self-play games the run should have played when this returns.
    seed : int
        Seed of the dice, the starting positions and the first weights; a
        resumed run must be given the seed it started with.
    hidden : int
        Hidden units of a new run (a resumed run keeps its own).
    schedule : sequence of Stage
        Learning rate and lambda by games played.
    checkpoint_every : int
        Games between checkpoints (each writes the weights and a log row).
    snapshot_every : int, optional
        Keep a copy of the checkpoint every this many games, in the run's
        ``snapshots/games-N.npz`` (for :func:`average`); a multiple of
        ``checkpoint_every``.
    match_pairs : int
        Duplicate pairs against pubeval played for each log row (0: none).
    progress : bool
        Show a progress bar (tqdm).

    Returns
    -------
    NetWeights
        The weights after the last game.
    """
    if not isinstance(games, int) or games < 0:
        raise TrainingError(f"games: expected a non-negative integer, got {games!r}")
    if not isinstance(checkpoint_every, int) or checkpoint_every < 1:
        raise TrainingError(
            f"checkpoint_every: expected a positive integer, got {checkpoint_every!r}"
        )
    if snapshot_every is not None and (
        not isinstance(snapshot_every, int)
        or snapshot_every < 1
        or snapshot_every % checkpoint_every
    ):
        raise TrainingError(
            f"snapshot_every: expected a positive multiple of checkpoint_every "
            f"({checkpoint_every}), got {snapshot_every!r}"
        )
    run = Path(run)
    run.mkdir(parents=True, exist_ok=True)
    checkpoint = run / CHECKPOINT
    if checkpoint.exists():
        weights = NetWeights.load(checkpoint)
        if weights.meta.get("seed") != seed:
            raise TrainingError(
                f"{checkpoint}: this run was started with seed "
                f"{weights.meta.get('seed')!r}, not {seed}"
            )
    else:
        weights = NetWeights.initial(hidden, seed)
        weights.meta.update(seed=seed, games=0, cpu_seconds=0.0)
    weights.meta["schedule"] = [[s.until, s.alpha, s.lam] for s in schedule]
    db = BearoffDatabase.get()
    start_boards, start_weights = starts()
    key = seed_key(seed)
    done = int(weights.meta.get("games", 0))
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(
            total=games, initial=min(done, games), unit="game", desc="self-play", smoothing=0.05
        )
    log_rows = read_log(run / LOG)
    try:
        while done < games:
            stage = _stage(schedule, done)
            n = min(checkpoint_every - done % checkpoint_every, games - done, stage.until - done)
            stats = np.zeros(N_STATS)
            step = min(n, 500)
            begin = time.process_time()
            played = 0
            while played < n:
                chunk = min(step, n - played)
                train_games(
                    weights.arrays,
                    (db.rolls, db.first_off),
                    start_boards,
                    start_weights,
                    key,
                    done + played,
                    chunk,
                    stage.alpha,
                    stage.lam,
                    stats,
                )
                played += chunk
                if bar is not None:
                    bar.update(chunk)
            seconds = time.process_time() - begin
            done += n
            weights.meta["games"] = done
            weights.meta["cpu_seconds"] = float(weights.meta.get("cpu_seconds", 0.0)) + seconds
            if done % checkpoint_every == 0 or done == games:
                ppg, se = (float("nan"), float("nan"))
                if match_pairs:
                    ppg, se, _ = match_against_pubeval(weights, match_pairs)
                row = {
                    "games": done,
                    "cpu_seconds": round(weights.meta["cpu_seconds"], 1),
                    "games_per_second": round(n / max(seconds, 1e-9), 1),
                    "plies_per_game": round(stats[1] / max(stats[0], 1), 2),
                    "win_mse": round(stats[3] / max(stats[2], 1), 5),
                    "gammon_rate": round(stats[5] / max(stats[0], 1), 4),
                    "pubeval_ppg": round(ppg, 4),
                    "pubeval_stderr": round(se, 4),
                    "alpha": stage.alpha,
                    "lambda": stage.lam,
                    "stage": "td",
                }
                log_rows = [r for r in log_rows if int(r["games"]) < done] + [row]
                weights.save(checkpoint)
                if snapshot_every and done % snapshot_every == 0:
                    weights.save(run / SNAPSHOTS / f"games-{done}.npz")
                _write_log(run / LOG, log_rows)
                if bar is not None:
                    bar.set_postfix(pubeval=f"{ppg:+.3f}±{se:.3f}")
    finally:
        if bar is not None:
            bar.close()
    return weights


def _cell(row: dict, field: str) -> object:
    """A log cell; rows written before the ``stage`` column existed are TD rows."""
    value = row.get(field)
    if value is None or value == "":
        return "td" if field == "stage" else ""
    return value


def _write_log(path: Path, rows: list[dict]) -> None:
    write_log(path, rows, _LOG_FIELDS, _cell)


def average(checkpoints: Sequence[str | Path], out: str | Path) -> NetWeights:
    """Write to ``out`` the mean of the weights of several checkpoints of one run.

    The checkpoints of a run taken some way apart on its path (its snapshots,
    or a shipped net and the checkpoint it led to) lie either side of the
    weights their noisy steps circle; their mean can lie nearer, and play better
    than either (``docs/net.md`` measures it). The mean is taken in float64, so the same
    checkpoints give the same file. Its record is the latest checkpoint's, with
    the games and digests of every checkpoint averaged.

    Raises
    ------
    TrainingError
        Fewer than two checkpoints, or checkpoints of other sizes or runs.
    """
    paths = [Path(p) for p in checkpoints]
    if len(paths) < 2:
        raise TrainingError(f"average: expected two checkpoints or more, got {len(paths)}")
    nets = [NetWeights.load(p) for p in paths]
    first = nets[0]
    for path, net in zip(paths, nets):
        if net.hidden != first.hidden:
            raise TrainingError(
                f"{path}: {net.hidden} hidden units, where {paths[0]} has {first.hidden}"
            )
        if net.nets != first.nets:
            raise TrainingError(f"{path}: {net.nets} nets, where {paths[0]} has {first.nets}")
        if net.meta.get("seed") != first.meta.get("seed"):
            raise TrainingError(
                f"{path}: a checkpoint of the run with seed {net.meta.get('seed')!r}, "
                f"where {paths[0]} is of seed {first.meta.get('seed')!r}"
            )
    order = sorted(range(len(nets)), key=lambda i: int(nets[i].meta.get("games", 0)))
    latest = nets[order[-1]]
    arrays = [np.mean([net.arrays[k].astype(np.float64) for net in nets], axis=0) for k in range(4)]
    meta = dict(latest.meta)
    meta["averaged"] = [
        {"games": int(nets[i].meta.get("games", 0)), "sha256": nets[i].digest()} for i in order
    ]
    w1, b1, w2, b2 = arrays
    mean = NetWeights(w1, b1, w2, b2, meta=meta)
    mean.save(out)
    return mean


DISTIL_ALPHA = 0.002
"""Learning rate of the distillation stage."""


def _labelled(
    boards: np.ndarray,
    first: int,
    arrays: tuple,
    tables: tuple,
    key: np.uint64,
    *,
    plies: int,
    trials: int,
    truncate: int,
    plays: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The positions a distillation round trains on from ``boards`` (the position
    numbers from ``first``) and their labels: n-ply values, rollouts, or rollouts
    of the positions after a roll's best plays (see :func:`distil`)."""
    from .._kernels.net_search import ply_probabilities
    from .._kernels.net_train import play_rollout_targets, rollout_targets

    if plays:
        out = np.empty((boards.shape[0] * plays, 2, 26), dtype=np.int8)
        targets = np.empty((out.shape[0], 5))
        count = play_rollout_targets(
            boards, plays, trials, truncate, arrays, tables, key, first, out, targets
        )
        return out[:count], targets[:count]
    if trials:
        targets = np.empty((boards.shape[0], 5))
        rollout_targets(boards, trials, truncate, arrays, tables, key, first, targets)
        return boards, targets
    return boards, ply_probabilities(boards, plies, arrays, tables, 5, 0.16)


def distil(
    run: str | Path,
    rounds: int,
    *,
    seed: int = 1,
    positions: int = 50_000,
    plies: int = 1,
    trials: int = 0,
    truncate: int = 10,
    plays: int = 0,
    epochs: int = 2,
    alpha: float = DISTIL_ALPHA,
    keep_labels: bool = False,
    match_pairs: int = 500,
    progress: bool = True,
) -> NetWeights:
    """Go on training the run in ``run`` towards the net's own deeper evaluations.

    Each round plays self-play games with the current net until it has
    ``positions`` positions (every position a side is on roll in, but those
    of the bear-off database), values each at ``plies`` plies with the same
    net (the average over the 21 rolls of the best play's value,
    :mod:`gammonlab._kernels.net_search`), and takes ``epochs`` shuffled
    passes of gradient steps towards those values. The labels are the TD
    targets averaged over every roll instead of one: the same fixed point,
    far less noise. A checkpoint and a log row are written after each round;
    the round count is kept in the checkpoint, so a run resumes where it
    stopped, and round ``r`` plays the same games for the same weights.

    With ``trials`` above 0 the labels are rollouts instead: only the
    positions the contact net values are kept, and each is played on
    ``trials`` times by the same net at 0-ply, for at most ``truncate`` plies,
    the first roll rotated over the 36
    (:func:`~gammonlab._kernels.net_train.rollout_targets`). Those labels see
    further than a look-ahead of one or two plies: what the net's values get
    wrong about the positions a few rolls later.

    Parameters
    ----------
    run : path
        A run folder with a checkpoint (from :func:`train`).
    rounds : int
        Total distillation rounds the run should have done when this returns.
    seed : int
        The run's seed.
    positions, plies, epochs, alpha
        Positions per round, depth of the labels (1 or 2), passes over them,
        learning rate.
    trials, truncate
        Rollout labels: trials per position (0: n-ply labels), and the plies
        after which a trial takes the net's value.
    plays : int
        With rollout labels, label the plays of a roll instead of the positions
        themselves: for each position a roll, and the positions after its
        ``plays`` best plays at 0-ply, rolled out on the same dice
        (:func:`~gammonlab._kernels.net_train.play_rollout_targets`); 0 labels
        the positions.
    keep_labels : bool
        Also write each round's positions and labels to the run's
        ``labels/round-N.npz`` (``boards`` int8, ``targets`` float64), to study
        or to train on again; they are rebuilt by running the round again.
    match_pairs : int
        Duplicate pairs against pubeval for each log row (0: none).
    progress : bool
        Show progress bars (tqdm).
    """
    from .._kernels.net import CONTACT
    from .._kernels.net_train import fit_targets, phase_positions, self_play_positions

    if not isinstance(rounds, int) or rounds < 0:
        raise TrainingError(f"rounds: expected a non-negative integer, got {rounds!r}")
    if plies not in (1, 2):
        raise TrainingError(f"plies: the labels are 1- or 2-ply evaluations, got {plies!r}")
    if not isinstance(positions, int) or positions < 1:
        raise TrainingError(f"positions: expected a positive integer, got {positions!r}")
    if not isinstance(trials, int) or trials < 0:
        raise TrainingError(f"trials: expected a non-negative integer, got {trials!r}")
    if not isinstance(truncate, int) or truncate < 1:
        raise TrainingError(f"truncate: expected a positive number of plies, got {truncate!r}")
    if not isinstance(plays, int) or plays < 0 or (plays and not trials):
        raise TrainingError(
            f"plays: expected a non-negative integer, with rollout labels (trials), got {plays!r}"
        )
    run = Path(run)
    checkpoint = run / CHECKPOINT
    if not checkpoint.exists():
        raise TrainingError(f"{checkpoint}: no checkpoint to distil; train the run first")
    weights = NetWeights.load(checkpoint)
    if weights.meta.get("seed") != seed:
        raise TrainingError(
            f"{checkpoint}: this run was started with seed {weights.meta.get('seed')!r}, not {seed}"
        )
    db = BearoffDatabase.get()
    start_boards, start_weights = starts()
    key = seed_key(seed)
    rollout_key = seed_key(seed + _ROLLOUT_SEEDS)
    log_rows = read_log(run / LOG)
    done = int(weights.meta.get("distil_rounds", 0))
    while done < rounds:
        begin = time.process_time()
        first_game = _DISTIL_GAMES + int(weights.meta.get("distil_games", 0))
        boards = np.empty((positions, 2, 26), dtype=np.int8)
        count, games = self_play_positions(
            weights.arrays,
            (db.rolls, db.first_off),
            start_boards,
            start_weights,
            key,
            first_game,
            10**9,
            boards,
        )
        boards = boards[:count]
        if trials:
            boards = boards[phase_positions(boards, CONTACT, 2)]  # all contact, deep or not
            count = boards.shape[0]
        labels = f"rollout {trials}x{truncate}" if trials else f"{plies}-ply"
        if plays:
            labels += f" of the {plays} best plays"
        first_label = int(weights.meta.get("distil_labels", 0))
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=count, unit="position", desc=f"round {done + 1}: {labels} labels")
        step = 2000
        chunks = []
        for i in range(0, count, step):
            chunks.append(
                _labelled(
                    boards[i : i + step],
                    first_label + i,
                    weights.arrays,
                    (db.rolls, db.first_off),
                    rollout_key,
                    plies=plies,
                    trials=trials,
                    truncate=truncate,
                    plays=plays,
                )
            )
            if bar is not None:
                bar.update(min(step, count - i))
        if chunks:
            boards = np.concatenate([chunk[0] for chunk in chunks])
            targets = np.concatenate([chunk[1] for chunk in chunks])
        else:
            targets = np.empty((0, 5))
        if bar is not None:
            bar.close()
        if keep_labels:
            (run / LABELS).mkdir(exist_ok=True)
            np.savez_compressed(
                run / LABELS / f"round-{done + 1}.npz", boards=boards, targets=targets
            )
        order_rng = np.random.default_rng([seed, done])
        mse = 0.0
        for _ in range(epochs):
            order = order_rng.permutation(boards.shape[0]).astype(np.int64)
            mse = fit_targets(weights.arrays, boards, targets, order, alpha)
        seconds = time.process_time() - begin
        done += 1
        weights.meta["distil_rounds"] = done
        weights.meta["distil_games"] = int(weights.meta.get("distil_games", 0)) + int(games)
        weights.meta["distil_labels"] = first_label + count
        weights.meta["distil"] = {
            "positions": positions,
            "plies": plies,
            "trials": trials,
            "truncate": truncate,
            "plays": plays,
            "epochs": epochs,
            "alpha": alpha,
        }
        weights.meta["cpu_seconds"] = float(weights.meta.get("cpu_seconds", 0.0)) + seconds
        ppg, se = (float("nan"), float("nan"))
        if match_pairs:
            ppg, se, _ = match_against_pubeval(weights, match_pairs)
        row = {
            "games": int(weights.meta.get("games", 0)),
            "cpu_seconds": round(weights.meta["cpu_seconds"], 1),
            "games_per_second": round(games / max(seconds, 1e-9), 1),
            "plies_per_game": round(count / max(games, 1), 2),
            "win_mse": round(mse, 5),
            "gammon_rate": "",
            "pubeval_ppg": round(ppg, 4),
            "pubeval_stderr": round(se, 4),
            "alpha": alpha,
            "lambda": "",
            "stage": f"distil {done} ({labels})",
        }
        log_rows.append(row)
        weights.save(checkpoint)
        _write_log(run / LOG, log_rows)
        if progress:
            print(f"round {done}: {count} positions ({labels}), pubeval {ppg:+.3f} ± {se:.3f}")
    return weights
