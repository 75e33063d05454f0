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
    "OptionError",
    "OptionTypeError",
    "ParseError",
    "RolloutError",
    "SourceError",
    "SourceNotFoundError",
]

_EXCERPT = 72
"""Characters of a long line quoted on each side of the column an error points at."""


class GammonlabError(Exception):
    """Base class of every error gammonlab raises."""


class InvalidPositionError(GammonlabError, ValueError):
    """A board, Position ID, Match ID or XGID that describes no legal position."""


class InvalidNotationError(GammonlabError, ValueError):
    """Text that is not a play in any notation gammonlab knows, e.g. ``'24-18'``."""


class OptionError(GammonlabError, ValueError):
    """An option (of :class:`~gammonlab.rules.Rules`, a reader, a command) that is
    out of range, unknown, or does not go with another option.

    Attributes
    ----------
    option : str or None
        The option's name (``'match_length'``, ``'cube_limit'``).
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class OptionTypeError(OptionError, TypeError):
    """An option of the wrong type, e.g. ``Rules(match_length='3')``."""


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
            quoted, caret = _excerpt(text, column)
            full += f"\n    {quoted}"
            if caret is not None:
                full += "\n    " + " " * caret + "^"
        super().__init__(full)


def _excerpt(text: str, column: int | None) -> tuple[str, int | None]:
    """The part of a line to quote, and the caret's offset in it: a long line (a whole
    SGF file can be one) is cut to the neighbourhood of the column."""
    at = column - 1 if column is not None and column >= 1 else None
    if len(text) <= 2 * _EXCERPT:
        return text, at
    centre = min(at, len(text)) if at is not None else 0
    start = max(0, centre - _EXCERPT)
    end = min(len(text), centre + _EXCERPT)
    head = "..." if start else ""
    quoted = head + text[start:end] + ("..." if end < len(text) else "")
    return quoted, None if at is None else len(head) + at - start


class SourceError(GammonlabError, OSError):
    """A file or folder that cannot be read: missing, a folder where a file is
    wanted, or refused by the system. The message starts with the path."""


class SourceNotFoundError(SourceError, FileNotFoundError):
    """A reader was given the name of a file or folder that does not exist."""


class RolloutError(GammonlabError, ValueError):
    """A rollout that cannot be run as asked: bad options, or a worker that failed."""


class MissingDependencyError(GammonlabError, ImportError):
    """An optional dependency is needed for this feature and is not installed."""


class NetWeightsError(GammonlabError, OSError):
    """A weights file of the neural evaluator that is missing, damaged or of
    another layout; the message names the file and what is wrong with it."""
