"""``gammonlab demo [OUTDIR]``: reads the sample matches, analyses one decision by decision,
rolls out its biggest checker-play error after the play made and after the best play, and
writes the frames as CSV and parquet next to ``report.html`` (:mod:`gammonlab.cli.report`).

>>> parser = argparse.ArgumentParser(prog="gammonlab")
>>> _ = add_demo_parser(parser.add_subparsers(dest="command"))
>>> args = parser.parse_args(["demo"])
>>> args.outdir, args.match, args.trials
('gammonlab-demo', 'HSBT_Paris_2023_Job-Unger_analysed.sgf', 648)
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import GammonlabError, UnknownNameError
from .output import add_evaluator_option, wrap, write_frame
from .report import (
    PlayRollout,
    _boards,
    _Decision,
    _Findings,
    _known,
    _page,
    _plots,
    _result_line,
)

if TYPE_CHECKING:
    import pandas as pd

    from ..match.model import Match

__all__ = [
    "DEFAULT_MATCH",
    "DEFAULT_OUTDIR",
    "DEFAULT_TRIALS",
    "DemoReport",
    "PlayRollout",
    "add_demo_parser",
    "demo_command",
    "main",
    "run_demo",
]

DEFAULT_OUTDIR = "gammonlab-demo"
"""Where ``gammonlab demo`` writes when no folder is given."""
DEFAULT_MATCH = "HSBT_Paris_2023_Job-Unger_analysed.sgf"
"""The sample match analysed: a 7-point match between two strong players, which also
carries GNU Backgammon's own analysis to compare with."""
DEFAULT_TRIALS = 648
"""Rollout trials per play: 18 blocks of 36 rotated first rolls."""
DEFAULT_SEED = 2023
BIGGEST_ERRORS = 8
"""Rows of the report's table of the biggest errors."""


@dataclass
class DemoReport:
    """What :func:`run_demo` found and wrote.

    Attributes
    ----------
    outdir : Path
        The folder written into.
    files : dict of str to Path
        Each file written, by name (``'report.html'``, ``'actions.csv'``, ...).
    match : Path
        The transcript analysed.
    evaluator : str
        The evaluator of the analysis: ``'net'``, ``'gnubg'`` or ``'pubeval'``.
    judged_by : str
        Where the equities, errors and luck of the report come from.
    summary : pandas.DataFrame
        :func:`gammonlab.analysis.summarise` of the match, one row per player.
    decision : pandas.Series or None
        The analysis row of the checker play rolled out: the biggest error (without
        equities, the play the evaluator ranks lowest; without either, the first play).
    rollouts : list of PlayRollout
        The play made and the best play of that decision, rolled out.
    seconds : float
        Run time.
    """

    outdir: Path
    files: dict[str, Path]
    match: Path
    evaluator: str
    judged_by: str
    summary: pd.DataFrame
    decision: pd.Series | None
    rollouts: list[PlayRollout] = field(default_factory=list)
    seconds: float = math.nan


# -- the steps ------------------------------------------------------------------------------------


def _read_samples(log: Callable[[str], None]) -> tuple[pd.DataFrame, pd.DataFrame]:
    from ..io.samples import sample_folder, sample_matches
    from ..match.read import read_matches

    folder = sample_folder()
    paths = sample_matches()
    log(f"reading {len(paths)} sample matches from {folder}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # problems are counted below
        actions = read_matches(folder, errors="collect", progress=False)
        games = read_matches(folder, errors="collect", frame="games", progress=False)
    problems = actions.attrs.get("problems", [])
    moves = int((actions["action"] == "move").sum())
    players = actions["player_name"].nunique()
    log(
        f"  {actions['match'].nunique()} matches, {len(games)} games, {moves} moves, "
        f"{players} players" + (f"; {len(problems)} problems skipped" if problems else "")
    )
    twins = _repeated_matches(games)
    for twin, original in twins.items():
        log(f"  {twin} is the same match as {original}: counted once in the gammon rates")
    distinct = games[~games["match"].isin(list(twins))]
    complete = distinct[distinct["complete"].astype(bool)]
    gammons = complete["ending"].astype("string").isin(["gammon", "backgammon"]).sum()
    log(
        f"  {gammons} of {len(complete)} complete games were gammons or backgammons "
        f"({gammons / max(len(complete), 1):.0%})"
    )
    games.attrs["repeated"] = twins
    return actions, games


def _repeated_matches(games: pd.DataFrame) -> dict[str, str]:
    """Matches that repeat an earlier one game for game (a transcript in two formats)."""
    seen: dict[tuple[Any, ...], str] = {}
    twins: dict[str, str] = {}
    for name, part in games.groupby("match", observed=True, sort=False):
        key = tuple(
            tuple(part[column].astype("string").fillna("").tolist())
            for column in ("player0_name", "player1_name", "winner", "points", "ending")
        )
        if key in seen:
            twins[str(name)] = seen[key]
        else:
            seen[key] = str(name)
    return twins


def _find_match(name: str) -> Path:
    from ..io.samples import sample_folder, sample_matches

    path = Path(name)
    if path.is_file():
        return path
    found = [p for p in sample_matches() if name in (p.name, p.stem)]
    if not found:
        names = ", ".join(p.name for p in sample_matches())
        raise UnknownNameError(
            f"no sample match {name!r} in {sample_folder()}; "
            f"give a transcript's path or one of: {names}"
        )
    return found[0]


def _analyse(
    path: Path, evaluator: str | None, log: Callable[[str], None]
) -> tuple[Match, pd.DataFrame, pd.DataFrame, str, str]:
    """Read and analyse a match; returns the match, the analysis, the frame the report
    judges by, the evaluator used and where the judgement comes from."""
    from ..analysis import analyse
    from ..match.read import read_match

    match = read_match(path)
    length = f"{match.match_length}-point match" if match.match_length else "money session"
    log(
        f"analysing {path.name}: {length}, {match.players[0]} vs {match.players[1]}, "
        f"{_count(len(match.games), 'game')}"
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = analyse(match, evaluator, progress=False)
    for warning in caught:
        if issubclass(warning.category, UserWarning):
            log(f"  note: {warning.message}")
    used = str(frame.attrs.get("analysis", {}).get("evaluator", evaluator or "?"))
    if frame["equity_loss"].notna().any():
        return match, frame, frame, used, f"gammonlab's 0-ply analysis with {_engine_name(used)}"
    if "gnubg_equity_loss" in frame.columns and frame["gnubg_equity_loss"].notna().any():
        from .gallery import analysis_from_gnubg

        log(
            f"  {used} ranks plays but gives no equities: errors and luck below come from "
            "GNU Backgammon's analysis stored in the file"
        )
        return (
            match,
            frame,
            _chance_of_every_roll(match, analysis_from_gnubg(frame)),
            used,
            "GNU Backgammon's analysis stored in the transcript",
        )
    log(
        f"  {used} ranks plays but gives no equities, and the file carries no analysis: "
        "install gnubg-nn for errors, PR and luck"
    )
    return match, frame, frame, used, f"{used}'s ranking of the plays (no equities)"


def _chance_of_every_roll(match: Match, judged: pd.DataFrame) -> pd.DataFrame:
    """``mwc`` before every roll and resignation, from GNU Backgammon's stored analysis.

    GNU Backgammon writes a match winning chance only where it analysed a cube
    decision, and none once the cube cannot be turned. Elsewhere the chance is the
    one after the play just before, from the equity GNU Backgammon gave that play;
    a roll after one with no legal play has neither, and is interpolated.
    """
    import numpy as np
    import pandas as pd

    from ..cube.batch import Cube
    from ..met import DEFAULT_TABLE, load

    if not match.match_length or "mwc" not in judged or "gnubg_played_equity" not in judged:
        return judged
    table = load(DEFAULT_TABLE, max_away=max(25, match.match_length))
    played = pd.to_numeric(judged["gnubg_played_equity"], errors="coerce").to_numpy(float)
    chance = pd.to_numeric(judged["mwc"], errors="coerce").to_numpy(float).copy()
    actions = match.actions
    for i in range(1, len(actions)):
        action, before = actions[i], actions[i - 1]
        if action.kind not in ("move", "resign") or not np.isnan(chance[i]):
            continue
        if before.kind == "move" and not np.isnan(played[i - 1]):
            after = float(Cube.of(before.state, table).to_mwc(played[i - 1]))
            chance[i] = after if action.player == before.player else 1.0 - after
    return judged.assign(mwc=chance)


def _engine_name(evaluator: str) -> str:
    return {"gnubg": "GNU Backgammon's nets", "net": "gammonlab's neural net"}.get(
        evaluator, evaluator
    )


def _summarise(
    judged: pd.DataFrame, match: Match, *, own_analysis: bool, log: Callable[[str], None]
) -> pd.DataFrame:
    """Each player's figures; ``own_analysis`` is False when the equities come from the
    analysis stored in the file, which judges no cube decisions, and the best-play rate
    would be the ranking evaluator's, not that analysis'."""
    from ..analysis import summarise
    from ..analysis.summary import CUBE_COLUMNS

    summary = summarise(judged)
    if not own_analysis:
        # the stored analysis has no luck in match winning chances to adjust the result by
        summary["best_play_rate"] = math.nan
        summary["luck_adjusted_result"] = math.nan
    if "cube_equity_loss" not in judged or judged["cube_equity_loss"].isna().all():
        for column in (*CUBE_COLUMNS, "cube_pr"):
            if column in summary:
                summary[column] = math.nan
    log(f"  {_result_line(match)}")
    for _, row in summary.iterrows():
        parts = [_count(int(row["unforced"]), "unforced move")]
        if _known(row.get("error_rate")):
            parts.append(f"{row['checker_errors']} checker errors ({row['very_bad']} very bad)")
            if _known(row.get("cube_errors")):
                parts.append(f"{row['cube_errors']:.0f} cube errors")
            parts.append(f"error rate {row['error_rate']:.1f} millipoints per decision")
            parts.append(f"PR {row['pr']:.1f}")
        if _known(row.get("best_play_rate")):
            parts.append(f"best play {row['best_play_rate']:.0%}")
        if _known(row.get("luck")):
            parts.append(f"luck {row['luck']:+.2f}")
        log(f"  {row['player_name']}: " + ", ".join(parts))
    return summary


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _biggest_errors(judged: pd.DataFrame, top: int = BIGGEST_ERRORS) -> pd.DataFrame:
    """The costliest checker plays and cube actions, worst first."""
    import pandas as pd

    checker = pd.to_numeric(judged["equity_loss"], errors="coerce").astype(float)
    cube = pd.to_numeric(
        judged.get("cube_equity_loss", pd.Series(math.nan, judged.index)), errors="coerce"
    ).astype(float)

    def error(index: Any, lost: pd.Series, decision: str, best: str, kind: str) -> dict[str, Any]:
        """One error of the table; ``decision`` is a format of the row's columns."""
        row = judged.loc[index]
        return {
            "row": index,
            "game": int(row["game"]),
            "player": row["player_name"],
            "decision": decision.format_map(row),
            "best": row[best],
            "equity lost": lost[index],
            "class": row[kind],
        }

    rows = [
        error(index, checker, "{die1}-{die2}: {play}", "best_play", "error_class")
        for index in judged.index[checker > 0]
    ]
    if "cube_error" in judged:
        cube_errors = judged["cube_error"].astype("string")
        wrong = (cube > 0) & cube_errors.notna() & (cube_errors != "none")
        rows += [
            error(
                index,
                cube,
                "{cube_error} (cube at {cube_value})",
                "cube_verdict",
                "cube_error_class",
            )
            for index in judged.index[wrong]
        ]
    table = pd.DataFrame(
        rows, columns=["row", "game", "player", "decision", "best", "equity lost", "class"]
    )
    return table.sort_values("equity lost", ascending=False, kind="stable").head(top)


def _pick_decision(match: Match, judged: pd.DataFrame, evaluator: str) -> _Decision | None:
    """The biggest checker-play error; without equities, the play the evaluator ranks lowest;
    without either, the first play of the match."""
    import pandas as pd

    loss = pd.to_numeric(judged["equity_loss"], errors="coerce").astype(float)
    errors = loss[(loss > 0) & judged["best_play"].notna()]
    rank = pd.to_numeric(
        judged.get("play_rank", pd.Series(math.nan, judged.index)), errors="coerce"
    ).astype(float)
    ranked = rank[(rank > 1) & judged["best_play"].notna()]
    plays = judged.index[(judged["action"] == "move") & (judged["play"].fillna("") != "")]
    if not errors.empty:
        index, what = int(errors.idxmax()), "the biggest checker error"
    elif not ranked.empty:
        index, what = int(ranked.idxmax()), f"the play {evaluator} ranks lowest"
    elif len(plays):
        index, what = int(plays[0]), "the first play of the match"
    else:
        return None
    action = match.actions[index]
    if action.play is None or action.dice is None:
        return None
    row = judged.loc[index]
    best = None
    if what != "the first play of the match":
        best = action.state.position.find_play(str(row["best_play"]), action.dice)
    return _Decision(row, action, best, what)


def _rollouts(
    decision: _Decision, *, policy: str, trials: int, seed: int, log: Callable[[str], None]
) -> list[PlayRollout]:
    from ..rollout.rollouts import rollout

    play = decision.action.play
    assert play is not None
    log(decision.describe())
    candidates = [("play made", play)]
    if decision.best is not None:
        candidates.append(("best play", decision.best))
    log(
        f"  rolling out {'both plays' if len(candidates) > 1 else 'the play'}, {trials} "
        f"trials each, {policy} playing both sides (cubeless money equity, seed {seed})"
    )
    found = []
    for label, candidate in candidates:
        result = rollout(
            candidate.position,
            trials=trials,
            policy=policy,
            seed=seed,
            keep_trials=True,
            progress=False,
        )
        found.append(PlayRollout(label, candidate.notation, result, decision.mover))
        log(
            f"  {label} {candidate.notation}: equity {found[-1].equity:+.3f} "
            f"± {found[-1].half_interval:.3f} (95%), "
            f"{found[-1].win:.1%} wins, {found[-1].win_gammon:.1%} gammons won, "
            f"{found[-1].lose_gammon:.1%} lost"
        )
    return found


# -- the demo -------------------------------------------------------------------------------------


def run_demo(
    outdir: str | Path = DEFAULT_OUTDIR,
    *,
    match: str = DEFAULT_MATCH,
    evaluator: str | None = None,
    trials: int = DEFAULT_TRIALS,
    seed: int = DEFAULT_SEED,
    log: Callable[[str], None] = print,
) -> DemoReport:
    """Read the sample matches, analyse one, roll out its biggest error, write a report.

    Writes into ``outdir``:

    - ``report.html``: one self-contained page (boards as inline SVG, plots as
      inline PNG, no scripts, nothing fetched from elsewhere);
    - ``actions.csv`` / ``actions.parquet``: every action of every sample match;
    - ``games.csv``: every game of every sample match;
    - ``analysis.csv`` / ``analysis.parquet``: the analysed match, one row per action;
    - ``summary.csv``: each player's errors, rates, performance rating and luck.

    Pubeval gives no equities, so with ``evaluator='pubeval'`` the errors and luck come
    from the analysis GNU Backgammon stored in the sample match, and the report says so.

    Parameters
    ----------
    outdir : path
        The folder to write into; created if needed. Files of earlier runs are replaced.
    match : str
        A sample match, by file name (see :func:`gammonlab.io.samples.sample_matches`), or
        the path of any transcript.
    evaluator : {'net', 'gnubg', 'pubeval'}, optional
        The analysis' evaluator and the rollout's policy; by default ``'net'``,
        gammonlab's own neural evaluator.
    trials : int
        Rollout trials for each of the two plays.
    seed : int
        The rollouts' seed.
    log : callable
        Called with each line of progress.

    Returns
    -------
    DemoReport
    """
    import pandas as pd

    start = time.perf_counter()
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    path = _find_match(match)

    log("[1/5] the sample matches")
    actions, games = _read_samples(log)

    log("[2/5] analysis")
    the_match, analysis, judged, used, judged_by = _analyse(path, evaluator, log)
    summary = _summarise(judged, the_match, own_analysis=judged is analysis, log=log)
    errors = _biggest_errors(judged)

    log("[3/5] rollout")
    decision = _pick_decision(the_match, judged, used)
    rollouts: list[PlayRollout] = []
    boards: dict[str, str] = {}
    if decision is None:
        log("  the match has no checker play to roll out")
    else:
        policy = used if used in ("net", "gnubg", "pubeval") else "net"
        rollouts = _rollouts(decision, policy=policy, trials=trials, seed=seed, log=log)
        boards = _boards(decision)

    log("[4/5] plots and boards")
    pictures = _plots(judged, games, rollouts, log)

    log(f"[5/5] writing into {out.resolve()}")
    files: dict[str, Path] = {}
    tables = {
        "actions.csv": actions,
        "actions.parquet": actions,
        "games.csv": games,
        "analysis.csv": analysis,
        "analysis.parquet": analysis,
        "summary.csv": summary.reset_index(),
    }
    for name, frame in tables.items():
        files[name] = out / name
        write_frame(frame, files[name], attrs=False)  # settings and problems are no columns
    files["report.html"] = out / "report.html"
    seconds = time.perf_counter() - start
    found = _Findings(the_match, path, judged_by, used, actions, games, summary, errors)
    page = _page(
        found,
        boards=boards,
        decision=decision,
        rollouts=rollouts,
        pictures=pictures,
        files=[n for n in files if n != "report.html"],
        seconds=seconds,
    )
    files["report.html"].write_text(page, encoding="utf-8")
    for written in files.values():
        log(f"  {written}  ({_size(written.stat().st_size)})")
    seconds = time.perf_counter() - start
    log(f"done in {seconds:.1f} s: open {files['report.html'].resolve().as_uri()}")
    row = decision.row if decision is not None else None
    report = DemoReport(out, files, path, used, judged_by, pd.DataFrame(summary), row)
    report.rollouts, report.seconds = rollouts, seconds
    return report


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


# -- the command line -----------------------------------------------------------------------------


def add_demo_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``demo`` to the ``gammonlab`` command's sub-parsers.

    >>> parser = argparse.ArgumentParser(prog="gammonlab")
    >>> _ = add_demo_parser(parser.add_subparsers(dest="command"))
    >>> parser.parse_args(["demo", "out", "--trials", "72"]).trials
    72
    """
    parser = subparsers.add_parser(
        "demo",
        help="analyse a sample match, roll out its biggest error, write a report",
        description="Read the sample matches that come with gammonlab, analyse one, roll out "
        "the position of its biggest error and write report.html with the "
        "frames as CSV and parquet.",
    )
    parser.add_argument(
        "outdir",
        nargs="?",
        default=DEFAULT_OUTDIR,
        help=f"folder to write into (default ./{DEFAULT_OUTDIR})",
    )
    parser.add_argument(
        "--match",
        default=DEFAULT_MATCH,
        help="sample match to analyse, by file name, or a transcript's path",
    )
    add_evaluator_option(parser, choices=("net", "gnubg", "pubeval"))
    parser.add_argument(
        "--trials", type=int, default=DEFAULT_TRIALS, help="rollout trials for each play"
    )
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="rollout seed")
    parser.set_defaults(run=demo_command)
    return parser


def demo_command(args: argparse.Namespace) -> int:
    """Run ``gammonlab demo`` with parsed arguments; returns the exit status."""
    if args.trials < 36:
        print("gammonlab demo: --trials must be at least 36", file=sys.stderr)
        return 2
    if args.outdir == "":
        print("gammonlab demo: an empty path names no folder to write into", file=sys.stderr)
        return 2
    try:  # the folder first, before any work
        Path(args.outdir).mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"{args.outdir}: cannot make the folder: {error.strerror or error}", file=sys.stderr)
        return 2
    run_demo(
        args.outdir,
        match=args.match,
        evaluator=args.evaluator,
        trials=args.trials,
        seed=args.seed,
        log=lambda line: print(wrap(line), flush=True),
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gammonlab.cli.demo [OUTDIR]``: the demo without the ``gammonlab`` command."""
    parser = argparse.ArgumentParser(prog="python -m gammonlab.cli.demo")
    add_demo_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["demo", *(sys.argv[1:] if argv is None else argv)])
    try:
        return demo_command(args)
    except (GammonlabError, OSError) as error:
        print(f"gammonlab demo: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
