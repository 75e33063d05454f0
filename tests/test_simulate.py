"""Simulated matches (gammonlab.match.simulate) and the rule options of the replay's state
machine: the opening (R3.1, R3.3), Holland (R10.3), automatic doubles (R10.4, R10.5),
beavers and raccoons (R10.6), the cube limit (R9.6)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

import gammonlab as gl
from gammonlab.evaluators.base import Evaluator, Policy
from gammonlab.io.mat import parse_mat
from gammonlab.match import replay_match
from gammonlab.match.simulate import play_match
from gammonlab.rules import BAR, HIGHEST_CUBE, HOME_POINTS, OFF

SIMULATED_GAMES = 1000
"""Games simulated per variant and per option set in the long run (marked slow)."""
FEW_GAMES = 200
"""Games simulated per variant and per option set by default."""
GAME_COUNTS = [FEW_GAMES, pytest.param(SIMULATED_GAMES, marks=pytest.mark.slow)]

MATCH_ENDINGS = {"single", "gammon", "backgammon", "outside", "bar"}


class PipCountPlayer(Evaluator):
    """Plays like pubeval; its probabilities, for the cube, come from the pip count
    alone: fast, and good enough to turn the cube.

    ``optimism`` adds to the side on roll's winning chances: an optimist doubles
    too soon, so a realist beavers (R10.6)."""

    def __init__(self, optimism: float = 0.0) -> None:
        self.optimism = optimism
        self.name = f"pips{optimism:+.2f}"

    def evaluate_positions(self, boards: np.ndarray) -> np.ndarray:
        pips = (boards * np.arange(26)).sum(axis=2).astype(np.float64)
        mine, theirs = pips[:, 0], pips[:, 1]
        lead = theirs - mine + 4.0  # being on roll is worth about 4 pips
        win = 1.0 / (1.0 + np.exp(-lead / (2.0 + 0.1 * (mine + theirs) / 2)))
        win = np.clip(win + self.optimism, 0.0, 1.0)
        out = np.empty((len(boards), 5))
        out[:, 0] = win
        out[:, 1] = 0.12 * win
        out[:, 2] = 0.005 * win
        out[:, 3] = 0.12 * (1 - win)
        out[:, 4] = 0.005 * (1 - win)
        return out

    def scores(self, board: np.ndarray, candidates: np.ndarray) -> np.ndarray:
        return Policy.scores(self, board, candidates)  # pubeval's choice of play


race_evaluator = PipCountPlayer()
optimist = PipCountPlayer(optimism=0.2)


def play_games(
    rules: gl.Rules, players=("pubeval", "pubeval"), seed: int = 0, count: int = SIMULATED_GAMES
) -> list[gl.Match]:
    """Money sessions of ``count`` games, or as many matches as make ``count`` games."""
    if rules.money:
        return [play_match(players, rules=rules, seed=seed, games=count)]
    matches, played = [], 0
    while played < count:
        match = play_match(players, rules=rules, seed=seed + len(matches))
        matches.append(match)
        played += len(match.games)
    return matches


def automatic_doubles(game: gl.Game) -> int:
    """R10.4, counted from the rolls: a roll repeating the opponent's last numbers."""
    count, last = 0, None
    for action in game.actions:
        if action.kind == "move":
            roll = tuple(sorted(action.dice))
            if last is not None and last[0] != action.player and last[1] == roll:
                count += 1
            last = (action.player, roll)
    return count


def expected_cube(game: gl.Game, rules: gl.Rules) -> int:
    """The cube at the end, followed action by action from the cube the game
    started with: takes, beavers and raccoons (R9.4, R10.6) and seed 000's
    automatic doubles (R10.4, none in the Crawford game, capped by the limits)."""
    cube, offered, automatic, last = game.start_cube, None, 0, None
    highest = min(rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
    for action in game.actions:
        if action.kind == "move" and rules.auto_doubles == "seed-000":
            roll = tuple(sorted(action.dice))
            repeated = last is not None and last[0] != action.player and last[1] == roll
            last = (action.player, roll)
            if (
                repeated
                and not game.crawford
                and 2 * cube <= highest
                and not (rules.auto_double_limit and automatic >= rules.auto_double_limit)
            ):
                cube, automatic = 2 * cube, automatic + 1
        elif action.kind == "double":
            offered = action.cube
        elif action.kind in ("beaver", "raccoon"):
            cube, offered = offered, action.cube
        elif action.kind == "take":
            cube = offered
    return cube


def game_worth(board: np.ndarray, checkers: int, scoring: str) -> tuple[str, int]:
    """How a finished game ended and its points before the cube, read from the final
    board (R8.2, or seed 000's R8.4), apart from the state machine."""
    winner = 0 if board[0, OFF] == checkers else 1
    assert board[1 - winner, OFF] < checkers
    loser = board[1 - winner]
    if scoring == "seed-000":
        if loser[BAR]:
            return "bar", 4
        outside = sum(int(loser[p]) for p in range(HOME_POINTS + 1, BAR))
        return ("outside", 2) if outside else ("single", 1)
    if loser[OFF]:
        return "single", 1
    in_winners_home = sum(int(loser[p]) for p in range(19, 25))
    return ("backgammon", 3) if loser[BAR] or in_winners_home else ("gammon", 2)


def check_game(match: gl.Match, game: gl.Game) -> None:
    """Checkers, cube and points of a finished simulated game are consistent."""
    rules = match.rules
    n = rules.variant.checkers
    assert game.complete, f"game {game.number} unfinished"
    board = game.final_state.position.board
    assert board.min() >= 0 and board[0].sum() == n and board[1].sum() == n
    kinds = [a.kind for a in game.actions]
    assert kinds[-1] == "win" and kinds.count("win") == 1
    assert kinds[0] == "move"
    first = game.actions[0]
    if rules.opening == "standard":
        assert first.dice[0] != first.dice[1]  # R3.1
    turned = kinds.count("take") + kinds.count("beaver") + kinds.count("raccoon")
    assert kinds.count("raccoon") <= kinds.count("beaver")
    if not (rules.money and rules.beavers):
        assert "beaver" not in kinds  # R10.6
    if not rules.raccoons:
        assert "raccoon" not in kinds
    start = game.start_cube
    if rules.auto_doubles == "gnubg":
        # R10.5: a power of two within the limits
        assert start & (start - 1) == 0
        if rules.auto_double_limit:
            assert start <= 2**rules.auto_double_limit
    else:
        assert start == 1
    assert game.cube_value == expected_cube(game, rules)
    if rules.auto_doubles != "seed-000":
        assert game.cube_value == start * 2**turned
    if game.crawford:
        assert "double" not in kinds  # R10.2
    if rules.cube_limit is not None:
        assert game.cube_value <= rules.cube_limit  # R9.6
    last_move = [a for a in game.actions if a.kind == "move"][-1]
    if game.ending == "drop":
        assert kinds[-2] == "drop" and game.actions[-2].player != game.winner
        # R9.4: the passer loses the stake before the double
        assert game.points == game.cube_value
        return
    assert game.ending in MATCH_ENDINGS
    assert last_move.player == game.winner
    kind, points = game_worth(board, n, rules.scoring)
    assert game.ending == kind
    if rules.money and rules.jacoby and turned == 0:
        points = 1  # R10.1: gammons count single until the cube is turned
    assert game.points == points * game.cube_value


def check_match(match: gl.Match) -> None:
    """Every game valid; the score adds up; a match ends when, and only when, it is won."""
    rules = match.rules
    score = [0, 0]
    for game in match.games:
        assert tuple(score) == game.score
        if not rules.money:
            assert max(score) < rules.match_length
        check_game(match, game)
        score[game.winner] += game.points
    assert tuple(score) == match.score
    if not rules.money:
        assert match.winner is not None and max(score) >= rules.match_length
        assert match.games[-1].actions[-1].match_won
        reached = [
            g.number
            for g in match.games
            if max(g.score) == rules.match_length - 1 and rules.crawford
        ]
        crawford = [g.number for g in match.games if g.crawford]
        assert crawford == reached[:1]  # R10.2: the first game at match point only


def check_round_trip(match: gl.Match, tmp_path, games: int = 40) -> None:
    """``.mat`` and ``.sgf`` written and read back: the same rules, the same frames
    (a long money session: its first ``games`` games)."""
    match = replace(match, games=match.games[:games])
    for suffix in (".mat", ".sgf"):
        path = tmp_path / f"match{suffix}"
        gl.write_match(match, path)
        back = gl.read_match(path)
        assert back.rules == match.rules, suffix
        pd.testing.assert_frame_equal(gl.actions_frame(back), gl.actions_frame(match))
        pd.testing.assert_frame_equal(gl.games_frame(back), gl.games_frame(match))
        assert [g.start_cube for g in back.games] == [g.start_cube for g in match.games]


VARIANTS = [
    "standard",
    "nackgammon",
    "nackgammon-004",
    "hypergammon-1",
    "hypergammon-2",
    "hypergammon-3",
]


@pytest.mark.parametrize("count", GAME_COUNTS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_simulated_variant_games_end_in_valid_results(variant, count, tmp_path):
    rules = gl.Rules(variant=variant, match_length=7)
    matches = play_games(rules, ("pubeval", race_evaluator), seed=11, count=count)
    assert sum(len(m.games) for m in matches) >= count
    start = gl.Position.initial(variant).board
    for match in matches:
        check_match(match)
        for game in match.games:
            assert (game.actions[0].state.position.board == start).all()
    check_round_trip(matches[0], tmp_path)
    assert "Variation" in gl.write_match(matches[0]) or variant == "standard"


OPTION_SETS = {
    # money: GNU Backgammon's defaults (Jacoby, beavers) with raccoons; an optimist
    # doubles too soon, a realist beavers, the optimist raccoons. The cube limit keeps
    # the stakes of this escalation (x8 a turn) within what a Match ID can count.
    "jacoby-beavers-raccoons": (
        gl.Rules.gnubg_default(cube_limit=64),
        (PipCountPlayer(optimism=0.15), race_evaluator),
    ),
    "crawford-match": (gl.Rules(match_length=7, crawford=True), ("pubeval", race_evaluator)),
    "holland": (gl.Rules(match_length=5, holland=True), (race_evaluator, optimist)),
    "seed-000": (gl.Rules.seed_000(), ("pubeval", race_evaluator)),
    # R10.5 with Jacoby: players that never double, so every gammon counts single
    "gnubg-auto-doubles": (
        gl.Rules(auto_doubles="gnubg", auto_double_limit=2, jacoby=True),
        ("pubeval", "pubeval"),
    ),
    "cube-limit": (gl.Rules(beavers=True, cube_limit=4), (optimist, race_evaluator)),
    "reroll-opening": (gl.Rules(match_length=5, opening="reroll"), ("pubeval", race_evaluator)),
}


@pytest.mark.parametrize("count", GAME_COUNTS)
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_simulated_option_sets_end_in_valid_results(name, count, tmp_path):
    rules, players = OPTION_SETS[name]
    matches = play_games(rules, players, seed=5, count=count)
    games = [g for m in matches for g in m.games]
    assert len(games) >= count
    # the tolerances of the frequencies below are for 1000 games; fewer games, wider
    wider = math.sqrt(SIMULATED_GAMES / count)
    for match in matches:
        check_match(match)
    check_round_trip(matches[0], tmp_path)
    frame = pd.concat([gl.actions_frame(m) for m in matches])
    actions = set(frame.action.astype(str))
    if name in ("jacoby-beavers-raccoons", "crawford-match", "holland", "cube-limit"):
        assert {"double", "take"} <= actions
    if name == "jacoby-beavers-raccoons":
        assert {"beaver", "raccoon"} <= actions
        # R10.1: gammons count double only once the cube was turned
        gammons = [g for g in games if g.ending in ("gammon", "backgammon")]
        assert gammons and all(g.points >= 2 * g.cube_value for g in gammons)
    if name == "seed-000":
        assert sum(automatic_doubles(g) for g in games) > 0
        assert {g.ending for g in games} <= {"single", "outside", "bar", "drop"}
    if name == "gnubg-auto-doubles":
        # R10.5: a tie (1 in 6) turns the cube, two ties (1 in 36) twice; the limit is 2
        starts = np.array([g.start_cube for g in games])
        assert set(starts.tolist()) <= {1, 2, 4}
        assert abs((starts >= 2).mean() - 1 / 6) < 0.04 * wider
        assert abs((starts == 4).mean() - 1 / 36) < 0.02 * wider
        gammons = [g for g in games if g.ending in ("gammon", "backgammon")]
        assert gammons and all(g.points == g.start_cube for g in gammons)  # R10.1
    if name == "cube-limit":
        assert max(g.cube_value for g in games) == 4
    if name == "reroll-opening":
        doublets = np.mean([g.actions[0].dice[0] == g.actions[0].dice[1] for g in games])
        assert abs(doublets - 1 / 6) < 0.04 * wider  # R3.3: both dice afresh
    if name == "holland":
        post_crawford = [
            g
            for g in games
            if not g.crawford
            and max(g.score) == rules.match_length - 1
            and min(g.score) < rules.match_length - 1
        ]
        assert post_crawford
        for game in post_crawford:
            trailer = int(np.argmin(game.score))
            rolls = [0, 0]
            for action in game.actions:
                if action.kind == "move":
                    rolls[action.player] += 1
                elif action.kind == "double" and action.player == trailer:
                    assert min(rolls) >= 2  # R10.3


def test_same_seed_same_match():
    rules = gl.Rules(match_length=5)
    first = play_match(("pubeval", race_evaluator), rules=rules, seed=42)
    again = play_match(("pubeval", race_evaluator), rules=rules, seed=42)
    pd.testing.assert_frame_equal(first.to_frame(), again.to_frame())
    other = play_match(("pubeval", race_evaluator), rules=rules, seed=43)
    assert not first.to_frame().equals(other.to_frame())


def test_policies_without_probabilities_never_double():
    match = play_match(("pubeval", "random"), rules=gl.Rules(), games=20, seed=1)
    assert "double" not in set(match.to_frame().action.astype(str))


def test_rules_is_a_keyword_and_the_old_positional_call_warns():
    rules = gl.Rules(match_length=1)
    new = play_match(("pubeval", "random"), rules=rules, seed=4)
    with pytest.warns(DeprecationWarning, match=r"play_match\(players, rules=rules\)"):
        old = play_match(rules, ("pubeval", "random"), seed=4)
    assert old.score == new.score and old.to_frame().equals(new.to_frame())
    with pytest.raises(TypeError):
        play_match(("pubeval", "random"), rules)


def test_unsupported_requests_are_refused():
    with pytest.raises(gl.GammonlabError, match=r"R10\.5"):
        gl.Rules(match_length=3, auto_doubles="gnubg")
    with pytest.raises(gl.GammonlabError, match="games="):
        play_match(rules=gl.Rules())


# -- the state machine's rule options, on small transcripts ------------------------------------


def transcript(rows: str, score=(0, 0), length=3) -> str:
    return (
        f" {length} point match\n\n Game 1\n Anna : {score[0]}                 "
        f"Bob : {score[1]}\n" + rows
    )


def test_r3_1_opening_doublet_is_refused_unless_reroll():
    text = transcript("  1) 33: 8/5(2) 6/3(2)               \n")
    with pytest.raises(gl.ParseError, match=r"R3\.1"):
        replay_match(parse_mat(text), rules=gl.Rules(match_length=3))
    match = replay_match(parse_mat(text), rules=gl.Rules(match_length=3, opening="reroll"))
    assert match.actions[0].play.notation == "8/5(2) 6/3(2)"


CRAWFORD_GAME = (
    " 3 point match\n\n Game 1\n Anna : 2                 Bob : 0\n"
    "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
    "  2) 64: ????\n"
    "                                      Wins 1 point\n\n"
    " Game 2\n Anna : 2                 Bob : 1\n"
)


def test_r10_3_holland_trailer_waits_for_two_rolls_each():
    """3-point match: game 1 at 2-0 is the Crawford game; game 2 at 2-1 is
    post-Crawford, and Bob (the trailer) doubles.

    ::

        1) 31: 8/5 6/5            62: 24/18 13/11
        2) 64: 24/14*             Doubles => 2     <- Bob has played one roll: refused
        ...
        2) 64: 24/14*             43: bar/21 13/10
        3) 21: 13/11 6/5          Doubles => 2     <- both have played two: allowed
    """
    holland = gl.Rules(match_length=3, holland=True)
    early = CRAWFORD_GAME + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) 64: 24/14*                      Doubles => 2\n"
    )
    with pytest.raises(gl.ParseError, match=r"Holland rule, R10\.3"):
        replay_match(parse_mat(early), rules=holland)
    assert replay_match(parse_mat(early), rules=gl.Rules(match_length=3)).games[1]
    later = CRAWFORD_GAME + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) 64: 24/14*                      43: bar/21 13/10\n"
        "  3) 21: 13/11 6/5                   Doubles => 2\n"
        "  4)  Takes\n"
    )
    game = replay_match(parse_mat(later), rules=holland).games[1]
    assert game.cube_value == 2 and not game.crawford and game.score == (2, 1)
    # the leader is not bound by it
    leader = CRAWFORD_GAME + (
        "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
        "  2) Doubles => 2                     Takes\n"
    )
    assert replay_match(parse_mat(leader), rules=holland).games[1].cube_value == 2


def test_r10_4_seed_000_automatic_doubles():
    """A roll repeating the opponent's last numbers doubles the stake; the cube stays
    centred, so either side may still double.

    ::

        1) 31: 8/5 6/5            13: 24/23 13/10     <- cube 2, centred
        2) 62: 24/18 13/11        Doubles => 4
        3)  Takes                 26: 24/18 13/11     <- 6-2 again: cube 4 to 8
    """
    rules = gl.Rules(match_length=5, auto_doubles="seed-000")
    text = transcript(
        "  1) 31: 8/5 6/5                     13: 24/23 13/10\n"
        "  2) 62: 24/18 13/11                 Doubles => 4\n"
        "  3)  Takes                          26: 24/18 13/11\n",
        length=5,
    )
    match = replay_match(parse_mat(text), rules=rules)
    frame = match.to_frame()
    # move, move (3-1 again), move, double, take (the doubler's position), move (6-2 again)
    assert frame.cube_value.tolist() == [1, 2, 2, 2, 2, 8]
    assert frame.cube_owner.isna().tolist() == [True] * 5 + [False]
    assert match.games[0].cube_value == 8
    # without the option the same transcript's double offers 2, not 4
    with pytest.raises(gl.ParseError, match="offers 2, not 4"):
        replay_match(parse_mat(text), rules=gl.Rules(match_length=5))
    limited = replay_match(parse_mat(text), rules=rules.replace(auto_double_limit=1))
    assert limited.games[0].cube_value == 4


def test_r8_4_seed_000_scoring_of_a_simulated_match():
    match = play_match(rules=gl.Rules.seed_000(), seed=3)
    endings = {g.ending for g in match.games}
    assert endings <= {"single", "outside", "bar", "drop"}
    check_match(match)


def test_rules_must_agree_with_the_transcript_length():
    text = transcript("  1) 31: 8/5 6/5\n")
    with pytest.raises(gl.ParseError, match="match length is 3"):
        replay_match(parse_mat(text), rules=gl.Rules(match_length=5))


def test_a_transcript_opening_with_a_doublet_reads_when_no_rules_are_stated():
    """A transcript never names its opening rule: it is read as written (R3.3)."""
    text = transcript("  1) 33: 8/5(2) 6/3(2)               \n")
    assert gl.read_match(text).actions[0].play.notation == "8/5(2) 6/3(2)"
