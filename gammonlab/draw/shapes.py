"""The shapes a board diagram is made of, and their SVG text.

A :class:`Diagram` is a list of plain shapes (rectangles, circles, polygons,
curves, text, groups) in the diagram's own units; :func:`render_svg` writes it
as an :class:`SVG` document, and :mod:`gammonlab.draw.mpl_board` draws the same
shapes with matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from ..errors import ArgumentTypeError
from .style import FONT_FAMILY

__all__ = [
    "DEFAULT_SIZE",
    "SVG",
    "Circle",
    "Curve",
    "Diagram",
    "Group",
    "Polygon",
    "Rect",
    "Shape",
    "Text",
    "render_svg",
]

DEFAULT_SIZE = 480
"""Default width of an SVG board in pixels (the height follows)."""

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
    """A circle: a checker, a die's pip, a ring.

    ``(cx, cy)`` is its centre and ``r`` its radius, as in SVG's ``<circle>``.
    """

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
