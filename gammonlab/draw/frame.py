"""Where the parts of a board diagram stand for one orientation of the board: the columns
of the points, the checkers on a point or the bar, the trays and their slices."""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import BAR
from . import geometry as geo
from .shapes import XY, Rect

__all__ = ["Frame"]


@dataclass(frozen=True)
class Frame:
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
