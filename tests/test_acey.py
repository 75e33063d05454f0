"""Acey-Deucey move generation (R11) against a plain-Python reference.

The reference applies R4-R7 and R11 one checker move at a time, tries every
die order and every source, keeps the sequences using the most dice and
deduplicates by position. Boards use gammonlab's layout ``(2, 26)``: row 0 on
roll, column 0 off, 1..24 points, 25 bar; a side's checkers not yet entered are
15 minus its row's sum. In moves, source 26 is an entry from off the board.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from gammonlab._kernels.acey import acey_deucey_plays, acey_plays
from gammonlab._kernels.board import START

CHECKERS = 15
SOURCES = (START, 25, *range(24, 0, -1))


# -- the reference -------------------------------------------------------------------------


def waiting(board, checkers=CHECKERS):
    return checkers - sum(board[0])


def move(board, source, die, checkers=CHECKERS):
    """The board after moving one checker ``die`` points from ``source``, or None."""
    me, opp = list(board[0]), list(board[1])
    on_bar = me[25] > 0
    if source == 25:
        if not on_bar:
            return None
        dest = 25 - die  # R6.4
    elif source == START:
        if on_bar or waiting(board, checkers) == 0:  # R6.3, R11.1
            return None
        dest = 25 - die
    else:
        if on_bar or me[source] == 0:  # R6.3
            return None
        dest = source - die
    if dest >= 1:
        if opp[25 - dest] >= 2:  # R4.2
            return None
        if opp[25 - dest] == 1:  # R6.1
            opp[25 - dest] = 0
            opp[25] += 1
        me[dest] += 1
    else:
        # R7.1: every checker home, none waiting to enter
        if waiting(board, checkers) > 0 or any(me[p] for p in range(7, 26)):
            return None
        if dest < 0 and any(me[p] for p in range(source + 1, 7)):  # R7.3 / R7.4
            return None
        me[0] += 1
    if source != START:
        me[source] -= 1
    return (tuple(me), tuple(opp))


def reference_plays(board, d1, d2, checkers=CHECKERS):
    """(set of resulting boards, dice used) for an ordinary roll (R5)."""
    if d1 == d2:
        level, found, used = {board}, set(), 0
        for k in range(4):  # R5.4: as many of the four as possible
            nxt = {r for p in level for s in SOURCES if (r := move(p, s, d1, checkers)) is not None}
            if not nxt:
                break
            level, found, used = nxt, nxt, k + 1
        return found, used
    full, singles = set(), {d1: set(), d2: set()}
    for a, b in ((d1, d2), (d2, d1)):
        for s in SOURCES:
            p = move(board, s, a, checkers)
            if p is None:
                continue
            singles[a].add(p)
            for s2 in SOURCES:
                q = move(p, s2, b, checkers)
                if q is not None:
                    full.add(q)
    if full:
        return full, 2  # R5.1
    if singles[max(d1, d2)]:
        return singles[max(d1, d2)], 1  # R5.3
    if singles[min(d1, d2)]:
        return singles[min(d1, d2)], 1  # R5.2
    return set(), 0  # R5.5


def reference_acey_deucey(board, checkers=CHECKERS):
    """{resulting board: (moves used, doubles chosen)}, the most moves then the smallest
    doubles per board, for the roll 1-2 (R11.2)."""
    first, used = reference_plays(board, 1, 2, checkers)
    if used < 2:
        return {q: (used, 0) for q in first}
    result = {}
    for q in first:
        for d in range(1, 7):
            found, n = reference_plays(q, d, d, checkers)
            for r in found or {q}:
                key = (2 + n, -d)
                if r not in result or key > (result[r][0], -result[r][1]):
                    result[r] = (2 + n, d)
    return result


def replay(board, moves, dice, checkers=CHECKERS):
    """Every board the ``(from, to)`` moves can make with the dice, one die each."""
    if not moves:
        return {board}
    (source, target), rest = moves[0], moves[1:]
    out = set()
    for i, die in enumerate(dice):
        after = move(board, source, die, checkers)
        dest = (25 if source == START else source) - die
        if after is not None and max(dest, 0) == target:
            out |= replay(after, rest, dice[:i] + dice[i + 1 :], checkers)
    return out


def key(board):
    return (tuple(int(x) for x in board[0]), tuple(int(x) for x in board[1]))


def as_pairs(moves):
    return [(int(s), int(t)) for s, t in moves if s >= 0]


# -- positions from random play ------------------------------------------------------------


def random_games(rng, games, max_turns=800):
    """Every position met in ``games`` games of random Acey-Deucey play from R2.4."""
    positions = []
    for _ in range(games):
        board = np.zeros((2, 26), dtype=np.int8)
        for _ in range(max_turns):
            positions.append(board.copy())
            again = True
            while again:
                again = False
                d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
                if {d1, d2} == {1, 2}:
                    boards, moves, _ = acey_deucey_plays(board)
                    if len(boards):
                        i = rng.integers(len(boards))
                        board = boards[i]
                        again = (moves[i, :, 0] >= 0).sum() == 6
                else:
                    boards, _ = acey_plays(board, d1, d2)
                    if len(boards):
                        board = boards[rng.integers(len(boards))]
                if board[0, 0] == CHECKERS:
                    break
            if board[0, 0] == CHECKERS:
                break
            board = board[::-1].copy()
    return positions


@pytest.fixture(scope="module")
def positions():
    return random_games(np.random.default_rng(20261130), 20)


def check_ordinary(board, d1, d2):
    boards, moves = acey_plays(board, d1, d2)
    assert boards.shape[1:] == (2, 26) and moves.shape[1:] == (4, 2)
    expected, used = reference_plays(key(board), d1, d2)
    got = [key(b) for b in boards]
    assert len(set(got)) == len(got), "duplicate positions"
    assert set(got) == expected, (board.tolist(), d1, d2)
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    for b, m in zip(got, moves):
        pairs = as_pairs(m)
        assert len(pairs) == used
        assert b in replay(key(board), pairs, dice), (board.tolist(), d1, d2, pairs)
    return len(got)


def check_acey_deucey(board):
    boards, moves, doubles = acey_deucey_plays(board)
    assert moves.shape[1:] == (6, 2) and doubles.dtype == np.int8
    expected = reference_acey_deucey(key(board))
    got = [key(b) for b in boards]
    assert len(set(got)) == len(got), "duplicate positions"
    assert set(got) == set(expected), board.tolist()
    for b, m, d in zip(got, moves, doubles):
        used, d_expected = expected[b]
        assert int(d) == d_expected, (board.tolist(), b)
        first, second = as_pairs(m[:2]), as_pairs(m[2:])
        assert (m[:2, 0] >= 0).sum() == len(first) and (m[2:, 0] >= 0).sum() == len(second)
        assert len(first) + len(second) == used
        middle = replay(key(board), first, [1, 2])
        assert any(b in replay(q, second, [int(d)] * 4) for q in middle), (board.tolist(), m)
    return len(got)


def test_ordinary_rolls_match_the_reference(positions):
    rng = np.random.default_rng(1)
    t0 = time.perf_counter()
    plays = cases = 0
    counts = {"on_bar": 0, "waiting": 0, "bearoff": 0, "no_play": 0, "doubles": 0}
    for board in positions:
        d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
        n = check_ordinary(board, d1, d2)
        cases += 1
        plays += n
        counts["on_bar"] += board[0, 25] > 0
        counts["waiting"] += waiting(key(board)) > 0
        counts["bearoff"] += waiting(key(board)) == 0 and not board[0, 7:].any()
        counts["no_play"] += n == 0
        counts["doubles"] += d1 == d2
    print(f"ordinary: {cases} positions, {plays} plays, {counts}, {time.perf_counter() - t0:.1f}s")
    assert cases >= 3000
    assert min(counts.values()) >= 20, counts


def acey_deucey_sample(positions, n, seed):
    rng = np.random.default_rng(seed)
    return [positions[i] for i in rng.choice(len(positions), n, replace=False)]


def compare_acey_deucey(sample):
    sample = [*sample, np.zeros((2, 26), dtype=np.int8)]
    plays = 0
    t0 = time.perf_counter()
    for board in sample:
        plays += check_acey_deucey(board)
    print(f"acey-deucey: {len(sample)} positions, {plays} plays, {time.perf_counter() - t0:.1f}s")


@pytest.mark.parametrize("count", [4, pytest.param(40, marks=pytest.mark.slow)])
def test_acey_deucey_rolls_match_the_reference(positions, count):
    # the reference takes about 2 s a position (thousands of plays each)
    compare_acey_deucey(acey_deucey_sample(positions, count, seed=2))


@pytest.mark.slow
@pytest.mark.parametrize("part", range(10))
def test_acey_deucey_rolls_match_the_reference_on_400_positions(positions, part):
    # in ten parts of 40 positions, which parallel workers share
    compare_acey_deucey(acey_deucey_sample(positions, 400, seed=2)[part::10])


# -- scenarios -----------------------------------------------------------------------------


def board_of(mine=None, theirs=None, my_off=0, their_off=0):
    """A board from {point: checkers} for each side, each in its own numbering."""
    b = np.zeros((2, 26), dtype=np.int8)
    for row, spec, off in ((0, mine or {}, my_off), (1, theirs or {}, their_off)):
        for point, n in spec.items():
            b[row, point] = n
        b[row, 0] = off
    return b


def play_set(board, d1, d2):
    _, moves = acey_plays(board, d1, d2)
    return {tuple(sorted(as_pairs(m))) for m in moves}


def test_entering_from_the_start():
    """All 30 checkers off the board (R2.4); 6-5 enters on our 19 and 20 points (R11.1)."""
    assert play_set(np.zeros((2, 26), dtype=np.int8), 6, 5) == {
        ((26, 19), (26, 20)),
        ((19, 14), (26, 19)),
    }


def test_entry_hits_a_blot_and_a_point_blocks():
    """The opponent holds its 6-point (our 19) and has a blot on its 5-point (our 20)."""
    board = board_of(theirs={6: 2, 5: 1})
    boards, moves = acey_plays(board, 6, 5)
    assert {tuple(as_pairs(m)) for m in moves} == {((26, 20), (20, 14))}
    assert boards[0, 1, 25] == 1 and boards[0, 1, 5] == 0  # R6.1: hit on entry


def test_an_entered_checker_moves_while_others_wait():
    """14 checkers wait off the board; the one on our 20 may run without any entry."""
    plays = play_set(board_of({20: 1}), 3, 1)
    assert ((17, 16), (20, 17)) in plays  # 20/17/16
    assert ((20, 17), (26, 24)) in plays  # 20/17 in/24
    assert ((26, 22), (26, 24)) in plays  # in/22 in/24


def test_bar_first():
    """A hit checker on the bar enters before anything else moves, entries included (R6.3)."""
    board = board_of({25: 1, 10: 1}, theirs={6: 2})  # our 19 is blocked
    plays = play_set(board, 6, 5)
    assert plays == {((20, 14), (25, 20)), ((10, 4), (25, 20))}
    # 6-6 cannot enter: nothing moves, neither 10/4 nor an entry from the start
    assert acey_plays(board, 6, 6)[0].shape[0] == 0


def test_no_bear_off_with_checkers_waiting():
    """14 checkers home and one not yet entered: no bearing off (R7.1)."""
    home = {6: 3, 5: 3, 4: 2, 3: 2, 2: 2, 1: 2}
    waiting_board = board_of(home)
    assert all(t != 0 for m in acey_plays(waiting_board, 6, 5)[1] for s, t in as_pairs(m))
    assert ((6, 1), (26, 19)) in play_set(waiting_board, 6, 5)
    entered = board_of(home, my_off=1)
    assert ((5, 0), (6, 0)) in play_set(entered, 6, 5)


def test_acey_deucey_chooses_doubles():
    """From the start, 1-2 then any doubles: in/24 in/23 and four 6s is one play (R11.2)."""
    boards, moves, doubles = acey_deucey_plays(np.zeros((2, 26), dtype=np.int8))
    found = {
        (tuple(sorted(as_pairs(m[:2]))), tuple(as_pairs(m[2:]))): int(d)
        for m, d in zip(moves, doubles)
    }
    assert found[((26, 23), (26, 24)), ((26, 19),) * 4] == 6
    assert set(doubles.tolist()) == {1, 2, 3, 4, 5, 6}
    assert all((m[:, 0] >= 0).sum() == 6 for m in moves)  # always a roll again here
    assert len({key(b) for b in boards}) == len(boards)


def test_acey_deucey_with_no_entry_loses_the_roll():
    """The opponent holds its 1- to 5-points (our 20-24): neither the 1 nor the 2 enters,
    the whole roll is lost (R5.5)."""
    closed = board_of(theirs={1: 2, 2: 2, 3: 2, 4: 2, 5: 2})
    boards, moves, doubles = acey_deucey_plays(closed)
    assert boards.shape == (0, 2, 26) and moves.shape == (0, 6, 2) and doubles.shape == (0,)


def test_acey_deucey_half_played_forfeits_the_doubles():
    """Our 23 and 22 are blocked: only the 1 enters (in/24), the 2 cannot follow, so no
    doubles are chosen (doubles value 0)."""
    board = board_of(theirs={2: 2, 3: 2})
    _, moves, doubles = acey_deucey_plays(board)
    assert doubles.tolist() == [0]
    assert as_pairs(moves[0]) == [(26, 24)]
    assert (moves[0, 1:] == -1).all()


def test_acey_deucey_a_blocked_choice_keeps_the_position_after_the_1_2():
    """The opponent holds its 3- to 6-points (our 19-22). The 1-2 is in/24 in/23; 3s and 4s
    then cannot be played at all, so that position is a play of its own, kept with the
    smallest such choice, 3, and no roll again."""
    board = board_of(theirs={3: 2, 4: 2, 5: 2, 6: 2})
    boards, moves, doubles = acey_deucey_plays(board)
    assert {key(b) for b in boards} == set(reference_acey_deucey(key(board)))
    short = [
        (sorted(as_pairs(m)), int(d)) for m, d in zip(moves, doubles) if (m[:, 0] >= 0).sum() < 6
    ]
    assert short == [([(26, 23), (26, 24)], 3)]
    assert set(doubles.tolist()) == {1, 2, 3, 5, 6}
