"""The ``gammonlab`` command line.

gammonlab show ID            the board, pips and state of a Position ID,
                             PositionID:MatchID or XGID
gammonlab plays ID [DICE]    the legal plays of a roll (DICE like 52 or 5-2)
gammonlab read FILES... -o OUT.parquet|OUT.csv
                             transcripts (.mat, .sgf, folders) into one frame
gammonlab analyse FILES... [--evaluator gnubg] [-o OUT.parquet|OUT.csv]
                             errors, luck and PR of every decision, and a summary
gammonlab simulate [--variant V] [--match-length N] [-o OUT.mat|OUT.sgf]
                             play a match between two policies under any rules
gammonlab demo [OUTDIR]      read the sample matches, analyse one, roll out its
                             biggest error and write a report
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from ..errors import GammonlabError, ParseError, SourceError
from ..rules import VARIANTS
from ..state import GameState
from .output import check_output

__all__ = ["main"]

# an XGID written without its "XGID=": it starts with '-' when the top player's bar is
# empty, and argparse would take it for an option
_BARE_XGID = re.compile(r"-[-A-Pa-p]{25}:")


def _place(command: str, error: BaseException) -> str:
    """An error as the command prints it: starting with where it is (file, line and
    column; a path), else with the command."""
    if isinstance(error, ParseError) and (error.source or error.line):
        return str(error)
    if isinstance(error, SourceError):  # its message starts with the path
        return str(error)
    if isinstance(error, OSError) and not isinstance(error, GammonlabError):
        name = error.filename if error.filename is not None else "gammonlab " + command
        return f"{name}: {error.strerror or error}"
    return f"gammonlab {command}: {error}"


def _dice(text: str) -> tuple[int, int]:
    digits = re.findall(r"[1-6]", text)
    if len(digits) != 2 or len(re.sub(r"[\s\-,]", "", text)) != 2:
        raise argparse.ArgumentTypeError(
            f"dice are two numbers from 1 to 6, like 52 or 5-2; got {text!r}"
        )
    return int(digits[0]), int(digits[1])


def _show(args: argparse.Namespace) -> int:
    state = GameState.from_id(args.id, variant=args.variant)
    pips = state.position.pips
    print(state.position)
    print(state.describe())
    print(f"pips: {pips[0]} on roll, {pips[1]} opponent ({pips[0] - pips[1]:+d})")
    print(f"phase: {state.position.phase}")
    print(f"GNU Backgammon ID: {state.gnubg_id}")
    try:
        print(f"XGID: {state.xgid}")
    except GammonlabError:
        pass
    return 0


def _plays(args: argparse.Namespace) -> int:
    state = GameState.from_id(args.id, variant=args.variant)
    dice = args.dice or state.dice
    if dice is None:
        print(
            "gammonlab plays: no dice in the ID; give them, e.g. 'gammonlab plays ID 52'",
            file=sys.stderr,
        )
        return 2
    plays = state.position.legal_plays(dice)
    if len(plays) == 0:
        print(f"{dice[0]}-{dice[1]}: no legal play, the turn is lost (R5.5)")
        return 0
    print(f"{dice[0]}-{dice[1]}: {len(plays)} legal plays")
    width = len(str(len(plays)))
    for number, play in enumerate(plays, start=1):
        hits = f"hits {len(play.hits)}" if play.hits else ""
        print(f"{number:>{width}}. {play.notation:<26s} {play.position.label}  {hits}".rstrip())
    return 0


def _read(args: argparse.Namespace) -> int:
    import warnings

    from ..match.read import format_problems, read_matches

    refusal = check_output(args.output, (".csv", ".parquet", ".pq"), "read")
    if refusal is not None:
        print(refusal, file=sys.stderr)
        return 2
    sources: list[str] = []
    for item in args.files:
        path = Path(item)
        if path.is_dir():
            sources.extend(
                str(p)
                for p in sorted(path.rglob("*"))
                if p.suffix.lower() in (".mat", ".txt", ".sgf") and p.is_file()
            )
        else:
            sources.append(item)
    if not sources:
        print(
            f"gammonlab read: no transcript (.mat, .txt, .sgf) in {', '.join(args.files)}",
            file=sys.stderr,
        )
        return 1
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frame = read_matches(
            sources, errors=args.errors, frame=args.frame, progress=not args.quiet, n_jobs=args.jobs
        )
    report = frame.attrs.get("problems", [])
    skipped = [row for row in report if row["what"] == "file skipped"]
    for row in skipped:
        where = ":".join(str(x) for x in (row["file"], row["line"], row["column"]) if x)
        print(f"{where}: {row['message']}", file=sys.stderr)
    if len(frame) == 0:
        print(
            f"gammonlab read: nothing could be read from the {len(sources)} "
            f"file{'s' if len(sources) != 1 else ''} given; nothing written",
            file=sys.stderr,
        )
        return 1
    out = Path(args.output)
    if out.suffix.lower() == ".csv":
        frame.to_csv(out, index=False)
    else:
        frame.to_parquet(out, index=False)
    matches = frame["match"].nunique()
    print(f"read {matches} of {len(sources)} files: {len(frame)} rows -> {out}")
    problems = format_problems(report)
    if problems:
        print(problems)
    if skipped:
        print(
            f"gammonlab read: {len(skipped)} of {len(sources)} files could not be read",
            file=sys.stderr,
        )
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gammonlab", description="Backgammon analysis.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    show = commands.add_parser("show", help="print the board and state of an ID")
    show.add_argument("id", help="Position ID, PositionID:MatchID or XGID")
    show.add_argument("--variant", choices=list(VARIANTS), default="standard")
    show.set_defaults(run=_show)

    plays = commands.add_parser("plays", help="list the legal plays of a roll")
    plays.add_argument("id", help="Position ID, PositionID:MatchID or XGID")
    plays.add_argument("dice", nargs="?", type=_dice, help="the roll, like 52 or 5-2")
    plays.add_argument("--variant", choices=list(VARIANTS), default="standard")
    plays.set_defaults(run=_plays)

    read = commands.add_parser("read", help="read transcripts into a parquet or CSV frame")
    read.add_argument("files", nargs="+", help=".mat / .sgf files or folders")
    read.add_argument("-o", "--output", required=True, help="OUT.parquet or OUT.csv")
    read.add_argument(
        "--errors",
        choices=("raise", "collect"),
        default="collect",
        help="stop at the first problem, or skip bad games and report them",
    )
    read.add_argument("--frame", choices=("actions", "games"), default="actions")
    read.add_argument("-j", "--jobs", type=int, default=None, help="worker processes")
    read.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    read.set_defaults(run=_read)

    from .analyse import add_analyse_parser
    from .demo import add_demo_parser
    from .simulate import add_simulate_parser

    add_analyse_parser(commands)
    add_simulate_parser(commands)
    add_demo_parser(commands)
    return parser


def _tolerant_output() -> None:
    """Print any text: a name or an argument may hold characters the terminal's
    encoding cannot write (lone surrogates of undecodable bytes in a path)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a stream that cannot change now
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    Every failure exits non-zero with a message that starts with where it is (a
    file and line, a path, or the command), never a traceback. An XGID may be
    given without its ``XGID=``, even when it starts with ``-``.
    """
    _tolerant_output()
    parser = build_parser()
    given = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(["XGID=" + arg if _BARE_XGID.match(arg) else arg for arg in given])
    try:
        return int(args.run(args))
    except (GammonlabError, OSError) as error:
        print(_place(args.command, error), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
