"""The :class:`MatchEquityTable`: match winning chances by score, pre- and post-Crawford."""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import ArgumentError, MetError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["DEFAULT_TABLE", "LONGEST_AWAY", "MAX_AWAY", "MatchEquityTable"]

MAX_AWAY = 25
"""Scores every table covers: 1-away to 25-away for both players."""
LONGEST_AWAY = 256
"""The most points a table is extended to (GNU Backgammon's own tables stop at 64)."""
DEFAULT_TABLE = "Kazaross-XG2"
"""The table :func:`~gammonlab.met.load` returns without a name (GNU Backgammon's default too)."""

_PLAYERS = 2


# -- the table -----------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False, repr=False)
class MatchEquityTable:
    """A match equity table: pre-Crawford and post-Crawford match winning chances.

    Parameters
    ----------
    name : str
        The table's name, e.g. ``'Kazaross XG2 25 point MET'``.
    pre_crawford : array_like, shape (n, n)
        ``pre_crawford[i][j]`` is the match winning chance of player 0 when
        player 0 is ``i + 1`` away and player 1 is ``j + 1`` away, at the start
        of a game with the cube centred. Row and column 0 are the Crawford game.
    post_crawford : array_like, shape (n,) or (2, n)
        ``post_crawford[p][i]`` is the match winning chance of player ``p``,
        ``i + 1`` away, against a leader at 1-away after the Crawford game. One
        row serves both players.
    description, source, notice : str
        What the table is, where it comes from (file or method) and its
        copyright notice.
    parameters : mapping
        The parameters a computed table was made with.
    native_length : int or None
        How many scores the source gave before gammonlab extended it; ``None``
        for a computed table.

    Notes
    -----
    Most tables are symmetric; a skill-adjusted table (``jac050``) favours
    player 0, and :meth:`equity` takes ``player=`` for it.

    Examples
    --------
    >>> table = MatchEquityTable("coin", [[0.5, 0.75], [0.25, 0.5]], [0.5, 0.5])
    >>> table.equity(2, 1), table.max_away
    (0.25, 2)
    """

    name: str
    pre_crawford: np.ndarray
    post_crawford: np.ndarray
    description: str = ""
    source: str = ""
    notice: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    native_length: int | None = None

    def __post_init__(self) -> None:
        pre = np.array(self.pre_crawford, dtype=np.float64)
        post = np.array(self.post_crawford, dtype=np.float64)
        if pre.ndim != 2 or pre.shape[0] != pre.shape[1] or pre.shape[0] < 1:
            raise MetError(
                f"MET {self.name!r}: the pre-Crawford table must be square, got shape {pre.shape}"
            )
        size = pre.shape[0]
        if post.ndim == 1:
            post = np.stack([post, post])
        if post.shape != (_PLAYERS, size):
            raise MetError(
                f"MET {self.name!r}: the post-Crawford table must have {size} "
                f"entries per player, got shape {post.shape}"
            )
        for part, values in (("pre-Crawford", pre), ("post-Crawford", post)):
            if not np.all(np.isfinite(values)) or values.min() < 0.0 or values.max() > 1.0:
                raise MetError(f"MET {self.name!r}: {part} values must lie in [0, 1]")
        problem = _shape_problem(pre, post)
        if problem is not None:
            raise MetError(f"MET {self.name!r}: {problem}")
        pre.setflags(write=False)
        post.setflags(write=False)
        object.__setattr__(self, "pre_crawford", pre)
        object.__setattr__(self, "post_crawford", post)
        object.__setattr__(self, "parameters", dict(self.parameters))

    # -- lookups ---------------------------------------------------------------------------------

    @property
    def max_away(self) -> int:
        """The longest score the table covers (25 for the shipped tables)."""
        return int(self.pre_crawford.shape[0])

    @property
    def symmetric(self) -> bool:
        """True when both players are equally strong in the table."""
        pre = self.pre_crawford
        return bool(
            np.allclose(pre + pre.T, 1.0, atol=1e-9)
            and np.allclose(self.post_crawford[0], self.post_crawford[1], atol=1e-9)
        )

    def equity(self, away: int, opp_away: int, *, crawford: bool = True, player: int = 0) -> float:
        """Match winning chance of the player who needs ``away`` points.

        Parameters
        ----------
        away, opp_away : int
            Points the player and the opponent still need. 0 or less means that
            side has won.
        crawford : bool
            Matters only when a side is 1-away: True (the default) if the game
            about to start is the Crawford game, False if it is a post-Crawford
            game (R10.2). This is the meaning of ``GameState.crawford``.
        player : int
            Which player of an asymmetric table the player is (0 or 1).

        Returns
        -------
        float
            The match winning chance, between 0 and 1.

        Examples
        --------
        >>> from gammonlab.met import load
        >>> table = load("Kazaross-XG2")
        >>> round(table.equity(2, 4), 5), round(table.equity(4, 2), 5)
        (0.6687, 0.3313)
        >>> table.equity(0, 3), table.equity(3, 0)
        (1.0, 0.0)
        """
        away, opp_away = int(away), int(opp_away)
        if player not in (0, 1):
            raise ArgumentError(f"player must be 0 or 1, got {player!r}")
        if away <= 0 and opp_away <= 0:
            raise ArgumentError(f"both players cannot have won: away {away}, {opp_away}")
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        if max(away, opp_away) > self.max_away:
            raise MetError(
                f"MET {self.name!r} covers scores to {self.max_away}-away, "
                f"asked for {away}-away {opp_away}-away"
            )
        post_crawford = not crawford and (away == 1 or opp_away == 1)
        if post_crawford:
            if away == 1:
                # the opponent trails: the table holds the trailer's chance
                return float(1.0 - self.post_crawford[1 - player][opp_away - 1])
            return float(self.post_crawford[player][away - 1])
        if player == 0:
            return float(self.pre_crawford[away - 1][opp_away - 1])
        return float(1.0 - self.pre_crawford[opp_away - 1][away - 1])

    def to_frame(self, kind: str = "pre-crawford") -> pd.DataFrame:
        """The table as a DataFrame.

        Parameters
        ----------
        kind : {'pre-crawford', 'post-crawford'}
            ``'pre-crawford'``: index ``away`` (player 0), columns ``opp_away``,
            values player 0's match winning chance. ``'post-crawford'``: index
            ``away`` (the trailer's score against a leader at 1-away), columns
            ``player_0`` and ``player_1`` (the trailer's chance when that player
            trails).

        Examples
        --------
        >>> from gammonlab.met import load
        >>> frame = load().to_frame()
        >>> frame.shape, round(float(frame.loc[3, 5]), 5)
        ((25, 25), 0.64795)
        >>> round(float(load().to_frame("post-crawford").loc[2, "player_0"]), 5)
        0.48803
        """
        import pandas as pd

        scores = pd.RangeIndex(1, self.max_away + 1, name="away")
        if kind == "pre-crawford":
            columns = pd.RangeIndex(1, self.max_away + 1, name="opp_away")
            return pd.DataFrame(np.array(self.pre_crawford), index=scores, columns=columns)
        if kind == "post-crawford":
            return pd.DataFrame(
                {
                    "player_0": np.array(self.post_crawford[0]),
                    "player_1": np.array(self.post_crawford[1]),
                },
                index=scores,
            )
        raise ArgumentError(f"kind must be 'pre-crawford' or 'post-crawford', got {kind!r}")

    # -- display ---------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"<MatchEquityTable {self.name!r}, {self.max_away} points>"

    def _repr_html_(self) -> str:
        shown = min(self.max_away, 15)
        frame = self.to_frame().iloc[:shown, :shown]
        styled = frame.map(lambda value: f"{100 * value:.1f}") if hasattr(frame, "map") else frame
        caption = (
            f"<p><b>{_html(self.name)}</b> &mdash; {_html(self.description)}<br>"
            f"match winning chance (%) of the row player, {shown} points shown</p>"
        )
        return caption + styled.to_html()


_TOLERANCE = 1e-6
"""How far a table's entries may stray from the order every table keeps (rounding)."""
_POST_CRAWFORD_TOLERANCE = 0.01
"""After the Crawford game the trailer's chances fall with the points it needs, but not
strictly: with the free drop an even score is worth about as much as the odd score above
it, and published tables differ from that order by up to 0.004."""


def _shape_problem(pre: np.ndarray, post: np.ndarray) -> str | None:
    """Why the entries are no match equity table, or None: needing more points never
    helps, and a double match point is one game that one of the two players wins."""
    rows = np.diff(pre, axis=0)  # player 0 one point further away
    if rows.size and rows.max() > _TOLERANCE:
        i, j = np.unravel_index(int(np.argmax(rows)), rows.shape)
        return (
            f"at {i + 2}-away against {j + 1}-away the chance {pre[i + 1, j]:.4f} is above "
            f"{pre[i, j]:.4f} at {i + 1}-away: needing more points never helps"
        )
    columns = np.diff(pre, axis=1)  # player 1 one point further away
    if columns.size and columns.min() < -_TOLERANCE:
        i, j = np.unravel_index(int(np.argmin(columns)), columns.shape)
        return (
            f"at {i + 1}-away against {j + 2}-away the chance {pre[i, j + 1]:.4f} is below "
            f"{pre[i, j]:.4f} against {j + 1}-away: the opponent needing more never hurts"
        )
    for player in (0, 1):
        steps = np.diff(post[player])
        if steps.size and steps.max() > _POST_CRAWFORD_TOLERANCE:
            k = int(np.argmax(steps))
            return (
                f"after the Crawford game, player {player}'s chance at {k + 2}-away, "
                f"{post[player, k + 1]:.4f}, is above {post[player, k]:.4f} at {k + 1}-away"
            )
    both = post[0, 0] + post[1, 0]
    if abs(both - 1.0) > 1e-3 or abs(pre[0, 0] - post[0, 0]) > 1e-3:
        return (
            "at 1-away against 1-away one game decides the match: the two players' chances "
            f"must add up to 1 and be the same before and after the Crawford game, got "
            f"{pre[0, 0]:.4f}, and {post[0, 0]:.4f} and {post[1, 0]:.4f} after"
        )
    return None


def _html(text: str) -> str:
    return html.escape(text)
