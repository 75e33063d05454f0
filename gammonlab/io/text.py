"""The text level shared by the transcript readers: sources, decoding, names.

Every reader in :mod:`gammonlab.io` accepts a path, a string of text, bytes or
an open file (text or binary). :func:`read_source` turns any of them into one
string with ``\\n`` line endings and a name for error messages;
:func:`decode_bytes` guesses the encoding of raw bytes, once for the whole file.

What the readers make of the text, :class:`~gammonlab.io.raw.RawMatch`, is
in :mod:`gammonlab.io.raw`.

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
from typing import IO, Literal, NamedTuple, Union

from ..errors import (
    OptionError,
    OptionTypeError,
    ParseError,
    SourceError,
    SourceNotFoundError,
)
from . import raw
from .raw import *  # noqa: F403 (re-exported: the records the readers make of the text)

__all__ = [
    "MAX_SOURCE_BYTES",
    "MOST_GAMES",
    "Errors",
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
__all__ += raw.__all__  # the raw records, importable from here as before

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

MOST_GAMES = 2_000
"""The most games one transcript is read for (a match holds tens, a long money session
hundreds): the games after them are refused, or in collect mode listed as not read, so
that a text of many tiny games costs bounded work."""


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
            text = source.removeprefix("\ufeff")
            if text.strip() and not _TEXT_START.match(text):
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
    except (OSError, ValueError) as exc:  # ValueError: a closed file, among others
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
