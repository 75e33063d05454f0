"""gammonlab's neural evaluator: inference, search, weights file, training, strength."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from boards import START, VARIANT_STARTS, random_play

import gammonlab as gl
from gammonlab._kernels.movegen import generate_plays_batch
from gammonlab._kernels.net import (
    BOTH_BACK,
    BOTH_BACK_BAR,
    CONTACT,
    CONTACT_FAR,
    CONTACT_PARTS,
    DEEP,
    DEEP_FAR,
    F_BACK,
    F_CONTAINED,
    F_CONTAINED_AGAINST,
    F_ESCAPES,
    F_ESCAPES_AGAINST,
    F_HIT_PIPS,
    LATE,
    LATE_FAR,
    RACE,
    net_inputs,
    net_phase,
    phase_of,
)
from gammonlab._kernels.net_features import containment, escapes, shot_count
from gammonlab._kernels.net_play import (
    candidate_probabilities,
    eval_buffers,
    net_choose,
    net_widths,
)
from gammonlab._kernels.net_train import play_rollout_targets, rollout_targets, td_update
from gammonlab._kernels.outcome import cubeless_equity
from gammonlab._kernels.rng import CHOICE, next_dice, seed_key, stream_key
from gammonlab.errors import GammonlabError, NetWeightsError
from gammonlab.evaluators.base import equity, get_evaluator
from gammonlab.evaluators.net import (
    FORMAT_VERSION,
    MoveFilter,
    NetEvaluator,
    NetWeights,
    default_weights_path,
)
from gammonlab.train import (
    Stage,
    TrainingError,
    average,
    distil,
    match_against_pubeval,
    train,
)
from gammonlab.train.__main__ import main


@pytest.fixture(scope="module")
def positions() -> np.ndarray:
    """About 10,000 positions in play (neither side finished) from random games."""
    rng = np.random.default_rng(20261201)
    turns = random_play(rng, 140) + random_play(rng, 10, VARIANT_STARTS["nackgammon"])
    boards = np.stack([board for board, _, _ in turns]).astype(np.int8)
    on_board = boards[:, :, 1:].sum(axis=2)
    return np.ascontiguousarray(boards[(on_board > 0).all(axis=1)])


@pytest.fixture(scope="module")
def shipped() -> NetWeights:
    return NetWeights.load()


def _numpy_probabilities(weights: NetWeights, boards: np.ndarray) -> np.ndarray:
    """The forward pass written plainly with NumPy on the dense inputs."""
    x = net_inputs(boards).astype(np.float64)
    nets = np.array([net_phase(b, weights.nets) for b in boards])
    out = np.empty((len(boards), 5))
    for net in range(weights.nets):
        rows = nets == net
        hidden = np.maximum(x[rows] @ weights.w1[net].astype(np.float64) + weights.b1[net], 0.0)
        z = hidden @ weights.w2[net].T.astype(np.float64) + weights.b2[net]
        s = 1.0 / (1.0 + np.exp(-z))
        win = s[:, 0]
        can_win_gammon = boards[rows, 1, 0] == 0
        can_lose_gammon = boards[rows, 0, 0] == 0
        wg = np.where(can_win_gammon, win * s[:, 1], 0.0)
        lg = np.where(can_lose_gammon, (1.0 - win) * s[:, 3], 0.0)
        out[rows] = np.column_stack([win, wg, wg * s[:, 2], lg, lg * s[:, 4]])
    return out


def test_numba_forward_equals_numpy(positions, shipped):
    db_home = np.array([(b[:, 7:] == 0).all() for b in positions])  # the database's
    boards = positions[~db_home]
    assert len(boards) > 5000
    phases = {int(net_phase(b, shipped.nets)) for b in boards}
    assert phases == set(range(shipped.nets))  # every net of the file at work
    numba = get_evaluator("net")(boards)
    np.testing.assert_allclose(numba, _numpy_probabilities(shipped, boards), atol=2e-5)


def test_units_without_output_weights_are_skipped(positions):
    """A net stored wider than it is (units after its own with no output weight,
    whatever their input weights) plays as the narrow net, and the kernels use
    only its own units."""
    narrow = NetWeights.load(
        Path(__file__).resolve().parents[1] / "data/training/snapshots/games-15000000.npz"
    )
    rng = np.random.default_rng(5)
    extra = 40
    w1 = np.concatenate([narrow.w1, rng.normal(size=(2, narrow.w1.shape[1], extra))], axis=2)
    b1 = np.concatenate([narrow.b1, rng.normal(size=(2, extra))], axis=1)
    w2 = np.concatenate([narrow.w2, np.zeros((2, 5, extra))], axis=2)
    w2[RACE, :, 100:] = 0.0  # the race net uses 100 units
    wide = NetWeights(w1, b1, w2, narrow.b2)
    assert list(net_widths(wide.arrays)) == [
        100 if net == RACE else narrow.hidden for net in range(2)
    ]
    db_home = np.array([(b[:, 7:] == 0).all() for b in positions])  # the database's
    boards = positions[~db_home][:3000]
    np.testing.assert_allclose(
        NetEvaluator(weights=wide).evaluate_positions(boards),
        _numpy_probabilities(wide, boards),
        atol=2e-5,
    )


def _plays_of_random_rolls(seed: int, rolls: int) -> tuple[np.ndarray, np.ndarray]:
    """The legal plays of ``rolls`` rolls of random games: the offsets of each
    roll's plays and the resulting boards, seen from the mover."""
    turns = random_play(np.random.default_rng(seed), rolls // 40)[:rolls]
    assert len(turns) == rolls
    boards = np.stack([board for board, _, _ in turns]).astype(np.int8)
    dice = np.array([(d1, d2) for _, d1, d2 in turns], dtype=np.int64)
    offsets, plays, _ = generate_plays_batch(boards, dice)
    return offsets, np.ascontiguousarray(plays)


def _two_nets(weights: NetWeights) -> NetWeights:
    """The contact and race nets of ``weights`` alone."""
    return NetWeights(*(a[: RACE + 1] for a in weights.arrays))


def _with_contact_nets(
    weights: NetWeights, seed: int, scale: float = 0.05, nets: int = 3
) -> NetWeights:
    """The contact and race nets of ``weights`` and more, up to ``nets``, for parts
    of contact: each the contact net, perturbed."""
    rng = np.random.default_rng(seed)

    def more(a: np.ndarray) -> np.ndarray:
        added = [
            (a[CONTACT : CONTACT + 1] + scale * rng.normal(size=a[:1].shape)).astype(np.float32)
            for _ in range(nets - 2)
        ]
        return np.concatenate([a[: RACE + 1], *added])

    return NetWeights(*(more(a) for a in weights.arrays))


def test_the_phase_of_a_position():
    assert [phase_of(s, 3) for s in (2, 24, 25, 42, 43, 50)] == [
        RACE,
        RACE,
        CONTACT,
        CONTACT,
        DEEP,
        DEEP,
    ]
    assert [phase_of(s, 2) for s in (24, 25, 43, 50)] == [RACE, CONTACT, CONTACT, CONTACT]
    sums = (24, 25, 34, 35, 42, 43, 47, 48, 50)
    assert [phase_of(s, 5) for s in sums] == [
        RACE,
        LATE,
        LATE,
        CONTACT,
        CONTACT,
        DEEP,
        DEEP,
        BOTH_BACK,
        BOTH_BACK,
    ]
    assert net_phase(START, 5) == BOTH_BACK
    sums = (25, 30, 31, 34, 35, 38, 39, 42, 43, 45, 46, 47, 48, 49, 50)
    assert [phase_of(s, 9) for s in sums] == [
        LATE,
        LATE,
        LATE_FAR,
        LATE_FAR,
        CONTACT,
        CONTACT,
        CONTACT_FAR,
        CONTACT_FAR,
        DEEP,
        DEEP,
        DEEP_FAR,
        DEEP_FAR,
        BOTH_BACK,
        BOTH_BACK_BAR,
        BOTH_BACK_BAR,
    ]
    # each of the nine nets' parts lies inside one part of the five nets'
    for back_sum in range(25, 51):
        assert phase_of(back_sum, 5) == {
            LATE_FAR: LATE,
            CONTACT_FAR: CONTACT,
            DEEP_FAR: DEEP,
            BOTH_BACK_BAR: BOTH_BACK,
        }.get(phase_of(back_sum, 9), phase_of(back_sum, 9))
    assert net_phase(START, 9) == BOTH_BACK
    assert net_phase(START, 3) == DEEP and net_phase(START, 2) == CONTACT  # 24 + 24
    race = np.zeros((2, 26), dtype=np.int8)
    race[:, 6] = 15
    assert net_phase(race, 3) == RACE
    race[0, 6], race[0, 0] = 0, 15  # a finished game
    assert net_phase(race, 3) == RACE


@pytest.mark.parametrize("nets", [3, 5, 9])
def test_nets_for_parts_of_contact_value_their_parts(positions, shipped, nets):
    """More nets value the parts of contact (deep contact; or late contact, deep
    contact and both back), the forward pass equal to NumPy's; copies of the
    contact net change nothing, and each net changes the values of its part only."""
    db_home = np.array([(b[:, 7:] == 0).all() for b in positions])  # the database's
    boards = positions[~db_home]
    phases = np.array([net_phase(b, nets) for b in boards])
    added = [net for net, _ in CONTACT_PARTS[nets] if net != CONTACT]
    assert 0.2 < np.isin(phases, added).mean() < 0.95 and (phases == CONTACT).any()
    assert all((phases == net).mean() > 0.3 / nets for net in added)
    two = _two_nets(shipped)
    copy = _with_contact_nets(shipped, 1, scale=0.0, nets=nets)
    np.testing.assert_array_equal(
        NetEvaluator(weights=copy).evaluate_positions(boards),
        NetEvaluator(weights=two).evaluate_positions(boards),
    )
    deep = _with_contact_nets(shipped, 1, nets=nets)
    mine = NetEvaluator(weights=deep).evaluate_positions(boards)
    np.testing.assert_allclose(mine, _numpy_probabilities(deep, boards), atol=2e-5)
    theirs = NetEvaluator(weights=two).evaluate_positions(boards)
    changed = np.isin(phases, added)
    np.testing.assert_array_equal(mine[~changed], theirs[~changed])
    assert (np.abs(mine - theirs)[changed].max(axis=1) > 1e-4).mean() > 0.9


@pytest.mark.parametrize(
    ("rolls", "nets"),
    [
        (4_000, 2),
        (4_000, 3),
        (4_000, 5),
        (4_000, 9),
        pytest.param(20_000, 3, marks=pytest.mark.slow),
    ],
)
def test_choice_of_play_equals_numpy_forward_pass(shipped, rolls, nets):
    """On thousands of rolls the kernel's 0-ply choice is the play a plain NumPy
    forward pass values highest, but where two plays are tied to float32 rounding
    (with the contact and race nets alone, and with a third net for deep contact)."""
    if nets == 2:
        shipped = _two_nets(shipped)
    elif shipped.nets != nets:
        shipped = _with_contact_nets(shipped, 2, nets=nets)
    offsets, plays = _plays_of_random_rolls(20261202, rolls)
    after = np.ascontiguousarray(plays[:, ::-1])  # the opponent on roll next
    on_board = after[:, :, 1:].sum(axis=2)
    in_play = (on_board > 0).all(axis=1) & ~(after[:, :, 7:] == 0).all(axis=(1, 2))
    probs = get_evaluator("net")(after)  # finished games and bear-offs: exact values
    probs[in_play] = _numpy_probabilities(shipped, after[in_play])
    values = -equity(probs)
    weights, tables = shipped.arrays, get_evaluator("net").tables
    buffers = eval_buffers(weights)
    near_ties = 0
    for i in range(len(offsets) - 1):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        if hi - lo < 2:
            continue
        chosen, _ = net_choose(plays[lo:hi], hi - lo, weights, tables, buffers)
        best = values[lo:hi].max()
        if values[lo + chosen] != best:
            assert best - values[lo + chosen] < 1e-4, (i, best, values[lo + chosen])
            near_ties += 1
    assert near_ties <= 0.005 * rolls


def test_candidates_are_valued_as_positions_alone(shipped):
    """The kernel that values the plays of a roll changes one play's hidden layer
    into the next's; each play's probabilities are those of its position valued
    alone, to float32 rounding, in one roll at a time and in one call over all the
    plays of 2,000 rolls (where the changes follow one another the longest)."""
    offsets, plays = _plays_of_random_rolls(20261207, 2_000)
    alone = get_evaluator("net")(np.ascontiguousarray(plays[:, ::-1]))
    weights, tables = shipped.arrays, get_evaluator("net").tables
    buffers = eval_buffers(weights)
    in_one_call = np.empty((len(plays), 5))
    candidate_probabilities(plays, len(plays), weights, tables, buffers, in_one_call)
    np.testing.assert_allclose(in_one_call, alone, atol=5e-6)
    by_roll = np.empty((len(plays), 5))
    for i in range(len(offsets) - 1):
        lo, hi = int(offsets[i]), int(offsets[i + 1])
        candidate_probabilities(plays[lo:hi], hi - lo, weights, tables, buffers, by_roll[lo:hi])
    np.testing.assert_allclose(by_roll, alone, atol=5e-6)
    assert len(plays) > 20_000


def test_probabilities_are_consistent(positions):
    p = get_evaluator("net")(positions)
    assert p.shape == (len(positions), 5) and len(positions) >= 10_000
    assert ((p >= 0.0) & (p <= 1.0)).all()
    win, wg, wbg, lg, lbg = p.T
    assert (win >= wg).all() and (wg >= wbg).all()
    assert (1.0 - win >= lg - 1e-12).all() and (lg >= lbg).all()
    # a side that has borne off a checker cannot lose a gammon (R8.2)
    assert (lg[positions[:, 0, 0] > 0] == 0.0).all()
    assert (wg[positions[:, 1, 0] > 0] == 0.0).all()


def test_bearoff_positions_use_the_database():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 1:4] = (3, 2, 1)
    board[0, 0] = 9
    board[1, 4:7] = (2, 2, 2)
    board[1, 0] = 9
    np.testing.assert_allclose(get_evaluator("net")(board), get_evaluator("bearoff")(board))


def test_finished_games_are_exact():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 0] = 15
    board[1, 20] = 15  # the loser still in the winner's home board: backgammon
    assert get_evaluator("net")(board).tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]]


def test_shot_count_feature():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 13] = 15
    board[1, 25 - 7] = 1  # an opposing blot on our 7-point, 6 pips in front of our checkers
    board[1, 1] = 14
    # 11 rolls show a 6; 5-1, 4-2 (both orders), 2-2 (via 11, 9) and 3-3 (via 10): 17
    assert shot_count(board, 0, 1) == 17
    board[1, 25 - 9] = 2  # our 9-point blocked: 4-2 still goes via 11, 2-2 no longer
    board[1, 1] -= 2
    assert shot_count(board, 0, 1) == 16
    board[1, 25 - 11] = 2  # our 11-point blocked too: 4-2 is gone both ways
    board[1, 1] -= 2
    assert shot_count(board, 0, 1) == 14
    assert shot_count(board, 1, 0) == 0  # no blot of ours to hit


def test_escapes_feature():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 24] = 1
    board[0, 6] = 14
    board[1, 24] = 15  # on our 1-point, more than 12 pips ahead of our back checker
    assert escapes(board, 0, 1) == 36
    for point in (18, 17, 16, 15, 14, 13):  # a full prime in front of it
        board[1, 25 - point] = 2
    board[1, 24] = 3
    assert escapes(board, 0, 1) == 0
    board[1, 25 - 13] = 0  # a 5-prime, 14 to 18: escaping means landing on 13 or below
    board[1, 24] = 5
    held = range(14, 19)

    def escapes_with(a: int, b: int) -> bool:
        if a == b:
            for k in range(1, 5):
                if 24 - a * k in held:
                    return False
                if 24 - a * k < 14:
                    return True
            return False
        return any(24 - x not in held and 24 - x - y < 14 for x, y in ((a, b), (b, a)))

    expected = sum(escapes_with(a, b) for a in range(1, 7) for b in range(1, 7))
    assert 0 < expected < 36 and escapes(board, 0, 1) == expected
    x = net_inputs(board[np.newaxis])[0]
    assert x[F_ESCAPES] == pytest.approx(expected / 36)
    # their back checkers, on their 24-point, have our 6-point 5 pips ahead
    assert (
        x[F_ESCAPES_AGAINST] == pytest.approx(escapes(board, 1, 0) / 36)
        and escapes(board, 1, 0) == 26
    )
    assert x[F_BACK] == pytest.approx(24 / 25)


def test_containment_is_the_worst_escape_from_the_back_points(positions):
    """The containment feature equals the fewest escaping rolls of a lone checker
    put on each of the points 13 to 24 in turn, counted by :func:`escapes`."""
    for board in positions[:400]:
        for me in (0, 1):
            opp = 1 - me
            worst = 36
            for source in range(13, 25):
                alone = np.zeros((2, 26), dtype=np.int8)
                alone[me, source] = 1
                alone[opp] = board[opp]
                worst = min(worst, escapes(alone, me, opp))
            assert containment(board, me, opp) == worst
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 6] = 15
    board[1, 0] = 15  # all theirs borne off: nothing held anywhere
    assert containment(board, 0, 1) == 36
    for point in range(7, 13):  # a full prime on our 7 to 12 points, their numbering 13 to 18
        board[1, 25 - point] = 2
    board[1, 0] = 3
    x = net_inputs(board[np.newaxis])[0]
    assert containment(board, 0, 1) == 0 and x[F_CONTAINED] == 0.0
    assert x[F_CONTAINED_AGAINST] == pytest.approx(containment(board, 1, 0) / 36)


def test_one_ply_is_the_average_of_the_best_replies():
    net = get_evaluator("net")
    one = NetEvaluator(plies=1)
    board = gl.Position.initial().play("24/18 13/10", (6, 3)).board  # the opponent on roll
    expected = np.zeros(5)
    for high in range(1, 7):
        for low in range(1, high + 1):
            plays = gl.Position.from_board(board).legal_plays((high, low)).boards
            values = -equity(net(np.ascontiguousarray(plays[:, ::-1])))
            best = net(np.ascontiguousarray(plays[int(np.argmax(values))][::-1][np.newaxis]))[0]
            flipped = np.array([1 - best[0], best[3], best[4], best[1], best[2]])
            expected += (1 if high == low else 2) / 36 * flipped
    np.testing.assert_allclose(one(board)[0], expected, atol=1e-9)


def test_two_ply_with_move_filter_runs_and_is_consistent():
    two = NetEvaluator(plies=2, move_filter=MoveFilter(keep=2, margin=0.1))
    p = two(gl.Position.initial().play("13/7 8/7", (6, 1)).board)[0]
    assert p[0] >= p[1] >= p[2] >= 0 and p[3] >= p[4] >= 0 and 0.3 < p[0] < 0.7


def test_choose_takes_the_best_play_at_each_depth(positions):
    rng = np.random.default_rng(5)
    picks = positions[rng.choice(len(positions), 40, replace=False)]
    dice = rng.integers(1, 7, size=(40, 2))
    net = get_evaluator("net")
    chosen = net.choose(picks, dice)
    for board, roll, result in zip(picks, dice, chosen):
        plays = gl.Position.from_board(board).legal_plays(tuple(int(d) for d in roll)).boards
        if len(plays) == 0:
            assert (result == board).all()
            continue
        values = -equity(net(np.ascontiguousarray(plays[:, ::-1])))
        assert np.isclose(values.max(), -equity(net(result[::-1][np.newaxis]))[0])
    deeper = NetEvaluator(plies=1).choose(picks[:3], dice[:3])
    assert deeper.shape == (3, 2, 26)


def test_choose_refuses_bad_dice():
    with pytest.raises(gl.errors.GammonlabError, match="dice"):
        get_evaluator("net").choose(START[np.newaxis], np.array([[0, 3]]))


# -- the weights file ---------------------------------------------------------------------


def test_shipped_weights_load_and_are_described(shipped):
    assert default_weights_path().is_file()
    assert shipped.meta["version"] == {2: 3, 3: 4, 5: 5, 9: 6}[shipped.nets] <= FORMAT_VERSION
    assert shipped.digest() == shipped.meta["sha256"]
    assert shipped.meta.get("games", 0) > 0 or shipped.meta["fit"]["epochs_done"] > 0


def test_weights_start_on_a_cache_line(shipped):
    """The kernels read weight rows with vector loads: every array starts on a
    64-byte boundary, copied there when it does not, with the same values."""
    assert all(a.ctypes.data % 64 == 0 and a.flags.c_contiguous for a in shipped.arrays)
    buffer = np.empty(shipped.w1.nbytes + 128, dtype=np.uint8)
    start = (-buffer.ctypes.data % 64) + 16
    offset = buffer[start : start + shipped.w1.nbytes].view(np.float32).reshape(shipped.w1.shape)
    offset[...] = shipped.w1
    moved = NetWeights(offset, shipped.b1, shipped.w2, shipped.b2)
    assert moved.w1.ctypes.data % 64 == 0 and moved.w1 is not offset
    assert moved.b1 is shipped.b1  # already in place: not copied
    assert moved.digest() == shipped.digest()


def test_shipped_weights_are_kept_in_the_runs_snapshots(shipped, tmp_path):
    """The shipped net is rebuilt from what the repository holds: the training
    run's snapshot after the games it records (``data/training/snapshots``), the
    mean of the snapshots it names, or the checkpoint of a fit run in ``data/``
    whose teachers (and the nets it carries in place of a teacher's), one after
    another, lead back to such a snapshot."""
    root = Path(__file__).resolve().parents[1]
    runs = {NetWeights.load(p).digest(): p for p in (root / "data").glob("*/checkpoint.npz")}
    folder = root / "data" / "training" / "snapshots"
    snapshots = 0
    pending = [shipped]
    checked = set()
    while pending:
        net = pending.pop()
        if net.digest() in checked:
            continue  # an ancestor of two of the nets: checked once
        checked.add(net.digest())
        if "fit" in net.meta:
            assert net.digest() in runs, f"no fit run in data/ has the net {net.digest()[:12]}"
            record = NetWeights.load(runs[net.digest()]).meta["fit"]
            for name, digest in (("teacher", "teacher_sha256"), ("carried", "carried_sha256")):
                if name in record:
                    source = NetWeights.load(root / record[name])
                    assert source.digest() == record[digest], (name, record[name])
                    pending.append(source)
            continue
        snapshots += 1
        if "averaged" not in net.meta:
            kept = NetWeights.load(folder / f"games-{net.meta['games']}.npz")
            assert kept.digest() == net.digest()
            continue
        names = [folder / f"games-{n['games']}.npz" for n in net.meta["averaged"]]
        for name, kept in zip(names, net.meta["averaged"]):
            assert NetWeights.load(name).digest() == kept["sha256"]
        assert average(names, tmp_path / "again.npz").digest() == net.digest()
    assert snapshots >= 1


def test_snapshots_before_layout_3_have_zero_rows_for_its_inputs():
    """The run's snapshots from before the eight inputs of layout 3 were widened with
    zero rows for them, so that they play as they did; the later ones use them."""
    folder = Path(__file__).resolve().parents[1] / "data" / "training" / "snapshots"
    for games in (8_500_000, 11_000_000, 12_000_000, 13_000_000):
        weights = NetWeights.load(folder / f"games-{games}.npz")
        assert not weights.w1[:, F_HIT_PIPS:].any(), games
    assert NetWeights.load(folder / "games-15000000.npz").w1[:, F_HIT_PIPS:].any()


def test_missing_weights_file_is_refused(tmp_path):
    with pytest.raises(NetWeightsError, match="does not exist"):
        NetWeights.load(tmp_path / "none.npz")
    with pytest.raises(NetWeightsError, match="does not exist"):
        NetEvaluator(tmp_path / "none.npz")(START)


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_damaged_weights_file_is_refused(tmp_path, shipped, damage):
    path = shipped.save(tmp_path / "net.npz")
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[len(data) // 2] ^= 0xFF
    else:
        data = bytearray(b"not a weights file at all")
    path.write_bytes(bytes(data))
    with pytest.raises(NetWeightsError, match=r"damaged|not a gammonlab"):
        NetWeights.load(path)


def test_altered_weights_fail_their_digest(tmp_path, shipped):
    path = shipped.save(tmp_path / "net.npz")
    with np.load(path) as data:
        arrays = {name: np.array(data[name]) for name in data.files}
    arrays["w2"][0, 0, 0] += 1.0
    np.savez(path, **arrays)
    with pytest.raises(NetWeightsError, match="SHA-256"):
        NetWeights.load(path)


def test_other_layout_version_is_refused(tmp_path, shipped):
    import json

    path = shipped.save(tmp_path / "net.npz")
    with np.load(path) as data:
        arrays = {name: np.array(data[name]) for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["version"] = FORMAT_VERSION + 1
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    with pytest.raises(NetWeightsError, match="version"):
        NetWeights.load(path)


def test_weights_round_trip(tmp_path, shipped):
    again = NetWeights.load(shipped.save(tmp_path / "copy.npz"))
    assert again.digest() == shipped.digest() and again.hidden == shipped.hidden


def test_a_file_of_three_nets_is_layout_version_4(tmp_path, shipped):
    """Version 4 adds the deep contact net; a file of two nets stays version 3,
    and a version-3 file with three nets is refused."""
    import json

    two = NetWeights.initial(8, seed=1)
    assert two.nets == 2 and NetWeights.load(two.save(tmp_path / "two.npz")).meta["version"] == 3
    three = NetWeights.initial(8, seed=1, nets=3)
    again = NetWeights.load(three.save(tmp_path / "three.npz"))
    assert again.nets == 3 and again.meta["version"] == 4 and again.digest() == three.digest()
    with np.load(tmp_path / "three.npz") as data:
        arrays = {name: np.array(data[name]) for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    meta["version"] = 3
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez(tmp_path / "three.npz", **arrays)
    with pytest.raises(NetWeightsError, match="3 nets in a file of version 3"):
        NetWeights.load(tmp_path / "three.npz")
    five = NetWeights.initial(8, seed=1, nets=5)
    again = NetWeights.load(five.save(tmp_path / "five.npz"))
    assert again.nets == 5 and again.meta["version"] == 5 and again.digest() == five.digest()
    nine = NetWeights.initial(8, seed=1, nets=9)
    again = NetWeights.load(nine.save(tmp_path / "nine.npz"))
    assert again.nets == 9 and again.meta["version"] == 6 and again.digest() == nine.digest()
    with pytest.raises(GammonlabError, match="nets: expected 2, 3, 5 or 9, got 4"):
        NetWeights.initial(8, nets=4)


def test_wrong_shapes_are_refused():
    w = NetWeights.initial(8, seed=1)
    with pytest.raises(NetWeightsError, match="shape"):
        NetWeights(w.w1[:, :10], w.b1, w.w2, w.b2)
    with pytest.raises(NetWeightsError, match="shape"):
        NetWeights(w.w1[:1], w.b1[:1], w.w2[:1], w.b2[:1])
    three = NetWeights.initial(8, seed=1, nets=3)
    with pytest.raises(NetWeightsError, match="shape"):
        NetWeights(three.w1, w.b1, w.w2, w.b2)


# -- training -----------------------------------------------------------------------------


def test_gradient_steps_lower_the_loss(positions):
    weights = NetWeights.initial(16, seed=3)
    boards = positions[::500][:20]
    rng = np.random.default_rng(1)
    win = rng.uniform(0.2, 0.8, len(boards))
    targets = np.column_stack([win, win * 0.3, win * 0.02, (1 - win) * 0.3, (1 - win) * 0.02])
    targets[boards[:, 1, 0] > 0, 1:3] = 0.0
    targets[boards[:, 0, 0] > 0, 3:5] = 0.0
    h = weights.hidden
    scratch = (
        np.empty(h, np.float32),
        np.empty(5, np.float32),
        np.empty(h, np.float32),
        np.empty(128, np.int32),
        np.empty(128, np.float32),
    )

    def excess_loss() -> float:
        """Cross-entropy of the win output above its floor, the targets' entropy."""
        net = NetEvaluator(weights)
        p = np.clip(net.evaluate_positions(boards)[:, 0], 1e-9, 1 - 1e-9)
        t = targets[:, 0]
        return float((t * np.log(t / p) + (1 - t) * np.log((1 - t) / (1 - p))).mean())

    before = excess_loss()
    for _ in range(30):
        for board, target in zip(boards, targets):
            td_update(board, target, weights.arrays, 0.05, scratch)
    assert excess_loss() < 0.5 * before


def test_training_resumes_to_the_same_weights(tmp_path):
    schedule = (Stage(10**9, 0.01, 0.7),)
    whole = train(
        tmp_path / "whole",
        60,
        seed=5,
        hidden=8,
        schedule=schedule,
        checkpoint_every=30,
        match_pairs=10,
        progress=False,
    )
    train(
        tmp_path / "pieces",
        30,
        seed=5,
        hidden=8,
        schedule=schedule,
        checkpoint_every=30,
        match_pairs=10,
        progress=False,
    )
    resumed = train(
        tmp_path / "pieces",
        60,
        seed=5,
        hidden=8,
        schedule=schedule,
        checkpoint_every=30,
        match_pairs=10,
        progress=False,
    )
    assert whole.digest() == resumed.digest()
    assert resumed.meta["games"] == 60
    log = (tmp_path / "pieces" / "log.csv").read_text().splitlines()
    assert log[0].startswith("games,") and [row.split(",")[0] for row in log[1:]] == ["30", "60"]
    with pytest.raises(TrainingError, match="seed"):
        train(tmp_path / "pieces", 90, seed=6, progress=False)


def test_snapshots_are_averaged_into_one_net(tmp_path):
    run = tmp_path / "run"
    options = dict(seed=5, hidden=8, checkpoint_every=20, match_pairs=0, progress=False)
    last = train(run, 60, schedule=(Stage(10**9, 0.01, 0.7),), snapshot_every=40, **options)
    kept = sorted(p.name for p in (run / "snapshots").iterdir())
    assert kept == ["games-40.npz"]
    first = NetWeights.load(run / "snapshots" / "games-40.npz")
    assert first.meta["games"] == 40 and first.digest() != last.digest()
    mean = average([run / "checkpoint.npz", run / "snapshots" / "games-40.npz"], tmp_path / "m.npz")
    for got, a, b in zip(NetWeights.load(tmp_path / "m.npz").arrays, first.arrays, last.arrays):
        np.testing.assert_allclose(got, (a.astype(np.float64) + b) / 2, rtol=1e-6)
    assert mean.meta["games"] == 60
    assert [n["games"] for n in mean.meta["averaged"]] == [40, 60]
    assert mean.meta["averaged"][1]["sha256"] == last.digest()
    assert (
        main(
            [
                "--average",
                str(run / "checkpoint.npz"),
                str(run / "snapshots" / "games-40.npz"),
                "--out",
                str(tmp_path / "cli.npz"),
            ]
        )
        == 0
    )
    assert NetWeights.load(tmp_path / "cli.npz").digest() == mean.digest()
    other = train(
        tmp_path / "other", 20, schedule=(Stage(10**9, 0.01, 0.7),), **dict(options, seed=6)
    )
    other.save(tmp_path / "other.npz")
    with pytest.raises(TrainingError, match="seed 6"):
        average([run / "checkpoint.npz", tmp_path / "other.npz"], tmp_path / "x.npz")
    with pytest.raises(TrainingError, match="two checkpoints"):
        average([run / "checkpoint.npz"], tmp_path / "x.npz")
    checkpoint = NetWeights.load(run / "checkpoint.npz")
    third = [np.concatenate([a, a[:1]]) for a in checkpoint.arrays]
    NetWeights(*third, meta=checkpoint.meta).save(tmp_path / "three.npz")
    with pytest.raises(TrainingError, match="3 nets, where"):
        average([run / "checkpoint.npz", tmp_path / "three.npz"], tmp_path / "x.npz")
    with pytest.raises(TrainingError, match="multiple of checkpoint_every"):
        train(run, 80, snapshot_every=30, **options)


def test_training_options_are_checked(tmp_path):
    with pytest.raises(TrainingError, match="games"):
        train(tmp_path, -1, progress=False)
    with pytest.raises(GammonlabError, match="hidden"):
        NetWeights.initial(0)


def test_tiny_training_run_learns(tmp_path):
    """Self-play moves a fresh net towards the game: it beats its untrained self."""
    start = NetWeights.initial(16, seed=2)
    trained = train(
        tmp_path / "run",
        1500,
        seed=2,
        hidden=16,
        schedule=(Stage(10**9, 0.02, 0.7),),
        checkpoint_every=1500,
        match_pairs=0,
        progress=False,
    )
    fresh_ppg, _, _ = match_against_pubeval(start, pairs=300)
    trained_ppg, se, _ = match_against_pubeval(trained, pairs=300)
    assert trained_ppg > fresh_ppg + 3 * se


def test_rollout_labels_of_one_ply_are_the_one_ply_values(positions, shipped):
    """Rollout labels of 36 trials (each first roll once) cut after one ply are the
    net's 1-ply values; deeper cuts are probabilities, the same for the same key."""
    boards = np.ascontiguousarray(positions[::200][:40])
    tables = NetEvaluator().tables
    key = seed_key(3)
    out = np.empty((len(boards), 5))
    rollout_targets(boards, 36, 1, shipped.arrays, tables, key, 0, out)
    expected = NetEvaluator(plies=1).evaluate_positions(boards)
    np.testing.assert_allclose(out, expected, atol=1e-12)
    deep = np.empty_like(out)
    rollout_targets(boards, 36, 6, shipped.arrays, tables, key, 0, deep)
    assert np.all(deep[:, 0] >= deep[:, 1]) and np.all(deep[:, 1] >= deep[:, 2])
    assert np.all(1 - deep[:, 0] >= deep[:, 3]) and np.all(deep[:, 3] >= deep[:, 4])
    assert np.all((deep >= 0) & (deep <= 1)) and not np.allclose(deep, out)
    again = np.empty_like(out)
    rollout_targets(boards[5:], 36, 6, shipped.arrays, tables, key, 5, again[5:])
    np.testing.assert_array_equal(again[5:], deep[5:])


def test_play_labels_are_rollouts_of_a_rolls_best_plays_on_the_same_dice(positions, shipped):
    """Labels that rank plays: each board's roll, its best plays at 0-ply, each rolled
    out as :func:`rollout_targets` rolls out a position, on the dice of the board's number."""
    boards = np.ascontiguousarray(positions[::300][:12])
    tables = NetEvaluator().tables
    key = seed_key(4)
    out_boards = np.empty((len(boards) * 3, 2, 26), dtype=np.int8)
    out = np.empty((len(boards) * 3, 5))
    count = play_rollout_targets(boards, 3, 36, 3, shipped.arrays, tables, key, 7, out_boards, out)
    assert len(boards) <= count <= 3 * len(boards)
    net = NetEvaluator()
    seen = 0
    for i, board in enumerate(boards):
        d1, d2, _ = next_dice(np.uint64(stream_key(key, 7 + i, CHOICE)), 0, False)
        plays = gl.Position.from_board(board).legal_plays((d1, d2))
        afters = {
            view.board.astype(np.int8).tobytes()
            for play in plays
            for view in (play.position, play.position.swapped())
        }
        group = []
        while seen < count and out_boards[seen].tobytes() in afters:
            group.append(seen)
            seen += 1
        if not group:
            continue
        # the group's positions are the best of the roll at 0-ply, best first
        equities = [-cubeless_equity(net(out_boards[k])[0]) for k in group]
        assert equities == sorted(equities, reverse=True)
        single = np.empty((1, 5))
        for k in group:
            rollout_targets(
                out_boards[k : k + 1], 36, 3, shipped.arrays, tables, key, 7 + i, single
            )
            np.testing.assert_array_equal(single[0], out[k])
    assert seen == count


@pytest.mark.parametrize(
    "labels",
    [
        dict(plies=1),
        dict(trials=36, truncate=4, keep_labels=True),
        dict(trials=36, truncate=2, plays=2, keep_labels=True),
    ],
)
def test_distillation_rounds_resume_to_the_same_weights(tmp_path, labels):
    """Rounds of training towards the net's own deeper values (n-ply or rollouts):
    each writes a checkpoint and a log row, and a run in pieces ends where one run does."""
    options = dict(seed=5, positions=60, match_pairs=0, progress=False, **labels)
    for name in ("whole", "pieces"):
        train(
            tmp_path / name,
            20,
            seed=5,
            hidden=8,
            checkpoint_every=20,
            match_pairs=0,
            progress=False,
        )
    before = NetWeights.load(tmp_path / "whole" / "checkpoint.npz")
    whole = distil(tmp_path / "whole", 2, **options)
    distil(tmp_path / "pieces", 1, **options)
    pieces = distil(tmp_path / "pieces", 2, **options)
    assert whole.digest() == pieces.digest() != before.digest()
    assert pieces.meta["distil_rounds"] == 2 and pieces.meta["games"] == 20
    stages = [
        line.split(",")[-1]
        for line in (tmp_path / "pieces" / "log.csv").read_text().splitlines()[1:]
    ]
    kind = (
        "rollout 36x2 of the 2 best plays"
        if "plays" in labels
        else "rollout 36x4"
        if "trials" in labels
        else "1-ply"
    )
    assert stages == ["td", f"distil 1 ({kind})", f"distil 2 ({kind})"]
    kept = sorted(p.name for p in (tmp_path / "pieces").glob("labels/*.npz"))
    assert kept == (["round-1.npz", "round-2.npz"] if "trials" in labels else [])
    for name in kept:
        with np.load(tmp_path / "pieces" / "labels" / name) as round_labels:
            boards, targets = round_labels["boards"], round_labels["targets"]
        assert boards.shape[1:] == (2, 26) and targets.shape == (len(boards), 5)
        assert (targets[:, 0] >= targets[:, 1]).all() and ((targets >= 0) & (targets <= 1)).all()
    with pytest.raises(TrainingError, match="truncate"):
        distil(tmp_path / "whole", 3, **dict(options, trials=36, truncate=0))
    with pytest.raises(TrainingError, match="plays"):
        distil(tmp_path / "whole", 3, **dict(options, trials=0, plays=2))
    with pytest.raises(TrainingError, match="no checkpoint"):
        distil(tmp_path / "none", 1, **options)


# -- strength and rollouts ----------------------------------------------------------------


def test_shipped_net_beats_pubeval(shipped):
    ppg, se, points = match_against_pubeval(shipped, pairs=1000, seed=2026)
    assert points.shape == (1000, 2) and set(np.unique(np.abs(points))) <= {1, 2, 3}
    assert ppg > 4 * se, (ppg, se)


def test_rollouts_with_the_net_do_not_depend_on_n_jobs():
    position = gl.Position.initial().play("24/18 13/10", (6, 3))
    one = gl.rollout(position, trials=144, seed=11, progress=False, n_jobs=1, policy="net")
    two = gl.rollout(position, trials=144, seed=11, progress=False, n_jobs=2, policy="net")
    assert one.settings["policy"] == "net"
    assert one.to_series().equals(two.to_series())
    truncated = gl.rollout(
        position, trials=72, seed=11, progress=False, n_jobs=1, policy="net", truncate=4
    )
    assert 0 < truncated.win < 1 and truncated.settings["truncate"] == 4


def test_net_is_the_default_policy_where_it_is_trained():
    nack = gl.Position.initial("nackgammon")
    assert gl.rollout(nack, trials=36, seed=1, progress=False, n_jobs=1).settings["policy"] == "net"
    hyper = gl.Position.initial("hypergammon-2")
    assert (
        gl.rollout(hyper, trials=36, seed=1, progress=False, n_jobs=1).settings["policy"]
        == "pubeval"
    )


def test_rollout_plays_rank_with_the_net():
    frame = gl.rollout_plays(
        gl.Position.initial(), (3, 1), top=2, trials=72, seed=3, progress=False, n_jobs=1
    )
    assert frame.attrs["settings"]["policy"] == "net"
    assert "8/5 6/5" in frame["play"].tolist()  # the net ranks it among its best two


def test_analysis_engine_equals_plain_evaluation():
    """The net's analysis engine (all rolls in one kernel call) values each play as
    calling the evaluator on every legal play does, to float32 rounding (the kernel
    changes one play's hidden layer into the next's)."""
    from gammonlab.analysis._plays import ROLLS, Engine, NetEngine

    net = get_evaluator("net")
    position = gl.Position.initial().play("13/7 8/7", (6, 1)).swapped()
    fast = NetEngine(net, 15).rolls(position, ROLLS)
    plain = Engine(net, 15).rolls(position, ROLLS)
    assert (fast.starts == plain.starts).all() and (fast.boards == plain.boards).all()
    np.testing.assert_allclose(fast.probabilities, plain.probabilities, atol=1e-6)


def test_analysis_by_default_gives_equities():
    text = (
        " 3 point match\n\n Game 1\n A : 0     B : 0\n"
        "  1) 31: 8/5 6/5      21: 13/11 6/5\n  2) 52: 13/8 13/11    64: 24/14\n"
    )
    frame = gl.analyse(text, progress=False)
    assert frame.attrs["analysis"]["evaluator"] == "net"
    moves = frame[frame.action == "move"]
    assert moves["equity_loss"].notna().all() and moves["luck"].notna().all()
    assert moves["error_class"].notna().all()
