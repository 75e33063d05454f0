"""Lockstep play: games advanced one ply at a time around an evaluator called
from Python, for every variant, from one source.

The caller keeps per-game arrays (trial number, ply, side on roll, position
in the dice stream, board, results) and, each ply, calls :func:`begin_ply`
(the roll, the end of games reaching a bear-off or the truncation ply, the
legal plays), chooses a candidate per game with its evaluator, and calls
:func:`finish_ply` (the play, the end of games won). Dice and results are
those of :mod:`gammonlab._kernels.playout`: a game played in lockstep is the
same game as played whole by the same policy.

Acey-Deucey (R2.4, R11) has its own pair, :func:`acey_begin_ply` and
:func:`acey_finish_ply`: the same kernels compiled with ``acey`` on
(checkers entering from off the board, the 1-2 roll and its roll again, no
bear-off database).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .acey import acey_legal
from .board import BAR, OFF, ROLLS
from .movegen import GAME_CAPACITY, room, search_board, search_buffers, swap_into, swap_sides
from .outcome import (
    END_BACKGAMMON,
    END_BEAROFF,
    END_GAMMON,
    END_TRUNCATED,
    acey_points,
    points_won,
)
from .playout import MAX_PLIES, bearoff_result
from .race import is_pure_bearoff
from .rng import DICE, roll_index, stream_key

__all__ = [
    "acey_begin_ply",
    "acey_finish_ply",
    "apply_steps",
    "begin_ply",
    "best_candidates",
    "finish_ply",
    "next_roll",
]


@njit(cache=True, nogil=True)
def next_roll(trial, dice_counter, game, p, free_ply, key, rotate, rolled):
    """The roll (0..35) game ``game`` makes at ply ``p`` of a lockstep rollout.

    The first free roll of a rotated rollout is the trial's stratum; every other
    comes from the trial's own dice stream, so a game's dice do not depend on
    the other games played beside it. The first free roll is recorded in
    ``rolled``.
    """
    if p == free_ply and rotate:
        roll = trial[game] % ROLLS
    else:
        base = stream_key(key, trial[game], DICE)
        roll, counter = roll_index(base, dice_counter[game])
        dice_counter[game] = counter
    if p == free_ply:
        rolled[game] = roll
    return roll


def _make_begin_ply(acey):
    """:func:`begin_ply`, compiled for Acey-Deucey (``acey``) or the other variants;
    ``acey`` is a constant of the compiled function, as in
    :func:`gammonlab._kernels.playout._make_play_trials`."""

    def begin_ply(
        games,
        trial,
        ply,
        start_ply,
        die1,
        die2,
        key,
        rotate,
        truncate,
        bearoff_finish,
        rolls,
        first_off,
        dice_counter,
        boards,
        probs,
        end,
        rolled,
        dice,
        generate,
        scoring,
        checkers,
    ):
        """Start one ply of every live game in lockstep play.

        ``games`` are indices into the per-game arrays: ``trial`` (trial number),
        ``ply``, ``dice_counter`` (position in the trial's dice stream),
        ``boards``, ``probs`` and ``end`` (results), ``rolled`` (the rotated roll,
        written when it is rolled) and ``dice`` (this ply's roll, written here;
        0, 0 for a game that ends). A game that reaches a pure bear-off (with
        ``bearoff_finish``; never in Acey-Deucey) or the truncation ply ends
        here; its results are filled (bear-off) or left to an evaluator
        (truncation).

        With ``generate`` the legal plays are generated too; without, the
        caller's policy finds them itself (Acey-Deucey: always generate).
        ``scoring`` as in :func:`gammonlab._kernels.playout.play_trials`;
        ``checkers``: a side's checkers (Acey-Deucey, unused by the others).

        Returns
        -------
        offsets : int64 (len(games) + 1,)
            Plays of ``games[g]`` are rows ``offsets[g]:offsets[g + 1]``.
        candidates : int8 (total, 2, 26)
            The resulting boards, seen from the mover.
        again : bool (total,)
            Whether the play earns a roll again (a full 1-2, R11.2; never in
            the other variants).
        """
        do_generate = generate
        n_games = games.shape[0]
        offsets = np.zeros(n_games + 1, dtype=np.int64)
        total_capacity = max(64, n_games * 32) if do_generate else 1
        candidates = np.empty((total_capacity, 2, 26), dtype=np.int8)
        again = np.empty(total_capacity, dtype=np.bool_)
        search = search_buffers(GAME_CAPACITY if do_generate and not acey else 1)
        known_dice = die1 > 0
        free_ply = start_ply + (1 if known_dice else 0)
        total = 0
        for g in range(n_games):
            game = games[g]
            p = ply[game]
            dice[game, 0] = 0
            dice[game, 1] = 0
            d1 = die1
            d2 = die2
            if p >= free_ply:
                # the roll comes first, as in play_trials, so that the rotated roll is
                # recorded even for a game that ends before it is played
                roll = next_roll(trial, dice_counter, game, p, free_ply, key, rotate, rolled)
                d1 = roll // 6 + 1
                d2 = roll % 6 + 1
                if not acey and bearoff_finish and is_pure_bearoff(boards[game]):
                    flip = p % 2 != 0
                    bearoff_result(boards[game], rolls, first_off, scoring, flip, probs[game])
                    end[game] = END_BEAROFF
                    offsets[g + 1] = total
                    continue
                if p == truncate:
                    end[game] = END_TRUNCATED
                    offsets[g + 1] = total
                    continue
            if p - start_ply > MAX_PLIES:
                end[game] = -1
                offsets[g + 1] = total
                continue
            dice[game, 0] = d1
            dice[game, 1] = d2
            if do_generate:
                if acey:
                    found, _moves, earns = acey_legal(boards[game], d1, d2, checkers)
                    n = found.shape[0]
                else:
                    n, search = search_board(search, boards[game], d1, d2, 0)
                    found = search.boards
                candidates = room(candidates, total, total + n)
                again = room(again, total, total + n)
                candidates[total : total + n] = found[:n]
                if acey:
                    again[total : total + n] = earns
                else:
                    again[total : total + n] = False
                total += n
            offsets[g + 1] = total
        return offsets, candidates[:total], again[:total]

    return njit(cache=True, nogil=True)(begin_ply)


def _make_finish_ply(acey):
    """:func:`finish_ply`, compiled for Acey-Deucey (``acey``) or the other variants."""

    def finish_ply(
        games, chosen, candidates, again, ply, side, boards, probs, end, scoring, checkers
    ):
        """Play each live game's chosen candidate (-1: no legal play, R5.5) and score
        finished games (R8.1; R8.2 or R8.4 by ``scoring``). ``chosen[g]`` indexes
        ``candidates``; ``side[game]`` is the side on roll, 0 the root's. In
        Acey-Deucey the mover stays on roll after a play that earns a roll
        again (``again``, a full 1-2, R11.2)."""
        for g in range(games.shape[0]):
            game = games[g]
            c = chosen[g]
            ply[game] += 1
            if c < 0:
                swap_sides(boards[game])
                side[game] ^= 1
                continue
            earned = False
            if acey:
                points = acey_points(candidates[c], checkers, scoring)
                earned = again[c] and points == 0
            else:
                points = points_won(candidates[c], scoring)
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
            if earned:
                for s in range(2):
                    for col in range(26):
                        boards[game, s, col] = candidates[c, s, col]
            else:
                swap_into(candidates[c], boards[game])
                side[game] ^= 1

    return njit(cache=True, nogil=True)(finish_ply)


begin_ply = _make_begin_ply(False)
finish_ply = _make_finish_ply(False)
acey_begin_ply = _make_begin_ply(True)
"""The Acey-Deucey :func:`begin_ply` (R11): ``generate`` and no bear-off finish."""
acey_finish_ply = _make_finish_ply(True)
"""The Acey-Deucey :func:`finish_ply` (R11.2's roll again)."""


@njit(cache=True, nogil=True)
def apply_steps(boards, steps):
    """Boards after checker moves: ``steps[i]`` holds ``(from, to)`` pairs in the
    mover's numbering (0 off, 25 bar; unused rows -1) for row 0 of ``boards[i]``.
    Blots landed on are hit (R6.1). Returns the new boards, seen from the mover."""
    out = boards.copy()
    for i in range(boards.shape[0]):
        for m in range(steps.shape[1]):
            source = steps[i, m, 0]
            target = steps[i, m, 1]
            if source < 0:
                break
            out[i, 0, source] -= 1
            out[i, 0, target] += 1
            if target != OFF and out[i, 1, BAR - target] == 1:
                out[i, 1, BAR - target] = 0
                out[i, 1, BAR] += 1
    return out


@njit(cache=True, nogil=True)
def best_candidates(offsets, values):
    """Per game, the index of its highest-valued candidate (the first on ties);
    -1 for a game without candidates (no legal play, R5.5)."""
    n_games = offsets.shape[0] - 1
    chosen = np.full(n_games, -1, dtype=np.int64)
    for g in range(n_games):
        best_value = -np.inf
        for c in range(offsets[g], offsets[g + 1]):
            if chosen[g] < 0 or values[c] > best_value:
                chosen[g] = c
                best_value = values[c]
    return chosen
