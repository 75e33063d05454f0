"""``python -m gammonlab.train``: train or resume a run of the neural evaluator."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from .._kernels.net import BOTH_BACK_SUM, DEEP_BACK_SUM, LATE_BACK_SUM
from . import DISTIL_ALPHA, average, distil, train
from .supervised import CONTACT_NETS, FitOptions, fit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m gammonlab.train",
        description="Train gammonlab's neural evaluator by self-play (TD(lambda)); "
        "resumes from the run folder's checkpoint.",
    )
    parser.add_argument(
        "--run",
        default="data/training",
        help="run folder with checkpoint.npz and log.csv (default: %(default)s)",
    )
    parser.add_argument(
        "--games", type=int, default=None, help="total TD self-play games the run should reach"
    )
    parser.add_argument(
        "--distil",
        type=int,
        default=None,
        metavar="ROUNDS",
        help="then train towards the net's own deeper evaluations until the "
        "run has done ROUNDS rounds",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=50_000,
        help="positions per distillation round (default: 50000)",
    )
    parser.add_argument(
        "--plies", type=int, default=1, help="depth of the distillation labels, 1 or 2 (default: 1)"
    )
    parser.add_argument(
        "--rollout-trials",
        type=int,
        default=0,
        metavar="TRIALS",
        help="label the contact positions of the distillation, or the positions of a fit "
        "(--teacher), with the net's own rollouts of TRIALS games each (a multiple of 36) "
        "instead of --plies; a fit's rollouts are played to the end, not truncated "
        "(default: 0, n-ply labels)",
    )
    parser.add_argument(
        "--truncate",
        type=int,
        default=10,
        help="plies each rollout trial plays before it takes the net's value (default: 10)",
    )
    parser.add_argument(
        "--plays",
        type=int,
        default=0,
        help="with --rollout-trials, label the positions after the PLAYS best plays of a roll "
        "from each position, rolled out on the same dice (default: 0, the positions themselves)",
    )
    parser.add_argument(
        "--epochs",
        type=int,
        default=2,
        help="passes over each distillation round's positions (default: 2)",
    )
    parser.add_argument(
        "--keep-labels",
        action="store_true",
        help="write each distillation round's positions and labels to the run's labels/ folder",
    )
    parser.add_argument(
        "--alpha",
        type=float,
        default=DISTIL_ALPHA,
        help="learning rate of the distillation (default: %(default)s)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default: 1)")
    parser.add_argument(
        "--hidden",
        type=int,
        default=None,
        help="hidden units of a new run (default: 128 for self-play and --fit-phase race, "
        "256 for a contact fit)",
    )
    parser.add_argument(
        "--teacher",
        default=None,
        metavar="WEIGHTS",
        help="fit a new net in --run to the --plies values of the net in WEIGHTS (a weights "
        "file), on its self-play positions and the positions after its best plays",
    )
    parser.add_argument(
        "--carry",
        default=None,
        metavar="WEIGHTS",
        help="with --teacher: the nets the fit does not train come from WEIGHTS (a weights "
        "file) instead of the teacher, e.g. a race fit beside another run's contact nets",
    )
    parser.add_argument(
        "--fit-positions",
        type=int,
        default=FitOptions.positions,
        help="self-play positions of the teacher to label (default: %(default)s)",
    )
    parser.add_argument(
        "--fit-chunk",
        type=int,
        default=FitOptions.chunk,
        help="self-play positions labelled a chunk, the unit of work kept in the run's "
        "labels/ folder (default: %(default)s)",
    )
    parser.add_argument(
        "--fit-holdout",
        type=int,
        default=FitOptions.holdout,
        help="chunks held out to measure the fit (default: %(default)s)",
    )
    parser.add_argument(
        "--fit-plays",
        type=int,
        default=FitOptions.plays,
        help="best plays of a roll labelled from each of them (default: %(default)s)",
    )
    parser.add_argument(
        "--fit-phase",
        choices=("contact", "race"),
        default=FitOptions.phase,
        help="the net a fit trains, on that phase's positions only; the teacher's (or --carry's) "
        "nets of the other phase are carried over (default: %(default)s)",
    )
    parser.add_argument(
        "--contact-nets",
        type=int,
        choices=CONTACT_NETS,
        default=None,
        help="a contact fit fits this many nets of --hidden units on the same labels, each "
        "for a part of contact by the sum of the two rearmost checkers' points: 2, deep "
        f"contact (over {DEEP_BACK_SUM}) and the rest; 4, late contact ({LATE_BACK_SUM} or "
        f"less), contact, deep contact and both back ({BOTH_BACK_SUM} or more); 8, each of "
        "those four in two (default: 1)",
    )
    parser.add_argument(
        "--split-contact",
        action="store_true",
        help="the same as --contact-nets 2",
    )
    parser.add_argument(
        "--fit-epochs",
        type=int,
        default=FitOptions.epochs,
        help="passes over the labelled positions (default: %(default)s)",
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        default=FitOptions.learning_rate,
        help="first learning rate of the fit (Adam; default: %(default)s)",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=int,
        default=20_000,
        help="games between checkpoints (default: 20000)",
    )
    parser.add_argument(
        "--snapshot-every",
        type=int,
        default=None,
        metavar="GAMES",
        help="keep a copy of the checkpoint every GAMES games in the run's snapshots/ folder",
    )
    parser.add_argument(
        "--average",
        nargs="+",
        default=None,
        metavar="CHECKPOINT",
        help="write to --out the mean of the weights of these checkpoints of one run, then stop",
    )
    parser.add_argument("--out", default=None, help="the file --average writes")
    parser.add_argument(
        "--match-pairs",
        type=int,
        default=500,
        help="duplicate pairs against pubeval at each checkpoint (default: 500)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=1,
        help="with --teacher: processes that label chunks at once (default: 1); "
        "the labels are the same for any number",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    if args.average is not None:
        if args.out is None:
            parser.error("--average needs --out, the file to write")
        mean = average(args.average, args.out)
        print(f"{args.out}: the mean of {len(args.average)} checkpoints, sha256 {mean.digest()}")
        return 0
    if args.jobs != 1 and args.teacher is None:
        parser.error("--jobs labels the chunks of a fit: it goes with --teacher")
    if args.carry is not None and args.teacher is None:
        parser.error("--carry names the nets a fit keeps: it goes with --teacher")
    if args.teacher is not None:
        if args.games is not None or args.distil is not None:
            parser.error("--teacher fits a new net: it does not go with --games or --distil")
        if args.split_contact and args.contact_nets not in (None, 2):
            parser.error(f"--split-contact is --contact-nets 2, not {args.contact_nets}")
        fit_options = FitOptions(
            positions=args.fit_positions,
            chunk=args.fit_chunk,
            holdout=args.fit_holdout,
            plays=args.fit_plays,
            plies=args.plies,
            hidden=args.hidden or (FitOptions.hidden if args.fit_phase == "contact" else 128),
            epochs=args.fit_epochs,
            learning_rate=args.learning_rate,
            phase=args.fit_phase,
            contact_nets=args.contact_nets or (2 if args.split_contact else 1),
            trials=args.rollout_trials,
        )
        net = fit(
            args.run,
            args.teacher,
            seed=args.seed,
            options=fit_options,
            carry=args.carry,
            progress=not args.no_progress,
            n_jobs=args.jobs,
        )
        print(f"{args.run}: {net.meta['fit']['epochs_done']} epochs, sha256 {net.digest()}")
        return 0
    if args.games is None and args.distil is None:
        parser.error("give --games (TD self-play), --distil (rounds) or both, or --teacher (a fit)")
    # the stages asked for, in order: what each runs to, its own options
    stages: list[tuple[Callable[..., object], int, dict[str, Any]]] = []
    if args.games is not None:
        stages.append(
            (
                train,
                args.games,
                {
                    "hidden": args.hidden or 128,
                    "checkpoint_every": args.checkpoint_every,
                    "snapshot_every": args.snapshot_every,
                },
            )
        )
    if args.distil is not None:
        stages.append(
            (
                distil,
                args.distil,
                {
                    "positions": args.positions,
                    "plies": args.plies,
                    "trials": args.rollout_trials,
                    "truncate": args.truncate,
                    "plays": args.plays,
                    "epochs": args.epochs,
                    "keep_labels": args.keep_labels,
                    "alpha": args.alpha,
                },
            )
        )
    for stage, until, options in stages:
        stage(
            args.run,
            until,
            seed=args.seed,
            match_pairs=args.match_pairs,
            progress=not args.no_progress,
            **options,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
