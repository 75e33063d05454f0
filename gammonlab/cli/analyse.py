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
    "unforced": "unforced",
    "checker_errors": "errors",
    "very_bad": "blunders",
    "cube_errors": "cube err.",
    "pr": "PR",
    "luck": "luck",
    "result": "result",
    "luck_adjusted_result": "luck-adj.",
}
"""Summary columns printed, with their headings: ``unforced`` is the summary's column of
that name (the unforced moves the rates and PR count), not ``moves`` (every roll); the PR
is of checker plays and cube decisions together (``gl.summarise`` has each kind's)."""
NAME_WIDTH = 16
"""Player names are cut to this many characters in the table."""


def add_analyse_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``analyse`` to the ``gammonlab`` command's sub-parsers.

    >>> parser = argparse.ArgumentParser(prog="gammonlab")
    >>> _ = add_analyse_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["analyse", "game.sgf", "-o", "out.parquet"]).evaluator is None
    True
    """
    from .output import add_errors_option, add_evaluator_option, add_work_options

    parser = subparsers.add_parser(
        "analyse",
        help="analyse transcripts: errors, luck, performance rating",
        description="Analyse every decision of .mat / .sgf transcripts (GNU Backgammon's "
        "0-ply analysis) and print each player's errors, PR and luck.",
    )
    parser.add_argument("files", nargs="+", help=".mat / .sgf files or folders")
    parser.add_argument("-o", "--output", help="write the analysed frame: OUT.parquet or OUT.csv")
    add_evaluator_option(parser)
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
    add_errors_option(parser)
    add_work_options(parser)
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
    """The summary as plain-text tables, one row per player: by match, a table under each
    match's name; pooled by player, one table."""
    shown = summary.reset_index()
    if "player_name" in shown.columns:
        shown["player_name"] = shown["player_name"].map(
            lambda name: name if len(str(name)) <= NAME_WIDTH else str(name)[: NAME_WIDTH - 1] + "~"
        )
    columns = [c for c in SUMMARY_COLUMNS if c in shown.columns]

    def text(part: Any) -> str:
        table = part[columns].rename(columns=SUMMARY_COLUMNS)
        names = {}
        if "player" in table.columns:  # names to the left
            wide = max(len("player"), *(len(str(n)) for n in table["player"]))
            table = table.rename(columns={"player": "player".ljust(wide)})
            names = {table.columns[0]: lambda name: str(name).ljust(wide)}
        return str(
            table.to_string(
                index=False,
                formatters=names,
                float_format=lambda value: f"{value:.2f}",
                na_rep="-",
            )
        )

    if "match" not in shown.columns:
        return text(shown)
    blocks = [
        f"{Path(str(name)).name}\n{text(part)}"
        for name, part in shown.groupby("match", sort=False, observed=True)
    ]
    return "\n\n".join(blocks)


def analyse_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab analyse``; returns the exit status."""
    from ..analysis import analyse_matches, summarise
    from .output import FRAME_SUFFIXES, check_output, empty_path, write_frame

    refusal = empty_path("analyse", args.files)
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    missing = [item for item in args.files if not Path(item).exists()]
    if missing:
        for item in missing:
            print(f"{item}: no such file or folder", file=sys.stderr)
        return 2
    sources = _sources(args.files)
    if not sources:
        print("gammonlab analyse: no transcript found", file=sys.stderr)
        return 2
    if args.plies < 0:
        print(f"gammonlab analyse: --plies must be 0 or more, got {args.plies}", file=sys.stderr)
        return 2
    if args.met is not None:
        from ..errors import GammonlabError
        from ..met import load

        try:
            load(args.met)
        except GammonlabError as error:
            print(f"gammonlab analyse: --met {args.met}: {error}", file=sys.stderr)
            return 2
    out = Path(args.output) if args.output else None
    refusal = None if out is None else check_output(out, FRAME_SUFFIXES, "analyse")
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
        write_frame(frame, out)
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
