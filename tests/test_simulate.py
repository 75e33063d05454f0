"""Simulated matches (gammonlab.simulate) and the rule options of the replay's state
machine: the opening (R3.1, R3.3), Holland (R10.3), seed 000's automatic doubles (R10.4)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import gammonlab as gl
from gammonlab.evaluators.base import Evaluator, Policy
from gammonlab.io.mat import parse_mat
from gammonlab.match import HIGHEST_CUBE, replay_match
from gammonlab.rules import BAR
from gammonlab.simulate import play_match

SIMULATED_GAMES = 200
"""Games simulated per variant and per option set (the goal is 1,000 each)."""

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


def play_games(rules: gl.Rules, players=("pubeval", "pubeval"), seed: int = 0,
               count: int = SIMULATED_GAMES) -> list[gl.Match]:
    """Money sessions of ``count`` games, or as many matches as make ``count`` games."""
    if rules.money:
        return [play_match(rules, players, seed=seed, games=count)]
    matches, played = [], 0
    while played < count:
        match = play_match(rules, players, seed=seed + len(matches))
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
    """The cube at the end, followed action by action: takes and beavers (R9.4,
    R10.6) and seed 000's automatic doubles (R10.4, none in the Crawford game,
    capped by the limits)."""
    cube, offered, automatic, last = 1, None, 0, None
    highest = min(rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
    for action in game.actions:
        if action.kind == "move" and rules.auto_doubles == "seed-000":
            roll = tuple(sorted(action.dice))
            repeated = last is not None and last[0] != action.player and last[1] == roll
            last = (action.player, roll)
            if (repeated and not game.crawford and 2 * cube <= highest
                    and not (rules.auto_double_limit
                             and automatic >= rules.auto_double_limit)):
                cube, automatic = 2 * cube, automatic + 1
        elif action.kind == "double":
            offered = action.cube
        elif action.kind in ("beaver", "raccoon"):
            cube, offered = offered, action.cube
        elif action.kind == "take":
            cube = offered
    return cube


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
    assert game.cube_value == expected_cube(game, rules)
    if rules.auto_doubles == "none":
        assert game.cube_value == 2 ** turned
    if game.crawford:
        assert "double" not in kinds  # R10.2
    if rules.cube_limit is not None:
        assert game.cube_value <= rules.cube_limit
    last_move = [a for a in game.actions if a.kind == "move"][-1]
    if game.ending == "drop":
        assert kinds[-2] == "drop" and game.points == game.cube_value  # R9.4
        assert game.actions[-2].player != game.winner
        return
    assert game.ending in MATCH_ENDINGS
    assert last_move.player == game.winner
    result = _result(game, rules)
    points = result.points
    if rules.money and rules.jacoby and turned == 0:
        points = 1  # R10.1
    assert game.points == points * game.cube_value
    assert game.ending == result.kind


def _result(game: gl.Game, rules: gl.Rules) -> gl.GameResult:
    position = game.final_state.position
    result = position.result(rules.scoring)
    assert result is not None
    loser = position.board[1 - result.winner]
    if rules.scoring == "standard" and result.kind == "gammon":
        assert loser[0] == 0 and loser[BAR] == 0
    return result


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
        reached = [g.number for g in match.games
                   if max(g.score) == rules.match_length - 1 and rules.crawford]
        crawford = [g.number for g in match.games if g.crawford]
        assert crawford == reached[:1]  # R10.2: the first game at match point only


def check_round_trip(match: gl.Match) -> None:
    text = gl.write_match(match)
    standard_options = (match.rules.scoring == "standard" and not match.rules.holland
                        and match.rules.auto_doubles == "none"
                        and match.rules.opening == "standard")
    if standard_options:
        back = gl.read_match(text)
        assert back.rules.variant == match.rules.variant
    else:
        # the headers do not name these options: give the rules
        back = replay_match(parse_mat(text), rules=match.rules)
    pd.testing.assert_frame_equal(back.to_frame(), match.to_frame())


VARIANTS = ["standard", "nackgammon", "nackgammon-004", "hypergammon-1", "hypergammon-2",
            "hypergammon-3"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_simulated_variant_games_end_in_valid_results(variant):
    rules = gl.Rules(variant=variant, match_length=7)
    matches = play_games(rules, ("pubeval", race_evaluator), seed=11)
    assert sum(len(m.games) for m in matches) >= SIMULATED_GAMES
    for match in matches:
        check_match(match)
    check_round_trip(matches[0])
    assert "Variation" in gl.write_match(matches[0]) or variant == "standard"


OPTION_SETS = {
    "jacoby-money": (gl.Rules(jacoby=True), (race_evaluator, "pubeval")),
    "crawford-match": (gl.Rules(match_length=7, crawford=True), ("pubeval", race_evaluator)),
    "seed-000": (gl.Rules.seed_000(), ("pubeval", race_evaluator)),
    "beavers": (gl.Rules(beavers=True, raccoons=True), (optimist, race_evaluator)),
    "holland-reroll-limit": (gl.Rules(match_length=5, holland=True, opening="reroll",
                                      cube_limit=8), (race_evaluator, optimist)),
}


@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_simulated_option_sets_end_in_valid_results(name):
    rules, players = OPTION_SETS[name]
    matches = play_games(rules, players, seed=5)
    for match in matches:
        check_match(match)
    check_round_trip(matches[0])
    frame = pd.concat([m.to_frame() for m in matches])
    actions = set(frame.action.astype(str))
    if name in ("jacoby-money", "crawford-match"):
        assert {"double", "take"} <= actions
    if name == "beavers":
        assert "beaver" in actions
    if name == "seed-000":
        assert sum(automatic_doubles(g) for m in matches for g in m.games) > 0
    if name == "holland-reroll-limit":
        firsts = [g.actions[0].dice for m in matches for g in m.games]
        assert any(d[0] == d[1] for d in firsts)  # R3.3: doublets open
    if name == "jacoby-money":
        undoubled = [g for m in matches for g in m.games if "take" not in
                     [a.kind for a in g.actions] and g.ending in ("gammon", "backgammon")]
        assert undoubled and all(g.points == g.cube_value for g in undoubled)


def test_same_seed_same_match():
    rules = gl.Rules(match_length=5)
    first = play_match(rules, ("pubeval", race_evaluator), seed=42)
    again = play_match(rules, ("pubeval", race_evaluator), seed=42)
    pd.testing.assert_frame_equal(first.to_frame(), again.to_frame())
    other = play_match(rules, ("pubeval", race_evaluator), seed=43)
    assert not first.to_frame().equals(other.to_frame())


def test_policies_without_probabilities_never_double():
    match = play_match(gl.Rules(), ("pubeval", "random"), games=20, seed=1)
    assert "double" not in set(match.to_frame().action.astype(str))


def test_unsupported_requests_are_refused():
    with pytest.raises(gl.GammonlabError, match=r"R10\.5"):
        play_match(gl.Rules(auto_doubles="gnubg", auto_double_limit=2), games=1)
    with pytest.raises(gl.GammonlabError, match="games="):
        play_match(gl.Rules())


# -- the state machine's rule options, on small transcripts ------------------------------------

def transcript(rows: str, score=(0, 0), length=3) -> str:
    return (f" {length} point match\n\n Game 1\n Anna : {score[0]}                 "
            f"Bob : {score[1]}\n" + rows)


def test_r3_1_opening_doublet_is_refused_unless_reroll():
    text = transcript("  1) 33: 8/5(2) 6/3(2)               \n")
    with pytest.raises(gl.ParseError, match=r"R3\.1"):
        replay_match(parse_mat(text), rules=gl.Rules(match_length=3))
    match = replay_match(parse_mat(text), rules=gl.Rules(match_length=3, opening="reroll"))
    assert match.actions[0].play.notation == "8/5(2) 6/3(2)"


CRAWFORD_GAME = (" 3 point match\n\n Game 1\n Anna : 2                 Bob : 0\n"
                 "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
                 "  2) 64: ????\n"
                 "                                      Wins 1 point\n\n"
                 " Game 2\n Anna : 2                 Bob : 1\n")


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
    early = CRAWFORD_GAME + ("  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
                             "  2) 64: 24/14*                      Doubles => 2\n")
    with pytest.raises(gl.ParseError, match=r"Holland rule, R10\.3"):
        replay_match(parse_mat(early), rules=holland)
    assert replay_match(parse_mat(early), rules=gl.Rules(match_length=3)).games[1]
    later = CRAWFORD_GAME + ("  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
                             "  2) 64: 24/14*                      43: bar/21 13/10\n"
                             "  3) 21: 13/11 6/5                   Doubles => 2\n"
                             "  4)  Takes\n")
    game = replay_match(parse_mat(later), rules=holland).games[1]
    assert game.cube_value == 2 and not game.crawford and game.score == (2, 1)
    # the leader is not bound by it
    leader = CRAWFORD_GAME + ("  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
                              "  2) Doubles => 2                     Takes\n")
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
    text = transcript("  1) 31: 8/5 6/5                     13: 24/23 13/10\n"
                      "  2) 62: 24/18 13/11                 Doubles => 4\n"
                      "  3)  Takes                          26: 24/18 13/11\n", length=5)
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
    match = play_match(gl.Rules.seed_000(), seed=3)
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
