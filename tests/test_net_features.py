"""The net's hand-made features: the bitmask kernels against their definitions,
written point by point in plain Python."""

from __future__ import annotations

import numpy as np
import pytest
from boards import random_play

from gammonlab._kernels.net_features import containment, escapes, feature_counts, shot_count

BAR = 25


def shots_by_points(board: np.ndarray, me: int, opp: int) -> int:
    """The rolls (ordered pairs of 36) with which ``me`` hits a blot of ``opp``,
    every checker and every way of playing the dice tried one by one."""
    rolls = set()
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
                    if d in (a, b):
                        rolls.add((a, b))
                    elif on_bar >= 2:
                        continue
                    elif a != b and d == a + b:
                        if open_point(source - a) or open_point(source - b):
                            rolls.add((a, b))
                    elif a == b and d % a == 0 and 2 <= d // a <= 4:
                        if all(open_point(source - k * a) for k in range(1, d // a)):
                            rolls.add((a, b))
    return len(rolls)


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

    return (
        shots_by_points(board, me, opp),
        shots_by_points(board, opp, me),
        prime_by_points(board, me),
        prime_by_points(board, opp),
        escapes_by_points(board, me, opp),
        escapes_by_points(board, opp, me),
        back(me),
        back(opp),
        containment_by_points(board, me, opp),
        containment_by_points(board, opp, me),
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
            seen.add(expected[0] > 0)
    assert seen == {False, True}


def test_two_on_the_bar_hit_only_where_they_enter():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, BAR] = 2
    board[0, 6] = 13
    board[1, BAR - 21] = 1  # a blot 4 pips into our entry: only a 4 hits it
    board[1, BAR - 18] = 1  # 7 pips in: 6-1, 5-2, 4-3 would, with one checker on the bar
    board[1, 1] = 13
    assert shot_count(board, 0, 1) == 11
    board[0, BAR] = 1
    board[0, 6] = 14
    # one on the bar enters and goes on: 3-1 (via our 22-point; the 24 is held), 6-1 and
    # 5-2 to the 18-point (either order), 2-2 via the 23: not 1-1, which stops on the 24
    assert shot_count(board, 0, 1) == 11 + 2 + 4 + 1
