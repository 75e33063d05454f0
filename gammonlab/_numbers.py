"""Integers written in text: transcripts, IDs and play notation read them here.

Only ASCII digits count (``'²'``, ``'２４'`` or ``'٣'`` are no numbers, though
Python's ``int`` and ``str.isdigit`` take some of them), and a number has at
most a few digits, so that no input can ask for a huge integer (or for the
work ``1 << n`` of one).

>>> parse_int("24"), parse_int("007"), parse_int("-1", signed=True)
(24, 7, -1)
>>> parse_int("²"), parse_int("２４"), parse_int(" 3"), parse_int("1_0"), parse_int("9" * 10)
(None, None, None, None, None)
"""

from __future__ import annotations

import re

from .errors import ParseError

__all__ = ["MAX_DIGITS", "parse_int", "read_int"]

MAX_DIGITS = 9
"""The most digits a number in a transcript, ID or play may have (below 10**9)."""

_UNSIGNED = re.compile(r"[0-9]+")
_SIGNED = re.compile(r"[+-]?[0-9]+")


def parse_int(text: object, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """The integer ``text`` writes in ASCII digits, or ``None``.

    Parameters
    ----------
    text : str
        The digits, nothing around them (strip it first); any other type gives ``None``.
    signed : bool
        Allow a leading ``+`` or ``-``.
    max_digits : int
        The most digits allowed, leading zeros included.
    """
    if not isinstance(text, str) or len(text) > max_digits + 1:
        return None
    pattern = _SIGNED if signed else _UNSIGNED
    if not pattern.fullmatch(text) or len(text.lstrip("+-")) > max_digits:
        return None
    return int(text)


def read_int(text: str, what: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int:
    """:func:`parse_int`, raising :class:`~gammonlab.errors.ParseError` (a ``ValueError``,
    with ``what`` it should be) when ``text`` is not such a number; for parsers that
    turn it into a located error.

    >>> read_int("12", "a count")
    12
    >>> read_int("1e3", "a count")
    Traceback (most recent call last):
    ...
    gammonlab.errors.ParseError: expected a count (at most 9 ASCII digits), got '1e3'
    """
    value = parse_int(text, signed=signed, max_digits=max_digits)
    if value is None:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ParseError(f"expected {what} (at most {max_digits} ASCII digits), got {shown!r}")
    return value
