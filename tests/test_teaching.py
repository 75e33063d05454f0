"""The teaching board: lessons R4-R7, refusals with the rule, undo, whole games, drawing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import gammonlab as gl
from gammonlab.explain import RULES_IN_WORDS
from gammonlab.rules import BAR, OFF
from gammonlab.teaching.board import HINT_PLAYS, LESSONS, Hint, Outcome, TeachingBoard, Turn, lesson

RULES_MD = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
TAUGHT = ("R4", "R5", "R6", "R7")


def rule_ids(prefixes: tuple[str, ...]) -> list[str]:
    text = RULES_MD.read_text(encoding="utf-8")
    return [
        m for m in re.findall(r"^- (R\d+\.\d+)", text, flags=re.M) if m.split(".")[0] in prefixes
    ]


def checkers_ok(position: gl.Position) -> bool:
    board = position.board.astype(int)
    n = position.variant.checkers
    return bool((board >= 0).all() and (board.sum(axis=1) == n).all())


def on_board(position: gl.Position, side: int) -> int:
    return int(position.board[side, 1:].sum())


def build(me: dict[int, int], opp: dict[int, int]) -> gl.Position:
    """A position from the mover's points and the opponent's checkers on the mover's points."""
    board = np.zeros((2, 26), dtype=np.int8)
    for point, count in me.items():
        board[0, point] += count
    for point, count in opp.items():
        board[1, BAR if point == BAR else BAR - point] += count
    return gl.Position.from_board(board)


# -- the catalogue of lessons ------------------------------------------------------------------


def test_one_lesson_for_every_rule_r4_to_r7():
    ids = rule_ids(TAUGHT)
    assert len(ids) == 24
    assert list(LESSONS) == ids


@pytest.mark.parametrize("rule", list(LESSONS))
def test_lesson_position_and_plays_check_with_the_engine(rule):
    item = lesson(rule)
    pos = item.position
    assert pos.gnubg_id == item.position_id
    assert checkers_ok(pos)
    assert item.text and item.title
    assert item.shows, "a lesson shows at least one legal play"
    for text in item.shows:
        explanation = pos.explain(text, item.dice)
        assert explanation.legal, (rule, text, explanation.message)


def test_lesson_lookup_forgives_spelling_and_names_unknown_rules():
    assert lesson("6.4") is LESSONS["R6.4"]
    assert lesson(" r7.1 ") is LESSONS["R7.1"]
    with pytest.raises(gl.GammonlabError, match=r"R4\.1"):
        lesson("R9.1")


REFUSED = [rule for rule, item in LESSONS.items() if item.refused is not None]


@pytest.mark.parametrize("rule", REFUSED)
def test_illegal_play_refused_with_the_rule_and_a_legal_alternative(rule):
    item = lesson(rule)
    board = TeachingBoard.from_scenario(rule, opponent=None)
    assert board.lesson is item and board.dice == item.dice and board.awaiting == "play"
    before = (board.position, board.dice, board.history)
    with pytest.raises(gl.IllegalPlayError) as caught:
        board.play(item.refused)
    error = caught.value
    assert error.rule == item.refused_by
    assert f"({item.refused_by})" in str(error)
    # the refusal is the rules engine's own explanation
    expected = item.position.explain(item.refused, item.dice)
    assert board.refusal == expected
    assert board.message == expected.message == str(error)
    # the alternative shown is legal, and nothing was played
    assert error.example is not None
    assert item.position.explain(error.example, item.dice).legal
    assert (board.position, board.dice, board.history) == before
    board.play(error.example)
    assert len(board.history) == 1 and board.refusal is None


def test_every_rule_the_engine_cites_in_r4_to_r7_has_a_refusal_in_the_catalogue():
    cited = {rule for rule in RULES_IN_WORDS if rule.split(".")[0] in TAUGHT}
    refused_by = {item.refused_by for item in LESSONS.values()}
    assert cited <= refused_by, cited - refused_by
    for rule in cited:
        # where a lesson's own rule is cited, its illegal play is refused with that very id
        if LESSONS[rule].refused is not None:
            assert LESSONS[rule].refused_by == rule


def test_scenario_message_is_the_lesson():
    board = TeachingBoard.from_scenario("R6.4")
    assert board.message.startswith("R6.4 Entering from the bar.")
    assert "25-n" in board.message


def test_scenarios_play_on_against_a_policy():
    for rule in LESSONS:
        board = TeachingBoard.from_scenario(rule, opponent="pubeval", seed=1)
        board.play(0)
        assert board.awaiting in ("roll", "over")
        assert len(board.history) >= (1 if board.is_game_over else 2)


# -- playing --------------------------------------------------------------------------------


def test_play_by_text_index_or_play_object_gives_the_same_turn():
    results = []
    for how in ("8/5 6/5", "6/5 8/5", "Play"):
        board = TeachingBoard(None, position=gl.Position.initial(), dice=(3, 1))
        move = board.legal_plays[board.legal_plays.notations.index("8/5 6/5")]
        if how == "Play":
            turn = board.play(move)
        else:
            turn = board.play(how)
        results.append(turn.play.position)
    board = TeachingBoard(None, position=gl.Position.initial(), dice=(3, 1))
    index = [p.notation for p in board.choices].index("8/5 6/5")
    results.append(board.play(index).play.position)
    assert len(set(results)) == 1


def test_bad_notation_and_out_of_range_index_are_refused():
    board = TeachingBoard(None, position=gl.Position.initial(), dice=(3, 1))
    with pytest.raises(gl.InvalidNotationError):
        board.play("8-5 6-5")
    with pytest.raises(gl.GammonlabError, match="no play number 99"):
        board.play(99)
    other = gl.Position.initial().legal_plays((6, 5))[0]
    with pytest.raises(gl.IllegalPlayError):
        board.play(other)
    assert board.history == ()


def test_actions_out_of_turn_say_what_is_awaited():
    board = TeachingBoard("pubeval", seed=2, position=gl.Position.initial())
    assert board.awaiting == "roll"
    with pytest.raises(gl.GammonlabError, match="must roll first"):
        board.play("8/5 6/5")
    with pytest.raises(gl.GammonlabError, match="cannot step"):
        board.step()
    board.set_dice((3, 1))
    with pytest.raises(gl.GammonlabError, match="must play"):
        board.roll()
    board.play("8/5 6/5", reply=False)
    assert board.awaiting == "opponent"
    with pytest.raises(gl.GammonlabError, match="pubeval's turn"):
        board.play(0)
    turn = board.step()
    assert turn.player == 1 and turn.name == "pubeval"
    assert board.awaiting == "roll"


def test_auto_reply_lets_the_opponent_answer_in_the_same_call():
    board = TeachingBoard("pubeval", seed=4, position=gl.Position.initial(), dice=(3, 1))
    board.play("8/5 6/5")
    assert [t.player for t in board.history] == [0, 1]
    assert board.awaiting == "roll"
    quiet = TeachingBoard(
        "pubeval", seed=4, position=gl.Position.initial(), dice=(3, 1), auto_reply=False
    )
    quiet.play("8/5 6/5")
    assert quiet.awaiting == "opponent"
    assert quiet.advance()[0].play == board.history[1].play


def test_opening_roll_follows_r3_1_and_r3_2():
    for seed in range(12):
        board = TeachingBoard("pubeval", seed=seed, auto_reply=False)
        assert board.position == gl.Position.initial()
        assert board.dice is not None and board.dice[0] > board.dice[1]
        starter = board.on_roll
        assert board.awaiting == ("play" if starter == board.user else "opponent")
        assert "(R3.2)" in board.message
        if starter != board.user:
            turn = board.step()
            assert turn.dice == board.history[0].dice and turn.number == 1


def test_opponent_winning_the_opening_moves_at_once_with_auto_reply():
    seen = set()
    for seed in range(20):
        board = TeachingBoard("pubeval", seed=seed)
        assert board.awaiting in ("play", "roll")
        if board.history:
            seen.add("opponent")
            assert board.history[0].player == 1 and board.awaiting == "roll"
        else:
            seen.add("user")
    assert seen == {"opponent", "user"}


def test_set_dice_for_the_opponent_is_what_it_plays():
    board = TeachingBoard("pubeval", seed=1, position=gl.Position.initial(), on_roll=1)
    assert board.awaiting == "opponent"
    board.set_dice((6, 6))
    assert board.step().dice == (6, 6)
    with pytest.raises(gl.InvalidDiceError):
        board.set_dice((7, 1))


def test_a_roll_that_cannot_be_played_is_passed_with_an_empty_play():
    board = TeachingBoard.from_scenario("R6.6", opponent="pubeval", seed=3)
    assert len(board.legal_plays) == 0
    assert [p.notation for p in board.choices] == [""]
    assert board.hint().message == "6-5: no legal play, the turn is lost (R6.6)"
    with pytest.raises(gl.IllegalPlayError, match=r"\(R6.6\)"):
        board.play("bar/20")
    turn = board.play("", reply=False)
    assert turn.notation == "" and str(turn) == "1. You 6-5: no move"
    assert board.awaiting == "opponent"
    board = TeachingBoard.from_scenario("R5.5", opponent=None)
    board.play(0)
    assert board.history[0].play.moves == () and board.on_roll == 1


def test_rolling_reports_a_lost_turn():
    pos = lesson("R6.6").position
    board = TeachingBoard("pubeval", seed=0, position=pos)
    board.roll()
    assert board.message.endswith("the turn is lost (R6.6)")


def test_hint_lists_every_legal_play_with_the_policy_choice_first():
    board = TeachingBoard(
        "pubeval", seed=1, position=gl.Position.initial(), dice=(6, 5), auto_reply=False
    )
    hint = board.hint()
    assert isinstance(hint, Hint)
    assert sorted(hint.plays) == sorted(board.legal_plays.notations)
    assert hint.best is hint.choices[0] and hint.best.notation == "24/13"
    assert hint.policy == "net" and "net plays 24/13" in board.message
    # the opponent policy plays what the hint ranks first
    mirror = TeachingBoard(
        "pubeval", seed=1, position=gl.Position.initial(), dice=(6, 5), on_roll=1
    )
    assert mirror.step().play == hint.best
    plain = TeachingBoard(None, position=gl.Position.initial(), dice=(6, 5), hint_policy=None)
    assert plain.hint().best is None
    with pytest.raises(gl.GammonlabError, match="roll"):
        TeachingBoard(None, position=gl.Position.initial()).hint()


def test_forced_play_hint_says_it_must_be_played():
    board = TeachingBoard.from_scenario("R5.1", opponent=None)
    assert board.hint().message == "6-5: 1 legal play, 14/3, which must be played (R5.6)"


# -- undo -----------------------------------------------------------------------------------


def test_undo_takes_back_the_opponent_reply_too():
    board = TeachingBoard("pubeval", seed=11, position=gl.Position.initial(), dice=(3, 1))
    start = board.position
    board.play("8/5 6/5")
    board.roll()
    second_dice = board.dice
    second = board.position
    board.play(0)
    assert len(board.history) == 4
    undone = board.undo()
    assert [t.number for t in undone] == [3, 4]
    assert board.position == second and board.dice == second_dice
    assert board.awaiting == "play" and len(board.history) == 2
    assert board.message.startswith("took back 3. You")
    undone = board.undo()
    assert [t.number for t in undone] == [1, 2]
    assert board.position == start and board.dice == (3, 1) and board.history == ()
    assert board.undo() == [] and not board.can_undo
    # the game goes on from there
    board.play("24/21 24/23")
    assert len(board.history) == 2


def test_undo_before_playing_a_new_roll_returns_to_the_previous_decision():
    board = TeachingBoard("random", seed=5, position=gl.Position.initial(), dice=(4, 2))
    board.play("8/4 6/4")
    board.roll()
    board.undo()
    assert board.dice == (4, 2) and board.history == ()


def test_undo_after_the_game_ended_reopens_it():
    pos = build({1: 1}, {19: 15})
    board = TeachingBoard("pubeval", position=pos, dice=(2, 1))
    board.play("1/off")
    assert board.awaiting == "over"
    assert board.outcome == Outcome(winner=0, kind="gammon", points=2)
    board.undo()
    assert board.outcome is None and board.awaiting == "play" and board.position == pos


def test_undo_in_a_game_between_two_people_goes_back_one_play():
    board = TeachingBoard(None, position=gl.Position.initial(), dice=(3, 1))
    board.play("8/5 6/5")
    board.set_dice((6, 5))
    board.play("24/13")
    assert [t.player for t in board.undo()] == [1]
    assert board.on_roll == 1 and board.dice == (6, 5)


# -- results --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opp", "kind", "points"),
    [
        ({19: 14, OFF: 1}, "single", 1),
        ({19: 15}, "gammon", 2),
        ({19: 14, 5: 1}, "backgammon", 3),
        ({19: 14, BAR: 1}, "backgammon", 3),
    ],
)
def test_game_ends_with_the_r8_2_result(opp, kind, points):
    opp = dict(opp)
    off = opp.pop(OFF, 0)
    pos = build({2: 1}, opp)
    if off:
        board = pos.board.copy()
        board[1, OFF] = off
        pos = gl.Position.from_board(board)
    board = TeachingBoard("pubeval", position=pos, dice=(6, 2))
    board.play("2/off")
    assert board.outcome == Outcome(winner=0, kind=kind, points=points)
    assert board.awaiting == "over"
    unit = "point" if points == 1 else "points"
    assert board.message.endswith(f"{points} {unit} (R8.2)")
    assert board.message.startswith("You win a")
    with pytest.raises(gl.GammonlabError, match="game is over"):
        board.roll()
    assert "data-side" in board.board_svg() and "You \u00b7 winner" in board.board_svg()


def test_seed_000_scoring():
    pos = build({2: 1}, {19: 14, BAR: 1})
    board = TeachingBoard("pubeval", position=pos, dice=(6, 2), scoring="seed-000")
    board.play("2/off")
    assert board.outcome == Outcome(winner=0, kind="bar", points=4)
    assert board.message.endswith("(R8.4)")


def play_out(
    opponent: str, seed: int, variant: str = "standard", undo_every: int = 0
) -> TeachingBoard:
    """Play a whole game: the person's plays typed in notation, chosen at random."""
    chooser = np.random.default_rng(1000 + seed)
    board = TeachingBoard(opponent, seed=seed, variant=variant, auto_reply=False)
    n = board.variant.checkers
    decisions = 0
    for _ in range(2000):
        state = board.awaiting
        if state == "over":
            break
        before = board.position
        on_roll = board.on_roll
        if state == "opponent":
            turn = board.step()
        elif state == "roll":
            board.roll()
            continue
        else:
            choices = board.choices
            text = choices[int(chooser.integers(len(choices)))].notation
            turn = board.play(text)
            decisions += 1
            if undo_every and decisions % undo_every == 0:
                assert board.undo() == [turn]
                assert board.position == before and board.awaiting == "play"
                turn = board.play(text)
        assert isinstance(turn, Turn)
        assert turn.player == on_roll and turn.play.before == before
        assert turn.number == len(board.history)
        pos = board.position
        assert checkers_ok(pos)
        assert pos == turn.play.position
        # no checker is lost: each side's checkers on the board plus off make n
        for side in (0, 1):
            assert on_board(pos, side) + int(pos.board[side, OFF]) == n
        if not board.is_game_over:
            assert board.on_roll == 1 - on_roll
    else:  # pragma: no cover - a game never lasts 2000 plies
        raise AssertionError("the game did not end")
    return board


@pytest.mark.parametrize("opponent", ["pubeval", "random"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_game_against_a_built_in_policy(opponent, seed):
    board = play_out(opponent, seed, undo_every=7)
    outcome = board.outcome
    assert outcome is not None and board.awaiting == "over"
    assert outcome.kind in ("single", "gammon", "backgammon")
    assert outcome.points == {"single": 1, "gammon": 2, "backgammon": 3}[outcome.kind]
    last = board.history[-1]
    assert last.player == outcome.winner
    # the winner has borne off all 15 checkers (R8.1); the loser's side decides the kind
    final = last.play.board  # seen from the winner
    assert int(final[0, OFF]) == 15
    loser_off = int(final[1, OFF])
    assert (outcome.kind == "single") == (loser_off > 0)
    assert board.log == [str(t) for t in board.history]
    assert board.log[0].startswith("1. ")
    assert outcome.describe(board.names) in board.message


def test_games_are_reproducible_from_the_seed():
    assert play_out("random", 9).log == play_out("random", 9).log
    assert play_out("pubeval", 9).log != play_out("pubeval", 10).log


@pytest.mark.parametrize("variant", ["nackgammon", "hypergammon-3", "hypergammon-1"])
def test_other_variants_play_to_the_end(variant):
    board = play_out("pubeval", 4, variant=variant)
    assert board.outcome is not None
    assert int(board.history[-1].play.board[0, OFF]) == board.variant.checkers


def _acey(me: dict[int, int], opponent: dict[int, int]) -> gl.Position:
    board = np.zeros((2, 26), dtype=np.int8)
    for row, points in enumerate((me, opponent)):
        for point, count in points.items():
            board[row, point] = count
    return gl.Position.from_board(board, "acey-deucey")


def test_acey_deucey_1_2_asks_for_doubles_then_a_roll_again():
    board = TeachingBoard(
        "pubeval",
        seed=2,
        position=gl.Position.initial("acey-deucey"),
        dice=(2, 1),
        auto_reply=False,
    )
    with pytest.raises(gl.IllegalPlayError, match=r"\(R11.2\)"):
        board.play("in/24 in/23")
    assert board.refusal.rule == "R11.2" and " then " in board.refusal.example
    turn = board.play("in/24 in/23 then 6-6: in/19(4)")
    assert turn.play.doubles == 6
    # R11.2: the same player rolls again, before the opponent moves
    assert board.awaiting == "roll" and board.on_roll == turn.player
    assert "R11.2" in board.message
    assert board.position.waiting == (9, 15)
    board.set_dice((6, 5))
    assert board.explain("bar/19 in/20").rule == "R11.1"
    board.play("in/19 in/20")
    assert board.awaiting == "opponent"


def test_acey_deucey_entry_refused_on_a_blocked_point():
    board = TeachingBoard(None, position=_acey({10: 1}, {6: 2, 5: 2}), dice=(6, 5))
    assert [play.notation for play in board.choices] == ["10/4"]
    refusal = board.explain("in/20")
    assert refusal.rule == "R6.4" and "blocked" in refusal.reason
    assert board.explain("10/4/off").rule == "R7.1"


def test_acey_deucey_hint_ranks_a_large_1_2_without_listing_it_all():
    position = _acey({24: 2, 13: 3, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})
    board = TeachingBoard(None, position=position, dice=(1, 2))
    hint = board.hint()
    assert hint.count == len(board.legal_plays) > HINT_PLAYS
    assert len(hint.choices) == HINT_PLAYS and hint.best is hint.choices[0]
    assert f"{hint.count} legal plays" in hint.message
    assert hint.best.doubles in range(1, 7)
    board.play(len(board.legal_plays) - 1, reply=False)
    assert board.history[-1].play == position.legal_plays((1, 2))[-1]


@pytest.mark.parametrize("seed", [1, 2])
def test_acey_deucey_games_play_to_the_end(seed):
    chooser = np.random.default_rng(seed)
    board = TeachingBoard("pubeval", seed=seed, variant="acey-deucey", auto_reply=False)
    for _ in range(3000):
        state = board.awaiting
        if state == "over":
            break
        if state == "opponent":
            board.step()
        elif state == "roll":
            board.roll()
        else:
            plays = board.legal_plays
            board.play(int(chooser.integers(len(plays))) if len(plays) else 0, reply=False)
        pos = board.position
        assert pos.board.sum(axis=1).tolist() == [15 - w for w in pos.waiting]
    assert board.outcome is not None
    winner = board.history[-1]
    assert winner.player == board.outcome.winner
    assert int(winner.play.board[0, OFF]) == 15
    assert any(turn.play.roll_again for turn in board.history) or len(board.history) < 40


def test_changing_the_opponent_during_a_game():
    board = TeachingBoard(
        "pubeval", seed=3, position=gl.Position.initial(), dice=(3, 1), auto_reply=False
    )
    board.play(0)
    board.opponent = None
    assert board.awaiting == "roll" and board.names == ("Player 0", "Player 1")
    board.opponent = "random"
    assert board.awaiting == "opponent" and board.names == ("You", "random")
    board.step()
    assert board.awaiting == "roll"


def test_names_can_be_given_and_user_can_be_player_1():
    board = TeachingBoard("pubeval", user=1, seed=2, names=("Ann", "Bob"), auto_reply=False)
    assert board.names == ("Ann", "Bob") and board.user == 1
    board.advance()
    assert board.awaiting in ("roll", "play")
    assert board.is_person(1) and not board.is_person(0)


def test_state_is_a_game_state():
    board = TeachingBoard(None, position=gl.Position.initial(), dice=(3, 1))
    state = board.state
    assert state.position == board.position and state.dice == (3, 1) and state.on_roll == 0


# -- drawing ----------------------------------------------------------------------------------

NS = "{http://www.w3.org/2000/svg}"


def arrows(picture: str) -> list[str]:
    root = ET.fromstring(picture)
    return [g.get("data-path") for g in root.iter(f"{NS}g") if g.get("class") == "arrow"]


def checkers_drawn(picture: str) -> dict[tuple[int, int], int]:
    """(player, point in that player's numbering) -> count, as the SVG writes them."""
    root = ET.fromstring(picture)
    found = {}
    for g in root.iter(f"{NS}g"):
        if g.get("class") in ("point", "bar", "off"):
            found[int(g.get("data-player")), int(g.get("data-point"))] = int(g.get("data-count"))
    return found


def test_board_svg_shows_the_current_position_with_the_last_play_arrows():
    board = TeachingBoard(
        "pubeval", seed=1, position=gl.Position.initial(), dice=(3, 1), auto_reply=False
    )
    picture = board.board_svg()
    assert arrows(picture) == [] and picture.count('class="die"') == 2
    board.play("8/5 6/5")
    picture = board.board_svg()
    assert sorted(arrows(picture)) == ["6/5", "8/5"]
    # the checkers are those of the position after the play, player 0 in its own numbering
    drawn = checkers_drawn(picture)
    assert drawn[0, 5] == 2 and drawn[0, 8] == 2 and drawn[0, 6] == 4
    assert picture.count('class="die"') == 0
    assert "pubeval \u00b7 on roll" in picture and "You" in picture
    turn = board.step()
    picture = board.board_svg()
    assert len(arrows(picture)) >= 1
    assert "last play 2. pubeval" in picture
    assert arrows(board.board_svg(arrows=False)) == []
    assert turn.notation


def test_board_svg_marks_a_hit_and_keeps_colours_by_player():
    board = TeachingBoard.from_scenario("R6.2", opponent="pubeval", auto_reply=False)
    board.play("24/18*/13")
    picture = board.board_svg()
    assert arrows(picture) == ["24/18/13"]
    assert picture.count('class="hit"') == 1
    drawn = checkers_drawn(picture)
    assert drawn[1, BAR] == 1  # the hit checker is on the bar
    # player 0 keeps its colour when player 1 is on roll
    assert 'class="checker player-0"' in picture and 'class="checker player-1"' in picture
    root = ET.fromstring(picture)
    bottom_name = [t for t in root.iter(f"{NS}text") if t.get("class") == "name"]
    assert {t.text for t in bottom_name} == {"You", "pubeval \u00b7 on roll"}


def test_board_svg_previews_a_play_of_the_side_on_roll():
    board = TeachingBoard(None, position=gl.Position.initial(), dice=(6, 5))
    picture = board.board_svg(preview="24/13")
    assert arrows(picture) == ["24/18/13"]
    assert board.history == () and board.message == "Player 0 to play 6-5"
    assert arrows(board.board_svg(preview=0)) != []
    with pytest.raises(gl.IllegalPlayError):
        board.board_svg(preview="24/19")
    assert board.refusal is None


def test_board_svg_draws_you_at_the_bottom_whoever_is_on_roll():
    board = TeachingBoard("pubeval", position=gl.Position.initial(), on_roll=1, dice=(3, 1), user=0)
    root = ET.fromstring(board.board_svg())
    names = {
        t.get("data-player"): float(t.get("y"))
        for t in root.iter(f"{NS}text")
        if t.get("class") == "name"
    }
    assert names["0"] > names["1"]  # player 0 (you) is drawn lower down
    assert board._repr_svg_().startswith("<svg")


def test_repr_says_whose_turn_it_is():
    board = TeachingBoard("pubeval", position=gl.Position.initial(), dice=(3, 1))
    assert repr(board) == "<TeachingBoard You vs pubeval, standard, turn 1: You to play 3-1>"


# -- a play built move by move (what a click on the board does) ------------------------------


def test_a_play_is_built_move_by_move_each_move_checked_with_its_rule():
    board = TeachingBoard.from_scenario("R6.3", opponent="pubeval", seed=1, auto_reply=False)
    assert board.movable() == [BAR]  # only the checker on the bar may move (R6.3)
    with pytest.raises(gl.IllegalPlayError) as caught:
        board.move(13, 7)
    assert caught.value.rule == "R6.3" and board.refusal.rule == "R6.3"
    assert "(R6.3)" in board.message and board.partial == ()
    assert board.move(BAR, 20) is None
    assert board.partial == ((BAR, 20),) and board.partial_notation == "bar/20"
    assert board.dice_left == [6] and "to play: 6" in board.message
    assert board.refusal is None and board.history == ()
    svg = board.board_svg()
    assert svg.count('class="arrow"') == 1  # the move so far, drawn as it is made
    assert board.take_back() == ((BAR, 20),) and board.partial == ()
    assert board.move(BAR, 20) is None
    turn = board.move(13, 7)
    assert turn is not None and turn.notation == "bar/20 13/7"
    assert board.partial == () and board.awaiting == "opponent"


@pytest.mark.parametrize(
    ("rule", "source", "target", "refused_by"),
    [
        ("R4.2", 24, 19, "R4.2"),  # a blocked point
        ("R5.3", 14, 9, "R5.3"),  # only one die: the larger
        ("R6.4", BAR, 19, "R6.4"),  # a blocked entry point
        ("R6.6", BAR, 20, "R6.4"),  # a closed board: no entry at all
        ("R7.1", 6, OFF, "R7.1"),  # bearing off with a checker outside
        ("R7.3", 4, OFF, "R7.3"),  # a checker higher must move first
        ("R4.4", 24, 13, "R4.4"),  # both dice, the point in between blocked
        ("R4.1", 13, 14, "R4.1"),  # backwards
    ],
)
def test_an_illegal_move_is_refused_at_once_citing_the_rule(rule, source, target, refused_by):
    board = TeachingBoard.from_scenario(rule, opponent=None)
    with pytest.raises(gl.IllegalPlayError) as caught:
        board.move(source, target)
    assert caught.value.rule == refused_by, str(caught.value)
    assert f"({refused_by})" in board.message
    assert board.partial == () and board.history == ()
    if caught.value.example:
        assert board.explain(caught.value.example).legal


def test_bearing_off_and_entering_by_moves():
    board = TeachingBoard.from_scenario("R7.4", opponent=None)  # 6-5: 3/off(2)
    assert board.targets(3) == [OFF]
    assert board.move(3, OFF) is None
    with pytest.raises(gl.IllegalPlayError, match=r"R7\.3"):
        board.move(2, OFF)  # the 6 left must take the checker on the 3-point
    assert board.move(3, OFF).notation == "3/off(2)"
    board = TeachingBoard.from_scenario("R7.1", opponent=None)  # 6-1: 7/6/off is 7/off
    assert board.move(7, 6) is None
    assert board.move(6, OFF).notation == "7/off"
    board = TeachingBoard.from_scenario("R6.4", opponent=None)
    assert board.targets(BAR) == [15, 21]  # bar/21 with the 4, on with the 6
    turn = board.move(BAR, 15)
    assert turn is not None and turn.notation == "bar/15"


def test_an_incomplete_play_sent_is_refused_with_the_rule_that_asks_for_more():
    board = TeachingBoard.from_scenario("R5.1", opponent=None)  # 6-5: 14/3
    board.move(14, 9)
    with pytest.raises(gl.IllegalPlayError) as caught:
        board.send()
    assert caught.value.rule == "R5.1" and board.partial == ((14, 9),)
    assert board.move(9, 3).notation == "14/3"
    board = TeachingBoard.from_scenario("R5.4", opponent=None)  # 4-4: three 4s can be played
    board.move(20, 16)
    with pytest.raises(gl.IllegalPlayError) as caught:
        board.send()
    assert caught.value.rule == "R5.4"
    assert board.partial == ((20, 16),)  # kept, to be finished
    for _ in range(3):
        if board.history:
            break
        point = board.movable()[0]
        board.move(point, board.targets(point)[0])
    assert len(board.history) == 1 and board.partial == ()
    assert board.history[0].notation == "20/8"  # three 4s, as many as can be played


@pytest.mark.parametrize("variant", ["standard", "acey-deucey"])
def test_every_play_of_a_game_can_be_made_move_by_move(variant):
    rng = np.random.default_rng(4)
    board = TeachingBoard(None, seed=4, variant=variant, hint_policy=None)
    for _ in range(30 if variant == "standard" else 60):
        if board.awaiting == "over":
            break
        if board.awaiting == "roll":
            board.roll()
        plays = board.legal_plays
        if len(plays) == 0 or plays.doubles is not None:  # a pass, an Acey-Deucey 1-2
            board.play(0)
            continue
        play = plays[int(rng.integers(len(plays)))]
        turn = None
        for source, target in play.moves:
            assert target in board.targets(source), (play, board.partial)
            turn = board.move(source, target)
        assert turn is not None and turn.play == play


def test_messages_follow_the_players_names_and_read_as_english():
    for seed in range(40):
        board = TeachingBoard("random", seed=seed, auto_reply=False)
        if "You move first" in board.message:
            break
    else:
        pytest.fail("no opening won by the user in 40 seeds")
    assert "You moves" not in board.message
    board.opponent = None  # two people now: the names change, and so does the message
    assert "Player 0" in board.message and "You" not in board.message
    assert "random" not in board.message
    board.play(0)
    assert board.message.startswith("Player 0 played")
    with pytest.raises(gl.IllegalPlayError) as caught:
        TeachingBoard.from_scenario("R5.6", opponent=None).play("")
    assert str(caught.value).startswith("playing no move is illegal with 6-6")
    mine = TeachingBoard("pubeval", position=gl.Position.initial(), dice=(3, 1))
    with pytest.raises(gl.OutOfTurnError, match="You have rolled"):
        mine.roll()
