"""The one-sided bear-off database: exact roll distributions for the last stage.

For every way of having at most 15 checkers on the six home points (54,264
positions, the empty one included) the database holds the exact distribution
of the number of rolls needed to bear them all off, playing every roll to
minimise the expected number of rolls, and the distribution of the number of
rolls until the first checker comes off (playing for that instead), which is
what saving a gammon takes. gammonlab computes it itself (a dynamic programme
in numba, a fraction of a second once compiled) the first time it is needed
and keeps it in the user's cache directory.

A position is a count vector for points 1..6, ``(1, 0, 0, 0, 0, 0)`` being
one checker on the 1-point. Its index is GNU Backgammon's combinatorial index
(see :mod:`gammonlab._kernels.bearoff`): 0 for no checker, 1..6 for one checker
on point 1..6, ..., 54,263 for 15 checkers on the 6-point.

Cache
-----
``<cache>/bearoff-os-6x15-v1.npz`` where ``<cache>`` is ``$GAMMONLAB_CACHE_DIR``
if set, else ``platformdirs.user_cache_dir("gammonlab")``. The file is written
atomically (a temporary file, then :func:`os.replace`) and checked when read
(magic string, format version, shapes, dtypes, a SHA-256 of the tables and a
few known values); anything wrong and it is rebuilt. Every table is float64,
in a compressed ``.npz`` of about 5 MB that loads in well under a second.

Two-sided races are evaluated from the two one-sided distributions, each side
playing its own optimal one-sided bear-off: exact for the one-sided game, an
approximation of the true two-sided optimum (which can trade expected rolls for
a better chance in the race) that GNU Backgammon also uses beyond its small
exact two-sided database.

>>> db = BearoffDatabase.get()
>>> db.expected_rolls((2, 0, 0, 0, 0, 0))
1.0
>>> round(db.expected_rolls((0, 0, 0, 0, 0, 15)), 4)
12.2662
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
import threading
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .._kernels import bearoff as _k
from .._kernels.bearoff import (
    MAX_FIRST_OFF,
    MAX_ROLLS,
    N_CHECKERS,
    N_POINTS,
    N_POSITIONS,
    bearoff_best,
)
from ..errors import InvalidPositionError

__all__ = [
    "CACHE_ENV",
    "FORMAT_VERSION",
    "MAX_FIRST_OFF",
    "MAX_ROLLS",
    "N_POSITIONS",
    "BearoffDatabase",
    "bearoff_best",
    "cache_dir",
    "evaluate_bearoff",
    "is_pure_bearoff",
    "two_sided_win_probability",
]

FORMAT_VERSION = 1
"""Version of the cache file's layout; part of its name."""
CACHE_ENV = "GAMMONLAB_CACHE_DIR"
"""Environment variable naming the cache folder (overrides the platform default)."""
_MAGIC = "gammonlab one-sided bear-off database, 6 points x 15 checkers"
_FILE_NAME = f"bearoff-os-{N_POINTS}x{N_CHECKERS}-v{FORMAT_VERSION}.npz"
# Known values the loader checks: expected rolls of 15 checkers on the 6-point
# (GNU Backgammon's database agrees to 1e-4), and of one checker on the 6-point
# (1-1, 2-1, 3-1, 3-2 and 4-1 leave it on the board: 1 + 9/36).
_KNOWN_EXPECTED = ((N_POSITIONS - 1, 12.266187171764624), (6, 1.25))


def cache_dir() -> Path:
    """The folder of gammonlab's cached files: ``$GAMMONLAB_CACHE_DIR`` or the
    platform's user cache folder for ``gammonlab``.

    >>> cache_dir().name != ""
    True
    """
    folder = os.environ.get(CACHE_ENV)
    if folder:
        return Path(folder).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("gammonlab"))


def _counts(counts: Any, what: str = "counts") -> np.ndarray:
    array = np.asarray(counts)
    if array.shape != (N_POINTS,) or not np.issubdtype(array.dtype, np.integer):
        raise InvalidPositionError(
            f"{what}: expected {N_POINTS} checker counts for points 1..6, got {counts!r}"
        )
    if (array < 0).any() or array.sum() > N_CHECKERS:
        raise InvalidPositionError(
            f"{what}: expected 0..{N_CHECKERS} checkers in all on points 1..6, got {counts!r}"
        )
    return array.astype(np.int64)


def _digest(*arrays: np.ndarray) -> np.ndarray:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return np.frombuffer(h.digest(), dtype=np.uint8)


class BearoffDatabase:
    """The one-sided bear-off tables, built or loaded from the cache.

    Use :meth:`get` (one shared instance per process and cache file) or
    :meth:`load`. Attributes:

    ``expected``
        float64 ``(54264,)``: expected rolls to bear off, optimal play.
    ``rolls``
        float64 ``(54264, MAX_ROLLS + 1)``: ``rolls[i, t]`` = P(exactly ``t`` rolls).
    ``first_off``
        float64 ``(54264, MAX_FIRST_OFF + 1)``: P(first checker off on roll
        ``t``), playing to bring one off as soon as possible (row 0 is zero).
    ``path``
        The cache file, or ``None`` for a database built only in memory.
    ``build_seconds``
        Seconds this process spent building it (``None`` if it was loaded).

    >>> db = BearoffDatabase.get()
    >>> db.index((1, 0, 0, 0, 0, 0)), db.position(7)
    (1, (2, 0, 0, 0, 0, 0))
    """

    _instances: ClassVar[dict[Path, BearoffDatabase]] = {}
    _lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self,
        expected: np.ndarray,
        rolls: np.ndarray,
        first_off: np.ndarray,
        *,
        path: Path | None = None,
        build_seconds: float | None = None,
    ) -> None:
        self.expected = np.ascontiguousarray(expected, dtype=np.float64)
        self.rolls = np.ascontiguousarray(rolls, dtype=np.float64)
        self.first_off = np.ascontiguousarray(first_off, dtype=np.float64)
        for array in (self.expected, self.rolls, self.first_off):
            array.flags.writeable = False
        self.path = path
        self.build_seconds = build_seconds

    def __repr__(self) -> str:
        where = f"path={str(self.path)!r}" if self.path else "in memory"
        return f"<BearoffDatabase {N_POSITIONS} positions, {where}>"

    # -- construction -------------------------------------------------------------

    @classmethod
    def build(cls) -> BearoffDatabase:
        """Compute the tables (no disk access)."""
        start = time.perf_counter()
        expected, rolls, first_off = _k.build_tables()
        return cls(expected, rolls, first_off, build_seconds=time.perf_counter() - start)

    @classmethod
    def default_path(cls) -> Path:
        """The cache file this process uses (depends on ``$GAMMONLAB_CACHE_DIR``)."""
        return cache_dir() / _FILE_NAME

    @classmethod
    def load(
        cls, path: str | os.PathLike[str] | None = None, *, rebuild: bool = False
    ) -> BearoffDatabase:
        """Read the database from ``path`` (default :meth:`default_path`), or build
        and write it there if the file is missing, unreadable or fails a check.

        A folder that cannot be written only costs the cache (with a warning).
        """
        file = Path(path) if path is not None else cls.default_path()
        if not rebuild:
            loaded = cls._read(file)
            if loaded is not None:
                return loaded
        db = cls.build()
        db.path = file
        try:
            db.save(file)
        except OSError as exc:
            warnings.warn(
                f"could not cache the bear-off database at {file}: {exc}",
                RuntimeWarning,
                stacklevel=2,
            )
            db.path = None
        return db

    @classmethod
    def get(cls) -> BearoffDatabase:
        """The process-wide database for the current cache file (loaded once).

        >>> BearoffDatabase.get() is BearoffDatabase.get()
        True
        """
        file = cls.default_path()
        with cls._lock:
            db = cls._instances.get(file)
            if db is None:
                db = cls._instances[file] = cls.load(file)
            return db

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the tables to ``path`` atomically (temporary file + ``os.replace``)."""
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=file.parent, prefix=file.name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as out:
                np.savez_compressed(
                    out,
                    magic=np.array(_MAGIC),
                    meta=np.array(
                        [FORMAT_VERSION, N_POSITIONS, MAX_ROLLS, MAX_FIRST_OFF], dtype=np.int64
                    ),
                    expected=self.expected,
                    rolls=self.rolls,
                    first_off=self.first_off,
                    sha256=_digest(self.expected, self.rolls, self.first_off),
                )
            os.replace(tmp, file)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    @classmethod
    def _read(cls, file: Path) -> BearoffDatabase | None:
        """The database in ``file`` if it passes every check, else ``None``."""
        if not file.is_file():
            return None
        try:
            with np.load(file, allow_pickle=False) as data:
                if str(data["magic"]) != _MAGIC:
                    return None
                meta = data["meta"]
                if meta.tolist() != [FORMAT_VERSION, N_POSITIONS, MAX_ROLLS, MAX_FIRST_OFF]:
                    return None
                expected = data["expected"]
                rolls = data["rolls"]
                first_off = data["first_off"]
                digest = data["sha256"]
        except Exception:  # a damaged file can fail in many ways; all mean "rebuild"
            return None
        if (
            expected.dtype != np.float64
            or expected.shape != (N_POSITIONS,)
            or rolls.dtype != np.float64
            or rolls.shape != (N_POSITIONS, MAX_ROLLS + 1)
            or first_off.dtype != np.float64
            or first_off.shape != (N_POSITIONS, MAX_FIRST_OFF + 1)
        ):
            return None
        if not np.array_equal(digest, _digest(expected, rolls, first_off)):
            return None
        if expected[0] != 0.0 or expected[1] != 1.0 or abs(rolls[1, 1] - 1.0) > 1e-12:
            return None
        for index, value in _KNOWN_EXPECTED:
            if abs(expected[index] - value) > 1e-9:
                return None
        return cls(expected, rolls, first_off, path=file)

    # -- look-ups -----------------------------------------------------------------

    def index(self, counts: Sequence[int]) -> int:
        """Index of a position given as checker counts on points 1..6.

        >>> BearoffDatabase.get().index((0, 0, 0, 0, 0, 15))
        54263
        """
        return int(_k.bearoff_index(_counts(counts)))

    def position(self, index: int) -> tuple[int, ...]:
        """Counts on points 1..6 of the position with this index.

        >>> BearoffDatabase.get().position(6)
        (0, 0, 0, 0, 0, 1)
        """
        if not 0 <= int(index) < N_POSITIONS:
            raise InvalidPositionError(
                f"bear-off index must be in 0..{N_POSITIONS - 1}, got {index!r}"
            )
        return tuple(int(c) for c in _k.bearoff_position(int(index)))

    def expected_rolls(self, counts: Sequence[int]) -> float:
        """Expected number of rolls to bear off, with the play that minimises it.

        >>> BearoffDatabase.get().expected_rolls((1, 0, 0, 0, 0, 0))
        1.0
        """
        return float(self.expected[self.index(counts)])

    def roll_distribution(self, counts: Sequence[int]) -> np.ndarray:
        """Probabilities (float64) of needing exactly ``t`` rolls, ``t = 0..MAX_ROLLS``.

        >>> rolls = BearoffDatabase.get().roll_distribution((0, 0, 0, 0, 0, 1))
        >>> (rolls[:4] * 36).round(9).tolist()
        [0.0, 27.0, 9.0, 0.0]
        """
        return self.rolls[self.index(counts)].copy()

    def first_off_distribution(self, counts: Sequence[int]) -> np.ndarray:
        """Probabilities (float64) that the first checker comes off on roll ``t``,
        ``t = 0..MAX_FIRST_OFF``, playing to bring one off as soon as possible.

        >>> first = BearoffDatabase.get().first_off_distribution((0, 0, 0, 0, 0, 15))
        >>> (first[:3] * 36).round(3).tolist()
        [0.0, 17.0, 16.194]
        """
        return self.first_off[self.index(counts)].copy()

    def win_probability(
        self, counts_on_roll: Sequence[int], counts_opponent: Sequence[int]
    ) -> float:
        """See :func:`two_sided_win_probability`."""
        a = self.rolls[self.index(counts_on_roll)]
        b = self.rolls[self.index(counts_opponent)]
        return float(_k.two_sided_win(a, b))

    def evaluate(self, boards: Any) -> np.ndarray:
        """See :func:`evaluate_bearoff`."""
        array = np.ascontiguousarray(boards, dtype=np.int8)
        single = array.ndim == 2
        if single:
            array = array[np.newaxis]
        if array.ndim != 3 or array.shape[1:] != (2, 26):
            raise InvalidPositionError(
                f"expected boards of shape (n, 2, 26), got shape {np.shape(boards)}"
            )
        out = _k.two_sided_probabilities(array, self.rolls, self.first_off)
        bad = np.flatnonzero(np.isnan(out[:, 0]))
        if bad.size:
            raise InvalidPositionError(
                f"board {int(bad[0])} is not a pure bear-off (every checker of both sides "
                f"in its home board, none on the bar): {array[bad[0]].tolist()}"
            )
        return out[0] if single else out

    def best(self, candidates: Any) -> int:
        """Index of the candidate board (seen from the mover) whose mover needs the
        fewest expected rolls; see :func:`bearoff_best`."""
        array = np.ascontiguousarray(candidates, dtype=np.int8)
        if array.ndim != 3 or array.shape[1:] != (2, 26):
            raise InvalidPositionError(
                f"expected boards of shape (k, 2, 26), got shape {np.shape(candidates)}"
            )
        best = int(bearoff_best(array, self.expected))
        if best < 0 and array.shape[0]:
            raise InvalidPositionError(
                "a candidate's mover is not bearing off "
                "(a checker outside the home board or on the bar)"
            )
        return best


def is_pure_bearoff(board: Any) -> bool:
    """Whether both sides have every checker in their home boards (none on the bar),
    at most 15 each: the positions :func:`evaluate_bearoff` handles.

    >>> import numpy as np
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 1], board[1, 6] = 2, 3
    >>> is_pure_bearoff(board)
    True
    """
    array = np.asarray(board)
    if array.shape != (2, 26):
        return False
    row0 = np.ascontiguousarray(array[0], dtype=np.int8)
    row1 = np.ascontiguousarray(array[1], dtype=np.int8)
    return _k.bearoff_index_row(row0) >= 0 and _k.bearoff_index_row(row1) >= 0


def two_sided_win_probability(
    counts_on_roll: Sequence[int],
    counts_opponent: Sequence[int],
    *,
    database: BearoffDatabase | None = None,
) -> float:
    """Probability that the side on roll wins a race where both sides are bearing off.

    ``sum_t P_on_roll(t) * P_opponent(>= t)``: the side on roll wins if it needs
    ``t`` rolls and the opponent needs at least ``t`` (the opponent's ``t``-th
    roll comes after). Each side plays to minimise its own expected rolls.

    >>> two_sided_win_probability((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15))
    1.0
    >>> round(two_sided_win_probability((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 2)), 4)
    0.7545
    """
    db = database or BearoffDatabase.get()
    return db.win_probability(counts_on_roll, counts_opponent)


def evaluate_bearoff(boards: Any, *, database: BearoffDatabase | None = None) -> np.ndarray:
    """Evaluator for pure bear-offs: ``(n, 2, 26)`` boards to ``(n, 5)`` probabilities.

    The columns are GNU Backgammon's: win, win gammon, win backgammon, lose
    gammon, lose backgammon, for the side on roll (row 0); win includes
    gammons. A single ``(2, 26)`` board gives a ``(5,)`` array.

    - Wins: :func:`two_sided_win_probability`, both sides playing their
      one-sided optimum (minimum expected rolls).
    - Gammons: possible only against a side with no checker off (column 0 is
      0). Such a side is assumed to play to take its first checker off as soon
      as possible (minimum expected rolls to the first checker), independently
      of the other side, which plays its optimal race; the winner's gammon
      chance is then ``sum_t P_winner(finish on its roll t) * P(loser's first
      checker needs >= t rolls)`` (for the side on roll; one roll more for the
      other side). This is GNU Backgammon's one-sided approximation too; the
      truly optimal play for the gammon race may differ slightly.
    - Backgammons: 0 (every checker is in its own home board).

    Raises :class:`~gammonlab.errors.InvalidPositionError` for a board that is
    not a pure bear-off (see :func:`is_pure_bearoff`).

    >>> import numpy as np
    >>> board = np.zeros((2, 26), dtype=np.int8)
    >>> board[0, 1], board[0, 0] = 1, 14
    >>> board[1, 6] = 15
    >>> evaluate_bearoff(board).tolist()
    [1.0, 1.0, 0.0, 0.0, 0.0]
    """
    db = database or BearoffDatabase.get()
    return db.evaluate(boards)
