"""Running a rollout's tasks: in this process, in local processes or on a Dask
cluster, and summing their chunks in trial order.

A :class:`_Job` cuts a rollout's trials into tasks of whole blocks of 36
(:func:`_Job.plan`); :func:`_run` plays them and hands each finished chunk to
its job, which sums the chunks in trial order, so that the numbers do not
depend on where or in which order the tasks ran (see :mod:`gammonlab.rollout`).

>>> import numpy as np
>>> from gammonlab import Position
>>> from gammonlab.evaluators.base import get_evaluator
>>> spec = _Spec(roots=np.array(Position.initial().board)[np.newaxis],
...              policy=get_evaluator("random"), key=1)
>>> job = _Job(spec, 72, 0.0, False)
>>> _run([job], n_jobs=1, client=None, progress=False, desc="rollout")
>>> job.sums.trials
72
"""

from __future__ import annotations

import atexit
import concurrent.futures
import multiprocessing
import os
import pickle
import sys
import threading
import warnings
from collections.abc import Iterable, Iterator
from typing import Any

from .._kernels import outcome as _k
from .._kernels.rng import ROLLS
from ..evaluators.base import CallableEvaluator
from .stats import _Sums
from .trials import _Chunk, _play_chunk, _Spec

__all__: list[str] = []

BLOCK = ROLLS
_TASK_GAMES = 1296  # games per task at most with a numba policy (about 0.3 s of pubeval)
_LOCKSTEP_TASK_GAMES = 2592  # games per task played in lockstep: bigger evaluator batches
_TASKS_PER_WORKER = 2  # so that a worker finishing early finds more work


class _Job:
    """One rollout (one or more roots with common random numbers) being summed."""

    def __init__(self, spec: _Spec, trials: int, target: float, keep_trials: bool) -> None:
        self.spec = spec
        self.trials = trials
        self.target = target
        top = 4.0 if spec.scoring == _k.SEED_000 else 3.0  # points of the top class
        self.sums = _Sums(spec.roots.shape[0], spec.rotate, top)
        self.keep: list[_Chunk] | None = [] if keep_trials else None
        self.waiting: dict[int, _Chunk] = {}
        self.stopped = False
        self.tasks: list[tuple[int, int]] = []
        self.plan(1)

    @property
    def games_per_task(self) -> int:
        """The most games one task plays (trials times roots)."""
        kernel = self.spec.policy.kernel is not None
        return _TASK_GAMES if kernel else _LOCKSTEP_TASK_GAMES

    def plan(self, workers: int) -> None:
        """Cut the trials into tasks of whole blocks, enough to keep ``workers`` busy.

        The cut changes no number: every trial is played alike wherever it is.
        """
        most = max(BLOCK, self.games_per_task // self.spec.roots.shape[0] // BLOCK * BLOCK)
        if workers == 1:
            share = self.trials  # in this process: the biggest batches
        else:
            share = -(-self.trials // (workers * _TASKS_PER_WORKER))
        size = min(most, max(BLOCK, -(-share // BLOCK) * BLOCK))
        self.tasks = [
            (first, min(size, self.trials - first)) for first in range(0, self.trials, size)
        ]

    @property
    def finished(self) -> bool:
        return self.stopped or self.sums.trials >= self.trials

    def add(self, chunk: _Chunk) -> int:
        """Take a finished chunk; sum every chunk now in order. Returns trials summed."""
        self.waiting[chunk.first] = chunk
        added = 0
        while not self.finished and self.sums.trials in self.waiting:
            next_chunk = self.waiting.pop(self.sums.trials)
            used, stop = self.sums.add(next_chunk, self.target)
            if self.keep is not None:
                self.keep.append(_cut(next_chunk, used))
            added += used
            self.stopped = stop
        if self.finished:
            self.waiting.clear()
        return added


def _cut(chunk: _Chunk, n: int) -> _Chunk:
    return _Chunk(
        chunk.first, chunk.probs[:, :n], chunk.plies[:, :n], chunk.end[:, :n], chunk.rolled[:n]
    )


_START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"
_POOL: concurrent.futures.ProcessPoolExecutor | None = None
_POOL_WORKERS = 0
_POOL_LOCK = threading.Lock()


def _pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A process pool kept between rollouts.

    On Linux the workers are forked: they start at once with the compiled
    kernels, and a script needs no ``if __name__ == "__main__":`` guard.
    Elsewhere they are spawned (the platform's safe default), which needs the
    guard in scripts.
    """
    global _POOL, _POOL_WORKERS
    with _POOL_LOCK:
        if _POOL is None or _POOL_WORKERS != workers:
            if _POOL is not None:
                _POOL.shutdown(wait=False, cancel_futures=True)
            _POOL = concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=multiprocessing.get_context(_START_METHOD)
            )
            _POOL_WORKERS = workers
        return _POOL


def _drop_pool(wait: bool = False) -> None:
    global _POOL
    with _POOL_LOCK:
        if _POOL is not None:
            _POOL.shutdown(wait=wait, cancel_futures=True)
        _POOL = None


# idle workers are stopped while the interpreter is still whole
atexit.register(_drop_pool, True)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _picklable(spec: _Spec) -> bool:
    try:
        pickle.dumps(spec)
    except Exception:  # lambdas, local functions, open handles: anything may fail
        return False
    return True


def _run(jobs: list[_Job], *, n_jobs: int | None, client: Any, progress: bool, desc: str) -> None:
    """Play every job's tasks (serially, in local processes or on Dask) and sum them."""
    total = sum(job.trials for job in jobs)
    bar = _progress_bar(total, progress, desc)
    try:
        if client is not None:
            slots = _dask_slots(client)
            for job in jobs:
                job.plan(slots)
            _run_parallel(jobs, client=client, workers=slots, bar=bar)
            return
        workers = _cores() if n_jobs is None else int(n_jobs)
        if workers < 1:
            from ..errors import RolloutError

            raise RolloutError(f"n_jobs must be a positive number of processes, got {n_jobs!r}")
        tasks = sum(len(job.tasks) for job in jobs)
        user_code = any(
            isinstance(part, CallableEvaluator)
            for job in jobs
            for part in (job.spec.policy, job.spec.evaluator)
        )
        if n_jobs is None and (tasks < 2 or user_code):
            # one task is not worth other processes; a function from a notebook may
            # not exist in processes started before it was defined: such functions
            # run in other processes only when n_jobs asks for it
            workers = 1
        if workers > 1 and not all(_picklable(job.spec) for job in jobs):
            warnings.warn(
                "the policy or evaluator cannot be pickled for other processes "
                "(a lambda or a local function?); running in this process",
                RuntimeWarning,
                stacklevel=3,
            )
            workers = 1
        if workers == 1:
            for job in jobs:
                for first, n in job.tasks:
                    if job.finished:
                        break
                    bar.update(job.add(_play_chunk(job.spec, first, n)))
            return
        for job in jobs:
            job.plan(workers)
        _run_parallel(jobs, client=None, workers=workers, bar=bar)
    finally:
        bar.close()


def _dask_slots(client: Any) -> int:
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # an unusual client: still works, with fewer tasks in flight
        return 1


def _run_parallel(jobs: list[_Job], *, client: Any, workers: int, bar: Any) -> None:
    if client is None:
        executor = _pool(workers)

        def submit(job: _Job, first: int, n: int) -> Any:
            return executor.submit(_play_chunk, job.spec, first, n)

        def wait(pending: Iterable[Any]) -> set[Any]:
            done, _ = concurrent.futures.wait(
                pending, return_when=concurrent.futures.FIRST_COMPLETED
            )
            return done
    else:
        from distributed import wait as dask_wait

        def submit(job: _Job, first: int, n: int) -> Any:
            return client.submit(_play_chunk, job.spec, first, n, pure=False)

        def wait(pending: Iterable[Any]) -> set[Any]:
            return set(dask_wait(list(pending), return_when="FIRST_COMPLETED").done)

    queue: Iterator[tuple[_Job, int, int]] = (
        (job, first, n) for job in jobs for first, n in job.tasks
    )
    in_flight: dict[Any, _Job] = {}
    limit = 2 * workers
    try:
        while True:
            while len(in_flight) < limit:
                item = next(queue, None)
                if item is None:
                    break
                job, first, n = item
                if not job.finished:
                    in_flight[submit(job, first, n)] = job
            if not in_flight:
                break
            for future in wait(in_flight):
                if future not in in_flight:
                    continue  # dropped below: its job had finished
                job = in_flight.pop(future)
                try:
                    chunk = future.result()
                except concurrent.futures.process.BrokenProcessPool as exc:
                    _drop_pool()
                    from ..errors import RolloutError

                    raise RolloutError(
                        "a rollout worker process died (a crash in the "
                        "evaluator?); the pool will be restarted"
                    ) from exc
                bar.update(job.add(chunk))
                if job.finished:  # the target was reached: its other chunks are not needed
                    for other in [f for f, j in in_flight.items() if j is job]:
                        other.cancel()
                        del in_flight[other]
    finally:
        for future in in_flight:
            future.cancel()


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, progress: bool, desc: str) -> Any:
    if not progress:
        return _NoBar()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit="trial", leave=False)
