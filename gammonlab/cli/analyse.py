"""``gammonlab analyse``: analyse transcripts and print a per-player summary.

    gammonlab analyse FILES... [--evaluator net] [--plies 0] [-o OUT.parquet|OUT.csv]

Each file (or every transcript of a folder) is analysed as :func:`gammonlab.analysis.analyse`
does; the frame goes to ``-o`` and :func:`gammonlab.analysis.summarise` is printed, one
row per player of each match.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

__all__ = ["SUMMARY_COLUMNS", "add_analyse_parser", "analyse_command"]

SUMMARY_COLUMNS = {
    "player_name": "player",
    "unforced": "moves",
    "checker_errors": "errors",
    "very_bad": "blunders",
    "checker_pr": "checker PR",
    "cube_decisions": "cube",
    "cube_errors": "cube errors",
    "cube_pr": "cube PR",
    "pr": "PR",
    "luck": "luck",
    "result": "result",
    "luck_adjusted_result": "luck-adjusted",
}
"""Summary columns printed, with their headings."""


def add_analyse_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``analyse`` to the ``gammonlab`` command's sub-parsers.

    >>> parser = argparse.ArgumentParser(prog="gammonlab")
    >>> _ = add_analyse_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["analyse", "game.sgf", "-o", "out.parquet"]).evaluator is None
    True
    """
    parser = subparsers.add_parser(
        "analyse",
        help="analyse transcripts: errors, luck, performance rating",
        description="Analyse every decision of .mat / .sgf transcripts (GNU Backgammon's "
        "0-ply analysis) and print each player's errors, PR and luck.",
    )
    parser.add_argument("files", nargs="+", help=".mat / .sgf files or folders")
    parser.add_argument("-o", "--output", help="write the analysed frame: OUT.parquet or OUT.csv")
    parser.add_argument(
        "--evaluator",
        default=None,
        help="net (gammonlab's own, the default), gnubg (needs gnubg-nn) or pubeval",
    )
    parser.add_argument(
        "--plies",
        type=int,
        default=0,
        help="look-ahead for the best plays and the cube (net or gnubg; slow)",
    )
    parser.add_argument(
        "--no-luck",
        action="store_true",
        help="skip the luck of the rolls (about three times faster)",
    )
    parser.add_argument("--met", default=None, help="match equity table (default Kazaross-XG2)")
    parser.add_argument(
        "--by",
        choices=("match", "player_name"),
        default="match",
        help="summarise each player of each match, or pool a player's matches",
    )
    parser.add_argument(
        "--errors",
        choices=("raise", "collect"),
        default="collect",
        help="stop at the first problem, or skip bad games and report them",
    )
    parser.add_argument("-j", "--jobs", type=int, default=None, help="worker processes")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=analyse_command)
    return parser


def _sources(items: list[str]) -> list[str]:
    from ..match.read import TRANSCRIPT_SUFFIXES

    sources: list[str] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            sources.extend(
                str(p)
                for p in sorted(path.rglob("*"))
                if p.suffix.lower() in TRANSCRIPT_SUFFIXES and p.is_file()
            )
        else:
            sources.append(item)
    return sources


def _table(summary: Any) -> str:
    """The summary as a plain-text table."""
    shown = summary.reset_index()
    keys = [c for c in ("match", "player") if c in shown.columns]
    columns = keys + [c for c in SUMMARY_COLUMNS if c in shown.columns]
    shown = shown[columns].rename(columns=SUMMARY_COLUMNS)
    if "match" in shown.columns:
        shown["match"] = shown["match"].map(lambda name: Path(str(name)).name)
    return str(shown.to_string(index=False, float_format=lambda value: f"{value:.2f}", na_rep="-"))


def analyse_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab analyse``; returns the exit status."""
    from ..analysis import analyse_matches, summarise
    from .output import check_output

    sources = _sources(args.files)
    if not sources:
        print("gammonlab analyse: no transcript found", file=sys.stderr)
        return 2
    out = Path(args.output) if args.output else None
    refusal = None if out is None else check_output(out, (".parquet", ".pq", ".csv"), "analyse")
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = analyse_matches(
            sources,
            args.evaluator,
            plies=args.plies,
            luck=not args.no_luck,
            met=args.met,
            errors=args.errors,
            progress=not args.quiet,
            n_jobs=args.jobs,
        )
    for warning in caught:
        if issubclass(warning.category, UserWarning) and "pubeval" in str(warning.message):
            print(f"warning: {warning.message}", file=sys.stderr)
    if len(frame) == 0:
        print("gammonlab analyse: nothing could be analysed", file=sys.stderr)
        _report(frame)
        return 1
    if out is not None:
        if out.suffix.lower() == ".csv":
            frame.to_csv(out, index=False)
        else:
            frame.to_parquet(out, index=False)
    settings = frame.attrs.get("analysis", {})
    matches = frame["match"].nunique()
    print(
        f"analysed {matches} of {len(sources)} files with {settings.get('evaluator')} at "
        f"{settings.get('plies', 0)} plies: {len(frame)} rows"
        + (f" -> {out}" if out is not None else "")
    )
    by = ["match", "player"] if args.by == "match" else "player_name"
    print(_table(summarise(frame, by=by)))
    _report(frame)
    skipped = [row for row in frame.attrs.get("problems", []) if row["what"] == "file skipped"]
    if skipped:
        print(
            f"gammonlab analyse: {len(skipped)} of {len(sources)} files could not be read",
            file=sys.stderr,
        )
        return 1
    return 0


def _report(frame: Any) -> None:
    from ..match.read import format_problems

    problems = format_problems(frame.attrs.get("problems", []))
    if problems:
        print(problems)
