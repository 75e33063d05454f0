"""Per-player summaries of analysed matches: errors, rates, PR, luck and results."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ArgumentError, GammonlabError, OptionError
from ..met import DEFAULT_TABLE, load
from .ratings import PR_SCALE

if TYPE_CHECKING:
    import pandas as pd

    from .frame import Summary

__all__ = ["summarise"]

_SUMMARY_KEYS = ("match", "player", "player_name")

CUBE_COLUMNS = (
    "cube_decisions",
    "missed_doubles",
    "wrong_doubles",
    "wrong_takes",
    "wrong_passes",
    "cube_errors",
    "cube_equity_loss",
    "cube_error_rate",
)
"""The summary's columns of cube decisions, counts to error rate, in their order
(``cube_pr`` comes with the other PRs)."""


def _match_results(frame: pd.DataFrame, met_name: str | None) -> dict[int, float]:
    """Each player's result in one match's frame: points won (money) or the match won."""
    length = int(frame["match_length"].iloc[0])
    wins = frame[frame["action"] == "win"]
    if length == 0:
        result = {0: 0.0, 1: 0.0}
        for player, points in zip(wins["player"], wins["points"].fillna(0)):
            result[int(player)] += float(points)
            result[1 - int(player)] -= float(points)
        return result
    last = frame[frame["game"] == frame["game"].max()].iloc[0]
    player = int(last["player"])
    score = {player: int(last["score"]), 1 - player: int(last["opp_score"])}
    final = wins[wins["game"] == last["game"]]
    for player, points in zip(final["player"], final["points"].fillna(0)):
        score[int(player)] += int(points)
    if score[0] >= length or score[1] >= length:
        return {p: float(score[p] >= length) for p in (0, 1)}
    try:
        table = load(met_name or DEFAULT_TABLE, max_away=max(25, length))
    except GammonlabError:  # a table given as an object, not by name
        table = load(DEFAULT_TABLE, max_away=max(25, length))
    mwc = table.equity(length - score[0], length - score[1])
    return {0: mwc, 1: 1.0 - mwc}


def _sum(values: pd.Series) -> float:
    return float(values.astype("Float64").fillna(0).sum())


def summarise(frame: pd.DataFrame, *, by: str | Sequence[str] | None = None) -> Summary:
    """One row per player: errors, error rates, performance rating, luck and results.

    Parameters
    ----------
    frame : pandas.DataFrame
        A frame from :func:`analyse` or :func:`analyse_matches`.
    by : str or list of str, optional
        Grouping among ``'match'``, ``'player'`` (0 or 1) and ``'player_name'``.
        By default each player of each match (``['match', 'player']``, or
        ``'player'`` for one match); ``by='player_name'`` pools a player's
        matches.

    Returns
    -------
    Summary
        A :class:`pandas.DataFrame` (:class:`~gammonlab.analysis.frame.Summary`) with
        every column below; ``print()`` and notebooks show its main columns per player
        (errors, PR, luck, results), ``summary.full()`` all of them. Per group:

        - ``moves`` (every roll the player played, forced ones and those with no
          legal play included), ``unforced`` (checker decisions: more than one
          legal play; the moves the rates and PR count), ``doubtful``, ``bad``,
          ``very_bad``, ``checker_errors``
          (their total), ``checker_equity_loss``, ``checker_error_rate`` (mean
          loss per unforced move, in millipoints: thousandths of normalised
          equity), ``best_play_rate`` (unforced moves where the best play was
          made; the only figure a policy such as pubeval gives);
        - ``cube_decisions`` (doubles, answers, and missed or close doubles:
          GNU Backgammon's "close or actual" decisions), ``missed_doubles``,
          ``wrong_doubles``, ``wrong_takes``, ``wrong_passes``, ``cube_errors``,
          ``cube_equity_loss``, ``cube_error_rate``;
        - ``decisions``, ``equity_loss``, ``error_rate`` (all decisions),
          ``mwc_loss`` (match play, in match winning chances) and ``pr``:
          eXtreme Gammon's performance rating, 500 times the mean normalised
          equity lost per decision, checker and cube decisions together;
          ``checker_pr`` and ``cube_pr`` the same for each kind;
        - ``luck`` (sum of the normalised luck of the player's rolls),
          ``luck_rate`` (per roll), ``luck_points`` (money: luck times the cube)
          or ``luck_mwc`` (match: in match winning chances);
        - ``result``: money, the points won (net); match play, 1 for a match
          won, 0 for a match lost, the match winning chance of the score for an
          unfinished match; ``luck_adjusted_result``: the result minus the
          player's luck plus the opponent's (in points or match winning
          chances), an estimate of the result with the luck taken out. In
          match play it is a match winning chance, clipped to [0, 1]: the luck
          of each roll is measured on its own, so a match's sum of luck can be
          more than the chances there were to win or lose (each swing changes
          what the later rolls are worth); a luck-adjusted chance of 0 or 1
          says that the luck accounts for the whole result, or more. The two
          players' values still add up to 1. Pooled over matches
          (``by='player_name'``) it is the sum of the matches' values, as
          ``result`` is the number of matches won.

    Examples
    --------
    >>> from gammonlab.analysis import analyse
    >>> text = " 1 point match\\n\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/5 6/5  21: 13/11 6/5\\n"
    >>> summary = summarise(analyse(text, evaluator="pubeval", progress=False))
    >>> summary["player_name"].tolist(), summary["best_play_rate"].tolist()
    (['A', 'B'], [1.0, 0.0])
    """
    import pandas as pd

    missing = {"action", "player", "equity_loss", "cube_equity_loss"} - set(frame.columns)
    if missing:
        raise ArgumentError(
            f"summarise needs a frame from analyse(); missing columns {sorted(missing)}"
        )
    settings = frame.attrs.get("analysis", {}) or {}
    groups = (
        frame.groupby("match", observed=True, sort=False) if "match" in frame else [(None, frame)]
    )
    base: list[dict[str, Any]] = []
    for match_name, match_frame in groups:
        results = _match_results(match_frame, settings.get("met"))
        rows = {}
        for player in (0, 1):
            mine = match_frame[match_frame["player"] == player]
            rows[player] = _player_row(mine, player)
            rows[player]["result"] = results[player]
            if match_name is not None:
                rows[player]["match"] = match_name
        money = int(match_frame["match_length"].iloc[0]) == 0
        for player in (0, 1):
            own, other = rows[player], rows[1 - player]
            key = "luck_points" if money else "luck_mwc"
            adjusted = own["result"] - own[key] + other[key]
            if not money and not math.isnan(adjusted):  # a match winning chance, in [0, 1]
                adjusted = min(max(adjusted, 0.0), 1.0)
            own["luck_adjusted_result"] = adjusted
        base.extend(rows.values())
    table = pd.DataFrame(base)
    if by is None:
        keys = ["match", "player"] if "match" in frame else ["player"]
    else:
        keys = [by] if isinstance(by, str) else list(by)
    unknown = set(keys) - set(_SUMMARY_KEYS)
    if unknown or not keys:
        raise OptionError(
            f"summarise groups by 'match', 'player' or 'player_name', "
            f"not {sorted(unknown) or keys}",
            option="by",
        )
    counts = [c for c in table.columns if c not in _SUMMARY_KEYS]
    grouped = table.groupby(keys, sort=False, observed=True)
    out = grouped[counts].sum(min_count=1)
    if "player_name" not in keys:
        out.insert(
            0,
            "player_name",
            grouped["player_name"].agg(
                lambda names: ", ".join(dict.fromkeys(str(n) for n in names))
            ),
        )
    return _rates(out)


def _player_row(mine: pd.DataFrame, player: int) -> dict[str, Any]:
    moves = mine[mine["action"] == "move"]
    unforced = moves[~moves["forced"].fillna(True).astype(bool)]
    classes = unforced["error_class"].astype("string")
    cube = mine[mine["cube_decision"].fillna(False).astype(bool)]
    errors = cube["cube_error"].astype("string")
    names = mine["player_name"].dropna()
    luck = moves["luck"]
    money = int(mine["match_length"].iloc[0]) == 0 if len(mine) else True
    # a policy (pubeval) gives no equity: its losses stay missing, not zero
    evaluated = bool(mine["equity_loss"].notna().any() or mine["cube_equity_loss"].notna().any())
    lucky = bool(luck.notna().any())

    def total(values: pd.Series) -> float:
        return _sum(values) if evaluated else math.nan

    return {
        "player": player,
        "player_name": str(names.iloc[0]) if len(names) else str(player),
        "moves": len(moves),
        "unforced": len(unforced),
        "doubtful": int((classes == "doubtful").sum()),
        "bad": int((classes == "bad").sum()),
        "very_bad": int((classes == "very bad").sum()),
        "checker_equity_loss": total(unforced["equity_loss"]),
        "best_play": int((unforced["play_rank"] == 1).sum()),
        "cube_decisions": len(cube),
        "missed_doubles": int((errors == "missed double").sum()),
        "wrong_doubles": int((errors == "wrong double").sum()),
        "wrong_takes": int((errors == "wrong take").sum()),
        "wrong_passes": int((errors == "wrong pass").sum()),
        "cube_errors": int(((errors != "none") & errors.notna()).sum()),
        "cube_equity_loss": total(cube["cube_equity_loss"]),
        "mwc_loss": math.nan
        if money
        else total(unforced["mwc_loss"]) + total(cube["cube_mwc_loss"]),
        "luck": _sum(luck) if lucky else math.nan,
        "rolls": int(luck.notna().sum()),
        "luck_points": (_sum(luck * moves["cube_value"]) if lucky else math.nan)
        if money
        else math.nan,
        "luck_mwc": math.nan if money else (_sum(moves["luck_mwc"]) if lucky else math.nan),
    }


def _rates(out: pd.DataFrame) -> Summary:
    """Rates and ratings from the summed counts and losses."""
    out["checker_errors"] = out["doubtful"] + out["bad"] + out["very_bad"]
    unforced = out["unforced"].astype("float64")
    cube = out["cube_decisions"].astype("float64")
    decisions = unforced + cube
    with np.errstate(divide="ignore", invalid="ignore"):
        out["checker_error_rate"] = 1000.0 * out["checker_equity_loss"] / unforced
        out["best_play_rate"] = out.pop("best_play") / unforced
        out["cube_error_rate"] = 1000.0 * out["cube_equity_loss"] / cube
        out["decisions"] = out["unforced"] + out["cube_decisions"]
        out["equity_loss"] = out["checker_equity_loss"] + out["cube_equity_loss"].fillna(0)
        out["error_rate"] = 1000.0 * out["equity_loss"] / decisions
        out["pr"] = PR_SCALE * out["equity_loss"] / decisions
        out["checker_pr"] = PR_SCALE * out["checker_equity_loss"] / unforced
        out["cube_pr"] = PR_SCALE * out["cube_equity_loss"] / cube
        out["luck_rate"] = out["luck"] / out.pop("rolls").astype("float64")
    order = [
        "player_name",
        "moves",
        "unforced",
        "doubtful",
        "bad",
        "very_bad",
        "checker_errors",
        "checker_equity_loss",
        "checker_error_rate",
        "best_play_rate",
        *CUBE_COLUMNS,
        "decisions",
        "equity_loss",
        "error_rate",
        "mwc_loss",
        "pr",
        "checker_pr",
        "cube_pr",
        "luck",
        "luck_rate",
        "luck_points",
        "luck_mwc",
        "result",
        "luck_adjusted_result",
    ]
    from .frame import Summary

    out = out[[c for c in order if c in out.columns]]
    return Summary(out.replace([np.inf, -np.inf], np.nan))
