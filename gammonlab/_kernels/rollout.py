"""Rollout kernels: whole games in numba, the steps of lockstep play, race
evaluation by one-sided playouts, and the running sums of the statistics.

Boards are ``(2, 26)`` int8 arrays, row 0 on roll (see
:mod:`gammonlab._kernels.movegen`). A rollout plays trials ``first_trial ..
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
Under seed 000's scoring (``scoring`` :data:`SEED_000`, R8.4) the same columns
hold the classes of that scoring: win, win 2 or more (the loser has a checker
outside its home board), win 4 (a checker on the bar), and their losing
counterparts; :func:`end_class` decides the class of a finished game.
For a finished game they are 0 or 1; for a game finished by the
bear-off database they are its two-sided probabilities; a truncated game's
board is written to ``boards`` for an evaluator and its row is filled later.
``plies[r, i]``: plays made, passes included. ``end[r, i]``: one of the
``END_*`` codes. ``rolled[i]``: index of the rotated roll (``6 * (die1 - 1) +
die2 - 1``), the stratum of the trial.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bearoff import bearoff_best, bearoff_index_row
from .movegen import BAR, MAX_MOVES, OFF, SCRATCH, START_CAPACITY, _search
from .net import MAX_ACTIVE
from .net_play import net_choose
from .outcome import (
    BEAROFF,
    END_BACKGAMMON,
    END_BEAROFF,
    END_GAMMON,
    END_SINGLE,
    END_TRUNCATED,
    NET,
    PUBEVAL,
    RANDOM,
    SCORING_CODES,
    SEED_000,
    STANDARD,
    bearoff_probabilities,
    end_class,
    is_pure_bearoff,
)
from .pubeval import pubeval_best, pubeval_is_race
from .rng import CHOICE, DICE, ROLLS, draw_below, roll_index, stream_key

__all__ = [
    "BEAROFF",
    "END_BACKGAMMON",
    "END_BEAROFF",
    "END_GAMMON",
    "END_SINGLE",
    "END_TRUNCATED",
    "MAX_PLIES",
    "PUBEVAL",
    "RACE_ROLLS",
    "RACE_TRIALS",
    "RANDOM",
    "ROLL_STRATUM",
    "SCORING_CODES",
    "SEED_000",
    "STANDARD",
    "STRATA",
    "accumulate",
    "apply_steps",
    "bearoff_probabilities",
    "begin_ply",
    "best_candidates",
    "end_class",
    "finish_ply",
    "flip_probabilities",
    "next_roll",
    "one_sided_race",
    "play_trials",
    "race_probabilities",
    "stratified_stderr",
    "terminal_values",
]

_PLAYING = 0

MAX_PLIES = 20000
"""A game still going after this many plays is reported as an error (none is known)."""

HOME = 6
_POINTS = 24
_WIN, _WIN_GAMMON, _WIN_BACKGAMMON, _LOSE_GAMMON, _LOSE_BACKGAMMON = range(5)
_CAPACITY = START_CAPACITY * 16


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
        for col in range(26):
            swapped[0, col] = candidates[c, 1, col]
            swapped[1, col] = candidates[c, 0, col]
        i = bearoff_index_row(candidates[c, 0])
        if i == 0:
            return c  # every checker off: the game is won
        w, wg, wbg, lg, lbg = bearoff_probabilities(swapped, rolls, first_off)
        equity = -(2.0 * w - 1.0 + wg - lg + wbg - lbg)
        e = expected[i]
        if (best < 0 or equity > best_equity
                or (equity == best_equity and (e < best_expected
                                               or (e == best_expected and i > best_index)))):
            best = c
            best_equity = equity
            best_expected = e
            best_index = i
    return best


@njit(cache=True, nogil=True)
def play_trials(roots, start_ply, die1, die2, policy, key, first_trial, rotate, truncate,
                bearoff_finish, expected, rolls, first_off, probs, plies, end, rolled, boards,
                scoring, w1, b1, w2, b2):
    """Play trials ``first_trial .. first_trial + n - 1`` from every root, whole games.

    Parameters
    ----------
    roots : int8 array (k, 2, 26)
        Boards to roll out, row 0 on roll at ``start_ply``.
    start_ply : int
        0, or 1 for the position after a candidate play.
    die1, die2 : int
        The root's dice, or 0, 0 when they are still to be rolled.
    policy : int
        :data:`RANDOM`, :data:`PUBEVAL`, :data:`BEAROFF` or :data:`NET`.
    key : uint64
        The seed key (:func:`gammonlab._kernels.rng.seed_key`).
    rotate : bool
        Rotate the first unknown roll over blocks of 36 trials.
    truncate : int
        Stop after this ply (its board goes to ``boards``); -1 never.
    bearoff_finish : bool
        When both sides bear off, end with the database's probabilities.
    expected, rolls, first_off : float64 arrays
        The one-sided bear-off tables.
    probs, plies, end, rolled, boards
        Outputs of shapes ``(k, n, 5)``, ``(k, n)``, ``(k, n)``, ``(n,)``,
        ``(k, n, 2, 26)``; ``n`` is taken from ``rolled``.
    scoring : int
        :data:`STANDARD` (R8.2) or :data:`SEED_000` (R8.4). Under R8.4 a game
        finished by the bear-off database is single (no contact is left: nobody
        can be hit, both sides stay home), so only its win probability counts.
    w1, b1, w2, b2 : float32 arrays
        The neural evaluator's weights (:mod:`gammonlab._kernels.net`) for
        :data:`NET`; it plays the highest cubeless equity at 0-ply, for R8.2
        whatever the scoring. Unused by the other policies.

    Returns
    -------
    int
        0, or the trial number of a game that passed :data:`MAX_PLIES` plays plus one.
    """
    n_trials = rolled.shape[0]
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    capacity = _CAPACITY
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
    board = stack[0]  # the game's position is the search's first level: no copying
    acc = np.empty(w1.shape[2], dtype=np.float32)
    z = np.empty(5, dtype=np.float32)
    index = np.empty(MAX_ACTIVE, dtype=np.int32)
    value = np.empty(MAX_ACTIVE, dtype=np.float32)
    work = np.empty((2, 26), dtype=np.int8)
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
            for side in range(2):
                for col in range(26):
                    board[side, col] = roots[r, side, col]
            ply = start_ply
            outcome = _PLAYING
            while outcome == _PLAYING:
                root_on_roll = ply % 2 == 0
                if ply >= free_ply:
                    if bearoff_finish and is_pure_bearoff(board):
                        w, wg, wbg, lg, lbg = bearoff_probabilities(board, rolls, first_off)
                        if scoring == SEED_000:
                            wg, wbg, lg, lbg = 0.0, 0.0, 0.0, 0.0  # single only (R8.4)
                        if root_on_roll:
                            probs[r, i, 0] = w
                            probs[r, i, 1] = wg
                            probs[r, i, 2] = wbg
                            probs[r, i, 3] = lg
                            probs[r, i, 4] = lbg
                        else:
                            probs[r, i, 0] = 1.0 - w
                            probs[r, i, 1] = lg
                            probs[r, i, 2] = lbg
                            probs[r, i, 3] = wg
                            probs[r, i, 4] = wbg
                        outcome = END_BEAROFF
                        break
                    if ply == truncate:
                        for side in range(2):
                            for col in range(26):
                                boards[r, i, side, col] = board[side, col]
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
                # -- the legal plays (R4-R7); none means the turn is lost (R5.5)
                n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
                while n < 0:
                    capacity *= 4
                    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
                    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
                    hashes = np.empty(capacity, dtype=np.int64)
                    n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
                ply += 1
                if n == 0:
                    for col in range(26):
                        held = board[0, col]
                        board[0, col] = board[1, col]
                        board[1, col] = held
                    continue
                # -- the policy's choice
                chosen = 0
                if n > 1:
                    if policy == RANDOM:
                        chosen, choice_counter = draw_below(choice_base, choice_counter, n)
                    elif policy == NET:
                        chosen, _ = net_choose(out_boards, n, w1, b1, w2, b2, rolls, first_off,
                                               acc, z, index, value, work)
                    else:
                        race = pubeval_is_race(board)
                        chosen = -1
                        if policy == BEAROFF and race and bearoff_index_row(board[0]) >= 0:
                            if bearoff_index_row(board[1]) >= 0:
                                chosen = _bearoff_choice(out_boards, n, rolls, first_off,
                                                         expected)
                            else:
                                chosen = bearoff_best(out_boards[:n], expected)
                        if chosen < 0:
                            chosen = pubeval_best(out_boards[:n], 1 if race else 0)
                # -- play it; the mover wins when no checker is left on the board (R8.1)
                left = 0
                for col in range(1, BAR + 1):
                    left += out_boards[chosen, 0, col]
                if left == 0:
                    points = end_class(out_boards[chosen], scoring)  # R8.2 or R8.4
                    for j in range(5):
                        probs[r, i, j] = 0.0
                    # the mover moved at ply - 1
                    if (ply - 1) % 2 == 0:
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
                    break
                for col in range(26):
                    board[0, col] = out_boards[chosen, 1, col]
                    board[1, col] = out_boards[chosen, 0, col]
            plies[r, i] = ply - start_ply
            end[r, i] = outcome
    return 0


@njit(cache=True)
def flip_probabilities(p):
    """Probabilities ``(n, 5)`` seen from the other side (in place): win <-> lose."""
    for i in range(p.shape[0]):
        w, wg, wbg, lg, lbg = p[i, 0], p[i, 1], p[i, 2], p[i, 3], p[i, 4]
        p[i, 0] = 1.0 - w
        p[i, 1] = lg
        p[i, 2] = lbg
        p[i, 3] = wg
        p[i, 4] = wbg
    return p


# -- lockstep play: games advanced one ply at a time around an evaluator call ----------------


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


@njit(cache=True, nogil=True)
def begin_ply(games, trial, ply, start_ply, die1, die2, key, rotate, truncate, bearoff_finish,
              rolls, first_off, dice_counter, boards, probs, end, rolled, dice, generate,
              scoring=STANDARD):
    """Start one ply of every live game in lockstep play.

    ``games`` are indices into the per-game arrays: ``trial`` (trial number),
    ``ply``, ``dice_counter`` (position in the trial's dice stream),
    ``boards``, ``probs`` and ``end`` (results), ``rolled`` (the rotated roll,
    written when it is rolled) and ``dice`` (this ply's roll, written here;
    0, 0 for a game that ends). A game that reaches a pure bear-off (with
    ``bearoff_finish``) or the truncation ply ends here; its results are
    filled (bear-off) or left to an evaluator (truncation).

    With ``generate`` the legal plays are generated too; without, the caller's
    policy finds them itself. ``scoring`` as in :func:`play_trials`.

    Returns
    -------
    offsets : int64 (len(games) + 1,)
        Plays of ``games[g]`` are rows ``offsets[g]:offsets[g + 1]``.
    candidates : int8 (total, 2, 26)
        The resulting boards, seen from the mover.
    """
    do_generate = generate
    n_games = games.shape[0]
    offsets = np.zeros(n_games + 1, dtype=np.int64)
    total_capacity = max(64, n_games * 32) if do_generate else 1
    candidates = np.empty((total_capacity, 2, 26), dtype=np.int8)
    stack = np.empty((MAX_MOVES + 1, 2, 26), dtype=np.int8)
    scratch = np.empty(SCRATCH, dtype=np.int64)
    capacity = _CAPACITY if do_generate else 1
    out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
    out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
    hashes = np.empty(capacity, dtype=np.int64)
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
            if bearoff_finish and is_pure_bearoff(boards[game]):
                w, wg, wbg, lg, lbg = bearoff_probabilities(boards[game], rolls, first_off)
                if scoring == SEED_000:
                    wg, wbg, lg, lbg = 0.0, 0.0, 0.0, 0.0  # single only (R8.4)
                if p % 2 == 0:
                    probs[game, 0] = w
                    probs[game, 1] = wg
                    probs[game, 2] = wbg
                    probs[game, 3] = lg
                    probs[game, 4] = lbg
                else:
                    probs[game, 0] = 1.0 - w
                    probs[game, 1] = lg
                    probs[game, 2] = lbg
                    probs[game, 3] = wg
                    probs[game, 4] = wbg
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
            for side in range(2):
                for col in range(26):
                    stack[0, side, col] = boards[game, side, col]
            n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
            while n < 0:
                capacity *= 4
                out_boards = np.empty((capacity, 2, 26), dtype=np.int8)
                out_moves = np.empty((capacity, MAX_MOVES, 2), dtype=np.int8)
                hashes = np.empty(capacity, dtype=np.int64)
                for side in range(2):
                    for col in range(26):
                        stack[0, side, col] = boards[game, side, col]
                n = _search(stack, scratch, d1, d2, out_boards, out_moves, hashes)
            if total + n > total_capacity:
                grown = np.empty((max(2 * total_capacity, total + n), 2, 26), dtype=np.int8)
                grown[:total] = candidates[:total]
                candidates = grown
                total_capacity = grown.shape[0]
            candidates[total:total + n] = out_boards[:n]
            total += n
        offsets[g + 1] = total
    return offsets, candidates[:total]


@njit(cache=True, nogil=True)
def finish_ply(games, chosen, candidates, offsets, ply, boards, probs, end, scoring=STANDARD):
    """Play each live game's chosen candidate (-1: no legal play, R5.5) and score
    finished games (R8.1; R8.2 or R8.4 by ``scoring``). ``chosen[g]`` indexes
    ``candidates``."""
    for g in range(games.shape[0]):
        game = games[g]
        c = chosen[g]
        mover_is_root = ply[game] % 2 == 0
        ply[game] += 1
        if c < 0:
            for col in range(26):
                held = boards[game, 0, col]
                boards[game, 0, col] = boards[game, 1, col]
                boards[game, 1, col] = held
            continue
        left = 0
        for col in range(1, BAR + 1):
            left += candidates[c, 0, col]
        if left == 0:
            points = end_class(candidates[c], scoring)
            for j in range(5):
                probs[game, j] = 0.0
            if mover_is_root:
                probs[game, _WIN] = 1.0
                if points >= END_GAMMON:
                    probs[game, _WIN_GAMMON] = 1.0
                if points == END_BACKGAMMON:
                    probs[game, _WIN_BACKGAMMON] = 1.0
            else:
                if points >= END_GAMMON:
                    probs[game, _LOSE_GAMMON] = 1.0
                if points == END_BACKGAMMON:
                    probs[game, _LOSE_BACKGAMMON] = 1.0
            end[game] = points
        for col in range(26):
            boards[game, 0, col] = candidates[c, 1, col]
            boards[game, 1, col] = candidates[c, 0, col]


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


@njit(cache=True, nogil=True)
def terminal_values(candidates, scoring=STANDARD):
    """For candidate boards seen from the mover: the class of the game if the mover
    has just borne off its last checker (:func:`end_class`: 1, 2 or 3, which are
    the points under R8.2), else 0."""
    n = candidates.shape[0]
    out = np.zeros(n, dtype=np.int8)
    for c in range(n):
        left = 0
        for col in range(1, BAR + 1):
            left += candidates[c, 0, col]
        if left == 0:
            out[c] = end_class(candidates[c], scoring)
    return out


# -- races: one-sided rollouts on top of the bear-off database -----------------------------

RACE_TRIALS = 1296
"""Playouts per side of a race evaluation: the first two rolls rotate over all 36 x 36."""
RACE_ROLLS = 160
"""Length of the race distributions (rolls 0..159); longer tails are folded into the last."""
_RACE_KEY = np.uint64(0x5EED0F0A7ACE5EED)  # fixed: a race evaluation is a pure function
_RACE_STREAM = 3
_WINNER_HOME_LOW = _POINTS - HOME + 1  # the opponent's home board is our points 19-24


@njit(cache=True, nogil=True)
def one_sided_race(row, expected, rolls, first_off, finish, first, leave):
    """Distributions of a side racing alone (no contact), by one-sided playouts.

    ``row`` is one side's board row (int8, 26 columns, nothing on the bar). The
    side brings its checkers home with a fixed bear-in rule, :data:`RACE_TRIALS`
    times with quasi-random rolls (the first two rolls cover all 36 x 36
    ordered pairs); once every checker is home the rest comes exactly from the
    one-sided bear-off database. Writes, for rolls ``t = 0..RACE_ROLLS - 1``:

    ``finish[t]``
        P(the last checker is borne off on roll ``t``).
    ``first[t]``
        P(the first checker is borne off on roll ``t``); all zero if the side
        has borne off a checker already (it cannot lose a gammon).
    ``leave[t]``
        P(the last checker leaves points 19-24, the opponent's home board, on
        roll ``t``); ``leave[0] = 1`` when none is there.

    Bear-in rule, the usual advice of saving crossovers (moves from one quarter
    of the board into the next, which every checker outside must make), as in
    GNU Backgammon's one-sided rollouts (``osr.c``, Jørn Thyssen, 2002): with
    each die (larger first) bring a checker exactly onto the 6-point if one
    can; else make a crossover with the rearmost checker that can; else move
    the rearmost checker. Checkers home are not moved until all are (R7.1). If
    every checker gets home before the roll is over, each remaining die bears
    off with the play the database prefers (fewest expected rolls). The same
    play serves racing and saving the gammon.
    """
    for t in range(RACE_ROLLS):
        finish[t] = 0.0
        first[t] = 0.0
        leave[t] = 0.0
    can_lose_gammon = row[OFF] == 0
    home_index = bearoff_index_row(row)
    if home_index >= 0:
        for t in range(min(rolls.shape[1], RACE_ROLLS)):
            finish[t] = rolls[home_index, t]
        if can_lose_gammon:
            for t in range(min(first_off.shape[1], RACE_ROLLS)):
                first[t] = first_off[home_index, t]
        leave[0] = 1.0
        return
    weight = 1.0 / RACE_TRIALS
    last = RACE_ROLLS - 1
    work = np.empty(26, dtype=np.int64)
    dice = np.empty(4, dtype=np.int64)
    if not can_lose_gammon:
        leave[0] = 1.0  # a side with a checker off cannot be backgammoned
    for i in range(RACE_TRIALS):
        for col in range(26):
            work[col] = row[col]
        base = stream_key(_RACE_KEY, i, _RACE_STREAM)
        counter = 0
        used = 0
        first_roll = -1
        left_home = 0
        for point in range(_WINNER_HOME_LOW, BAR):
            if work[point] > 0:
                left_home = -1
        outside = 0
        for point in range(HOME + 1, BAR):
            outside += work[point]
        on_board = 0
        for col in range(1, BAR):
            on_board += work[col]
        while outside > 0:
            used += 1
            if used == 1:
                roll = i % ROLLS
            elif used == 2:
                roll = i // ROLLS % ROLLS
            else:
                roll, counter = roll_index(base, counter)
            high = max(roll // 6, roll % 6) + 1
            low = min(roll // 6, roll % 6) + 1
            n_dice = 4 if high == low else 2
            dice[0] = high
            dice[1] = low
            dice[2] = high
            dice[3] = high
            for m in range(n_dice):
                die = dice[m]
                if outside > 0:
                    source = -1
                    if HOME + die < BAR and work[HOME + die] > 0:
                        source = HOME + die  # exactly onto the 6-point
                    if source < 0:
                        for point in range(BAR - 1, HOME, -1):  # rearmost first
                            if work[point] > 0 and (point - 1) // HOME != (point - die - 1) // HOME:
                                source = point  # a crossover
                                break
                    if source < 0:
                        for point in range(BAR - 1, HOME, -1):
                            if work[point] > 0:
                                source = point
                                break
                    work[source] -= 1
                    work[source - die] += 1
                    if source - die <= HOME:
                        outside -= 1
                elif on_board > 0:
                    # R7.2-R7.4 with the database's choice, one die at a time
                    highest = 0
                    for point in range(HOME, 0, -1):
                        if work[point] > 0:
                            highest = point
                            break
                    best_source = -1
                    best_target = -1
                    best_index = -1
                    for point in range(1, HOME + 1):
                        if work[point] == 0:
                            continue
                        if point > die:
                            target = point - die
                        elif point == die or point == highest:
                            target = OFF
                        else:
                            continue
                        work[point] -= 1
                        work[target] += 1
                        index = bearoff_index_row(work)
                        work[target] -= 1
                        work[point] += 1
                        if (best_index < 0 or expected[index] < expected[best_index]
                                or (expected[index] == expected[best_index]
                                    and index > best_index)):
                            best_source = point
                            best_target = target
                            best_index = index
                    work[best_source] -= 1
                    work[best_target] += 1
                    if best_target == OFF:
                        on_board -= 1
                        if first_roll < 0:
                            first_roll = used
            if left_home < 0:
                left_home = used
                for point in range(_WINNER_HOME_LOW, BAR):
                    if work[point] > 0:
                        left_home = -1
        h = bearoff_index_row(work)
        for t in range(rolls.shape[1]):
            finish[min(used + t, last)] += weight * rolls[h, t]
        if can_lose_gammon:
            if first_roll >= 0:
                first[min(first_roll, last)] += weight
            else:
                for t in range(first_off.shape[1]):
                    first[min(used + t, last)] += weight * first_off[h, t]
            leave[min(max(left_home, 0), last)] += weight


@njit(cache=True, nogil=True)
def _tail_from(dist, t):
    total = 0.0
    for s in range(t, dist.shape[0]):
        total += dist[s]
    return total


@njit(cache=True, nogil=True)
def race_probabilities(boards, expected, rolls, first_off):
    """Probabilities ``(n, 5)`` of race positions (no contact), from the side on roll.

    Each side's distributions come from :func:`one_sided_race`; the sides are
    independent. The side on roll (A) rolls first: it wins when it finishes on
    its roll ``t`` and the other (B) needs ``t`` rolls or more; a gammon when
    B's first checker needs ``t`` rolls or more too; a backgammon when B's
    last checker leaves A's home board on its roll ``t`` or later (R8.2). B
    wins likewise one roll later. Both sides bearing off gives the database's
    two-sided numbers (:func:`bearoff_probabilities`) exactly.
    Rows of positions with contact are NaN.
    """
    n = boards.shape[0]
    out = np.full((n, 5), np.nan)
    dists = np.empty((2, 3, RACE_ROLLS))
    for b in range(n):
        board = boards[b]
        if not pubeval_is_race(board):
            continue
        if is_pure_bearoff(board):
            w, wg, wbg, lg, lbg = bearoff_probabilities(board, rolls, first_off)
            out[b, 0] = w
            out[b, 1] = wg
            out[b, 2] = wbg
            out[b, 3] = lg
            out[b, 4] = lbg
            continue
        for side in range(2):
            one_sided_race(board[side], expected, rolls, first_off, dists[side, 0],
                           dists[side, 1], dists[side, 2])
        a_finish, a_first, a_leave = dists[0, 0], dists[0, 1], dists[0, 2]
        b_finish, b_first, b_leave = dists[1, 0], dists[1, 1], dists[1, 2]
        win = 0.0
        win_gammon = 0.0
        win_backgammon = 0.0
        lose_gammon = 0.0
        lose_backgammon = 0.0
        b_survival = _tail_from(b_finish, 0)
        for t in range(RACE_ROLLS):
            if a_finish[t] > 0.0:
                win += a_finish[t] * b_survival
                if board[1, OFF] == 0:
                    win_gammon += a_finish[t] * _tail_from(b_first, t)
                    win_backgammon += a_finish[t] * _tail_from(b_leave, t)
            b_survival -= b_finish[t]
            if b_finish[t] > 0.0 and board[0, OFF] == 0:
                lose_gammon += b_finish[t] * _tail_from(a_first, t + 1)
                lose_backgammon += b_finish[t] * _tail_from(a_leave, t + 1)
        win = min(max(win, 0.0), 1.0)
        win_gammon = min(win_gammon, win)
        win_backgammon = min(win_backgammon, win_gammon)
        lose_gammon = min(lose_gammon, 1.0 - win)
        lose_backgammon = min(lose_backgammon, lose_gammon)
        out[b, 0] = win
        out[b, 1] = win_gammon
        out[b, 2] = win_backgammon
        out[b, 3] = lose_gammon
        out[b, 4] = lose_backgammon
    return out


# -- statistics --------------------------------------------------------------------------


@njit(cache=True)
def _equity(p0, p1, p2, p3, p4, top):
    # cubeless money equity: win - lose + gammons + the top class's extra points,
    # ``top - 2``: 1 for R8.2's backgammon (3 points), 2 for R8.4's bar (4 points);
    # with 1.0 the sums are bit for bit R8.2's ``... + p2 - p4``
    extra = top - 2.0
    return 2.0 * p0 - 1.0 + p1 - p3 + extra * p2 - extra * p4


STRATA = 21
"""Strata of the rotated roll: the 21 distinct rolls (1-1, 2-1, 2-2, ..., 6-6)."""


def _roll_strata() -> np.ndarray:
    # An ordered roll and its reverse give the same legal plays, so the same game
    # from there on: one stratum. Numbered like the bear-off tables' rolls.
    table = np.empty(ROLLS, dtype=np.int64)
    stratum = 0
    for high in range(1, 7):
        for low in range(1, high + 1):
            table[6 * (high - 1) + low - 1] = stratum
            table[6 * (low - 1) + high - 1] = stratum
            stratum += 1
    return table


ROLL_STRATUM = _roll_strata()
"""Stratum (0..20) of each ordered roll index (0..35)."""


@njit(cache=True)
def stratified_stderr(count, s1, s2, total):
    """Standard error of a mean from per-stratum sums, and of a plain random sample.

    ``count[s]``, ``s1[s]``, ``s2[s]``: trials, sum and sum of squares of
    stratum ``s``; ``total`` = sum of counts. Stratified estimator with the
    strata's weights fixed by design (``count[s] / total``):
    ``Var = sum_s count_s * var_s / total**2`` where ``var_s`` is the stratum's
    sample variance. Strata holding a single trial (the doubles of a single
    block) have no sample variance: they are collapsed in pairs of neighbours
    (1-1 with 2-2, 3-3 with 4-4, 5-5 with 6-6; an odd one joins the last pair),
    Cochran's collapsed strata, which can only overstate the error. A lone
    stratum with no partner falls back to the plain variance.
    Returns ``(stratified, plain)``.
    """
    if total < 2:
        return np.nan, np.nan
    grand = 0.0
    grand2 = 0.0
    lone = 0
    for s in range(count.shape[0]):
        grand += s1[s]
        grand2 += s2[s]
        if count[s] == 1:
            lone += 1
    plain = max((grand2 - grand * grand / total) / (total - 1), 0.0) / total
    if lone == 1:
        return np.sqrt(plain), np.sqrt(plain)
    var = 0.0
    group_count = 0
    group1 = 0.0
    group2 = 0.0
    seen = 0
    for s in range(count.shape[0]):
        c = count[s]
        if c >= 2:
            v = (s2[s] - s1[s] * s1[s] / c) / (c - 1)
            var += c * max(v, 0.0)
        elif c == 1:
            seen += 1
            group_count += 1
            group1 += s1[s]
            group2 += s2[s]
            # close a pair, unless a single lone stratum would be left over
            if group_count >= 2 and lone - seen != 1:
                v = (group2 - group1 * group1 / group_count) / (group_count - 1)
                var += group_count * max(v, 0.0)
                group_count = 0
                group1 = 0.0
                group2 = 0.0
    return np.sqrt(var / (total * total)), np.sqrt(plain)


@njit(cache=True)
def accumulate(count, s1, products, cross, probs, strata, done, target, block, top=3.0):
    """Add trials to per-stratum sums, in trial order, and stop at a target.

    Parameters
    ----------
    count : int64 (n_strata,)
    s1 : float64 (n_strata, k, 6)
        Sums of the five probabilities and the equity, per root.
    products : float64 (n_strata, k, 6, 6)
        Sums of their pairwise products (squares on the diagonal), per root.
    cross : float64 (n_strata, k, k)
        Sums of products of the roots' equities (paired differences).
    probs : float64 (k, n, 5)
        The new trials' results, in trial order.
    strata : int64 (n,)
        Each trial's stratum.
    done : int
        Trials already added.
    target : float
        Stop after the first whole ``block`` at which the largest standard
        error of the roots' equities is at most ``target`` (0: never).
    top : float
        Points of the top class: 3 (R8.2's backgammon) or 4 (R8.4's bar).

    Returns
    -------
    added : int
        How many of the new trials were added.
    reached : bool
        Whether the target was reached.
    """
    k = probs.shape[0]
    n = probs.shape[1]
    n_strata = count.shape[0]
    equities = np.empty(k)
    values = np.empty(6)
    c_eq = np.empty(n_strata, dtype=np.int64)
    e1 = np.empty(n_strata)
    e2 = np.empty(n_strata)
    for i in range(n):
        s = strata[i]
        count[s] += 1
        for r in range(k):
            for j in range(5):
                values[j] = probs[r, i, j]
            values[5] = _equity(values[0], values[1], values[2], values[3], values[4], top)
            equities[r] = values[5]
            for a in range(6):
                s1[s, r, a] += values[a]
                for b in range(6):
                    products[s, r, a, b] += values[a] * values[b]
        for a in range(k):
            for b in range(k):
                cross[s, a, b] += equities[a] * equities[b]
        total = done + i + 1
        if target > 0.0 and total % block == 0 and total >= 2 * block:
            worst = 0.0
            for r in range(k):
                for t in range(n_strata):
                    c_eq[t] = count[t]
                    e1[t] = s1[t, r, 5]
                    e2[t] = products[t, r, 5, 5]
                se, _ = stratified_stderr(c_eq, e1, e2, total)
                worst = max(worst, se)
            if worst <= target:
                return i + 1, True
    return n, False
