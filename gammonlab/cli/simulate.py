"""``gammonlab simulate``: play a match or a money session under any rules and write it.

    gammonlab simulate [--variant nackgammon] [--match-length 5] [--players gnubg pubeval]
                       [--preset gnubg|seed-000] [rule options] [--seed N] [-o OUT.mat|OUT.sgf]

It prints the rules in words, the players, the result (who won, the final score, the games)
and each game; ``-o`` writes the format its suffix names, ``.mat`` or ``.sgf``.

The rules are built as :class:`gammonlab.Rules` builds them (a preset first, then each
option given); the match is played by :func:`gammonlab.play_match`, which checks every
step with the rules engine, and written by :func:`gammonlab.write_match`.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path
from typing import Any

__all__ = ["add_simulate_parser", "describe_rules", "rules_from_args", "simulate_command"]

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
        "--variant",
        choices=list(VARIANTS),
        default=None,
        metavar="VARIANT",
        help=f"{', '.join(VARIANTS)} (default standard)",
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


def describe_rules(rules: Any) -> str:
    """The rules in words, citing ``rules.md``.

    >>> from gammonlab import Rules
    >>> describe_rules(Rules(match_length=5))
    'standard backgammon, 5-point match, Crawford rule (R10.2), cube in play (R9)'
    >>> describe_rules(Rules.gnubg_default(cube_limit=8)).split(", ")[2:]
    ['cube in play up to 8 (R9.6)', 'Jacoby rule (R10.1)', 'beavers and raccoons (R10.6)']
    """
    name = rules.variant.name
    parts = ["standard backgammon" if name == "standard" else name]
    parts.append("money play" if rules.money else f"{rules.match_length}-point match")
    if rules.scoring != "standard":
        parts.append("seed 000's scoring: 1, 2 or 4 points (R8.4)")
    if not rules.money:
        parts.append("Crawford rule (R10.2)" if rules.crawford else "no Crawford rule")
    if not rules.cube:
        parts.append("no cube")
    elif rules.cube_limit is not None:
        parts.append(f"cube in play up to {rules.cube_limit} (R9.6)")
    else:
        parts.append("cube in play (R9)")
    if rules.jacoby:
        parts.append("Jacoby rule (R10.1)")
    if rules.holland:
        parts.append("Holland rule (R10.3)")
    if rules.auto_doubles != "none":
        kind = (
            "seed 000's (R10.4)" if rules.auto_doubles == "seed-000" else "GNU Backgammon's (R10.5)"
        )
        limit = f", at most {rules.auto_double_limit} a game" if rules.auto_double_limit else ""
        parts.append(f"automatic doubles: {kind}{limit}")
    if rules.beavers:
        parts.append("beavers and raccoons (R10.6)" if rules.raccoons else "beavers (R10.6)")
    if rules.opening == "reroll":
        parts.append("the opening player rolls both dice afresh (R3.3)")
    return ", ".join(parts)


def _outcome(match: Any, names: tuple[str, str]) -> str:
    """Who won, the final score and the games played."""
    s0, s1 = match.score
    games = f"{len(match.games)} game{'s' if len(match.games) != 1 else ''}"
    if match.match_length == 0:
        if s0 == s1:
            return f"money session of {games}: even, {s0} point{'s' if s0 != 1 else ''} each"
        leader = 0 if s0 > s1 else 1
        won = abs(s0 - s1)
        return (
            f"money session of {games}: {names[leader]} won {won} point{'s' if won != 1 else ''} "
            f"net ({names[0]} {s0}, {names[1]} {s1})"
        )
    if match.winner is None:
        return f"unfinished after {games}: {names[0]} {s0}, {names[1]} {s1}"
    winner = match.winner
    return (
        f"{names[winner]} won the {match.match_length}-point match against "
        f"{names[1 - winner]}, {max(s0, s1)}-{min(s0, s1)} in {games}"
    )


def simulate_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab simulate``; returns the exit status."""
    from ..match.simulate import play_match
    from ..match.write import write_match
    from .output import check_output, wrap

    if args.output is not None:
        refusal = check_output(args.output, (".mat", ".sgf"), "simulate")
        if refusal is not None:
            print(refusal, file=sys.stderr)
            return 2
    rules = rules_from_args(args)
    names = tuple(args.names) if args.names else tuple(args.players)
    if names[0] == names[1]:
        names = (f"{names[0]}-A", f"{names[1]}-B")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        match = play_match(
            tuple(args.players), rules=rules, seed=args.seed, games=args.games, names=names
        )  # type: ignore[arg-type]
    for warning in caught:
        if issubclass(warning.category, UserWarning):
            print(wrap(f"warning: {warning.message}"), file=sys.stderr)
    print(wrap(f"rules: {describe_rules(rules)}"))
    print(f"players: {names[0]} ({args.players[0]}) and {names[1]} ({args.players[1]})")
    print(wrap(f"result: {_outcome(match, names)}"))
    for game in match.games:
        if game.winner is not None and game.points is not None:
            after = list(game.score)
            after[game.winner] += game.points
            ending = f", {game.ending}" if game.ending else ""
            print(
                f"  game {game.number}: {names[game.winner]} wins {game.points} "
                f"point{'s' if game.points != 1 else ''}{ending}; score {after[0]}-{after[1]}"
            )
    if args.output is not None:
        form = Path(args.output).suffix.lower().lstrip(".")
        write_match(match, args.output, format=form)
        print(f"written to {args.output} ({form})")
    return 0
