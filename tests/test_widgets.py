"""The teaching widget: built without a browser, driven through its callbacks."""

from __future__ import annotations

import builtins
import importlib

import pytest

import gammonlab as gl
from gammonlab.teaching.board import LESSONS, TeachingBoard

ipywidgets = pytest.importorskip("ipywidgets")

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
    with pytest.raises(gl.MissingDependencyError, match=r"gammonlab\[notebook\]"):
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
