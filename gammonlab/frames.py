"""DataFrames of matches: one row per action, one row per game.

The columns are documented once, in :meth:`gammonlab.match.Match.to_frame`
and :meth:`gammonlab.match.Match.games_frame`. Small vocabularies are
categoricals; integers that may be missing use pandas' nullable types, so the
frames write to parquet as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from .match import ACTIONS, ENDINGS

if TYPE_CHECKING:
    from .match import Match

__all__ = ["ACTION_COLUMNS", "GAME_COLUMNS", "actions_frame", "games_frame"]

ACTION_COLUMNS = (
    "game", "action_index", "player", "player_name", "action", "die1", "die2", "play",
    "position_id", "match_id", "pips", "opp_pips", "cube_value", "cube_owner", "score",
    "opp_score", "match_length", "crawford", "hits", "n_legal", "cube", "points",
)
GAME_COLUMNS = (
    "game", "score0", "score1", "crawford", "winner", "winner_name", "points", "ending",
    "cube_value", "moves", "actions", "complete",
)
_ENDING_TYPE = pd.CategoricalDtype([*ENDINGS, "outside", "bar"])


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
            columns["position_id"].append(state.position_id)
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
    frame = pd.DataFrame({
        "game": pd.array(columns["game"], dtype="int32"),
        "action_index": pd.array(columns["action_index"], dtype="int32"),
        "player": pd.array(columns["player"], dtype="int8"),
        "player_name": pd.Categorical(columns["player_name"],
                                      categories=list(dict.fromkeys(names))),
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
    })
    return frame


def games_frame(match: Match) -> pd.DataFrame:
    """The game frame of a match; see :meth:`Match.games_frame`."""
    rows = []
    for game in match.games:
        rows.append({
            "game": game.number,
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
        })
    frame = pd.DataFrame(rows, columns=list(GAME_COLUMNS))
    return frame.astype({
        "game": "int32", "score0": "int32", "score1": "int32", "crawford": "bool",
        "winner": "Int8", "winner_name": "string", "points": "Int32", "ending": _ENDING_TYPE,
        "cube_value": "int32", "moves": "int32", "actions": "int32", "complete": "bool",
    })
