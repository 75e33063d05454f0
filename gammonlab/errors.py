"""The errors gammonlab raises, all in this module.

Every error derives from :class:`GammonlabError`, so ``except gl.GammonlabError``
catches whatever gammonlab raises on purpose. Each also derives from the builtin
exception Python code would expect there (:class:`ValueError` for bad input,
:class:`TypeError` for a value of the wrong type, :class:`OSError` for a file), so
``except ValueError`` keeps working in code that does not know gammonlab:

    GammonlabError
    ├── ArgumentError (ValueError)          an argument out of range or not fitting the others
    │   ├── ArgumentTypeError (TypeError)   an argument of the wrong type
    │   └── OptionError                     an option of Rules, a reader, an analysis, a command
    │       └── OptionTypeError (TypeError) an option of the wrong type
    ├── InvalidPositionError (ValueError)   a board or ID that describes no legal position
    ├── InvalidDiceError (ValueError)       dice that are not two numbers from 1 to 6
    ├── InvalidNotationError (ValueError)   text that is not a play
    ├── IllegalPlayError (ValueError)       a play the rules forbid (with the rule's id)
    ├── PlayIndexError (IndexError)         a play number that is not among the plays
    ├── ParseError (ValueError)             a transcript, header, table or ID that cannot be read
    ├── CellError                           a problem in one line of a .mat file (the reader
    │                                       turns it into a located ParseError)
    ├── WriteError (ValueError)             a match that cannot be written in the format asked
    ├── SourceError (OSError)               a file or folder that cannot be read
    │   └── SourceNotFoundError (FileNotFoundError)
    ├── InvalidProbabilitiesError (ValueError)  not GNU Backgammon's five ordered outputs
    ├── CubeError (ValueError)              a cube question with no answer in this state
    ├── MetError (ValueError)               a malformed match equity table, or a score it lacks
    ├── EvaluatorError (ValueError)         an evaluator that cannot be used
    ├── NetWeightsError (OSError)           a damaged or foreign weights file of the net
    ├── RolloutError (ValueError)           a rollout that cannot be run as asked
    ├── AnalysisError (ValueError)          a match the analysis cannot handle
    ├── PlotDataError (ValueError)          data a plot cannot draw
    ├── TrainingError (ValueError)          a training run that cannot go on
    ├── OutOfTurnError                      a teaching-board action the game does not allow now
    ├── UnknownNameError (KeyError)         a name that is not among the known ones
    ├── ImmutableError (AttributeError)     an attempt to change an immutable object
    ├── MissingDependencyError (ImportError)  an optional dependency that is not installed
    └── InternalError (RuntimeError)        a broken internal invariant: a bug to report

Messages say what is wrong and where (the file, line and column of a transcript,
the field of an ID, the option), and cite the rule (``R5.1``, see ``docs/rules.md``)
where one is broken.
"""

from __future__ import annotations

__all__ = [
    "AnalysisError",
    "ArgumentError",
    "ArgumentTypeError",
    "CellError",
    "CubeError",
    "EvaluatorError",
    "GammonlabError",
    "IllegalPlayError",
    "ImmutableError",
    "InternalError",
    "InvalidDiceError",
    "InvalidNotationError",
    "InvalidPositionError",
    "InvalidProbabilitiesError",
    "MetError",
    "MissingDependencyError",
    "NetWeightsError",
    "OptionError",
    "OptionTypeError",
    "OutOfTurnError",
    "ParseError",
    "PlayIndexError",
    "PlotDataError",
    "RolloutError",
    "SourceError",
    "SourceNotFoundError",
    "TrainingError",
    "UnknownNameError",
    "WriteError",
]

_EXCERPT = 72
"""Characters of a long line quoted on each side of the column an error points at."""


class GammonlabError(Exception):
    """Base class of every error gammonlab raises."""


class ArgumentError(GammonlabError, ValueError):
    """An argument of a function or method that is out of range or does not fit
    the others, e.g. a player that is not 0 or 1, or ``summarise`` given a frame
    that :func:`~gammonlab.analyse` did not make."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type, e.g. ``svg.board(42)``; also a
    :class:`TypeError`."""


class InvalidPositionError(GammonlabError, ValueError):
    """A board, Position ID, Match ID or XGID that describes no legal position.

    Dice are not a position: bad dice raise :class:`InvalidDiceError`, bad options
    :class:`OptionError`."""


class InvalidDiceError(GammonlabError, ValueError):
    """Dice that are not two numbers from 1 to 6, e.g. ``legal_plays((0, 7))``, or no
    dice where a roll is needed."""


class InvalidNotationError(GammonlabError, ValueError):
    """Text that is not a play in any notation gammonlab knows, e.g. ``'24-18'``."""


class OptionError(ArgumentError):
    """An option (of :class:`~gammonlab.rules.Rules`, a reader, an analysis, a
    command) that is out of range, unknown, or does not go with another option.

    Attributes
    ----------
    option : str or None
        The option's name (``'match_length'``, ``'cube_limit'``).
    """

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class OptionTypeError(OptionError, ArgumentTypeError):
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

    def __init__(
        self, message: str, *, rule: str = "", reason: str = "", example: str | None = None
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.reason = reason
        self.example = example


class PlayIndexError(GammonlabError, IndexError):
    """A play number that is not among the plays to choose from, e.g.
    ``legal_plays(dice)[99]``; also an :class:`IndexError`."""


class ParseError(GammonlabError, ValueError):
    """A transcript or ID that cannot be read.

    The message names the source, line and column and quotes the bad text,
    like a compiler: ``match.mat:117:9: expected dice like '63:', got 'x3:'``.
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
        text: str | None = None,
    ) -> None:
        where = ":".join(str(part) for part in (source, line, column) if part is not None)
        full = f"{where}: {message}" if where else message
        if text is not None:
            quoted, caret = _excerpt(text, column)
            full += f"\n    {quoted}"
            if caret is not None:
                full += "\n    " + " " * caret + "^"
        self.source = source
        self.line = line
        self.column = column
        self.text = text
        self.detail = message
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


class CellError(GammonlabError):
    """A problem inside one line of a ``.mat`` transcript, at a 0-based offset; the
    reader turns it into a :class:`ParseError` and it never leaves the reader."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


class WriteError(GammonlabError, ValueError):
    """A match, game or action that cannot be written in the format asked: an
    action of unknown kind, a move without its dice, a play SGF has no letters for."""


class SourceError(GammonlabError, OSError):
    """A file or folder that cannot be read: missing, a folder where a file is
    wanted, or refused by the system. The message starts with the path."""


class SourceNotFoundError(SourceError, FileNotFoundError):
    """A reader was given the name of a file or folder that does not exist."""


class InvalidProbabilitiesError(GammonlabError, ValueError):
    """Probabilities that are not GNU Backgammon's five ordered outputs."""


class CubeError(GammonlabError, ValueError):
    """A cube question that has no answer in the state given: the match is over,
    the player on roll cannot double, the dice are already rolled."""


class MetError(GammonlabError, ValueError):
    """A match equity table that is malformed (not square, values outside [0, 1]),
    or asked for a score it does not cover."""


class EvaluatorError(GammonlabError, ValueError):
    """An evaluator or policy that cannot be used: unknown name, wrong output."""


class RolloutError(GammonlabError, ValueError):
    """A rollout that cannot be run as asked: bad options, or a worker that failed."""


class AnalysisError(GammonlabError, ValueError):
    """A match the analysis cannot handle: a variant no evaluator knows, a file
    without a readable game, a play the engine does not find among the legal ones."""


class PlotDataError(GammonlabError, ValueError):
    """Data a plot cannot draw: a missing column, an empty frame, the wrong kind of object."""


class TrainingError(GammonlabError, ValueError):
    """A training run that cannot go on: a bad option or a run folder that does
    not match the options given."""


class OutOfTurnError(GammonlabError):
    """An action of a :class:`~gammonlab.teaching.TeachingBoard` that the game does
    not allow now: rolling when a play is due, playing after the game is over."""


class UnknownNameError(GammonlabError, KeyError):
    """A name that is not among the known ones (a board colour, a lesson's rule, a
    sample match); the message lists the known names. Also a :class:`KeyError`, whose message it
    shows as written rather than quoted."""

    def __str__(self) -> str:
        return str(self.args[0]) if len(self.args) == 1 else super().__str__()


class ImmutableError(GammonlabError, AttributeError):
    """An attempt to set an attribute of an immutable object such as a
    :class:`~gammonlab.position.Position`; also an :class:`AttributeError`."""


class MissingDependencyError(GammonlabError, ImportError):
    """An optional dependency is needed for this feature and is not installed."""


class NetWeightsError(GammonlabError, OSError):
    """A weights file of the neural evaluator that is missing, damaged or of
    another layout; the message names the file and what is wrong with it."""


class InternalError(GammonlabError, RuntimeError):
    """A check of gammonlab's own consistency that failed: a bug, to be reported
    with the message."""
