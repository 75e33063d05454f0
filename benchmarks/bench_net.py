"""gammonlab's neural evaluator (``get_evaluator("net")``): strength, agreement, speed.

Three sections, chosen with ``--only`` (default: all three):

1. strength: cubeless money games from the opening with duplicate dice (each
   dice sequence is played twice, the sides swapped; the opening roll is drawn
   again while it is a double). Points per game for the net, with a standard
   error computed over the pairs and a 95% interval, against

   a. pubeval, the net at 0 plies (``gammonlab.train.match_against_pubeval``,
      whole games inside numba);
   b. GNU Backgammon at 0 plies (``gnubg_nn.best_move``), the net at 0 plies;
   c. the same, the net at 1 ply (``NetEvaluator(plies=1)``).

   b and c are played by :func:`duplicate_match` below, a match loop of its
   own, outside gammonlab's match code: all games in lockstep, one ``choose``
   call per ply for the games where the net is on roll and one for those where
   GNU Backgammon is.
2. agreement: on every unforced checker play of the bundled transcripts (the
   ``.mat`` and ``.txt`` files of ``gammonlab.io.samples.sample_folder()``; the
   ``.sgf`` there is one of them analysed), how often the play the net prefers
   at 0 and at 1 ply is the one GNU Backgammon prefers at 0 plies (the same
   resulting position); pubeval's agreement is one reference, GNU Backgammon's
   own play at 1 ply (``GnubgEvaluator(plies=1)``) another: a look-ahead
   changes some of its own 0-ply choices. Each figure is given twice: as the
   play itself, and counting as GNU Backgammon's play any play it values
   exactly as the one it chose (a tie among its best plays, nearly always in a
   game whose result no play can change any more). Where the net's 0-ply play
   differs, GNU Backgammon at 2 plies judges the two plays: how often it
   prefers each, and its mean equity of its own 0-ply play less the net's.
3. speed, per CPU second (time.process_time; GNU Backgammon's CLI runs as a
   child process, its CPU time read with getrusage):

   a. positions evaluated: one batch through the net (``NetEvaluator``) against
      ``gnubg_nn.probabilities`` called on each position. The positions are
      distinct ones met in 0-ply games of the net against itself (contact and
      race); each run takes new ones, so that GNU Backgammon's evaluation
      cache cannot help it;
   b. whole 0-ply cubeless rollout games from the opening, one process, played
      to the end: ``policy="net"`` against GNU Backgammon's own rollout
      (``gnubg -t`` running ``benchmarks/gnubg_rollout.txt``: 0-ply, cubeless,
      no lookahead variance reduction, rotated dice as gammonlab rotates its
      first roll, no bear-off truncation, one thread; its start-up is taken
      off as the time of a 36-trial run) and against ``policy="gnubg"``;
   c. decisions analysed with luck: ``gl.analyse`` with the net on the bundled
      transcripts against GNU Backgammon's 0-ply ``analyse match`` of the same
      files (``bench_analysis.gnubg_reference``, less its start-up, measured
      with no file).

GNU Backgammon's CLI is Debian's package ``gnubg`` (``apt-get install gnubg``);
without it the figures that need it are skipped, saying so. Speeds are medians
of ``--repeats`` interleaved runs. The defaults take about 5 minutes on one
core (most of it the games of the net at 1 ply); ``--quick`` runs tiny sizes in
well under a minute, a smoke test whose figures mean little. ``--weights FILE``
measures another weights file or a fit run's checkpoint (``data/fit-N/
checkpoint.npz``) in every section instead of the shipped net.

    python benchmarks/bench_net.py [--only strength,agreement,speed] [--repeats 3]
        [--pubeval-games 10000] [--gnubg-games 10000] [--ply1-games 2000]
        [--positions 20000] [--rollout-trials 5184] [--weights FILE] [--quick]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import numpy as np
from bench_analysis import DECISIONS, WARM_UP, gnubg_reference
from bench_rollout import ours
from gnubg_cli import gnubg_cli

import gammonlab as gl
from gammonlab._kernels.movegen import generate_plays
from gammonlab._kernels.net_play import net_widths
from gammonlab.errors import MissingDependencyError
from gammonlab.evaluators.base import Policy, get_evaluator
from gammonlab.evaluators.gnubg import GnubgEvaluator
from gammonlab.evaluators.net import NetEvaluator, NetWeights
from gammonlab.evaluators.pubeval import is_race as pubeval_is_race
from gammonlab.io.samples import sample_folder
from gammonlab.train import match_against_pubeval

SECTIONS = ("strength", "agreement", "speed")
ROLLOUT_COMMANDS = Path(__file__).with_name("gnubg_rollout.txt")
CLI_STARTUP_TRIALS = 36
ROLLS_AHEAD = 128  # rolls drawn per pair at a time
MAX_PLIES = 20_000

# option: (default, --quick)
SIZES = {
    "repeats": (3, 1),
    "pubeval_games": (10_000, 400),
    "gnubg_games": (10_000, 200),
    "ply1_games": (2_000, 20),
    "agreement_files": (0, 2),
    "positions": (20_000, 2_000),
    "rollout_trials": (5184, 144),
    "gnubg_policy_trials": (288, 36),
    "cli_trials": (1296, 144),
    "analysis_files": (0, 1),
}


def end_points(after: np.ndarray) -> np.ndarray:
    """Points of finished games, boards seen from the winner (row 0, just borne off
    its last checker): 3 if the loser has borne off nothing and has a checker on
    the bar or in the winner's home board (the loser's points 19-24), 2 if it has
    borne off nothing, else 1."""
    loser = after[:, 1].astype(np.int64)
    gammon = loser[:, 0] == 0
    backgammon = gammon & (loser[:, 19:26].sum(axis=1) > 0)
    return 1 + gammon.astype(np.int64) + backgammon.astype(np.int64)


def duplicate_match(first: Policy, second: Policy, pairs: int, seed: int) -> np.ndarray:
    """Cubeless money games of ``first`` against ``second`` from the opening with
    duplicate dice: ``first``'s points ``(pairs, 2)``, +1/+2/+3 won, negative lost.

    In game 0 of a pair ``first`` is on roll first, in game 1 ``second``; both
    games read the pair's rolls in order (the k-th roll of one game is the k-th of
    the other), drawn from ``numpy.random.default_rng(seed)``, the opening roll
    again while it is a double. Every game is played in lockstep: each ply, one
    ``choose`` call for the games where ``first`` is on roll, one for the others.
    """
    rng = np.random.default_rng(seed)

    def draw(count: int) -> np.ndarray:
        return rng.integers(1, 7, size=(pairs, count, 2), dtype=np.int64)

    rolls = draw(ROLLS_AHEAD)
    doubles = rolls[:, 0, 0] == rolls[:, 0, 1]
    while doubles.any():
        rolls[doubles, 0] = rng.integers(1, 7, size=(int(doubles.sum()), 2), dtype=np.int64)
        doubles = rolls[:, 0, 0] == rolls[:, 0, 1]
    games = 2 * pairs
    pair = np.arange(games) // 2
    boards = np.repeat(gl.Position.initial().board[np.newaxis].astype(np.int8), games, axis=0)
    first_on_roll = np.arange(games) % 2 == 0
    live = np.ones(games, dtype=bool)
    points = np.zeros(games, dtype=np.int64)
    ply = 0  # every live game is at the same ply
    while live.any():
        if ply == MAX_PLIES:
            raise RuntimeError(f"{int(live.sum())} games still going after {ply} plies")
        if ply == rolls.shape[1]:
            rolls = np.concatenate([rolls, draw(ROLLS_AHEAD)], axis=1)
        for policy, sign in ((first, 1), (second, -1)):
            mine = np.flatnonzero(live & (first_on_roll == (sign == 1)))
            if len(mine) == 0:
                continue
            after = policy.choose(boards[mine], rolls[pair[mine], ply])
            boards[mine] = after[:, ::-1]  # the opponent on roll next
            won = after[:, 0, 1:].sum(axis=1) == 0
            points[mine[won]] = sign * end_points(after[won])
            live[mine[won]] = False
        first_on_roll = ~first_on_roll
        ply += 1
    return points.reshape(pairs, 2)


def trained_as(meta: dict) -> str:
    """How a net was trained, from its record: self-play games, or a fit to a teacher."""
    if "fit" in meta:
        fit = meta["fit"]
        return (
            f"fitted to the {fit['options']['plies']}-ply values of net "
            f"{fit['teacher_sha256'][:12]} ({fit['epochs_done']} epochs)"
        )
    games = meta.get("games")
    return f"{'?' if games is None else f'{games:,}'} training games"


def per_game(points: np.ndarray) -> tuple[float, float]:
    """Points per game and its standard error, over the pairs (``points (pairs, 2)``)."""
    per_pair = points.sum(axis=1) / 2.0
    return float(per_pair.mean()), float(per_pair.std(ddof=1) / np.sqrt(len(per_pair)))


def children_cpu() -> float:
    """CPU seconds of the child processes that have ended (and been waited for)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def transcripts(limit: int) -> list[Path]:
    """The bundled transcripts (``.mat``, ``.txt``), the first ``limit`` (0: all)."""
    paths = sorted(p for p in sample_folder().iterdir() if p.suffix in (".mat", ".txt"))
    return paths[:limit] if limit else paths


def whole_blocks(trials: int) -> int:
    """Rollout trials come in blocks of 36 (the rotated first roll)."""
    return max(36, -(-trials // 36) * 36)


def median_rates(
    runs: dict[str, Callable[[int], tuple[float, float]]], repeats: int
) -> dict[str, float]:
    """Median of ``count / seconds`` of each ``run(repeat)``, run in turn ``repeats``
    times (interleaved, so that a change in the machine's load hits all alike)."""
    seen: dict[str, list[float]] = {name: [] for name in runs}
    for repeat in range(repeats):
        for name, run in runs.items():
            count, seconds = run(repeat)
            seen[name].append(count / seconds)
    return {name: statistics.median(values) for name, values in seen.items()}


def row(label: str, value: float, reference: float | None, note: str) -> None:
    if reference is None:
        print(f"{label:44}{value:11,.0f}  {'-':>11}  {'-':>6}   {note}")
    else:
        print(f"{label:44}{value:11,.0f}  {reference:11,.0f}  {value / reference:6.2f}   {note}")


def strength(sizes: dict[str, int], seed: int, gnubg: Policy | None, weights: NetWeights) -> None:
    print(
        "strength: cubeless money games from the opening, duplicate dice; points per game "
        "for the net,\nstandard errors over the pairs of games"
    )
    print(f"{'':44}{'games':>7}  {'ppg ± stderr':>14}  {'95% interval':>16}  {'CPU s':>6}")

    def line(label: str, points: np.ndarray, seconds: float) -> None:
        ppg, stderr = per_game(points)
        low, high = ppg - 1.96 * stderr, ppg + 1.96 * stderr
        print(
            f"{label:44}{points.size:7,}  {ppg:+.3f} ± {stderr:.3f}  "
            f"[{low:+.3f}, {high:+.3f}]  {seconds:6.1f}"
        )

    net = NetEvaluator(weights)
    match_against_pubeval(net.weights, 2, seed)  # numba's cache, the bear-off database
    start = time.process_time()
    _, _, points = match_against_pubeval(net.weights, max(2, sizes["pubeval_games"] // 2), seed)
    line("net 0-ply vs pubeval", points, time.process_time() - start)
    if gnubg is None:
        print("gnubg_nn is not installed: no games against GNU Backgammon (pip install gnubg-nn)")
        return
    for label, player, games in (
        ("net 0-ply vs GNU Backgammon 0-ply", net, sizes["gnubg_games"]),
        (
            "net 1-ply vs GNU Backgammon 0-ply",
            NetEvaluator(weights, plies=1),
            sizes["ply1_games"],
        ),
    ):
        duplicate_match(player, gnubg, 1, seed)  # warm-up
        start = time.process_time()
        points = duplicate_match(player, gnubg, max(2, games // 2), seed)
        line(label, points, time.process_time() - start)


def unforced_plays(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    """The position before each unforced checker play (row 0 on roll) and its roll."""
    boards, dice = [], []
    for path in paths:
        frame = gl.read_match(path).to_frame()
        moves = frame[(frame["action"] == "move") & (frame["n_legal"] > 1).fillna(False)]
        for position_id, d1, d2 in zip(moves["position_id"], moves["die1"], moves["die2"]):
            boards.append(gl.Position.from_gnubg_id(position_id).board)
            dice.append((int(d1), int(d2)))
    return np.stack(boards).astype(np.int8), np.array(dice, dtype=np.int64)


def pubeval_choose(boards: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """pubeval's play on each board and roll (the board after it, seen from the mover)."""
    pubeval = get_evaluator("pubeval")
    out = boards.copy()
    for i, (board, (d1, d2)) in enumerate(zip(boards, dice)):
        results, _ = generate_plays(board, int(d1), int(d2))
        if len(results):
            out[i] = results[int(np.argmax(pubeval.scores(board, results)))]
    return out


def agreement(sizes: dict[str, int], gnubg: Policy | None, weights: NetWeights) -> None:
    if gnubg is None:
        print(
            "agreement: gnubg_nn is not installed, nothing to compare with (pip install gnubg-nn)"
        )
        return
    paths = transcripts(sizes["agreement_files"])
    boards, dice = unforced_plays(paths)
    reference = gnubg.choose(boards, dice)
    n = len(boards)
    print(
        f"agreement with GNU Backgammon's 0-ply play: {n:,} unforced checker plays of "
        f"{len(paths)} bundled transcripts"
    )
    plays = {}
    judge = GnubgEvaluator(plies=0)
    for label, choose in (
        ("net 0-ply", NetEvaluator(weights).choose),
        ("net 1-ply", NetEvaluator(weights, plies=1).choose),
        ("pubeval (reference)", pubeval_choose),
        ("GNU Backgammon 1-ply (reference)", GnubgEvaluator(plies=1).choose),
    ):
        plays[label] = choose(boards, dice)
        same = int((plays[label] == reference).all(axis=(1, 2)).sum())
        alike = same + valued_alike(boards, reference, plays[label], judge)
        print(
            f"{label:44}{same:7,} of {n:,}  {100 * same / n:5.1f}%"
            f"   with its ties {100 * alike / n:5.1f}%"
        )
    print(
        "  (with its ties: a play GNU Backgammon 0-ply values exactly as the one it chose "
        "counts as its play too)"
    )
    disagreements(boards, reference, plays["net 0-ply"])


def valued_alike(
    boards: np.ndarray, reference: np.ndarray, plays: np.ndarray, judge: GnubgEvaluator
) -> int:
    """How many of ``plays`` that differ from GNU Backgammon 0-ply's own play it
    values exactly as that play: ties among its best plays, which it breaks by
    the order of its move list; most of them come late in races whose result
    no play can change any more (a sure win, a sure loss, a sure gammon)."""
    return int((judged_gaps(boards, reference, plays, judge) == 0.0).sum())


def judged_gaps(
    boards: np.ndarray, reference: np.ndarray, plays: np.ndarray, judge: GnubgEvaluator
) -> np.ndarray:
    """Where ``plays`` differ from ``reference``: ``judge``'s equity of the
    reference play less its equity of the other, one value a differing play."""
    differ = np.flatnonzero(~(plays == reference).all(axis=(1, 2)))
    return np.array(
        [np.subtract(*judge.scores(boards[i], np.stack([reference[i], plays[i]]))) for i in differ]
    )


def disagreements(boards: np.ndarray, reference: np.ndarray, net_play: np.ndarray) -> None:
    """Where the net's 0-ply play is not GNU Backgammon 0-ply's, which of the two
    plays GNU Backgammon itself prefers when it looks 2 plies ahead."""
    gaps = judged_gaps(boards, reference, net_play, GnubgEvaluator(plies=2))
    if len(gaps) < 2:
        return
    mean, error = float(gaps.mean()), float(gaps.std(ddof=1) / np.sqrt(len(gaps)))
    print(
        f"the {len(gaps):,} plays where the net 0-ply differs, judged by GNU Backgammon 2-ply: "
        f"it prefers its own 0-ply play in {int((gaps > 0).sum()):,}, the net's in "
        f"{int((gaps < 0).sum()):,}; its equity of its 0-ply play less the net's "
        f"{mean:+.4f} ± {error:.4f} a play"
    )


def self_play_positions(count: int, seed: int, weights: NetWeights) -> np.ndarray:
    """``count`` distinct positions (row 0 on roll), drawn at random from those met
    in 0-ply games of the net against itself from the opening (random dice; batches
    of games in lockstep, each played to the end)."""
    net = NetEvaluator(weights)
    rng = np.random.default_rng(seed)
    start = gl.Position.initial().board.astype(np.int8)
    seen: dict[bytes, np.ndarray] = {}
    while len(seen) < 2 * count:
        boards = np.repeat(start[np.newaxis], 256, axis=0)
        while len(boards):
            for board in boards:
                seen.setdefault(board.tobytes(), board)
            after = net.choose(boards, rng.integers(1, 7, size=(len(boards), 2)))
            boards = np.ascontiguousarray(after[:, ::-1][after[:, 0, 1:].sum(axis=1) > 0])
    found = np.stack(list(seen.values()))
    return found[rng.permutation(len(found))[:count]]


def is_race(boards: np.ndarray) -> np.ndarray:
    """Which positions have no contact (:func:`gammonlab.evaluators.pubeval.is_race`,
    GNU Backgammon's test, the one that picks the net's race net)."""
    return np.array([pubeval_is_race(board) for board in boards], dtype=bool)


def race_share(boards: np.ndarray) -> float:
    """The share of positions without contact."""
    return float(is_race(boards).mean())


def cli_rollout_cpu(gnubg: str, trials: int, seed: int) -> float:
    """CPU seconds of GNU Backgammon running ``gnubg_rollout.txt`` with ``trials`` trials."""
    text = ROLLOUT_COMMANDS.read_text()
    text, found = re.subn(r"(?m)^set rollout trials \d+$", f"set rollout trials {trials}", text)
    text = re.sub(r"(?m)^set rollout seed \d+$", f"set rollout seed {seed + 1}", text)
    assert found == 1, f"{ROLLOUT_COMMANDS} has no line 'set rollout trials N'"
    with tempfile.TemporaryDirectory() as home:
        commands = Path(home) / "rollout.txt"
        commands.write_text(text)
        before = children_cpu()
        done = subprocess.run(
            [gnubg, "-t", "-q", "-c", str(commands)],
            capture_output=True,
            text=True,
            env=dict(os.environ, HOME=home, LC_ALL="C"),
            timeout=3600,
        )
        seconds = children_cpu() - before
    if "Rollout done" not in done.stdout:
        raise RuntimeError(
            f"GNU Backgammon did not finish its rollout:\n{done.stdout[-2000:]}"
            f"\n{done.stderr[-2000:]}"
        )
    return seconds


def cli_analysis_cpu(paths: list[Path]) -> float:
    before = children_cpu()
    gnubg_reference(paths)
    return children_cpu() - before


def speed(sizes: dict[str, int], seed: int, gnubg: Policy | None, weights: NetWeights) -> None:
    repeats = sizes["repeats"]
    cli = gnubg_cli()
    print(
        f"speed, per CPU second, medians of {repeats} interleaved run{'s' if repeats != 1 else ''}"
    )
    print(f"{'':44}{'per second':>11}  {'reference':>11}  {'ratio':>6}")

    # a. evaluations
    n = sizes["positions"]
    positions = self_play_positions(n * (repeats + 1), seed, weights)
    net = NetEvaluator(weights)
    batches = [positions[k * n : (k + 1) * n] for k in range(repeats + 1)]
    lists = [np.ascontiguousarray(b[:, ::-1, 1:]).tolist() for b in batches]

    def net_batch(repeat: int) -> tuple[float, float]:
        start = time.process_time()
        net(batches[repeat + 1])
        return n, time.process_time() - start

    runs = {"net": net_batch}
    if gnubg is not None:
        import gnubg_nn

        def gnubg_each(repeat: int) -> tuple[float, float]:
            probabilities = gnubg_nn.probabilities
            start = time.process_time()
            for board in lists[repeat + 1]:
                probabilities(board, 0)
            return n, time.process_time() - start

        runs["gnubg"] = gnubg_each
        for board in lists[0]:  # warm-up on other positions
            gnubg_nn.probabilities(board, 0)
    net(batches[0])
    rate = median_rates(runs, repeats)
    row(
        f"net evaluations, one batch of {n:,}",
        rate["net"],
        rate.get("gnubg"),
        f"reference: gnubg_nn.probabilities(board, 0) per position "
        f"({100 * race_share(positions):.0f}% races)",
    )

    # b. rollouts
    trials = whole_blocks(sizes["rollout_trials"])
    policy_trials = whole_blocks(sizes["gnubg_policy_trials"])
    cli_trials = whole_blocks(sizes["cli_trials"])

    def ours_run(policy: str | Policy, count: int) -> Callable[[int], tuple[float, float]]:
        play = ours(policy, 1)

        def run(repeat: int) -> tuple[float, float]:
            start = time.process_time()
            play(count, repeat + 1)
            return count, time.process_time() - start

        return run

    runs = {"net": ours_run(net, trials)}
    ours(net, 1)(36, 0)
    if gnubg is not None:
        runs["gnubg"] = ours_run("gnubg", policy_trials)
        ours("gnubg", 1)(36, 0)
    if cli is not None and cli_trials > CLI_STARTUP_TRIALS:

        def cli_run(repeat: int) -> tuple[float, float]:
            startup = cli_rollout_cpu(cli, CLI_STARTUP_TRIALS, repeat)
            whole = cli_rollout_cpu(cli, cli_trials, repeat)
            return cli_trials - CLI_STARTUP_TRIALS, whole - startup

        runs["cli"] = cli_run
    rate = median_rates(runs, repeats)
    if "cli" in rate:
        row(
            "rollout games, policy='net', 1 process",
            rate["net"],
            rate["cli"],
            f"reference: GNU Backgammon's 0-ply rollout, gnubg -t, 1 thread ({cli_trials:,} "
            f"less {CLI_STARTUP_TRIALS} trials)",
        )
    elif cli is None:
        row(
            "rollout games, policy='net', 1 process",
            rate["net"],
            None,
            "GNU Backgammon's CLI (Debian package gnubg) is not installed: no reference",
        )
    else:
        row(
            "rollout games, policy='net', 1 process",
            rate["net"],
            None,
            f"no GNU Backgammon CLI reference: --cli-trials must exceed {CLI_STARTUP_TRIALS}",
        )
    if "gnubg" in rate:
        row(
            "rollout games, policy='net', 1 process",
            rate["net"],
            rate["gnubg"],
            f"reference: policy='gnubg', 1 process ({policy_trials:,} trials)",
        )

    # c. analysis
    paths = transcripts(sizes["analysis_files"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gl.analyse(WARM_UP, evaluator=net, progress=False)
    decisions = 0

    def ours_analysis(repeat: int) -> tuple[float, float]:
        nonlocal decisions
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            start = time.process_time()
            frames = [gl.analyse(path, evaluator=net, luck=True, progress=False) for path in paths]
            seconds = time.process_time() - start
        decisions = sum(int(frame["action"].isin(DECISIONS).sum()) for frame in frames)
        return decisions, seconds

    runs = {"net": ours_analysis}
    if cli is not None:

        def cli_analysis(repeat: int) -> tuple[float, float]:
            startup = cli_analysis_cpu([])
            return decisions, cli_analysis_cpu(paths) - startup

        runs["cli"] = cli_analysis  # after "net", which counts the decisions
    rate = median_rates(runs, repeats)
    label = "analysis with luck, decisions"
    note = f"{decisions:,} decisions of {len(paths)} bundled transcripts"
    if "cli" in rate:
        row(
            label,
            rate["net"],
            rate["cli"],
            "reference: GNU Backgammon's 0-ply analyse match "
            f"(the CPU time of all its threads), {note}",
        )
    else:
        row(
            label,
            rate["net"],
            None,
            f"GNU Backgammon's CLI (Debian package gnubg) is not installed: no reference; {note}",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help="comma-separated sections: strength, agreement, speed",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--weights",
        default=None,
        help="a weights file or fit checkpoint to measure instead of the shipped net",
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes, a smoke run (options given still apply)"
    )
    helps = {
        "repeats": "runs of each speed figure (median)",
        "pubeval_games": "games against pubeval",
        "gnubg_games": "games of the net at 0-ply against GNU Backgammon",
        "ply1_games": "games of the net at 1-ply against GNU Backgammon",
        "agreement_files": "transcripts of the agreement section (0: all)",
        "positions": "positions per batch of the evaluation speed figure",
        "rollout_trials": "trials of each policy='net' rollout",
        "gnubg_policy_trials": "trials of each policy='gnubg' rollout",
        "cli_trials": "trials of each GNU Backgammon CLI rollout",
        "analysis_files": "transcripts analysed in the speed section (0: all)",
    }
    for name, (default, quick) in SIZES.items():
        parser.add_argument(
            "--" + name.replace("_", "-"),
            type=int,
            default=None,
            help=f"{helps[name]} (default {default:,}; --quick {quick:,})",
        )
    args = parser.parse_args()
    sections = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = sorted(set(sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    sizes = {
        name: getattr(args, name)
        if getattr(args, name) is not None
        else pair[1 if args.quick else 0]
        for name, pair in SIZES.items()
    }

    try:
        gnubg: Policy | None = get_evaluator("gnubg")
    except MissingDependencyError:
        gnubg = None
    weights = NetEvaluator(args.weights).weights
    print(
        f"net benchmark{' (--quick: tiny sizes)' if args.quick else ''}, {os.cpu_count()} "
        f"cores, load average {os.getloadavg()[0]:.2f}; weights: {weights.nets} nets of "
        f"{'/'.join(map(str, net_widths(weights.arrays)))} hidden units, "
        f"{trained_as(weights.meta)}, sha256 {weights.digest()[:12]}"
    )
    if gnubg_cli() is None:
        print(
            "GNU Backgammon's CLI (Debian package gnubg) is not installed: its rollout and "
            "analysis figures are skipped (apt-get install gnubg)"
        )
    for section in SECTIONS:
        if section not in sections:
            continue
        print()
        if section == "strength":
            strength(sizes, args.seed, gnubg, weights)
        elif section == "agreement":
            agreement(sizes, gnubg, weights)
        else:
            speed(sizes, args.seed, gnubg, weights)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
