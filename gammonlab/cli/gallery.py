"""Render every plot and a few boards into a folder, as PNG and SVG files.

``python -m gammonlab.cli.gallery OUTDIR`` draws each helper of :mod:`gammonlab.plot`
from real matches -- the sample matches in the repository's ``data/`` folder,
or the corpus in ``../shared/data`` while ``data/`` has none -- and from small
rollouts, and prints the files it wrote. It takes well under a minute.

``--data DIR`` reads the matches from another folder. The analysis plots draw
:func:`gammonlab.analyse` of a match the folder holds as GNU Backgammon
analysed it (an ``.sgf`` named ``*analysed*``); without GNU Backgammon's nets
(``gnubg-nn``), the analysis in the file stands in for it.

>>> from gammonlab.cli.gallery import find_data
>>> find_data(".").is_dir()
True
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import GammonlabError, SourceNotFoundError

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..match.model import Match

__all__ = ["analysis_frame", "analysis_from_gnubg", "find_data", "main", "render"]

REPO = Path(__file__).resolve().parents[2]
TRANSCRIPT_SUFFIXES = (".mat", ".txt", ".sgf")
GAMMON_RATE_FILES = 150
"""Transcripts read for the gammon-rate plots (the first ones, in name order)."""
ROLLOUT_TRIALS = 1296
PLAYS_TRIALS = 648
WIDE, NORMAL, SQUARE, BOARD = (10.0, 4.6), (8.0, 4.8), (7.2, 6.6), (6.4, 5.6)
"""Figure sizes in inches: timelines of a match, other plots, the MET, boards."""


def analysis_from_gnubg(frame: pd.DataFrame) -> pd.DataFrame:
    """An action frame with GNU Backgammon's own analysis, in :func:`gammonlab.analyse`'s columns.

    ``gnubg_best_play``, ``gnubg_best_equity``, ``gnubg_played_equity``,
    ``gnubg_equity_loss`` and ``gnubg_luck`` become ``best_play``,
    ``best_equity``, ``played_equity``, ``equity_loss`` and ``luck``;
    ``error_class`` follows :data:`gammonlab.analysis.ERROR_THRESHOLDS`; in a
    match, ``mwc`` is GNU Backgammon's cubeful match winning chance of the
    player on roll before the roll (its no-double value).

    >>> import pandas as pd
    >>> frame = pd.DataFrame({"gnubg_equity_loss": [0.0, 0.1], "match_length": 7,
    ...                       "gnubg_no_double": [0.5, 0.45]})
    >>> analysis_from_gnubg(frame)[["error_class", "mwc"]].values.tolist()
    [['none', 0.5], ['bad', 0.45]]
    """
    import pandas as pd

    from ..analysis import ERROR_CLASSES, error_class

    out = frame.copy()
    for name in ("best_play", "best_equity", "played_equity", "equity_loss", "luck"):
        if f"gnubg_{name}" in out.columns:
            out[name] = out[f"gnubg_{name}"]
    loss = pd.to_numeric(out.get("equity_loss"), errors="coerce").astype(float)
    out["error_class"] = pd.Categorical(
        ["none" if np.isnan(v) else error_class(v) for v in loss],
        categories=list(ERROR_CLASSES),
        ordered=True,
    )
    if "gnubg_no_double" in out.columns and bool((out["match_length"] > 0).all()):
        # a take's or a pass's cube analysis is the doubler's: keep the roller's rows only
        roller = (
            out["action"].astype("string").isin(["move", "double"]).fillna(False)
            if "action" in out.columns
            else pd.Series(True, index=out.index)
        )
        mwc = pd.to_numeric(out["gnubg_no_double"], errors="coerce").astype(float)
        out["mwc"] = mwc.where(roller)
    return out


def analysis_frame(match: Match) -> pd.DataFrame | None:
    """The analysis of a match: :func:`gammonlab.analyse` with GNU Backgammon's nets, else
    the analysis GNU Backgammon wrote into the file (:func:`analysis_from_gnubg`), else None.
    """
    from ..analysis import analyse

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            frame = analyse(match, progress=False)
        if frame["played_equity"].notna().any():  # pubeval ranks plays but has no equity
            return frame
    except (GammonlabError, ImportError):
        pass
    frame = match.to_frame()
    return analysis_from_gnubg(frame) if "gnubg_luck" in frame.columns else None


# -- finding the data ----------------------------------------------------------------------------


def _transcripts(folder: Path) -> list[Path]:
    """Transcripts under ``folder`` (its ``mat/`` and ``sgf/`` folders when it has them)."""
    roots = [folder / name for name in ("mat", "sgf") if (folder / name).is_dir()] or [folder]
    found = [
        p
        for root in roots
        for p in sorted(root.rglob("*"))
        if p.is_file()
        and p.suffix.lower() in TRANSCRIPT_SUFFIXES
        and "truncated" not in p.as_posix()
    ]
    return found


def find_data(data: str | os.PathLike[str] | None = None) -> Path:
    """The folder of matches to draw: ``data``, else the repository's ``data/`` if it holds
    transcripts, else the shared corpus (``$GAMMONLAB_SHARED_DATA`` or ``../shared/data``).

    >>> find_data(".") == Path(".")
    True
    """
    if data is not None:
        if not Path(data).is_dir():
            raise SourceNotFoundError(f"no folder {data}")
        return Path(data)
    bundled = REPO / "data"
    if bundled.is_dir() and _transcripts(bundled):
        return bundled
    shared = Path(os.environ.get("GAMMONLAB_SHARED_DATA", REPO.parent / "shared" / "data"))
    if shared.is_dir():
        return shared
    raise SourceNotFoundError(f"no matches in {bundled} nor {shared}: pass --data DIR")


def _read(path: Path) -> Match | None:
    from ..match.read import read_match

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return read_match(path, errors="collect")
    except GammonlabError:
        return None


def _analysed_match(files: Sequence[Path]) -> tuple[Path, Match] | None:
    """A match carrying GNU Backgammon's analysis: named so first, then any .sgf."""
    named = [p for p in files if "analys" in p.name.lower() and p.suffix.lower() == ".sgf"]
    # prefer a match of people (not engine self-play) with a real fight: the longest file
    named.sort(key=lambda p: -p.stat().st_size)
    others = [p for p in files if p.suffix.lower() == ".sgf" and p not in named]
    for path in named + others:
        match = _read(path)
        if match is not None and "gnubg_luck" in match.to_frame().columns:
            return path, match
    return None


def _games_with_lengths(files: Sequence[Path]) -> pd.DataFrame:
    """The games frames of many transcripts, with ``match``, ``match_length`` and players."""
    import pandas as pd

    frames = []
    for path in files:
        match = _read(path)
        if match is None or not match.games:
            continue
        games = match.games_frame()
        games.insert(0, "match", path.name)
        games["match_length"] = match.match_length
        frames.append(games)
    if not frames:
        raise SourceNotFoundError("no readable matches for the gammon rates")
    return pd.concat(frames, ignore_index=True)


# -- drawing -------------------------------------------------------------------------------------


def _save(fig: Figure, outdir: Path, name: str, formats: Sequence[str]) -> Iterator[Path]:
    import matplotlib.pyplot as plt

    for fmt in formats:
        path = outdir / f"{name}.{fmt}"
        fig.savefig(path, dpi=150 if fmt == "png" else None, bbox_inches="tight", facecolor="white")
        yield path
    plt.close(fig)


def _biggest_error(frame: pd.DataFrame) -> int | None:
    loss = frame.get("equity_loss")
    if loss is None or loss.dropna().empty:
        return None
    return int(loss.astype(float).fillna(-1.0).idxmax())


def render(
    outdir: str | os.PathLike[str],
    *,
    data: str | os.PathLike[str] | None = None,
    formats: Sequence[str] = ("png", "svg"),
    log: Callable[[str], None] = print,
    rollouts: bool = True,
) -> list[Path]:
    """Draw the gallery into ``outdir``; return the files written, in order.

    Parameters
    ----------
    outdir : path
        Created if needed.
    data : path, optional
        The folder of matches (see :func:`find_data`).
    formats : sequence of str
        File formats, each a matplotlib format (``png``, ``svg``, ``pdf``).
    log : callable
        Called with each path written.
    rollouts : bool
        Also draw the rollout plots (about 15 seconds of rollouts).
    """
    import matplotlib.pyplot as plt

    from .. import plot
    from ..draw import svg
    from ..met import load as load_met
    from ..position import Position
    from ..rollout.rollouts import rollout, rollout_many, rollout_plays
    from ..state import GameState

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    folder = find_data(data)
    files = _transcripts(folder)
    written: list[Path] = []

    def draw(
        name: str, size: tuple[float, float], helper: Callable[..., Axes], *args: Any, **kwargs: Any
    ) -> Axes:
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        helper(*args, ax=ax, **kwargs)
        for path in _save(fig, out, name, formats):
            written.append(path)
            log(str(path))
        return ax

    with plt.rc_context(
        {"font.family": "DejaVu Sans", "axes.titleweight": "bold", "svg.fonttype": "none"}
    ):
        found = _analysed_match(files)
        analysis = analysis_frame(found[1]) if found is not None else None
        if found is not None and analysis is not None:
            match = found[1]
            longest = int(analysis.groupby("game")["action_index"].size().idxmax())
            draw("pips_game", NORMAL, plot.plot_pips, analysis, game=longest)
            draw("pips_match", WIDE, plot.plot_pips, analysis)
            draw("equity_match", WIDE, plot.plot_equity, analysis)
            draw(
                "equity_game",
                WIDE,
                plot.plot_equity,
                analysis[analysis.game == longest],
                y="played_equity",
            )
            draw("luck", WIDE, plot.plot_luck, analysis)
            draw("errors", NORMAL, plot.plot_errors, analysis)
            draw("errors_equity_lost", NORMAL, plot.plot_errors, analysis, value="equity_loss")
            worst = _biggest_error(analysis)
            action = match.actions[worst] if worst is not None else None
            if action is not None and action.play is not None and action.dice is not None:
                draw("board_biggest_error", BOARD, plot.plot_board, action.play)
                diagram = out / "board_biggest_error_diagram.svg"
                diagram.write_text(svg.board(action.play), encoding="utf-8")
                written.append(diagram)
                log(str(diagram))
                if rollouts:
                    plays = rollout_plays(
                        action.state, top=5, trials=PLAYS_TRIALS, seed=6, progress=False, n_jobs=1
                    )
                    high, low = action.dice
                    draw("plays", NORMAL, plot.plot_plays, plays).set_title(
                        f"{high}-{low} to play: candidate plays, {PLAYS_TRIALS} trials "
                        "(95% intervals)",
                        loc="left",
                    )
                    draw("plays_difference", NORMAL, plot.plot_plays, plays, value="difference")

        # .sgf files are mostly twins of a .mat transcript: count each match once
        texts = [p for p in files if p.suffix.lower() != ".sgf"]
        games = _games_with_lengths(texts[:GAMMON_RATE_FILES])
        draw(
            "gammon_rates_match_length",
            NORMAL,
            plot.plot_gammon_rates,
            games,
            by="match_length",
            min_games=10,
        )
        draw("gammon_rates_players", WIDE, plot.plot_gammon_rates, games, by="winner_name", top=8)

        draw("cube_money", NORMAL, plot.plot_cube_decision, [0.70, 0.12, 0.005, 0.04, 0.002])
        draw(
            "cube_match",
            NORMAL,
            plot.plot_cube_decision,
            [0.66, 0.20, 0.01, 0.10, 0.005],
            state=GameState.initial(match_length=7, score=(3, 5)),
        )
        draw(
            "cube_money_gammons",
            NORMAL,
            plot.plot_cube_decision,
            [0.74, 0.18, 0.01, 0.05, 0.002],
            x="gammons",
        )
        draw("met", SQUARE, plot.plot_met, load_met())
        draw(
            "board_initial",
            BOARD,
            plot.plot_board,
            GameState.initial(match_length=7).replace(dice=(3, 1)),
        )
        draw("board_play", BOARD, plot.plot_board, Position.initial().find_play("8/5 6/5", (3, 1)))

        if rollouts:
            result = rollout(
                Position.initial(),
                trials=ROLLOUT_TRIALS,
                seed=1,
                keep_trials=True,
                progress=False,
                n_jobs=1,
            )
            draw("rollout_convergence", NORMAL, plot.plot_rollout, result)
            draw("rollout_first_rolls", WIDE, plot.plot_first_rolls, result)
            after = Position.initial().play("13/7 8/7", (6, 1))  # the opponent on roll
            many = rollout_many([after], trials=PLAYS_TRIALS, seed=2, progress=False, n_jobs=1)
            draw(
                "gammon_rates_rollout",
                NORMAL,
                plot.plot_gammon_rates,
                {
                    "opening position": result,
                    "after 6-1 13/7 8/7, the opponent on roll": many.result[0],
                },
            )
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: ``python -m gammonlab.cli.gallery OUTDIR [--data DIR]``."""
    parser = argparse.ArgumentParser(
        prog="python -m gammonlab.cli.gallery",
        description="Render every gammonlab plot and a few boards as PNG and SVG files.",
    )
    parser.add_argument("outdir", help="folder to write into (created if needed)")
    parser.add_argument("--data", help="folder of matches (default: data/, else the corpus)")
    parser.add_argument("--formats", default="png,svg", help="comma-separated, e.g. png,svg,pdf")
    parser.add_argument("--no-rollouts", action="store_true", help="skip the rollout plots")
    args = parser.parse_args(argv)
    import matplotlib

    if "MPLBACKEND" not in os.environ:
        matplotlib.use("Agg")
    start = time.perf_counter()
    try:
        written = render(
            args.outdir,
            data=args.data,
            rollouts=not args.no_rollouts,
            formats=[f.strip() for f in args.formats.split(",") if f.strip()],
        )
    except FileNotFoundError as error:
        print(f"gallery: {error}", file=sys.stderr)
        return 1
    print(f"wrote {len(written)} files in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
