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
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..errors import OptionError
from ..io.mat import format_mat
from ..io.raw import Location, RawAction, RawGame, RawMatch
from ..io.sgf import format_sgf
from ..io.tags import VARIATION_NAMES, mat_headers, sgf_rule_parts
from ..rules import Rules
from .model import Action, Game, Match
from .replay import CrawfordCount, claim_capped

__all__ = ["to_raw", "write_match"]

_RULE_KEYS = frozenset(
    {
        "variation",
        "jacoby",
        "beaver",
        "raccoon",
        "crawford",
        "cubelimit",
        "holland",
        "cube",
        "scoring",
        "autodoubles",
        "autodoublelimit",
        "opening",
    }
)
"""Header keys (lower case) that state the rules: written from the match's rules."""


_WRITTEN = {
    "move": ("dice", "play"),
    "resign": ("dice", "resign_level", "points"),
    "win": ("points", "match_won"),
}
"""What a transcript writes of an action of each kind, besides its player and analysis;
the cube actions and the answers to a resignation write ``cube`` and ``resign_level``."""


def _raw_action(
    action: Action, game_over_here: bool, game_points: int | None, where: Location
) -> RawAction:
    kind = action.kind
    if kind == "win":
        points = action.claimed_points
    else:  # a resignation keeps its points where it ends the game
        points = game_points if game_over_here else None
    values: dict[str, Any] = {
        "dice": action.dice,
        "play": action.play.notation if action.play is not None else "",
        "cube": action.cube,
        "points": points,
        "resign_level": action.resign_level,
        "match_won": action.match_won,
    }
    written = _WRITTEN.get(kind, ("cube", "resign_level"))
    return RawAction(
        player=action.player,
        kind=kind,
        analysis=action.analysis,
        loc=where,
        **{name: values[name] for name in written},
    )


def _written_claim(action: Action, game: Game, rules: Rules, format: str) -> int | None:
    """The points a game's result line writes: the transcript's claim where it stands,
    the game's points where it does not."""
    claimed, points = action.claimed_points, game.points
    if points is None or claimed == points:
        return claimed
    if format == "sgf" and game.ending == "resign":
        # RE[W+3R] states the points the resignation lost, not a result line's claim capped
        # at the match ("Wins 1 point and the match")
        return points
    length = rules.match_length
    needed = length - game.score[action.player] if length else None
    if claimed is not None and not claim_capped(claimed, points, needed, length):
        return points  # a result line the replay found wrong
    return claimed


def to_raw(match: Match, *, format: str = "mat") -> RawMatch:
    """The text-level record of a match, ready for a writer."""
    source = match.source
    rules = match.rules
    sgf_rules = sgf_rule_parts(rules)
    games = []
    count = CrawfordCount(rules)  # what a reader of the .mat will take for the Crawford game
    for game in match.games:
        where = Location(source, 0, 0, "")
        inferred = count.start(game.score)
        count.result(game.winner, game.points)
        actions = []
        for index, action in enumerate(game.actions):
            following = game.actions[index + 1] if index + 1 < len(game.actions) else None
            # a resignation that is its own result ("Losses 2 points") keeps its points,
            # and so does one that ended the game before a result naming another winner
            own_result = game.winner is not None and (
                following is None
                or (
                    action.kind == "resign"
                    and following.kind == "win"
                    and following.player != game.winner
                )
            )
            if action.kind == "win":
                written = _written_claim(action, game, rules, format)
                if written != action.claimed_points:
                    action = replace(action, claimed_points=written)
            actions.append(_raw_action(action, own_result, game.points, where))
        parts = list(sgf_rules)
        if game.crawford:
            parts.append("CrawfordGame")
        # .mat states the Crawford game only where its scores do not tell it
        mat_parts = (
            ()
            if inferred == game.crawford
            else ("CrawfordGame",)
            if game.crawford
            else ("NoCrawfordGame",)
        )
        games.append(
            RawGame(
                number=game.number,
                players=match.players,
                ratings=match.ratings,
                scores=game.score,
                actions=tuple(actions),
                complete=game.winner is not None,
                rules=tuple(parts) if format == "sgf" else mat_parts,
                cube=game.start_cube,
                loc=where,
            )
        )
    headers = {k: v for k, v in match.metadata.items() if k.lower() not in _RULE_KEYS}
    headers.update(mat_headers(rules))
    variant = rules.variant.name
    return RawMatch(
        format=format,
        match_length=match.match_length,
        players=match.players,
        ratings=match.ratings,
        variant=VARIATION_NAMES.get(variant, variant),
        headers=headers,
        source=source,
        encoding=None,
        games=tuple(games),
    )


def write_match(
    match: Match, path: str | os.PathLike[str] | None = None, *, format: str | None = None
) -> str:
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
        raise OptionError(f"format must be 'mat' or 'sgf', got {format!r}", option="format")
    raw = to_raw(match, format=format)
    text = format_sgf(raw) if format == "sgf" else format_mat(raw)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text
