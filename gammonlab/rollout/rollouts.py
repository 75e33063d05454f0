"""Monte-Carlo rollouts: play a position out many times and average the results.

>>> import gammonlab as gl
>>> from gammonlab.rollout import rollout
>>> res = rollout(gl.Position.initial(), trials=72, seed=1, progress=False, n_jobs=1)
>>> res.trials, res.settings["policy"], res.stderr["equity"] > 0
(72, 'net', True)

What is estimated
-----------------
The five outcome probabilities of GNU Backgammon (win, win gammon, win
backgammon, lose gammon, lose backgammon) for the side on roll, and the
cubeless equity in money-play points (single 1, gammon 2, backgammon 3; R8.2):
the cube, the score and the Jacoby rule are ignored.

Under seed 000's scoring (``rules=Rules(scoring="seed-000")``, R8.4: "the
winner gets 1 point; 2 if the opponent has not yet brought all its checkers
into its home board; 4 if a checker of the opponent stays on the bar") the
five are P(win), P(win 2 or more), P(win 4), P(lose 2 or more), P(lose 4), and
the equity counts 1, 2 and 4 points. A loser on the bar pays 4 whatever else;
a checker on the bar is outside the home board too. Borne-off checkers do not
matter: a loser that has borne some off but was hit and has a checker outside
pays 2 (under R8.2 a single game), and a loser with every checker home and none
off pays 1 (under R8.2 a gammon). Policies play as they do under R8.2 (pubeval
and the evaluators know no other scoring), so with the same seed both scorings
see the same games, counted differently. What changes besides: the bear-off
finish stays valid, since in a pure bear-off no contact is left, nobody can be
hit and every game ends single (the database's win probability is used, no
2- or 4-point games), and the settings say so; ``truncate`` is refused, since
the evaluators' gammons and backgammons are R8.2's classes, not R8.4's.
Acey-Deucey: a loser's checker still waiting to enter counts as one on the
bar (4 points). The cube theory of :func:`~gammonlab.cube.rollout.rollout_cube`
holds for R8.2 only and refuses R8.4 results.

How trials are played
---------------------
- Built-in policies (``net``, the default for standard backgammon and
  Nackgammon; ``random``, ``pubeval``, ``bearoff``) play whole games in a numba
  kernel, a chunk of trials per call. The net plays the highest cubeless
  equity at 0-ply (:mod:`gammonlab.evaluators.net`); it is trained on
  standard and Nackgammon games, so other variants default to pubeval.
- Other policies (``gnubg``, Python callables) play many games in lockstep:
  each ply, the legal plays of every live game are generated in one kernel
  call, all their resulting positions are evaluated in one evaluator call,
  and each game takes its best. ``gnubg`` picks its plays itself
  (``gnubg_nn.best_move``), one call per game and ply.
- ``truncate=N`` stops each game after ``N`` plays and scores the position
  with ``evaluator``; with ``bearoff_finish`` a game that reaches a pure
  bear-off (every checker of both sides home, none on the bar) ends with the
  bear-off database's two-sided probabilities (each side's roll distribution
  exact for its one-sided play). A position that is a pure bear-off already
  is played out, so that its rollout is a rollout.

Variance reduction and standard errors
--------------------------------------
With ``variance_reduction`` the first roll that is not yet known (the side on
roll's roll; with dice already rolled, the opponent's reply) is rotated: in
every block of 36 trials each ordered roll (1-1, 1-2, ..., 6-6) comes once.
The rolls are then strata: the 21 distinct rolls, since an ordered roll and its
reverse lead to the same plays (weights 1/36 for doubles, 2/36 for the
others, fixed by design), and the estimate is the stratified mean (the plain
mean over whole blocks). Its standard error is the stratified one::

    stderr**2 = sum_s n_s * var_s / N**2        (n_s trials in stratum s, N in all)

where ``var_s`` is the sample variance of the trials of stratum ``s``. This
is honest: the trials of a block are not independent samples (they are
forced to cover every roll), so the plain formula ``var / N`` would overstate
the error, and nothing is assumed beyond the strata. Trials come in whole
blocks (``trials`` is rounded up to a multiple of 36). In a single block each
double has one trial and no sample variance: neighbouring doubles are
collapsed in pairs (1-1 with 2-2, 3-3 with 4-4, 5-5 with 6-6; Cochran's
collapsed strata, which can only overstate the error).
:attr:`RolloutResult.variance_ratio` is the plain variance estimate over the
stratified one: how many times more trials plain random dice would need for
the same standard error. Without variance reduction every roll is random and
the plain formula is used. 95% intervals are ``estimate +- 1.96 stderr``.

Acey-Deucey (R2.4, R11)
-----------------------
Positions of ``acey-deucey`` (checkers start off the board; a side's
checkers not yet entered are ``15 - row.sum()``) are played by their own
kernels (:mod:`gammonlab._kernels.playout`): checkers enter from off the
board into the opponent's home board (R11.1); on the roll 1-2 the policy picks
the best position over every play of the 1, the 2 and any doubles, and the
same side rolls again when all six moves were played (R11.2); nothing is
borne off while a checker waits to enter (R7.1). A side wins when all 15 of
its checkers are off (R8.1); the loser is gammoned if it has borne off none,
backgammoned if besides it still has a checker on the bar, in the winner's
home board or waiting to enter, since such a checker has yet to enter into the
winner's home board (R8.2). Policies and evaluators see waiting checkers on
the bar (:func:`~gammonlab.evaluators.base.waiting_on_bar`).

What changes in the estimate: the rotated first roll and its 21 strata stand
as they are (1-2 and 2-1 are the same roll here too, and the first roll is
still uniform), but ``bearoff_finish`` is switched off, and the settings say
so: the 1-2 roll changes the bear-off, so the bear-off database's roll
distributions do not apply; the ``bearoff`` policy and evaluator are refused
for the same reason, and so is a policy that can only choose plays itself
(GNU Backgammon's ``best_move`` knows nothing of entering from off the board):
``gnubg`` plays by evaluating every candidate instead. :func:`rollout_plays`
does not take Acey-Deucey positions (a 1-2 play may leave the mover on roll).
Games are much slower than in the other variants: a 1-2 roll can have ten
thousand distinct plays, every one generated and scored.

>>> import numpy as np
>>> start = Position.from_board(np.zeros((2, 26), dtype=np.int8), variant="acey-deucey")
>>> res = rollout(start, trials=36, seed=1, progress=False, n_jobs=1)
>>> res.settings["variant"], res.settings["bearoff_finish"]
('acey-deucey', False)

Reproducibility and parallel runs
---------------------------------
Every die of trial ``t`` is a pure function of ``(seed, t)`` (a counter-based
generator, :mod:`gammonlab._kernels.rng`), and results are summed in trial
order, so the same seed gives the same numbers, bit for bit, with
``n_jobs=1``, any number of local processes, or a Dask cluster. Trial ``t``
also sees the same dice in every candidate of :func:`rollout_plays` and every
position of :func:`rollout_many` (common random numbers), which makes
differences between them far more precise than the separate estimates.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypedDict

import numpy as np

from .._kernels import outcome as _k
from .._kernels.policy import BEAROFF
from .._kernels.rng import ROLLS, seed_key
from ..errors import InvalidPositionError, OptionTypeError, RolloutError
from ..evaluators.base import Policy, equity, get_evaluator
from ..evaluators.bearoff import is_pure_bearoff
from ..evaluators.net import TRAINED_VARIANTS
from ..position import Position, normalise_dice
from ..rules import Rules, Variant
from ..state import GameState
from .result import STATISTICS, RolloutResult, _trial_frame
from .tasks import _Job, _run
from .trials import _Spec

if TYPE_CHECKING:
    import pandas as pd
    from typing_extensions import Unpack

__all__ = [
    "BLOCK",
    "DEFAULT_TRIALS",
    "RolloutOptions",
    "rollout",
    "rollout_many",
    "rollout_plays",
]

DEFAULT_TRIALS = 1296
"""Trials of a rollout by default: 36 blocks of 36."""
BLOCK = ROLLS
"""Trials per block of variance reduction: each ordered roll once."""
_SCORING_METHODS = {
    "standard": "cubeless money points: single 1, gammon 2, backgammon 3 (R8.2)",
    "seed-000": (
        "cubeless money points of seed 000 (R8.4): 1; 2 if the loser has a checker "
        "outside its home board (the bar included); 4 if one on the bar; the five "
        "probabilities are win, win 2+, win 4, lose 2+, lose 4"
    ),
}
_SEED_000_BEAROFF = (
    "games that reach a pure bear-off (both sides home, none on the bar) end with the "
    "bear-off database's two-sided win probability, as single games: no contact is left, "
    "nobody can be hit, so the loser ends with every checker home and none on the bar "
    "(R8.4); a position that is one already is played out"
)
_SEED_000_POLICY = (
    "policies choose their plays as under R8.2 (pubeval and the evaluators "
    "know no other scoring); finished games are counted under R8.4"
)
_VARIANCE_REDUCTION_DICE = "rotated first roll: each ordered roll once per block of 36 trials"
_ACEY_NO_BEAROFF = (
    "off for acey-deucey: the 1-2 roll (R11.2) changes the bear-off too, "
    "so the bear-off database's roll distributions do not apply"
)
_ACEY_METHOD = (
    "checkers enter from off the board (R11.1); on 1-2 the policy picks the best "
    "position over every play of the 1, the 2 and any doubles, and the same side "
    "rolls again when all six moves were played (R11.2); policies and evaluators "
    "see checkers waiting to enter on the bar; a loser with checkers waiting to "
    "enter is backgammoned (R8.2)"
)
_ACEY_METHOD_SEED_000 = _ACEY_METHOD.replace(
    "is backgammoned (R8.2)", "pays 4 points, as one on the bar does (R8.4)"
)
_VARIANCE_REDUCTION_REPLY = (
    "rotated reply: the opponent's first roll, each ordered roll once per block of 36 trials"
)


# -- options -------------------------------------------------------------------------------


class RolloutOptions(TypedDict, total=False):
    """The keyword options that :func:`rollout`, :func:`rollout_many` and
    :func:`rollout_plays` share, with their types; each is described under
    :func:`rollout`, and one left out takes its default there."""

    trials: int
    policy: Any
    seed: Any
    truncate: int | None
    evaluator: Any
    variance_reduction: bool
    bearoff_finish: bool
    target_stderr: float | None
    n_jobs: int | None
    client: Any
    progress: bool
    rules: Rules | None


def _seed(seed: Any) -> int:
    if seed is None:  # fresh entropy from the operating system, recorded in the settings
        return int.from_bytes(
            np.random.SeedSequence().generate_state(2, np.uint64).tobytes(), "little"
        )
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(0, 2**63))
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) and seed >= 0:
        return int(seed)
    raise RolloutError(
        f"seed must be None, a non-negative integer or a numpy Generator, got {seed!r}"
    )


def _root(position: Any, dice: Any) -> tuple[Position, tuple[int, int] | None]:
    if isinstance(position, str):
        position = GameState.from_id(position)
    if isinstance(position, GameState):
        state_dice = position.dice
        position = position.position
        if dice is None:
            dice = state_dice
    elif not isinstance(position, Position):
        position = Position.from_board(position)
    if position.is_game_over:
        raise InvalidPositionError("the game is over: there is nothing to roll out")
    return position, None if dice is None else normalise_dice(dice)


@dataclass(frozen=True)
class _Options:
    trials: int
    policy: Policy
    evaluator: Policy | None
    seed: int
    truncate: int
    rotate: bool
    bearoff_finish: bool
    target: float
    variant: Variant | None = None  # set for variants entering from off the board
    scoring: str = "standard"  # R8.2, or seed 000's R8.4
    rules: Rules | None = None  # as given
    # where the trials are played: not part of the settings, nor of an equality
    n_jobs: int | None = field(default=None, compare=False)
    client: Any = field(default=None, compare=False, repr=False)
    progress: bool = field(default=True, compare=False)

    def run(self, jobs: list[_Job], *, desc: str) -> None:
        """Play the jobs where these options say: here, in processes or on Dask."""
        _run(jobs, n_jobs=self.n_jobs, client=self.client, progress=self.progress, desc=desc)

    @property
    def top(self) -> float:
        """Points of the top class: 3 (R8.2's backgammon) or 4 (R8.4's bar)."""
        return 4.0 if self.scoring == "seed-000" else 3.0

    def settings(
        self, *, dice: tuple[int, int] | None, extra: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        out = {
            "policy": self.policy.name,
            "seed": self.seed,
            "trials": self.trials,
            "truncate": None if self.truncate < 0 else self.truncate,
            "evaluator": None if self.evaluator is None else self.evaluator.name,
            "variance_reduction": self.rotate,
            "bearoff_finish": self.bearoff_finish,
            "target_stderr": self.target or None,
            "scoring": _SCORING_METHODS[self.scoring],
        }
        if self.rules is not None:
            out["rules"] = repr(self.rules)
        if self.rotate:
            out["variance_reduction_method"] = (
                _VARIANCE_REDUCTION_REPLY if dice else _VARIANCE_REDUCTION_DICE
            )
            out["stderr_method"] = (
                "stratified by the rotated roll (21 strata, the "
                "distinct rolls; in a single block doubles are "
                "collapsed in pairs)"
            )
        else:
            out["stderr_method"] = "plain: sample variance / trials"
        if self.bearoff_finish:
            out["bearoff_finish_method"] = (
                "games that reach a pure bear-off (both sides home) end with the bear-off "
                "database's two-sided probabilities; a position that is one already is "
                "played out"
            )
        if self.scoring == "seed-000":
            out["scoring_policy"] = _SEED_000_POLICY
            if self.bearoff_finish:
                out["bearoff_finish_method"] = _SEED_000_BEAROFF
        if self.variant is not None:
            out["variant"] = self.variant.name
            out["bearoff_finish_method"] = _ACEY_NO_BEAROFF
            out["acey_deucey_method"] = (
                _ACEY_METHOD if self.scoring == "standard" else _ACEY_METHOD_SEED_000
            )
        out.update(extra or {})
        return out


def default_policy(variant: Variant | None) -> str:
    """The policy of a rollout that names none: gammonlab's net for the variants it
    is trained for (:data:`~gammonlab.evaluators.net.TRAINED_VARIANTS`), pubeval
    for the others.

    >>> from gammonlab.rules import VARIANTS
    >>> default_policy(VARIANTS["nackgammon"]), default_policy(VARIANTS["hypergammon-2"])
    ('net', 'pubeval')
    """
    if variant is None or variant.name in TRAINED_VARIANTS:
        return "net"
    return "pubeval"


def _options(
    caller: str,
    options: RolloutOptions,
    *,
    dice: tuple[int, int] | None,
    variant: Variant | None,
) -> _Options:
    """The options of a call of ``caller``, checked; those left out take the defaults
    that :func:`rollout` documents."""
    unknown = [name for name in options if name not in RolloutOptions.__annotations__]
    if unknown:
        raise OptionTypeError(
            f"{caller}() got an unexpected keyword argument {unknown[0]!r} (the rollout "
            f"options: {', '.join(RolloutOptions.__annotations__)})",
            option=unknown[0],
        )
    rules = options.get("rules")
    scoring = _scoring(rules, variant)
    truncate = options.get("truncate")
    if scoring == "seed-000" and truncate is not None:
        raise RolloutError(
            "truncate cannot be used with seed 000's scoring (R8.4): evaluators estimate "
            "R8.2's gammons and backgammons (none borne off; on the bar or in the winner's "
            "home), not R8.4's classes (outside the loser's home; on the bar); play the "
            "games out (truncate=None)"
        )
    trials = options.get("trials", DEFAULT_TRIALS)
    if not isinstance(trials, (int, np.integer)) or isinstance(trials, bool) or trials < 1:
        raise RolloutError(f"trials must be a positive integer, got {trials!r}")
    trials = int(trials)
    rotate = bool(options.get("variance_reduction", True))
    if rotate:
        trials = -(-trials // BLOCK) * BLOCK  # whole blocks of 36
    policy = options.get("policy")
    chosen_policy = get_evaluator(default_policy(variant) if policy is None else policy)
    evaluator = options.get("evaluator")
    chosen_evaluator = None if evaluator is None else get_evaluator(evaluator)
    if truncate is None:
        depth = -1
    else:
        if (
            not isinstance(truncate, (int, np.integer))
            or isinstance(truncate, bool)
            or truncate < 0
        ):
            raise RolloutError(f"truncate must be a number of plies >= 0, got {truncate!r}")
        depth = int(truncate)
        if dice is not None and depth == 0:
            raise RolloutError(
                "truncate=0 with dice already rolled would ignore the dice; use truncate >= 1"
            )
        if chosen_evaluator is None:
            if not chosen_policy.evaluates:
                raise RolloutError(
                    f"truncate needs an evaluator to score the position where games stop; "
                    f"{chosen_policy.name!r} gives no probabilities: pass evaluator="
                    f"'bearoff', 'gnubg' or a callable"
                )
            chosen_evaluator = chosen_policy
    if chosen_evaluator is not None and not chosen_evaluator.evaluates:
        raise RolloutError(
            f"{chosen_evaluator.name!r} gives no probabilities and cannot be the evaluator"
        )
    target = 0.0
    target_stderr = options.get("target_stderr")
    if target_stderr is not None:
        target = float(target_stderr)
        if not target > 0:
            raise RolloutError(f"target_stderr must be positive, got {target_stderr!r}")
    if (
        not chosen_policy.evaluates
        and chosen_policy.kernel is None
        and type(chosen_policy).choose is Policy.choose
    ):
        raise RolloutError(f"policy {chosen_policy.name!r} can neither evaluate nor choose plays")
    bearoff_finish = options.get("bearoff_finish", True)
    acey = variant is not None and variant.enter_from_off
    if acey:
        _check_acey(chosen_policy, chosen_evaluator)
        bearoff_finish = False  # R11.2: the database's dice are not Acey-Deucey's
    return _Options(
        trials,
        chosen_policy,
        chosen_evaluator,
        _seed(options.get("seed")),
        depth,
        rotate,
        bool(bearoff_finish),
        target,
        variant if acey else None,
        scoring,
        rules,
        options.get("n_jobs"),
        options.get("client"),
        options.get("progress", True),
    )


def _scoring(rules: Any, variant: Variant | None) -> str:
    """The scoring of ``rules`` (R8.2 without rules), once its variant is checked."""
    if rules is None:
        return "standard"
    if not isinstance(rules, Rules):
        raise RolloutError(
            f"rules must be a gammonlab.Rules, got {type(rules).__name__}: {rules!r}"
        )
    if variant is not None and rules.variant != variant:
        raise RolloutError(
            f"the rules are for {rules.variant.name!r} but the position is "
            f"{variant.name!r}: pass Rules(variant={variant.name!r}, ...)"
        )
    return rules.scoring


def _check_acey(policy: Policy, evaluator: Policy | None) -> None:
    """Refuse what cannot play or score Acey-Deucey (R11) honestly."""
    for role, chosen in (("policy", policy), ("evaluator", evaluator)):
        if chosen is not None and chosen.kernel == BEAROFF:
            raise RolloutError(
                f"the bear-off database cannot be the {role} of an acey-deucey rollout: "
                "its roll distributions ignore the 1-2 roll (R11.2); use 'pubeval', "
                "'random', 'gnubg' or a callable"
            )
    if policy.kernel is None and not policy.evaluates:
        raise RolloutError(
            f"policy {policy.name!r} only chooses plays itself, which it cannot do in "
            "acey-deucey (entering from off the board, the 1-2 roll: R11); acey-deucey "
            "rollouts need a built-in policy ('pubeval', 'random') or an evaluator"
        )


def _spec(
    opts: _Options,
    roots: np.ndarray,
    *,
    before: Position,
    start_ply: int,
    dice: tuple[int, int] | None,
) -> _Spec:
    # A position that is already a pure bear-off is played out: finishing it with
    # the database at once would return the database's estimate, not a rollout.
    finish = opts.bearoff_finish and not is_pure_bearoff(before.board)
    # a writable copy: read-only boards would make numba compile the kernels again
    return _Spec(
        roots=np.array(roots, dtype=np.int8, order="C"),
        start_ply=start_ply,
        dice=dice,
        policy=opts.policy,
        evaluator=opts.evaluator,
        key=int(seed_key(opts.seed)),
        rotate=opts.rotate,
        truncate=opts.truncate,
        bearoff_finish=finish,
        enter_from_off=before.variant.enter_from_off,
        checkers=before.variant.checkers,
        scoring=_k.SCORING_CODES[opts.scoring],
    )


def _result(
    job: _Job, position: Position, dice: tuple[int, int] | None, opts: _Options, keep_trials: bool
) -> RolloutResult:
    sums = job.sums
    means = sums.means()[0]
    strat, plain = sums.stderr()
    strat, plain = strat[0], plain[0]
    stderr = MappingProxyType({name: float(strat[j]) for j, name in enumerate(STATISTICS)})
    if opts.rotate and sums.trials >= 2 * BLOCK:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = float(np.float64(plain[5]) ** 2 / np.float64(strat[5]) ** 2)
    else:
        ratio = math.nan
    frame = _trial_frame(job, opts.scoring) if keep_trials else None
    covariance = sums.covariance(0)
    covariance.flags.writeable = False
    return RolloutResult(
        position=position,
        dice=dice,
        win=float(means[0]),
        win_gammon=float(means[1]),
        win_backgammon=float(means[2]),
        lose_gammon=float(means[3]),
        lose_backgammon=float(means[4]),
        equity=float(means[5]),
        stderr=stderr,
        trials=sums.trials,
        variance_ratio=ratio,
        covariance=covariance,
        settings=MappingProxyType(opts.settings(dice=dice, extra={"trials": opts.trials})),
        scoring=opts.scoring,
        _trial_frame=frame,
    )


# -- public functions ----------------------------------------------------------------------


def rollout(
    position: Position | GameState | str,
    dice: tuple[int, int] | None = None,
    *,
    keep_trials: bool = False,
    **options: Unpack[RolloutOptions],
) -> RolloutResult:
    """Roll out a position: play it to the end many times and average the results.

    Parameters
    ----------
    position : Position, GameState or str
        The position, seen from the side on roll; a GameState or an ID
        (Position ID, ``PositionID:MatchID``, XGID) may carry dice already
        rolled, in which case the policy plays them first. Cube and score are
        ignored (cubeless money play).
    dice : tuple of int, optional
        Dice already rolled (overrides the state's); positional or keyword,
        as in :func:`rollout_plays`.
    keep_trials : bool
        Keep one row per trial (:meth:`RolloutResult.to_frame`).

    Other Parameters
    ----------------
    trials : int
        Number of games (rounded up to whole blocks of 36 with variance reduction).
    policy : str, Policy or callable, optional
        Who plays both sides: ``'net'`` (gammonlab's neural evaluator, the
        default for standard backgammon and Nackgammon; :func:`default_policy`),
        ``'pubeval'`` (the default for the other variants), ``'random'``,
        ``'bearoff'``, ``'gnubg'`` or an evaluator (see
        :func:`~gammonlab.evaluators.base.get_evaluator`).
    seed : int or numpy.random.Generator, optional
        Same seed, same numbers, for any ``n_jobs`` and with Dask. ``None``
        draws one; it is recorded in ``settings['seed']``.
    truncate : int, optional
        Stop each game after this many plays and score it with ``evaluator``.
    evaluator : str, Policy or callable, optional
        Scores truncated games; by default the policy, if it is an evaluator.
    variance_reduction : bool
        Rotate the first unknown roll over blocks of 36 trials (module docs).
    bearoff_finish : bool
        End games that reach a pure bear-off (every checker of both sides home)
        with the bear-off database's two-sided probabilities instead of playing
        them out: less variance and time, a small bias (each side's one-sided
        play). A position that is a pure bear-off already is played out.
    target_stderr : float, optional
        Stop after the first whole block at which the equity's standard error
        is at most this (from the second block on); ``trials`` is the maximum.
    n_jobs : int, optional
        Local processes (forked on Linux, spawned elsewhere). ``None``: all
        cores when there is more than one chunk of trials, except with a Python
        callable as policy or evaluator, which runs in this process unless
        ``n_jobs`` asks otherwise (a function defined in a notebook after the
        processes started does not exist in them).
    client : dask.distributed.Client, optional
        Run the chunks on this Dask cluster (``pip install -e ".[dask]"``).
        Built-in policies release the GIL, so threaded workers run in parallel
        too; ``gnubg-nn`` is not thread-safe: give it one thread per worker.
    progress : bool
        Show a progress bar (tqdm).
    rules : Rules, optional
        The rules whose scoring counts the games: ``None`` is R8.2 (single 1,
        gammon 2, backgammon 3). ``Rules(scoring="seed-000")`` counts them as
        seed 000 does (R8.4: 1; 2 if the loser has a checker outside its home
        board; 4 if one on the bar), and the result's five probabilities are
        then P(win), P(win 2+), P(win 4), P(lose 2+), P(lose 4)
        (:attr:`RolloutResult.scoring`). ``rules.variant`` must be the
        position's variant. The cube options (the Jacoby rule R10.1 among
        them) only matter with a cube and are ignored: a rollout is cubeless.
        Policies play as they do under R8.2; under R8.4 ``truncate`` is refused
        (evaluators estimate R8.2's classes) and the bear-off finish counts
        every game it ends as single (module docs).

    Returns
    -------
    RolloutResult

    >>> from gammonlab import Position, Rules
    >>> res = rollout(Position.initial(), trials=144, seed=3, progress=False, n_jobs=1)
    >>> res.trials, res.settings["policy"], 0 < res.win < 1
    (144, 'net', True)
    >>> r4 = rollout(Position.initial(), trials=144, seed=3, progress=False, n_jobs=1,
    ...              rules=Rules(scoring="seed-000"))
    >>> r4.scoring, r4.win == res.win, r4.win_backgammon <= r4.win_gammon <= r4.win
    ('seed-000', True, True)
    """
    root, dice = _root(position, dice)
    opts = _options("rollout", options, dice=dice, variant=root.variant)
    spec = _spec(opts, root.board[np.newaxis], before=root, start_ply=0, dice=dice)
    job = _Job(spec, opts.trials, opts.target, keep_trials)
    opts.run([job], desc="rollout")
    return _result(job, root, dice, opts, keep_trials)


def rollout_many(
    positions: Iterable[Position | GameState | str], **options: Unpack[RolloutOptions]
) -> pd.DataFrame:
    """Roll out many positions together; one row per position.

    Options as in :func:`rollout` (``rules``: every position must be of its
    variant). Every position uses the same seed, so row ``i`` equals
    ``rollout(positions[i], seed=seed, ...)`` and the positions share their
    dice trial by trial (common random numbers). The chunks of all positions
    are spread over the processes or the Dask cluster together.

    Returns
    -------
    pandas.DataFrame
        ``position_id``, ``dice``, the five probabilities, ``equity``, their
        ``stderr_*``, ``trials``, ``variance_ratio``, ``scoring`` and
        ``result`` (the :class:`RolloutResult`).

    >>> from gammonlab import Position
    >>> df = rollout_many([Position.initial()] * 2, trials=36, seed=1, progress=False,
    ...                   n_jobs=1)
    >>> len(df), bool(df.equity.iloc[0] == df.equity.iloc[1])
    (2, True)
    """
    import pandas as pd

    roots = [_root(p, None) for p in positions]
    options["seed"] = _seed(options.get("seed"))  # once: every position gets the same
    by_variant: dict[str, _Options] = {}
    for pos, _ in roots:  # the variant matters to Acey-Deucey's options only
        if pos.variant.name not in by_variant:
            by_variant[pos.variant.name] = _options(
                "rollout_many", options, dice=None, variant=pos.variant
            )
    chosen = [by_variant[pos.variant.name] for pos, _ in roots]
    jobs = [
        _Job(
            _spec(opts, pos.board[np.newaxis], before=pos, start_ply=0, dice=dice),
            opts.trials,
            opts.target,
            False,
        )
        for opts, (pos, dice) in zip(chosen, roots)
    ]
    if chosen:
        chosen[0].run(jobs, desc="rollouts")
    results = [
        _result(job, pos, dice, opts, False) for job, opts, (pos, dice) in zip(jobs, chosen, roots)
    ]
    rows = []
    for res in results:
        row = res.to_series().to_dict()
        row["position_id"] = res.position.gnubg_id if not any(res.position.waiting) else None
        row["dice"] = None if res.dice is None else f"{res.dice[0]}-{res.dice[1]}"
        row["scoring"] = res.scoring
        row["result"] = res
        rows.append(row)
    columns = [
        "position_id",
        "dice",
        *STATISTICS,
        *(f"stderr_{s}" for s in STATISTICS),
        "trials",
        "variance_ratio",
        "scoring",
        "result",
    ]
    frame = pd.DataFrame(rows, columns=columns)
    frame["trials"] = frame["trials"].astype(np.int64)
    return frame


def rollout_plays(
    position: Position | GameState | str,
    dice: tuple[int, int] | None = None,
    *,
    top: int = 5,
    **options: Unpack[RolloutOptions],
) -> pd.DataFrame:
    """Roll out the best candidate plays for a roll, with common random numbers.

    The legal plays are ranked by the policy (pubeval's score for
    ``'pubeval'`` and ``'random'``, the 0-ply equity for evaluators, the
    database for ``'bearoff'`` in bear-offs) and the ``top`` best are rolled
    out from the position after the play, every candidate seeing the same
    dice in trial ``t``. Differences to the best are therefore paired: their
    standard errors come from the per-trial differences (stratified like the
    equities) and are usually much smaller than the equities' own.
    ``truncate`` counts the candidate play as the first ply (0 and 1 both score
    the position right after it).

    Parameters
    ----------
    position : Position, GameState or str
    dice : tuple of int, optional
        The roll to play; taken from a GameState or ID when not given.
    top : int
        How many candidates to roll out (all of them if fewer).
    **options : RolloutOptions
        ``trials``, ``policy``, ``seed``, ``truncate``, ``evaluator``,
        ``variance_reduction``, ``bearoff_finish``, ``target_stderr``, ``n_jobs``,
        ``client``, ``progress``, ``rules``: as in :func:`rollout` (the target
        applies to every candidate's equity; under ``rules`` with seed 000's
        scoring the probabilities and equities are R8.4's, and
        ``frame.attrs["settings"]["scoring"]`` says so).

    Returns
    -------
    pandas.DataFrame
        One row per candidate, best first: ``play`` (notation), the five
        probabilities, ``equity``, ``stderr`` (of the equity), ``difference``
        (equity minus the best's), ``difference_stderr``, ``trials``.

    >>> from gammonlab import Position
    >>> df = rollout_plays(Position.initial(), (3, 1), top=2, trials=72, seed=1,
    ...                    progress=False, n_jobs=1)
    >>> list(df.columns[:2]), len(df)
    (['play', 'win'], 2)
    """
    import pandas as pd

    root, dice = _root(position, dice)
    if root.variant.enter_from_off:
        raise RolloutError(
            f"rollout_plays does not handle {root.variant.name} (a 1-2 play may keep the "
            "mover on roll, R11.2): roll out the positions after the plays with rollout()"
        )
    if dice is None:
        raise RolloutError("rollout_plays needs the dice to play: pass dice=(d1, d2)")
    if not isinstance(top, (int, np.integer)) or top < 1:
        raise RolloutError(f"top must be a positive integer, got {top!r}")
    opts = _options("rollout_plays", options, dice=None, variant=root.variant)
    plays = root.legal_plays(dice)
    columns = ["play", *STATISTICS, "stderr", "difference", "difference_stderr", "trials"]
    if len(plays) == 0:
        return pd.DataFrame(columns=columns)
    boards = plays.boards
    order = _rank(opts.policy, root.board, boards)[: int(top)]
    finished = _k.terminal_values(
        np.ascontiguousarray(boards[order]), _k.SCORING_CODES[opts.scoring]
    )
    going = [i for i, points in zip(order, finished) if points == 0]
    rows: dict[int, dict[str, Any]] = {}
    for i, end in zip(order, finished):
        if end:
            # the play bears off the last checker: the result is known (R8.2 or R8.4)
            p = [1.0, float(end >= _k.END_GAMMON), float(end >= _k.END_BACKGAMMON), 0.0, 0.0]
            points = float(equity(p, opts.scoring))
            rows[i] = dict(zip(STATISTICS, [*p, points]), stderr=0.0, trials=0)
    job = None
    if going:
        roots = np.ascontiguousarray(boards[going][:, ::-1])  # the opponent on roll
        spec = _spec(opts, roots, before=root, start_ply=1, dice=None)
        if opts.truncate == 0:
            # plies count from the position before the candidate play, which is ply 1
            spec = _Spec(**{**spec.__dict__, "truncate": 1})
        job = _Job(spec, opts.trials, opts.target, False)
        opts.run([job], desc="rollout plays")
        means = job.sums.means()
        strat, _ = job.sums.stderr()
        for r, i in enumerate(going):
            rows[i] = dict(
                zip(STATISTICS, means[r].tolist()),
                stderr=float(strat[r, 5]),
                trials=job.sums.trials,
            )
    ranked = sorted(order, key=lambda i: -rows[i]["equity"])
    best = ranked[0]
    if job is not None and best in going:
        diff_se = job.sums.difference_stderr(going.index(best))
        paired = {i: float(diff_se[r]) for r, i in enumerate(going)}
    else:
        paired = {}
    out = []
    for i in ranked:
        row = rows[i]
        if i == best:
            se = 0.0
        elif i in paired:
            se = paired[i]
        else:  # one of the two is a finished game, known exactly
            se = math.hypot(row["stderr"], rows[best]["stderr"])
        out.append(
            {
                "play": plays[int(i)].notation,
                **{s: row[s] for s in STATISTICS},
                "stderr": row["stderr"],
                "difference": row["equity"] - rows[best]["equity"],
                "difference_stderr": se,
                "trials": row["trials"],
            }
        )
    frame = pd.DataFrame(out, columns=columns)
    frame.attrs["settings"] = opts.settings(dice=dice, extra={"top": int(top)})
    frame.attrs["scoring"] = opts.scoring
    return frame


def _rank(policy: Policy, board: np.ndarray, candidates: np.ndarray) -> list[int]:
    """Candidate indices, best first by the policy's own scores (stable on ties)."""
    scores = np.asarray(policy.scores(board, candidates), dtype=np.float64)
    return [int(i) for i in np.argsort(-scores, kind="stable")]
