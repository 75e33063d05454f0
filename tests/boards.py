"""Positions for tests: random play, GNU Backgammon self-play and random boards.

Boards use gammonlab's layout ``(2, 26)``: row 0 on roll, column 0 off,
1..24 points, 25 bar. ``to_gnubg`` gives GNU Backgammon's ``[2][25]`` lists
(row 0 the side not on roll, row 1 the side on roll, index 24 the bar).
"""

from __future__ import annotations

import numpy as np

from gammonlab._kernels.movegen import generate_plays
from gammonlab.rules import VARIANTS

START = VARIANTS["standard"].initial_board()
VARIANT_STARTS = {
    name: VARIANTS[name].initial_board()
    for name in ("nackgammon", "nackgammon-004", "hypergammon-1", "hypergammon-2", "hypergammon-3")
}


def to_gnubg(board: np.ndarray) -> list[list[int]]:
    return [[int(board[1, p]) for p in range(1, 26)], [int(board[0, p]) for p in range(1, 26)]]


def from_gnubg(g: list[list[int]], checkers: int = 15) -> np.ndarray:
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 1:] = g[1]
    board[1, 1:] = g[0]
    board[:, 0] = checkers - board[:, 1:].sum(axis=1)
    return board


def random_play(
    rng: np.random.Generator, games: int, start: np.ndarray = START, max_plies: int = 500
) -> list[tuple[np.ndarray, int, int]]:
    """(board, die1, die2) for every turn of ``games`` games of random legal plays."""
    out = []
    for _ in range(games):
        board = start.copy()
        for _ in range(max_plies):
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            out.append((board.copy(), d1, d2))
            boards, _ = generate_plays(board, d1, d2)
            if len(boards):
                board = boards[rng.integers(len(boards))]
            if board[0, 0] == start[0].sum():
                break
            board = board[::-1].copy()
    return out


def apply_gnubg_moves(g: list[list[int]], moves) -> list[list[int]]:
    """Apply gnubg-numbered moves (25 bar, 0 off) for the side on roll (row 1), then swap."""
    me, opp = list(g[1]), list(g[0])
    for src, dst in moves:
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return [me, opp]


def random_board(rng: np.random.Generator, kind: str = "any", checkers: int = 15) -> np.ndarray:
    """A random legal board: ``any``, ``bearoff`` (both sides home), ``bar``
    (side on roll on the bar against a strong home board) or ``race``."""
    board = np.zeros((2, 26), dtype=np.int8)
    if kind == "bearoff":
        for side in range(2):
            on = rng.integers(1, checkers + 1)
            board[side, 1:7] = rng.multinomial(on, np.ones(6) / 6)
    elif kind == "race":
        board[0, 1:12] = rng.multinomial(checkers, np.ones(11) / 11)
        board[1, 1:12] = rng.multinomial(checkers, np.ones(11) / 11)
    else:
        owner = rng.integers(0, 2, size=24)
        for side in range(2):
            slots = [p for p in range(1, 25) if owner[p - 1] == side] + [25]
            if kind == "bar" and side == 1:
                # a strong home board for the opponent: its points 1..6 are ours 19..24
                slots = [p for p in range(1, 7)] + slots
            weights = rng.random(len(slots)) ** 3
            on = rng.integers(checkers // 2, checkers + 1)
            counts = rng.multinomial(on, weights / weights.sum())
            for slot, n in zip(slots, counts):
                board[side, slot] += n
        if kind == "bar":
            board[0, 25] += 1 + rng.integers(0, 3)
        # resolve points held by both sides in favour of the side on roll
        for p in range(1, 25):
            if board[0, p] and board[1, 25 - p]:
                board[1, 25 - p] = 0
    over = board[:, 1:].sum(axis=1) - checkers
    for side in range(2):
        while over[side] > 0:
            slot = rng.integers(1, 26)
            if board[side, slot] > 0:
                board[side, slot] -= 1
                over[side] -= 1
    board[:, 0] = checkers - board[:, 1:].sum(axis=1)
    return board
