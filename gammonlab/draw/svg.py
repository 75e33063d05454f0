"""SVG board diagrams for Jupyter, reports and the web.

:func:`board` draws a :class:`~gammonlab.Position`, a :class:`~gammonlab.Play`
(the position before it, with an arrow for each checker that moved and a ring
round each blot it hit), a :class:`~gammonlab.GameState` (with its cube,
dice, score and match length) or an action of a match (its state, its play as
arrows, and the players by name). The result is an :class:`SVG` string that
Jupyter displays as a picture. The sides are labelled by the names given
(``names=``) or that an action carries, else "On roll" and "Opponent", or
"Player 0" and "Player 1".

The drawing is first laid out as a :class:`Diagram` of plain shapes, which
:mod:`gammonlab.draw.mpl_board` also draws with matplotlib, so both look alike.

Every checker can be read back from the SVG: each occupied point, the bar and
the borne-off tray of a side is a group
``<g class="point|bar|off" data-side="0" data-player="0" data-point="13" data-count="7">``
(``data-side`` is the row of the position, 0 = the side on roll; ``data-point``
is in that side's own numbering, 25 the bar, 0 off; ``data-player`` the absolute
player, which picks the colour). Inside, one ``<circle class="checker ...">`` per
checker drawn (at most five on a point or the bar, with the full count written
on the top one as ``<text class="count">``), or one ``<rect class="checker ...">``
per borne-off checker.

>>> from gammonlab import Position
>>> picture = board(Position.initial())
>>> picture.startswith("<svg") and picture.count('class="checker player-0"')
15
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, TypedDict

from . import geometry as geo
from . import shapes
from .frame import Frame
from .geometry import MAX_STACK
from .pieces import (
    draw_cube,
    draw_dice,
    draw_frame,
    draw_highlights,
    draw_hit_areas,
    draw_lines,
    draw_moves,
    draw_numbers,
    draw_points,
    draw_side,
)
from .shapes import *  # noqa: F403 (re-exported: a board is made of these shapes)
from .shapes import DEFAULT_SIZE, SVG, Diagram, Shape, render_svg
from .style import board_colors
from .subject import Subject, checker_journeys, pip_count, subject_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from .subject import Drawable

__all__ = [
    "MAX_STACK",
    "BoardOptions",
    "beside",
    "board",
    "checker_journeys",
    "layout_board",
]
__all__ += shapes.__all__  # the shapes and their SVG text, which a board is made of


class BoardOptions(TypedDict, total=False):
    """The options of :func:`layout_board`, which :func:`board` and
    :func:`~gammonlab.draw.mpl_board.plot_board` take too (described under :func:`board`)."""

    flip: bool
    numbering: bool
    pips: bool
    cube: bool
    dice: bool
    score: bool
    arrows: Iterable[tuple[int, int]] | None
    highlight: Iterable[int] | None
    colors: Mapping[str, object] | None
    player: int | None
    names: Sequence[str] | None
    hit_areas: bool


def layout_board(
    item: Drawable,
    *,
    flip: bool = False,
    numbering: bool = True,
    pips: bool = True,
    cube: bool = True,
    dice: bool = True,
    score: bool = True,
    arrows: Iterable[tuple[int, int]] | None = None,
    highlight: Iterable[int] | None = None,
    colors: Mapping[str, object] | None = None,
    player: int | None = None,
    names: Sequence[str] | None = None,
    hit_areas: bool = False,
) -> Diagram:
    """Lay a board out as shapes; :func:`board` takes the same options.

    >>> from gammonlab import Position
    >>> diagram = layout_board(Position.initial())
    >>> round(diagram.width)
    482
    """
    subject, bottom_row = subject_of(item, player, names)
    palette = board_colors(colors)
    header = bool(subject.caption or (score and subject.match_line))
    frame = Frame(
        flip=flip,
        bottom_row=bottom_row,
        top=(geo.HEADER_HEIGHT if header else 0.0) + geo.BAND_HEIGHT,
    )
    height = frame.bottom + geo.BAND_HEIGHT
    moves = subject.moves if arrows is None else tuple((int(s), int(t)) for s, t in arrows)

    shapes: list[Shape] = []
    shapes += draw_frame(frame, height, palette)
    shapes += draw_points(frame, palette)
    if highlight:
        shapes += draw_highlights(frame, set(highlight), palette)
    if numbering:
        shapes += draw_numbers(frame, palette)
    for row in (0, 1):
        shapes += draw_side(frame, subject, row, palette)
    if cube and subject.cube_value is not None:
        shapes.append(draw_cube(frame, subject, palette))
    if dice and subject.dice is not None and not subject.cube_offered:
        shapes += draw_dice(frame, subject, palette)
    shapes += draw_moves(frame, subject, moves, palette)
    shapes += draw_lines(frame, subject, height, palette, header=header, pips=pips, score=score)
    if hit_areas:
        shapes += draw_hit_areas(frame)
    title = _title(subject)
    return Diagram(width=geo.WIDTH, height=height, shapes=tuple(shapes), title=title)


def _title(subject: Subject) -> str:
    pip = [pip_count(row, n) for row, n in zip(subject.board, subject.waiting)]
    text = f"Backgammon board: {subject.names[0]} {pip[0]} pips, {subject.names[1]} {pip[1]} pips"
    if subject.caption:
        text += f"; {subject.caption}"
    return text


def board(
    item: Drawable,
    *,
    size: float | None = DEFAULT_SIZE,
    **options: Unpack[BoardOptions],
) -> SVG:
    """Draw a board as SVG: a position, a play (with arrows), a game state or an action.

    Parameters
    ----------
    item : Position, Play, GameState or Action
        A :class:`~gammonlab.Play` is drawn as the position before it, with one
        arrow per checker that moved and a ring round every blot it hit, and its
        dice and notation. A :class:`~gammonlab.GameState` adds the cube, the dice
        rolled, the score and the match length. An action of a match
        (``match.actions[i]``) is drawn as its state, with its play's arrows and
        the players' names.
    size : float or None
        Width in pixels; the height follows. ``None`` lets the page decide.

    Other Parameters
    ----------------
    flip : bool
        Mirror left and right: the home boards on the left (R1.3).
    numbering : bool
        Write the point numbers on the frame.
    pips, cube, dice, score : bool
        Show pip counts, the doubling cube, the dice, the score and match line.
    arrows : iterable of (from, to), optional
        Moves of the side on roll to draw as arrows, in its numbering (25 the bar,
        0 off), as :attr:`Play.moves <gammonlab.Play.moves>` gives them; replaces a
        play's own arrows (``arrows=[]`` draws none).
    highlight : iterable of int, optional
        Points to tint, as the board numbers them (25 the bar, 0 the tray: those of
        the side on roll).
    colors : mapping, optional
        Colours to replace, by the names of :class:`gammonlab.draw.style.BoardColors`.
    player : {0, 1}, optional
        Draw the board from this player's side: at the bottom and numbered from
        it. For a GameState the absolute player (``player=state.bottom`` draws it
        as its XGID does); for a Position or a Play 0 is the side on roll, 1 its
        opponent. By default the side on roll.
    hit_areas : bool
        Add an invisible ``<rect class="hit-area" data-point="p">`` over each point
        (numbered as the board shows it), the bar (25) and the trays (0), on top of
        everything, for a page that maps clicks to points.
    names : pair of str, optional
        The players' names, to label the sides with: of player 0 and player 1
        for a GameState or an action (an action of a match carries them), of
        the side on roll and its opponent for a Position or a Play. Without
        names the sides are "Player 0" and "Player 1", or "On roll" and
        "Opponent".

    Returns
    -------
    SVG
        A ``str`` that Jupyter displays as a picture.

    >>> from gammonlab import GameState
    >>> svg = board(GameState.initial(match_length=7).replace(dice=(3, 1)), flip=True)
    >>> svg.count('class="die"'), 'data-owner="centre"' in svg
    (2, True)
    """
    return render_svg(layout_board(item, **options), size=size)


def beside(item: Drawable, html: str, *, size: int = 320) -> str:
    """HTML with a small board of ``item`` to the left of ``html``, for the
    ``_repr_html_`` of results about a position (rollouts, cube decisions, matches)."""
    picture = board(item, size=size)
    return (
        f'<div style="display:flex;gap:1.5em;align-items:flex-start">'
        f"<div>{picture}</div><div>{html}</div></div>"
    )
