"""Reading transcripts: the format detected from the content, one or many files.

>>> from gammonlab import read_match
>>> read_match(" 1 point match\\n\\n Game 1\\n A : 0     B : 0\\n  1) 31: 8/5 6/5\\n").players
('A', 'B')
"""

from __future__ import annotations

import os
from typing import Any, Literal

from ..errors import ParseError
from ..match import Match, replay_match
from .mat import parse_mat
from .sgf import parse_sgf
from .text import Source, load_source

__all__ = ["detect_format", "read_match"]

Errors = Literal["raise", "collect"]


def detect_format(text: str) -> str:
    """``'sgf'`` for SGF game records, ``'mat'`` for match transcripts.

    >>> detect_format("(;FF[4]GM[6]")
    'sgf'
    """
    stripped = text.lstrip("\ufeff \t\r\n")
    return "sgf" if stripped.startswith("(") and ";" in stripped[:20] else "mat"


def read_match(source: Source | os.PathLike[str], *, errors: Errors = "raise",
               format: str | None = None) -> Match:
    """Read a transcript (``.mat`` or ``.sgf``) into a :class:`~gammonlab.match.Match`.

    Parameters
    ----------
    source : path, str, bytes or file
        A path, the transcript's text, its bytes or an open file.
    errors : {'raise', 'collect'}
        ``raise`` stops at the first problem with a :class:`~gammonlab.errors.ParseError`
        naming file, line and column; ``collect`` keeps every good game and lists
        what it skipped, and why, in ``match.problems``.
    format : {'mat', 'sgf'}, optional
        Detected from the content when not given.
    """
    loaded = load_source(source)
    kind = format or detect_format(loaded.text)
    if kind not in ("mat", "sgf"):
        raise ParseError(f"unknown transcript format {kind!r}", source=loaded.name)
    parse = parse_sgf if kind == "sgf" else parse_mat
    raw: Any = parse(source if not isinstance(source, str) or "\n" in source
                     else source, errors=errors)
    return replay_match(raw, errors=errors)
