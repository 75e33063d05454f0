"""The one-sided bear-off database: rules, invariants, cache, and GNU Backgammon's numbers.

GNU Backgammon (gnubg-nn) ships its own one-sided database ("gnubg-OS-06-15",
the same positions and index) built by the same dynamic programme, but in
16-bit fixed point: every stored probability is rounded to 1/65535 and every
choice of play is made on the rounded numbers. So the exact tables agree with
it to the rounding (means within 5e-4, single probabilities within 3e-3 where
rounding flipped a near-tie), and running our build in its arithmetic
reproduces it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from conftest import needs_module
from numba import njit

from gammonlab._kernels import bearoff as k
from gammonlab.errors import InvalidPositionError
from gammonlab.evaluators.bearoff import (
    MAX_ROLLS,
    N_POSITIONS,
    BearoffDatabase,
    bearoff_best,
    cache_dir,
    evaluate_bearoff,
    is_pure_bearoff,
    two_sided_win_probability,
)

gnubg = needs_module("gnubg_nn")

ROLL_WEIGHTS = (
    np.array([1.0 if d1 == d2 else 2.0 for d1 in range(1, 7) for d2 in range(1, d1 + 1)]) / 36.0
)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> BearoffDatabase:
    return BearoffDatabase.load(tmp_path_factory.mktemp("cache") / "bearoff.npz")


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    return np.array([k.bearoff_position(i) for i in range(N_POSITIONS)])


def index_of(counts: np.ndarray) -> np.ndarray:
    """Vectorised index of many count vectors (the formula in the kernel's docstring)."""
    s = np.cumsum(counts[:, ::-1], axis=1)  # s_k: checkers on the k highest points
    return sum(k._C[s[:, j - 1] + j - 1, j] for j in range(1, 7))


def board(on_roll, opponent) -> np.ndarray:
    b = np.zeros((2, 26), dtype=np.int8)
    b[0, 1:7], b[1, 1:7] = on_roll, opponent
    b[0, 0], b[1, 0] = 15 - sum(on_roll), 15 - sum(opponent)
    return b


def gnubg_board(b: np.ndarray) -> list[list[int]]:
    """GNU Backgammon's layout: row 0 not on roll, row 1 on roll, points 1..24 then bar."""
    return [b[1, 1:].tolist(), b[0, 1:].tolist()]


def random_side(rng, low=1, high=15) -> np.ndarray:
    n = int(rng.integers(low, high + 1))
    return np.bincount(rng.integers(0, 6, n), minlength=6)


# -- index ---------------------------------------------------------------------------


def test_index_is_gnubgs(positions):
    assert N_POSITIONS == 54264
    assert k.bearoff_index(np.zeros(6, dtype=np.int64)) == 0
    for i in range(1, N_POSITIONS):
        assert tuple(positions[i]) == gnubg.bearoff_id_2_pos(i)
    assert (index_of(positions) == np.arange(N_POSITIONS)).all()
    assert [k.bearoff_index(p) for p in positions[::97]] == list(range(0, N_POSITIONS, 97))


def test_index_order_follows_the_checkers(positions):
    n = positions.sum(axis=1)
    assert (np.diff(n) >= 0).all()  # fewer checkers first
    # moving one checker down (or off) always lowers the index
    for point in range(1, 6):
        has = positions[:, point] > 0
        moved = positions[has].copy()
        moved[:, point] -= 1
        moved[:, point - 1] += 1
        assert (index_of(moved) < np.flatnonzero(has)).all()


def test_row_index_rejects_non_bearoffs():
    b = board((1, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 15))
    assert k.bearoff_index_row(b[0]) == k.bearoff_index(np.array([1, 0, 0, 0, 0, 2]))
    b[0, 7] = 1
    assert k.bearoff_index_row(b[0]) == -1
    b[0, 7], b[0, 25] = 0, 1
    assert k.bearoff_index_row(b[0]) == -1
    assert not is_pure_bearoff(b)


# -- rules ---------------------------------------------------------------------------


def die_results(counts, die) -> set[tuple[int, ...]]:
    out = np.empty(6, dtype=np.int64)
    n = k._die_moves(np.array(counts, dtype=np.int64), die, out)
    return {tuple(int(c) for c in k.bearoff_position(i)) for i in out[:n]}


def test_bear_off_rules():
    # R7.2: a die bears a checker off its own point; R7.5: or moves a higher one
    assert die_results((1, 0, 0, 0, 0, 1), 1) == {(0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 1, 0)}
    # R7.3: the 4-point is empty and the 6-point is not: move down, never off the 3
    assert die_results((0, 0, 1, 0, 0, 1), 4) == {(0, 1, 1, 0, 0, 0)}
    # R7.4: nothing on the die's point or above: off from the highest point only
    assert die_results((1, 0, 1, 0, 0, 0), 6) == {(1, 0, 0, 0, 0, 0)}
    assert die_results((2, 0, 0, 0, 0, 0), 2) == {(1, 0, 0, 0, 0, 0)}
    # ... but a checker above the die's point blocks it (R7.3)
    assert die_results((1, 0, 1, 0, 0, 0), 2) == {(2, 0, 0, 0, 0, 0)}


def test_dynamic_programme_matches_direct_enumeration(db):
    rng = np.random.default_rng(3)
    for i in [1, 6, 7, 27, N_POSITIONS - 1, *rng.integers(1, N_POSITIONS, 150)]:
        best = k.roll_successors(int(i), db.expected)
        assert (best < i).all()
        assert db.expected[i] == pytest.approx(1.0 + ROLL_WEIGHTS @ db.expected[best], abs=1e-12)
        shifted = ROLL_WEIGHTS @ db.rolls[best]
        assert db.rolls[i, 1:] == pytest.approx(shifted[:-1], abs=1e-12)


# -- invariants ----------------------------------------------------------------------


def test_known_values(db):
    assert db.expected_rolls((0, 0, 0, 0, 0, 0)) == 0.0
    assert db.expected_rolls((1, 0, 0, 0, 0, 0)) == 1.0
    assert db.expected_rolls((2, 0, 0, 0, 0, 0)) == 1.0
    assert db.expected_rolls((4, 0, 0, 0, 0, 0)) == 1.0 + 30 / 36  # only doubles take four
    assert db.expected_rolls((0, 0, 0, 0, 0, 1)) == pytest.approx(1.25)  # 9 rolls of 36 miss
    assert db.expected_rolls((0, 0, 0, 0, 0, 15)) == pytest.approx(12.266187171764624, abs=1e-12)
    assert db.roll_distribution((0, 0, 0, 0, 0, 15))[MAX_ROLLS] > 0  # a run of 2-1s: 30 rolls
    assert db.index((0, 0, 0, 0, 0, 15)) == N_POSITIONS - 1
    assert db.position(7) == (2, 0, 0, 0, 0, 0)


def test_distributions_are_distributions(db):
    assert db.rolls.shape == (N_POSITIONS, MAX_ROLLS + 1)
    assert (db.rolls >= 0).all() and (db.first_off >= 0).all()
    assert np.abs(db.rolls.sum(axis=1) - 1).max() < 1e-12
    assert np.abs(db.first_off[1:].sum(axis=1) - 1).max() < 1e-12
    means = db.rolls @ np.arange(MAX_ROLLS + 1)
    assert np.abs(means - db.expected).max() < 1e-10
    # the first checker never comes off later than the last one
    assert (db.first_off[1:] @ np.arange(db.first_off.shape[1]) <= db.expected[1:] + 1e-12).all()


def test_monotonicity(db, positions):
    fewer = positions.sum(axis=1) < 15
    for point in range(6):
        more = positions[fewer].copy()
        more[:, point] += 1
        # adding a checker never reduces the expected rolls
        assert (db.expected[index_of(more)] >= db.expected[fewer] - 1e-12).all()
    # Moving a checker back CAN help (less waste): two on the 1-point and one on
    # the 6 take longer than one each on the 1, 2 and 6.
    assert db.expected_rolls((1, 1, 0, 0, 0, 1)) < db.expected_rolls((2, 0, 0, 0, 0, 1))


# -- GNU Backgammon's one-sided database ----------------------------------------------


@pytest.fixture(scope="module")
def gnubg_rolls() -> np.ndarray:
    out = np.zeros((N_POSITIONS, 32))
    out[0, 0] = 1.0
    for i in range(1, N_POSITIONS):
        p = gnubg.bearoff_probabilities(i)  # p[j] = P(j + 1 rolls), leading zeros kept
        out[i, 1 : 1 + len(p)] = p
    return out


def test_roll_distributions_agree_with_gnubg(db, gnubg_rolls):
    diff = np.abs(db.rolls - gnubg_rolls[:, : MAX_ROLLS + 1]).max(axis=1)
    means = gnubg_rolls @ np.arange(32) / gnubg_rolls.sum(axis=1)
    print(
        f"\nroll distributions vs gnubg: max |dp| {diff.max():.2e}, "
        f"{(diff <= 1e-4).mean():.1%} of positions within 1e-4; "
        f"max |d mean| {np.abs(means - db.expected).max():.2e}"
    )
    assert not gnubg_rolls[:, MAX_ROLLS + 1 :].any()
    assert diff.max() < 3e-3
    assert (diff <= 1e-4).mean() > 0.8
    assert np.abs(means - db.expected).max() < 5e-4


@njit
def _gnubg_16bit_build(succ):
    """Our build in GNU Backgammon's makebearoff arithmetic: 16-bit probabilities,
    each play chosen on the rounded mean, rounding (+18)/36, the error put on the mode."""
    n = k.N_POSITIONS
    q = np.zeros((n, 32), np.int64)
    q[0, 0] = 65535
    value = np.zeros(n, np.float64)
    reach = np.full((4, n, 6), -1, np.int32)
    for d in range(6):
        for j in range(1, 4):
            reach[j, 0, d] = 0
    best = np.empty(21, np.int64)
    no_checkers = np.zeros(1, np.int64)
    for i in range(1, n):
        k._fill_reach(succ, value, i, reach, no_checkers, -1)
        k._best_results(succ, value, i, reach, best, no_checkers, -1)
        total = np.zeros(32, np.int64)
        r = 0
        for d1 in range(1, 7):
            for d2 in range(1, d1 + 1):
                w = 1 if d1 == d2 else 2
                for t in range(31):
                    total[t + 1] += w * q[best[r], t]
                r += 1
        s = 0
        mode = 0
        for t in range(32):
            q[i, t] = (total[t] + 18) // 36
            s += q[i, t]
            if q[i, t] > q[i, mode]:
                mode = t
        q[i, mode] -= s - 65535
        for t in range(32):
            value[i] += t * q[i, t]
    return q


def test_gnubg_database_is_our_build_in_16_bits(gnubg_rolls):
    q = _gnubg_16bit_build(k._die_table())
    theirs = np.rint(gnubg_rolls * 65535).astype(np.int64)
    units = np.abs(q - theirs).max(axis=1)
    print(
        f"\n16-bit build vs gnubg: {(units == 0).sum()} of {N_POSITIONS} identical, "
        f"max {units.max()} unit(s) of 1/65535"
    )
    assert (units == 0).mean() > 0.999
    assert units.max() <= 1


def test_first_off_agrees_with_gnubg_gammon_distributions(db, positions):
    path = Path(gnubg.__file__).parent / "data" / "gnubg_os0.bd"
    assert path.is_file(), f"gnubg-nn's one-sided database is not at {path}"
    raw = path.read_bytes()
    assert raw.startswith(b"gnubg-OS-06-15-1-1")  # 6 points, 15 checkers, gammons, compressed
    index = np.frombuffer(raw, np.uint8, 8 * N_POSITIONS, 40).reshape(-1, 8).astype(np.int64)
    data = np.frombuffer(raw, "<u2", offset=40 + 8 * N_POSITIONS)
    offset = index[:, 0] | index[:, 1] << 8 | index[:, 2] << 16 | index[:, 3] << 24
    full = np.flatnonzero(positions.sum(axis=1) == 15)  # gnubg keeps them for these only
    worst = 0.0
    for i in full:
        o = offset[i] + index[i, 4]  # skip the roll distribution
        start, n = index[i, 7], index[i, 6]
        theirs = np.zeros(db.first_off.shape[1] + 32)
        theirs[start : start + n] = data[o : o + n] / 65535
        worst = max(worst, np.abs(theirs[: db.first_off.shape[1]] - db.first_off[i]).max())
    print(
        f"\nfirst-off distributions vs gnubg (15 checkers, {len(full)} positions): "
        f"max |dp| {worst:.2e}"
    )
    assert worst < 1e-4


# -- two-sided -----------------------------------------------------------------------


def test_two_sided_win_probability(db):
    assert two_sided_win_probability((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 15), database=db) == 1.0
    assert two_sided_win_probability(
        (0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), database=db
    ) == pytest.approx(0.75)
    # 1 checker on the 6 v 2 on the 1: lose only when we miss and they cannot... they always can
    a, b = (0, 0, 0, 0, 0, 1), (2, 0, 0, 0, 0, 0)
    assert db.win_probability(a, b) == pytest.approx(0.75)
    with pytest.raises(InvalidPositionError):
        db.win_probability((16, 0, 0, 0, 0, 0), b)
    with pytest.raises(InvalidPositionError):
        db.win_probability((1, 0, 0, 0, 0), b)


def test_two_sided_against_gnubg(db):
    """gnubg's 0-ply evaluation of a pure bear-off uses its one-sided database
    when a side has more than 6 checkers (we agree to its rounding), and its
    exact two-sided database (6 points, 6 checkers) otherwise, which lets both
    sides play for the race rather than for the fewest rolls."""
    rng = np.random.default_rng(11)
    one_sided, two_sided = [], []
    for _ in range(200):
        b = board(random_side(rng), random_side(rng, 7, 15))
        if rng.random() < 0.5:
            b = np.ascontiguousarray(b[::-1])
        ours = evaluate_bearoff(b, database=db)
        theirs = gnubg.probabilities(gnubg_board(b), 0)
        one_sided.append(np.abs(ours - theirs).max())
        b = board(random_side(rng, 1, 6), random_side(rng, 1, 6))
        ours = evaluate_bearoff(b, database=db)
        theirs = gnubg.probabilities(gnubg_board(b), 0)
        two_sided.append(abs(ours[0] - theirs[0]))
    print(
        f"\ntwo-sided win vs gnubg: one-sided positions max |d| {max(one_sided):.2e}; "
        f"<= 6 checkers a side (gnubg exact two-sided) max |d| {max(two_sided):.2e}, "
        f"mean {np.mean(two_sided):.2e}"
    )
    assert max(one_sided) < 1e-4
    assert max(two_sided) < 2e-2


def test_gammons_against_gnubg(db):
    rng = np.random.default_rng(12)
    worst = 0.0
    for _ in range(200):
        on_roll = random_side(rng, 15, 15)
        other = random_side(rng, 15, 15) if rng.random() < 0.5 else random_side(rng, 1, 5)
        b = board(on_roll, other)
        if rng.random() < 0.5:
            b = np.ascontiguousarray(b[::-1])
        ours = evaluate_bearoff(b, database=db)
        theirs = np.array(gnubg.probabilities(gnubg_board(b), 0))
        worst = max(worst, np.abs(ours - theirs).max())
    assert worst < 1e-4


def test_evaluator_protocol(db):
    rng = np.random.default_rng(13)
    boards = np.stack([board(random_side(rng), random_side(rng)) for _ in range(300)])
    out = evaluate_bearoff(boards, database=db)
    assert out.shape == (300, 5) and out.dtype == np.float64
    assert ((out >= 0) & (out <= 1)).all()
    assert (out[:, 1] <= out[:, 0] + 1e-12).all()
    assert (out[:, 3] <= 1 - out[:, 0] + 1e-12).all()
    assert not out[:, [2, 4]].any()  # no backgammons in a pure bear-off
    some_off = boards[:, 1, 0] > 0
    assert not out[some_off, 1].any()
    assert evaluate_bearoff(boards[0], database=db).shape == (5,)
    # swapping sides: the one not on roll cannot do better than if it were on roll
    swapped = evaluate_bearoff(np.ascontiguousarray(boards[:, ::-1]), database=db)
    assert (swapped[:, 0] + out[:, 0] >= 1 - 1e-12).all()
    bad = boards[0].copy()
    bad[0, 1:7] = 0
    bad[0, 8] = 15 - bad[0, 0]
    with pytest.raises(InvalidPositionError):
        evaluate_bearoff(bad, database=db)


# -- policy --------------------------------------------------------------------------


def test_bearoff_best_picks_fewest_expected_rolls(db):
    rng = np.random.default_rng(14)
    for _ in range(300):
        n = int(rng.integers(1, 20))
        cands = np.stack([board(random_side(rng), random_side(rng)) for _ in range(n)])
        chosen = bearoff_best(cands, db.expected)
        values = [db.expected[k.bearoff_index_row(c[0])] for c in cands]
        assert values[chosen] == min(values)
        assert chosen == db.best(cands)
    assert bearoff_best(np.zeros((0, 2, 26), dtype=np.int8), db.expected) == -1
    cands[0, 0, 7] = 1
    assert bearoff_best(cands, db.expected) == -1
    with pytest.raises(InvalidPositionError):
        db.best(cands)


# -- cache ---------------------------------------------------------------------------


def test_cache_folder_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("GAMMONLAB_CACHE_DIR", str(tmp_path))
    assert cache_dir() == tmp_path
    assert BearoffDatabase.default_path().parent == tmp_path
    assert "v1" in BearoffDatabase.default_path().name
    first = BearoffDatabase.load()
    assert first.build_seconds is not None and first.path == BearoffDatabase.default_path()
    assert first.path.is_file()
    assert not list(tmp_path.glob("*.tmp"))  # written via a temporary file, then replaced
    again = BearoffDatabase.load()
    assert again.build_seconds is None  # read, not rebuilt
    assert np.array_equal(again.rolls, first.rolls)
    assert BearoffDatabase.get() is BearoffDatabase.get()
    assert BearoffDatabase.get().path == first.path


@pytest.mark.parametrize("damage", ["truncate", "garbage", "flip", "tamper", "empty"])
def test_corrupt_cache_is_rebuilt(monkeypatch, tmp_path, damage, db):
    monkeypatch.setenv("GAMMONLAB_CACHE_DIR", str(tmp_path))
    path = BearoffDatabase.default_path()
    db.save(path)
    assert BearoffDatabase.load().build_seconds is None
    raw = path.read_bytes()
    if damage == "truncate":
        path.write_bytes(raw[: len(raw) // 2])
    elif damage == "garbage":
        path.write_bytes(b"not a bear-off database" * 100)
    elif damage == "flip":
        middle = len(raw) // 2
        path.write_bytes(raw[:middle] + bytes([raw[middle] ^ 0xFF]) + raw[middle + 1 :])
    elif damage == "tamper":  # a valid file whose numbers were changed: the checksum catches it
        rolls = db.rolls.copy()
        rolls[100, 3] += 0.01
        np.savez_compressed(path, **{**dict(np.load(path)), "rolls": rolls})
    else:
        path.write_bytes(b"")
    rebuilt = BearoffDatabase.load()
    assert rebuilt.build_seconds is not None
    assert np.array_equal(rebuilt.rolls, db.rolls)
    assert BearoffDatabase.load().build_seconds is None  # and the file is good again


def test_unwritable_cache_still_works(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("GAMMONLAB_CACHE_DIR", str(blocker / "cache"))
    with pytest.warns(RuntimeWarning):
        db = BearoffDatabase.load()
    assert db.path is None and db.expected_rolls((1, 0, 0, 0, 0, 0)) == 1.0


def test_kernels_run_without_jit(db):
    code = textwrap.dedent("""
        import numpy as np
        from gammonlab._kernels import bearoff as k
        counts = np.array([1, 0, 2, 0, 0, 3])
        i = k.bearoff_index(counts)
        print(i, k.bearoff_position(i).tolist() == counts.tolist())
        expected = np.arange(k.N_POSITIONS, dtype=np.float64)
        cands = np.zeros((3, 2, 26), dtype=np.int8)
        cands[0, 0, 6] = 1; cands[1, 0, 2] = 1; cands[2, 0, 4] = 1; cands[:, 1, 6] = 15
        print(k.bearoff_best(cands, expected))
        rolls = np.zeros((k.N_POSITIONS, k.MAX_ROLLS + 1)); rolls[:, 1] = 1
        first = np.zeros((k.N_POSITIONS, k.MAX_FIRST_OFF + 1)); first[:, 1] = 1
        print(k.two_sided_probabilities(cands, rolls, first)[0].tolist())
    """)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    lines = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    counts = np.array([1, 0, 2, 0, 0, 3])
    assert lines[0] == f"{k.bearoff_index(counts)} True"
    assert lines[1] == "1"
    assert lines[2] == "[1.0, 1.0, 0.0, 0.0, 0.0]"
