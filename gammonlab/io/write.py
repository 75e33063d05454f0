"""Writing matches: GNU Backgammon's ``.mat`` layout and ``.sgf``.

A :class:`~gammonlab.match.Match` is written with every play in canonical
notation, so that reading the file back gives the same frame.

>>> from gammonlab import read_match
>>> match = read_match(" 1 point match\\n\\n Game 1\\n A : 0     B : 0\\n  1) 31: 8/5 6/5\\n")
>>> print(write_match(match), end="")
; [Crawford "On"]
<BLANKLINE>
 1 point match
<BLANKLINE>
 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5
<BLANKLINE>
"""

from __future__ import annotations

import os
from pathlib import Path

from ..match import Action, Match
from .mat import format_mat
from .sgf import format_sgf
from .text import Location, RawAction, RawGame, RawMatch

__all__ = ["to_raw", "write_match"]

_VARIATIONS = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "nackgammon-004": "NackGammon-004",
    "hypergammon-1": "HyperGammon 1",
    "hypergammon-2": "HyperGammon 2",
    "hypergammon-3": "HyperGammon 3",
    "acey-deucey": "Acey-Deucey",
}


def _raw_action(action: Action, game_over_here: bool, game_points: int | None,
                where: Location) -> RawAction:
    kind = action.kind
    if kind == "move":
        play = action.play.notation if action.play is not None else ""
        return RawAction(player=action.player, kind="move", dice=action.dice, play=play,
                         analysis=action.analysis, loc=where)
    if kind == "resign":
        # a resignation that is its own result ("Losses 2 points") keeps its points
        points = game_points if game_over_here else None
        return RawAction(player=action.player, kind="resign", dice=action.dice,
                         resign_level=action.resign_level, points=points,
                         analysis=action.analysis, loc=where)
    if kind == "win":
        return RawAction(player=action.player, kind="win", points=action.claimed_points,
                         match_won=action.match_won, analysis=action.analysis, loc=where)
    return RawAction(player=action.player, kind=kind, cube=action.cube,
                     resign_level=action.resign_level, analysis=action.analysis, loc=where)


def _rule_headers(match: Match) -> dict[str, str]:
    """``.mat`` header tags that carry the rules (GNU Backgammon's and XG's keys)."""
    rules = match.rules
    on_off = {True: "On", False: "Off"}
    headers: dict[str, str] = {}
    if rules.money:
        headers["Jacoby"] = on_off[rules.jacoby]
        headers["Beaver"] = on_off[rules.beavers]
    else:
        headers["Crawford"] = on_off[rules.crawford]
    if rules.cube_limit is not None:
        headers["CubeLimit"] = str(rules.cube_limit)
    return headers


def to_raw(match: Match, *, format: str = "mat") -> RawMatch:
    """The text-level record of a match, ready for a writer."""
    source = match.source
    rules = match.rules
    sgf_rules = []
    if rules.match_length and rules.crawford:
        sgf_rules.append("Crawford")
    if rules.money and rules.jacoby:
        sgf_rules.append("Jacoby")
    if not rules.cube:
        sgf_rules.append("NoCube")
    games = []
    for game in match.games:
        where = Location(source, 0, 0, "")
        actions = []
        for index, action in enumerate(game.actions):
            last = index == len(game.actions) - 1
            actions.append(_raw_action(action, last and game.winner is not None,
                                       game.points, where))
        rules = list(sgf_rules)
        if game.crawford:
            rules.append("CrawfordGame")
        games.append(RawGame(number=game.number, players=match.players,
                             ratings=match.ratings, scores=game.score,
                             actions=tuple(actions), complete=game.winner is not None,
                             rules=tuple(rules) if format == "sgf" else (), loc=where))
    headers = {k: v for k, v in match.metadata.items()
               if k.lower() not in ("jacoby", "beaver", "crawford", "cubelimit")}
    headers.update(_rule_headers(match))
    variant = match.rules.variant.name
    if variant != "standard" or any(k.lower() == "variation" for k in headers):
        headers = {k: v for k, v in headers.items() if k.lower() != "variation"}
        headers["Variation"] = _VARIATIONS.get(variant, variant)
    return RawMatch(format=format, source=source, encoding=None, headers=headers,
                    match_length=match.match_length, players=match.players,
                    ratings=match.ratings, variant=_VARIATIONS.get(variant, variant),
                    games=tuple(games))


def write_match(match: Match, path: str | os.PathLike[str] | None = None, *,
                format: str | None = None) -> str:
    """Write a match as ``.mat`` (GNU Backgammon's layout) or ``.sgf``.

    Parameters
    ----------
    match : Match
    path : path, optional
        Where to write (UTF-8); the text is returned either way.
    format : {'mat', 'sgf'}, optional
        From the path's suffix (``.sgf`` or else ``.mat``) when not given.
    """
    if format is None:
        format = "sgf" if path is not None and Path(path).suffix.lower() == ".sgf" else "mat"
    if format not in ("mat", "sgf"):
        raise ValueError(f"format must be 'mat' or 'sgf', got {format!r}")
    raw = to_raw(match, format=format)
    text = format_sgf(raw) if format == "sgf" else format_mat(raw)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text
