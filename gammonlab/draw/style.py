"""The shared palette: one colour per player and the board's colours and fonts.

Every board diagram (:func:`gammonlab.draw.svg.board`, :func:`gammonlab.plot_board`)
and every plot uses the same colour for a player, so that a player's checkers and
the same player's line in a pip-count plot match:

* player 0 -- and, on a bare :class:`~gammonlab.Position` or :class:`~gammonlab.Play`,
  the side on roll -- is **amber** (``#E8912D``);
* player 1 -- and the opponent of the side on roll -- is **slate blue** (``#3568A0``).

Both are dark enough to draw as lines on white paper, light and dark enough to
tell apart as checkers on the green felt, and remain distinct for the common
forms of colour blindness.

>>> player_color(0), player_color(1)
('#E8912D', '#3568A0')
>>> board_colors({"felt": "#553311"}).felt
'#553311'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from ..errors import ArgumentError, UnknownNameError

__all__ = [
    "FONT_FAMILY",
    "MATPLOTLIB_FONT",
    "PLAYER_COLORS",
    "PLAYER_EDGE_COLORS",
    "PLAYER_TEXT_COLORS",
    "BoardColors",
    "board_colors",
    "player_color",
]

PLAYER_COLORS: tuple[str, str] = ("#E8912D", "#3568A0")
"""The colour of player 0 (amber) and player 1 (slate blue), on boards and in plots."""

PLAYER_EDGE_COLORS: tuple[str, str] = ("#6E3F0C", "#0F2236")
"""The outline of each player's checkers: a dark shade of the player's colour."""

PLAYER_TEXT_COLORS: tuple[str, str] = ("#2A1604", "#FFFFFF")
"""Text written on a player's checkers and dice (counts, pips)."""

FONT_FAMILY = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
"""Fonts of the SVG diagrams, first choice first."""

MATPLOTLIB_FONT = "DejaVu Sans"
"""The font of the matplotlib board (shipped with matplotlib)."""


@dataclass(frozen=True)
class BoardColors:
    """The colours of a board diagram.

    Attributes
    ----------
    checkers, checker_edges, checker_text : tuple of str
        Fill, outline and text colour of the checkers of player 0 and player 1.
    felt : str
        The playing surface.
    point_light, point_dark : str
        The two alternating colours of the points.
    frame, frame_edge : str
        The wooden frame (also the bar and the side columns) and its outline.
    tray, tray_text : str
        The borne-off trays and the counts written in them.
    label : str
        Point numbers, pip counts and other text on the frame.
    cube, cube_edge, cube_text : str
        The doubling cube.
    highlight : str
        Tint of highlighted points.
    arrow, arrow_edge : str
        Arrows of checker moves: the arrow and its dark outline.
    hit : str
        The ring that marks a blot that was hit.
    """

    checkers: tuple[str, str] = PLAYER_COLORS
    checker_edges: tuple[str, str] = PLAYER_EDGE_COLORS
    checker_text: tuple[str, str] = PLAYER_TEXT_COLORS
    felt: str = "#1E4D38"
    point_light: str = "#EADCBD"
    point_dark: str = "#9E3B2C"
    frame: str = "#D6BC8E"
    frame_edge: str = "#7A5A32"
    tray: str = "#17402E"
    tray_text: str = "#FFFFFF"
    label: str = "#3A2812"
    cube: str = "#FBF8F0"
    cube_edge: str = "#3A2812"
    cube_text: str = "#1A1A1A"
    highlight: str = "#FFE44D"
    arrow: str = "#FFF6C2"
    arrow_edge: str = "#1A1A1A"
    hit: str = "#FF3B30"


DEFAULT_COLORS = BoardColors()


def board_colors(overrides: Mapping[str, object] | None = None) -> BoardColors:
    """The default board colours with some replaced.

    Parameters
    ----------
    overrides : mapping, optional
        Field names of :class:`BoardColors` to colours, e.g. ``{"felt": "#553311"}``;
        ``checkers`` takes a pair (player 0, player 1).

    Raises
    ------
    UnknownNameError
        An unknown colour name (also a ``KeyError``); the message lists the known ones.

    >>> board_colors({"checkers": ("white", "black")}).checkers
    ('white', 'black')
    """
    if not overrides:
        return DEFAULT_COLORS
    known = {f.name for f in fields(BoardColors)}
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise UnknownNameError(
            f"unknown board colour {unknown[0]!r}; known: {', '.join(sorted(known))}"
        )
    changes = {k: tuple(v) if isinstance(v, (list, tuple)) else v for k, v in overrides.items()}
    return replace(DEFAULT_COLORS, **changes)  # type: ignore[arg-type]


def player_color(player: int) -> str:
    """The colour of player 0 or 1, as boards and plots draw them.

    >>> player_color(1)
    '#3568A0'
    """
    if player not in (0, 1):
        raise ArgumentError(f"player must be 0 or 1, got {player!r}")
    return PLAYER_COLORS[player]
