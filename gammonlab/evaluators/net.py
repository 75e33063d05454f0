"""gammonlab's own neural evaluator: ``get_evaluator("net")``, ``policy="net"``.

Feed-forward nets, one for contact positions and one for races (and, in a file
of three or five, more for parts of contact), trained by gammonlab's own self-play
(:mod:`gammonlab.train`); where both sides bear off, the bear-off database. The
inputs, layers and outputs are described in :mod:`gammonlab._kernels.net`, the
training in ``docs/net.md``. Inference runs in numba kernels, in batches, and
inside the rollout kernels.

The weights ship in the package (``gammonlab/data/net/``), a small ``.npz``
file read on first use and checked: its layout and version, the shapes of its
arrays and a SHA-256 digest of their contents. A missing, damaged or foreign
file raises :class:`~gammonlab.errors.NetWeightsError`, naming the file.

Search depth: ``NetEvaluator(plies=1)`` evaluates a position as the average,
over the 21 rolls, of the position after the play the net prefers at 0-ply
(GNU Backgammon's "1-ply"); ``plies=2`` goes one roll deeper, keeping for each
roll only the plays within a margin of the best at 0-ply (the move filter).

>>> import numpy as np
>>> from gammonlab import Position
>>> from gammonlab.evaluators.base import get_evaluator
>>> p = get_evaluator("net")(Position.initial().board)[0]
>>> bool(p[0] >= p[1] >= p[2] >= 0 and p[3] >= p[4] >= 0), bool(0.4 < p[0] < 0.6)
(True, True)
"""

from __future__ import annotations

import hashlib
import json
import threading
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from .._kernels.net import N_INPUTS, N_OUTPUTS, NET_COUNTS
from .._kernels.net_play import net_probabilities
from .._kernels.net_search import choose_plays, ply_probabilities
from .._kernels.policy import NET
from ..errors import NetWeightsError
from .base import Evaluator, EvaluatorError, check_boards

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "TRAINED_VARIANTS",
    "MoveFilter",
    "NetEvaluator",
    "NetWeights",
    "default_weights_path",
]

FORMAT = "gammonlab-net"
"""The layout name written in every weights file."""
FORMAT_VERSION = 6
"""The newest version of the input layout and file format this gammonlab reads
and writes: version 6 holds nine nets, the contact positions in eight parts;
version 5 five nets, the contact positions in four parts; version 4 three, a
deep contact net beside the contact net; a file of two nets is written as
version 3. gammonlab reads all four."""
_VERSIONS = {3: (2,), 4: (2, 3), 5: (5,), 6: (9,)}
"""The numbers of nets each version this gammonlab reads may hold."""
_VERSION_OF = {n: min(v for v, counts in _VERSIONS.items() if n in counts) for n in NET_COUNTS}
"""The version a file of so many nets is written as: the oldest that holds them."""
WEIGHTS_FILE = "gammonlab-net-15.npz"
TRAINED_VARIANTS = ("standard", "nackgammon", "nackgammon-004")
"""The variants whose games the net is trained on (:data:`gammonlab.train.STARTS`)."""
_ARRAYS = ("w1", "b1", "w2", "b2")


def default_weights_path() -> Path:
    """The weights file shipped in the package."""
    return Path(str(resources.files("gammonlab") / "data" / "net" / WEIGHTS_FILE))


def _counts() -> str:
    """The numbers of nets a file may hold, in words: "2, 3, 5 or 9"."""
    return ", ".join(map(str, NET_COUNTS[:-1])) + f" or {NET_COUNTS[-1]}"


def _digest(arrays: tuple[np.ndarray, ...]) -> str:
    sha = hashlib.sha256()
    for array in arrays:
        sha.update(np.ascontiguousarray(array, dtype=np.float32).tobytes())
    return sha.hexdigest()


_ALIGNMENT = 64
"""Bytes of a cache line: where the weight arrays start."""


def _aligned(array: Any) -> np.ndarray:
    """``array`` as C-contiguous float32 whose data starts on a cache line (a
    multiple of :data:`_ALIGNMENT` bytes), copied only when it is not so already.

    The kernels add weight rows with vector loads; rows that straddle cache
    lines cost about 14% of the rollout games a CPU second (the shipped net at
    an offset of 16 bytes against 0, measured on one core).
    """
    a = np.asarray(array, dtype=np.float32)
    if a.flags.c_contiguous and a.ctypes.data % _ALIGNMENT == 0:
        return a
    buffer = np.empty(a.nbytes + _ALIGNMENT, dtype=np.uint8)
    start = -buffer.ctypes.data % _ALIGNMENT
    out = buffer[start : start + a.nbytes].view(np.float32).reshape(a.shape)
    out[...] = a
    return out


@dataclass(eq=False)
class NetWeights:
    """The weights of the nets (contact, race and, if there are more, nets for
    parts of contact; :mod:`gammonlab._kernels.net`) and what is known of them.

    ``w1`` float32 ``(nets, N_INPUTS, hidden)``, ``b1`` ``(nets, hidden)``, ``w2``
    ``(nets, 5, hidden)``, ``b2`` ``(nets, 5)``, ``nets`` 2, 3, 5 or 9; ``meta`` holds
    the training record (games played, seed, learning rate, ...), written into
    the file.
    """

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in _ARRAYS:
            setattr(self, name, _aligned(getattr(self, name)))
        problem = self._shape_problem()
        if problem:
            raise NetWeightsError(f"net weights: {problem}")

    def _shape_problem(self) -> str | None:
        nets, hidden = (self.w1.shape[0], self.w1.shape[-1]) if self.w1.ndim == 3 else (0, -1)
        if nets not in NET_COUNTS:
            return (
                f"array w1 has shape {self.w1.shape}, expected "
                f"({_counts()}, {N_INPUTS}, hidden units)"
            )
        expected = {
            "w1": (nets, N_INPUTS, hidden),
            "b1": (nets, hidden),
            "w2": (nets, N_OUTPUTS, hidden),
            "b2": (nets, N_OUTPUTS),
        }
        for name, shape in expected.items():
            if getattr(self, name).shape != shape or hidden < 1:
                return (
                    f"array {name} has shape {getattr(self, name).shape}, expected "
                    f"{shape} for {N_INPUTS} inputs and {nets} nets"
                )
        for name in _ARRAYS:
            if not np.isfinite(getattr(self, name)).all():
                return f"array {name} holds a NaN or infinite weight"
        return None

    @property
    def hidden(self) -> int:
        """Hidden units of each net."""
        return int(self.w1.shape[-1])

    @property
    def nets(self) -> int:
        """Nets in the file: 2 (contact, race), 3 (and deep contact), 5 (contact in
        four parts) or 9 (in eight: :data:`gammonlab._kernels.net.CONTACT_PARTS`)."""
        return int(self.w1.shape[0])

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(w1, b1, w2, b2)``, as the kernels take them."""
        return self.w1, self.b1, self.w2, self.b2

    def digest(self) -> str:
        """SHA-256 of the weights' float32 bytes, in the order w1, b1, w2, b2."""
        return _digest(self.arrays)

    def copy(self) -> NetWeights:
        return NetWeights(
            self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy(), meta=dict(self.meta)
        )

    @classmethod
    def initial(cls, hidden: int = 128, seed: int = 0, nets: int = 2) -> NetWeights:
        """Small random weights of ``nets`` nets to start training from (He
        initialisation of the first layer for about 30 active inputs, zero biases)."""
        if not isinstance(hidden, int) or hidden < 1:
            raise EvaluatorError(f"hidden units: expected a positive integer, got {hidden!r}")
        if nets not in NET_COUNTS:
            raise EvaluatorError(f"nets: expected {_counts()}, got {nets!r}")
        rng = np.random.default_rng(seed)
        w1 = rng.standard_normal((nets, N_INPUTS, hidden)) * np.sqrt(2.0 / 30.0) * 0.5
        w2 = rng.standard_normal((nets, N_OUTPUTS, hidden)) / np.sqrt(hidden)
        return cls(
            w1,
            np.zeros((nets, hidden)),
            w2,
            np.zeros((nets, N_OUTPUTS)),
            meta={"games": 0, "init_seed": seed},
        )

    def save(self, path: str | Path) -> Path:
        """Write the weights and ``meta`` (with the format and digest) to ``path``."""
        path = Path(path)
        meta = dict(
            self.meta,
            format=FORMAT,
            version=_VERSION_OF[self.nets],
            inputs=N_INPUTS,
            hidden=self.hidden,
            sha256=self.digest(),
        )
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".part")
        with open(temporary, "wb") as handle:
            np.savez_compressed(
                handle,
                meta=np.array(json.dumps(meta, sort_keys=True)),
                **dict(zip(_ARRAYS, self.arrays)),  # type: ignore[arg-type]
            )
        temporary.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path | None = None) -> NetWeights:
        """Read and check a weights file (default: the one shipped in the package).

        Raises
        ------
        NetWeightsError
            The file is missing, is not a weights file, is damaged (its digest
            or shapes do not match) or has another layout version.
        """
        path = default_weights_path() if path is None else Path(path)
        if not path.is_file():
            raise NetWeightsError(f"{path}: the net's weights file does not exist")
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {name: np.array(data[name]) for name in (*_ARRAYS, "meta")}
        except KeyError as exc:
            raise NetWeightsError(
                f"{path}: not a gammonlab net weights file (no array {exc.args[0]!r})"
            ) from None
        except Exception as exc:  # zipfile, zlib and numpy raise many kinds on damage
            raise NetWeightsError(
                f"{path}: damaged net weights file, cannot be read ({type(exc).__name__}: {exc})"
            ) from None
        try:
            meta = json.loads(str(arrays.pop("meta")))
        except (TypeError, ValueError) as exc:
            raise NetWeightsError(
                f"{path}: damaged net weights file, unreadable metadata ({exc})"
            ) from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise NetWeightsError(f"{path}: not a gammonlab net weights file")
        version = meta.get("version")
        if version not in _VERSIONS:
            raise NetWeightsError(
                f"{path}: net weights of layout version "
                f"{version!r}; this gammonlab reads versions "
                f"{', '.join(map(str, _VERSIONS))}"
            )
        try:
            weights = cls(**arrays, meta=meta)
        except NetWeightsError as exc:
            raise NetWeightsError(f"{path}: damaged {exc}") from None
        if weights.nets not in _VERSIONS[version]:
            raise NetWeightsError(
                f"{path}: damaged net weights file, {weights.nets} nets in a file of "
                f"version {version}"
            )
        if weights.digest() != meta.get("sha256"):
            raise NetWeightsError(
                f"{path}: damaged net weights file, the weights do not match their SHA-256 digest"
            )
        return weights


@dataclass(frozen=True)
class MoveFilter:
    """Which plays of a roll a deeper search looks at: at most ``keep`` of them,
    those within ``margin`` (equity) of the best at 0-ply (the best always)."""

    keep: int = 5
    margin: float = 0.16

    def __post_init__(self) -> None:
        if not isinstance(self.keep, int) or self.keep < 1:
            raise EvaluatorError(f"move filter: keep must be a positive integer, got {self.keep!r}")
        if not self.margin >= 0:
            raise EvaluatorError(f"move filter: margin must be >= 0, got {self.margin!r}")


_CACHE: dict[str, NetWeights] = {}
_CACHE_LOCK = threading.Lock()


def _cached(path: Path) -> NetWeights:
    key = str(path.resolve())
    with _CACHE_LOCK:
        if key not in _CACHE:
            _CACHE[key] = NetWeights.load(path)
        return _CACHE[key]


class NetEvaluator(Evaluator):
    """gammonlab's neural evaluator at 0, 1 or 2 plies.

    Parameters
    ----------
    weights : NetWeights, path or None
        The weights; default the file shipped in the package, read on first use.
    plies : int
        0 (the nets' own output), 1 or 2 (see the module's description).
    move_filter : MoveFilter
        The plays of each roll a 2-ply search looks at.
    """

    kernel = NET

    def __init__(
        self,
        weights: NetWeights | str | Path | None = None,
        *,
        plies: int = 0,
        move_filter: MoveFilter | None = None,
    ) -> None:
        if plies not in (0, 1, 2):
            raise EvaluatorError(f"plies must be 0, 1 or 2, got {plies!r}")
        self.plies = plies
        self.move_filter = move_filter or MoveFilter()
        self._weights = weights if isinstance(weights, NetWeights) else None
        self._path = (
            None
            if isinstance(weights, NetWeights)
            else (default_weights_path() if weights is None else Path(weights))
        )
        self.name = "net" if plies == 0 else f"net-{plies}ply"
        self._tables: tuple[np.ndarray, np.ndarray] | None = None

    @property
    def weights(self) -> NetWeights:
        """The weights, read and checked on first use."""
        if self._weights is None:
            assert self._path is not None
            self._weights = _cached(self._path)
        return self._weights

    @property
    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The bear-off database's ``(rolls, first_off)`` tables, found once."""
        if self._tables is None:
            from .bearoff import BearoffDatabase

            db = BearoffDatabase.get()
            self._tables = (db.rolls, db.first_off)
        return self._tables

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        w = self.weights.arrays
        if self.plies == 0:
            return net_probabilities(boards, w, self.tables)
        return ply_probabilities(
            boards, self.plies, w, self.tables, self.move_filter.keep, self.move_filter.margin
        )

    def choose(self, boards: np.ndarray, dice: np.ndarray) -> np.ndarray:
        """The board after the net's play on each board and roll, at this
        evaluator's depth (above 0-ply, among the plays the move filter keeps).

        A roll with no legal play (R5.5) leaves the board unchanged.
        """
        array = check_boards(boards)
        rolls = np.ascontiguousarray(dice, dtype=np.int64).reshape(-1, 2)
        if rolls.shape[0] != array.shape[0] or ((rolls < 1) | (rolls > 6)).any():
            raise EvaluatorError(
                f"dice: expected one roll of two dice 1-6 per board, got shape {np.shape(dice)}"
            )
        return choose_plays(
            array,
            rolls,
            self.plies,
            self.weights.arrays,
            self.tables,
            self.move_filter.keep,
            self.move_filter.margin,
        )

    def __repr__(self) -> str:
        return "get_evaluator('net')" if self.plies == 0 else f"NetEvaluator(plies={self.plies})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_tables"] = None  # found again where it is unpickled
        return state

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.plies == self.plies  # type: ignore[attr-defined]
            and other.weights.digest() == self.weights.digest()
        )  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(("NetEvaluator", self.plies))
