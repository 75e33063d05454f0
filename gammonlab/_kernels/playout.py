"""Playouts: whole games in numba, for every variant, from one source.


Boards are ``(2, 26)`` int8 arrays, row 0 on roll (see
:mod:`gammonlab._kernels.board`). A rollout plays trials ``first_trial ..
first_trial + n - 1`` from one or more roots; trial ``t``'s dice come from the
counter-based stream of :mod:`gammonlab._kernels.rng`, so a trial's game does
not depend on which process plays it or on which other trials it is played
with.

Plies and perspective
---------------------
Ply ``p`` is the ``p``-th play after the root position. The root side (the
side on roll at ply 0) is on roll at even plies; every result is written from
its point of view. A root may start at ply 1 (``start_ply``): that is how a
candidate play is rolled out, its resulting position (opponent on roll) being
ply 1 of the game that began with the candidate.

Dice
----
When the root's dice are known (``die1 > 0``), the play at ply 0 uses them.
The first roll that is not known is the *rotated roll*: with ``rotate`` it is
roll ``trial % 36`` (each ordered pair once in every block of 36 trials),
without it it is drawn like the others. Every later roll is drawn from the
trial's dice stream, the ``i``-th unknown roll after the rotated one taking the
stream's next values, so trial ``t`` sees the same later dice from every root
(common random numbers).

Results (one row per trial and root)
------------------------------------
``probs[r, i]``: win, win gammon, win backgammon, lose gammon, lose
backgammon for the root side (GNU Backgammon's order; win includes gammons).
Under seed 000's scoring (``scoring``
:data:`~gammonlab._kernels.outcome.SEED_000`, R8.4) the same columns hold the
classes of that scoring: win, win 2 or more (the loser has a checker
outside its home board), win 4 (a checker on the bar), and their losing
counterparts; :func:`~gammonlab._kernels.outcome.game_class` decides the class
of a finished game.
For a finished game they are 0 or 1; for a game finished by the
bear-off database they are its two-sided probabilities; a truncated game's
board is written to ``boards`` for an evaluator and its row is filled later.
``plies[r, i]``: plays made, passes included. ``end[r, i]``: one of the
``END_*`` codes. ``rolled[i]``: index of the rotated roll (``6 * (die1 - 1) +
die2 - 1``), the stratum of the trial.

Acey-Deucey (R2.4, R11)
-----------------------
The same game loop, compiled with ``acey`` on (:func:`_make_play_trials`), for
a variant whose checkers start off the board; a side's checkers not yet
entered stand nowhere on the board: there are ``checkers - row.sum()`` of them
(the borne-off column included). Legal plays come from
:func:`gammonlab._kernels.acey.acey_legal`.

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
  (:func:`~gammonlab._kernels.acey.waiting_on_bar`): they enter into the
  opponent's home board exactly as checkers on the bar do (R6.4, R11.1), and
  pubeval and GNU Backgammon's nets know nothing else. With them there, a side
  that still has checkers to enter is in contact, so race weights and race or
  bear-off shortcuts are never used for it.

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

from .acey import acey_legal, map_to_bar
from .bearoff import bearoff_best, bearoff_index_row
from .board import ROLLS
from .movegen import GAME_CAPACITY, room, search_all, search_buffers, swap_into, swap_sides
from .net_play import eval_buffers, net_choose
from .outcome import (
    END_BACKGAMMON,
    END_BEAROFF,
    END_GAMMON,
    END_TRUNCATED,
    SEED_000,
    STANDARD,
    acey_points,
    cubeless_equity,
    flipped,
    points_won,
)
from .policy import BEAROFF, NET, RANDOM
from .pubeval import pubeval_best, pubeval_is_race
from .race import bearoff_probabilities, is_pure_bearoff
from .rng import CHOICE, DICE, draw_below, roll_index, stream_key

__all__ = [
    "LOG_AGAIN",
    "LOG_DIE1",
    "LOG_DIE2",
    "LOG_FIELDS",
    "LOG_MOVES",
    "LOG_SIDE",
    "MAX_PLIES",
    "bearoff_result",
    "no_log",
    "play_acey_game",
    "play_acey_trials",
    "play_trials",
]

_PLAYING = 0
_MAPPED_CAPACITY = 256

MAX_PLIES = 20000
"""A game still going after this many plays is reported as an error (none is known)."""

_WIN, _WIN_GAMMON, _WIN_BACKGAMMON, _LOSE_GAMMON, _LOSE_BACKGAMMON = range(5)

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


def no_log() -> tuple[np.ndarray, np.ndarray]:
    """Empty game logs, for the playouts that keep none."""
    return np.zeros((0, LOG_FIELDS), dtype=np.int64), np.zeros((0, 2, 26), dtype=np.int8)


@njit(cache=True, nogil=True)
def bearoff_result(board, rolls, first_off, scoring, flip, out):
    """The database's probabilities of ``board`` (both sides bearing off, row 0 on
    roll) into ``out`` (5), seen from the side on roll or, with ``flip``, from
    its opponent. Under seed 000's scoring (R8.4) the game is single: no contact
    is left, so only the win probability counts."""
    p = bearoff_probabilities(board, rolls, first_off)
    if scoring == SEED_000:
        p = (p[0], 0.0, 0.0, 0.0, 0.0)  # single only (R8.4)
    if flip:
        p = flipped(p)
    for j in range(5):
        out[j] = p[j]


@njit(cache=True, nogil=True)
def _log_play(log, ply, roller, d1, d2, moves, chosen, earned, board, on_roll):
    # one row of a game log ``(rows, boards)`` kept for its first plays: the play
    # made at ``ply``; the board with row 0 the root's side
    rows, log_boards = log
    if ply >= rows.shape[0]:
        return
    rows[ply, LOG_SIDE] = roller
    rows[ply, LOG_DIE1] = d1
    rows[ply, LOG_DIE2] = d2
    played = 0
    if chosen >= 0:
        for m in range(moves.shape[1]):
            if moves[chosen, m, 0] >= 0:
                played += 1
    rows[ply, LOG_MOVES] = played
    rows[ply, LOG_AGAIN] = 1 if earned else 0
    root_row = 0 if on_roll == 0 else 1  # board row of the root's side now
    for col in range(26):
        log_boards[ply, 0, col] = board[root_row, col]
        log_boards[ply, 1, col] = board[1 - root_row, col]


@njit(cache=True, nogil=True)
def _bearoff_choice(candidates, n, rolls, first_off, expected):
    """The candidate (seen from the mover) best for the mover by the two-sided estimate.

    Both sides bear off: the cubeless equity of each result is computed from
    the opponent's side (on roll next) and negated; ties go to the fewer
    expected rolls, then to the higher database index (bearoff_best's rule).
    """
    best = -1
    best_equity = 0.0
    best_expected = 0.0
    best_index = -1
    swapped = np.empty((2, 26), dtype=np.int8)
    for c in range(n):
        swap_into(candidates[c], swapped)
        i = bearoff_index_row(candidates[c, 0])
        if i == 0:
            return c  # every checker off: the game is won
        equity = -cubeless_equity(bearoff_probabilities(swapped, rolls, first_off))
        e = expected[i]
        if (
            best < 0
            or equity > best_equity
            or (
                equity == best_equity
                and (e < best_expected or (e == best_expected and i > best_index))
            )
        ):
            best = c
            best_equity = equity
            best_expected = e
            best_index = i
    return best


def _make_play_trials(acey):
    """The playout kernel, compiled for Acey-Deucey (``acey``) or the other variants.

    ``acey`` is a constant of the compiled function, as ``entering`` is of the
    move generator's search (:func:`gammonlab._kernels.movegen._make_search`):
    numba drops the code behind ``if acey`` (and behind ``if not acey``) from
    the other kernel, which runs as if it were not there.
    """

    def play_trials(
        roots,
        start_ply,
        die1,
        die2,
        policy,
        key,
        first_trial,
        rotate,
        truncate,
        bearoff_finish,
        expected,
        rolls,
        first_off,
        results,
        scoring,
        checkers,
        weights,
        log,
    ):
        """Play trials ``first_trial .. first_trial + n - 1`` from every root, whole games.

        Parameters
        ----------
        roots : int8 array (k, 2, 26)
            Boards to roll out, row 0 on roll at ``start_ply``.
        start_ply : int
            0, or 1 for the position after a candidate play (0 for Acey-Deucey).
        die1, die2 : int
            The root's dice, or 0, 0 when they are still to be rolled.
        policy : int
            :data:`~gammonlab._kernels.policy.RANDOM`, ``PUBEVAL``, ``BEAROFF``
            or ``NET`` (Acey-Deucey: random, or pubeval for the others).
        key : uint64
            The seed key (:func:`gammonlab._kernels.rng.seed_key`).
        rotate : bool
            Rotate the first unknown roll over blocks of 36 trials.
        truncate : int
            Stop after this ply (its board goes to ``boards``); -1 never.
        bearoff_finish : bool
            When both sides bear off, end with the database's probabilities
            (never in Acey-Deucey: the 1-2 roll changes the bear-off too, R11.2).
        expected, rolls, first_off : float64 arrays
            The one-sided bear-off tables.
        results : tuple ``(probs, plies, end, rolled, boards, side)``
            Outputs of shapes ``(k, n, 5)``, ``(k, n)``, ``(k, n)``, ``(n,)``,
            ``(k, n, 2, 26)``, ``(k, n)``; ``n`` is taken from ``rolled``.
            ``side`` (int8) is the side on roll at the end, 1 when it is the
            root's opponent, so that a truncated game's board, written from the
            side on roll, is scored from the right side.
        scoring : int
            :data:`~gammonlab._kernels.outcome.STANDARD` (R8.2) or ``SEED_000``
            (R8.4). Under R8.4 a game finished by the bear-off database is
            single (no contact is left: nobody can be hit, both sides stay
            home), so only its win probability counts.
        checkers : int
            Checkers a side owns (Acey-Deucey; unused by the others).
        weights : tuple of float32 arrays
            The neural evaluator's ``(w1, b1, w2, b2)`` (:mod:`gammonlab._kernels.net`)
            for ``NET``; it plays the highest cubeless equity at 0-ply, for R8.2
            whatever the scoring. Unused by the other policies.
        log : tuple of arrays (L, LOG_FIELDS) int64 and (L, 2, 26) int8
            Acey-Deucey: written for the first ``L`` plays of each game (the
            ``LOG_*`` columns, and the board after the play with row 0 the
            root's side); :func:`no_log` for none.

        Returns
        -------
        int
            0, or the trial number of a game that passed :data:`MAX_PLIES` plays plus one.
        """
        probs, plies, end, rolled, boards, side = results
        n_trials = rolled.shape[0]
        search = search_buffers(GAME_CAPACITY)
        board = search.stack[0]  # the game's position is the search's first level: no copying
        buffers = eval_buffers(weights)
        tables = (rolls, first_off)
        work = np.empty((2, 26), dtype=np.int8)
        mapped = np.empty((_MAPPED_CAPACITY, 2, 26), dtype=np.int8)
        no_again = np.zeros(1, dtype=np.bool_)
        known_dice = die1 > 0
        free_ply = start_ply + (1 if known_dice else 0)  # ply of the rotated roll
        for r in range(roots.shape[0]):
            for i in range(n_trials):
                trial = first_trial + i
                dice_base = stream_key(key, trial, DICE)
                choice_base = stream_key(key, trial, CHOICE)
                dice_counter = 0
                choice_counter = 0
                if rotate:
                    first_roll = trial % ROLLS
                else:
                    first_roll, dice_counter = roll_index(dice_base, dice_counter)
                rolled[i] = first_roll
                for s in range(2):
                    for col in range(26):
                        board[s, col] = roots[r, s, col]
                ply = start_ply
                on_roll = start_ply % 2  # 0: the root's side
                outcome = _PLAYING
                for j in range(5):
                    probs[r, i, j] = 0.0
                while outcome == _PLAYING:
                    if ply >= free_ply:
                        if not acey and bearoff_finish and is_pure_bearoff(board):
                            flip = on_roll != 0
                            bearoff_result(board, rolls, first_off, scoring, flip, probs[r, i])
                            outcome = END_BEAROFF
                            break
                        if ply == truncate:
                            for s in range(2):
                                for col in range(26):
                                    boards[r, i, s, col] = board[s, col]
                            for j in range(5):
                                probs[r, i, j] = np.nan
                            outcome = END_TRUNCATED
                            break
                    if ply - start_ply > MAX_PLIES:
                        return trial + 1
                    # -- the dice of this ply
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
                    # -- the legal plays (R4-R7, R11); none means the turn is lost (R5.5)
                    if acey:
                        candidates, moves, again = acey_legal(board, d1, d2, checkers)
                        n = candidates.shape[0]
                    else:
                        n, search = search_all(search, d1, d2, 0)
                        candidates = search.boards
                        moves = search.moves
                        again = no_again
                    roller = on_roll
                    if n == 0:
                        swap_sides(board)
                        on_roll ^= 1
                        if acey:
                            _log_play(log, ply, roller, d1, d2, moves, -1, False, board, on_roll)
                        ply += 1
                        continue
                    # -- the policy's choice
                    chosen = 0
                    if n > 1:
                        if policy == RANDOM:
                            chosen, choice_counter = draw_below(choice_base, choice_counter, n)
                        elif acey:
                            # pubeval sees waiting checkers on the bar; its weights follow the
                            # position before the play, a contact one while any checker waits
                            mapped = room(mapped, 0, n)
                            map_to_bar(board, work, checkers)
                            for c in range(n):
                                map_to_bar(candidates[c], mapped[c], checkers)
                            chosen = pubeval_best(mapped[:n], 1 if pubeval_is_race(work) else 0)
                        elif policy == NET:
                            chosen, _ = net_choose(candidates, n, weights, tables, buffers)
                        else:
                            race = pubeval_is_race(board)
                            chosen = -1
                            if policy == BEAROFF and race and bearoff_index_row(board[0]) >= 0:
                                if bearoff_index_row(board[1]) >= 0:
                                    chosen = _bearoff_choice(
                                        candidates, n, rolls, first_off, expected
                                    )
                                else:
                                    chosen = bearoff_best(candidates[:n], expected)
                            if chosen < 0:
                                chosen = pubeval_best(candidates[:n], 1 if race else 0)
                    # -- play it; the mover wins when its checkers are all off (R8.1):
                    # in the other variants, when none is left on the board
                    earned = False
                    if acey:
                        for s in range(2):
                            for col in range(26):
                                board[s, col] = candidates[chosen, s, col]
                        points = acey_points(board, checkers, scoring)  # R8.2 or R8.4
                        earned = again[chosen] and points == 0  # a roll again (R11.2)
                    else:
                        points = points_won(candidates[chosen], scoring)  # R8.2 or R8.4
                    if points > 0:
                        if roller == 0:
                            probs[r, i, _WIN] = 1.0
                            if points >= END_GAMMON:
                                probs[r, i, _WIN_GAMMON] = 1.0
                            if points == END_BACKGAMMON:
                                probs[r, i, _WIN_BACKGAMMON] = 1.0
                        else:
                            if points >= END_GAMMON:
                                probs[r, i, _LOSE_GAMMON] = 1.0
                            if points == END_BACKGAMMON:
                                probs[r, i, _LOSE_BACKGAMMON] = 1.0
                        outcome = points
                    if acey:
                        if not earned:
                            swap_sides(board)
                            on_roll ^= 1
                        _log_play(log, ply, roller, d1, d2, moves, chosen, earned, board, on_roll)
                    else:
                        if points == 0:
                            swap_into(candidates[chosen], board)
                        on_roll ^= 1
                    ply += 1
                plies[r, i] = ply - start_ply
                end[r, i] = outcome
                side[r, i] = on_roll
        return 0

    return njit(cache=True, nogil=True)(play_trials)


play_trials = _make_play_trials(False)
"""Whole games of every variant but Acey-Deucey."""
play_acey_trials = _make_play_trials(True)
"""Whole games of Acey-Deucey (R2.4, R11): the same loop with entering from off
the board, the 1-2 roll and its roll again."""


def play_acey_game(board, die1, die2, policy, key, trial, rotate, checkers, log, log_boards):
    """Play trial ``trial`` of one Acey-Deucey game from ``board`` to its end.

    The game loop of :func:`play_acey_trials`, one root and one trial, public to
    check games play by play: ``log`` and ``log_boards`` (arrays ``(L,
    LOG_FIELDS)`` int64 and ``(L, 2, 26)`` int8) are written for its first
    ``L`` plays, the ``LOG_*`` columns and the board after the play with row 0
    the root's side.

    Returns
    -------
    outcome : int
        ``END_SINGLE``, ``END_GAMMON``, ``END_BACKGAMMON``, or -1 when the game
        did not end within :data:`MAX_PLIES` plays.
    plies : int
        Plays made, passes included.
    side : int
        The side on roll after the last play (0 the root's side); after the
        winning play, the loser.
    """
    results = (
        np.empty((1, 1, 5)),
        np.zeros((1, 1), dtype=np.int32),
        np.zeros((1, 1), dtype=np.int8),
        np.empty(1, dtype=np.int64),
        np.empty((1, 1, 2, 26), dtype=np.int8),
        np.zeros((1, 1), dtype=np.int8),
    )
    _, plies, end, _, _, side = results
    weights = (
        np.zeros((2, 1, 1), dtype=np.float32),
        np.zeros((2, 1), dtype=np.float32),
        np.zeros((2, 5, 1), dtype=np.float32),
        np.zeros((2, 5), dtype=np.float32),
    )
    stuck = play_acey_trials(
        np.ascontiguousarray(board, dtype=np.int8)[np.newaxis],
        0,
        die1,
        die2,
        policy,
        key,
        trial,
        rotate,
        -1,
        False,
        np.zeros(1),
        np.zeros((1, 1)),
        np.zeros((1, 1)),
        results,
        STANDARD,
        checkers,
        weights,
        (log, log_boards),
    )
    if stuck:
        return -1, MAX_PLIES + 1, int(side[0, 0])
    return int(end[0, 0]), int(plies[0, 0]), int(side[0, 0])
