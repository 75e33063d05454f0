"""The ``gammonlab`` command line.

gammonlab show ID            the board, pips and state of a Position ID,
                             PositionID:MatchID or XGID
gammonlab plays ID [DICE]    the legal plays of a roll (DICE like 52 or 5-2)
gammonlab explain ID DICE PLAY
                             whether a play is legal and, if not, the rule it breaks
gammonlab rollout ID [--dice D [--plays]] [--cube] [--trials N] [-o OUT.csv|OUT.parquet]
                             roll out a position, the plays of a roll, or a cube decision
gammonlab read FILES... -o OUT.parquet|OUT.csv
                             transcripts (.mat, .sgf, folders) into one frame
gammonlab analyse FILES... [--evaluator gnubg] [-o OUT.parquet|OUT.csv]
                             errors, luck and PR of every decision, and a summary
gammonlab simulate [--variant V] [--match-length N] [-o OUT.mat|OUT.sgf]
                             play a match between two policies under any rules
gammonlab demo [OUTDIR]      read the sample matches, analyse one, roll out its
                             biggest error and write a report
gammonlab --version          the version of gammonlab

An ID is whatever one pastes: a Position ID, ``PositionID:MatchID`` or an XGID, with or
without ``XGID=`` (one that starts with ``-`` is taken as the ID, not as an option).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..errors import GammonlabError, ParseError, SourceError
from ..state import GameState
from .output import (
    FRAME_SUFFIXES,
    add_errors_option,
    add_id_arguments,
    add_work_options,
    check_output,
    empty_path,
    gammonlab_version,
    parse_dice,
    refuse,
    wrap,
    write_frame,
)

__all__ = ["main"]

# an XGID written without its "XGID=": it starts with '-' when the top player's bar is
# empty, and argparse would take it for an option. No option looks like a dash and 20 or
# more letters, digits or dashes before a ':', so such an argument is an XGID, mistyped
# ones too (a letter beyond P, a point left out), for the XGID's reader to say what is wrong
_BARE_XGID = re.compile(r"-[-A-Za-z0-9]{20,}:")


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
        return refuse("plays", "no dice in the ID; give them, e.g. 'gammonlab plays ID 52'")
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


def _explain(args: argparse.Namespace) -> int:
    """0 when the play is legal, 1 when it is not, 2 for an ID or play that cannot be read."""
    from ..errors import InvalidNotationError, InvalidPositionError

    text = " ".join(args.play)
    try:
        state = GameState.from_id(args.id, variant=args.variant)
        explanation = state.position.explain(text, args.dice)
    except (InvalidPositionError, InvalidNotationError) as error:
        print(f"gammonlab explain: {error}", file=sys.stderr)
        return 2
    print(wrap(explanation.message))
    if explanation.legal and explanation.play is not None:
        print(f"after it, the opponent on roll: {explanation.play.position.gnubg_id}")
        return 0
    if explanation.rule:
        from ..explain import RULES_IN_WORDS

        words = RULES_IN_WORDS.get(explanation.rule)
        if words:
            print(f"{explanation.rule}: {words} (docs/rules.md)")
    return 1


def _read(args: argparse.Namespace) -> int:
    import warnings

    from ..match.read import format_problems, problem_lines, read_matches

    refusal = empty_path("read", args.files) or check_output(args.output, FRAME_SUFFIXES, "read")
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
        for line in problem_lines([row for row in report if row["what"] != "file skipped"]):
            print(line, file=sys.stderr)
        print(
            f"gammonlab read: nothing could be read from the {len(sources)} "
            f"file{'s' if len(sources) != 1 else ''} given; nothing written",
            file=sys.stderr,
        )
        return 1
    out = Path(args.output)
    write_frame(frame, out)
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


_COMMANDS = {
    "show": (
        "print the board and state of an ID",
        "Print the board of an ID with its cube, score and dice, the pip counts, "
        "the phase of the game and the position's IDs.",
    ),
    "plays": (
        "list the legal plays of a roll",
        "List the legal plays of a roll (R4-R7), one per resulting position, with "
        "the position each leads to.",
    ),
    "explain": (
        "say whether a play is legal and, if not, which rule it breaks",
        "Say whether PLAY is legal with DICE in the position of ID and, if not, "
        "which rule it breaks (its id in docs/rules.md) and a legal play that would do. "
        "Exit status: 0 legal, 1 illegal, 2 an ID, dice or play that cannot be read.",
    ),
    "read": (
        "read transcripts into a parquet or CSV frame",
        "Read .mat and .sgf transcripts (files or folders) into one frame, one "
        "row per action or per game, and write it as parquet or CSV.",
    ),
}
"""The commands of this module: what ``gammonlab --help`` says of each, and its description."""


def _command(commands: Any, name: str) -> argparse.ArgumentParser:
    about, description = _COMMANDS[name]
    parser: argparse.ArgumentParser = commands.add_parser(name, help=about, description=description)
    return parser


def build_parser() -> argparse.ArgumentParser:
    """The ``gammonlab`` command and its sub-commands."""
    from .analyse import add_analyse_parser
    from .demo import add_demo_parser
    from .rollout import add_rollout_parser
    from .simulate import add_simulate_parser

    parser = argparse.ArgumentParser(
        prog="gammonlab",
        description="Backgammon analysis: positions and plays, rollouts, match transcripts "
        "into frames, analysis of every decision, simulated matches.",
        epilog="'gammonlab COMMAND --help' describes each command.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"gammonlab {gammonlab_version()}",
        help="print gammonlab's version and exit",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    show = _command(commands, "show")
    add_id_arguments(show)
    show.set_defaults(run=_show)

    plays = _command(commands, "plays")
    add_id_arguments(plays)
    plays.add_argument(
        "dice", nargs="?", type=parse_dice, help="the roll, like 52 or 5-2 (default: the ID's dice)"
    )
    plays.set_defaults(run=_plays)

    explain = _command(commands, "explain")
    add_id_arguments(explain)
    explain.add_argument("dice", type=parse_dice, help="the roll, like 62 or 6-2")
    explain.add_argument("play", nargs="+", help="the play, like '24/18 13/11' (quotes optional)")
    explain.set_defaults(run=_explain)

    read = _command(commands, "read")
    read.add_argument("files", nargs="+", help=".mat / .sgf files or folders")
    read.add_argument("-o", "--output", required=True, help="OUT.parquet or OUT.csv")
    add_errors_option(read)
    rows = "one row per action (the default) or one per game"
    read.add_argument("--frame", choices=("actions", "games"), default="actions", help=rows)
    add_work_options(read)
    read.set_defaults(run=_read)

    add_rollout_parser(commands)
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
