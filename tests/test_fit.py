"""Fitting a new net to a teacher net's n-ply values (gammonlab.train.supervised)."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from gammonlab._kernels.net import (
    BOTH_BACK,
    BOTH_BACK_BAR,
    CONTACT,
    CONTACT_FAR,
    DEEP,
    DEEP_FAR,
    LATE,
    LATE_FAR,
    RACE,
    net_inputs,
    net_phase,
)
from gammonlab._kernels.race import is_pure_bearoff
from gammonlab.errors import TrainingError
from gammonlab.evaluators.net import NetEvaluator, NetWeights
from gammonlab.train.__main__ import main
from gammonlab.train.supervised import (
    FitOptions,
    _equity,
    _forward,
    _labels,
    _probabilities,
    fit,
    label_chunk,
)

TINY = FitOptions(
    positions=3000,
    chunk=500,
    holdout=1,
    plays=2,
    hidden=130,
    epochs=6,
    batch=64,
    learning_rate=3e-3,
)


@pytest.fixture(scope="module")
def teacher(tmp_path_factory):
    """A net of 128 hidden units as teacher: the self-play run's last snapshot."""
    snapshot = Path(__file__).resolve().parents[1] / "data" / "training" / "snapshots"
    net = NetWeights.load(snapshot / "games-15000000.npz")
    return net.save(tmp_path_factory.mktemp("teacher") / "teacher.npz")


@pytest.fixture(scope="module")
def fitted(tmp_path_factory, teacher):
    run = tmp_path_factory.mktemp("fit") / "run"
    return run, fit(run, teacher, seed=3, options=TINY, progress=False)


def _log(run):
    with open(run / "log.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_fit_learns_the_teachers_values(fitted):
    run, net = fitted
    rows = _log(run)
    assert [int(r["epoch"]) for r in rows] == [1, 2, 3, 4, 5, 6]
    holdout = [float(r["holdout_mse"]) for r in rows]
    assert holdout[-1] < 0.7 * holdout[0]
    with np.load(run / "labels" / "chunk-0000.npz") as chunk:
        boards, targets = chunk["boards"], chunk["targets"]
    contact = np.array([net_phase(b, 2) == CONTACT for b in boards])
    equity = 2 * targets[:, 0] - 1 + targets[:, 1] - targets[:, 3] + targets[:, 2] - targets[:, 4]
    # better than the best constant guess of the held-out labels
    assert holdout[-1] < 0.5 * equity[contact].var()
    assert net.meta["fit"]["epochs_done"] == 6 and net.hidden == 130


def test_the_fitted_net_plays_what_it_was_fitted_as(fitted, teacher):
    """The fit's own forward pass is the numba evaluator's, and the race net is
    the teacher's."""
    run, net = fitted
    with np.load(run / "labels" / "chunk-0001.npz") as chunk:
        boards = chunk["boards"]
    phase = np.array([net_phase(b, 2) for b in boards])
    contact = boards[phase == CONTACT]
    params = [a[CONTACT] for a in net.arrays]
    _, s = _forward(params, net_inputs(contact))
    mine = _probabilities(s, contact[:, 0, 0] == 0, contact[:, 1, 0] == 0)
    theirs = NetEvaluator(weights=net).evaluate_positions(contact)
    np.testing.assert_allclose(mine, theirs, atol=2e-5)
    race = boards[phase != CONTACT]
    assert len(race)
    np.testing.assert_allclose(
        NetEvaluator(weights=net).evaluate_positions(race),
        NetEvaluator(weights=NetWeights.load(teacher)).evaluate_positions(race),
        atol=1e-6,
    )


def test_a_race_fit_trains_the_race_net_and_keeps_the_contact_net(fitted, tmp_path):
    """A race fit labels race positions only, keeps the teacher's contact net
    and the file's wider width, and its race net is what the evaluator plays."""
    contact_run, contact_net = fitted
    teacher = contact_net.save(tmp_path / "teacher.npz")
    options = FitOptions(**{**TINY.__dict__, "positions": 6000, "hidden": 64, "phase": "race"})
    run = tmp_path / "race"
    net = fit(run, teacher, seed=5, options=options, progress=False)
    assert net.hidden == 130 and net.meta["fit"]["options"]["phase"] == "race"
    holdout = [float(r["holdout_mse"]) for r in _log(run)]
    assert holdout[-1] < 0.7 * holdout[0]
    paths = sorted((run / "labels").glob("chunk-*.npz"))
    boards = np.concatenate([np.load(path)["boards"] for path in paths])
    assert len(boards) > 1000
    assert all(net_phase(b, 2) == RACE and not is_pure_bearoff(b) for b in boards)
    assert (boards[:, :, 1:].sum(axis=2) > 0).all()  # no finished game
    np.testing.assert_array_equal(net.w2[RACE][:, 64:], 0.0)  # 64 units in use
    params = [net.w1[RACE][:, :64], net.b1[RACE][:64], net.w2[RACE][:, :64], net.b2[RACE]]
    _, s = _forward(params, net_inputs(boards))
    mine = _probabilities(s, boards[:, 0, 0] == 0, boards[:, 1, 0] == 0)
    np.testing.assert_allclose(
        mine, NetEvaluator(weights=net).evaluate_positions(boards), atol=2e-5
    )
    with np.load(contact_run / "labels" / "chunk-0001.npz") as chunk:
        contact = chunk["boards"][[net_phase(b, 2) == CONTACT for b in chunk["boards"]]]
    np.testing.assert_array_equal(
        NetEvaluator(weights=net).evaluate_positions(contact),
        NetEvaluator(weights=contact_net).evaluate_positions(contact),
    )


def test_a_fit_can_carry_the_nets_of_another(fitted, teacher, tmp_path, capsys):
    """With ``carry`` the nets a fit does not train are another net's: a race fit
    on the teacher's labels beside the contact net of another run. A resumed run
    keeps the net it carries, and refuses another."""
    contact_run, contact_net = fitted
    carried = contact_net.save(tmp_path / "carried.npz")
    options = FitOptions(**{**TINY.__dict__, "positions": 6000, "hidden": 64, "phase": "race"})
    run = tmp_path / "race"
    fit(run, teacher, seed=5, options=options, carry=carried, stop_after=2, progress=False)
    with pytest.raises(TrainingError, match="not the net the run"):
        fit(run, teacher, seed=5, options=options, carry=teacher, progress=False)
    net = fit(run, teacher, seed=5, options=options, progress=False)
    record = net.meta["fit"]
    assert record["epochs_done"] == options.epochs
    assert record["carried"] == str(carried) and record["carried_sha256"] == contact_net.digest()
    assert net.hidden == contact_net.hidden  # the carried file's width, not the teacher's
    with np.load(contact_run / "labels" / "chunk-0001.npz") as chunk:
        contact = chunk["boards"][[net_phase(b, 2) == CONTACT for b in chunk["boards"]]]
    np.testing.assert_array_equal(
        NetEvaluator(weights=net).evaluate_positions(contact),
        NetEvaluator(weights=contact_net).evaluate_positions(contact),
    )
    with np.load(run / "labels" / "chunk-0001.npz") as chunk:
        race = chunk["boards"]
    fitted_race = NetEvaluator(weights=net).evaluate_positions(race)
    for other in (contact_net, NetWeights.load(teacher)):
        theirs = NetEvaluator(weights=other).evaluate_positions(race)
        assert np.abs(fitted_race - theirs).max() > 1e-3
    # a run started without a carried net does not take one later
    plain = tmp_path / "plain"
    shutil.copytree(run / "labels", plain / "labels")
    fit(plain, teacher, seed=5, options=options, stop_after=1, progress=False)
    with pytest.raises(TrainingError, match="carries the teacher's nets"):
        fit(plain, teacher, seed=5, options=options, carry=carried, progress=False)
    with pytest.raises(SystemExit):
        main(["--run", str(tmp_path / "none"), "--carry", str(carried), "--games", "10"])
    assert "--carry names the nets a fit keeps" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("contact_nets", "names"),
    [
        (2, {CONTACT: "contact", DEEP: "deep"}),
        (4, {CONTACT: "contact", DEEP: "deep", LATE: "late", BOTH_BACK: "both_back"}),
        (
            8,
            {
                CONTACT: "contact",
                DEEP: "deep",
                LATE: "late",
                BOTH_BACK: "both_back",
                LATE_FAR: "late_far",
                CONTACT_FAR: "contact_far",
                DEEP_FAR: "deep_far",
                BOTH_BACK_BAR: "both_back_bar",
            },
        ),
    ],
)
def test_a_split_fit_trains_a_net_for_each_part_of_contact(teacher, tmp_path, contact_nets, names):
    """With ``contact_nets`` a contact fit trains that many nets on the same
    labels, each on its own positions, each what the evaluator plays there; the
    race net is the teacher's, and the fit resumes to the same weights."""
    options = FitOptions(
        **{**TINY.__dict__, "contact_nets": contact_nets, "hidden": 48, "epochs": 4}
    )
    run = tmp_path / "split"
    net = fit(run, teacher, seed=3, options=options, progress=False)
    assert net.nets == contact_nets + 1
    assert net.meta["fit"]["options"]["contact_nets"] == contact_nets
    assert net.meta["version"] == {3: 4, 5: 5, 9: 6}[net.nets]
    rows = _log(run)
    for name in names.values():
        holdout = [float(r[f"holdout_mse_{name}"]) for r in rows]
        assert holdout[-1] < 0.9 * holdout[0], name
    with np.load(run / "labels" / "chunk-0001.npz") as chunk:
        boards = chunk["boards"]
    phase = np.array([net_phase(b, net.nets) for b in boards])
    evaluator = NetEvaluator(weights=net)
    for which in names:
        mine = boards[phase == which]
        assert len(mine) > 40, names[which]
        params = [a[which][..., :48] for a in net.arrays[:3]]
        _, s = _forward([*params, net.b2[which]], net_inputs(mine))
        np.testing.assert_allclose(
            _probabilities(s, mine[:, 0, 0] == 0, mine[:, 1, 0] == 0),
            evaluator.evaluate_positions(mine),
            atol=2e-5,
        )
    race = boards[phase == RACE]
    np.testing.assert_allclose(
        evaluator.evaluate_positions(race),
        NetEvaluator(weights=NetWeights.load(teacher)).evaluate_positions(race),
        atol=1e-6,
    )
    pieces = tmp_path / "pieces"
    fit(pieces, teacher, seed=3, options=options, stop_after=1, progress=False)
    assert fit(pieces, seed=3, progress=False).digest() == net.digest()


def test_contact_nets_are_checked(teacher, tmp_path):
    with pytest.raises(TrainingError, match="a race fit trains one net"):
        fit(tmp_path / "new", teacher, options=FitOptions(contact_nets=2, phase="race"))
    with pytest.raises(TrainingError, match="contact nets: expected 1, 2, 4, 8, got 3"):
        fit(tmp_path / "new", teacher, options=FitOptions(contact_nets=3))


def test_the_records_of_two_contact_nets_read_as_before():
    """Runs that fitted two contact nets recorded ``split``."""
    record = {**FitOptions().__dict__, "split": True}
    del record["contact_nets"]
    assert FitOptions.from_record(record).contact_nets == 2
    assert FitOptions.from_record({**record, "split": False}).contact_nets == 1


def test_rollout_labels_are_the_teachers_own_rollouts(teacher):
    """With ``trials`` the labels are the teacher's rollouts played to the end:
    the same chunk again from the seed, and on average the teacher's 1-ply values
    (a race's rollouts end in the bear-off database's exact values)."""
    net = NetWeights.load(teacher)
    options = FitOptions(**{**TINY.__dict__, "phase": "race", "trials": 36})
    chunk = label_chunk(net, 5, 2, 0, options)
    again = label_chunk(net, 5, 2, 0, options)
    np.testing.assert_array_equal(chunk["targets"], again["targets"])
    boards, targets = chunk["boards"], chunk["targets"]
    assert len(boards) > 100
    assert np.all(targets[:, 0] >= targets[:, 1]) and np.all(targets[:, 1] >= targets[:, 2])
    ply = label_chunk(net, 5, 2, 0, FitOptions(**{**TINY.__dict__, "phase": "race"}))
    np.testing.assert_array_equal(ply["boards"], boards)
    difference = _equity(targets) - _equity(ply["targets"])
    assert abs(difference.mean()) < 0.02 and 0.005 < difference.std() < 0.2


def test_labels_are_rebuilt_from_the_seed(fitted, teacher):
    run, _ = fitted
    teacher_net = NetWeights.load(teacher)
    with np.load(run / "labels" / "chunk-0001.npz") as chunk:
        first = int(np.load(run / "labels" / "chunk-0000.npz")["next_game"])
        again = label_chunk(teacher_net, 3, 1, first, TINY)
        np.testing.assert_array_equal(again["boards"], chunk["boards"])
        np.testing.assert_array_equal(again["targets"], chunk["targets"])
        assert int(again["next_game"]) == int(chunk["next_game"]) > first
        # the positions after the best plays of a roll follow the self-play ones
        assert len(chunk["boards"]) > TINY.chunk
    other = label_chunk(teacher_net, 4, 1, first, TINY)
    assert not np.array_equal(other["boards"][: TINY.chunk], again["boards"][: TINY.chunk])


def test_chunks_labelled_at_once_are_those_of_one_process(fitted, teacher, tmp_path):
    run, _ = fitted
    again = tmp_path / "at-once"
    (again / "labels").mkdir(parents=True)
    # a chunk already there: the ones after it start where it stops
    shutil.copy(run / "labels" / "chunk-0002.npz", again / "labels")
    paths = _labels(again, NetWeights.load(teacher), 3, TINY, False, n_jobs=3)
    assert [p.name for p in paths] == sorted(p.name for p in (run / "labels").iterdir())
    assert sorted(p.name for p in (again / "labels").iterdir()) == [p.name for p in paths]
    for path in paths:
        with np.load(path) as ours, np.load(run / "labels" / path.name) as theirs:
            for key in ("boards", "targets", "next_game"):
                np.testing.assert_array_equal(ours[key], theirs[key])


def test_the_labelling_processes_are_checked(teacher, tmp_path):
    for n_jobs in (0, 1.5, True):
        with pytest.raises(TrainingError, match="n_jobs"):
            fit(tmp_path / "new", teacher, options=TINY, n_jobs=n_jobs, progress=False)
    with pytest.raises(SystemExit):
        main(["--run", str(tmp_path / "td"), "--games", "10", "--jobs", "2"])


def test_a_fit_in_pieces_ends_with_the_same_weights(fitted, teacher, tmp_path):
    _, whole = fitted
    run = tmp_path / "pieces"
    half = fit(run, teacher, seed=3, options=TINY, stop_after=3, progress=False)
    assert half.meta["fit"]["epochs_done"] == 3
    (run / "labels" / "chunk-0002.npz").unlink()  # labels are rebuilt when missing
    resumed = fit(run, seed=3, progress=False)
    assert resumed.digest() == whole.digest()
    assert [int(r["epoch"]) for r in _log(run)] == [1, 2, 3, 4, 5, 6]


def test_a_fit_run_refuses_what_does_not_match(fitted, teacher, tmp_path):
    run, _ = fitted
    with pytest.raises(TrainingError, match="seed"):
        fit(run, seed=4, progress=False)
    other = NetWeights.load(teacher)
    other.b2[0, 0] += 0.01
    with pytest.raises(TrainingError, match="not the teacher"):
        fit(run, other.save(tmp_path / "other.npz"), seed=3, progress=False)
    with pytest.raises(TrainingError, match="started with"):
        fit(run, seed=3, options=FitOptions(epochs=5), progress=False)
    selfplay = tmp_path / "selfplay"
    selfplay.mkdir()
    NetWeights.load(teacher).save(selfplay / "checkpoint.npz")
    with pytest.raises(TrainingError, match="a self-play run, not of a fit run"):
        fit(selfplay, teacher, progress=False)
    with pytest.raises(TrainingError, match="needs a teacher"):
        fit(tmp_path / "new", progress=False)
    with pytest.raises(TrainingError, match=r"teacher: .*missing\.npz"):
        fit(tmp_path / "new", tmp_path / "missing.npz", progress=False)
    with pytest.raises(TrainingError, match="plies"):
        fit(
            tmp_path / "new",
            NetWeights.load(teacher).save(tmp_path / "t.npz"),
            options=FitOptions(plies=3),
            progress=False,
        )
    with pytest.raises(TrainingError, match="holdout"):
        fit(
            tmp_path / "new",
            tmp_path / "t.npz",
            options=FitOptions(positions=10, holdout=1),
            progress=False,
        )
    with pytest.raises(TrainingError, match="phase: expected one of 'contact', 'race'"):
        fit(
            tmp_path / "new",
            tmp_path / "t.npz",
            options=FitOptions(phase="bearoff"),
            progress=False,
        )


def test_a_damaged_chunk_or_optimizer_state_is_refused(teacher, tmp_path):
    run = tmp_path / "run"
    options = FitOptions(**{**TINY.__dict__, "epochs": 2})
    fit(run, teacher, seed=3, options=options, stop_after=1, progress=False)
    (run / "labels" / "chunk-0001.npz").write_bytes(b"not a chunk")
    with pytest.raises(TrainingError, match=r"chunk-0001\.npz: not a chunk of labels"):
        fit(run, teacher, seed=3, progress=False)
    (run / "labels" / "chunk-0001.npz").unlink()
    (run / "optimizer.npz").write_bytes(b"nothing")
    with pytest.raises(TrainingError, match=r"optimizer\.npz: cannot resume"):
        fit(run, teacher, seed=3, progress=False)


def test_the_command_fits_and_resumes(teacher, tmp_path, capsys):
    run = tmp_path / "cli"
    args = [
        "--run",
        str(run),
        "--teacher",
        str(teacher),
        "--seed",
        "3",
        "--no-progress",
        "--fit-positions",
        "1500",
        "--fit-chunk",
        "500",
        "--fit-holdout",
        "1",
        "--fit-plays",
        "1",
        "--hidden",
        "129",
        "--fit-epochs",
        "2",
    ]
    assert main(args) == 0
    assert "2 epochs" in capsys.readouterr().out
    net = NetWeights.load(run / "checkpoint.npz")
    assert net.hidden == 129 and net.meta["fit"]["options"]["positions"] == 1500
    assert not (run / "optimizer.npz").exists()  # a finished run never resumes
    for chunk in (run / "labels").iterdir():
        chunk.unlink()
    assert main(args) == 0
    assert NetWeights.load(run / "checkpoint.npz").digest() == net.digest()
    assert not any((run / "labels").iterdir())
    with pytest.raises(SystemExit):
        main(["--run", str(run), "--teacher", str(teacher), "--games", "10"])


@pytest.mark.parametrize(
    ("flags", "contact_nets"),
    [([], 1), (["--split-contact"], 2), (["--contact-nets", "2"], 2), (["--contact-nets", "4"], 4)],
)
def test_the_command_asks_for_the_contact_nets(monkeypatch, capsys, flags, contact_nets):
    """``--contact-nets N`` (``--split-contact`` is 2) reaches the fit's options, and
    ``--jobs`` and ``--carry`` the fit."""
    import gammonlab.train.__main__ as command

    asked = {}

    def record(run, teacher, *, seed, options, carry, progress, n_jobs):
        asked["options"] = options
        asked["n_jobs"] = n_jobs
        asked["carry"] = carry
        return SimpleNamespace(meta={"fit": {"epochs_done": 0}}, digest=lambda: "0" * 64)

    monkeypatch.setattr(command, "fit", record)
    assert main(["--run", "run", "--teacher", "teacher.npz", *flags]) == 0
    assert asked["options"].contact_nets == contact_nets
    assert asked["n_jobs"] == 1 and asked["carry"] is None
    assert main(["--run", "run", "--teacher", "teacher.npz", "--jobs", "2", *flags]) == 0
    assert asked["n_jobs"] == 2
    assert main(["--run", "run", "--teacher", "t.npz", "--carry", "other.npz", *flags]) == 0
    assert asked["carry"] == "other.npz"
    with pytest.raises(SystemExit):
        main(["--run", "run", "--teacher", "teacher.npz", "--split-contact", "--contact-nets", "4"])
    assert "--split-contact is --contact-nets 2, not 4" in capsys.readouterr().err
