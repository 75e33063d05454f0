"""``gammonlab rollout``: roll out a position, the plays of a roll, or a cube decision.

    gammonlab rollout ID [--dice D [--plays [--top K]]] [--cube] [--trials N] [--policy P]
                      [--seed S] [-j N] [-q] [-o OUT.csv|OUT.parquet]

- without ``--dice``: the position before the roll, the side on roll's cubeless
  probabilities and equity with their standard errors (:func:`gammonlab.rollout`);
- ``--dice D``: the same with the roll D to play, the policy playing it;
- ``--dice D --plays``: the best plays of D by the policy's ranking rolled out and ranked
  (:func:`gammonlab.rollout_plays`); the ID's dice when ``--dice`` is not given;
- ``--cube``: the cube decision at the ID's cube and score (:func:`gammonlab.rollout_cube`).

The policy is the library's default (gammonlab's net for standard backgammon and
Nackgammon). A progress bar goes to stderr, the table to stdout; ``-o`` writes the table.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from ..state import GameState

__all__ = ["add_rollout_parser", "rollout_command"]


def add_rollout_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``rollout`` to the ``gammonlab`` command's sub-parsers.

    >>> parser = argparse.ArgumentParser(prog="gammonlab")
    >>> _ = add_rollout_parser(parser.add_subparsers(dest="command"))
    >>> args = parser.parse_args(["rollout", "4HPwATDgc/ABMA", "--dice", "52", "--plays"])
    >>> args.dice, args.plays, args.policy, args.trials
    ((5, 2), True, None, 1296)
    """
    from ..rollout.rollouts import DEFAULT_TRIALS
    from .output import add_evaluator_option, add_id_arguments, add_work_options, parse_dice

    parser = subparsers.add_parser(
        "rollout",
        help="roll out a position, the plays of a roll, or a cube decision",
        description="Roll out the position of an ID: before the roll, the side on roll's "
        "cubeless chances and equity with standard errors; with --dice and --plays, the best "
        "plays of that roll ranked by rollout; with --cube, the cube decision at the ID's cube "
        "and score. The table goes to stdout, a progress bar to stderr.",
    )
    add_id_arguments(parser)
    parser.add_argument(
        "--dice", type=parse_dice, default=None, help="a roll to play first, like 52 or 5-2"
    )
    kind = parser.add_mutually_exclusive_group()
    kind.add_argument(
        "--plays",
        action="store_true",
        help="roll out the plays of the roll (--dice, else the ID's) and rank them",
    )
    kind.add_argument(
        "--cube", action="store_true", help="the cube decision before the roll, by rollout"
    )
    parser.add_argument(
        "--top", type=int, default=5, help="with --plays: how many plays to roll out (default 5)"
    )
    trials = f"games played (default {DEFAULT_TRIALS}, whole blocks of 36)"
    parser.add_argument("--trials", type=int, default=DEFAULT_TRIALS, help=trials)
    add_evaluator_option(
        parser,
        "--policy",
        help="who plays both sides: net (gammonlab's own, the default), pubeval, random, "
        "gnubg (needs gnubg-nn) or a registered evaluator",
    )
    parser.add_argument("--seed", type=int, default=None, help="the same seed, the same numbers")
    parser.add_argument(
        "-o", "--output", default=None, help="write the table: OUT.csv or OUT.parquet"
    )
    add_work_options(parser)
    parser.set_defaults(run=rollout_command)
    return parser


def rollout_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab rollout``; returns the exit status."""
    from ..state import GameState
    from .output import FRAME_SUFFIXES, check_output, refuse, wrap, write_frame

    if args.output is not None:
        refusal = check_output(args.output, FRAME_SUFFIXES, "rollout")
        if refusal is not None:
            print(refusal, file=sys.stderr)
            return 2
    state = GameState.from_id(args.id, variant=args.variant)
    options = {
        "trials": args.trials,
        "policy": args.policy,
        "seed": args.seed,
        "n_jobs": args.jobs,
        "progress": not args.quiet,
    }
    if args.cube:
        if args.dice is not None:
            return refuse("rollout", "a cube decision comes before the roll: no --dice")
        lines, table = _cube(state, options)
    elif args.plays:
        dice = args.dice or state.dice
        if dice is None:
            return refuse("rollout", "--plays needs a roll: give --dice, e.g. --dice 52")
        lines, table = _plays(state, dice, args.top, options)
    else:
        lines, table = _position(state, args.dice, options)
    for line in lines:
        print(wrap(line))
    if args.output is not None:
        write_frame(table, args.output, attrs=False)
        print(f"written to {args.output}")
    return 0


def _about(settings: Any, trials: int, each: str = "") -> str:
    trials_text = f"{trials} trials {each}".rstrip()
    return f"{trials_text}, policy {settings['policy']}, seed {settings['seed']}"


def _on_roll(state: GameState) -> str:
    return f"player {state.on_roll} on roll"


def _position(
    state: GameState, dice: tuple[int, int] | None, options: dict[str, Any]
) -> tuple[list[str], pd.DataFrame]:
    import pandas as pd

    from ..rollout import STATISTICS, rollout

    result = rollout(state.position, dice, **options)
    if dice is None:
        when = "before the roll"
        if state.dice is not None:
            roll = f"{state.dice[0]}{state.dice[1]}"
            when += f" (the ID's {roll} is left out: --dice {roll} plays it)"
    else:
        when = f"with {dice[0]}-{dice[1]} to play, the policy playing it"
    names = {
        "win": "win",
        "win_gammon": "win gammon",
        "win_backgammon": "win backgammon",
        "lose_gammon": "lose gammon",
        "lose_backgammon": "lose backgammon",
        "equity": "equity",
    }
    if result.scoring != "standard":  # R8.4's classes
        names.update(win_gammon="win 2+", win_backgammon="win 4", lose_gammon="lose 2+")
        names.update(lose_backgammon="lose 4")
    table = pd.DataFrame(
        {
            "outcome": [names[s] for s in STATISTICS],
            "estimate": [getattr(result, s) for s in STATISTICS],
            "stderr": [result.stderr[s] for s in STATISTICS],
            "ci95_low": [result.ci95[s][0] for s in STATISTICS],
            "ci95_high": [result.ci95[s][1] for s in STATISTICS],
        }
    )
    shown = pd.DataFrame(
        {
            "outcome": table["outcome"],
            "estimate": [
                f"{v:+.4f}" if s == "equity" else f"{v:.4f}"
                for s, v in zip(STATISTICS, table["estimate"])
            ],
            "std. error": [f"{v:.4f}" for v in table["stderr"]],
            "95% interval": [
                f"{lo:+.4f} .. {hi:+.4f}" if s == "equity" else f"{lo:.4f} .. {hi:.4f}"
                for s, lo, hi in zip(STATISTICS, table["ci95_low"], table["ci95_high"])
            ],
        }
    )
    lines = [
        f"rollout of {state.position.gnubg_id} ({_on_roll(state)}) {when}",
        f"{_about(result.settings, result.trials)}; cubeless money equity, the side on roll's "
        "chances (win includes gammons and backgammons)",
        _text(shown),
    ]
    return lines, table


def _plays(
    state: GameState, dice: tuple[int, int], top: int, options: dict[str, Any]
) -> tuple[list[str], pd.DataFrame]:
    import pandas as pd

    from ..rollout import rollout_plays

    legal = len(state.position.legal_plays(dice))
    frame = rollout_plays(state.position, dice, top=top, **options)
    roll = f"{dice[0]}-{dice[1]}"
    head = f"rollout of the plays of {roll} in {state.position.gnubg_id} ({_on_roll(state)})"
    if len(frame) == 0:
        return [head, f"{roll} has no legal play: the turn is lost (R5.5)"], frame
    settings = frame.attrs.get("settings", {})
    trials = int(frame["trials"].max())
    shown = pd.DataFrame(
        {
            "rank": range(1, len(frame) + 1),
            "play": frame["play"],
            "win": frame["win"].map(lambda v: f"{v:.3f}"),
            "win g": frame["win_gammon"].map(lambda v: f"{v:.3f}"),
            "lose g": frame["lose_gammon"].map(lambda v: f"{v:.3f}"),
            "equity": frame["equity"].map(lambda v: f"{v:+.3f}"),
            "se": frame["stderr"].map(lambda v: f"{v:.3f}"),
            "vs best": frame["difference"].map(lambda v: f"{v:+.3f}"),
            "vs best se": frame["difference_stderr"].map(lambda v: f"{v:.3f}"),
        }
    )
    lines = [
        head,
        f"the {len(frame)} best of {legal} legal plays by the policy's ranking, "
        f"{_about(settings, trials, 'each')}; cubeless money equity, the same dice for every "
        "play (se: standard error; vs best se: of the paired difference)",
        _text(shown),
    ]
    return lines, frame


def _cube(state: GameState, options: dict[str, Any]) -> tuple[list[str], pd.DataFrame]:
    import pandas as pd

    from ..cube import rollout_cube

    notes = []
    if state.dice is not None:
        notes.append(
            f"the ID's {state.dice[0]}-{state.dice[1]} is left out: the cube is turned "
            "before the roll"
        )
        state = replace(state, dice=None)
    result = rollout_cube(state, **options)
    decision = result.decision
    keys = ("no_double", "double_take", "double_pass")
    table = pd.DataFrame(
        {
            "option": ["no double", "double, take", "double, pass"],
            "equity": [getattr(decision, k) for k in keys],
            "stderr": [result.stderr[k] for k in keys],
        }
    )
    table["verdict"] = decision.verdict
    shown = pd.DataFrame(
        {
            "option": table["option"],
            "equity": table["equity"].map(lambda v: f"{v:+.3f}"),
            "std. error": table["stderr"].map(lambda v: f"{v:.3f}"),
        }
    )
    where = (
        "money play"
        if state.money
        else f"{state.match_length}-point match at {state.score[0]}-{state.score[1]}"
    )
    lines = [
        f"cube decision of {state.gnubg_id} ({_on_roll(state)}, cube {state.cube_value}, {where})",
        *notes,
        f"{decision.verdict} (margin {result.margin:+.3f} ± {result.margin_stderr:.3f})",
        _text(shown),
        result.method,
    ]
    return lines, table


_NAMES = ("outcome", "rank", "play", "option")
"""Columns of names, set to the left."""


def _text(shown: pd.DataFrame) -> str:
    """A table of text cells, the names to the left and the numbers to the right."""
    left = {}
    for column in [c for c in shown.columns if c in _NAMES]:
        wide = max(len(column), *(len(str(v)) for v in shown[column]))
        shown = shown.rename(columns={column: column.ljust(wide)})
        left[column.ljust(wide)] = lambda value, wide=wide: str(value).ljust(wide)
    return str(shown.to_string(index=False, formatters=left))
