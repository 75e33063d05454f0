"""The teaching board in Jupyter, on ipywidgets, played by clicking on the board.

:class:`TeachingWidget` is a thin shell over :class:`~gammonlab.teaching.TeachingBoard`:
every button and every click calls the model and draws the board again; all the rules
live in :mod:`gammonlab.teaching`. The board itself is a small front-end of its own
(``BoardView``, on anywidget, the JavaScript in ``front/``): it shows the SVG
board, fitted to the width of the page, and sends each click on a point, or a checker
dragged from one point to another, to Python, which answers with the points to light
up, the move made or the rule that refuses it. Without anywidget the board is a
picture, played by typing or from the list. ipywidgets and anywidget are the
notebook extra (``pip install -e ".[notebook]"`` in a gammonlab checkout).

>>> widget = teach(opponent="pubeval", seed=1, delay=0)
>>> widget.board.awaiting in ("roll", "play")
True
>>> "<svg" in widget.board_view.value
True
"""

from __future__ import annotations

import html
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import GammonlabError, IllegalPlayError, MissingDependencyError
from ..rules import BAR, OFF
from .board import LESSONS, TeachingBoard

if TYPE_CHECKING:
    from ..evaluators.base import Policy
    from ..play import Play
    from ..rules import Variant

__all__ = ["OPPONENTS", "TeachingWidget", "board_view_class", "log_view_class", "teach"]

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
FRONT = Path(__file__).with_name("front")
"""The board's front-end: plain ES modules and a style sheet, no build step."""
ENTERING = 26
"""A checker waiting off the board to enter (Acey-Deucey, R11.1), in the mover's numbering."""


def _ipywidgets() -> Any:
    try:
        import ipywidgets
    except ImportError as exc:
        raise MissingDependencyError(
            'the teaching widget needs ipywidgets: pip install -e ".[notebook]" in a gammonlab '
            "checkout (or: pip install ipywidgets)"
        ) from exc
    return ipywidgets


def _front_end(name: str, script: str, doc: str, **traits: Any) -> type | None:
    """An anywidget class showing ``value`` with the module ``front/script``, the board's
    style sheet, and ``max_width`` (CSS) besides ``traits``; ``None`` without anywidget."""
    try:
        import anywidget
        import traitlets
    except ImportError:
        return None
    namespace = {
        "__module__": __name__,
        "__doc__": doc,
        "_esm": FRONT / script,
        "_css": FRONT / "board.css",
        "value": traitlets.Unicode("").tag(sync=True),
        "max_width": traitlets.Unicode("600px").tag(sync=True),
        **{trait: make(traitlets).tag(sync=True) for trait, make in traits.items()},
    }
    return type(name, (anywidget.AnyWidget,), namespace)


@cache
def board_view_class() -> type | None:
    """The clickable board's widget class (``BoardView``), ``None`` without anywidget.

    Its traits: ``value`` (the SVG), ``movable``, ``targets`` (points as the board
    shows them, 25 the bar, 0 the tray) and ``selected`` (-1 for none), ``max_width``
    (CSS). The page sends ``{"kind": "click", "point": p}`` and
    ``{"kind": "move", "source": p, "target": q}``.
    """
    return _front_end(
        "BoardView",
        "board.js",
        "The board as the page shows it: a picture that reports clicks.",
        movable=lambda t: t.List(t.Int()),
        targets=lambda t: t.List(t.Int()),
        selected=lambda t: t.Int(-1),
    )


@cache
def log_view_class() -> type | None:
    """The moves log's widget class, scrolled to the newest turn; ``None`` without anywidget.

    Its ``value`` is the log, one turn a line, as :attr:`TeachingBoard.log` gives it.
    """
    return _front_end("LogView", "log.js", "The moves of the game, newest last, in view.")


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
        Largest width of the board in pixels; it shrinks to fit a narrower page.
    clickable : bool
        Play by clicking on the board (needs anywidget); otherwise the board is a
        picture.

    Attributes
    ----------
    board : TeachingBoard
        The model; every callback acts on it and calls :meth:`refresh`.
    board_view : BoardView (ipywidgets.HTML without anywidget)
        The board; its ``value`` is the SVG.
    dice_view, message_view : ipywidgets.HTML
    log_view : LogView (ipywidgets.Textarea without anywidget)
        The moves, one turn a line, in its ``value``.
    selected : int or None
        The point (mover's numbering) of the checker chosen by a click.
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

    The clicks of the page, as the board shows the points: Player 0 is at the
    bottom, so Player 0's 13-point is shown as 13.

    >>> widget.die1.value, widget.die2.value = 6, 5
    >>> widget.on_set_dice()
    >>> widget.on_point(13)
    >>> widget.board.targets(13)
    [2, 7, 8]
    >>> widget.on_point(7)
    >>> widget.board.partial_notation
    '13/7'
    """

    def __init__(
        self,
        board: TeachingBoard | None = None,
        *,
        opponent: str | Policy | None = "pubeval",
        variant: str | Variant = "standard",
        seed: int | None = None,
        delay: float = 0.4,
        size: float = 600,
        clickable: bool = True,
    ) -> None:
        w = _ipywidgets()
        self._seeds = np.random.default_rng(seed)  # one fresh seed for each lesson's game
        self._seeded = seed is not None
        self.delay = delay
        self.size = size
        self.selected: int | None = None
        self.board = (
            board
            if board is not None
            else TeachingBoard(opponent, variant=variant, seed=seed, auto_reply=False)
        )
        self.board.auto_reply = False  # the widget lets the opponent move one turn at a time
        self._preview: Play | int | None = None
        self._updating = False

        width = f"{size:g}px"
        board_view, log_view = board_view_class(), log_view_class()
        self.clickable = clickable and board_view is not None
        if self.clickable and board_view is not None:
            self.board_view = board_view(max_width=width, layout=w.Layout(width="100%"))
            self.board_view.on_msg(self._on_page_message)
        else:
            self.board_view = w.HTML(layout=w.Layout(width="100%", max_width=width))
        self.dice_view = w.HTML()
        self.message_view = w.HTML(layout=w.Layout(max_width=width))
        if log_view is not None:
            self.log_view = log_view(max_width=width, layout=w.Layout(width="100%"))
        else:
            self.log_view = w.Textarea(
                disabled=True,
                description="Moves",
                layout=w.Layout(width="100%", max_width=width, height="9em"),
            )
        self.roll_button = w.Button(
            description="Roll", button_style="primary", tooltip="Roll the dice"
        )
        # the label takes its own width, the list keeps room for its number and arrow
        self.die1 = w.Dropdown(
            options=list(range(1, 7)),
            value=6,
            description="Dice",
            style={"description_width": "3em"},
            layout=w.Layout(width="8em"),
        )
        self.die2 = w.Dropdown(options=list(range(1, 7)), value=5, layout=w.Layout(width="5em"))
        self.set_dice_button = w.Button(
            description="Set dice", tooltip="Use these dice instead of rolling"
        )
        self.play_text = w.Text(
            placeholder="e.g. 24/18 13/11*",
            description="Play",
            layout=w.Layout(width="20em", max_width="100%"),
        )
        self.play_button = w.Button(
            description="Play",
            button_style="success",
            tooltip="Play the move typed in, or the moves made on the board (Enter)",
        )
        self.plays_dropdown = w.Dropdown(
            options=[], description="Legal", layout=w.Layout(width="20em", max_width="100%")
        )
        self.play_choice_button = w.Button(
            description="Play selected", tooltip="Play the legal play chosen in the list"
        )
        self.hint_button = w.Button(description="Hint", icon="lightbulb-o")
        self.undo_button = w.Button(
            description="Undo",
            icon="undo",
            tooltip="Take back the last move on the board, or your last play and the reply",
        )
        self.new_game_button = w.Button(description="New game", icon="refresh")
        label = self._opponent_label()
        self.opponent_select = w.Dropdown(
            options=list(OPPONENTS) + ([label] if label not in OPPONENTS else []),
            value=label,
            description="Opponent",
            layout=w.Layout(max_width="100%"),
        )
        self.lesson_select = w.Dropdown(
            options=[("free game", FREE_GAME)]
            + [(f"{rule} {item.title}", rule) for rule, item in LESSONS.items()],
            value=self.board.lesson.rule if self.board.lesson else FREE_GAME,
            description="Lesson",
            layout=w.Layout(max_width="100%"),
        )

        self.roll_button.on_click(self.on_roll)
        self.set_dice_button.on_click(self.on_set_dice)
        self.play_button.on_click(self.on_play_text)
        self.play_text.on_msg(self._on_text_message)  # Enter in the box plays
        self.play_choice_button.on_click(self.on_play_choice)
        self.hint_button.on_click(self.on_hint)
        self.undo_button.on_click(self.on_undo)
        self.new_game_button.on_click(self.on_new_game)
        self.plays_dropdown.observe(self.on_select_play, names="value")
        self.opponent_select.observe(self.on_opponent, names="value")
        self.lesson_select.observe(self.on_lesson, names="value")

        def row(*items: Any) -> Any:
            return w.HBox(list(items), layout=w.Layout(flex_flow="row wrap", max_width="100%"))

        self.layout = w.VBox(
            [
                row(self.opponent_select, self.lesson_select, self.new_game_button),
                self.board_view,
                row(self.dice_view, self.roll_button, self.die1, self.die2, self.set_dice_button),
                row(self.play_text, self.play_button),
                row(self.plays_dropdown, self.play_choice_button),
                row(self.hint_button, self.undo_button),
                self.message_view,
                self.log_view,
            ],
            layout=w.Layout(width="100%", max_width=width),
        )
        self.refresh()
        self._advance()

    # -- callbacks: each calls the model, then draws ------------------------------------------

    def on_roll(self, _: object = None) -> None:
        """The Roll button."""
        if self.board.awaiting != "roll":
            return  # a second click: the message says what happened
        self._act(self.board.roll)

    def on_set_dice(self, _: object = None) -> None:
        """The Set dice button: the dice chosen in the two lists."""
        self._act(lambda: self.board.set_dice((self.die1.value, self.die2.value)))
        self._advance()

    def on_play_text(self, _: object = None) -> None:
        """The Play button, or Enter in the text box: the play typed in, or else the
        moves made on the board."""
        board = self.board
        if board.awaiting != "play":
            return  # a second click while the opponent's reply is shown: keep it
        text = self.play_text.value
        if not text.strip() and board.partial:
            action = lambda: board.send(reply=False)  # noqa: E731
        else:
            action = lambda: board.play(text, reply=False)  # noqa: E731
        if self._act(action):
            self.play_text.value = ""
            self._advance()

    def _on_text_message(self, _: object, content: dict[str, Any], buffers: object) -> None:
        if content.get("event") == "submit":
            self.on_play_text()

    def on_play_choice(self, _: object = None) -> None:
        """The Play selected button: the legal play chosen in the list."""
        if self.board.awaiting != "play":
            return
        index = self.plays_dropdown.value
        if index is None:
            self._show_error("choose a play in the list first")
            return
        if self._act(lambda: self.board.play(index, reply=False)):
            self._advance()

    def on_hint(self, _: object = None) -> None:
        """The Hint button: the legal plays, best first; the best is chosen in the list
        and drawn as arrows."""
        if self.board.awaiting != "play":
            return
        try:
            hint = self.board.hint()
        except GammonlabError as exc:
            self._show_error(str(exc))
            return
        self.selected = None
        self.board.take_back_all()
        self._preview = hint.best
        shown = [play.notation for play in hint.choices[:SHOWN_HINTS]]
        more = (hint.count or len(hint.choices)) - len(shown)
        lines = ", ".join(text or "no move" for text in shown)
        self.refresh(extra=f"{lines}{f', ... ({more} more)' if more > 0 else ''}")
        if hint.best is not None:
            best = self._listed_index(hint.best)
            if best is not None:
                self._updating = True
                try:
                    self.plays_dropdown.value = best
                finally:
                    self._updating = False

    def _listed_index(self, play: Play) -> int | None:
        """Where ``play`` is in the list of legal plays, ``None`` when not listed."""
        plays = self.board.legal_plays
        for i in range(min(len(plays), LISTED_PLAYS)):
            if plays[i] == play:
                return i
        return None

    def on_undo(self, _: object = None) -> None:
        """The Undo button: the last move on the board, or else the last play."""
        self.selected = None
        if self.board.partial:
            self._act(self.board.take_back)
        else:
            self._act(self.board.undo)

    # -- clicks on the board ------------------------------------------------------------------

    def on_point(self, shown: int) -> None:
        """A click on a point, as the board shows it (25 the bar, 0 the tray).

        On a checker that may move: choose it, and light up where it may go. On one
        of those points: move it there. Anywhere else: the move is refused, citing
        the rule. A second click on the chosen checker lets it go.
        """
        board = self.board
        if board.awaiting != "play":
            return
        point = self._point(shown, source=self.selected is None)
        if self.selected is None:
            if point in board.movable():
                self.selected = point
                self.refresh()
            else:
                self._move(point, self._guess_target(point))
            return
        if point == self.selected:
            self.selected = None
            self.refresh()
            return
        if point not in board.targets(self.selected):
            source = self._point(shown, source=True)
            if source in board.movable():
                self.selected = source  # another checker chosen instead
                self.refresh()
                return
        self._move(self.selected, point)

    def on_drag(self, source_shown: int, target_shown: int) -> None:
        """A checker dragged from one point to another, as the board shows them."""
        if self.board.awaiting != "play":
            return
        self._move(self._point(source_shown, source=True), self._point(target_shown))

    def _move(self, source: int, target: int) -> None:
        self.selected = None
        self._preview = None
        board = self.board
        played: list[bool] = []

        def move() -> None:
            played.append(board.move(source, target, reply=False) is not None)

        if self._act(move) and played and played[0]:
            self._advance()

    def _guess_target(self, source: int) -> int:
        """A target to explain why a checker on ``source`` may not move: the largest
        die's point."""
        dice = self.board.dice_left or [1]
        return max(min(source, BAR) - max(dice), OFF)

    def _point(self, shown: int, *, source: bool = False) -> int:
        """A point as the board shows it, in the numbering of the side to play."""
        board = self.board
        shown = int(shown)
        if source and shown == OFF and board.position.waiting[0] > 0:
            return ENTERING  # the tray holds the checkers waiting to enter (R11.1)
        if board.on_roll == board.user or shown in (OFF, BAR):
            return shown
        return BAR - shown

    def _shown(self, point: int) -> int:
        board = self.board
        if point == ENTERING:
            return OFF
        if board.on_roll == board.user or point in (OFF, BAR):
            return point
        return BAR - point

    def _on_page_message(self, _: object, content: dict[str, Any], buffers: object) -> None:
        kind = content.get("kind")
        try:
            if kind == "click":
                self.on_point(int(content["point"]))
            elif kind == "move":
                self.on_drag(int(content["source"]), int(content["target"]))
        except (KeyError, TypeError, ValueError):
            return  # not a message of this board's page

    def on_new_game(self, _: object = None) -> None:
        """The New game button: a game from the opening roll, leaving any lesson."""
        self.selected = None
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
        # each lesson's game gets dice of its own: a game after it is no repeat
        seed = int(self._seeds.integers(2**32)) if self._seeded else None
        board = TeachingBoard.from_scenario(
            rule,
            opponent=self.board.opponent,
            seed=seed,
            auto_reply=False,
            user=self.board.user,
        )
        self.board = board
        self.selected = None
        self._preview = None
        self.refresh()

    def on_select_play(self, change: dict[str, Any] | None = None) -> None:
        """Choosing a play in the list draws it as arrows, without playing it."""
        if self._updating:
            return
        index = self.plays_dropdown.value if change is None else change["new"]
        self.selected = None
        self.board.take_back_all()
        self._preview = index
        self.refresh()

    # -- drawing ------------------------------------------------------------------------------

    def refresh(self, *, extra: str = "") -> None:
        """Draw the board, the dice, the message, the legal plays and the log again."""
        board = self.board
        awaiting = board.awaiting
        preview = self._preview if awaiting == "play" else None
        if awaiting != "play":
            self.selected = None
        targets = board.targets(self.selected) if self.selected is not None else []
        drawing: dict[str, Any] = {"size": None} if self.clickable else {"size": self.size}
        if self.clickable:
            drawing["hit_areas"] = True
            drawing["highlight"] = [self._shown(p) for p in targets]
        try:
            picture = board.board_svg(preview=preview, **drawing)
        except GammonlabError:
            self._preview = None
            picture = board.board_svg(**drawing)
        self.board_view.value = str(picture)
        if self.clickable:
            self.board_view.movable = [self._shown(p) for p in board.movable()]
            self.board_view.targets = [self._shown(p) for p in targets]
            shown = -1 if self.selected is None else self._shown(self.selected)
            self.board_view.selected = shown
        self.dice_view.value = self._dice_html()
        self.message_view.value = self._message_html(extra)
        self.log_view.value = "\n".join(board.log)
        self._updating = True
        try:
            if board.dice is not None:  # the lists show the dice rolled
                self.die1.value, self.die2.value = board.dice
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
        self.undo_button.disabled = not (board.can_undo or board.partial)

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
        if board.awaiting == "play" and self.clickable and not board.partial and not extra:
            text += (
                "<div style='color:#555'>Click a checker, then a lit point; "
                "or type the play and press Enter.</div>"
            )
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
    size: float = 600,
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
