"""Match equity tables: a player's chance to win the match from a score.

A match equity table (MET) gives the match winning chance (MWC) of a player who
needs ``away`` points against an opponent who needs ``opp_away``, at the start
of a game with the cube centred at 1. Two parts make a table: the pre-Crawford
table (every score; at 1-away it is the Crawford game, R10.2) and the
post-Crawford table (the leader is 1-away and the Crawford game has been
played, so the trailer doubles at once).

gammonlab ships the tables of GNU Backgammon 1.07 (their notices are kept in
``gammonlab/data/met``) and reads any file in GNU Backgammon's MET XML format.
Kazaross-XG2 is the default. :func:`generate` computes a table of our own from
gammon rates.

>>> table = load()
>>> table.name
'Kazaross XG2 25 point MET'
>>> round(table.equity(3, 5), 5)
0.64795
>>> round(table.equity(1, 2), 5), round(table.equity(1, 2, crawford=False), 5)
(0.67736, 0.51197)
>>> equity(2, 2)
0.5
"""

from __future__ import annotations

import functools
import os
from importlib import resources
from typing import IO, Any

from ..errors import (
    ArgumentTypeError,
    OptionError,
    OptionTypeError,
    SourceError,
    SourceNotFoundError,
)
from ._xml import check_max_away, from_xml_text
from .formulas import GENERATOR_DEFAULTS, generate
from .table import DEFAULT_TABLE, LONGEST_AWAY, MAX_AWAY, MatchEquityTable

__all__ = [
    "DEFAULT_TABLE",
    "GENERATOR_DEFAULTS",
    "LONGEST_AWAY",
    "MAX_AWAY",
    "MatchEquityTable",
    "available",
    "equity",
    "generate",
    "load",
    "read",
]

_DATA = ("data", "met")
_MAX_TABLE_BYTES = 16 << 20


# -- loading -------------------------------------------------------------------------------------


def _data_folder() -> Any:
    folder = resources.files("gammonlab")
    for part in _DATA:
        folder = folder / part
    return folder


def available() -> list[str]:
    """Names of the shipped tables, for :func:`load`.

    >>> "Kazaross-XG2" in available(), "zadeh" in available()
    (True, True)
    """
    names = [
        entry.name[: -len(".xml")]
        for entry in _data_folder().iterdir()
        if entry.name.endswith(".xml")
    ]
    return sorted(names, key=str.lower)


def load(name: str = DEFAULT_TABLE, *, max_away: int = MAX_AWAY) -> MatchEquityTable:
    """A shipped table by name (case ignored), extended to ``max_away`` points.

    Parameters
    ----------
    name : str
        One of :func:`available`, e.g. ``'Kazaross-XG2'``, ``'jacobs'``,
        ``'woolsey'``, ``'zadeh'``.
    max_away : int
        Scores to cover. Tables that stop short are extended as GNU Backgammon
        extends them (see :func:`read`).

    Examples
    --------
    >>> round(load("woolsey").equity(4, 3), 3)
    0.41
    >>> load("snowie").native_length, load("snowie").max_away
    (15, 25)
    """
    if not isinstance(name, str):
        raise OptionTypeError(f"a table's name is a str, got {type(name).__name__}", option="name")
    key = name.strip().lower()
    return _load_cached(
        key[: -len(".xml")] if key.endswith(".xml") else key, check_max_away(max_away)
    )


@functools.lru_cache(maxsize=32)
def _load_cached(key: str, max_away: int) -> MatchEquityTable:
    by_key = {name.lower(): name for name in available()}
    if key not in by_key:
        raise OptionError(
            f"no match equity table {key!r}; shipped tables: " + ", ".join(available()),
            option="name",
        )
    entry = _data_folder() / f"{by_key[key]}.xml"
    text = entry.read_text(encoding="utf-8")
    return from_xml_text(text, source=f"{by_key[key]}.xml", max_away=max_away)


def read(
    source: str | bytes | os.PathLike[str] | IO[str] | IO[bytes], *, max_away: int = MAX_AWAY
) -> MatchEquityTable:
    """Read a table in GNU Backgammon's MET XML format.

    Parameters
    ----------
    source : XML text, path, bytes or open file
        A ``str`` is the XML itself when it starts with ``<`` (after a byte-order
        mark and white space) and the path of a file otherwise; an
        ``os.PathLike`` is always a path; bytes and open files are the file's
        content (UTF-8 unless the XML declares another encoding).
    max_away : int
        Scores the returned table covers, 1 to :data:`LONGEST_AWAY`.

    Returns
    -------
    MatchEquityTable

    Raises
    ------
    ParseError
        The XML is malformed (bytes that are not text in its encoding
        included), declares an encoding that cannot be read or a DOCTYPE
        with declarations of its own (a ``[...]`` part, where entities are
        declared), or a value is not a probability; the message names the line.
    SourceError
        The path names no readable file (:class:`SourceNotFoundError` when it
        does not exist).

    Notes
    -----
    Explicit tables keep every number the file gives. Shorter tables are
    extended as GNU Backgammon 1.07 extends them: the pre-Crawford table with
    David Montgomery's normal approximation (the points a game moves have a
    standard deviation of 1.24-1.77 by away score; the leader's chance is the
    normal tail beyond the deficit), the post-Crawford table with Zadeh's
    recursion ``E(n) = 0.5 (g E(n-4) + (1-g) E(n-2))`` at a gammon rate of
    0.25. GNU Backgammon also recomputes the last given post-Crawford entry of
    an n-point table (a score that cannot occur post-Crawford in an n-point
    match); gammonlab keeps the file's value.

    Tables given by parameters (``type="zadeh"`` or ``type="mec"``) are
    computed with Zadeh's formulas (Management Science 23, 986, 1977, as GNU
    Backgammon implements them) or Claes Tornberg's match equity calculator
    (mec.c). GNU Backgammon 1.07 then passes the file's length of -1 to its
    extension routine, which replaces the whole computed pre-Crawford table by
    the normal approximation; gammonlab keeps the computed table. Their
    parameters are rates and probabilities, each from 0 to 1.

    Examples
    --------
    >>> text = '''<met><info><name>tiny</name><description>two points</description>
    ... <length>2</length></info>
    ... <pre-crawford-table type="explicit"><row><me>0.5</me><me>0.7</me></row>
    ... <row><me>0.3</me><me>0.5</me></row></pre-crawford-table>
    ... <post-crawford-table type="explicit" player="both"><row><me>0.5</me><me>0.49</me></row>
    ... </post-crawford-table></met>'''
    >>> table = read(text)
    >>> table.name, table.native_length, table.equity(2, 1), round(table.equity(3, 3), 2)
    ('tiny', 2, 0.3, 0.5)
    >>> read("no/such/table.xml")
    Traceback (most recent call last):
    ...
    gammonlab.errors.SourceNotFoundError: no/such/table.xml: no such file or folder
    """
    max_away = check_max_away(max_away)
    name = "<string>"
    data: str | bytes
    if isinstance(source, os.PathLike):
        name, data = _read_file(os.fspath(source))
    elif isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, str):
        if source.lstrip("\ufeff \t\r\n").startswith("<"):
            data = source.lstrip("\ufeff")
        else:
            name, data = _read_file(source)
    elif hasattr(source, "read"):
        name = str(getattr(source, "name", "<file>"))
        try:
            data = source.read()
        except UnicodeDecodeError as error:
            raise SourceError(f"{name}: not text in the file's encoding: {error}") from None
        except OSError as error:
            raise SourceError(f"{name}: cannot be read: {error}") from None
        if not isinstance(data, (str, bytes)):
            raise OptionTypeError(
                f"{name}: read() gave {type(data).__name__}, not str or bytes", option="source"
            )
    else:
        raise OptionTypeError(
            f"expected MET XML text, a path, bytes or an open file, got {type(source).__name__}",
            option="source",
        )
    return from_xml_text(data, source=name, max_away=max_away)


def _read_file(path: str) -> tuple[str, bytes]:
    """The bytes of the file a path names; every way of failing is a gammonlab error."""
    shown = path if len(path) <= 200 else path[:200] + "..."
    if not path.strip() or "\n" in path or "\x00" in path:
        raise SourceError(
            f"{shown!r} is neither MET XML text (which starts with '<') nor the path of a file"
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_TABLE_BYTES + 1)
    except FileNotFoundError:
        raise SourceNotFoundError(f"{shown}: no such file or folder") from None
    except IsADirectoryError:
        raise SourceError(f"{shown}: is a folder, not a match equity table") from None
    except (OSError, ValueError) as error:  # refused, a name too long, a surrogate, ...
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise SourceError(f"{shown}: cannot be read: {reason}") from None
    if len(data) > _MAX_TABLE_BYTES:  # a device or an endless pipe, not a table
        raise SourceError(
            f"{shown}: more than {_MAX_TABLE_BYTES >> 20} MB, which no match equity table is"
        )
    return path, data


def equity(
    away: int,
    opp_away: int,
    *,
    crawford: bool = True,
    table: MatchEquityTable | str | None = None,
    player: int = 0,
) -> float:
    """Match winning chance from the default table (or ``table``).

    See :meth:`MatchEquityTable.equity`.

    >>> round(equity(1, 3), 5), round(equity(1, 3, table="jacobs"), 3)
    (0.75076, 0.748)
    """
    return _resolve(table).equity(away, opp_away, crawford=crawford, player=player)


def _resolve(table: MatchEquityTable | str | None) -> MatchEquityTable:
    if table is None:
        return load()
    if isinstance(table, str):
        return load(table)
    if isinstance(table, MatchEquityTable):
        return table
    raise ArgumentTypeError(
        f"expected a MatchEquityTable or a table name, got {type(table).__name__}"
    )
