"""Acey-Deucey rollout kernels (R2.4, R11): whole games, lockstep plies, scoring.

The counterparts of :mod:`gammonlab._kernels.rollout` for a variant whose
checkers start off the board. Boards are the same int8 ``(2, 26)`` arrays,
row 0 on roll; a side's checkers not yet entered stand nowhere on the board:
there are ``checkers - row.sum()`` of them (the borne-off column included).
Legal plays come from :func:`gammonlab._kernels.acey.acey_plays` (entering
from off the board, R11.1) and, on the roll 1-2,
:func:`gammonlab._kernels.acey.acey_deucey_plays` (R11.2).

What differs from the other variants
------------------------------------
- **The roll 1-2.** The mover plays the 1 and the 2 and then the doubles of its
  choice: the policy picks the best resulting position over every 1-2 play
  with each of the six doubles. When all six moves were played the same side
  rolls again (R11.2; a 1-2 or doubles that cannot be played in full end the
  turn, as :func:`~gammonlab._kernels.acey.acey_deucey_plays` documents). So
  the side on roll does not alternate with the ply: it is tracked (``side``,
  0 for the root's side on roll, 1 for its opponent), and a ply is one play,
  a roll again making two plays of one side in a row.
- **Bearing off** only with every checker home and none waiting to enter
  (R7.1), which the move generator enforces.
- **The end** (R8.1, R8.2): a side wins when its ``checkers`` are all borne
  off (not when none is left on the board: at the start none is). The loser
  is gammoned when it has borne off none; backgammoned when, besides, it still
  has a checker on the bar, in the winner's home board, or **waiting to
  enter**: such a checker is further back than the bar, since it still has to
  enter into the winner's home board (R11.1). Under seed 000's scoring (R8.4)
  the loser pays 4 with a checker on the bar or waiting to enter (it stands
  where a checker on the bar stands: it must enter first, R6.4, R11.1), 2
  with one outside its home board, else 1.
- **Policies and evaluators** see checkers waiting to enter on the bar
  (:func:`waiting_on_bar`): they enter into the opponent's home board exactly
  as checkers on the bar do (R6.4, R11.1), and pubeval and GNU Backgammon's
  nets know nothing else. With them there, a side that still has checkers to
  enter is in contact, so race weights and race or bear-off shortcuts are
  never used for it.

Dice and results follow :mod:`gammonlab._kernels.rollout`: the first roll not
known is the rotated one, later rolls come from the trial's dice stream, and
results are written for the root's side.

>>> import numpy as np
>>> from gammonlab._kernels.rng import seed_key
>>> log = np.zeros((4000, LOG_FIELDS), dtype=np.int64)
>>> log_boards = np.zeros((4000, 2, 26), dtype=np.int8)
>>> outcome, plies, side = play_acey_game(np.zeros((2, 26), dtype=np.int8), 0, 0, 0,
...                                       seed_key(1), 0, True, 15, log, log_boards)
>>> int(log_boards[plies - 1, side ^ 1, 0])  # the winner moved last: all 15 off
15
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .acey import ACEY_DEUCEY_MOVES, acey_deucey_plays, acey_plays
from .pubeval import pubeval_best, pubeval_is_race
from .rng import CHOICE, DICE, ROLLS, draw_below, roll_index, stream_key
from .rollout import (
    END_BACKGAMMON,
    END_GAMMON,
    END_SINGLE,
    END_TRUNCATED,
    MAX_PLIES,
    RANDOM,
    SEED_000,
    STANDARD,
    next_roll,
)

__all__ = [
    "LOG_AGAIN",
    "LOG_DIE1",
    "LOG_DIE2",
    "LOG_FIELDS",
    "LOG_MOVES",
    "LOG_SIDE",
    "acey_begin_ply",
    "acey_finish_ply",
    "acey_points",
    "acey_terminal_values",
    "play_acey_game",
    "play_acey_trials",
    "waiting_on_bar",
]

OFF = 0
BAR = 25
HOME = 6
_POINTS = 24
_WINNER_HOME_LOW = _POINTS - HOME + 1  # the winner's home board is the loser's points 19-24
_PLAYING = 0
_MAPPED_CAPACITY = 256

# Columns of a game log (:func:`play_acey_game`), one row per play.
LOG_SIDE = 0
"""The side that rolled: 0 the root's side on roll, 1 its opponent."""
LOG_DIE1 = 1
LOG_DIE2 = 2
LOG_MOVES = 3
"""Checker moves played (0 when the roll could not be played, R5.5; 6 for a full 1-2)."""
LOG_AGAIN = 4
"""1 when the play earned a roll again (R11.2)."""
LOG_FIELDS = 5


@njit(cache=True, nogil=True)
def acey_points(board, checkers, scoring=STANDARD):
    """The class of the game if row 0 has borne off all its ``checkers`` (R8.1), else 0.

    Under R8.2 (``scoring`` :data:`~gammonlab._kernels.rollout.STANDARD`) the
    class is the points: 1 single; 2 gammon (the loser has borne off none); 3
    backgammon (none off and a checker on the bar, in the winner's home board or
    still waiting to enter, R8.2, R11.1). Under R8.4
    (:data:`~gammonlab._kernels.rollout.SEED_000`): 3 for 4 points (a checker
    on the bar or waiting to enter), 2 for 2 points (one outside the loser's
    home board, points 7-24), else 1.
    """
    if board[0, OFF] < checkers:
        return 0
    if scoring == SEED_000:
        placed = 0
        for col in range(26):
            placed += board[1, col]
        if placed < checkers or board[1, BAR] > 0:
            return END_BACKGAMMON
        for col in range(HOME + 1, BAR):
            if board[1, col] > 0:
                return END_GAMMON
        return END_SINGLE
    if board[1, OFF] > 0:
        return END_SINGLE
    placed = 0
    for col in range(26):
        placed += board[1, col]
    if placed < checkers:
        return END_BACKGAMMON  # checkers still waiting to enter
    for col in range(_WINNER_HOME_LOW, BAR + 1):
        if board[1, col] > 0:
            return END_BACKGAMMON
    return END_GAMMON


@njit(cache=True, nogil=True)
def acey_terminal_values(candidates, checkers, scoring=STANDARD):
    """:func:`acey_points` of each candidate board ``(n, 2, 26)`` (int8 array)."""
    n = candidates.shape[0]
    out = np.zeros(n, dtype=np.int8)
    for c in range(n):
        out[c] = acey_points(candidates[c], checkers, scoring)
    return out


@njit(cache=True, nogil=True)
def _map_to_bar(source, target, checkers):
    # one board: each side's waiting checkers added to its bar
    for side in range(2):
        placed = 0
        for col in range(26):
            target[side, col] = source[side, col]
            placed += source[side, col]
        target[side, BAR] += checkers - placed


@njit(cache=True, nogil=True)
def waiting_on_bar(boards, checkers):
    """Boards ``(n, 2, 26)`` with each side's checkers waiting to enter put on its bar.

    What policies and evaluators see (they enter as checkers on the bar do,
    R6.4, R11.1): a new array, every side with exactly ``checkers``.

    >>> import numpy as np
    >>> waiting_on_bar(np.zeros((1, 2, 26), dtype=np.int8), 15)[0, :, 25].tolist()
    [15, 15]
    """
    out = np.empty_like(boards)
    for i in range(boards.shape[0]):
        _map_to_bar(boards[i], out[i], checkers)
    return out


@njit(cache=True, nogil=True)
def _swap(board):
    for col in range(26):
        held = board[0, col]
        board[0, col] = board[1, col]
        board[1, col] = held


@njit(cache=True, nogil=True)
def _legal(board, d1, d2, checkers):
    """Candidates, their moves and whether each earns a roll again (R11.2)."""
    if d1 + d2 == 3 and d1 != d2:  # 1-2 or 2-1: acey-deucey
        boards, moves, _doubles = acey_deucey_plays(board, checkers)
        n = boards.shape[0]
        again = np.zeros(n, dtype=np.bool_)
        for c in range(n):
            again[c] = moves[c, ACEY_DEUCEY_MOVES - 1, 0] >= 0
        return boards, moves, again
    boards, moves = acey_plays(board, d1, d2, checkers)
    return boards, moves, np.zeros(boards.shape[0], dtype=np.bool_)


@njit(cache=True, nogil=True)
def play_acey_game(board, die1, die2, policy, key, trial, rotate, checkers, log, log_boards):
    """Play trial ``trial`` of one game from ``board`` to its end, in place.

    The game loop of :func:`play_acey_trials`, which calls it with empty logs;
    it is public to check games play by play.

    Parameters
    ----------
    board : int8 array (2, 26)
        The root, row 0 on roll; overwritten with the last position, seen from
        the side on roll (which matters only for a truncated game).
    die1, die2 : int
        The root's dice, or 0, 0.
    policy : int
        :data:`~gammonlab._kernels.rollout.RANDOM` or
        :data:`~gammonlab._kernels.rollout.PUBEVAL`.
    key : uint64
        The seed key.
    trial : int
        The trial number: its dice and choices come from its own streams.
    rotate : bool
        The first unknown roll is ``trial % 36``.
    checkers : int
        Checkers a side owns.
    log, log_boards : arrays (L, LOG_FIELDS) int64 and (L, 2, 26) int8
        Written for the first ``L`` plays: the ``LOG_*`` columns, and the
        board after the play with row 0 the root's side. ``L = 0``: no log.

    Returns
    -------
    outcome : int
        ``END_SINGLE``, ``END_GAMMON``, ``END_BACKGAMMON``, ``END_TRUNCATED``
        (never here: see :func:`play_acey_trials`), or -1 when the game did not
        end within ``MAX_PLIES`` plays.
    plies : int
        Plays made, passes included.
    side : int
        The side on roll after the last play (0 the root's side); after the
        winning play, the loser.
    """
    first_roll = 0
    dice_base = stream_key(key, trial, DICE)
    dice_counter = 0
    if rotate:
        first_roll = trial % ROLLS
    else:
        first_roll, dice_counter = roll_index(dice_base, dice_counter)
    outcome, plies, side, _ = _game(board, die1, die2, policy, key, trial, first_roll,
                                    dice_counter, -1, checkers, log, log_boards, STANDARD)
    return outcome, plies, side


@njit(cache=True, nogil=True)
def _game(board, die1, die2, policy, key, trial, first_roll, dice_counter, truncate, checkers,
          log, log_boards, scoring):
    """The game loop: returns ``(outcome, plies, side on roll, winner)``; winner -1
    unless the game ended (R8.1). Truncation after ``truncate`` plays (-1 never);
    the outcome's class by ``scoring`` (:func:`acey_points`)."""
    dice_base = stream_key(key, trial, DICE)
    choice_base = stream_key(key, trial, CHOICE)
    choice_counter = 0
    free_ply = 1 if die1 > 0 else 0  # ply of the rotated roll
    mapped = np.empty((_MAPPED_CAPACITY, 2, 26), dtype=np.int8)
    before = np.empty((2, 26), dtype=np.int8)
    side = 0
    ply = 0
    while True:
        if ply >= free_ply and ply == truncate:
            return END_TRUNCATED, ply, side, -1
        if ply > MAX_PLIES:
            return -1, ply, side, -1
        if ply < free_ply:
            d1 = die1
            d2 = die2
        elif ply == free_ply:
            d1 = first_roll // 6 + 1
            d2 = first_roll % 6 + 1
        else:
            roll, dice_counter = roll_index(dice_base, dice_counter)
            d1 = roll // 6 + 1
            d2 = roll % 6 + 1
        # -- the legal plays (R4-R7, R11); none: the turn is lost (R5.5)
        candidates, moves, again = _legal(board, d1, d2, checkers)
        n = candidates.shape[0]
        roller = side
        chosen = -1
        if n == 1:
            chosen = 0
        elif n > 1:
            if policy == RANDOM:
                chosen, choice_counter = draw_below(choice_base, choice_counter, n)
            else:
                # pubeval sees waiting checkers on the bar; its weights follow the
                # position before the play, a contact one while any checker waits
                if mapped.shape[0] < n:
                    mapped = np.empty((max(n, 2 * mapped.shape[0]), 2, 26), dtype=np.int8)
                _map_to_bar(board, before, checkers)
                for c in range(n):
                    _map_to_bar(candidates[c], mapped[c], checkers)
                chosen = pubeval_best(mapped[:n], 1 if pubeval_is_race(before) else 0)
        points = 0
        earned = False
        if chosen >= 0:
            for s in range(2):
                for col in range(26):
                    board[s, col] = candidates[chosen, s, col]
            points = acey_points(board, checkers, scoring)
            earned = again[chosen] and points == 0
        if not earned:
            _swap(board)
            side ^= 1
        if ply < log.shape[0]:
            log[ply, LOG_SIDE] = roller
            log[ply, LOG_DIE1] = d1
            log[ply, LOG_DIE2] = d2
            played = 0
            if chosen >= 0:
                for m in range(moves.shape[1]):
                    if moves[chosen, m, 0] >= 0:
                        played += 1
            log[ply, LOG_MOVES] = played
            log[ply, LOG_AGAIN] = 1 if earned else 0
            root_row = 0 if side == 0 else 1  # board row of the root's side now
            for col in range(26):
                log_boards[ply, 0, col] = board[root_row, col]
                log_boards[ply, 1, col] = board[1 - root_row, col]
        ply += 1
        if points > 0:
            return points, ply, side, roller


@njit(cache=True, nogil=True)
def play_acey_trials(roots, die1, die2, policy, key, first_trial, rotate, truncate, checkers,
                     probs, plies, end, rolled, boards, side, scoring=STANDARD):
    """Play trials ``first_trial .. first_trial + n - 1`` of Acey-Deucey from every root.

    :func:`gammonlab._kernels.rollout.play_trials` for Acey-Deucey (no bear-off
    database: the 1-2 roll changes the bear-off too, R11.2). Parameters and
    outputs as there, plus ``checkers`` and ``side`` (``(k, n)`` int8: the
    side on roll at the end, 1 when it is the root's opponent, so that a
    truncated game's board, written from the side on roll, is scored from the
    right side), and ``scoring`` (:func:`acey_points`). ``start_ply`` is always 0.

    Returns
    -------
    int
        0, or the trial number of a game that passed ``MAX_PLIES`` plays plus one.
    """
    n_trials = rolled.shape[0]
    board = np.empty((2, 26), dtype=np.int8)
    no_log = np.zeros((0, 5), dtype=np.int64)
    no_log_boards = np.zeros((0, 2, 26), dtype=np.int8)
    for r in range(roots.shape[0]):
        for i in range(n_trials):
            trial = first_trial + i
            dice_counter = 0
            if rotate:
                first_roll = trial % ROLLS
            else:
                first_roll, dice_counter = roll_index(stream_key(key, trial, DICE), 0)
            rolled[i] = first_roll
            for s in range(2):
                for col in range(26):
                    board[s, col] = roots[r, s, col]
            outcome, ply, on_roll, winner = _game(board, die1, die2, policy, key, trial,
                                                  first_roll, dice_counter, truncate, checkers,
                                                  no_log, no_log_boards, scoring)
            if outcome < 0:
                return trial + 1
            for j in range(5):
                probs[r, i, j] = 0.0
            if outcome == END_TRUNCATED:
                for s in range(2):
                    for col in range(26):
                        boards[r, i, s, col] = board[s, col]
                for j in range(5):
                    probs[r, i, j] = np.nan
            elif winner == 0:
                probs[r, i, 0] = 1.0
                probs[r, i, 1] = 1.0 if outcome >= END_GAMMON else 0.0
                probs[r, i, 2] = 1.0 if outcome == END_BACKGAMMON else 0.0
            else:
                probs[r, i, 3] = 1.0 if outcome >= END_GAMMON else 0.0
                probs[r, i, 4] = 1.0 if outcome == END_BACKGAMMON else 0.0
            plies[r, i] = ply
            end[r, i] = outcome
            side[r, i] = on_roll
    return 0


# -- lockstep play: games advanced one ply at a time around an evaluator call ----------------


@njit(cache=True, nogil=True)
def acey_begin_ply(games, trial, ply, die1, die2, key, rotate, truncate, checkers,
                   dice_counter, boards, end, rolled, dice):
    """Start one ply of every live Acey-Deucey game in lockstep play.

    :func:`gammonlab._kernels.rollout.begin_ply` without the bear-off finish,
    always generating the plays (with :mod:`gammonlab._kernels.acey`).

    Returns
    -------
    offsets : int64 (len(games) + 1,)
        Plays of ``games[g]`` are rows ``offsets[g]:offsets[g + 1]``.
    candidates : int8 (total, 2, 26)
        The resulting boards, seen from the mover.
    again : bool (total,)
        Whether the play earns a roll again (a full 1-2, R11.2).
    """
    n_games = games.shape[0]
    offsets = np.zeros(n_games + 1, dtype=np.int64)
    total_capacity = max(64, n_games * 32)
    candidates = np.empty((total_capacity, 2, 26), dtype=np.int8)
    again = np.empty(total_capacity, dtype=np.bool_)
    free_ply = 1 if die1 > 0 else 0
    total = 0
    for g in range(n_games):
        game = games[g]
        p = ply[game]
        dice[game, 0] = 0
        dice[game, 1] = 0
        d1 = die1
        d2 = die2
        if p >= free_ply:
            roll = next_roll(trial, dice_counter, game, p, free_ply, key, rotate, rolled)
            d1 = roll // 6 + 1
            d2 = roll % 6 + 1
            if p == truncate:
                end[game] = END_TRUNCATED
                offsets[g + 1] = total
                continue
        if p > MAX_PLIES:
            end[game] = -1
            offsets[g + 1] = total
            continue
        dice[game, 0] = d1
        dice[game, 1] = d2
        found, _moves, earns = _legal(boards[game], d1, d2, checkers)
        n = found.shape[0]
        if total + n > total_capacity:
            grown_capacity = max(2 * total_capacity, total + n)
            grown = np.empty((grown_capacity, 2, 26), dtype=np.int8)
            grown[:total] = candidates[:total]
            candidates = grown
            grown_again = np.empty(grown_capacity, dtype=np.bool_)
            grown_again[:total] = again[:total]
            again = grown_again
            total_capacity = grown_capacity
        candidates[total:total + n] = found
        again[total:total + n] = earns
        total += n
        offsets[g + 1] = total
    return offsets, candidates[:total], again[:total]


@njit(cache=True, nogil=True)
def acey_finish_ply(games, chosen, candidates, again, checkers, ply, side, boards, probs, end,
                    scoring=STANDARD):
    """Play each live game's chosen candidate (-1: no legal play, R5.5), keep the
    mover on roll after a full 1-2 (R11.2), and score finished games (R8.1;
    R8.2 or R8.4 by ``scoring``). ``side[game]`` is the side on roll, 0 the root's."""
    for g in range(games.shape[0]):
        game = games[g]
        c = chosen[g]
        ply[game] += 1
        if c < 0:
            _swap(boards[game])
            side[game] ^= 1
            continue
        points = acey_points(candidates[c], checkers, scoring)
        if points > 0:
            for j in range(5):
                probs[game, j] = 0.0
            if side[game] == 0:
                probs[game, 0] = 1.0
                probs[game, 1] = 1.0 if points >= END_GAMMON else 0.0
                probs[game, 2] = 1.0 if points == END_BACKGAMMON else 0.0
            else:
                probs[game, 3] = 1.0 if points >= END_GAMMON else 0.0
                probs[game, 4] = 1.0 if points == END_BACKGAMMON else 0.0
            end[game] = points
        for s in range(2):
            for col in range(26):
                boards[game, s, col] = candidates[c, s, col]
        if not again[c] or points > 0:
            _swap(boards[game])
            side[game] ^= 1
