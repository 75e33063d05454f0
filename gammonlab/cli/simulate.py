"""``gammonlab simulate``: play a match or a money session under any rules and write it.

    gammonlab simulate [--variant nackgammon] [--match-length 5] [--players gnubg pubeval]
                       [--preset gnubg|seed-000] [rule options] [--seed N] [-o OUT.mat|OUT.sgf]

The rules are built as :class:`gammonlab.Rules` builds them (a preset first, then each
option given); the match is played by :func:`gammonlab.play_match`, which checks every
step with the rules engine, and written by :func:`gammonlab.write_match`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

__all__ = ["add_simulate_parser", "rules_from_args", "simulate_command"]

_ON_OFF = {"on": True, "off": False}


def add_simulate_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``simulate`` to the ``gammonlab`` command's sub-parsers.

    >>> parser = argparse.ArgumentParser(prog="gammonlab")
    >>> _ = add_simulate_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["simulate", "--variant", "nackgammon", "--match-length", "3"])
    >>> rules_from_args(args)
    Rules(variant='nackgammon', match_length=3)
    """
    from ..rules import SCORINGS, VARIANTS

    parser = subparsers.add_parser(
        "simulate",
        help="play a match or money session between two policies and write it",
        description="Play a whole match (or a money session with --games) between two "
        "policies under the rules given, print its result and write it as "
        ".mat or .sgf.",
    )
    parser.add_argument(
        "--variant", choices=list(VARIANTS), default=None, help="the variant (default standard)"
    )
    parser.add_argument(
        "--match-length",
        type=int,
        default=None,
        help="points to win; 0 is money play (default 5, or the preset's)",
    )
    parser.add_argument(
        "--preset",
        choices=("gnubg", "seed-000"),
        default=None,
        help="GNU Backgammon's defaults, or seed 000's game (R8.4, R10.4)",
    )
    parser.add_argument(
        "--players",
        nargs=2,
        default=("pubeval", "pubeval"),
        metavar=("POLICY0", "POLICY1"),
        help="each player's policy: gnubg, pubeval, random, ... (default pubeval pubeval)",
    )
    parser.add_argument(
        "--names",
        nargs=2,
        default=None,
        metavar=("NAME0", "NAME1"),
        help="the players' names in the transcript",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="money play: games to play (required); a match: at most this many",
    )
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same match")
    parser.add_argument("-o", "--output", default=None, help="write OUT.mat or OUT.sgf")
    options = parser.add_argument_group("rule options (each overrides the preset)")
    options.add_argument(
        "--scoring", choices=list(SCORINGS), default=None, help="R8.2 standard, or seed 000's R8.4"
    )
    for name, rule in (
        ("cube", "R9"),
        ("jacoby", "R10.1"),
        ("crawford", "R10.2"),
        ("holland", "R10.3"),
        ("beavers", "R10.6"),
        ("raccoons", "R10.6"),
    ):
        options.add_argument(f"--{name}", choices=("on", "off"), default=None, help=f"{rule}")
    options.add_argument(
        "--auto-doubles",
        choices=("none", "seed-000", "gnubg"),
        default=None,
        help="automatic doubles: seed 000's (R10.4) or GNU Backgammon's (R10.5)",
    )
    options.add_argument(
        "--auto-double-limit", type=int, default=None, help="most automatic doubles a game (R10.5)"
    )
    options.add_argument(
        "--cube-limit", type=int, default=None, help="highest cube value, a power of two (R9.6)"
    )
    options.add_argument(
        "--opening",
        choices=("standard", "reroll"),
        default=None,
        help="R3.2, or R3.3: the first player rolls both dice afresh",
    )
    parser.set_defaults(run=simulate_command)
    return parser


def rules_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~gammonlab.Rules` the options name: the preset, then each option given."""
    from ..rules import Rules

    changes: dict[str, Any] = {}
    if args.variant is not None:
        changes["variant"] = args.variant
    for name in ("cube", "jacoby", "crawford", "holland", "beavers", "raccoons"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = _ON_OFF[value]
    for name in ("scoring", "auto_doubles", "auto_double_limit", "cube_limit", "opening"):
        value = getattr(args, name)
        if value is not None:
            changes[name] = value
    if args.preset == "seed-000":
        if args.match_length is not None:
            changes["match_length"] = args.match_length
        return Rules.seed_000(**changes)
    length = 5 if args.match_length is None else args.match_length
    if args.preset == "gnubg":
        return Rules.gnubg_default(length, **changes)
    return Rules(match_length=length, **changes)


def simulate_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab simulate``; returns the exit status."""
    from ..match.simulate import play_match
    from ..match.write import write_match
    from .output import check_output

    if args.output is not None:
        refusal = check_output(args.output, (".mat", ".sgf", ".txt"), "simulate")
        if refusal is not None:
            print(refusal, file=sys.stderr)
            return 2
    rules = rules_from_args(args)
    names = tuple(args.names) if args.names else tuple(args.players)
    if names[0] == names[1]:
        names = (f"{names[0]} 0", f"{names[1]} 1")
    match = play_match(
        tuple(args.players), rules=rules, seed=args.seed, games=args.games, names=names
    )  # type: ignore[arg-type]
    score = match.score
    kind = "money session" if rules.money else f"{rules.match_length}-point match"
    print(f"{rules!r}")
    games = f"{len(match.games)} game{'s' if len(match.games) != 1 else ''}"
    print(f"{kind}, {games}: {names[0]} {score[0]}, {names[1]} {score[1]}")
    for number, game in enumerate(match.games, start=1):
        if game.winner is not None:
            print(
                f"  game {number}: {names[game.winner]} wins {game.points} "
                f"point{'s' if game.points != 1 else ''}"
            )
    if args.output is not None:
        write_match(match, args.output)
        print(f"written to {args.output}")
    return 0
