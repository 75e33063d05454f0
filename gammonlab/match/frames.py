"""DataFrames of matches: one row per action, one row per game.

The columns are documented once, in :meth:`gammonlab.match.Match.to_frame`
and :meth:`gammonlab.match.Match.games_frame`. Small vocabularies are
categoricals; integers that may be missing use pandas' nullable types, so the
frames write to parquet as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..errors import GammonlabError
from .building import cycle_collection_paused
from .model import ACTIONS, ENDINGS

if TYPE_CHECKING:
    from .model import Match

__all__ = ["ACTION_COLUMNS", "GAME_COLUMNS", "GNUBG_COLUMNS", "actions_frame", "games_frame"]

ACTION_COLUMNS = (
    "game",
    "action_index",
    "player",
    "player_name",
    "action",
    "die1",
    "die2",
    "play",
    "position_id",
    "match_id",
    "pips",
    "opp_pips",
    "cube_value",
    "cube_owner",
    "score",
    "opp_score",
    "match_length",
    "crawford",
    "hits",
    "n_legal",
    "cube",
    "points",
)
GAME_COLUMNS = (
    "game",
    "player0_name",
    "player1_name",
    "match_length",
    "score0",
    "score1",
    "crawford",
    "winner",
    "winner_name",
    "points",
    "ending",
    "cube_value",
    "moves",
    "actions",
    "complete",
    "start_cube",
)
_ENDING_TYPE = pd.CategoricalDtype([*ENDINGS, "outside", "bar"])


@cycle_collection_paused()
def actions_frame(match: Match) -> pd.DataFrame:
    """The action frame of a match; see :meth:`Match.to_frame`."""
    columns: dict[str, list] = {name: [] for name in ACTION_COLUMNS}
    names = match.players
    for game in match.games:
        for index, action in enumerate(game.actions):
            state = action.state
            player = action.player
            pips = state.position.pips
            if state.on_roll != player:
                pips = (pips[1], pips[0])
            columns["game"].append(game.number)
            columns["action_index"].append(index)
            columns["player"].append(player)
            columns["player_name"].append(names[player])
            columns["action"].append(action.kind)
            dice = action.dice if action.kind == "move" else None
            columns["die1"].append(dice[0] if dice else None)
            columns["die2"].append(dice[1] if dice else None)
            if action.kind == "move":
                columns["play"].append(action.play.notation if action.play else "")
                columns["hits"].append(len(action.play.hits) if action.play else 0)
            else:
                columns["play"].append(None)
                columns["hits"].append(None)
            # no Position ID records Acey-Deucey's checkers waiting to enter (R2.4)
            columns["position_id"].append(
                None if any(state.position.waiting) else state.position_id
            )
            columns["match_id"].append(state.match_id)
            columns["pips"].append(pips[0])
            columns["opp_pips"].append(pips[1])
            columns["cube_value"].append(state.cube_value)
            columns["cube_owner"].append(state.cube_owner)
            columns["score"].append(game.score[player])
            columns["opp_score"].append(game.score[1 - player])
            columns["match_length"].append(match.match_length)
            columns["crawford"].append(game.crawford)
            columns["n_legal"].append(action.n_legal)
            columns["cube"].append(action.cube)
            columns["points"].append(action.points if action.kind == "win" else None)
    frame = pd.DataFrame(
        {
            "game": pd.array(columns["game"], dtype="int32"),
            "action_index": pd.array(columns["action_index"], dtype="int32"),
            "player": pd.array(columns["player"], dtype="int8"),
            "player_name": pd.Categorical(
                columns["player_name"], categories=list(dict.fromkeys(names))
            ),
            "action": pd.Categorical(columns["action"], categories=list(ACTIONS)),
            "die1": pd.array(columns["die1"], dtype="Int8"),
            "die2": pd.array(columns["die2"], dtype="Int8"),
            "play": pd.array(columns["play"], dtype="string"),
            "position_id": pd.array(columns["position_id"], dtype="string"),
            "match_id": pd.array(columns["match_id"], dtype="string"),
            "pips": pd.array(columns["pips"], dtype="int16"),
            "opp_pips": pd.array(columns["opp_pips"], dtype="int16"),
            "cube_value": pd.array(columns["cube_value"], dtype="int32"),
            "cube_owner": pd.array(columns["cube_owner"], dtype="Int8"),
            "score": pd.array(columns["score"], dtype="int32"),
            "opp_score": pd.array(columns["opp_score"], dtype="int32"),
            "match_length": pd.array(columns["match_length"], dtype="int32"),
            "crawford": pd.array(columns["crawford"], dtype="bool"),
            "hits": pd.array(columns["hits"], dtype="Int8"),
            "n_legal": pd.array(columns["n_legal"], dtype="Int16"),
            "cube": pd.array(columns["cube"], dtype="Int32"),
            "points": pd.array(columns["points"], dtype="Int32"),
        }
    )
    if any(action.analysis for game in match.games for action in game.actions):
        _add_gnubg_analysis(frame, match)
    return frame


GNUBG_COLUMNS = (
    "gnubg_best_play",
    "gnubg_best_equity",
    "gnubg_played_equity",
    "gnubg_equity_loss",
    "gnubg_no_double",
    "gnubg_double_take",
    "gnubg_luck",
)
"""Columns of GNU Backgammon's own analysis, when a file carries it (``.sgf``)."""


def _canonical(action, text: str) -> str:
    """A candidate play of GNU Backgammon's analysis in canonical notation."""
    try:
        return action.state.position.find_play(text, action.dice).notation
    except GammonlabError:  # keep the engine's own text when it does not resolve
        return text


def _add_gnubg_analysis(frame: pd.DataFrame, match: Match) -> None:
    values: dict[str, list] = {name: [] for name in GNUBG_COLUMNS}
    for game in match.games:
        for action in game.actions:
            analysis = action.analysis or {}
            moves = analysis.get("moves") or {}
            candidates = moves.get("candidates") or []
            played = moves.get("played")
            best = candidates[0] if candidates else None
            played_equity = (
                candidates[played]["equity"]
                if isinstance(played, int) and 0 <= played < len(candidates)
                else None
            )
            values["gnubg_best_play"].append(_canonical(action, best["play"]) if best else None)
            values["gnubg_best_equity"].append(best["equity"] if best else None)
            values["gnubg_played_equity"].append(played_equity)
            values["gnubg_equity_loss"].append(
                best["equity"] - played_equity if best and played_equity is not None else None
            )
            cube = analysis.get("cube") or {}
            # the last of GNU Backgammon's seven numbers is the cubeful value
            for column, key in (
                ("gnubg_no_double", "no_double"),
                ("gnubg_double_take", "double_take"),
            ):
                numbers = cube.get(key)
                values[column].append(numbers[-1] if numbers else None)
            values["gnubg_luck"].append(analysis.get("luck"))
    frame["gnubg_best_play"] = pd.array(values["gnubg_best_play"], dtype="string")
    for name in GNUBG_COLUMNS[1:]:
        frame[name] = pd.array(values[name], dtype="Float64")


def games_frame(match: Match) -> pd.DataFrame:
    """The game frame of a match; see :meth:`Match.games_frame`."""
    rows = []
    for game in match.games:
        rows.append(
            {
                "game": game.number,
                "player0_name": match.players[0],
                "player1_name": match.players[1],
                "match_length": match.match_length,
                "score0": game.score[0],
                "score1": game.score[1],
                "crawford": game.crawford,
                "winner": game.winner,
                "winner_name": match.players[game.winner] if game.winner is not None else None,
                "points": game.points,
                "ending": game.ending,
                "cube_value": game.cube_value,
                "moves": game.moves,
                "actions": len(game.actions),
                "complete": game.complete,
                "start_cube": game.start_cube,
            }
        )
    frame = pd.DataFrame(rows, columns=list(GAME_COLUMNS))
    return frame.astype(
        {
            "game": "int32",
            "player0_name": "string",
            "player1_name": "string",
            "match_length": "int32",
            "score0": "int32",
            "score1": "int32",
            "crawford": "bool",
            "winner": "Int8",
            "winner_name": "string",
            "points": "Int32",
            "ending": _ENDING_TYPE,
            "cube_value": "int32",
            "moves": "int32",
            "actions": "int32",
            "complete": "bool",
            "start_cube": "int32",
        }
    )
