"""Matches, games and actions, replayed through the rules.

A transcript reader (:mod:`gammonlab.io`) says what a file *writes*; this
module checks it against the rules and builds a :class:`Match`: every play is
resolved by the rules engine, and a game state machine follows the cube
(R9, R10), the score, the Crawford game (R10.2), beavers and raccoons
(R10.6), resignations (R12) and the end of each game (R8). The points each
game is worth are computed and compared with what the transcript claims.

>>> from gammonlab import read_match
>>> match = read_match('''
...  1 point match
...
...  Game 1
...  Anna : 0                           Bob : 0
...   1) 31: 8/5 6/5                     Doubles => 2
...   2)  Drops
...                                      Wins 1 point and the match
... ''')
>>> match.games[0].winner, match.games[0].points, match.games[0].ending
(1, 1, 'drop')
>>> match.to_frame().action.tolist()
['move', 'double', 'drop', 'win']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import ParseError
from ..io.raw import ACTION_KINDS
from ..play import Play
from ..rules import Rules, Variant
from ..state import GameState

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ACTIONS", "ENDINGS", "Action", "Game", "Match"]

ACTIONS = ACTION_KINDS
"""Every kind of action, the ``action`` column's categories."""
ENDINGS = ("single", "gammon", "backgammon", "drop", "resign")
"""How a game can end (seed 000's scoring adds ``outside`` and ``bar``)."""


@dataclass(frozen=True, init=False)
class Action:
    """One action of a game, with the state it was taken in.

    Attributes
    ----------
    kind : str
        One of :data:`ACTIONS`.
    player : int
        The player acting: 0 is the transcript's first (left) player.
    state : GameState
        The state before the action, as GNU Backgammon records it: for a
        move, with the dice rolled; for a take, drop or beaver, the doubler's
        position with the double offered and the taker to act.
    dice : tuple of int or None
        The roll, in the transcript's order.
    play : Play or None
        The resolved play of a move (``None`` when no number could be played).
    written : str or None
        The play, or the action, as the transcript wrote it.
    cube : int or None
        For a double, beaver or raccoon: the cube value offered.
    points : int or None
        For ``win``: the points the game is worth after the cube (``None``
        when the transcript's result is impossible).
    claimed_points : int or None
        For ``win``: the points the transcript wrote.
    resign_level : int or None
        For ``resign``: 1 single, 2 gammon, 3 backgammon when known.
    n_legal : int or None
        For a move: how many legal plays the roll had.
    location : Location or None
        Where the transcript writes it.
    analysis : dict or None
        GNU Backgammon's analysis carried by an ``.sgf`` file.
    players : tuple of str or None
        The names of player 0 and player 1 of the match, as its boards label
        the sides (:func:`gammonlab.draw.svg.board` of an action).
    """

    kind: str
    player: int
    state: GameState
    dice: tuple[int, int] | None = None
    play: Play | None = None
    written: str | None = None
    cube: int | None = None
    points: int | None = None
    claimed_points: int | None = None
    resign_level: int | None = None
    match_won: bool = False
    n_legal: int | None = None
    location: Any = field(default=None, compare=False, repr=False)
    analysis: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    players: tuple[str, str] | None = field(default=None, compare=False, repr=False)

    def __init__(
        self,
        kind: str,
        player: int,
        state: GameState | tuple[Any, ...],
        dice: tuple[int, int] | None = None,
        play: Play | None = None,
        written: str | None = None,
        cube: int | None = None,
        points: int | None = None,
        claimed_points: int | None = None,
        resign_level: int | None = None,
        match_won: bool = False,
        n_legal: int | None = None,
        location: Any = None,
        analysis: dict[str, Any] | None = None,
        players: tuple[str, str] | None = None,
    ) -> None:
        # a frozen dataclass's fields, written straight into its dict: a transcript
        # builds one per action. A replay gives the state's checked fields
        # (gammonlab.state.state_fields), and the state is built when it is first asked
        # for (__getattr__).
        fields = self.__dict__
        fields["kind"] = kind
        fields["player"] = player
        fields["_state_fields" if type(state) is tuple else "state"] = state
        fields["dice"] = dice
        fields["play"] = play
        fields["written"] = written
        fields["cube"] = cube
        fields["points"] = points
        fields["claimed_points"] = claimed_points
        fields["resign_level"] = resign_level
        fields["match_won"] = match_won
        fields["n_legal"] = n_legal
        fields["location"] = location
        fields["analysis"] = analysis
        fields["players"] = players

    def __getattr__(self, name: str) -> Any:
        # only for what the instance's dict lacks: a state given as its fields
        if name == "state":
            found = self.__dict__.get("_state_fields")
            if found is not None:
                state = GameState.from_fields(found)
                self.__dict__["state"] = state
                self.__dict__.pop("_state_fields", None)
                return state
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _repr_svg_(self) -> str:
        from ..draw.svg import board

        return str(board(self))


@dataclass(frozen=True)
class Game:
    """One game, replayed.

    Attributes
    ----------
    number : int
        The game's number in its transcript (``Game 3``, an SGF ``MI[game:2]``), so that a
        game keeps it when a game before it could not be read; one more than the game
        before where the transcript's number does not follow it. Games of a match are
        numbered in increasing order, from 1 where the transcript starts with game 1.
    score : tuple of int
        Points of player 0 and player 1 before the game.
    crawford : bool
        This is the Crawford game (R10.2).
    actions : tuple of Action
    winner : int or None
        ``None`` when the game is unfinished.
    points : int or None
        Points won, after the cube; ``None`` when unfinished or when the
        transcript's result cannot be true.
    ending : str or None
        ``single``, ``gammon``, ``backgammon``, ``drop`` or ``resign``.
    cube_value : int
        The cube at the end.
    final_state : GameState
        The state after the last action.
    problems : tuple of ParseError
        What the replay found wrong with this game (collect mode).
    start_cube : int
        The cube when play began: above 1 when GNU Backgammon's automatic
        doubles (R10.5) turned it on equal opening rolls.
    """

    number: int
    score: tuple[int, int]
    crawford: bool
    actions: tuple[Action, ...]
    winner: int | None
    points: int | None
    ending: str | None
    cube_value: int
    final_state: GameState
    problems: tuple[ParseError, ...] = ()
    start_cube: int = 1

    @property
    def complete(self) -> bool:
        """True when the game was played to its end."""
        return self.winner is not None

    @property
    def moves(self) -> int:
        """Number of rolls played (dances included)."""
        return sum(1 for a in self.actions if a.kind == "move")


@dataclass(frozen=True)
class Match:
    """A match or money session, replayed through the rules.

    Attributes
    ----------
    players : tuple of str
        Player 0 (the transcript's first, left player) and player 1.
    rules : Rules
        Variant, match length (0 = money) and cube options.
    games : tuple of Game
        The games that replayed; see :attr:`problems` for the others.
    metadata : dict of str to str
        Header tags (``Event``, ``Round``, ``Site``, ``EventDate``, ...).
    source : str or None
        The file it was read from.
    format : str or None
        ``mat`` or ``sgf``.
    problems : tuple of ParseError
        Everything that was skipped or flagged (``errors="collect"``).
    """

    players: tuple[str, str]
    rules: Rules
    games: tuple[Game, ...]
    metadata: dict[str, str] = field(default_factory=dict)
    source: str | None = None
    format: str | None = None
    ratings: tuple[str | None, str | None] = (None, None)
    problems: tuple[ParseError, ...] = ()

    @property
    def match_length(self) -> int:
        """Points to win; 0 is money play."""
        return self.rules.match_length

    @property
    def variant(self) -> Variant:
        return self.rules.variant

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last finished game."""
        if not self.games:
            return (0, 0)
        last = self.games[-1]
        s0, s1 = last.score
        if last.winner is not None and last.points is not None:
            if last.winner == 0:
                s0 += last.points
            else:
                s1 += last.points
        return (s0, s1)

    @property
    def winner(self) -> int | None:
        """The player who won the match, ``None`` in money play or when unfinished."""
        if self.match_length == 0:
            return None
        for player, points in enumerate(self.score):
            if points >= self.match_length:
                return player
        return None

    @property
    def actions(self) -> list[Action]:
        return [action for game in self.games for action in game.actions]

    @property
    def final_state(self) -> GameState | None:
        """The state after the last action of the last game."""
        return self.games[-1].final_state if self.games else None

    def to_frame(self) -> pd.DataFrame:
        """One row per action, in order.

        Columns
        -------
        game : int
            1-based game number.
        action_index : int
            0-based index of the action within its game.
        player : int
            0 or 1; 0 is the first (left) player of the transcript.
        player_name : str
        action : category
            ``move``, ``double``, ``take``, ``drop``, ``beaver``, ``raccoon``,
            ``resign``, ``accept``, ``reject``, ``win``.
        die1, die2 : Int8
            The roll of a move (transcript order), else missing.
        play : string
            Canonical notation of the play (``24/18 13/11*``); empty for a roll
            that cannot be played; missing for other actions. An Acey-Deucey 1-2
            names its doubles (``in/23 in/24 then 6-6: in/19(4)``, R11.2).
        position_id : string
            GNU Backgammon's Position ID before the action, seen from the player
            on roll (for a take, drop or beaver: the doubler), as GNU
            Backgammon writes it. Missing for an Acey-Deucey position with
            checkers still waiting to enter: the ID cannot tell them from
            checkers borne off (R2.4).
        match_id : string
            GNU Backgammon's Match ID before the action; for a move it includes
            the dice.
        pips, opp_pips : int
            Pip counts of the acting player and the opponent before the action.
        cube_value : int
            The cube before the action.
        cube_owner : Int8
            The player owning the cube, missing while centred.
        score, opp_score : int
            The acting player's and the opponent's points before the game.
        match_length : int
            0 in money play.
        crawford : bool
            The game is the Crawford game.
        hits : Int8
            Blots hit by a move.
        n_legal : Int16
            Number of legal plays for the roll of a move.
        cube : Int32
            The value offered by a double, beaver or raccoon.
        points : Int32
            For ``win``: points won after the cube.

        When the file carries GNU Backgammon's analysis (an analysed ``.sgf``):
        ``gnubg_best_play``, ``gnubg_best_equity``, ``gnubg_played_equity``,
        ``gnubg_equity_loss`` (checker play, the engine's equities for the
        mover), ``gnubg_no_double``, ``gnubg_double_take`` (the cube decision
        before the roll: cubeful equity, or match winning chance in a match)
        and ``gnubg_luck``.

        Each row's :class:`Action` (``match.actions``) keeps where the transcript
        writes it (``action.location``).
        """
        from .frames import actions_frame

        return actions_frame(self)

    def games_frame(self) -> pd.DataFrame:
        """One row per game: ``game``, ``player0_name``, ``player1_name``,
        ``match_length``, ``score0``, ``score1`` (before the game), ``crawford``,
        ``winner``, ``winner_name``, ``points`` (won, after the cube), ``ending``
        (single, gammon, backgammon, drop, resign), ``cube_value`` (final),
        ``moves`` (rolls played), ``actions``, ``complete``, ``start_cube`` (the
        cube when play began: above 1 after GNU Backgammon's automatic doubles,
        R10.5)."""
        from .frames import games_frame

        return games_frame(self)

    def __repr__(self) -> str:
        length = "money" if self.match_length == 0 else f"{self.match_length}-point match"
        return (
            f"<Match {self.players[0]} vs {self.players[1]}, {length}, "
            f"{len(self.games)} games, score {self.score[0]}-{self.score[1]}>"
        )

    def _repr_html_(self) -> str:
        from html import escape

        length = "money session" if self.match_length == 0 else f"{self.match_length}-point match"
        rows = "".join(
            f"<tr><td>{g.number}</td><td>{g.score[0]}-{g.score[1]}</td>"
            f"<td>{escape(self.players[g.winner]) if g.winner is not None else '-'}</td>"
            f"<td>{'' if g.points is None else g.points}</td><td>{g.ending or 'unfinished'}</td>"
            f"<td>{g.cube_value}</td><td>{g.moves}</td></tr>"
            for g in self.games
        )
        problems = (
            f"<p>{len(self.problems)} problem(s); see <code>.problems</code></p>"
            if self.problems
            else ""
        )
        text = (
            f"<div><b>{escape(self.players[0])} vs {escape(self.players[1])}</b>, {length}, "
            f"final score {self.score[0]}-{self.score[1]}"
            f"<table><tr><th>game</th><th>score</th><th>winner</th><th>points</th>"
            f"<th>ending</th><th>cube</th><th>rolls</th></tr>{rows}</table>{problems}</div>"
        )
        if self.final_state is None:
            return text
        from ..draw.svg import beside

        return beside(self.final_state, text)
