"""The text level shared by the transcript readers: decoding and raw records.

Every reader in :mod:`gammonlab.io` accepts a path, a string of text, bytes or
an open file (text or binary). :func:`read_source` turns any of them into one
string with ``\\n`` line endings and a name for error messages;
:func:`decode_bytes` guesses the encoding of raw bytes, once for the whole file.

The readers (:func:`gammonlab.io.mat.parse_mat`, :func:`gammonlab.io.sgf.parse_sgf`)
return a :class:`RawMatch`: what a transcript *says*, action by action, each
with its :class:`Location`, and with no backgammon rule applied. The replay
layer (``gammonlab.match``) checks it against the rules.

>>> decode_bytes(b"\\xef\\xbb\\xbf 1 point match\\r\\n")
(' 1 point match\\n', 'utf-8-sig')
>>> decode_bytes("Sahlén".encode("latin-1"))
('Sahlén', 'latin-1')
>>> read_source(" Game 1\\n")
(' Game 1\\n', None)
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any, Literal, NamedTuple, Union

from ..errors import (
    OptionError,
    OptionTypeError,
    ParseError,
    SourceError,
    SourceNotFoundError,
)

__all__ = [
    "ACTION_KINDS",
    "MAX_PROBLEMS",
    "MAX_SOURCE_BYTES",
    "Errors",
    "Location",
    "ProblemLog",
    "RawAction",
    "RawGame",
    "RawMatch",
    "Source",
    "SourceError",
    "SourceNotFoundError",
    "SourceText",
    "collects",
    "decode_bytes",
    "load_source",
    "load_transcript",
    "normalize_newlines",
    "read_source",
    "split_rating",
    "stated_crawford",
]

Source = Union[str, bytes, bytearray, "os.PathLike[str]", IO[str], IO[bytes], "SourceText"]
"""What the readers accept: a path, the text, its bytes, or an open file."""

Errors = Literal["raise", "collect"]
"""What a reader does with what it cannot read: raise, or skip it and list it."""


def collects(errors: str) -> bool:
    """Whether a reader's ``errors=`` says to collect problems rather than raise.

    >>> collects("collect"), collects("raise")
    (True, False)
    """
    if errors not in ("raise", "collect"):
        raise OptionError(f"errors must be 'raise' or 'collect', not {errors!r}", option="errors")
    return errors == "collect"


_BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")
# Bytes that cp1252 leaves undefined; their presence means the file is not cp1252.
_CP1252_HOLES = frozenset(b"\x81\x8d\x8f\x90\x9d")
# How a one-line transcript starts: SGF, a header or comment, the match length, a game.
_TEXT_START = re.compile(
    r"\s*(?:[(;\[]|[0-9]+\s+points?\s+match|match\s+of\s|game\s+[0-9])", re.IGNORECASE
)
_MAX_PATH = 4096
# a FIBS-style name with its rating: "massie,1522"
_RATING = re.compile(r"^(.*?\S)\s*,\s*(-?[0-9]+(?:[.,][0-9]+)?)$")
# Lone surrogates can come in a str but in no file; they become U+FFFD as undecodable bytes do.
_SURROGATE = re.compile("[\ud800-\udfff]")


MAX_SOURCE_BYTES = 64 << 20
"""The most bytes a file is read for: the longest transcripts are well under 1 MB."""
MAX_PROBLEMS = 1000
"""The most problems a reader, and then the replay, list for one file with
``errors="collect"``; the rest are counted in one last problem."""


ACTION_KINDS: tuple[str, ...] = (
    "move",
    "double",
    "beaver",
    "raccoon",
    "take",
    "drop",
    "resign",
    "accept",
    "reject",
    "win",
)
"""Every value of :attr:`RawAction.kind`."""


@dataclass(frozen=True)
class Location:
    """Where something is written: 1-based line and column, and the whole line.

    >>> loc = Location("m.mat", 12, 5, "  7) 63: 24/18 13/10")
    >>> str(loc)
    'm.mat:12:5'
    """

    source: str | None
    line: int
    column: int
    text: str
    """The whole source line, for error messages."""

    def __str__(self) -> str:
        parts = (self.source, self.line, self.column)
        return ":".join(str(part) for part in parts if part is not None)

    def error(self, message: str) -> ParseError:
        """A :class:`~gammonlab.errors.ParseError` pointing here."""
        return ParseError(
            message, source=self.source, line=self.line, column=self.column, text=self.text
        )


@dataclass(frozen=True, kw_only=True, init=False)
class RawAction:
    """One action as a transcript writes it, before any rule is applied.

    Equality ignores :attr:`loc`, so the same action read from two files (or
    written and read back) compares equal.

    Attributes
    ----------
    player : int
        0 = the transcript's first (left) player, 1 = the second (right). In
        SGF, White is player 0 and Black player 1.
    kind : str
        One of :data:`ACTION_KINDS`. ``'move'`` is a roll and its play (also a
        dance); ``'resign'`` is an offer to resign (or a resignation);
        ``'accept'`` / ``'reject'`` answer a resignation; ``'win'`` is a result.
    dice : (int, int) or None
        The roll in the order written (``(1, 2)`` for gammonview's ``12:``):
        for ``'move'``, and for ``'resign'`` when the text shows the roll
        before the resignation (``62: ????``, ``62: Concedes``).
    play : str or None
        For ``'move'``: the play exactly as written (``'24/18 13/11*'``,
        ``'Bar/20 6/4*(2)'``); ``''`` when no checker moved (a dance written as
        nothing or ``Cannot Move``, or a roll before a resignation in GNU
        Backgammon's exports); ``None`` when the play is unknown (``62: ?``, an
        SGF ``DI`` roll with no move). SGF plays are converted to text in the
        mover's own numbering (``'8/5 6/5'``, ``'bar/22'``, ``'6/off'``).
    cube : int or None
        For ``'double'``/``'beaver'``/``'raccoon'``: the cube value offered, as
        written (``Doubles => 2``). SGF does not write it; the SGF reader counts it.
    points : int or None
        For ``'win'``: the points written (kept even when impossible, such as
        ``Wins 4016 point`` in a 3-point match). For ``'resign'``: the points
        when the text says them (BackgammonGalaxy's ``Losses 1 point``).
    resign_level : int or None
        1 single, 2 gammon, 3 backgammon, when the text names the level.
    match_won : bool
        ``Wins ... and the match``.
    analysis : dict or None
        GNU Backgammon's analysis properties of an SGF node (``A``, ``DA``,
        ``LU``, ...), parsed into numbers; see :mod:`gammonlab.io.sgf`.
    comment : str or None
        An SGF ``C[...]`` comment on the action.
    loc : Location
        Where the action is written (the column of its first token).
    """

    player: int
    kind: str
    dice: tuple[int, int] | None = None
    play: str | None = None
    cube: int | None = None
    points: int | None = None
    resign_level: int | None = None
    match_won: bool = False
    analysis: dict[str, Any] | None = None
    comment: str | None = None
    loc: Location = field(compare=False)

    def __init__(
        self,
        *,
        player: int,
        kind: str,
        dice: tuple[int, int] | None = None,
        play: str | None = None,
        cube: int | None = None,
        points: int | None = None,
        resign_level: int | None = None,
        match_won: bool = False,
        analysis: dict[str, Any] | None = None,
        comment: str | None = None,
        loc: Location,
    ) -> None:
        # the fields of a frozen dataclass, set at once: a reader builds one per action
        object.__setattr__(
            self,
            "__dict__",
            {
                "player": player,
                "kind": kind,
                "dice": dice,
                "play": play,
                "cube": cube,
                "points": points,
                "resign_level": resign_level,
                "match_won": match_won,
                "analysis": analysis,
                "comment": comment,
                "loc": loc,
            },
        )


@dataclass(frozen=True, kw_only=True)
class RawGame:
    """One game of a transcript, as written.

    Attributes
    ----------
    number : int
        The game's number as written (``Game 3``; SGF ``MI[game:2]`` + 1).
    players : (str, str)
        Names on the game's header line (ratings such as ``massie,1522`` split
        off into :attr:`ratings`).
    ratings : (str or None, str or None)
        Ratings carried by the names, as written.
    scores : (int, int) or None
        The score before the game, as written; ``None`` when not written.
    actions : tuple of RawAction
        Every action in order; a result is a final ``'win'`` action.
    complete : bool
        A result was written (``Wins ...`` / ``RE[...]``). A file cut short
        leaves its last game incomplete.
    rules : tuple of str
        SGF ``RU`` parts (``'Crawford'``, ``'CrawfordGame'``, ``'Jacoby'``,
        ``'NoCube'``, a variant such as ``'Nackgammon'``). In ``.mat``,
        ``'CrawfordGame'`` or ``'NoCrawfordGame'`` from a ``; [CrawfordGame "On"]``
        line under ``Game N`` (gammonlab writes it where the scores do not tell the
        Crawford game, R10.2), else empty.
    cube : int
        The cube when play starts: 1, or the value GNU Backgammon's automatic
        doubles of equal opening rolls turned it to (R10.5; SGF ``CV[n]``,
        ``.mat`` a ``; [Cube "n"]`` line under ``Game N``).
    problems : tuple of ParseError
        What was skipped in this game when reading with ``errors="collect"``.
    loc : Location
        The ``Game N`` line (SGF: the game's opening parenthesis).
    """

    number: int
    players: tuple[str, str]
    ratings: tuple[str | None, str | None] = (None, None)
    scores: tuple[int, int] | None = None
    actions: tuple[RawAction, ...] = ()
    complete: bool = False
    rules: tuple[str, ...] = ()
    cube: int = 1
    problems: tuple[ParseError, ...] = field(default=(), compare=False)
    loc: Location = field(compare=False)


@dataclass(frozen=True, kw_only=True)
class RawMatch:
    """A whole transcript as written: headers, match length and games.

    Attributes
    ----------
    format : str
        ``'mat'`` or ``'sgf'``.
    source : str or None
        The file name, when read from a file.
    encoding : str or None
        The encoding detected (``'utf-8'``, ``'utf-8-sig'``, ``'latin-1'``,
        ``'cp1252'``); ``None`` when the text was given as a string.
    headers : dict of str to str
        ``.mat``: ``; [Key "value"]`` lines in order. SGF: the first game's
        root properties that describe the match (``EV``, ``RO``, ``PC``,
        ``DT``, ``AP``, ...), first value each.
    match_length : int or None
        Points to win; 0 for money play; ``None`` when the file does not say.
    players : (str, str)
        Player 0 and 1 as named on the first game's header line (SGF: ``PW``, ``PB``).
    ratings : (str or None, str or None)
        Ratings carried by the names (``massie,1522``) or SGF ``WR``/``BR``.
    variant : str or None
        The ``Variation`` header (``'Backgammon'``, ``'NackGammon'``, ...) or
        the variant in SGF ``RU``; ``None`` when not written.
    games : tuple of RawGame
    problems : tuple of ParseError
        Everything skipped when reading with ``errors="collect"`` (empty otherwise).
    locations : dict of str to Location
        Where the headers are written, for messages about them: ``.mat``, each
        header's key; SGF, ``'RU'`` (the first game's rules) and the match's
        root properties.
    """

    format: str
    source: str | None
    encoding: str | None
    headers: dict[str, str]
    match_length: int | None
    players: tuple[str, str]
    ratings: tuple[str | None, str | None] = (None, None)
    variant: str | None = None
    games: tuple[RawGame, ...] = ()
    problems: tuple[ParseError, ...] = field(default=(), compare=False)
    locations: dict[str, Location] = field(default_factory=dict, compare=False, repr=False)

    @property
    def actions(self) -> tuple[RawAction, ...]:
        """Every action of every game, in order."""
        return tuple(action for game in self.games for action in game.actions)


class ProblemLog:
    """The problems of one file read with ``errors="collect"``, or none: without
    ``collect`` the first problem raises.

    The first :data:`MAX_PROBLEMS` are listed; the others are only counted, so
    that a file of garbage costs no more than a file of text, and the last entry
    of :attr:`listed` says how many there were and where the first of them is.

    >>> log = ProblemLog(collect=True)
    >>> log.add(Location("m.mat", 3, 1, "xyz"), "expected a header")
    ParseError('m.mat:3:1: expected a header\\n    xyz\\n    ^')
    >>> [str(p).splitlines()[0] for p in log.listed()]
    ['m.mat:3:1: expected a header']
    """

    def __init__(self, *, collect: bool) -> None:
        self.collect = collect
        self.items: list[ParseError] = []
        self.unlisted = 0
        self._first_unlisted: tuple[Location, str] | None = None

    def add(self, where: Location, message: str) -> ParseError | None:
        """Raise (not collecting) or list a problem at ``where``; ``None`` once the
        list is full."""
        if not self.collect:
            raise where.error(message)
        if len(self.items) >= MAX_PROBLEMS:
            self.unlisted += 1
            if self._first_unlisted is None:
                self._first_unlisted = (where, message)
            return None
        error = where.error(message)
        self.items.append(error)
        return error

    def append(self, error: ParseError) -> bool:
        """Raise (not collecting) or list a problem made elsewhere; False once the
        list is full."""
        if not self.collect:
            raise error
        if len(self.items) >= MAX_PROBLEMS:
            self.unlisted += 1
            return False
        self.items.append(error)
        return True

    def listed(self) -> tuple[ParseError, ...]:
        """The problems listed, and the count of the others."""
        if not self.unlisted:
            return tuple(self.items)
        first = f"; the first: {self._first_unlisted[1]}" if self._first_unlisted else ""
        message = f"{self.unlisted} more problems are not listed{first}"
        if self._first_unlisted is not None:
            summary = self._first_unlisted[0].error(message)
        else:
            last = self.items[-1]
            summary = ParseError(
                message, source=last.source, line=last.line, column=last.column, text=last.text
            )
        return (*self.items, summary)


class SourceText(NamedTuple):
    """Decoded text of a source, with its name and the encoding that was detected."""

    text: str
    name: str | None
    encoding: str | None


def split_rating(name: str) -> tuple[str, str | None]:
    """A player's name and the rating it carries, FIBS style, if any.

    >>> split_rating("massie,1522"), split_rating("anna")
    (('massie', '1522'), ('anna', None))
    """
    match = _RATING.match(name)
    if match:
        return match.group(1), match.group(2)
    return name, None


def stated_crawford(parts: Sequence[str]) -> bool | None:
    """Whether a game's rule parts say it is the Crawford game: SGF ``RU`` (GNU Backgammon
    writes ``CrawfordGame`` on the Crawford game of every match played with the rule),
    or the ``CrawfordGame`` / ``NoCrawfordGame`` a ``.mat`` line states; ``None``: silent."""
    lower = {part.lower() for part in parts}
    if "crawfordgame" in lower:
        return True
    if "nocrawfordgame" in lower or "crawford" in lower:
        return False
    return None


def normalize_newlines(text: str) -> str:
    """Turn CRLF and lone CR line endings into LF.

    >>> normalize_newlines("a\\r\\nb\\rc")
    'a\\nb\\nc'
    """
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode a whole transcript, guessing its encoding once for the whole file.

    UTF-8 (with or without a byte-order mark) is tried first; UTF-16 only when
    the file starts with its byte-order mark. Bytes that are not UTF-8 are
    single-byte text: cp1252 when it decodes them and they use cp1252's
    printable 0x80-0x9F range, Latin-1 otherwise (Latin-1 decodes anything).
    Line endings are normalised to ``\\n``.

    Parameters
    ----------
    data : bytes
        The file's content.

    Returns
    -------
    (str, str)
        The text and the encoding's name: ``'utf-8'``, ``'utf-8-sig'``,
        ``'utf-16'``, ``'cp1252'`` or ``'latin-1'``.

    Examples
    --------
    >>> decode_bytes(b"K\\xc3\\xa9vin\\r\\n")
    ('Kévin\\n', 'utf-8')
    >>> decode_bytes(b"\\x93quoted\\x94")
    ('“quoted”', 'cp1252')
    """
    data = bytes(data)
    if data.startswith(b"\xef\xbb\xbf"):
        text, encoding = data[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    elif data.startswith(_BOMS_UTF16):
        text, encoding = data.decode("utf-16", errors="replace"), "utf-16"
    else:
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            high_controls = any(0x80 <= b <= 0x9F for b in data)
            if high_controls and not any(b in _CP1252_HOLES for b in data):
                text, encoding = data.decode("cp1252"), "cp1252"
            else:
                text, encoding = data.decode("latin-1"), "latin-1"
    return normalize_newlines(text), encoding


def _path_name(path: os.PathLike[str] | str) -> str:
    return os.fspath(path)


def _clean(text: str) -> str:
    """Newlines normalised, lone surrogates replaced."""
    text = normalize_newlines(text)
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _read_path(path: os.PathLike[str] | str) -> SourceText:
    name = _path_name(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read(MAX_SOURCE_BYTES + 1)
    except FileNotFoundError as exc:
        raise SourceNotFoundError(f"{name}: no such file or folder") from exc
    except IsADirectoryError as exc:
        raise SourceError(
            f"{name}: is a folder, not a transcript (read_matches reads the "
            f"transcripts of a folder)"
        ) from exc
    except (OSError, ValueError) as exc:  # refused, a name too long, an embedded NUL, ...
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SourceError(f"{name}: cannot be read: {reason}") from exc
    if len(data) > MAX_SOURCE_BYTES:  # no transcript is this long (a device, an endless pipe)
        raise SourceError(f"{name}: more than {MAX_SOURCE_BYTES >> 20} MB, which no transcript is")
    text, encoding = decode_bytes(data)
    return SourceText(text, name, encoding)


def _names_a_file(text: str) -> bool:
    try:
        return os.path.isfile(text)
    except (OSError, ValueError):  # embedded NUL, name too long, ...
        return False


def load_source(source: Source) -> SourceText:
    """Read a path, a string, bytes or an open file into :class:`SourceText`.

    A string is the transcript's text when it holds more than one line, and
    when its one line starts as a transcript does (``(`` of SGF, ``;`` of a
    header, ``7 point match``, ``Game 1``) or is empty; a one-line string that
    names an existing file is that file; any other one-line string is a path,
    and one that does not exist raises :class:`SourceNotFoundError` (a folder,
    :class:`~gammonlab.errors.SourceError`). ``os.PathLike`` objects are always
    paths. Text given as a string keeps ``encoding=None``; lone surrogates
    (which no file holds) become U+FFFD, as undecodable bytes do.

    >>> load_source(b"\\xef\\xbb\\xbf 3 point match\\n")
    SourceText(text=' 3 point match\\n', name=None, encoding='utf-8-sig')
    >>> load_source("no/such/file.mat")
    Traceback (most recent call last):
    ...
    gammonlab.errors.SourceNotFoundError: no/such/file.mat: no such file or folder
    """
    if isinstance(source, SourceText):
        return source
    if isinstance(source, os.PathLike):
        return _read_path(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        text, encoding = decode_bytes(bytes(source))
        return SourceText(text, None, encoding)
    if isinstance(source, str):
        one_line = "\n" not in source and "\r" not in source
        if one_line and 0 < len(source) < _MAX_PATH:
            if _names_a_file(source):
                return _read_path(source)
            if source.strip() and not _TEXT_START.match(source.removeprefix("\ufeff")):
                return _read_path(source)  # a path: it does not exist, or is a folder
        return SourceText(_clean(source.removeprefix("\ufeff")), None, None)
    read = getattr(source, "read", None)
    if read is None:
        raise OptionTypeError(
            f"expected a path, a string, bytes or an open file, got {type(source).__name__}",
            option="source",
        )
    name = getattr(source, "name", None)
    name = os.fspath(name) if isinstance(name, (str, os.PathLike)) else None
    try:
        data = read()
    except UnicodeDecodeError as exc:
        # A text-mode file opened with the wrong encoding: re-read its bytes if possible.
        buffer = getattr(source, "buffer", None)
        if buffer is None or not hasattr(source, "seek"):
            raise SourceError(f"{name or '<file>'}: cannot decode the file: {exc}") from exc
        source.seek(0)
        data = buffer.read()
    except OSError as exc:
        raise SourceError(f"{name or '<file>'}: cannot be read: {exc}") from exc
    if isinstance(data, (bytes, bytearray)):
        text, encoding = decode_bytes(bytes(data))
        return SourceText(text, name, encoding)
    if not isinstance(data, str):
        raise OptionTypeError(
            f"the file's read() returned {type(data).__name__}, not str or bytes", option="source"
        )
    declared = getattr(source, "encoding", None)
    file_encoding = (
        declared if isinstance(declared, str) and not isinstance(source, io.StringIO) else None
    )
    return SourceText(_clean(data.removeprefix("\ufeff")), name, file_encoding)


def load_transcript(source: Source, *, collect: bool) -> tuple[SourceText, ParseError | None]:
    """:func:`load_source` for a reader: with ``collect``, a one-line string that
    names no file is read as text, and the second item says so (a problem to list).

    >>> loaded, note = load_transcript("nosuch_folder", collect=True)
    >>> loaded.text, note.detail
    ('nosuch_folder', 'no file or folder nosuch_folder: read as the text of a transcript')
    """
    try:
        return load_source(source), None
    except SourceError as error:
        if not collect or not isinstance(source, str):
            raise
        text = _clean(source)
        note = (
            ParseError(
                f"no file or folder {source}: read as the text of a transcript",
                line=1,
                column=1,
                text=text,
            )
            if isinstance(error, SourceNotFoundError)
            else ParseError(
                f"{str(error).removeprefix(source + ': ')}: read as the text of a transcript",
                line=1,
                column=1,
                text=text,
            )
        )
        return SourceText(text, None, None), note


def read_source(source: Source) -> tuple[str, str | None]:
    """Read a path, a string, bytes or an open file; return ``(text, source_name)``.

    See :func:`load_source` for the rules; this drops the encoding.

    >>> read_source(b"1 point match\\r\\n")
    ('1 point match\\n', None)
    """
    loaded = load_source(source)
    return loaded.text, loaded.name
