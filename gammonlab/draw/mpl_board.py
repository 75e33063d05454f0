"""The board drawn with matplotlib, for PNG and PDF reports.

:func:`plot_board` draws the same diagram as :func:`gammonlab.draw.svg.board`, in the
same colours, as matplotlib patches on an Axes. Each artist's ``gid`` says what
it is: ``"checker player-0 point=13"`` for a checker (``point`` in its owner's
numbering, 25 the bar, 0 off), ``"triangle point=5"``, ``"cube"`` and so on.

>>> import matplotlib.pyplot as plt
>>> from gammonlab import Position
>>> fig, ax = plt.subplots()
>>> plot_board(Position.initial(), ax=ax) is ax
True
>>> sum(p.get_gid().startswith("checker") for p in ax.patches)
30
>>> plt.close(fig)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from matplotlib import patches
from matplotlib.path import Path

from ..errors import ArgumentTypeError
from .shapes import Circle, Curve, Diagram, Group, Polygon, Rect, Shape, Text
from .style import MATPLOTLIB_FONT
from .svg import BoardOptions, layout_board

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .svg import Drawable

__all__ = ["plot_board"]

POINTS_PER_INCH = 72.0
_ALIGN = {"start": "left", "middle": "center", "end": "right"}


def plot_board(data: Drawable, *, ax: Axes | None = None, **kwargs: Any) -> Axes:
    """Draw a board on a matplotlib Axes: a position, a play (with arrows), a game state
    or an action of a match (with the players' names).

    The options are those of :func:`gammonlab.draw.svg.board`. Text and line widths
    are sized for the Axes as it is when called; the board keeps its proportions
    (equal aspect) and the Axes' frame and ticks are hidden.

    Parameters
    ----------
    data : Position, Play, GameState or Action
    ax : matplotlib Axes, optional
        Where to draw; the current Axes by default.
    **kwargs
        The options above (:class:`~gammonlab.draw.svg.BoardOptions`); the others
        are artist properties (``rasterized=True``, ``clip_on=False``, ...) set on
        every patch and text the board is drawn with
        (:meth:`matplotlib.artist.Artist.set`).

    Other Parameters
    ----------------
    flip, numbering, pips, cube, dice, score, arrows, highlight, colors, player, names : see board
        Keyword only; as for :func:`gammonlab.draw.svg.board`.

    Returns
    -------
    matplotlib Axes

    >>> import matplotlib.pyplot as plt
    >>> from gammonlab import GameState
    >>> fig, ax = plt.subplots(figsize=(6, 5))
    >>> ax = plot_board(GameState.initial().replace(dice=(6, 5)), ax=ax, flip=True)
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "point-number point=1"]
    ['1']
    >>> plt.close(fig)
    """
    if ax is None:
        import matplotlib.pyplot as plt

        ax = plt.gca()
    options = {name: kwargs.pop(name) for name in BoardOptions.__annotations__ if name in kwargs}
    diagram = layout_board(data, **options)
    scale = _points_per_unit(ax, diagram)
    order = [0]
    for shape in diagram.shapes:
        _draw(ax, shape, scale, order, kwargs)
    ax.set_xlim(0, diagram.width)
    ax.set_ylim(diagram.height, 0)  # the diagram's y axis points down
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax


def _points_per_unit(ax: Axes, diagram: Diagram) -> float:
    """Typographic points per diagram unit, with the board fitted into the Axes."""
    fig = ax.get_figure()
    box = ax.get_position()
    width_in = box.width * fig.get_figwidth()  # type: ignore[union-attr]
    height_in = box.height * fig.get_figheight()  # type: ignore[union-attr]
    return POINTS_PER_INCH * min(width_in / diagram.width, height_in / diagram.height)


def _gid(shape: Shape) -> str:
    return " ".join([shape.cls, *(f"{key}={value}" for key, value in shape.data)]).strip()


def _draw(
    ax: Axes, shape: Shape, scale: float, order: list[int], properties: Mapping[str, Any]
) -> None:
    if isinstance(shape, Group):
        for child in shape.children:
            _draw(ax, child, scale, order, properties)
        return
    order[0] += 1
    zorder = 1 + order[0] * 1e-4  # back to front, as listed
    if isinstance(shape, Text):
        text = ax.text(
            shape.x,
            shape.y,
            shape.text,
            fontsize=shape.size * scale,
            ha=_ALIGN[shape.anchor],
            va="baseline",
            color=shape.fill,
            fontweight="bold" if shape.bold else "normal",
            family=MATPLOTLIB_FONT,
            alpha=shape.opacity,
            zorder=zorder,
            gid=_gid(shape),
        )
        if properties:
            text.set(**properties)
        return
    paint: dict[str, Any] = {
        "facecolor": shape.fill if shape.fill else "none",
        "edgecolor": shape.stroke if shape.stroke else "none",
        "linewidth": shape.stroke_width * scale if shape.stroke else 0.0,
        "alpha": shape.opacity,
        "zorder": zorder,
    }
    artist: patches.Patch
    if isinstance(shape, Rect):
        artist = patches.FancyBboxPatch(
            (shape.x, shape.y),
            shape.width,
            shape.height,
            boxstyle=patches.BoxStyle("Round", pad=0.0, rounding_size=shape.radius)
            if shape.radius
            else patches.BoxStyle("Square", pad=0.0),
            **paint,
        )
    elif isinstance(shape, Circle):
        artist = patches.Circle((shape.cx, shape.cy), shape.r, **paint)
    elif isinstance(shape, Polygon):
        artist = patches.Polygon(shape.points, closed=True, joinstyle="miter", **paint)
    elif isinstance(shape, Curve):
        vertices = [shape.start]
        codes = [Path.MOVETO]
        for control, end in shape.segments:
            vertices += [control, end]
            codes += [Path.CURVE3, Path.CURVE3]
        paint["facecolor"] = "none"
        artist = patches.PathPatch(Path(vertices, codes), capstyle="round", **paint)
    else:  # pragma: no cover - every shape kind is handled above
        raise ArgumentTypeError(f"cannot draw {type(shape).__name__}")
    artist.set_gid(_gid(shape))
    if properties:
        artist.set(**properties)
    ax.add_patch(artist)
