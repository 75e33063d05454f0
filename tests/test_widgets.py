"""The teaching widget: built without a browser, driven through its callbacks."""

from __future__ import annotations

import builtins
import importlib

import pytest
from conftest import needs_module

import gammonlab as gl
from gammonlab.teaching.board import LESSONS, TeachingBoard

ipywidgets = needs_module("ipywidgets")

from gammonlab.teaching import widget as widgets  # noqa: E402
from gammonlab.teaching.widget import TWO_PLAYERS, TeachingWidget, teach  # noqa: E402


def make(board: TeachingBoard | None = None, **options) -> TeachingWidget:
    options.setdefault("delay", 0)
    return TeachingWidget(board, **options)


def at_start(opponent="pubeval", dice=(3, 1), **options) -> TeachingWidget:
    board = TeachingBoard(
        opponent, seed=5, position=gl.Position.initial(), dice=dice, auto_reply=False
    )
    return make(board, **options)


def test_layout_holds_every_control():
    widget = at_start()
    children = []
    stack = [widget.layout]
    while stack:
        item = stack.pop()
        children.append(item)
        stack.extend(getattr(item, "children", ()))
    for control in (
        widget.board_view,
        widget.dice_view,
        widget.message_view,
        widget.log_view,
        widget.roll_button,
        widget.set_dice_button,
        widget.play_text,
        widget.play_button,
        widget.plays_dropdown,
        widget.play_choice_button,
        widget.hint_button,
        widget.undo_button,
        widget.new_game_button,
        widget.opponent_select,
        widget.lesson_select,
        widget.die1,
        widget.die2,
    ):
        assert any(control is child for child in children)
    # the clickable board (anywidget) or, without anywidget, a picture
    assert isinstance(widget.board_view, ipywidgets.DOMWidget)
    assert widget.board_view.value.startswith("<svg")
    assert "data-value" in widget.board_view.value  # the dice are drawn
    assert widget._repr_mimebundle_()  # Jupyter can display it


def test_typed_play_updates_board_log_and_lets_the_opponent_reply():
    widget = at_start()
    before = widget.board_view.value
    assert widget.roll_button.disabled and not widget.play_button.disabled
    assert [label for label, _ in widget.plays_dropdown.options][:2] == ["24/21 24/23", "24/20"]
    widget.play_text.value = "8/5 6/5"
    widget.play_button.click()
    board = widget.board
    assert [t.player for t in board.history] == [0, 1]
    assert widget.play_text.value == ""
    assert widget.board_view.value != before
    assert 'class="arrow"' in widget.board_view.value  # the reply's arrows
    assert widget.log_view.value.splitlines() == board.log
    assert board.message in widget.message_view.value.replace("&#x27;", "'")
    assert not widget.roll_button.disabled and widget.play_button.disabled
    assert widget.plays_dropdown.options == ()
    assert not widget.undo_button.disabled


def test_illegal_play_shows_the_rule_and_a_legal_play():
    widget = make(TeachingBoard.from_scenario("R6.3", opponent="pubeval", seed=1, auto_reply=False))
    board_before = widget.board_view.value
    widget.play_text.value = "13/7 13/8"
    widget.on_play_text()
    message = widget.message_view.value
    assert "Illegal (R6.3)" in message
    assert "for example bar/20" in message
    assert widget.board.history == ()
    assert widget.play_text.value == "13/7 13/8"  # kept, to be corrected
    assert widget.board_view.value == board_before
    widget.play_text.value = "bar/20 13/7"
    widget.on_play_text()
    assert "Illegal" not in widget.message_view.value
    assert widget.board.history[0].notation == "bar/20 13/7"


def test_unreadable_play_is_reported_not_raised():
    widget = at_start()
    widget.play_text.value = "8-5 6-5"
    widget.on_play_text()
    assert "cannot read play" in widget.message_view.value
    assert widget.board.history == ()


def test_roll_and_dropdown_play():
    widget = at_start(dice=None)
    assert widget.plays_dropdown.options == () and widget.play_choice_button.disabled
    assert "You to roll" in widget.dice_view.value
    widget.roll_button.click()
    dice = widget.board.dice
    assert dice is not None
    assert f"{max(dice)}-{min(dice)}" in widget.dice_view.value
    assert "rolled" in widget.message_view.value
    labels = [label for label, _ in widget.plays_dropdown.options]
    assert labels == [p.notation or "no move" for p in widget.board.choices]
    widget.on_play_choice()  # nothing chosen yet
    assert "choose a play" in widget.message_view.value
    widget.plays_dropdown.value = 0
    assert 'class="arrow"' in widget.board_view.value  # the chosen play is previewed
    assert widget.board.history == ()
    widget.play_choice_button.click()
    assert widget.board.history[0].play == widget.board.history[0].play.before.legal_plays(dice)[0]
    assert len(widget.board.history) == 2


def test_dice_setter():
    widget = at_start(opponent=None, dice=None)
    widget.die1.value, widget.die2.value = 6, 6
    widget.set_dice_button.click()
    assert widget.board.dice == (6, 6)
    assert "6-6" in widget.dice_view.value and "\u2685 \u2685" in widget.dice_view.value


def test_hint_lists_plays_and_previews_the_best():
    widget = at_start(dice=(6, 5))
    widget.hint_button.click()
    message = widget.message_view.value
    assert "net plays 24/13" in message
    assert "more)" in message or "," in message
    assert 'data-path="24/18/13"' in widget.board_view.value
    assert widget.board.history == ()


def test_undo_button_takes_back_play_and_reply():
    widget = at_start()
    widget.play_text.value = "8/5 6/5"
    widget.on_play_text()
    widget.undo_button.click()
    assert widget.board.history == () and widget.board.dice == (3, 1)
    assert "took back" in widget.message_view.value
    assert widget.log_view.value == ""
    assert widget.undo_button.disabled
    widget.on_undo()
    assert "nothing to undo" in widget.message_view.value


def test_new_game_starts_from_the_opening():
    widget = at_start()
    widget.on_play_text()  # empty text: refused, a move must be played (R5.6)
    assert "R5.6" in widget.message_view.value
    widget.new_game_button.click()
    board = widget.board
    assert board.awaiting in ("roll", "play")
    assert "Opening roll" in widget.message_view.value or board.history
    assert widget.lesson_select.value == ""


def test_opponent_selector_switches_policy_and_two_players():
    widget = at_start()
    widget.opponent_select.value = TWO_PLAYERS
    assert widget.board.opponent is None
    widget.play_text.value = "8/5 6/5"
    widget.on_play_text()
    assert len(widget.board.history) == 1  # nobody replies: player 1 is a person
    assert "Player 1 to roll" in widget.dice_view.value
    widget.opponent_select.value = "random"
    # it is now the random policy's turn: it moves at once
    assert widget.board.opponent.name == "random"
    assert len(widget.board.history) == 2 and widget.board.awaiting == "roll"


def test_lesson_selector_loads_each_scenario():
    widget = at_start()
    for rule, item in LESSONS.items():
        widget.lesson_select.value = rule
        board = widget.board
        assert board.lesson is item and board.dice == item.dice
        assert board.position == item.position
        assert item.title in widget.message_view.value
        assert not widget.play_button.disabled
    widget.lesson_select.value = ""
    assert widget.board.lesson is None


def test_widget_plays_a_whole_game_through_its_callbacks():
    widget = make(TeachingBoard("pubeval", seed=3, auto_reply=False))
    for _ in range(500):
        awaiting = widget.board.awaiting
        if awaiting == "over":
            break
        if awaiting == "roll":
            widget.roll_button.click()
        else:
            widget.plays_dropdown.value = 0
            widget.play_choice_button.click()
    assert widget.board.outcome is not None
    assert "wins" in widget.message_view.value and "game over" in widget.dice_view.value
    assert "\u00b7 winner" in widget.board_view.value
    assert widget.roll_button.disabled and widget.set_dice_button.disabled


def test_teach_opens_a_lesson():
    widget = teach(lesson="R7.1", seed=1, delay=0)
    assert widget.lesson_select.value == "R7.1"
    widget.play_text.value = "6/off 6/5"
    widget.on_play_text()
    assert "Illegal (R7.1)" in widget.message_view.value


def test_missing_ipywidgets_raises_a_clear_error(monkeypatch):
    real_import = builtins.__import__

    def no_ipywidgets(name, *args, **kwargs):
        if name == "ipywidgets" or name.startswith("ipywidgets."):
            raise ImportError("No module named 'ipywidgets'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ipywidgets)
    module = importlib.reload(widgets)  # the module itself imports without ipywidgets
    with pytest.raises(gl.MissingDependencyError, match=r"pip install -e \"\.\[notebook\]\""):
        module.TeachingWidget(delay=0)
    monkeypatch.undo()
    importlib.reload(widgets)


def test_acey_deucey_widget_lists_at_most_listed_plays_and_rolls_again():
    board = TeachingBoard(
        "pubeval",
        seed=5,
        position=gl.Position.initial("acey-deucey"),
        dice=(2, 1),
        auto_reply=False,
    )
    widget = make(board)
    options = widget.plays_dropdown.options
    assert 0 < len(options) <= widgets.LISTED_PLAYS
    assert options[0][0] == board.legal_plays[0].notation
    widget.play_text.value = "in/24 in/23"
    widget.play_button.click()
    assert "R11.2" in widget.message_view.value
    widget.play_text.value = "in/24 in/23 then 6-6: in/19(4)"
    widget.play_button.click()
    assert widget.board.history[0].play.doubles == 6
    assert widget.board.awaiting == "roll" and not widget.roll_button.disabled


# -- the board played by clicks, and what a player meets ---------------------------------------


def page(widget: TeachingWidget, **message) -> None:
    """A message from the board's page, as the front-end sends it."""
    widget.board_view._handle_custom_msg(message, [])


def em(value: str) -> float:
    assert value.endswith("em"), value
    return float(value[:-2])


def test_clicks_choose_a_checker_light_its_points_and_move_it():
    widget = make(TeachingBoard.from_scenario("R6.3", opponent="pubeval", seed=1, auto_reply=False))
    view = widget.board_view
    assert widget.clickable and view.movable == [25]  # only the bar (R6.3)
    assert view.value.count('class="hit-area"') == 27
    assert " width=" not in view.value.split(">", 1)[0]  # the picture fills its container
    page(widget, kind="click", point=13)  # a checker that may not move: refused, with the rule
    assert "Illegal (R6.3)" in widget.message_view.value and widget.selected is None
    page(widget, kind="click", point=25)
    assert widget.selected == 25 and view.selected == 25
    assert view.targets == widget.board.targets(25) and 20 in view.targets
    assert 'class="highlight"' in view.value  # the points it may reach light up
    page(widget, kind="click", point=20)
    assert widget.board.partial_notation == "bar/20" and widget.selected is None
    assert 13 in view.movable and 25 not in view.movable
    assert "to play: 6" in widget.message_view.value
    page(widget, kind="move", source=13, target=14)  # dragged backwards
    assert "Illegal (R4.1)" in widget.message_view.value
    widget.undo_button.click()  # takes back the move on the board, not a whole play
    assert widget.board.partial == () and view.movable == [25]
    page(widget, kind="move", source=25, target=20)
    page(widget, kind="move", source=13, target=7)  # the play is complete: played, replied
    board = widget.board
    assert board.history[0].notation == "bar/20 13/7" and len(board.history) == 2
    assert widget.log_view.value.splitlines() == board.log
    page(widget, kind="nonsense")  # ignored
    page(widget, kind="click")  # no point: ignored


def test_a_top_player_clicks_in_its_own_numbering():
    widget = at_start(opponent=None, dice=(6, 5))
    widget.play_text.value = "24/13"
    widget.on_play_text()
    widget.die1.value, widget.die2.value = 6, 5
    widget.on_set_dice()
    assert widget.board.on_roll == 1
    page(widget, kind="click", point=12)  # shown 12 is player 1's 13-point
    assert widget.selected == 13 and 7 in widget.board.targets(13)
    assert 18 in widget.board_view.targets  # player 1's 7-point, shown as 18


def test_enter_in_the_play_box_plays_and_an_empty_box_sends_the_moves_made():
    widget = at_start()
    widget.play_text.value = "8/5 6/5"
    widget.play_text._handle_custom_msg({"event": "submit"}, [])  # what Enter sends
    assert widget.board.history[0].notation == "8/5 6/5" and widget.play_text.value == ""
    widget.roll_button.click()
    widget.die1.value, widget.die2.value = 3, 1
    widget.on_set_dice()
    page(widget, kind="move", source=8, target=5)
    widget.play_text._handle_custom_msg({"event": "submit"}, [])  # not whole yet (R5.1)
    assert "Illegal (R5.1)" in widget.message_view.value
    page(widget, kind="move", source=6, target=5)
    turn = widget.board.history[2]
    assert turn.player == 0 and turn.play.moves == ((8, 5), (6, 5))


def test_a_second_click_on_play_keeps_the_reply_in_view():
    widget = at_start()
    widget.play_text.value = "8/5 6/5"
    widget.play_button.click()
    shown = widget.message_view.value
    assert "pubeval played" in shown
    widget.play_button.click()  # nothing to play now
    widget.play_choice_button.click()
    widget.hint_button.click()
    assert widget.message_view.value == shown
    assert "must roll first" not in widget.message_view.value


def test_the_dice_lists_show_the_roll_and_have_room_for_their_numbers():
    widget = at_start(dice=None)
    widget.roll_button.click()
    assert (widget.die1.value, widget.die2.value) == widget.board.dice
    label = em(widget.die1.style.description_width)
    assert em(widget.die1.layout.width) - label >= 4  # the number and the arrow fit
    assert em(widget.die2.layout.width) >= 4


def test_hint_selects_its_best_play_in_the_list():
    widget = at_start(dice=(6, 5))
    widget.hint_button.click()
    index = widget.plays_dropdown.value
    assert index is not None
    assert widget.board.legal_plays[index].notation == "24/13"
    widget.play_choice_button.click()
    assert widget.board.history[0].notation == "24/13"


def test_messages_follow_the_names_after_switching_to_two_players():
    for seed in range(40):
        widget = make(TeachingBoard("random", seed=seed, auto_reply=False))
        if "You move first" in widget.message_view.value:
            break
    else:
        pytest.fail("no opening won by the user in 40 seeds")
    widget.opponent_select.value = TWO_PLAYERS
    message = widget.message_view.value
    assert "Player 0" in message and "You" not in message and "random" not in message


def test_a_new_game_after_a_lesson_gets_fresh_dice():
    def rolls(widget: TeachingWidget) -> list:
        board = widget.board
        return [board.message, *(board._throw() for _ in range(6))]

    first = make(seed=7, opponent=None)
    opening = rolls(first)
    widget = make(seed=7, opponent=None)
    widget.lesson_select.value = "R6.4"
    widget.new_game_button.click()
    assert rolls(widget) != opening


def test_without_anywidget_the_board_is_a_picture_to_play_by_text(monkeypatch):
    monkeypatch.setattr(widgets, "board_view_class", lambda: None)
    monkeypatch.setattr(widgets, "log_view_class", lambda: None)
    widget = at_start()
    assert not widget.clickable and isinstance(widget.board_view, ipywidgets.HTML)
    assert isinstance(widget.log_view, ipywidgets.Textarea)
    widget.play_text.value = "8/5 6/5"
    widget.play_button.click()
    assert widget.log_view.value.splitlines() == widget.board.log
