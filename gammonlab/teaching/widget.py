"""The teaching board in Jupyter, on ipywidgets.

:class:`TeachingWidget` is a thin shell over :class:`~gammonlab.teaching.TeachingBoard`:
every button calls the model and draws the board again; all the rules live in
:mod:`gammonlab.teaching`. ipywidgets is an optional extra
(``pip install -e ".[notebook]"`` in a gammonlab checkout).

>>> widget = teach(opponent="pubeval", seed=1, delay=0)
>>> widget.board.awaiting in ("roll", "play")
True
>>> "<svg" in widget.board_view.value
True
"""

from __future__ import annotations

import html
import time
from typing import TYPE_CHECKING, Any

from ..errors import GammonlabError, IllegalPlayError, MissingDependencyError
from .board import LESSONS, TeachingBoard

if TYPE_CHECKING:
    from ..evaluators.base import Policy
    from ..play import Play
    from ..rules import Variant

__all__ = ["OPPONENTS", "TeachingWidget", "teach"]

TWO_PLAYERS = "two players"
"""The opponent selector's entry for two people at one board (no policy)."""
OPPONENTS: tuple[str, ...] = ("pubeval", "random", TWO_PLAYERS)
"""The opponents the selector offers."""
FREE_GAME = ""
"""The lesson selector's entry for a game from the opening."""
DIE_FACES = "\u2680\u2681\u2682\u2683\u2684\u2685"
"""The faces of a die, 1 to 6, as characters."""
SHOWN_HINTS = 8
"""Plays a hint lists in the message area."""
LISTED_PLAYS = 500
"""Most plays the list of legal plays offers (the others can be typed)."""


def _ipywidgets() -> Any:
    try:
        import ipywidgets
    except ImportError as exc:
        raise MissingDependencyError(
            'the teaching widget needs ipywidgets: pip install -e ".[notebook]" in a gammonlab '
            "checkout (or: pip install ipywidgets)"
        ) from exc
    return ipywidgets


class TeachingWidget:
    """A board to play and learn on, with buttons: roll, set the dice, play, hint, undo.

    Parameters
    ----------
    board : TeachingBoard, optional
        The game to show; by default a new one against ``opponent``.
    opponent : str or None
        ``'pubeval'``, ``'random'`` or ``None`` (two people) for a new board.
    variant : str or Variant
        The variant of a new board.
    seed : int, optional
        Seeds the dice (and the lessons' games).
    delay : float
        Seconds the board stays on screen before each of the opponent's turns.
    size : float
        Width of the board in pixels.

    Attributes
    ----------
    board : TeachingBoard
        The model; every callback acts on it and calls :meth:`refresh`.
    board_view, dice_view, message_view : ipywidgets.HTML
    log_view : ipywidgets.Textarea
    roll_button, set_dice_button, play_button, play_choice_button, hint_button,
    undo_button, new_game_button : ipywidgets.Button
    die1, die2, plays_dropdown, opponent_select, lesson_select : ipywidgets.Dropdown
    play_text : ipywidgets.Text
    layout : ipywidgets.VBox
        What Jupyter shows.

    >>> widget = TeachingWidget(opponent=None, seed=2, delay=0)
    >>> widget.die1.value, widget.die2.value = 3, 1
    >>> widget.on_set_dice()
    >>> widget.play_text.value = "8/5 6/5"
    >>> widget.on_play_text()
    >>> widget.board.log[-1]
    '1. Player 1 3-1: 8/5 6/5'
    """

    def __init__(
        self,
        board: TeachingBoard | None = None,
        *,
        opponent: str | Policy | None = "pubeval",
        variant: str | Variant = "standard",
        seed: int | None = None,
        delay: float = 0.4,
        size: float = 480,
    ) -> None:
        w = _ipywidgets()
        self._seed = seed
        self.delay = delay
        self.size = size
        self.board = (
            board
            if board is not None
            else TeachingBoard(opponent, variant=variant, seed=seed, auto_reply=False)
        )
        self.board.auto_reply = False  # the widget lets the opponent move one turn at a time
        self._preview: Play | int | None = None
        self._updating = False

        self.board_view = w.HTML()
        self.dice_view = w.HTML()
        self.message_view = w.HTML()
        self.log_view = w.Textarea(
            disabled=True, description="Moves", layout=w.Layout(width="100%", height="9em")
        )
        self.roll_button = w.Button(
            description="Roll", button_style="primary", tooltip="Roll the dice"
        )
        self.die1 = w.Dropdown(
            options=list(range(1, 7)), value=6, description="Dice", layout=w.Layout(width="9em")
        )
        self.die2 = w.Dropdown(options=list(range(1, 7)), value=5, layout=w.Layout(width="4em"))
        self.set_dice_button = w.Button(
            description="Set dice", tooltip="Use these dice instead of rolling"
        )
        self.play_text = w.Text(
            placeholder="e.g. 24/18 13/11*", description="Play", layout=w.Layout(width="20em")
        )
        self.play_button = w.Button(
            description="Play", button_style="success", tooltip="Play the move typed in"
        )
        self.plays_dropdown = w.Dropdown(
            options=[], description="Legal", layout=w.Layout(width="20em")
        )
        self.play_choice_button = w.Button(
            description="Play selected", tooltip="Play the legal play chosen in the list"
        )
        self.hint_button = w.Button(description="Hint", icon="lightbulb-o")
        self.undo_button = w.Button(
            description="Undo", icon="undo", tooltip="Take back your last play and the reply"
        )
        self.new_game_button = w.Button(description="New game", icon="refresh")
        label = self._opponent_label()
        self.opponent_select = w.Dropdown(
            options=list(OPPONENTS) + ([label] if label not in OPPONENTS else []),
            value=label,
            description="Opponent",
        )
        self.lesson_select = w.Dropdown(
            options=[("free game", FREE_GAME)]
            + [(f"{rule} {item.title}", rule) for rule, item in LESSONS.items()],
            value=self.board.lesson.rule if self.board.lesson else FREE_GAME,
            description="Lesson",
        )

        self.roll_button.on_click(self.on_roll)
        self.set_dice_button.on_click(self.on_set_dice)
        self.play_button.on_click(self.on_play_text)
        self.play_choice_button.on_click(self.on_play_choice)
        self.hint_button.on_click(self.on_hint)
        self.undo_button.on_click(self.on_undo)
        self.new_game_button.on_click(self.on_new_game)
        self.plays_dropdown.observe(self.on_select_play, names="value")
        self.opponent_select.observe(self.on_opponent, names="value")
        self.lesson_select.observe(self.on_lesson, names="value")

        self.layout = w.VBox(
            [
                w.HBox([self.opponent_select, self.lesson_select, self.new_game_button]),
                self.board_view,
                w.HBox(
                    [self.dice_view, self.roll_button, self.die1, self.die2, self.set_dice_button]
                ),
                w.HBox([self.play_text, self.play_button]),
                w.HBox([self.plays_dropdown, self.play_choice_button]),
                w.HBox([self.hint_button, self.undo_button]),
                self.message_view,
                self.log_view,
            ]
        )
        self.refresh()
        self._advance()

    # -- callbacks: each calls the model, then draws ------------------------------------------

    def on_roll(self, _: object = None) -> None:
        """The Roll button."""
        self._act(self.board.roll)

    def on_set_dice(self, _: object = None) -> None:
        """The Set dice button: the dice chosen in the two lists."""
        self._act(lambda: self.board.set_dice((self.die1.value, self.die2.value)))
        self._advance()

    def on_play_text(self, _: object = None) -> None:
        """The Play button: the play typed in the text box."""
        if self._act(lambda: self.board.play(self.play_text.value, reply=False)):
            self.play_text.value = ""
            self._advance()

    def on_play_choice(self, _: object = None) -> None:
        """The Play selected button: the legal play chosen in the list."""
        index = self.plays_dropdown.value
        if index is None:
            self._show_error("choose a play in the list first")
            return
        if self._act(lambda: self.board.play(index, reply=False)):
            self._advance()

    def on_hint(self, _: object = None) -> None:
        """The Hint button: the legal plays, best first, and the best drawn as arrows."""
        try:
            hint = self.board.hint()
        except GammonlabError as exc:
            self._show_error(str(exc))
            return
        self._preview = hint.best
        shown = [play.notation for play in hint.choices[:SHOWN_HINTS]]
        more = (hint.count or len(hint.choices)) - len(shown)
        lines = ", ".join(text or "no move" for text in shown)
        self.refresh(extra=f"{lines}{f', ... ({more} more)' if more > 0 else ''}")

    def on_undo(self, _: object = None) -> None:
        """The Undo button."""
        self._act(self.board.undo)

    def on_new_game(self, _: object = None) -> None:
        """The New game button: a game from the opening roll, leaving any lesson."""
        self._updating = True
        try:
            self.lesson_select.value = FREE_GAME
        finally:
            self._updating = False
        self._act(lambda: self.board.new_game(reply=False))
        self._advance()

    def on_opponent(self, change: dict[str, Any] | None = None) -> None:
        """The opponent selector."""
        label = self.opponent_select.value if change is None else change["new"]
        self._act(lambda: setattr(self.board, "opponent", None if label == TWO_PLAYERS else label))
        self._advance()

    def on_lesson(self, change: dict[str, Any] | None = None) -> None:
        """The lesson selector: load a rule's lesson position (or start a free game)."""
        if self._updating:
            return
        rule = self.lesson_select.value if change is None else change["new"]
        if rule == FREE_GAME:
            self.on_new_game()
            return
        board = TeachingBoard.from_scenario(
            rule,
            opponent=self.board.opponent,
            seed=self._seed,
            auto_reply=False,
            user=self.board.user,
        )
        self.board = board
        self._preview = None
        self.refresh()

    def on_select_play(self, change: dict[str, Any] | None = None) -> None:
        """Choosing a play in the list draws it as arrows, without playing it."""
        if self._updating:
            return
        index = self.plays_dropdown.value if change is None else change["new"]
        self._preview = index
        self.refresh()

    # -- drawing ------------------------------------------------------------------------------

    def refresh(self, *, extra: str = "") -> None:
        """Draw the board, the dice, the message, the legal plays and the log again."""
        board = self.board
        awaiting = board.awaiting
        preview = self._preview if awaiting == "play" else None
        try:
            self.board_view.value = str(board.board_svg(preview=preview, size=self.size))
        except GammonlabError:
            self._preview = None
            self.board_view.value = str(board.board_svg(size=self.size))
        self.dice_view.value = self._dice_html()
        self.message_view.value = self._message_html(extra)
        self.log_view.value = "\n".join(board.log)
        self._updating = True
        try:
            options = []
            if awaiting == "play":
                # an Acey-Deucey 1-2 (R11.2) may have a hundred thousand plays: list
                # the first ones; any other can be typed
                plays = board.legal_plays
                if len(plays) == 0:
                    options = [("no move", 0)]
                else:
                    options = [(plays[i].notation, i) for i in range(min(len(plays), LISTED_PLAYS))]
            if list(self.plays_dropdown.options) != options:
                self.plays_dropdown.options = options
                self.plays_dropdown.value = None
        finally:
            self._updating = False
        self.roll_button.disabled = awaiting != "roll"
        self.set_dice_button.disabled = awaiting == "over"
        for button in (self.play_button, self.play_choice_button, self.hint_button):
            button.disabled = awaiting != "play"
        self.undo_button.disabled = not board.can_undo

    def _dice_html(self) -> str:
        board = self.board
        dice = board.dice
        name = html.escape(board.names[board.on_roll])
        if board.awaiting == "over":
            return "<b>game over</b>"
        if dice is None:
            return f"<span class='gammonlab-dice'>{name} to roll</span>"
        faces = " ".join(DIE_FACES[d - 1] for d in dice)
        return (
            f"<span class='gammonlab-dice' style='font-size:1.8em'>{faces}</span> "
            f"<span>{name}: {max(dice)}-{min(dice)}</span>"
        )

    def _message_html(self, extra: str = "") -> str:
        board = self.board
        text = html.escape(board.message)
        if board.refusal is not None:
            rule = html.escape(board.refusal.rule or "")
            text = f"<div style='color:#B00020'><b>Illegal ({rule}).</b> {text}</div>"
        else:
            text = f"<div>{text}</div>"
        if extra:
            text += f"<div>{html.escape(extra)}</div>"
        return text

    def _show_error(self, message: str) -> None:
        self.refresh()
        self.message_view.value = f"<div style='color:#B00020'>{html.escape(message)}</div>"

    # -- helpers ------------------------------------------------------------------------------

    def _act(self, action: Any) -> bool:
        """Call the model; show its refusal or error instead of raising."""
        self._preview = None
        try:
            action()
        except GammonlabError as exc:
            if isinstance(exc, IllegalPlayError) and self.board.refusal is not None:
                self.refresh()
            else:
                self._show_error(str(exc))
            return False
        self.refresh()
        return True

    def _advance(self) -> None:
        """Let the opponent policy play, drawing the board after each of its turns."""
        while self.board.awaiting == "opponent":
            if self.delay:
                time.sleep(self.delay)  # the board as it stands stays on screen a moment
            self.board.step()
            self.refresh()

    def _opponent_label(self) -> str:
        policy = self.board.opponent
        return TWO_PLAYERS if policy is None else policy.name

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.layout._repr_mimebundle_(**kwargs)


def teach(
    opponent: str | Policy | None = "pubeval",
    *,
    lesson: str | None = None,
    variant: str | Variant = "standard",
    seed: int | None = None,
    delay: float = 0.4,
    size: float = 480,
) -> TeachingWidget:
    """A teaching board to play in Jupyter, optionally opened on a rule's lesson.

    >>> widget = teach(lesson="R6.4", seed=1, delay=0)
    >>> widget.board.dice
    (6, 4)
    >>> widget.play_text.value = "bar/19"
    >>> widget.on_play_text()
    >>> "R6.4" in widget.message_view.value
    True
    """
    if lesson is not None:
        board = TeachingBoard.from_scenario(lesson, opponent=opponent, seed=seed, auto_reply=False)
        return TeachingWidget(board, seed=seed, delay=delay, size=size)
    return TeachingWidget(opponent=opponent, variant=variant, seed=seed, delay=delay, size=size)
