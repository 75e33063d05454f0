"""Reading the transcript corpus: files/s, actions/s, total time.

Reads every ``.mat`` / ``.txt`` / ``.sgf`` file under the corpus folder with
``read_matches`` (collect mode, frames built), in one process and with every
core, and, where Debian's ``gnubg`` package is installed, times GNU
Backgammon's own import of the same files in one process. Then the densest
input under 1 MB in each format (a simulated money session, its games written
again and again): ``read_match`` in both modes and the frame, against the
promise of 2 s. Medians of several runs.

    python benchmarks/bench_read.py [FOLDER] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import time
import warnings
from dataclasses import replace
from pathlib import Path

from gnubg_cli import gnubg_cli, open_command, run_commands

import gammonlab as gl

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"


def time_read(paths: list[Path], n_jobs: int) -> tuple[float, int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t0 = time.perf_counter()
        frame = gl.read_matches(paths, errors="collect", progress=False, n_jobs=n_jobs)
        return time.perf_counter() - t0, len(frame)


def dense_session(format: str, size: int = 1_000_000) -> str:
    """A money session just under ``size`` bytes: the 40 games of a simulated session
    written again and again, renumbered, with the running score."""
    session = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=5, games=40)
    once = len(gl.write_match(session, format=format).encode("utf-8"))
    games: list[gl.Game] = []
    score = (0, 0)
    while len(games) < (size // once + 1) * len(session.games):
        for game in session.games:
            games.append(replace(game, number=len(games) + 1, score=score))
            won = game.points or 0
            score = (score[0] + won, score[1]) if game.winner == 0 else (score[0], score[1] + won)
    text = gl.write_match(replace(session, games=tuple(games)), format=format)
    starts = [
        m.start() for m in re.finditer(r"(?m)^ Game [0-9]+$" if format == "mat" else r"\(;", text)
    ]
    cut = max(start for start in starts if len(text[:start].encode("utf-8")) < size)
    return text[:cut]


def time_dense(text: str, repeats: int) -> dict[str, float]:
    """Median seconds (wall) of ``read_match`` in each mode and of the frame of the match."""
    times: dict[str, list[float]] = {"raise": [], "collect": [], "frame": []}
    for _ in range(repeats):
        for errors in ("raise", "collect"):
            t0 = time.perf_counter()
            match = gl.read_match(text, errors=errors)
            times[errors].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        match.to_frame()
        times["frame"].append(time.perf_counter() - t0)
    return {key: statistics.median(values) for key, values in times.items()}


def gnubg_import(paths: list[Path]) -> float | None:
    """GNU Backgammon importing every file in one process (``gnubg -t -q``)."""
    gnubg = gnubg_cli()
    if gnubg is None:
        return None
    lines = ["set confirm new off", "set confirm default yes"]
    lines += [open_command(path) for path in paths]
    return run_commands(gnubg, lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    paths = sorted(
        p
        for sub in ("mat", "sgf")
        for p in (args.folder / sub).rglob("*")
        if p.is_file() and p.suffix.lower() in (".mat", ".txt", ".sgf")
    )
    time_read(paths[:3], 1)  # numba's cache and the imports, outside the timing
    cores = os.cpu_count() or 1
    print(f"{len(paths)} transcripts under {args.folder}")
    print(f"{'':30s} {'total s':>8s} {'files/s':>8s} {'actions/s':>10s}")
    for label, jobs in (
        ("read_matches, 1 process", 1),
        (f"read_matches, {cores} processes", cores),
    ):
        runs = [time_read(paths, jobs) for _ in range(args.repeats)]
        seconds = statistics.median(t for t, _ in runs)
        actions = runs[0][1]
        print(f"{label:30s} {seconds:8.2f} {len(paths) / seconds:8.1f} {actions / seconds:10,.0f}")
    reference = gnubg_import(paths)
    if reference is None:
        print("GNU Backgammon (Debian package gnubg) is not installed: no reference figure")
    else:
        print(f"{'gnubg import, 1 process':30s} {reference:8.2f} {len(paths) / reference:8.1f}")
    print()
    print(
        f"{'dense, just under 1 MB':30s} {'games':>6s} {'actions':>8s} "
        f"{'raise s':>8s} {'collect s':>9s} {'frame s':>8s}  (promise: 2 s)"
    )
    for format in ("mat", "sgf"):
        text = dense_session(format)
        match = gl.read_match(text)
        seconds = time_dense(text, args.repeats)
        label = f".{format}, {len(text.encode('utf-8')):,} bytes"
        print(
            f"{label:30s} {len(match.games):6d} {len(match.actions):8,d} "
            f"{seconds['raise']:8.2f} {seconds['collect']:9.2f} {seconds['frame']:8.2f}"
        )


if __name__ == "__main__":
    main()
