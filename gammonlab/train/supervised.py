"""Fitting a new net to a teacher net's n-ply values (supervised, Adam).

A net at 1-ply plays better than the same net at 0-ply, at about twenty times
the cost. This stage moves that look-ahead into a new net's 0-ply: it plays
the teacher's self-play games, takes every position a side is on roll in and
the positions after the best plays of a roll from each (what a player
compares when it chooses a play), labels them all with the teacher's n-ply
values, and fits a new net of one phase, contact or race, to the labels by
minibatch gradient descent (Adam, a cosine learning rate); the other phase's
nets are the teacher's, carried over, or with ``--carry WEIGHTS`` those of
another net. The fitted net can then teach the next one::

    python -m gammonlab.train --run data/fit-1 --teacher data/training/snapshots/games-15000000.npz
    python -m gammonlab.train --run data/fit-2 --teacher data/fit-1/checkpoint.npz --seed 2 \
        --fit-positions 1250000
    python -m gammonlab.train --run data/fit-8 --teacher data/fit-7/checkpoint.npz --seed 8 \
        --fit-phase race --rollout-trials 36 --fit-positions 3000000 --fit-epochs 100 \
        --learning-rate 0.003
    python -m gammonlab.train --run data/fit-22 --teacher data/fit-19/checkpoint.npz --seed 21 \
        --fit-phase race --fit-positions 6000000 --fit-epochs 100 --learning-rate 0.003 \
        --carry data/fit-20/checkpoint.npz
    python -m gammonlab.train --run data/fit-24 --teacher data/fit-17/checkpoint.npz --seed 20 \
        --fit-positions 2500000 --fit-epochs 100 --learning-rate 0.003 --hidden 384 \
        --contact-nets 4 --carry data/fit-22/checkpoint.npz
    python -m gammonlab.train --run data/fit-25 --teacher data/fit-24/checkpoint.npz --seed 25 \
        --fit-positions 2500000 --fit-epochs 100 --learning-rate 0.003 --hidden 384 \
        --contact-nets 4 --jobs 2
    python -m gammonlab.train --run data/fit-26 --teacher data/fit-25/checkpoint.npz --seed 26 \
        --fit-positions 2500000 --fit-epochs 100 --learning-rate 0.003 --hidden 384 \
        --contact-nets 4 --jobs 2

A race fit labels only the race positions of the teacher's games (and the
positions after their best plays), so its labels cost a small part of a
contact fit's. With ``--rollout-trials`` the labels are the teacher's own
rollouts, played to the end, instead of its n-ply values: a race's rollouts
end in the bear-off database's exact values, so they are short and quiet.

The run folder holds ``checkpoint.npz`` (the weights after the last epoch,
with the record: teacher, seed, options, epochs done), ``optimizer.npz`` (the
optimizer's state, to resume; removed when the last epoch is done),
``log.csv`` (one row an epoch) and ``labels/`` (the labelled positions, one
file a chunk: rebuilt from the seed and the teacher when missing, never
committed). Started again, the command labels the chunks that are missing and
goes on from the last epoch done. With ``--jobs N`` (``fit(..., n_jobs=N)``),
N processes label the chunks at once; the files are those one process writes.

Everything comes from gammonlab's own engine: the teacher's games and
evaluations (:mod:`gammonlab._kernels.net_search`), its move generator, its
bear-off database.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from .._kernels.net import (
    BOTH_BACK,
    BOTH_BACK_BAR,
    CONTACT,
    CONTACT_FAR,
    DEEP,
    DEEP_FAR,
    LATE,
    LATE_FAR,
    N_OUTPUTS,
    NET_COUNTS,
    RACE,
    net_inputs,
)
from .._kernels.net_search import ply_probabilities
from .._kernels.net_train import (
    MAX_GAME_PLIES,
    best_play_positions,
    phase_positions,
    rollout_targets,
    self_play_positions,
)
from .._kernels.rng import seed_key
from ..errors import NetWeightsError, TrainingError
from ..evaluators.bearoff import BearoffDatabase
from ..evaluators.net import NetWeights
from .runs import read_log, starts, write_log

__all__ = ["CONTACT_NETS", "FitOptions", "fit", "label_chunk"]

CHECKPOINT = "checkpoint.npz"
OPTIMIZER = "optimizer.npz"
LOG = "log.csv"
LABELS = "labels"
"""The run folder's folder of labelled chunks, ``chunk-NNNN.npz``."""
_LOG_FIELDS = ("epoch", "cpu_seconds", "positions", "train_loss", "holdout_mse", "learning_rate")
_PLAY_SEEDS = 1 << 63
"""The rolls whose best plays are labelled are drawn with the key of the seed plus
this, apart from the self-play games' dice."""
_ROLLOUT_SEEDS = 1 << 62
"""The dice of the rollouts that label a run (``trials``) come from the key of the
seed plus this."""
_PHASES = {"contact": CONTACT, "race": RACE}
"""The phases a fit can train, by name (:func:`gammonlab._kernels.net.net_phase`)."""
CONTACT_NETS = tuple(nets - 1 for nets in NET_COUNTS)
"""How many nets may value contact: those of a weights file but the race net."""
_BETAS = (0.9, 0.999)
_EPSILON = 1e-8


@dataclass(frozen=True)
class FitOptions:
    """What a fit run is: its labels and its optimisation (kept in its checkpoint).

    ``positions`` self-play positions of the teacher, in chunks of
    ``chunk`` (the first ``holdout`` chunks are held out, to measure the fit),
    each with the positions after the ``plays`` best plays of one roll, all
    labelled at ``plies`` (or, with ``trials``, by the teacher's own rollouts of
    that many trials each, played to the end: a bear-off of both sides is valued
    by the database); a net of ``hidden`` units for ``phase``
    (``"contact"`` or ``"race"``: only that phase's positions are labelled) fitted in
    ``epochs`` passes of minibatches of ``batch``, the learning rate falling
    from ``learning_rate`` to ``final_learning_rate`` along a cosine. With
    ``contact_nets`` 2, 4 or 8, a contact fit fits that many nets of ``hidden``
    units on the same labels, each for a part of contact
    (:data:`~gammonlab._kernels.net.CONTACT_PARTS`: deep contact and the rest;
    late contact, contact, deep contact and both back; or each of those in
    two), each in passes over its own positions.
    """

    positions: int = 750_000
    chunk: int = 5000
    holdout: int = 3
    plays: int = 4
    plies: int = 1
    trials: int = 0
    hidden: int = 256
    epochs: int = 30
    batch: int = 1024
    learning_rate: float = 1e-3
    final_learning_rate: float = 1e-5
    phase: str = "contact"
    contact_nets: int = 1

    def check(self) -> None:
        if self.phase not in _PHASES:
            raise TrainingError(
                f"phase: expected one of {', '.join(map(repr, _PHASES))}, got {self.phase!r}"
            )
        if self.contact_nets not in CONTACT_NETS or isinstance(self.contact_nets, bool):
            raise TrainingError(
                f"contact nets: expected {', '.join(map(str, CONTACT_NETS))}, "
                f"got {self.contact_nets!r}"
            )
        if self.contact_nets > 1 and self.phase != "contact":
            raise TrainingError(
                f"contact nets: {self.contact_nets} nets split the contact positions; "
                f"a {self.phase} fit trains one net"
            )
        for name in ("positions", "chunk", "hidden", "epochs", "batch"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise TrainingError(f"{name}: expected a positive integer, got {value!r}")
        for name in ("holdout", "plays", "trials"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise TrainingError(f"{name}: expected a non-negative integer, got {value!r}")
        if self.plies not in (1, 2):
            raise TrainingError(f"plies: the labels are 1- or 2-ply values, got {self.plies!r}")
        if self.holdout >= self.chunks:
            raise TrainingError(
                f"holdout: {self.holdout} chunks held out of {self.chunks} leave none to fit"
            )
        if not 0 < self.final_learning_rate <= self.learning_rate:
            raise TrainingError(
                f"learning rates: expected 0 < final ({self.final_learning_rate!r}) "
                f"<= first ({self.learning_rate!r})"
            )

    @property
    def chunks(self) -> int:
        return -(-self.positions // self.chunk)

    @property
    def fitted(self) -> tuple[int, ...]:
        """The nets the fit trains (:data:`~gammonlab._kernels.net.CONTACT`, ...)."""
        if self.phase == "contact":  # every net of the file but the race net
            return tuple(net for net in range(self.contact_nets + 1) if net != RACE)
        return (_PHASES[self.phase],)

    def nets(self, teacher: NetWeights) -> int:
        """The nets of the fitted file: the race net and the contact nets fitted,
        or, for a race fit, as many as the teacher has."""
        if self.phase == "race":
            return teacher.nets
        return RACE + self.contact_nets

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> FitOptions:
        """The options a checkpoint records (``split``, in the records of runs
        that fitted two contact nets, is ``contact_nets=2``)."""
        record = dict(record)
        if "split" in record:
            record["contact_nets"] = 2 if record.pop("split") else 1
        return cls(**record)


def label_chunk(
    teacher: NetWeights, seed: int, index: int, first_game: int, options: FitOptions
) -> dict[str, np.ndarray]:
    """Chunk ``index`` of a fit run: the teacher's self-play positions from game
    ``first_game`` on (``options.chunk`` of them), the positions after the
    best plays of a roll from each, and their labels.

    Returns ``boards`` int8 ``(n, 2, 26)`` (row 0 on roll), ``targets``
    ``(n, 5)`` (the teacher's ``options.plies`` values, or its rollouts of
    ``options.trials`` trials) and ``next_game``, the
    first game of the next chunk. The same arguments give the same chunk.
    """
    db = BearoffDatabase.get()
    tables = (db.rolls, db.first_off)
    boards, games = _self_play(teacher, seed, first_game, options)
    count = boards.shape[0]
    race = options.phase != "contact"
    if race:
        boards = boards[phase_positions(boards, RACE, 2)]
        count = boards.shape[0]
    after = np.empty((count * options.plays, 2, 26), dtype=np.int8)
    written = best_play_positions(
        boards,
        options.plays,
        teacher.arrays,
        tables,
        seed_key(seed + _PLAY_SEEDS),
        index * options.chunk,
        after,
    )
    after = after[:written]
    if race:  # the plays from a race position lead to races or bear-offs of both sides
        after = after[phase_positions(after, RACE, 2)]
    boards = np.concatenate([boards, after])
    if options.trials:
        targets = np.empty((boards.shape[0], N_OUTPUTS))
        rollout_targets(
            boards,
            options.trials,
            MAX_GAME_PLIES,
            teacher.arrays,
            tables,
            seed_key(seed + _ROLLOUT_SEEDS),
            index * options.chunk * (1 + options.plays),  # a number for each position
            targets,
        )
    else:
        targets = ply_probabilities(boards, options.plies, teacher.arrays, tables, 5, 0.16)
    return {
        "boards": boards,
        "targets": targets,
        "next_game": np.array(first_game + games, dtype=np.int64),
    }


def _self_play(
    teacher: NetWeights, seed: int, first_game: int, options: FitOptions
) -> tuple[np.ndarray, int]:
    """A chunk's self-play positions (``options.chunk`` of them, from game
    ``first_game`` on) and the number of games they took."""
    db = BearoffDatabase.get()
    start_boards, start_weights = starts()
    boards = np.empty((options.chunk, 2, 26), dtype=np.int8)
    count, games = self_play_positions(
        teacher.arrays,
        (db.rolls, db.first_off),
        start_boards,
        start_weights,
        seed_key(seed),
        first_game,
        10**9,
        boards,
    )
    return boards[:count], int(games)


def _label_file(
    teacher: NetWeights, seed: int, index: int, first_game: int, options: FitOptions, path: Path
) -> int:
    """Label chunk ``index`` into ``path`` (whole or not at all); the first game
    of the next chunk."""
    chunk = label_chunk(teacher, seed, index, first_game, options)
    temporary = path.with_name(path.stem + ".part.npz")
    np.savez_compressed(
        temporary, boards=chunk["boards"], targets=chunk["targets"], next_game=chunk["next_game"]
    )
    temporary.replace(path)
    return int(chunk["next_game"])


def _label_kind(options: FitOptions) -> str:
    if options.trials:
        return f"rollout labels ({options.trials} trials)"
    return f"{options.plies}-ply labels"


def _labels(
    run: Path,
    teacher: NetWeights,
    seed: int,
    options: FitOptions,
    progress: bool,
    n_jobs: int = 1,
) -> list[Path]:
    """The run's labelled chunks, the missing ones made.

    Each chunk starts at the game the one before it stopped. With ``n_jobs``
    above 1, worker processes label the missing chunks at once, while this
    process plays each one's self-play games again (a small part of the cost)
    to find where the next one starts: the files are the same as one process
    writes.
    """
    folder = run / LABELS
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"chunk-{i:04d}.npz" for i in range(options.chunks)]
    missing = [i for i, p in enumerate(paths) if not p.exists()]
    if not missing:
        return paths
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(missing), unit="chunk", desc=_label_kind(options))
    workers = max(1, min(n_jobs, len(missing)))
    pool = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None
    expected: dict[Future[int], tuple[int, int]] = {}
    try:
        next_game = 0
        for i, path in enumerate(paths):
            if path.exists():
                next_game = int(_read_chunk(path, ("next_game",))["next_game"])
            elif pool is None:
                next_game = _label_file(teacher, seed, i, next_game, options, path)
                if bar is not None:
                    bar.update(1)
            else:
                future = pool.submit(_label_file, teacher, seed, i, next_game, options, path)
                next_game += _self_play(teacher, seed, next_game, options)[1]
                expected[future] = (i, next_game)
        for future in as_completed(expected):
            i, next_game = expected[future]
            if future.result() != next_game:
                raise TrainingError(
                    f"{paths[i]}: its games end at {future.result()}, where the self-play "
                    f"played again ends at {next_game}"
                )
            if bar is not None:
                bar.update(1)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
        if bar is not None:
            bar.close()
    return paths


def _read_chunk(
    path: Path, keys: tuple[str, ...] = ("boards", "targets", "next_game")
) -> dict[str, np.ndarray]:
    """The arrays ``keys`` of a chunk (each read only when asked for)."""
    try:
        with np.load(path) as data:
            chunk = {k: data[k] for k in keys}
    except (OSError, ValueError, KeyError) as error:
        raise TrainingError(
            f"{path}: not a chunk of labels ({error}); delete it to label it again"
        ) from error
    return chunk


class _Data:
    """The positions of one net in some chunks as the net's dense inputs: those
    :func:`~gammonlab._kernels.net_train.phase_positions` gives for ``phase``
    among ``nets`` nets."""

    def __init__(self, paths: list[Path], phase: int = CONTACT, nets: int = 2) -> None:
        boards, targets = [], []
        for path in paths:
            chunk = _read_chunk(path)
            keep = phase_positions(chunk["boards"], phase, nets)
            boards.append(chunk["boards"][keep])
            targets.append(chunk["targets"][keep])
        board = np.concatenate(boards) if boards else np.empty((0, 2, 26), np.int8)
        self.x = net_inputs(board)
        self.t = (np.concatenate(targets) if targets else np.empty((0, 5))).astype(np.float32)
        # a side that has borne off a checker cannot lose a gammon (R8.2)
        self.can_lose = (board[:, 0, 0] == 0).astype(np.float32)
        self.can_win = (board[:, 1, 0] == 0).astype(np.float32)

    def __len__(self) -> int:
        return self.x.shape[0]


def _logistic(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def _forward(params: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    w1, b1, w2, b2 = params
    hidden = np.maximum(x @ w1 + b1, 0.0)
    return hidden, _logistic(hidden @ w2.T + b2)


def _probabilities(s: np.ndarray, can_lose: np.ndarray, can_win: np.ndarray) -> np.ndarray:
    win = s[:, 0]
    win_gammon = win * s[:, 1] * can_win
    lose_gammon = (1.0 - win) * s[:, 3] * can_lose
    return np.stack([win, win_gammon, win_gammon * s[:, 2], lose_gammon, lose_gammon * s[:, 4]], 1)


def _equity(p: np.ndarray) -> np.ndarray:
    return 2.0 * p[:, 0] - 1.0 + p[:, 1] - p[:, 3] + p[:, 2] - p[:, 4]


def _logit_gradient(
    s: np.ndarray, t: np.ndarray, can_lose: np.ndarray, can_win: np.ndarray
) -> np.ndarray:
    """The gradient of the six outcomes' cross-entropy with respect to the logits
    (see :mod:`gammonlab._kernels.net_train`); the gammon outputs a side cannot
    have get none."""
    dz = np.empty_like(s)
    dz[:, 0] = s[:, 0] - t[:, 0]
    dz[:, 1] = (t[:, 0] * s[:, 1] - t[:, 1]) * can_win
    dz[:, 2] = (t[:, 1] * s[:, 2] - t[:, 2]) * can_win
    dz[:, 3] = ((1.0 - t[:, 0]) * s[:, 3] - t[:, 3]) * can_lose
    dz[:, 4] = (t[:, 3] * s[:, 4] - t[:, 4]) * can_lose
    return dz


def _cross_entropy(s: np.ndarray, t: np.ndarray, can_lose, can_win) -> float:
    """Mean cross-entropy of the chained outputs against the targets (each
    output's binary term, weighted as the gradient above weights it)."""
    eps = 1e-7
    s = np.clip(s, eps, 1 - eps)

    def term(p, y, w):
        # the loss whose gradient is w * p - y: y of w trials with success p
        return y * np.log(p) + (w - y) * np.log(1 - p)

    total = term(s[:, 0], t[:, 0], 1.0)
    total = total + can_win * (term(s[:, 1], t[:, 1], t[:, 0]) + term(s[:, 2], t[:, 2], t[:, 1]))
    total = total + can_lose * term(s[:, 3], t[:, 3], 1.0 - t[:, 0])
    total = total + can_lose * term(s[:, 4], t[:, 4], t[:, 3])
    return float(-total.mean())


def _squared_errors(params: list[np.ndarray], data: _Data) -> float:
    """The sum of the squared errors of the cubeless equity on ``data``."""
    total = 0.0
    for i in range(0, len(data), 65536):
        part = slice(i, i + 65536)
        _, s = _forward(params, data.x[part])
        p = _probabilities(s, data.can_lose[part], data.can_win[part])
        total += float(((_equity(p) - _equity(data.t[part])) ** 2).sum())
    return total


def _learning_rate(options: FitOptions, step: int, steps: int) -> float:
    first, last = options.learning_rate, options.final_learning_rate
    return last + 0.5 * (first - last) * (1.0 + np.cos(np.pi * min(step / steps, 1.0)))


def _initial(seed: int, n_inputs: int, hidden: int) -> list[np.ndarray]:
    """New weights: about 37 inputs are active in a position."""
    rng = np.random.default_rng([seed, 0xF17])
    return [
        rng.normal(0.0, 1.0 / np.sqrt(37.0), (n_inputs, hidden)).astype(np.float32),
        np.zeros(hidden, dtype=np.float32),
        rng.normal(0.0, 1.0 / np.sqrt(hidden), (N_OUTPUTS, hidden)).astype(np.float32),
        np.zeros(N_OUTPUTS, dtype=np.float32),
    ]


def _weights(
    others: NetWeights, fitted: dict[int, list[np.ndarray]], nets: int, meta: dict
) -> NetWeights:
    """The nets fitted (by index) beside the other nets of ``others`` (the
    teacher, or the carried net), all zero-padded to the widest (the file holds
    one width); a deep contact net ``others`` lacks is its contact net, as its
    kernels value deep contact."""
    hidden = max([others.hidden] + [params[0].shape[1] for params in fitted.values()])
    w1 = np.zeros((nets, others.w1.shape[1], hidden), dtype=np.float32)
    b1 = np.zeros((nets, hidden), dtype=np.float32)
    w2 = np.zeros((nets, N_OUTPUTS, hidden), dtype=np.float32)
    b2 = np.zeros((nets, N_OUTPUTS), dtype=np.float32)
    for net in range(nets):
        if net in fitted:
            params = fitted[net]
            width = params[0].shape[1]
            w1[net, :, :width], b1[net, :width], w2[net, :, :width], b2[net] = params
        else:
            source = net if net < others.nets else CONTACT
            width = others.hidden
            w1[net, :, :width] = others.w1[source]
            b1[net, :width] = others.b1[source]
            w2[net, :, :width] = others.w2[source]
            b2[net] = others.b2[source]
    return NetWeights(w1, b1, w2, b2, meta=meta)


class _Fitter:
    """One net's fit: its parameters, Adam's moments and step, its positions."""

    def __init__(self, net: int, data: _Data, holdout: _Data, options: FitOptions) -> None:
        self.net = net
        self.data = data
        self.holdout = holdout
        self.options = options
        self.per_epoch = len(data) // options.batch
        self.steps = self.per_epoch * options.epochs
        self.params: list[np.ndarray] = []
        self.first: list[np.ndarray] = []
        self.second: list[np.ndarray] = []
        self.step = 0

    def start(self, seed: int) -> None:
        self.params = _initial(seed, self.data.x.shape[1], self.options.hidden)
        self.first = [np.zeros_like(p) for p in self.params]
        self.second = [np.zeros_like(p) for p in self.params]

    def resume(self, previous: NetWeights, moments: list[np.ndarray], step: int) -> None:
        width = self.options.hidden
        net = self.net
        self.params = [
            previous.w1[net, :, :width].copy(),
            previous.b1[net, :width].copy(),
            previous.w2[net, :, :width].copy(),
            previous.b2[net].copy(),
        ]
        self.first, self.second = moments[:4], moments[4:]
        self.step = step

    def epoch(self, order: np.ndarray) -> tuple[float, float]:
        """One pass in minibatches taken in ``order``: the mean training loss and
        the learning rate at the end."""
        options, data, params = self.options, self.data, self.params
        beta1, beta2 = _BETAS
        loss = 0.0
        rate = _learning_rate(options, self.step, self.steps)
        for b in range(self.per_epoch):
            rows = np.sort(order[b * options.batch : (b + 1) * options.batch])
            x, t = data.x[rows], data.t[rows]
            can_lose, can_win = data.can_lose[rows], data.can_win[rows]
            hidden, s = _forward(params, x)
            loss += _cross_entropy(s, t, can_lose, can_win)
            dz = _logit_gradient(s, t, can_lose, can_win) / options.batch
            dh = (dz @ params[2]) * (hidden > 0)
            grads = (x.T @ dh, dh.sum(0), dz.T @ hidden, dz.sum(0))
            self.step += 1
            rate = _learning_rate(options, self.step, self.steps)
            c1, c2 = 1.0 - beta1**self.step, 1.0 - beta2**self.step
            for p, g, m, v in zip(params, grads, self.first, self.second):
                m *= beta1
                m += (1.0 - beta1) * g
                v *= beta2
                v += (1.0 - beta2) * g * g
                p -= (rate * (m / c1) / (np.sqrt(v / c2) + _EPSILON)).astype(np.float32)
        return loss / self.per_epoch, rate

    def holdout_errors(self) -> float:
        """The sum of the squared equity errors on the held-out positions."""
        return _squared_errors(self.params, self.holdout)


_NET_NAMES = {
    CONTACT: "contact",
    RACE: "race",
    DEEP: "deep",
    LATE: "late",
    BOTH_BACK: "both_back",
    LATE_FAR: "late_far",
    CONTACT_FAR: "contact_far",
    DEEP_FAR: "deep_far",
    BOTH_BACK_BAR: "both_back_bar",
}


def fit(
    run: str | Path,
    teacher: str | Path | None = None,
    *,
    seed: int = 1,
    options: FitOptions | None = None,
    carry: str | Path | None = None,
    stop_after: int | None = None,
    progress: bool = True,
    n_jobs: int = 1,
) -> NetWeights:
    """Fit (or go on fitting) the run in ``run`` to ``teacher``'s n-ply values.

    Parameters
    ----------
    run : path
        The run folder; created if missing, resumed from its checkpoint if present.
    teacher : path, optional
        The teacher's weights file; a resumed run may leave it out (it keeps
        the path) but must not name another net.
    seed : int
        Seed of the teacher's games, of the rolls of the plays labelled, of the
        first weights and of the order of the minibatches.
    options : FitOptions
        The labels and the optimisation; a resumed run must be given its own
        (or none).
    carry : path, optional
        A weights file whose nets the fit does not train go into the fitted
        file in place of the teacher's (by default the teacher's are carried
        over): a race fit on a teacher's labels beside another run's contact
        nets. A resumed run keeps the one it was started with.
    stop_after : int, optional
        Stop when this many epochs are done in all (default: all of them);
        the run goes on from there when it is started again.
    progress : bool
        Show progress bars (tqdm).
    n_jobs : int
        Processes that label the missing chunks at once (default 1); the
        labels are the same for any number.

    Returns
    -------
    NetWeights
        The weights after the last epoch: the net fitted for the phase and
        the teacher's (or ``carry``'s) nets of the other phase.
    """
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs < 1:
        raise TrainingError(f"n_jobs must be 1 or more labelling processes, got {n_jobs!r}")
    run = Path(run)
    checkpoint = run / CHECKPOINT
    record: dict = {}
    previous = None
    if checkpoint.exists():
        previous = NetWeights.load(checkpoint)
        record = dict(previous.meta.get("fit", {}))
        if not record:
            raise TrainingError(
                f"{checkpoint}: the checkpoint of a self-play run, not of a fit run; "
                "give the fit a folder of its own"
            )
        kept = FitOptions.from_record(record["options"])
        if options is not None and options != kept:
            raise TrainingError(f"{checkpoint}: the run was started with {kept}, not {options}")
        options = kept
        if record["seed"] != seed:
            raise TrainingError(
                f"{checkpoint}: this run was started with seed {record['seed']!r}, not {seed}"
            )
        teacher = teacher if teacher is not None else record["teacher"]
        if carry is None:
            carry = record.get("carried")
        elif "carried" not in record:
            raise TrainingError(f"{checkpoint}: the run carries the teacher's nets, not {carry}'s")
    options = options or FitOptions()
    options.check()
    if teacher is None:
        raise TrainingError(f"{run}: a new fit run needs a teacher (a weights file)")
    try:
        teacher_net = NetWeights.load(teacher)
    except NetWeightsError as error:
        raise TrainingError(f"teacher: {error}") from error
    if record and record["teacher_sha256"] != teacher_net.digest():
        raise TrainingError(
            f"{teacher}: not the teacher of the run in {run} "
            f"(sha256 {record['teacher_sha256'][:12]}...)"
        )
    carried_net = None
    if carry is not None:
        try:
            carried_net = NetWeights.load(carry)
        except NetWeightsError as error:
            raise TrainingError(f"carry: {error}") from error
        if record and record.get("carried_sha256") != carried_net.digest():
            raise TrainingError(
                f"{carry}: not the net the run in {run} carries "
                f"(sha256 {str(record.get('carried_sha256'))[:12]}...)"
            )
    others = carried_net if carried_net is not None else teacher_net
    until = options.epochs if stop_after is None else min(stop_after, options.epochs)
    if previous is not None and record["epochs_done"] >= until:
        return previous  # nothing left to do: no labels needed
    paths = _labels(run, teacher_net, seed, options, progress, n_jobs)
    nets = options.nets(others)
    fitters = [
        _Fitter(
            net,
            _Data(paths[options.holdout :], net, nets),
            _Data(paths[: options.holdout], net, nets),
            options,
        )
        for net in options.fitted
    ]
    for fitter in fitters:
        if fitter.per_epoch < 1:
            raise TrainingError(
                f"{run}: {len(fitter.data)} positions to fit the {_NET_NAMES[fitter.net]} "
                f"net, fewer than one batch of {options.batch}"
            )
    if previous is not None:
        try:
            with np.load(run / OPTIMIZER) as state:
                saved_steps = [int(k) for k in np.atleast_1d(state["step"])]
                for j, fitter in enumerate(fitters):
                    moments = [state[f"m{4 * j + k}"] for k in range(4)]
                    moments += [state[f"v{4 * j + k}"] for k in range(4)]
                    fitter.resume(previous, moments, saved_steps[j])
        except (OSError, KeyError, ValueError, IndexError) as error:
            raise TrainingError(f"{run / OPTIMIZER}: cannot resume the fit ({error})") from error
        if saved_steps != [int(k) for k in np.atleast_1d(record["step"])]:
            raise TrainingError(
                f"{run / OPTIMIZER}: the optimizer's state after step {saved_steps}, where "
                f"the checkpoint is after step {record['step']}; delete both to start again"
            )
    else:
        record = {
            "teacher": str(teacher),
            "teacher_sha256": teacher_net.digest(),
            "seed": seed,
            "options": {f.name: getattr(options, f.name) for f in fields(options)},
            "epochs_done": 0,
            "step": 0,
            "cpu_seconds": 0.0,
        }
        if carried_net is not None:
            record["carried"] = str(carry)
            record["carried_sha256"] = carried_net.digest()
        for j, fitter in enumerate(fitters):
            fitter.start(seed if j == 0 else seed + 1_000_003 * j)
    meta: dict[str, Any] = {"seed": seed}
    log_rows: list[dict] = read_log(run / LOG)
    log_fields: tuple[str, ...] = _LOG_FIELDS
    if len(fitters) > 1:
        log_fields += tuple(f"holdout_mse_{_NET_NAMES[f.net]}" for f in fitters)
    bar = None
    if progress and record["epochs_done"] < until:
        from tqdm.auto import tqdm

        bar = tqdm(total=until, initial=record["epochs_done"], unit="epoch", desc="fit")
    while record["epochs_done"] < until:
        begin = time.process_time()
        epoch = record["epochs_done"]
        row: dict[str, Any] = {"epoch": epoch + 1}
        loss = 0.0
        rate = 0.0
        for fitter in fitters:
            # the order of one net's minibatches: the seed and the epoch (and which net)
            stream = [seed, epoch] if len(fitters) == 1 else [seed, epoch, fitter.net]
            order = np.random.default_rng(stream).permutation(len(fitter.data))
            net_loss, rate = fitter.epoch(order)
            loss += net_loss * fitter.per_epoch
        steps = [fitter.step for fitter in fitters]
        record["step"] = steps[0] if len(fitters) == 1 else steps
        record["epochs_done"] = epoch + 1
        record["cpu_seconds"] = float(record["cpu_seconds"]) + time.process_time() - begin
        meta["fit"] = record
        weights = _weights(others, {f.net: f.params for f in fitters}, nets, meta)
        optimizer: dict[str, np.ndarray] = {}
        for j, fitter in enumerate(fitters):
            for k in range(4):
                optimizer[f"m{4 * j + k}"] = fitter.first[k]
                optimizer[f"v{4 * j + k}"] = fitter.second[k]
        optimizer["step"] = np.array(steps[0] if len(fitters) == 1 else steps)
        temporary = run / (OPTIMIZER + ".part.npz")
        np.savez(temporary, **optimizer)  # type: ignore[arg-type]
        weights.save(checkpoint)
        temporary.replace(run / OPTIMIZER)
        held_out = sum(len(f.holdout) for f in fitters)
        errors = [f.holdout_errors() for f in fitters]
        row |= {
            "cpu_seconds": round(record["cpu_seconds"], 1),
            "positions": sum(len(f.data) for f in fitters),
            "train_loss": round(loss / sum(f.per_epoch for f in fitters), 6),
            "holdout_mse": round(sum(errors) / held_out, 6) if held_out else float("nan"),
            "learning_rate": f"{rate:.3g}",
        }
        if len(fitters) > 1:
            for fitter, squared in zip(fitters, errors):
                mse = squared / len(fitter.holdout) if len(fitter.holdout) else float("nan")
                row[f"holdout_mse_{_NET_NAMES[fitter.net]}"] = round(mse, 6)
        log_rows.append(row)
        write_log(run / LOG, log_rows, log_fields)
        if bar is not None:
            bar.update(1)
            bar.set_postfix(holdout_mse=row["holdout_mse"])
    if bar is not None:
        bar.close()
    if record["epochs_done"] >= options.epochs:
        (run / OPTIMIZER).unlink(missing_ok=True)  # a finished run never resumes
    return NetWeights.load(checkpoint)
