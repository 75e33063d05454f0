"""Simulated matches: two policies play a whole match or money session.

:func:`play_match` rolls the dice, lets each player's policy choose its plays
and cube actions, and plays every action, as a transcript's raw record (the
same :class:`~gammonlab.io.raw.RawAction` a reader gives), through the game
state machine of :func:`~gammonlab.match.replay_match`, so the rules engine
checks every step. The result is a :class:`~gammonlab.match.Match` like one read
from a file: it can be written (:func:`gammonlab.write_match`), framed and
plotted.

>>> from gammonlab import Rules
>>> match = play_match(rules=Rules(match_length=3), seed=1)
>>> match.winner in (0, 1), max(match.score) >= 3
(True, True)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..cube import cube_decision
from ..errors import ArgumentTypeError, OptionError
from ..evaluators.base import Policy, RandomPolicy, get_evaluator, waiting_on_bar
from ..io.raw import Location, RawAction
from ..io.tags import mat_headers
from ..play import Play
from ..rules import HIGHEST_CUBE, MAX_MATCH_LENGTH, Rules
from .model import Game, Match
from .replay import _add, _crawford_game, _Replay

__all__ = ["play_match"]

_DIE_FACES = 6
_WHERE = Location("simulation", 0, 0, "")


def _roll(rng: np.random.Generator) -> tuple[int, int]:
    first, second = rng.integers(1, _DIE_FACES + 1, size=2)
    return int(first), int(second)


def _opening(rules: Rules, rng: np.random.Generator) -> tuple[int, tuple[int, int], int]:
    """R3.1: each player rolls one die, ties roll again; R3.2: the higher plays
    both numbers, or R3.3 (``opening='reroll'``) rolls both dice afresh.

    Returns the opening player, the first roll and the number of tied rolls."""
    ties = 0
    while True:
        die0, die1 = _roll(rng)
        if die0 != die1:
            break
        ties += 1
    opener = 0 if die0 > die1 else 1
    if rules.opening == "reroll":
        return opener, _roll(rng), ties
    return opener, (max(die0, die1), min(die0, die1)), ties


def _start_cube(rules: Rules, ties: int) -> int:
    """R10.5: each tied opening roll turns the cube, up to ``auto_double_limit``
    automatic doubles (0: no limit) and the cube limit."""
    cube = 1
    if rules.auto_doubles != "gnubg" or not rules.cube:
        return cube
    highest = min(rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
    limit = rules.auto_double_limit
    for done in range(ties):
        if (limit and done >= limit) or 2 * cube > highest:
            break
        cube *= 2
    return cube


class _Player:
    """A policy at the table: chooses plays, and cube actions when it evaluates."""

    def __init__(self, policy: Any, rng: np.random.Generator) -> None:
        self.policy: Policy = get_evaluator(policy)
        self.rng = rng
        self.random = isinstance(self.policy, RandomPolicy)

    def choose(self, replay: _Replay, dice: tuple[int, int]) -> tuple[Play, int] | None:
        """The chosen play and the number of legal plays; ``None`` when no number
        can be played (R5.5)."""
        position = replay.position
        legal = position.legal_plays(dice)
        if len(legal) == 0 or not legal[0].moves:
            return None
        if len(legal) == 1:
            index = 0
        elif self.random:
            index = int(self.rng.integers(len(legal)))
        else:
            board, boards = position.board, legal.boards
            if position.variant.enter_from_off:
                board = waiting_on_bar(board, position.variant.checkers)
                boards = waiting_on_bar(boards, position.variant.checkers)
            scores = np.asarray(self.policy.scores(board, boards))
            index = int(np.argmax(scores))
        return legal[index], len(legal)

    def decision(self, replay: _Replay, doubler: int) -> Any:
        """GNU Backgammon-style cube decision of ``doubler``'s position, or ``None``
        when the policy gives no probabilities."""
        if not self.policy.evaluates:
            return None
        return cube_decision(replay.game_state(doubler), evaluator=self.policy)


def _may_double(replay: _Replay, player: int, rules: Rules) -> bool:
    """The cube rules (R9.3, R9.5, R10.2, R10.3, cube limit) allow ``player`` to double."""
    if replay.double_refusal(player) is not None or 2 * replay.cube > HIGHEST_CUBE:
        return False
    if not rules.money:
        # a cube beyond what either side needs is of no use to the doubler
        needed = rules.match_length - replay.score[player]
        if replay.cube >= needed:
            return False
    return True


def _apply(replay: _Replay, action: RawAction, resolved: tuple[Play, int] | None = None) -> None:
    """Play an action through the game's state machine."""
    if resolved is not None:
        replay.move(action, None, resolved)
    else:
        replay.apply(action, None)


def _cube_turn(replay: _Replay, seats: Sequence[_Player], player: int, rules: Rules) -> None:
    """Before rolling: double when the doubler's evaluator says so; the taker
    answers by its own evaluator (take when it has none); after a beaver the
    doubler raccoons when the rules allow it and its evaluator still gives it
    the better game."""
    if not _may_double(replay, player, rules):
        return
    decision = seats[player].decision(replay, player)
    if decision is None or decision.action != "Double":
        return
    taker = 1 - player
    same = seats[taker].policy is seats[player].policy
    answer = decision if same else seats[taker].decision(replay, player)
    response = "take" if answer is None else (answer.response or "take")
    highest = min(rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
    _apply(replay, RawAction(player=player, kind="double", cube=2 * replay.cube, loc=_WHERE))
    if response == "pass":
        _apply(replay, RawAction(player=taker, kind="drop", loc=_WHERE))
    elif response == "beaver" and rules.money and rules.beavers and 4 * replay.cube <= highest:
        _apply(replay, RawAction(player=taker, kind="beaver", cube=4 * replay.cube, loc=_WHERE))
        # the cube now shows the double; the beaver offers twice that (R10.6)
        if (
            rules.raccoons
            and 4 * replay.cube <= highest
            and decision.double_beaver is not None
            and decision.double_beaver > 0
        ):
            _apply(
                replay, RawAction(player=player, kind="raccoon", cube=4 * replay.cube, loc=_WHERE)
            )
            _apply(replay, RawAction(player=taker, kind="take", loc=_WHERE))
        else:
            _apply(replay, RawAction(player=player, kind="take", loc=_WHERE))
    else:
        _apply(replay, RawAction(player=taker, kind="take", loc=_WHERE))


def _play_game(
    rules: Rules,
    score: tuple[int, int],
    crawford: bool,
    names: tuple[str, str],
    seats: Sequence[_Player],
    rng: np.random.Generator,
    cube: bool,
) -> _Replay:
    """One game from the opening roll to its end; the state machine holds it."""
    player, dice, ties = _opening(rules, rng)
    start_cube = _start_cube(rules, ties)
    replay = _Replay(rules, score, crawford, names, stated_rules=True, cube=start_cube)
    first = True
    while replay.winner is None:
        if not first:
            if cube:
                _cube_turn(replay, seats, player, rules)
                if replay.winner is not None:
                    break
            dice = _roll(rng)
        first = False
        chosen = seats[player].choose(replay, dice)
        play = "" if chosen is None else chosen[0].notation
        _apply(
            replay, RawAction(player=player, kind="move", dice=dice, play=play, loc=_WHERE), chosen
        )
        if replay.winner is None and replay.on_roll == player:
            # R11.2: an Acey-Deucey 1-2 played in full earns a roll again, before any cube
            dice = _roll(rng)
            first = True
            continue
        player = 1 - player
    assert replay.winner is not None and replay.points is not None
    match_won = not rules.money and score[replay.winner] + replay.points >= rules.match_length
    _apply(
        replay,
        RawAction(
            player=replay.winner, kind="win", points=replay.points, match_won=match_won, loc=_WHERE
        ),
    )
    return replay


def _players_and_rules(
    players: Any, legacy: tuple[Any, ...], rules: Rules | None
) -> tuple[tuple[Any, Any], Rules]:
    """The players and rules of a call, also of the old ``play_match(rules, players)``."""
    if isinstance(players, Rules):
        if rules is not None or len(legacy) > 1:
            raise ArgumentTypeError(
                "play_match takes the players and rules=, not rules twice or more arguments"
            )
        warnings.warn(
            "play_match(rules, players) is deprecated: pass the rules as a keyword, "
            "play_match(players, rules=rules)",
            DeprecationWarning,
            stacklevel=3,
        )
        rules, players = players, legacy[0] if legacy else ("pubeval", "pubeval")
    elif legacy:
        raise ArgumentTypeError(
            f"play_match takes one positional argument (the players), got {1 + len(legacy)}"
        )
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise OptionError(f"rules must be a Rules, got {type(rules).__name__}", option="rules")
    return players, rules


def play_match(
    players: tuple[Any, Any] = ("pubeval", "pubeval"),
    *legacy: Any,
    rules: Rules | None = None,
    seed: int | np.random.Generator | None = None,
    games: int | None = None,
    names: tuple[str, str] = ("Player 0", "Player 1"),
    cube: bool = True,
) -> Match:
    """Play a whole match (to ``rules.match_length``) or a money session.

    Every roll, play and cube action goes through the game state machine of
    :func:`~gammonlab.match.replay_match` under ``rules``, so the rules engine
    checks each step: the opening (R3.1-R3.3), legal plays (R4-R7; Acey-Deucey's
    entries and its 1-2 with a roll again, R11), the cube (R9, the cube limit
    R9.6), Jacoby (R10.1), Crawford (R10.2), Holland (R10.3), automatic doubles
    (seed 000's R10.4, GNU Backgammon's R10.5: each tied opening roll turns the
    cube, up to ``auto_double_limit``), beavers and raccoons (R10.6) and the
    scoring (R8.2 or seed 000's R8.4).

    Parameters
    ----------
    players : pair of policy names, policies or evaluators
        Player 0's and player 1's policy (see
        :func:`~gammonlab.evaluators.base.get_evaluator`). A policy picks the
        play it scores best; ``'random'`` picks uniformly. In Acey-Deucey an
        evaluator sees a checker waiting to enter as one on the bar.
    rules : Rules, optional
        Keyword only. Variant (standard, nackgammon, nackgammon-004,
        hypergammon-1 to 3, acey-deucey), match length (0 = money) and options;
        the default ``Rules()`` is a money session of standard backgammon.
        The old call ``play_match(rules, players, ...)`` still works and warns.
    seed : int or numpy.random.Generator, optional
        The same seed gives the same match.
    games : int, optional
        Money play: how many games to play (required); the session ends sooner,
        with a warning, once a score passes what a Match ID records
        (:data:`~gammonlab.rules.MAX_MATCH_LENGTH` points: a cube turned again and
        again, by automatic doubles R10.4 say, gets there in a few games). In a
        match, at most this many games (the match may then be unfinished).
    names : pair of str
        The players' names in the transcript.
    cube : bool
        Whether the players use the doubling cube (when ``rules.cube``).

    Returns
    -------
    Match

    Raises
    ------
    OptionError
        Money play without ``games``, or ``games`` below 1.

    Notes
    -----
    Cube decisions come from :func:`~gammonlab.cube.cube_decision` with the
    player's evaluator (0-ply, Janowski's model): a player doubles when the
    verdict's action is ``'Double'``, and the opponent takes, passes or
    beavers by its own evaluator's verdict; facing a beaver, the doubler
    raccoons (when the rules allow it) if its evaluator gives it a positive
    equity after the beaver. A policy that gives no probabilities
    (``'pubeval'``, ``'random'``) never doubles and always takes. Nobody
    resigns. In a match a player does not
    double a cube already worth what it needs.

    Examples
    --------
    >>> from gammonlab import Rules
    >>> money = play_match(("pubeval", "random"), rules=Rules(jacoby=True), games=3, seed=7)
    >>> len(money.games), money.rules.money
    (3, True)
    >>> play_match(rules=Rules(match_length=3), seed=2).score == \\
    ...     play_match(rules=Rules(match_length=3), seed=2).score
    True
    """
    players, rules = _players_and_rules(players, legacy, rules)
    if rules.money and games is None:
        raise OptionError(
            "money play (match_length=0) needs games=, the number of games", option="games"
        )
    if games is not None and games < 1:
        raise OptionError(f"games must be at least 1, got {games}", option="games")
    if not (
        seed is None
        or isinstance(seed, np.random.Generator)
        or (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0)
    ):
        raise OptionError(
            f"seed must be a whole number from 0 or a numpy Generator, got {seed!r}", option="seed"
        )
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    seats = (_Player(players[0], rng), _Player(players[1], rng))
    names = (str(names[0]), str(names[1]))
    games_played: list[Game] = []
    score = (0, 0)
    crawford_done = False
    while True:
        if games is not None and len(games_played) >= games:
            break
        if not rules.money and max(score) >= rules.match_length:
            break
        if max(score) > MAX_MATCH_LENGTH:
            # a money session's score is a tally, each game settled on its own (R8.5), and
            # nothing bounds it; a game's state records the score it starts at, in a Match ID
            warnings.warn(
                f"the money session ends after {len(games_played)} of {games} games: a score "
                f"of {max(score)} is more than a Match ID records ({MAX_MATCH_LENGTH}), "
                f"so no game can start at it",
                stacklevel=2,
            )
            break
        crawford = _crawford_game(rules, score, crawford_done)
        crawford_done = crawford_done or crawford
        replay = _play_game(rules, score, crawford, names, seats, rng, cube)
        assert replay.winner is not None and replay.points is not None
        games_played.append(replay.game(len(games_played) + 1, final_state=replay.final_state()))
        score = _add(score, replay.winner, replay.points)
    return Match(
        players=names,
        rules=rules,
        games=tuple(games_played),
        metadata=mat_headers(rules),
        format="mat",
    )
