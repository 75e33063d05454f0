"""Analysing matches: decisions analysed per second.

Analyses the same transcripts with ``gnubg`` at 0 plies (with and without the
luck of the rolls, which evaluates the plays of all 21 rolls) and with
``pubeval``, in one process and with every core. Each figure is measured in a
fresh worker process, so that neither GNU Backgammon's evaluation cache nor an
earlier run helps. Where Debian's ``gnubg`` package is installed, GNU
Backgammon's own 0-ply ``analyse match`` of the same files is timed as the
reference (one process, start-up included).

A decision is a roll played (forced or not) or a cube action (double, take,
pass, beaver).

    python benchmarks/bench_analysis.py [FILES or FOLDER ...] [--limit 12]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from gnubg_cli import gnubg_cli, open_command, run_commands

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data"
WARM_UP = " 3 point match\n\n Game 1\n A : 0     B : 0\n  1) 43: 24/20 13/10   65: 24/13\n"
DECISIONS = ("move", "double", "take", "drop", "beaver")


def corpus(sources: list[Path], limit: int) -> list[Path]:
    """Analysed .sgf files first (they are what the tests compare), then .mat transcripts."""
    if sources:
        found = []
        for source in sources:
            found.extend(
                sorted(p for p in source.rglob("*") if p.suffix in (".sgf", ".mat", ".txt"))
                if source.is_dir()
                else [source]
            )
        return found[:limit]
    sgf = sorted((DEFAULT / "sgf").rglob("*analysed*.sgf"))
    mat = sorted((DEFAULT / "mat" / "backgammongalaxy_bglab").glob("*.txt"))
    return (sgf + mat)[:limit]


def run(paths: list[str], evaluator: str, luck: bool, jobs: int) -> tuple[float, int]:
    """One measurement, in the worker process it is called in."""
    import gammonlab.analysis as analysis

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis.analyse(WARM_UP, evaluator, progress=False)  # imports and numba's cache
        t0 = time.perf_counter()
        frame = analysis.analyse_matches(
            paths, evaluator, luck=luck, errors="collect", progress=False, n_jobs=jobs
        )
        seconds = time.perf_counter() - t0
    return seconds, int(frame["action"].isin(DECISIONS).sum())


def measure(paths: list[str], evaluator: str, luck: bool, jobs: int) -> tuple[float, int]:
    with ProcessPoolExecutor(max_workers=1) as pool:  # a fresh process: a cold cache
        return pool.submit(run, paths, evaluator, luck, jobs).result()


def gnubg_reference(paths: list[Path]) -> float | None:
    """GNU Backgammon analysing every file at 0 plies in one process (``gnubg -t -q``)."""
    gnubg = gnubg_cli()
    if gnubg is None:
        return None
    lines = [
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        "set analysis luck evaluation plies 0",
    ]
    for path in paths:
        lines += [open_command(path), "analyse match"]
    return run_commands(gnubg, lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="*", type=Path)
    parser.add_argument("--limit", type=int, default=12, help="files analysed")
    args = parser.parse_args()
    paths = corpus(args.sources, args.limit)
    names = [str(p) for p in paths]
    cores = os.cpu_count() or 1
    print(f"{len(paths)} transcripts; {cores} cores")
    print(f"{'':40s} {'seconds':>8s} {'decisions':>10s} {'decisions/s':>12s}")
    results = {}
    for label, evaluator, luck, jobs in (
        ("gnubg 0-ply, luck, 1 process", "gnubg", True, 1),
        ("gnubg 0-ply, no luck, 1 process", "gnubg", False, 1),
        (f"gnubg 0-ply, luck, {cores} processes", "gnubg", True, cores),
        (f"gnubg 0-ply, no luck, {cores} processes", "gnubg", False, cores),
        ("pubeval, 1 process", "pubeval", False, 1),
        (f"pubeval, {cores} processes", "pubeval", False, cores),
    ):
        seconds, decisions = measure(names, evaluator, luck, jobs)
        results[label] = decisions / seconds
        print(f"{label:40s} {seconds:8.2f} {decisions:10d} {decisions / seconds:12,.0f}")
    reference = gnubg_reference(paths)
    if reference is None:
        print("GNU Backgammon (Debian package gnubg) is not installed: no reference figure")
        return
    decisions = measure(names, "pubeval", False, cores)[1]
    rate = decisions / reference
    print(
        f"{'GNU Backgammon analyse match, 0-ply':40s} {reference:8.2f} {decisions:10d} "
        f"{rate:12,.0f}"
    )
    ours = results["gnubg 0-ply, luck, 1 process"]
    print(f"gammonlab / GNU Backgammon, one process, luck included: {ours / rate:.2f}")


if __name__ == "__main__":
    main()
