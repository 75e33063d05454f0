"""The net's hand-made features: the bitmask kernels against their definitions,
written point by point in plain Python."""

from __future__ import annotations

import numpy as np
import pytest
from boards import random_play

from gammonlab._kernels.net_features import (
    break_contact,
    containment,
    dance_count,
    escapes,
    feature_counts,
    forward_anchor,
    hit_pips,
    shot_count,
)

BAR = 25


def hits_by_points(board: np.ndarray, me: int, opp: int) -> dict[tuple[int, int], int]:
    """For each roll (ordered pair of dice) with which ``me`` hits a blot of ``opp``,
    the pips the blot hit nearest ``opp``'s home loses (its point in ``me``'s
    numbering), every checker and every way of playing the dice tried one by one."""
    rolls: dict[tuple[int, int], int] = {}
    on_bar = board[me, BAR]
    sources = [BAR] if on_bar > 0 else [p for p in range(1, BAR) if board[me, p] > 0]

    def open_point(point: int) -> bool:  # R4.2, ``point`` in me's numbering
        return board[opp, BAR - point] < 2

    for blot in range(1, 25):
        if board[opp, BAR - blot] != 1:
            continue
        for source in sources:
            if source <= blot:
                continue
            d = source - blot
            for a in range(1, 7):
                for b in range(1, 7):
                    hit = False
                    if d in (a, b):
                        hit = True
                    elif on_bar >= 2:
                        continue
                    elif a != b and d == a + b:
                        hit = open_point(source - a) or open_point(source - b)
                    elif a == b and d % a == 0 and 2 <= d // a <= 4:
                        hit = all(open_point(source - k * a) for k in range(1, d // a))
                    if hit:
                        rolls[a, b] = max(rolls.get((a, b), 0), blot)
    return rolls


def shots_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The rolls (ordered pairs of 36) with which ``me`` hits a blot of ``opp``."""
    return len(hits_by_points(board, me, opp))


def hit_pips_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The pips ``opp`` loses to ``me``'s hits, summed over the 36 rolls: for each
    hitting roll the most a blot it hits loses (a blot on ``opp``'s point ``q``
    goes to the bar, 25: it loses ``25 - q``)."""
    return sum(hits_by_points(board, me, opp).values())


def break_contact_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """Pips ``me``'s checkers must travel to pass ``opp``'s rearmost checker, as
    each checker behind it counts them one by one."""
    back = max((p for p in range(1, BAR + 1) if board[opp, p] > 0), default=0)
    if back == 0:
        return 0
    level = BAR - back  # the rearmost opposing checker, in me's numbering
    return sum(int(board[me, p]) * (p - level + 1) for p in range(1, BAR + 1) if p > level)


def forward_anchor_by_points(board: np.ndarray, me: int) -> int:
    for point in range(19, 25):
        if board[me, point] >= 2:
            return 25 - point
    return 0


def dance_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The rolls of 36 with which none of ``me``'s checkers on the bar enters."""
    if board[me, BAR] == 0:
        return 0
    return sum(
        board[opp, a] >= 2 and board[opp, b] >= 2  # die a enters on opp's a-point
        for a in range(1, 7)
        for b in range(1, 7)
    )


def escapes_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The rolls with which ``me``'s rearmost checker lands beyond the furthest
    opposing point held in the 12 in front of it, stopping on open points only."""
    back = max((p for p in range(1, BAR + 1) if board[me, p] > 0), default=0)
    return escapes_from(board, back, opp)


def containment_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The fewest escaping rolls of a checker of ``me`` put on any of its points 13 to 24."""
    return min(escapes_from(board, source, opp) for source in range(13, 25))


def escapes_from(board: np.ndarray, back: int, opp: int) -> int:
    """The rolls with which a checker on ``back`` (0: none) lands beyond the furthest
    opposing point held in the 12 in front of it, stopping on open points only."""
    if back == 0:
        return 0
    held = {p for p in range(max(1, back - 12), back) if board[opp, BAR - p] >= 2}
    if not held:
        return 36
    furthest = min(held)

    def escapes_with(steps: list[int]) -> bool:
        point = back
        for step in steps:
            point -= step
            if point in held:
                return False
            if point < furthest:
                return True
        return False

    return sum(
        any(escapes_with(steps) for steps in ([[a] * 4] if a == b else [[a, b], [b, a]]))
        for a in range(1, 7)
        for b in range(1, 7)
    )


def prime_by_points(board: np.ndarray, row: int) -> int:
    best = run = 0
    for point in range(1, 25):
        run = run + 1 if board[row, point] >= 2 else 0
        best = max(best, run)
    return best


def counts_by_points(board: np.ndarray, me: int) -> tuple[int, ...]:
    opp = 1 - me

    def back(row: int) -> int:
        return max((p for p in range(1, BAR + 1) if board[row, p] > 0), default=0)

    def both(count) -> tuple[int, int]:
        """A feature of each side: the side on roll's, then the opponent's."""
        return count(board, me, opp), count(board, opp, me)

    def each(count) -> tuple[int, int]:
        """A feature of one side's checkers, for each side."""
        return count(board, me), count(board, opp)

    return (
        *both(shots_by_points),
        *each(prime_by_points),
        *both(escapes_by_points),
        back(me),
        back(opp),
        *both(containment_by_points),
        *both(hit_pips_by_points),
        *both(break_contact_by_points),
        *each(forward_anchor_by_points),
        *both(dance_by_points),
    )


@pytest.fixture(scope="module")
def boards() -> np.ndarray:
    """Positions of random games, and boards of 15 checkers a side thrown at random
    on the columns (many on the bar, points shared by both sides: the features
    are defined for any board)."""
    rng = np.random.default_rng(20261203)
    played = np.stack([board for board, _, _ in random_play(rng, 10)]).astype(np.int8)
    thrown = np.zeros((600, 2, 26), dtype=np.int8)
    for side in range(2):
        for column in rng.integers(0, 26, size=(600, 15)).T:
            np.add.at(thrown[:, side], (np.arange(600), column), 1)
    return np.concatenate([played, thrown])


def test_features_equal_their_definitions(boards):
    assert len(boards) > 1000
    seen = set()
    for board in boards:
        for me in (0, 1):
            expected = counts_by_points(board, me)
            assert feature_counts(board, me) == expected, (board.tolist(), me)
            assert shot_count(board, me, 1 - me) == expected[0]
            assert escapes(board, me, 1 - me) == expected[4]
            assert containment(board, me, 1 - me) == expected[8]
            assert hit_pips(board, me, 1 - me) == expected[10]
            assert break_contact(board, me, 1 - me) == expected[12]
            assert forward_anchor(board, me) == expected[14]
            assert dance_count(board, me, 1 - me) == expected[16]
            seen.add((expected[0] > 0, expected[14] > 0, expected[16] > 0))
    assert {s[0] for s in seen} == {False, True}
    assert {s[1] for s in seen} == {False, True}
    assert {s[2] for s in seen} == {False, True}


def test_new_features_on_set_positions():
    start = np.zeros((2, 26), dtype=np.int8)
    for row in range(2):
        start[row, [24, 13, 8, 6]] = [2, 5, 3, 5]
    # no blots; 167 pips to pass the opposing 24-point checkers; the 24-point anchor
    assert feature_counts(start, 0)[10:] == (0, 0, 167, 167, 1, 1, 0, 0)
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 8] = 1  # one of ours on our 8-point, 5 pips above their blot on our 3-point
    board[0, 20] = 2  # our anchor on their 5-point
    board[0, BAR] = 1
    board[1, 22] = 1
    board[1, [6, 5, 4]] = 2  # three points of their home board closed
    board[1, 13] = 9
    # from the bar only: with one checker there, 5s, 4-1 and 3-2 that enter and go on
    # to the 3-point (25 - 22) cost the blot 3 pips; they do not hit the 8-point's way
    hits = hits_by_points(board, 0, 1)
    assert shot_count(board, 0, 1) == len(hits) == 0  # the blot is 22 pips from the bar
    assert dance_count(board, 0, 1) == 9
    assert forward_anchor(board, 0) == 5
    assert break_contact(board, 0, 1) == (8 - 3 + 1) + 2 * (20 - 3 + 1) + (25 - 3 + 1)
    board[0, BAR] = 0  # now the 8-point's checker hits: any 5, 4-1, 1-4, 3-2, 2-3
    assert shot_count(board, 0, 1) == 15
    assert hit_pips(board, 0, 1) == 15 * 3
    assert dance_count(board, 0, 1) == 0
