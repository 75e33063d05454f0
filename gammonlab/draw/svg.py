"""SVG board diagrams for Jupyter, reports and the web.

:func:`board` draws a :class:`~gammonlab.Position`, a :class:`~gammonlab.Play`
(the position before it, with an arrow for each checker that moved and a ring
round each blot it hit) or a :class:`~gammonlab.GameState` (with its cube,
dice, score and match length). The result is an :class:`SVG` string that
Jupyter displays as a picture.

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

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, TypeGuard, cast
from xml.sax.saxutils import escape, quoteattr

from .._kernels.board import START as ENTERING
from ..errors import ArgumentError, ArgumentTypeError
from ..rules import BAR, OFF, POINTS
from .style import FONT_FAMILY, BoardColors, board_colors

if TYPE_CHECKING:
    from ..play import Play
    from ..position import Position
    from ..state import GameState

__all__ = [
    "DEFAULT_SIZE",
    "MAX_STACK",
    "SVG",
    "Circle",
    "Curve",
    "Diagram",
    "Group",
    "Polygon",
    "Rect",
    "Shape",
    "Text",
    "beside",
    "board",
    "checker_journeys",
    "layout_board",
    "render_svg",
]

DEFAULT_SIZE = 480
"""Default width of an SVG board in pixels (the height follows)."""
MAX_STACK = 5
"""Checkers drawn on one point or the bar; a taller stack has its count written on top."""

# -- geometry, in the diagram's own units (one unit = one pixel at DEFAULT_SIZE) -------------
CHECKER_RADIUS = 13.5
CHECKER_DIAMETER = 2 * CHECKER_RADIUS
POINT_WIDTH = 30.0
HALF_HEIGHT = MAX_STACK * CHECKER_DIAMETER + 6  # one row of points, rim to the middle gap
MIDDLE_GAP = 34.0  # between the tips of the two rows of points: room for the dice
POINT_LENGTH = HALF_HEIGHT - 16
FELT_HEIGHT = 2 * HALF_HEIGHT + MIDDLE_GAP
QUARTER_POINTS = 6
ROW_POINTS = 2 * QUARTER_POINTS  # points along one long side: 1-12 at the bottom, 13-24 on top
RIM_CLEARANCE = 1.0  # between the frame and the first checker of a point
BAR_CLEARANCE = 4.0  # between the middle of the bar and the first checker on it
HALF_WIDTH = QUARTER_POINTS * POINT_WIDTH
BAR_WIDTH = 30.0
RIM = 6.0  # the frame's outer edge
SIDE_WIDTH = 32.0  # the column of the borne-off trays, and the one of the cube opposite
FRAME_WIDTH = 8.0  # wood between a side column and the felt
BAND_HEIGHT = 38.0  # frame above and below the felt: a player's line and the point numbers
HEADER_HEIGHT = 16.0
WIDTH = 2 * (RIM + SIDE_WIDTH + FRAME_WIDTH + HALF_WIDTH) + BAR_WIDTH
TRAY_MARGIN = 3.0
TRAY_HEIGHT = HALF_HEIGHT + 2
BAR_INSET = 3.0  # the bar's strip is this much narrower than the gap between the halves
OFF_SLICE = 7.6  # height of a borne-off checker seen edge-on in its tray
OFF_SLICE_WIDTH = SIDE_WIDTH - 4 * TRAY_MARGIN + 2
OFF_LEVELS = 15  # a tray holds a side's 15 checkers
CUBE_SIZE = 28.0
DIE_SIZE = 26.0
DIE_GAP = 8.0
DIE_PIP_RADIUS = 2.6
DIE_PIP_OFFSET = 6.6
ARROW_HEAD_LENGTH = 11.0
ARROW_HEAD_HALF_WIDTH = 6.0
ARROW_BOW = 0.22  # how far an arrow bows towards the middle, as a share of its length
ARROW_MAX_BOW = 40.0
HIGHLIGHT_OPACITY = 0.7
WAITING_OPACITY = 0.45

# -- text sizes ---------------------------------------------------------------------------
POINT_NUMBER_SIZE = 10.0
PLAYER_LINE_SIZE = 11.5
HEADER_SIZE = 11.5
COUNT_SIZE = 13.0
TRAY_COUNT_SIZE = 10.0
CUBE_TEXT_SIZE = 14.0
TEXT_RAISE = 0.36  # a text's baseline sits this share of its size below its visual centre

CENTRED_CUBE_FACE = 64
"""A centred cube at stake 1 shows 64 (R9.1)."""

DIE_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}

XY = tuple[float, float]
Data = tuple[tuple[str, object], ...]


# -- shapes -------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Shape:
    """What every shape of a :class:`Diagram` has: paint and a machine-readable identity.

    ``cls`` becomes the SVG ``class`` (the matplotlib artist's ``gid``); ``data``
    pairs become ``data-*`` attributes.
    """

    cls: str = ""
    data: Data = ()
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    opacity: float = 1.0


@dataclass(frozen=True, kw_only=True)
class Rect(Shape):
    """A rectangle, its corners rounded by ``radius``."""

    x: float
    y: float
    width: float
    height: float
    radius: float = 0.0


@dataclass(frozen=True, kw_only=True)
class Circle(Shape):
    """A circle: a checker, a die's pip, a ring."""

    cx: float
    cy: float
    r: float


@dataclass(frozen=True, kw_only=True)
class Polygon(Shape):
    """A closed polygon: a point (triangle), an arrowhead."""

    points: tuple[XY, ...]


@dataclass(frozen=True, kw_only=True)
class Curve(Shape):
    """An open path of quadratic Bezier segments ``(control, end)`` from ``start``."""

    start: XY
    segments: tuple[tuple[XY, XY], ...]


@dataclass(frozen=True, kw_only=True)
class Text(Shape):
    """A line of text; ``y`` is its baseline, ``anchor`` one of start, middle, end."""

    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"
    bold: bool = False


@dataclass(frozen=True, kw_only=True)
class Group(Shape):
    """Shapes that belong together: the checkers of one point, a die, an arrow."""

    children: tuple[Shape, ...] = ()


@dataclass(frozen=True)
class Diagram:
    """A board laid out as shapes, ready for any renderer.

    Attributes
    ----------
    width, height : float
        The extent of the drawing, in units that are pixels at the default size.
    shapes : tuple of Shape
        Back to front.
    title : str
        A one-line description (the SVG's ``<title>``).
    """

    width: float
    height: float
    shapes: tuple[Shape, ...]
    title: str = ""


# -- the SVG string -----------------------------------------------------------------------


class SVG(str):
    """An SVG document that Jupyter shows as a picture.

    >>> SVG("<svg/>")._repr_svg_()
    '<svg/>'
    """

    def _repr_svg_(self) -> str:
        return str(self)


# -- what is drawn: a position, a play or a game state, reduced to the same facts ---------


@dataclass
class _Subject:
    board: list[list[int]]  # (2, 26); row 0 on roll
    players: tuple[int, int]  # absolute player (colour) of row 0 and row 1
    names: tuple[str, str]
    dice: tuple[int, int] | None = None
    cube_value: int | None = None  # None: no cube to draw
    cube_owner_row: int | None = None
    cube_offered: bool = False
    scores: tuple[int, int] | None = None  # by row
    match_line: str = ""
    caption: str = ""
    moves: tuple[tuple[int, int], ...] = ()
    waiting: tuple[int, int] = (0, 0)  # Acey-Deucey checkers not yet entered, by row


def _is_state(item: object) -> TypeGuard[GameState]:
    """Whether an item to draw is a game state. Drawing reads what an item shows and
    needs the board, not the rules objects, so this layer imports none of them."""
    return hasattr(item, "cube_value") and hasattr(item, "position")


def _is_play(item: object) -> TypeGuard[Play]:
    return hasattr(item, "before") and hasattr(item, "moves")


def _is_position(item: object) -> TypeGuard[Position]:
    return hasattr(item, "board") and hasattr(item, "variant")


def _subject(item: Position | GameState | Play, player: int | None) -> tuple[_Subject, int]:
    """The facts to draw, and the row drawn at the bottom and numbered."""
    subject, bottom = _facts(item, player)
    pos: Position = (
        item.position
        if _is_state(item)
        else item.before
        if _is_play(item)
        else cast("Position", item)
    )
    if pos.variant.enter_from_off:
        # R2.4: the checkers a side has not entered yet are on no point of the board
        subject.waiting = tuple(  # type: ignore[assignment]
            pos.variant.checkers - sum(row) for row in subject.board
        )
    return subject, bottom


def _facts(item: Position | GameState | Play, player: int | None) -> tuple[_Subject, int]:
    if _is_state(item):
        on_roll = item.on_roll
        rows = (on_roll, 1 - on_roll)
        names = tuple(
            f"Player {p}" + (" \u00b7 on roll" if r == 0 else "") for r, p in enumerate(rows)
        )
        owner_row = None if item.cube_owner is None else rows.index(item.cube_owner)
        if item.money:
            match_line = "money game" + (" \u00b7 Jacoby" if item.jacoby else "")
        else:
            match_line = f"{item.match_length}-point match" + (
                " \u00b7 Crawford game" if item.crawford else ""
            )
        if item.double_offered:
            match_line += f" \u00b7 Player {on_roll} doubles to {2 * item.cube_value}"
        subject = _Subject(
            board=item.position.board.tolist(),
            players=rows,  # type: ignore[arg-type]
            names=names,  # type: ignore[arg-type]
            dice=item.dice,
            cube_value=item.cube_value,
            cube_owner_row=owner_row,
            cube_offered=item.double_offered,
            scores=None if item.money else (item.score[rows[0]], item.score[rows[1]]),
            match_line=match_line,
        )
        bottom = 0 if player is None else rows.index(_check_player(player))
        return subject, bottom
    if _is_play(item):
        d1, d2 = item.dice
        subject = _Subject(
            board=item.before.board.tolist(),
            players=(0, 1),
            names=("On roll", "Opponent"),
            dice=item.dice,
            cube_value=None,  # a play knows no cube: draw none rather than a guess
            caption=f"{d1}-{d2}: {item.notation or 'no legal move'}",
            moves=item.moves,
        )
    elif _is_position(item):
        subject = _Subject(
            board=item.board.tolist(), players=(0, 1), names=("On roll", "Opponent")
        )  # a position knows no cube
    else:
        raise ArgumentTypeError(
            f"board() draws a Position, a Play or a GameState, not {type(item).__name__}"
        )
    return subject, 0 if player is None else _check_player(player)


def _check_player(player: int) -> int:
    if player not in (0, 1):
        raise ArgumentError(f"player must be 0 or 1, got {player!r}")
    return int(player)


# -- journeys -------------------------------------------------------------------------------


def checker_journeys(moves: Play | Iterable[tuple[int, int]]) -> list[tuple[int, ...]]:
    """The path of each checker that moved: consecutive moves of one checker joined.

    Follows the play's notation: ``24/18 18/13`` is one checker's ``24/13``, and
    ``8/5(2) 5/2(2)`` two checkers going ``8/2``. Points are in the mover's
    numbering, 25 the bar and 0 off.

    >>> checker_journeys([(24, 18), (18, 13), (8, 5)])
    [(24, 18, 13), (8, 5)]
    >>> checker_journeys([(8, 5), (8, 5), (5, 2), (5, 2)])
    [(8, 5, 2), (8, 5, 2)]
    """
    steps = moves.moves if _is_play(moves) else tuple(moves)  # type: ignore[arg-type]
    # highest source first, the longer move first from one point: as the notation sorts them
    paths = [[int(s), int(t)] for s, t in sorted(steps, key=lambda m: (-m[0], m[1]))]
    merged = True
    while merged:
        merged = False
        for path in paths:
            if path[-1] == OFF:
                continue
            follower = next(
                (other for other in paths if other is not path and other[0] == path[-1]), None
            )
            if follower is not None:
                path.extend(follower[1:])
                paths.remove(follower)
                merged = True
                break
    return [tuple(path) for path in paths]


# -- layout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Frame:
    """Where things are, for one orientation of the board."""

    flip: bool
    bottom_row: int
    top: float  # felt top

    @property
    def bottom(self) -> float:
        return self.top + FELT_HEIGHT

    @property
    def middle(self) -> float:
        return self.top + FELT_HEIGHT / 2

    @property
    def felt_left(self) -> float:
        return RIM + SIDE_WIDTH + FRAME_WIDTH

    @property
    def bar_left(self) -> float:
        return self.felt_left + HALF_WIDTH

    @property
    def bar_centre(self) -> float:
        return self.bar_left + BAR_WIDTH / 2

    def side_column(self, home: bool) -> float:
        """Left edge of the trays' column (home side) or of the cube's column."""
        right = home != self.flip
        return WIDTH - RIM - SIDE_WIDTH if right else RIM

    def half_centre(self, home: bool) -> float:
        """Horizontal centre of the home-board half or of the outer-board half."""
        right = home != self.flip
        left_edge = self.bar_left + BAR_WIDTH if right else self.felt_left
        return left_edge + HALF_WIDTH / 2

    def shown_point(self, row: int, point: int) -> int:
        """The number the board shows for ``point`` of ``row`` (the bottom side's numbering)."""
        return point if row == self.bottom_row else BAR - point

    def column(self, shown: int) -> int:
        """0..11 from left to right: 12 down to 1 along the bottom, 13 up to 24 along the top."""
        col = ROW_POINTS - shown if shown <= ROW_POINTS else shown - ROW_POINTS - 1
        return ROW_POINTS - 1 - col if self.flip else col

    def column_x(self, col: int) -> float:
        gap = BAR_WIDTH if col >= QUARTER_POINTS else 0.0
        return self.felt_left + col * POINT_WIDTH + POINT_WIDTH / 2 + gap

    def checker_xy(self, row: int, point: int, level: float) -> XY:
        """Centre of the ``level``-th checker (0 at the rim) of ``row`` on ``point`` or the bar."""
        at_bottom = row == self.bottom_row
        if point == BAR:
            step = MIDDLE_GAP / 2 + BAR_CLEARANCE + level * CHECKER_DIAMETER
            return self.bar_centre, self.middle + step if at_bottom else self.middle - step
        shown = self.shown_point(row, point)
        x = self.column_x(self.column(shown))
        offset = CHECKER_RADIUS + RIM_CLEARANCE + level * CHECKER_DIAMETER
        if shown <= ROW_POINTS:
            return x, self.bottom - offset
        return x, self.top + offset

    def tray_entry(self, row: int, level: float) -> XY:
        """Where an arrow into the tray of ``row`` ends: its edge facing the board."""
        slab = self.off_slice(row, min(level, OFF_LEVELS - 1))
        facing_left = not self.flip
        x = self.side_column(home=True) + (TRAY_MARGIN if facing_left else SIDE_WIDTH - TRAY_MARGIN)
        return x, slab.y + slab.height / 2

    def off_slice(self, row: int, level: float) -> Rect:
        """Rectangle of the ``level``-th borne-off checker of ``row`` (0 at the rim)."""
        x = self.side_column(home=True) + (SIDE_WIDTH - OFF_SLICE_WIDTH) / 2
        offset = TRAY_MARGIN + 2 + (level + 1) * OFF_SLICE
        y = self.bottom - offset if row == self.bottom_row else self.top + offset - OFF_SLICE
        return Rect(x=x, y=y + 0.5, width=OFF_SLICE_WIDTH, height=OFF_SLICE - 1, radius=2.5)


def layout_board(
    item: Position | GameState | Play,
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
) -> Diagram:
    """Lay a board out as shapes; :func:`board` takes the same options.

    >>> from gammonlab import Position
    >>> diagram = layout_board(Position.initial())
    >>> round(diagram.width)
    482
    """
    subject, bottom_row = _subject(item, player)
    palette = board_colors(colors)
    header = bool(subject.caption or (score and subject.match_line))
    frame = _Frame(
        flip=flip, bottom_row=bottom_row, top=(HEADER_HEIGHT if header else 0.0) + BAND_HEIGHT
    )
    height = frame.bottom + BAND_HEIGHT
    moves = subject.moves if arrows is None else tuple((int(s), int(t)) for s, t in arrows)

    shapes: list[Shape] = []
    shapes += _draw_frame(frame, height, palette)
    shapes += _draw_points(frame, palette)
    if highlight:
        shapes += _draw_highlights(frame, set(highlight), palette)
    if numbering:
        shapes += _draw_numbers(frame, palette)
    for row in (0, 1):
        shapes += _draw_side(frame, subject, row, palette)
    if cube and subject.cube_value is not None:
        shapes.append(_draw_cube(frame, subject, palette))
    if dice and subject.dice is not None and not subject.cube_offered:
        shapes += _draw_dice(frame, subject, palette)
    shapes += _draw_moves(frame, subject, moves, palette)
    shapes += _draw_lines(frame, subject, height, palette, header=header, pips=pips, score=score)
    title = _title(subject)
    return Diagram(width=WIDTH, height=height, shapes=tuple(shapes), title=title)


def _pips(row: Sequence[int], waiting: int = 0) -> int:
    """Pip count of a board row: a checker on point p counts p, on the bar 25 (R1.2), and
    so does an Acey-Deucey checker waiting to enter (R11.1)."""
    return sum(point * count for point, count in enumerate(row)) + 25 * waiting


def _title(subject: _Subject) -> str:
    pip = [_pips(row, n) for row, n in zip(subject.board, subject.waiting)]
    text = f"Backgammon board: {subject.names[0]} {pip[0]} pips, {subject.names[1]} {pip[1]} pips"
    if subject.caption:
        text += f"; {subject.caption}"
    return text


def _draw_frame(frame: _Frame, height: float, palette: BoardColors) -> list[Shape]:
    shapes: list[Shape] = [
        Rect(
            cls="frame",
            x=0.5,
            y=0.5,
            width=WIDTH - 1,
            height=height - 1,
            radius=8,
            fill=palette.frame,
            stroke=palette.frame_edge,
            stroke_width=1.2,
        ),
    ]
    for home in (False, True):
        left = frame.half_centre(home) - HALF_WIDTH / 2
        shapes.append(
            Rect(
                cls="felt",
                x=left,
                y=frame.top,
                width=HALF_WIDTH,
                height=FELT_HEIGHT,
                fill=palette.felt,
                stroke=palette.frame_edge,
                stroke_width=1.0,
            )
        )
    shapes.append(
        Rect(
            cls="bar",
            x=frame.bar_left + BAR_INSET,
            y=frame.top,
            width=BAR_WIDTH - 2 * BAR_INSET,
            height=FELT_HEIGHT,
            fill=palette.frame,
            stroke=palette.frame_edge,
            stroke_width=0.6,
            opacity=0.9,
        )
    )
    tray_x = frame.side_column(home=True) + TRAY_MARGIN
    for y in (frame.top, frame.bottom - TRAY_HEIGHT):
        shapes.append(
            Rect(
                cls="tray",
                x=tray_x,
                y=y,
                width=SIDE_WIDTH - 2 * TRAY_MARGIN,
                height=TRAY_HEIGHT,
                radius=3,
                fill=palette.tray,
                stroke=palette.frame_edge,
                stroke_width=1.0,
            )
        )
    return shapes


def _triangle(frame: _Frame, shown: int) -> tuple[XY, ...]:
    x = frame.column_x(frame.column(shown))
    half = POINT_WIDTH / 2
    if shown <= ROW_POINTS:
        base = frame.bottom
        return ((x - half, base), (x + half, base), (x, base - POINT_LENGTH))
    base = frame.top
    return ((x - half, base), (x + half, base), (x, base + POINT_LENGTH))


def _draw_points(frame: _Frame, palette: BoardColors) -> list[Shape]:
    shapes: list[Shape] = []
    for shown in range(1, POINTS + 1):
        colour = palette.point_dark if shown % 2 else palette.point_light
        shapes.append(
            Polygon(
                cls="triangle",
                data=(("point", shown),),
                points=_triangle(frame, shown),
                fill=colour,
                stroke=colour,
                stroke_width=0.5,
            )
        )
    return shapes


def _draw_highlights(frame: _Frame, points: set[int], palette: BoardColors) -> list[Shape]:
    shapes: list[Shape] = []
    for shown in sorted(points):
        data: Data = (("point", shown),)
        if 1 <= shown <= POINTS:
            shapes.append(
                Polygon(
                    cls="highlight",
                    data=data,
                    points=_triangle(frame, shown),
                    fill=palette.highlight,
                    opacity=HIGHLIGHT_OPACITY,
                )
            )
        elif shown == BAR:
            shapes.append(
                Rect(
                    cls="highlight",
                    data=data,
                    x=frame.bar_left + BAR_INSET,
                    y=frame.middle,
                    width=BAR_WIDTH - 2 * BAR_INSET,
                    height=FELT_HEIGHT / 2,
                    fill=palette.highlight,
                    opacity=HIGHLIGHT_OPACITY,
                )
            )
        elif shown == OFF:
            shapes.append(
                Rect(
                    cls="highlight",
                    data=data,
                    x=frame.side_column(home=True) + TRAY_MARGIN,
                    y=frame.bottom - TRAY_HEIGHT,
                    width=SIDE_WIDTH - 2 * TRAY_MARGIN,
                    height=TRAY_HEIGHT,
                    radius=3,
                    fill=palette.highlight,
                    opacity=HIGHLIGHT_OPACITY,
                )
            )
        else:
            raise ArgumentError(f"highlight takes points 1-24, 25 (bar) or 0 (off), got {shown}")
    return shapes


def _draw_numbers(frame: _Frame, palette: BoardColors) -> list[Shape]:
    shapes: list[Shape] = []
    for shown in range(1, POINTS + 1):
        x = frame.column_x(frame.column(shown))
        y = frame.bottom + POINT_NUMBER_SIZE + 3 if shown <= ROW_POINTS else frame.top - 5
        shapes.append(
            Text(
                cls="point-number",
                data=(("point", shown),),
                x=x,
                y=y,
                text=str(shown),
                size=POINT_NUMBER_SIZE,
                fill=palette.label,
            )
        )
    return shapes


def _checker(frame: _Frame, xy: XY, player: int, data: Data, palette: BoardColors) -> list[Shape]:
    x, y = xy
    fill, edge = palette.checkers[player], palette.checker_edges[player]
    return [
        Circle(
            cls=f"checker player-{player}",
            data=data,
            cx=x,
            cy=y,
            r=CHECKER_RADIUS - 0.6,
            fill=fill,
            stroke=edge,
            stroke_width=1.2,
        ),
        Circle(
            cls="ring",
            cx=x,
            cy=y,
            r=CHECKER_RADIUS * 0.62,
            stroke=edge,
            stroke_width=0.9,
            opacity=0.45,
        ),
    ]


def _draw_side(frame: _Frame, subject: _Subject, row: int, palette: BoardColors) -> list[Shape]:
    """The checkers of one side: its points, its bar and its tray."""
    player = subject.players[row]
    counts = subject.board[row]
    shapes: list[Shape] = []
    for point in range(POINTS + 1, -1, -1):
        count = counts[point]
        if count <= 0:
            continue
        kind = "bar" if point == BAR else "off" if point == OFF else "point"
        data: Data = (("side", row), ("player", player), ("point", point), ("count", count))
        children: list[Shape] = []
        checker_data: Data = (("point", point),)
        if point == OFF:
            for level in range(count):
                slab = frame.off_slice(row, level)
                children.append(
                    Rect(
                        cls=f"checker player-{player}",
                        data=checker_data,
                        x=slab.x,
                        y=slab.y,
                        width=slab.width,
                        height=slab.height,
                        radius=slab.radius,
                        fill=palette.checkers[player],
                        stroke=palette.checker_edges[player],
                        stroke_width=0.8,
                    )
                )
            children.append(_tray_count(frame, row, count, palette))
        else:
            shown = min(count, MAX_STACK)
            for level in range(shown):
                children += _checker(
                    frame, frame.checker_xy(row, point, level), player, checker_data, palette
                )
            if count > MAX_STACK:
                x, y = frame.checker_xy(row, point, MAX_STACK - 1)
                children.append(
                    Text(
                        cls="count",
                        data=(("count", count),),
                        x=x,
                        y=y + COUNT_SIZE * TEXT_RAISE,
                        text=str(count),
                        size=COUNT_SIZE,
                        bold=True,
                        fill=palette.checker_text[player],
                    )
                )
        shapes.append(Group(cls=kind, data=data, children=tuple(children)))
    if subject.waiting[row]:
        shapes.append(_draw_waiting(frame, row, player, subject.waiting[row], palette))
    return shapes


def _draw_waiting(frame: _Frame, row: int, player: int, count: int, palette: BoardColors) -> Group:
    """Acey-Deucey checkers still to enter, faded in the tray (none is borne off yet, R7.1)."""
    children: list[Shape] = []
    for level in range(count):
        slab = frame.off_slice(row, level)
        children.append(
            Rect(
                cls=f"waiting-checker player-{player}",
                x=slab.x,
                y=slab.y,
                width=slab.width,
                height=slab.height,
                radius=slab.radius,
                fill=palette.checkers[player],
                stroke=palette.checker_edges[player],
                stroke_width=0.8,
                opacity=WAITING_OPACITY,
            )
        )
    children.append(_tray_count(frame, row, count, palette))
    data: Data = (("side", row), ("player", player), ("count", count))
    return Group(cls="waiting", data=data, children=tuple(children))


def _tray_count(frame: _Frame, row: int, count: int, palette: BoardColors) -> Text:
    end = frame.off_slice(row, count - 1)
    at_bottom = row == frame.bottom_row
    y = end.y - 4 if at_bottom else end.y + end.height + TRAY_COUNT_SIZE + 2
    return Text(
        cls="count",
        data=(("count", count),),
        x=end.x + end.width / 2,
        y=y,
        text=str(count),
        size=TRAY_COUNT_SIZE,
        bold=True,
        fill=palette.tray_text,
    )


def _draw_cube(frame: _Frame, subject: _Subject, palette: BoardColors) -> Shape:
    value = subject.cube_value or 1
    owner_row = subject.cube_owner_row
    if subject.cube_offered:
        x = frame.half_centre(home=frame.bottom_row == 0)  # where the doubler's dice go
        y = frame.middle
        value *= 2
        owner = "offered"
    else:
        x = frame.side_column(home=False) + SIDE_WIDTH / 2
        if owner_row is None:
            y = frame.middle
        elif owner_row == frame.bottom_row:
            y = frame.bottom - CUBE_SIZE / 2 - 4
        else:
            y = frame.top + CUBE_SIZE / 2 + 4
        owner = "centre" if owner_row is None else str(subject.players[owner_row])
    face = CENTRED_CUBE_FACE if value == 1 and owner_row is None else value
    size = CUBE_TEXT_SIZE if face < 100 else CUBE_TEXT_SIZE * 0.75
    children = (
        Rect(
            x=x - CUBE_SIZE / 2,
            y=y - CUBE_SIZE / 2,
            width=CUBE_SIZE,
            height=CUBE_SIZE,
            radius=4,
            fill=palette.cube,
            stroke=palette.cube_edge,
            stroke_width=1.4,
        ),
        Text(
            x=x,
            y=y + size * TEXT_RAISE,
            text=str(face),
            size=size,
            bold=True,
            fill=palette.cube_text,
        ),
    )
    return Group(cls="cube", data=(("value", value), ("owner", owner)), children=children)


def _draw_dice(frame: _Frame, subject: _Subject, palette: BoardColors) -> list[Shape]:
    assert subject.dice is not None
    player = subject.players[0]
    centre = frame.half_centre(home=frame.bottom_row == 0)
    shapes: list[Shape] = []
    for i, value in enumerate(subject.dice):
        x = centre + (i - 0.5) * (DIE_SIZE + DIE_GAP)
        y = frame.middle
        children: list[Shape] = [
            Rect(
                x=x - DIE_SIZE / 2,
                y=y - DIE_SIZE / 2,
                width=DIE_SIZE,
                height=DIE_SIZE,
                radius=4.5,
                fill=palette.checkers[player],
                stroke=palette.checker_edges[player],
                stroke_width=1.2,
            ),
        ]
        for dx, dy in DIE_PIPS[value]:
            children.append(
                Circle(
                    cx=x + dx * DIE_PIP_OFFSET,
                    cy=y + dy * DIE_PIP_OFFSET,
                    r=DIE_PIP_RADIUS,
                    fill=palette.checker_text[player],
                )
            )
        shapes.append(
            Group(cls="die", data=(("value", value), ("player", player)), children=tuple(children))
        )
    return shapes


def _draw_moves(
    frame: _Frame, subject: _Subject, moves: Sequence[tuple[int, int]], palette: BoardColors
) -> list[Shape]:
    """A ring round each blot hit, then an arrow per checker journey, from the position drawn."""
    if not moves:
        return []
    counts = list(subject.board[0])
    opponent = list(subject.board[1])
    waiting = subject.waiting[0]
    borne_off = 0
    rings: list[Shape] = []
    routes: list[tuple[tuple[int, ...], list[XY]]] = []
    for path in checker_journeys(moves):
        start = path[0]
        if start == ENTERING:
            # R11.1: an Acey-Deucey checker comes in from the tray where it waits
            waiting -= 1
            stops = [frame.tray_entry(0, max(waiting, 0))]
        else:
            counts[start] -= 1
            stops = [frame.checker_xy(0, start, min(counts[start], MAX_STACK - 1))]
        for i, point in enumerate(path[1:], start=1):
            if point == OFF:
                # arrows into the tray stop at its edge, spaced so that their heads stay apart
                stops.append(frame.tray_entry(0, counts[OFF] + 2 * borne_off))
                borne_off += 1
                continue
            hit = opponent[BAR - point] == 1  # R6.1
            if hit:
                opponent[BAR - point] = 0
                x, y = frame.checker_xy(1, BAR - point, 0)
                rings.append(
                    Circle(
                        cls="hit",
                        data=(("point", point),),
                        cx=x,
                        cy=y,
                        r=CHECKER_RADIUS + 2.2,
                        stroke=palette.hit,
                        stroke_width=3.0,
                    )
                )
            if i == len(path) - 1 or hit:
                # onto a full point the arrow stops at the edge of the top checker
                stops.append(frame.checker_xy(0, point, min(counts[point], MAX_STACK - 0.5)))
        if path[-1] != OFF:
            counts[path[-1]] += 1
        routes.append((path, stops))
    # checkers borne off keep their order: the highest on the board goes highest in the tray
    off_routes = [stops for path, stops in routes if path[-1] == OFF]
    ends = sorted(stops[-1] for stops in off_routes)
    for stops, end in zip(
        sorted(off_routes, key=lambda stops: stops[0][1]), sorted(ends, key=lambda xy: xy[1])
    ):
        stops[-1] = end
    return [*rings, *(_arrow(frame, stops, path, palette) for path, stops in routes)]


def _arrow(frame: _Frame, stops: list[XY], path: tuple[int, ...], palette: BoardColors) -> Group:
    segments: list[tuple[XY, XY]] = []
    centre = (frame.bar_centre, frame.middle)
    for (ax, ay), (bx, by) in pairwise(stops):
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        mx, my = (ax + bx) / 2, (ay + by) / 2
        if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
            nx, ny = -nx, -ny
        bow = min(ARROW_BOW * length, ARROW_MAX_BOW)
        segments.append(((mx + nx * bow, my + ny * bow), (bx, by)))
    (cx, cy), (ex, ey) = segments[-1]
    tx, ty = ex - cx, ey - cy
    norm = math.hypot(tx, ty) or 1.0
    tx, ty = tx / norm, ty / norm
    # stop the line short of the tip so that the head stays sharp
    base = (ex - tx * ARROW_HEAD_LENGTH, ey - ty * ARROW_HEAD_LENGTH)
    trimmed = (*segments[:-1], ((cx, cy), (base[0] + tx * 2, base[1] + ty * 2)))
    head = (
        (ex, ey),
        (base[0] - ty * ARROW_HEAD_HALF_WIDTH, base[1] + tx * ARROW_HEAD_HALF_WIDTH),
        (base[0] + ty * ARROW_HEAD_HALF_WIDTH, base[1] - tx * ARROW_HEAD_HALF_WIDTH),
    )
    children = (
        Curve(
            start=stops[0],
            segments=trimmed,
            stroke=palette.arrow_edge,
            stroke_width=5.6,
            opacity=0.75,
        ),
        Curve(start=stops[0], segments=trimmed, stroke=palette.arrow, stroke_width=2.8),
        Polygon(points=head, fill=palette.arrow, stroke=palette.arrow_edge, stroke_width=1.3),
    )
    data: Data = (("from", path[0]), ("to", path[-1]), ("path", "/".join(map(str, path))))
    return Group(cls="arrow", data=data, children=children)


def _draw_lines(
    frame: _Frame,
    subject: _Subject,
    height: float,
    palette: BoardColors,
    *,
    header: bool,
    pips: bool,
    score: bool,
) -> list[Shape]:
    shapes: list[Shape] = []
    if header:
        parts = [text for text in (subject.caption, subject.match_line if score else "") if text]
        shapes.append(
            Text(
                cls="caption",
                x=WIDTH / 2,
                y=HEADER_HEIGHT - 2,
                text=" \u00b7 ".join(parts),
                size=HEADER_SIZE,
                bold=True,
                fill=palette.label,
            )
        )
    left = RIM + 4
    right = WIDTH - RIM - 4
    for row in (0, 1):
        at_bottom = row == frame.bottom_row
        y = height - 9 if at_bottom else frame.top - BAND_HEIGHT + 16
        player = subject.players[row]
        shapes.append(
            Circle(
                cls=f"swatch player-{player}",
                cx=left + 6,
                cy=y - 4,
                r=5.5,
                fill=palette.checkers[player],
                stroke=palette.checker_edges[player],
                stroke_width=1.0,
            )
        )
        shapes.append(
            Text(
                cls="name",
                data=(("side", row), ("player", player)),
                x=left + 16,
                y=y,
                text=subject.names[row],
                size=PLAYER_LINE_SIZE,
                anchor="start",
                bold=True,
                fill=palette.label,
            )
        )
        facts = []
        if subject.waiting[row]:
            facts.append(f"{subject.waiting[row]} to enter")
        if pips:
            facts.append(f"{_pips(subject.board[row], subject.waiting[row])} pips")
        if score and subject.scores is not None:
            facts.append(f"score {subject.scores[row]}")
        if facts:
            shapes.append(
                Text(
                    cls="facts",
                    data=(("side", row), ("player", player)),
                    x=right,
                    y=y,
                    text=" \u00b7 ".join(facts),
                    size=PLAYER_LINE_SIZE,
                    anchor="end",
                    fill=palette.label,
                )
            )
    return shapes


# -- SVG rendering ----------------------------------------------------------------------------


def _number(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attributes(shape: Shape) -> str:
    parts = []
    if shape.cls:
        parts.append(f'class="{shape.cls}"')
    for key, value in shape.data:
        parts.append(f"data-{key}={quoteattr(str(value))}")
    if not isinstance(shape, Group):
        parts.append(f'fill="{shape.fill}"' if shape.fill else 'fill="none"')
        if shape.stroke:
            parts.append(f'stroke="{shape.stroke}" stroke-width="{_number(shape.stroke_width)}"')
    if shape.opacity != 1.0:
        parts.append(f'opacity="{_number(shape.opacity)}"')
    return " ".join(parts)


def _render(shape: Shape, out: list[str]) -> None:
    attrs = _attributes(shape)
    if isinstance(shape, Group):
        out.append(f"<g {attrs}>")
        for child in shape.children:
            _render(child, out)
        out.append("</g>")
    elif isinstance(shape, Rect):
        corner = f' rx="{_number(shape.radius)}"' if shape.radius else ""
        out.append(
            f'<rect x="{_number(shape.x)}" y="{_number(shape.y)}" '
            f'width="{_number(shape.width)}" height="{_number(shape.height)}"'
            f"{corner} {attrs}/>"
        )
    elif isinstance(shape, Circle):
        out.append(
            f'<circle cx="{_number(shape.cx)}" cy="{_number(shape.cy)}" '
            f'r="{_number(shape.r)}" {attrs}/>'
        )
    elif isinstance(shape, Polygon):
        points = " ".join(f"{_number(x)},{_number(y)}" for x, y in shape.points)
        out.append(f'<polygon points="{points}" {attrs}/>')
    elif isinstance(shape, Curve):
        d = [f"M{_number(shape.start[0])},{_number(shape.start[1])}"]
        for (cx, cy), (ex, ey) in shape.segments:
            d.append(f"Q{_number(cx)},{_number(cy)} {_number(ex)},{_number(ey)}")
        out.append(f'<path d="{" ".join(d)}" stroke-linecap="round" {attrs}/>')
    elif isinstance(shape, Text):
        weight = ' font-weight="bold"' if shape.bold else ""
        out.append(
            f'<text x="{_number(shape.x)}" y="{_number(shape.y)}" '
            f'font-size="{_number(shape.size)}" text-anchor="{shape.anchor}"{weight} '
            f"{attrs}>{escape(shape.text)}</text>"
        )
    else:  # pragma: no cover - every shape kind is handled above
        raise ArgumentTypeError(f"cannot draw {type(shape).__name__}")


def render_svg(diagram: Diagram, *, size: float | None = DEFAULT_SIZE) -> SVG:
    """An SVG document of a :class:`Diagram`; ``size`` is its width in pixels.

    ``size=None`` leaves the width to the page (the picture scales to its container).
    """
    out = ['<svg xmlns="http://www.w3.org/2000/svg" version="1.1" class="gammonlab-board"']
    if size is not None:
        scale = size / diagram.width
        out.append(f' width="{_number(size)}" height="{_number(diagram.height * scale)}"')
    out.append(
        f' viewBox="0 0 {_number(diagram.width)} {_number(diagram.height)}"'
        f' font-family={quoteattr(FONT_FAMILY)} role="img">'
    )
    if diagram.title:
        out.append(f"<title>{escape(diagram.title)}</title>")
    body: list[str] = []
    for shape in diagram.shapes:
        _render(shape, body)
    out.append("\n".join(["", *body, "</svg>"]))
    return SVG("".join(out))


def board(
    item: Position | GameState | Play,
    *,
    flip: bool = False,
    numbering: bool = True,
    pips: bool = True,
    cube: bool = True,
    dice: bool = True,
    score: bool = True,
    arrows: Iterable[tuple[int, int]] | None = None,
    highlight: Iterable[int] | None = None,
    size: float | None = DEFAULT_SIZE,
    colors: Mapping[str, object] | None = None,
    player: int | None = None,
) -> SVG:
    """Draw a board as SVG: a position, a play (with arrows) or a game state.

    Parameters
    ----------
    item : Position, Play or GameState
        A :class:`~gammonlab.Play` is drawn as the position before it, with one
        arrow per checker that moved and a ring round every blot it hit, and its
        dice and notation. A :class:`~gammonlab.GameState` adds the cube, the dice
        rolled, the score and the match length.
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
        Points to tint, as the board numbers them (25 the bar, 0 the tray).
    size : float or None
        Width in pixels; the height follows. ``None`` lets the page decide.
    colors : mapping, optional
        Colours to replace, by the names of :class:`gammonlab.draw.style.BoardColors`.
    player : {0, 1}, optional
        Draw the board from this player's side: at the bottom and numbered from
        it. For a GameState the absolute player (``player=state.bottom`` draws it
        as its XGID does); for a Position or a Play 0 is the side on roll, 1 its
        opponent. By default the side on roll.

    Returns
    -------
    SVG
        A ``str`` that Jupyter displays as a picture.

    >>> from gammonlab import GameState
    >>> svg = board(GameState.initial(match_length=7).replace(dice=(3, 1)), flip=True)
    >>> svg.count('class="die"'), 'data-owner="centre"' in svg
    (2, True)
    """
    diagram = layout_board(
        item,
        flip=flip,
        numbering=numbering,
        pips=pips,
        cube=cube,
        dice=dice,
        score=score,
        arrows=arrows,
        highlight=highlight,
        colors=colors,
        player=player,
    )
    return render_svg(diagram, size=size)


def beside(item: Position | Play | GameState, html: str, *, size: int = 320) -> str:
    """HTML with a small board of ``item`` to the left of ``html``, for the
    ``_repr_html_`` of results about a position (rollouts, cube decisions, matches)."""
    picture = board(item, size=size)
    return (
        f'<div style="display:flex;gap:1.5em;align-items:flex-start">'
        f"<div>{picture}</div><div>{html}</div></div>"
    )
