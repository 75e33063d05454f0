"""The errors gammonlab raises.

Every error derives from :class:`GammonlabError`; the ones caused by bad input
also derive from :class:`ValueError`, so ``except ValueError`` keeps working in
code that does not know gammonlab.
"""

from __future__ import annotations

__all__ = [
    "GammonlabError",
    "IllegalPlayError",
    "InvalidNotationError",
    "InvalidPositionError",
    "MissingDependencyError",
    "NetWeightsError",
    "ParseError",
]


class GammonlabError(Exception):
    """Base class of every error gammonlab raises."""


class InvalidPositionError(GammonlabError, ValueError):
    """A board, Position ID, Match ID or XGID that describes no legal position."""


class InvalidNotationError(GammonlabError, ValueError):
    """Text that is not a play in any notation gammonlab knows, e.g. ``'24-18'``."""


class IllegalPlayError(GammonlabError, ValueError):
    """A well-formed play that the rules forbid.

    Attributes
    ----------
    rule : str
        Id of the broken rule in ``rules.md`` (``'R5.1'``).
    reason : str
        The rule in words.
    example : str or None
        A legal play that would do, in canonical notation.
    """

    def __init__(self, message: str, *, rule: str = "", reason: str = "",
                 example: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.reason = reason
        self.example = example


class ParseError(GammonlabError, ValueError):
    """A transcript or ID that cannot be read.

    The message names the source, line and column and quotes the bad text,
    like a compiler: ``match.mat:117:9: expected dice like '63:', got 'x3:'``.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 column: int | None = None, text: str | None = None) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        self.detail = message
        where = ":".join(str(part) for part in (source, line, column) if part is not None)
        full = f"{where}: {message}" if where else message
        if text is not None:
            full += f"\n    {text}"
            if column is not None and column >= 1:
                full += "\n    " + " " * (column - 1) + "^"
        super().__init__(full)


class MissingDependencyError(GammonlabError, ImportError):
    """An optional dependency is needed for this feature and is not installed."""


class NetWeightsError(GammonlabError, OSError):
    """A weights file of the neural evaluator that is missing, damaged or of
    another layout; the message names the file and what is wrong with it."""
