"""The parts of a board diagram as shapes: the frame, the points, the checkers on the
points, the bar and the trays, the cube, the dice, the arrows of a play and the players'
lines."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise

from .._kernels.board import START as ENTERING
from ..errors import ArgumentError
from ..rules import BAR, OFF, POINTS
from . import geometry as geo
from .frame import Frame
from .geometry import MAX_STACK
from .shapes import XY, Circle, Curve, Data, Group, Polygon, Rect, Shape, Text
from .style import BoardColors
from .subject import Subject, checker_journeys, pip_count

__all__ = [
    "draw_cube",
    "draw_dice",
    "draw_frame",
    "draw_highlights",
    "draw_hit_areas",
    "draw_lines",
    "draw_moves",
    "draw_numbers",
    "draw_points",
    "draw_side",
]


def draw_frame(frame: Frame, height: float, palette: BoardColors) -> list[Shape]:
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


def _triangle(frame: Frame, shown: int) -> tuple[XY, ...]:
    x = frame.column_x(frame.column(shown))
    half = geo.POINT_WIDTH / 2
    if shown <= geo.ROW_POINTS:
        base = frame.bottom
        return ((x - half, base), (x + half, base), (x, base - geo.POINT_LENGTH))
    base = frame.top
    return ((x - half, base), (x + half, base), (x, base + geo.POINT_LENGTH))


def draw_points(frame: Frame, palette: BoardColors) -> list[Shape]:
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


def draw_highlights(frame: Frame, points: set[int], palette: BoardColors) -> list[Shape]:
    """Tint ``points`` as the board numbers them; the bar (25) and the tray (0) are those
    of the side on roll (row 0), on its half of the board."""
    on_roll_below = frame.bottom_row == 0
    shapes: list[Shape] = []
    for shown in sorted(points):
        area: Shape
        if 1 <= shown <= POINTS:
            area = Polygon(points=_triangle(frame, shown))
        elif shown == BAR:
            half = geo.FELT_HEIGHT / 2
            area = _bar_strip(frame.middle if on_roll_below else frame.top, half)
        elif shown == OFF:
            area = frame.tray(frame.bottom - geo.TRAY_HEIGHT if on_roll_below else frame.top)
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


def draw_hit_areas(frame: Frame) -> list[Shape]:
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


def draw_numbers(frame: Frame, palette: BoardColors) -> list[Shape]:
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


def _checker(frame: Frame, xy: XY, player: int, data: Data, palette: BoardColors) -> list[Shape]:
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


def draw_side(frame: Frame, subject: Subject, row: int, palette: BoardColors) -> list[Shape]:
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


def _draw_waiting(frame: Frame, row: int, player: int, count: int, palette: BoardColors) -> Group:
    """Acey-Deucey checkers still to enter, faded in the tray (none is borne off yet, R7.1)."""
    children = _tray_stack(frame, row, count, player, palette, waiting=True)
    data: Data = (("side", row), ("player", player), ("count", count))
    return Group(cls="waiting", data=data, children=tuple(children))


def _tray_stack(
    frame: Frame, row: int, count: int, player: int, palette: BoardColors, *, waiting: bool
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


def _tray_count(frame: Frame, row: int, count: int, palette: BoardColors) -> Text:
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


def draw_cube(frame: Frame, subject: Subject, palette: BoardColors) -> Shape:
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


def draw_dice(frame: Frame, subject: Subject, palette: BoardColors) -> list[Shape]:
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


def draw_moves(
    frame: Frame, subject: Subject, moves: Sequence[tuple[int, int]], palette: BoardColors
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


def _arrow(frame: Frame, stops: list[XY], path: tuple[int, ...], palette: BoardColors) -> Group:
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


def draw_lines(
    frame: Frame,
    subject: Subject,
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
            facts.append(f"{pip_count(subject.board[row], subject.waiting[row])} pips")
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
