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

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import TYPE_CHECKING, Protocol, TypedDict, TypeGuard, cast

from .._kernels.board import START as ENTERING
from ..errors import ArgumentError, ArgumentTypeError
from ..rules import BAR, OFF, POINTS
from . import geometry as geo
from . import shapes
from .geometry import MAX_STACK
from .shapes import (
    DEFAULT_SIZE,
    SVG,
    XY,
    Circle,
    Curve,
    Data,
    Diagram,
    Group,
    Polygon,
    Rect,
    Shape,
    Text,
    render_svg,
)
from .style import BoardColors, board_colors

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..play import Play
    from ..position import Position
    from ..state import GameState

__all__ = [
    "MAX_STACK",
    "BoardOptions",
    "beside",
    "board",
    "checker_journeys",
    "layout_board",
]
__all__ += shapes.__all__  # the shapes and their SVG text, which a board is made of


# -- what is drawn: a position, a play or a game state, reduced to the same facts ---------


class _Action(Protocol):
    """What a board reads from an action of a match (:class:`gammonlab.match.Action`):
    this layer imports nothing from the layers above it."""

    @property
    def kind(self) -> str: ...
    @property
    def state(self) -> GameState: ...
    @property
    def dice(self) -> tuple[int, int] | None: ...
    @property
    def play(self) -> Play | None: ...


if TYPE_CHECKING:
    from typing import TypeAlias

    Drawable: TypeAlias = "Position | GameState | Play | _Action"


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


def _is_action(item: object) -> TypeGuard[_Action]:
    """A match's action: the state it was taken in, its play, and the players' names."""
    return hasattr(item, "kind") and _is_state(getattr(item, "state", None))


def _subject(
    item: Drawable, player: int | None, names: Sequence[str] | None = None
) -> tuple[_Subject, int]:
    """The facts to draw, and the row drawn at the bottom and numbered."""
    if _is_action(item):
        subject, bottom = _action_facts(item, player, names)
        pos = item.state.position
    else:
        shown = cast("Position | GameState | Play", item)
        subject, bottom = _facts(shown, player, _names(names))
        pos = (
            shown.position
            if _is_state(shown)
            else shown.before
            if _is_play(shown)
            else cast("Position", shown)
        )
    if pos.variant.enter_from_off:
        # R2.4: the checkers a side has not entered yet are on no point of the board
        subject.waiting = tuple(  # type: ignore[assignment]
            pos.variant.checkers - sum(row) for row in subject.board
        )
    return subject, bottom


def _names(names: Sequence[str] | None) -> tuple[str, str] | None:
    """Two players' names, or None for the generic labels."""
    if names is None:
        return None
    if isinstance(names, str) or len(names) != 2:
        raise ArgumentTypeError(f"names must be two players' names, got {names!r}")
    return str(names[0]), str(names[1])


def _action_facts(
    action: _Action, player: int | None, names: Sequence[str] | None
) -> tuple[_Subject, int]:
    """An action: its state with the players' names, and a move's play as arrows."""
    known = _names(names if names is not None else getattr(action, "players", None))
    subject, bottom = _facts(action.state, player, known)
    play = action.play
    if action.kind == "move" and action.dice is not None:
        d1, d2 = action.dice
        subject.caption = f"{d1}-{d2}: {play.notation if play is not None else 'no legal move'}"
        subject.moves = play.moves if play is not None else ()
    return subject, bottom


def _facts(
    item: Position | GameState | Play, player: int | None, known: tuple[str, str] | None
) -> tuple[_Subject, int]:
    """``known``: the names of player 0 and player 1 of a state; of the side on roll and
    its opponent of a position or a play."""
    if _is_state(item):
        on_roll = item.on_roll
        rows = (on_roll, 1 - on_roll)
        who = known or ("Player 0", "Player 1")
        names = tuple(who[p] + (" \u00b7 on roll" if r == 0 else "") for r, p in enumerate(rows))
        owner_row = None if item.cube_owner is None else rows.index(item.cube_owner)
        if item.money:
            match_line = "money game" + (" \u00b7 Jacoby" if item.jacoby else "")
        else:
            match_line = f"{item.match_length}-point match" + (
                " \u00b7 Crawford game" if item.crawford else ""
            )
        if item.double_offered:
            match_line += f" \u00b7 {who[on_roll]} doubles to {2 * item.cube_value}"
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
    sides = ("On roll", "Opponent") if known is None else (f"{known[0]} \u00b7 on roll", known[1])
    if _is_play(item):
        d1, d2 = item.dice
        subject = _Subject(
            board=item.before.board.tolist(),
            players=(0, 1),
            names=sides,
            dice=item.dice,
            cube_value=None,  # a play knows no cube: draw none rather than a guess
            caption=f"{d1}-{d2}: {item.notation or 'no legal move'}",
            moves=item.moves,
        )
    elif _is_position(item):
        subject = _Subject(
            board=item.board.tolist(), players=(0, 1), names=sides
        )  # a position knows no cube
    else:
        raise ArgumentTypeError(
            "board() draws a Position, a Play, a GameState or a match's Action, "
            f"not {type(item).__name__}"
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
        return self.top + geo.FELT_HEIGHT

    @property
    def middle(self) -> float:
        return self.top + geo.FELT_HEIGHT / 2

    def side_column(self, home: bool) -> float:
        """Left edge of the trays' column (home side) or of the cube's column."""
        right = home != self.flip
        return geo.WIDTH - geo.RIM - geo.SIDE_WIDTH if right else geo.RIM

    def half_centre(self, home: bool) -> float:
        """Horizontal centre of the home-board half or of the outer-board half."""
        right = home != self.flip
        left_edge = geo.BAR_LEFT + geo.BAR_WIDTH if right else geo.FELT_LEFT
        return left_edge + geo.HALF_WIDTH / 2

    def shown_point(self, row: int, point: int) -> int:
        """The number the board shows for ``point`` of ``row`` (the bottom side's numbering)."""
        return point if row == self.bottom_row else BAR - point

    def column(self, shown: int) -> int:
        """0..11 from left to right: 12 down to 1 along the bottom, 13 up to 24 along the top."""
        col = geo.ROW_POINTS - shown if shown <= geo.ROW_POINTS else shown - geo.ROW_POINTS - 1
        return geo.ROW_POINTS - 1 - col if self.flip else col

    def column_x(self, col: int) -> float:
        gap = geo.BAR_WIDTH if col >= geo.QUARTER_POINTS else 0.0
        return geo.FELT_LEFT + col * geo.POINT_WIDTH + geo.POINT_WIDTH / 2 + gap

    def checker_xy(self, row: int, point: int, level: float) -> XY:
        """Centre of the ``level``-th checker (0 at the rim) of ``row`` on ``point`` or the bar."""
        at_bottom = row == self.bottom_row
        if point == BAR:
            step = geo.MIDDLE_GAP / 2 + geo.BAR_CLEARANCE + level * geo.CHECKER_DIAMETER
            return geo.BAR_CENTRE, self.middle + step if at_bottom else self.middle - step
        shown = self.shown_point(row, point)
        x = self.column_x(self.column(shown))
        offset = geo.CHECKER_RADIUS + geo.RIM_CLEARANCE + level * geo.CHECKER_DIAMETER
        if shown <= geo.ROW_POINTS:
            return x, self.bottom - offset
        return x, self.top + offset

    def tray_entry(self, row: int, level: float) -> XY:
        """Where an arrow into the tray of ``row`` ends: its edge facing the board."""
        slab = self.off_slice(row, min(level, geo.OFF_LEVELS - 1))
        facing_left = not self.flip
        x = self.side_column(home=True) + (
            geo.TRAY_MARGIN if facing_left else geo.SIDE_WIDTH - geo.TRAY_MARGIN
        )
        return x, slab.y + slab.height / 2

    def tray(self, y: float) -> Rect:
        """The tray of the home side's column whose top is at ``y``."""
        return Rect(
            x=self.side_column(home=True) + geo.TRAY_MARGIN,
            y=y,
            width=geo.SIDE_WIDTH - 2 * geo.TRAY_MARGIN,
            height=geo.TRAY_HEIGHT,
            radius=3,
        )

    def off_slice(self, row: int, level: float) -> Rect:
        """Rectangle of the ``level``-th borne-off checker of ``row`` (0 at the rim)."""
        x = self.side_column(home=True) + (geo.SIDE_WIDTH - geo.OFF_SLICE_WIDTH) / 2
        offset = geo.TRAY_MARGIN + 2 + (level + 1) * geo.OFF_SLICE
        y = self.bottom - offset if row == self.bottom_row else self.top + offset - geo.OFF_SLICE
        return Rect(x=x, y=y + 0.5, width=geo.OFF_SLICE_WIDTH, height=geo.OFF_SLICE - 1, radius=2.5)


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
    subject, bottom_row = _subject(item, player, names)
    palette = board_colors(colors)
    header = bool(subject.caption or (score and subject.match_line))
    frame = _Frame(
        flip=flip,
        bottom_row=bottom_row,
        top=(geo.HEADER_HEIGHT if header else 0.0) + geo.BAND_HEIGHT,
    )
    height = frame.bottom + geo.BAND_HEIGHT
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
    if hit_areas:
        shapes += _draw_hit_areas(frame)
    title = _title(subject)
    return Diagram(width=geo.WIDTH, height=height, shapes=tuple(shapes), title=title)


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
            width=geo.WIDTH - 1,
            height=height - 1,
            radius=8,
            fill=palette.frame,
            stroke=palette.frame_edge,
            stroke_width=1.2,
        ),
    ]
    for home in (False, True):
        left = frame.half_centre(home) - geo.HALF_WIDTH / 2
        shapes.append(
            Rect(
                cls="felt",
                x=left,
                y=frame.top,
                width=geo.HALF_WIDTH,
                height=geo.FELT_HEIGHT,
                fill=palette.felt,
                stroke=palette.frame_edge,
                stroke_width=1.0,
            )
        )
    shapes.append(
        replace(
            _bar_strip(frame.top, geo.FELT_HEIGHT),
            cls="bar",
            fill=palette.frame,
            stroke=palette.frame_edge,
            stroke_width=0.6,
            opacity=0.9,
        )
    )
    for y in (frame.top, frame.bottom - geo.TRAY_HEIGHT):
        shapes.append(
            replace(
                frame.tray(y),
                cls="tray",
                fill=palette.tray,
                stroke=palette.frame_edge,
                stroke_width=1.0,
            )
        )
    return shapes


def _bar_strip(y: float, height: float) -> Rect:
    """The strip of the bar between the halves, from ``y`` down ``height``."""
    return Rect(
        x=geo.BAR_LEFT + geo.BAR_INSET, y=y, width=geo.BAR_WIDTH - 2 * geo.BAR_INSET, height=height
    )


def _triangle(frame: _Frame, shown: int) -> tuple[XY, ...]:
    x = frame.column_x(frame.column(shown))
    half = geo.POINT_WIDTH / 2
    if shown <= geo.ROW_POINTS:
        base = frame.bottom
        return ((x - half, base), (x + half, base), (x, base - geo.POINT_LENGTH))
    base = frame.top
    return ((x - half, base), (x + half, base), (x, base + geo.POINT_LENGTH))


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
        area: Shape
        if 1 <= shown <= POINTS:
            area = Polygon(points=_triangle(frame, shown))
        elif shown == BAR:
            area = _bar_strip(frame.middle, geo.FELT_HEIGHT / 2)
        elif shown == OFF:
            area = frame.tray(frame.bottom - geo.TRAY_HEIGHT)
        else:
            raise ArgumentError(f"highlight takes points 1-24, 25 (bar) or 0 (off), got {shown}")
        shapes.append(
            replace(
                area,
                cls="highlight",
                data=(("point", shown),),
                fill=palette.highlight,
                opacity=geo.HIGHLIGHT_OPACITY,
            )
        )
    return shapes


def _draw_hit_areas(frame: _Frame) -> list[Shape]:
    """Invisible rectangles on top of everything, one per place a checker can be clicked:
    ``<rect class="hit-area" data-point="p">`` with ``p`` as the bottom side numbers the
    points (1-24), 25 for the bar and 0 for each tray."""
    half = geo.FELT_HEIGHT / 2
    areas: list[tuple[int, Rect]] = []
    for shown in range(1, POINTS + 1):
        x = frame.column_x(frame.column(shown)) - geo.POINT_WIDTH / 2
        y = frame.middle if shown <= geo.ROW_POINTS else frame.top
        areas.append((shown, Rect(x=x, y=y, width=geo.POINT_WIDTH, height=half)))
    areas.append((BAR, _bar_strip(frame.top, geo.FELT_HEIGHT)))
    side = frame.side_column(home=True)
    for y in (frame.top, frame.middle):
        areas.append((OFF, Rect(x=side, y=y, width=geo.SIDE_WIDTH, height=half)))
    return [
        replace(area, cls="hit-area", data=(("point", shown),), fill="#000000", opacity=0.0)
        for shown, area in areas
    ]


def _draw_numbers(frame: _Frame, palette: BoardColors) -> list[Shape]:
    shapes: list[Shape] = []
    for shown in range(1, POINTS + 1):
        x = frame.column_x(frame.column(shown))
        y = frame.bottom + geo.POINT_NUMBER_SIZE + 3 if shown <= geo.ROW_POINTS else frame.top - 5
        shapes.append(
            Text(
                cls="point-number",
                data=(("point", shown),),
                x=x,
                y=y,
                text=str(shown),
                size=geo.POINT_NUMBER_SIZE,
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
            r=geo.CHECKER_RADIUS - 0.6,
            fill=fill,
            stroke=edge,
            stroke_width=1.2,
        ),
        _ring(xy, geo.CHECKER_RADIUS * 0.62, edge, 0.9, cls="ring", opacity=0.45),
    ]


def _ring(
    centre: XY,
    r: float,
    stroke: str,
    stroke_width: float,
    *,
    cls: str,
    data: Data = (),
    opacity: float = 1.0,
) -> Circle:
    """An unfilled circle round ``centre``: the ring of a checker, the mark of a blot hit."""
    return Circle(
        cls=cls,
        data=data,
        cx=centre[0],
        cy=centre[1],
        r=r,
        stroke=stroke,
        stroke_width=stroke_width,
        opacity=opacity,
    )


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
            children += _tray_stack(frame, row, count, player, palette, waiting=False)
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
                        y=y + geo.COUNT_SIZE * geo.TEXT_RAISE,
                        text=str(count),
                        size=geo.COUNT_SIZE,
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
    children = _tray_stack(frame, row, count, player, palette, waiting=True)
    data: Data = (("side", row), ("player", player), ("count", count))
    return Group(cls="waiting", data=data, children=tuple(children))


def _tray_stack(
    frame: _Frame, row: int, count: int, player: int, palette: BoardColors, *, waiting: bool
) -> list[Shape]:
    """``count`` checkers of ``player`` edge-on in the tray of ``row``, and their count:
    borne off, or (``waiting``) faded, not yet entered."""
    cls = "waiting-checker" if waiting else "checker"
    data: Data = () if waiting else (("point", OFF),)
    stack: list[Shape] = [
        replace(
            frame.off_slice(row, level),
            cls=f"{cls} player-{player}",
            data=data,
            fill=palette.checkers[player],
            stroke=palette.checker_edges[player],
            stroke_width=0.8,
            opacity=geo.WAITING_OPACITY if waiting else 1.0,
        )
        for level in range(count)
    ]
    stack.append(_tray_count(frame, row, count, palette))
    return stack


def _tray_count(frame: _Frame, row: int, count: int, palette: BoardColors) -> Text:
    end = frame.off_slice(row, count - 1)
    at_bottom = row == frame.bottom_row
    y = end.y - 4 if at_bottom else end.y + end.height + geo.TRAY_COUNT_SIZE + 2
    return Text(
        cls="count",
        data=(("count", count),),
        x=end.x + end.width / 2,
        y=y,
        text=str(count),
        size=geo.TRAY_COUNT_SIZE,
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
        x = frame.side_column(home=False) + geo.SIDE_WIDTH / 2
        if owner_row is None:
            y = frame.middle
        elif owner_row == frame.bottom_row:
            y = frame.bottom - geo.CUBE_SIZE / 2 - 4
        else:
            y = frame.top + geo.CUBE_SIZE / 2 + 4
        owner = "centre" if owner_row is None else str(subject.players[owner_row])
    face = geo.CENTRED_CUBE_FACE if value == 1 and owner_row is None else value
    size = geo.CUBE_TEXT_SIZE if face < 100 else geo.CUBE_TEXT_SIZE * 0.75
    children = (
        replace(
            _square((x, y), geo.CUBE_SIZE, radius=4),
            fill=palette.cube,
            stroke=palette.cube_edge,
            stroke_width=1.4,
        ),
        Text(
            x=x,
            y=y + size * geo.TEXT_RAISE,
            text=str(face),
            size=size,
            bold=True,
            fill=palette.cube_text,
        ),
    )
    return Group(cls="cube", data=(("value", value), ("owner", owner)), children=children)


def _square(centre: XY, size: float, *, radius: float) -> Rect:
    """A square of side ``size`` round ``centre``, its corners rounded: a cube, a die."""
    x, y = centre
    return Rect(x=x - size / 2, y=y - size / 2, width=size, height=size, radius=radius)


def _draw_dice(frame: _Frame, subject: _Subject, palette: BoardColors) -> list[Shape]:
    assert subject.dice is not None
    player = subject.players[0]
    centre = frame.half_centre(home=frame.bottom_row == 0)
    shapes: list[Shape] = []
    for i, value in enumerate(subject.dice):
        x = centre + (i - 0.5) * (geo.DIE_SIZE + geo.DIE_GAP)
        y = frame.middle
        children: list[Shape] = [
            replace(
                _square((x, y), geo.DIE_SIZE, radius=4.5),
                fill=palette.checkers[player],
                stroke=palette.checker_edges[player],
                stroke_width=1.2,
            ),
        ]
        for dx, dy in geo.DIE_PIPS[value]:
            children.append(
                Circle(
                    cx=x + dx * geo.DIE_PIP_OFFSET,
                    cy=y + dy * geo.DIE_PIP_OFFSET,
                    r=geo.DIE_PIP_RADIUS,
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
                rings.append(
                    _ring(
                        frame.checker_xy(1, BAR - point, 0),
                        geo.CHECKER_RADIUS + 2.2,
                        palette.hit,
                        3.0,
                        cls="hit",
                        data=(("point", point),),
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
    centre = (geo.BAR_CENTRE, frame.middle)
    for (ax, ay), (bx, by) in pairwise(stops):
        dx, dy = bx - ax, by - ay
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length, dx / length
        mx, my = (ax + bx) / 2, (ay + by) / 2
        if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
            nx, ny = -nx, -ny
        bow = min(geo.ARROW_BOW * length, geo.ARROW_MAX_BOW)
        segments.append(((mx + nx * bow, my + ny * bow), (bx, by)))
    (cx, cy), (ex, ey) = segments[-1]
    tx, ty = ex - cx, ey - cy
    norm = math.hypot(tx, ty) or 1.0
    tx, ty = tx / norm, ty / norm
    # stop the line short of the tip so that the head stays sharp
    base = (ex - tx * geo.ARROW_HEAD_LENGTH, ey - ty * geo.ARROW_HEAD_LENGTH)
    trimmed = (*segments[:-1], ((cx, cy), (base[0] + tx * 2, base[1] + ty * 2)))
    head = (
        (ex, ey),
        (base[0] - ty * geo.ARROW_HEAD_HALF_WIDTH, base[1] + tx * geo.ARROW_HEAD_HALF_WIDTH),
        (base[0] + ty * geo.ARROW_HEAD_HALF_WIDTH, base[1] - tx * geo.ARROW_HEAD_HALF_WIDTH),
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
                x=geo.WIDTH / 2,
                y=geo.HEADER_HEIGHT - 2,
                text=" \u00b7 ".join(parts),
                size=geo.HEADER_SIZE,
                bold=True,
                fill=palette.label,
            )
        )
    left = geo.RIM + 4
    right = geo.WIDTH - geo.RIM - 4
    for row in (0, 1):
        at_bottom = row == frame.bottom_row
        y = height - 9 if at_bottom else frame.top - geo.BAND_HEIGHT + 16
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
                size=geo.PLAYER_LINE_SIZE,
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
                    size=geo.PLAYER_LINE_SIZE,
                    anchor="end",
                    fill=palette.label,
                )
            )
    return shapes


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
        Points to tint, as the board numbers them (25 the bar, 0 the tray).
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
