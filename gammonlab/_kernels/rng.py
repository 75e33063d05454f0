"""Counter-based random numbers for rollouts (numba kernels).

A rollout must give the same numbers for the same seed however its trials are
split over processes or machines. So no generator state is carried from one
trial to the next: every random number is a pure function of
``(seed key, trial, stream, counter)``, computed by hashing the counter with
SplitMix64's output function (Steele, Lea and Flood, "Fast splittable
pseudorandom number generators", OOPSLA 2014; the finaliser constants are
Sebastiano Vigna's, from ``splitmix64.c``). Trial ``t``'s dice are the same
whether ``t`` is played first in one process or last on another machine.

Streams keep independent uses apart: the dice (:data:`DICE`) and the random
policy's choices (:data:`CHOICE`). Because the dice of trial ``t`` come from
their own stream, two rollouts with the same seed see the same dice in trial
``t`` (common random numbers) whatever the plays do.

Integers in ``0 .. n - 1`` are drawn without bias with Lemire's
multiply-and-reject method on 32-bit halves ("Fast random integer generation in
an interval", ACM TOMACS 2019): the few values that would favour some results
are rejected and the next counter is used.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..errors import ArgumentError
from .board import ROLLS

__all__ = [
    "CHOICE",
    "DICE",
    "draw_below",
    "mix64",
    "next_dice",
    "roll_index",
    "seed_key",
    "stream_key",
]

_GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_STREAM_SALT = np.uint64(0xD1B54A32D192ED03)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO_32 = 1 << 32

DICE = 1
"""Stream of the dice."""
CHOICE = 2
"""Stream of the random policy's choices among legal plays."""


@njit(cache=True, nogil=True)
def mix64(z: np.uint64) -> np.uint64:
    """SplitMix64's output function: a bijective 64-bit mixer."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    return z ^ (z >> np.uint64(31))


@njit(cache=True, nogil=True)
def stream_key(key: np.uint64, trial: int, stream: int) -> np.uint64:
    """The base of one trial's stream: a hash of (seed key, trial, stream)."""
    base = mix64(key + _GOLDEN_GAMMA * np.uint64(trial + 1))
    return mix64(base ^ (_STREAM_SALT * np.uint64(stream)))


@njit(cache=True, nogil=True)
def draw_below(base: np.uint64, counter: int, n: int) -> tuple[int, int]:
    """An integer uniform in ``0 .. n - 1`` from a stream, and the next counter.

    ``n`` must be between 1 and 2**32. Each 64-bit output gives two 32-bit
    candidates; a candidate is rejected (with probability below ``n / 2**32``)
    when accepting it would make some results more likely than others.
    """
    bound = np.uint64(n)
    threshold = np.uint64((_TWO_32 - n) % n)  # 2**32 mod n
    while True:
        word = mix64(base + _GOLDEN_GAMMA * np.uint64(counter + 1))
        counter += 1
        for half in range(2):
            value = (word >> np.uint64(32)) if half == 0 else (word & _LOW32)
            product = value * bound
            if (product & _LOW32) >= threshold:
                return np.int64(product >> np.uint64(32)), counter
            # rejected: try the other half, then the next counter


@njit(cache=True, nogil=True)
def roll_index(base: np.uint64, counter: int) -> tuple[int, int]:
    """A roll of two dice as an index ``0 .. 35`` (see :data:`ROLLS`) and the next counter."""
    return draw_below(base, counter, ROLLS)


@njit(cache=True, nogil=True)
def next_dice(base: np.uint64, counter: int, opening: bool) -> tuple[int, int, int]:
    """The next roll of a stream as its two dice, and the next counter. With
    ``opening`` a double is drawn again (R3: the opening roll is two different numbers)."""
    roll, counter = roll_index(base, counter)
    while opening and roll // 6 == roll % 6:
        roll, counter = roll_index(base, counter)
    return roll // 6 + 1, roll % 6 + 1, counter


def seed_key(seed: int) -> np.uint64:
    """The 64-bit key of a non-negative integer seed of any size.

    Seeds above 2**64 are folded 64 bits at a time, so every Python integer
    gives a key and different small seeds give unrelated keys.

    >>> int(seed_key(1)) == int(seed_key(1))
    True
    >>> int(seed_key(1)) != int(seed_key(2))
    True
    """
    if seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer, got {seed}")
    mask = (1 << 64) - 1
    key = 0
    word = 0
    while True:
        key = int(mix64(np.uint64((key ^ (seed & mask) ^ word) & mask)))
        seed >>= 64
        word += 1
        if seed == 0:
            return np.uint64(key)
