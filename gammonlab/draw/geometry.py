"""The board's geometry and text sizes, in the diagram's own units (one unit is one
pixel at :data:`~gammonlab.draw.shapes.DEFAULT_SIZE`): checkers, points, bar, trays,
cube, dice and arrows."""

from __future__ import annotations

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
FELT_LEFT = RIM + SIDE_WIDTH + FRAME_WIDTH  # the left half's felt, either way round
BAR_LEFT = FELT_LEFT + HALF_WIDTH
BAR_CENTRE = BAR_LEFT + BAR_WIDTH / 2
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
