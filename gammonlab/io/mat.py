"""Jellyfish / GNU Backgammon ``.mat`` match transcripts: the text level.

:func:`parse_mat` reads a transcript into a :class:`~gammonlab.io.raw.RawMatch`
without applying any rule of the game; :func:`format_mat` writes one in GNU
Backgammon's own export layout.

The dialects understood (all found in real files): GNU Backgammon exports,
eXtreme Gammon and Backgammon Studio exports, BackgammonGalaxy, PlayOK,
gammonview, hand transcriptions, FIBS-style names with ratings.

How a row is split between the two players
-------------------------------------------
Column widths vary from file to file (28 to 44 characters), move numbers push
rows sideways (``  10)``), and a long left play can run into the right column.
So the split is found from the text, not from a fixed width:

* a row is cut into *cells*, each starting with an action token (dice such as
  ``63:``, ``Doubles``, ``Takes``, ``Drops``, ``Wins``, ``Concedes``, ...);
  the second cell of a row is always the right player's;
* a row's only cell is the right player's when it starts past the middle
  between the row's number and the column where the game header line writes
  the second player's name (``gnubg : 0      root : 0``).

Dice followed at once by a resignation word (``62: Concedes``, ``11: ????``)
form one cell unless the word sits in the right half.

Resignations in each dialect
----------------------------
* eXtreme Gammon / Backgammon Studio ``62: ????`` (GNU Backgammon re-exports it
  as ``62: ???``): ``resign`` with ``dice=(6, 2)``; ``00: ????``: ``resign``
  without dice.
* hand transcriptions ``Concedes``, ``62: Concedes``; gammonview ``Resigns``:
  ``resign`` (with the dice when written).
* BackgammonGalaxy ``Losses 1 point`` (on the loser's side): ``resign`` with
  ``points=1``.
* GNU Backgammon writes no resignation: a roll with nothing after it
  (``51:``) is a ``move`` with ``play=''``, then the opponent's ``win``. Only
  the rules tell a dance from a resignation after rolling.
* ``Accepts`` / ``Rejects`` right after a resignation are ``accept`` /
  ``reject``; elsewhere they answer a double (``take`` / ``drop``).

Other notations
---------------
``Cannot Move`` and dice with nothing after them are a ``move`` with
``play=''``; ``63: ?`` (written by :func:`format_mat` for a roll whose play is
unknown, e.g. from SGF) is a ``move`` with ``play=None``. Dice keep the order
written (gammonview writes ``12:``). ``Doubles 2`` and ``Wins 2`` without the
arrow or the word ``points`` are accepted. ``; [Key "value"]`` lines before the
first game are headers; a ``; [Cube "2"]`` line under ``Game N`` is the cube
the game starts with (GNU Backgammon's automatic doubles, R10.5); other ``;``
lines are comments.

Turn numbers and results
------------------------
A game's rows are numbered ``1)``, ``2)``, ``3)`` ..., each higher than the one
before; a number may skip ahead (Backgammon Studio numbers ``25)  Wins 4 point``
after ``21)``, and an excerpt leaves rows out). A number that repeats or goes back,
one of more than nine digits, and a second result line in a game are problems of
the text: refused, or listed.

Strict and lenient reading
--------------------------
``errors="raise"`` (the default) raises a :class:`~gammonlab.errors.ParseError`
at the first thing that cannot be read, naming the source, line and column.
A file cut after a complete action is not an error: its last game is simply
incomplete (``complete=False``). A game other than the last without a result
line is an error, and so is a token cut mid-word (``63: 20/``).
``errors="collect"`` never raises for bad text: it skips each unreadable
action (or line), keeps everything else, and lists the problems in
``RawMatch.problems`` (and in each game's ``problems``).

>>> raw = parse_mat('''
...  1 point match
...
...  Game 1
...  anna : 0                      bob : 0
...   1)                            62: 24/18 13/11
...   2) 31: 8/5 6/5                 Doubles => 2
...   3)  Drops
...                                  Wins 1 point and the match
... ''')
>>> [(a.player, a.kind) for a in raw.games[0].actions]
[(1, 'move'), (0, 'move'), (1, 'double'), (0, 'drop'), (1, 'win')]
>>> raw.games[0].actions[0].play
'24/18 13/11'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .._numbers import MAX_DIGITS, parse_int
from ..errors import CellError, ParseError, WriteError
from ..rules import HIGHEST_CUBE, MAX_MATCH_LENGTH
from .raw import Location, ProblemLog, RawAction, RawGame, RawMatch
from .text import (
    MOST_GAMES,
    Errors,
    Source,
    collects,
    load_transcript,
    split_rating,
    stated_crawford,
)

__all__ = ["format_mat", "parse_mat"]


_LENGTH = re.compile(
    r"^\s*(?:([0-9]{1,9})\s+points?\s+match|match\s+of\s+([0-9]{1,9})\s+points?)\s*$",
    re.IGNORECASE | re.ASCII,
)
_GAME = re.compile(r"^\s*Game\s+([0-9]{1,9})\s*$", re.IGNORECASE)
_SPACE = re.compile(r"\s*")
_ROW_NUMBER = re.compile(r"^\s*([0-9]+)\)")
_TOKEN = re.compile(r"\S+")
_DICE = re.compile(r"^([0-9])([0-9]):(.*)$")
_NUMBER = re.compile(r"^[0-9]{1,9}$")
_UNKNOWN_PLAY = re.compile(r"^\?{3,}$")
_POINT = r"(?:[0-9]{1,2}|bar|off|in)"  # in: an Acey-Deucey checker entering (R11.1)
_DOUBLES = re.compile(r"^([1-6])-([1-6]):$")  # Acey-Deucey's 1-2: 'then 6-6: ...' (R11.2)
_MOVE = re.compile(rf"^{_POINT}(?:/{_POINT}\*?)+(?:\([0-9]\))?\*?$", re.IGNORECASE)
_POINT_NUMBER = re.compile(r"[0-9]+")
# a move whose points are all on the board (0 to 25): most moves, read at once
_POINT_ON_BOARD = r"(?:[01]?[0-9]|2[0-5]|bar|off|in)"
_MOVE_ON_BOARD = re.compile(
    rf"^{_POINT_ON_BOARD}(?:/{_POINT_ON_BOARD}\*?)+(?:\([0-9]\))?\*?$", re.IGNORECASE
)

_CUBE_WORDS = {
    "doubles": "double",
    "double": "double",
    "beavers": "beaver",
    "beaver": "beaver",
    "raccoons": "raccoon",
    "raccoon": "raccoon",
}
_ANSWER_WORDS = {
    "takes": "take",
    "take": "take",
    "accepts": "accept",
    "accept": "accept",
    "drops": "drop",
    "drop": "drop",
    "passes": "drop",
    "pass": "drop",
    "rejects": "reject",
    "reject": "reject",
}
_RESIGN_WORDS = frozenset({"resigns", "resign", "concedes", "concede", "losses", "loses"})
_WIN_WORDS = frozenset({"wins", "win"})
_LEVEL_WORDS = {"single": 1, "normal": 1, "simple": 1, "gammon": 2, "backgammon": 3}
_DEFAULT_NAME_COLUMN = 32  # where GNU Backgammon's " %-31s" puts the second name
_CELL_WIDTH = 28
_ROW_PREFIX = 5  # "%3d) ": a row's number before the left column
# a colon, a score and white space: where the reader ends the first name on the names line
_SCORE_IN_NAME = re.compile(r":\s*[0-9]{1,9}(?:\s|$)")


def _is_start(token: str) -> bool:
    word = token.lower()
    return (
        bool(_DICE.match(token))
        or word in _CUBE_WORDS
        or word in _ANSWER_WORDS
        or word in _RESIGN_WORDS
        or word in _WIN_WORDS
        or bool(_UNKNOWN_PLAY.match(token))
    )


def _is_resign_marker(token: str) -> bool:
    return token.lower() in _RESIGN_WORDS or bool(_UNKNOWN_PLAY.match(token))


@dataclass(frozen=True)
class _Header:
    """A ``; [Name "value"]`` line: its name and value, and the columns where they start."""

    name: str
    name_at: int
    value: str
    value_at: int


def _skip_space(line: str, at: int) -> int:
    """The column of the first character at or after ``at`` that is not white space."""
    found = _SPACE.match(line, at)
    return found.end() if found else at


def _read_header(line: str) -> _Header | None:
    """``; [Name "value"]``: the name runs to the first quote, the value to the last.

    Read in one pass over the line: a pattern with white space on both sides of a
    name that may hold white space backtracks for as long as the line is wide."""
    semicolon = _skip_space(line, 0)
    if not line.startswith(";", semicolon):
        return None
    bracket = _skip_space(line, semicolon + 1)
    if not line.startswith("[", bracket):
        return None
    end = len(line.rstrip())
    if line[end - 1 : end] != "]":
        return None
    closing = len(line[: end - 1].rstrip()) - 1
    name_at = _skip_space(line, bracket + 1)
    opening = line.find('"', name_at, max(closing, name_at))
    if opening < 0 or line[closing] != '"':
        return None
    name = line[name_at:opening].rstrip()
    if "]" in name:
        return None
    return _Header(name, name_at, line[opening + 1 : closing], opening + 1)


@dataclass(frozen=True)
class _Names:
    """A ``name : 0      name : 0`` line: the names (either may be empty, as an SGF file
    may leave ``PW[]`` and ``PB[]`` empty), the scores and the columns where they start."""

    names: tuple[str, str]
    scores: tuple[int, int]
    scores_at: tuple[int, int]
    second_name_at: int | None


def _score_at(line: str, at: int, end: int) -> int:
    """The end of a score of one to nine ASCII digits at column ``at``, or -1."""
    digits = at
    while digits < end and digits - at < 10 and "0" <= line[digits] <= "9":
        digits += 1
    return digits if 0 < digits - at <= 9 else -1


def _read_names(line: str) -> _Names | None:
    """``name : score   name : score``. The second score follows the last colon; the
    first name runs to the first colon followed by a score and white space.

    Read in one pass over the line (a pattern with lazy names around white space
    backtracks for as long as the line is wide)."""
    last = line.rfind(":")
    if last < 0:
        return None
    second_at = _skip_space(line, last + 1)
    second_end = _score_at(line, second_at, len(line))
    if second_end < 0 or line[second_end:].strip():
        return None
    colon = line.find(":")
    while 0 <= colon < last:
        first_at = _skip_space(line, colon + 1)
        first_end = _score_at(line, first_at, last)
        if first_end >= 0 and line[first_end].isspace():
            name_at = _skip_space(line, first_end)
            second_name = line[name_at:last].rstrip()
            return _Names(
                (line[:colon].strip(), second_name),
                (int(line[first_at:first_end]), int(line[second_at:second_end])),
                (first_at, second_at),
                name_at if second_name else None,
            )
        colon = line.find(":", colon + 1)
    return None


def _tokens(line: str, start: int) -> list[tuple[int, str]]:
    """Whitespace-separated tokens from ``start`` with their offsets; ``63:24/18`` splits."""
    out: list[tuple[int, str]] = []
    for match in _TOKEN.finditer(line, start):
        token = match.group()
        dice = _DICE.match(token)
        if dice and dice.group(3):
            out.append((match.start(), token[:3]))
            out.append((match.start() + 3, token[3:]))
        else:
            out.append((match.start(), token))
    return out


def _split_cells(tokens: list[tuple[int, str]], threshold: float) -> list[list[tuple[int, str]]]:
    cells: list[list[tuple[int, str]]] = []
    for offset, token in tokens:
        if not cells:
            cells.append([(offset, token)])
            continue
        cell = cells[-1]
        if _is_start(token):
            # "62: ????" is one cell, unless the dice end the left column and
            # the resignation starts the right one.
            joins = (
                len(cell) == 1
                and _DICE.match(cell[0][1]) is not None
                and _is_resign_marker(token)
                and (offset < threshold or cell[0][0] >= threshold)
            )
            if not joins:
                cells.append([(offset, token)])
                continue
        cell.append((offset, token))
    return cells


def _points_phrase(
    cell: list[tuple[int, str]], i: int, line_end: int, what: str, *, required: bool
) -> tuple[int | None, int]:
    """Read ``N point(s)`` at ``cell[i]``; return (points, next index)."""
    if i >= len(cell):
        if required:
            raise CellError(f"expected the points after {what!r}, like '{what} 2 points'", line_end)
        return None, i
    offset, token = cell[i]
    if not _NUMBER.match(token):
        if required:
            raise CellError(f"expected the points after {what!r}, got {token!r}", offset)
        return None, i
    points = int(token)
    i += 1
    if i < len(cell) and cell[i][1].lower() in ("point", "points", "pt", "pts"):
        i += 1
    return points, i


def _and_the_match(cell: list[tuple[int, str]], i: int) -> tuple[bool, int]:
    words = [token.lower() for _, token in cell[i : i + 3]]
    if words == ["and", "the", "match"]:
        return True, i + 3
    return False, i


def _check_end(cell: list[tuple[int, str]], i: int, what: str) -> None:
    if i < len(cell):
        offset, token = cell[i]
        raise CellError(f"unexpected {token!r} after {what}", offset)


def _parse_cell(
    cell: list[tuple[int, str]], player: int, line: str, loc: Location, previous: RawAction | None
) -> RawAction:
    offset, first = cell[0]
    word = first.lower()
    line_end = len(line.rstrip())
    dice_match = _DICE.match(first)
    if dice_match:
        return _parse_roll(cell, player, line, loc, dice_match)
    if word in _CUBE_WORDS:
        kind = _CUBE_WORDS[word]
        i = 1
        cube = None
        arrow = i < len(cell) and cell[i][1].startswith("=>")
        if arrow:
            rest = cell[i][1][2:]
            if rest:  # "=>2"
                cell = [*cell[:i], (cell[i][0], "=>"), (cell[i][0] + 2, rest), *cell[i + 1 :]]
            i += 1
            if i >= len(cell):
                raise CellError(f"expected the cube value after '{first} =>'", line_end)
        if i < len(cell) and (arrow or _NUMBER.match(cell[i][1])):
            if not _NUMBER.match(cell[i][1]):
                raise CellError(
                    f"expected the cube value after '{first} =>', got {cell[i][1]!r}", cell[i][0]
                )
            cube = int(cell[i][1])
            i += 1
        _check_end(cell, i, f"'{first}'")
        return RawAction(player=player, kind=kind, cube=cube, loc=loc)
    if word in _ANSWER_WORDS:
        kind = _ANSWER_WORDS[word]
        resigning = previous is not None and previous.kind == "resign"
        if kind == "accept":
            kind = "accept" if resigning else "take"
        elif kind == "reject":
            kind = "reject" if resigning else "drop"
        _check_end(cell, 1, f"'{first}'")
        return RawAction(player=player, kind=kind, loc=loc)
    if word in _WIN_WORDS:
        points, i = _points_phrase(cell, 1, line_end, first, required=True)
        match_won, i = _and_the_match(cell, i)
        _check_end(cell, i, "the result")
        return RawAction(player=player, kind="win", points=points, match_won=match_won, loc=loc)
    if _is_resign_marker(first):
        return _parse_resign(cell, 0, player, None, line_end, loc)
    raise CellError(
        f"expected dice like '63:' or an action (Doubles, Takes, Drops, Wins, ...), got {first!r}",
        offset,
    )


def _parse_resign(
    cell: list[tuple[int, str]],
    i: int,
    player: int,
    dice: tuple[int, int] | None,
    line_end: int,
    loc: Location,
) -> RawAction:
    first = cell[i][1]
    i += 1
    points = level = None
    match_won = False
    if not _UNKNOWN_PLAY.match(first):
        points, i = _points_phrase(cell, i, line_end, first, required=False)
        if i < len(cell) and cell[i][1].lower() in _LEVEL_WORDS:
            level = _LEVEL_WORDS[cell[i][1].lower()]
            i += 1
        match_won, i = _and_the_match(cell, i)
    _check_end(cell, i, f"{first!r}")
    return RawAction(
        player=player,
        dice=dice,
        points=points,
        resign_level=level,
        match_won=match_won,
        loc=loc,
        kind="resign",
    )


def _parse_roll(
    cell: list[tuple[int, str]], player: int, line: str, loc: Location, dice_match: re.Match[str]
) -> RawAction:
    offset, first = cell[0]
    line_end = len(line.rstrip())
    die1, die2 = int(dice_match.group(1)), int(dice_match.group(2))
    dice: tuple[int, int] | None = (die1, die2)  # in the order written
    rest = cell[1:]
    if die1 == 0 and die2 == 0:
        dice = None  # "00: ????": a resignation before rolling (bgchallenge)
        if not rest or not _is_resign_marker(rest[0][1]):
            raise CellError("dice '00:' can only come before a resignation ('00: ????')", offset)
    elif not (1 <= die1 <= 6 and 1 <= die2 <= 6):
        raise CellError(f"expected dice like '63:', got {first!r}", offset)
    if rest and _is_resign_marker(rest[0][1]):
        return _parse_resign(cell, 1, player, dice, line_end, loc)
    if not rest or (
        len(rest) == 2 and rest[0][1].lower() == "cannot" and rest[1][1].lower() == "move"
    ):
        return RawAction(player=player, kind="move", dice=dice, play="", loc=loc)
    if len(rest) == 1 and rest[0][1] == "?":
        return RawAction(player=player, kind="move", dice=dice, play=None, loc=loc)
    for k, (move_offset, token) in enumerate(rest):
        if _MOVE_ON_BOARD.match(token) or _acey_deucey_word(rest, k):
            continue
        if not _MOVE.match(token):
            raise CellError(
                f"expected a move like '24/18', '13/7(2)' or 'bar/20', got {token!r}", move_offset
            )
        for number in _POINT_NUMBER.findall(token.split("(")[0]):
            if int(number) > 25:
                raise CellError(f"expected a point from 0 to 25 in {token!r}", move_offset)
    start = rest[0][0]
    end = rest[-1][0] + len(rest[-1][1])
    return RawAction(player=player, kind="move", dice=dice, play=line[start:end], loc=loc)


def _acey_deucey_word(rest: list[tuple[int, str]], k: int) -> bool:
    """Whether ``rest[k]`` belongs to the doubles of an Acey-Deucey 1-2:
    ``then 6-6: 13/7(2) ...`` or ``then 6-6: no move`` (R11.2)."""
    word = rest[k][1].lower()
    before = [token.lower() for _, token in rest[max(0, k - 2) : k]]
    if word == "then":
        return k + 1 < len(rest) and bool(_DOUBLES.match(rest[k + 1][1]))
    if _DOUBLES.match(word):
        return before[-1:] == ["then"]
    if word == "no":
        return bool(before) and bool(_DOUBLES.match(before[-1]))
    if word == "move":
        return len(before) == 2 and before[1] == "no" and bool(_DOUBLES.match(before[0]))
    return False


@dataclass
class _GameDraft:
    """A game while its lines are being read."""

    number: int
    loc: Location
    players: tuple[str, str] = ("", "")
    ratings: tuple[str | None, str | None] = (None, None)
    scores: tuple[int, int] | None = None
    actions: list[RawAction] = field(default_factory=list)
    problems: list[ParseError] = field(default_factory=list)
    cube: int = 1
    rules: tuple[str, ...] = ()
    turn: int = 0
    """The number of the last numbered row."""
    result_line: int | None = None
    """The line (1-based) of the game's result, once read."""


class _MatParser:
    def __init__(self, text: str, source: str | None, collect: bool) -> None:
        self.lines = text.split("\n")
        self.source = source
        self.collect = collect
        self.log = ProblemLog(collect=collect)
        self.headers: dict[str, str] = {}
        self.locations: dict[str, Location] = {}
        self.match_length: int | None = None
        self.games: list[RawGame] = []
        # the game being read
        self.game: _GameDraft | None = None
        self.name_column = _DEFAULT_NAME_COLUMN

    def loc(self, index: int, offset: int) -> Location:
        line = self.lines[index]
        return Location(self.source, index + 1, offset + 1, line)

    def problem(self, index: int, offset: int, message: str) -> None:
        """Raise, or list a problem at a 0-based line index and offset."""
        error = self.log.add(self.loc(index, offset), message)
        if error is not None and self.game is not None:
            self.game.problems.append(error)

    def indent(self, index: int) -> int:
        line = self.lines[index]
        return len(line) - len(line.lstrip())

    def run(self) -> None:
        expect_names = False
        for index, line in enumerate(self.lines):
            stripped = line.strip()
            if not stripped:
                continue
            if stripped.startswith(";"):
                header = _read_header(line)
                if header and not self.games and self.game is None:
                    self.headers[header.name] = header.value
                    self.locations[header.name] = self.loc(index, header.name_at)
                elif header and self.game is not None and not self.game.actions:
                    key = header.name.lower()
                    if key == "cube":
                        self.game_cube(index, header)
                    elif key == "crawfordgame":
                        self.crawford_game(index, header)
                continue
            game = _GAME.match(line)
            if game:
                self.finish_game()
                if len(self.games) >= MOST_GAMES:
                    self.problem(
                        index,
                        self.indent(index),
                        f"more than {MOST_GAMES} games in one transcript: "
                        f"the games from here on are not read",
                    )
                    break
                self.start_game(index, int(game.group(1)))
                expect_names = True
                continue
            length = _LENGTH.match(line)
            if length:
                self.read_length(index, length)
                continue
            if self.game is None:
                self.problem(
                    index,
                    self.indent(index),
                    "expected a header ('; [Key \"value\"]'), the match length "
                    "('7 point match') or 'Game 1'",
                )
                continue
            if expect_names:
                expect_names = False
                if self.read_names(index):
                    continue
            self.read_row(index)
        self.finish_game()

    def read_length(self, index: int, length: re.Match[str]) -> None:
        if self.game is not None or self.games or self.match_length is not None:
            self.problem(
                index, self.indent(index), "a second match length line: one file holds one match"
            )
            return
        value = int(length.group(1) or length.group(2))
        if value > MAX_MATCH_LENGTH:
            self.problem(
                index,
                self.indent(index),
                f"a {value}-point match: a match is at most {MAX_MATCH_LENGTH} "
                f"points long (what a Match ID can record)",
            )
            return
        self.match_length = value

    def game_cube(self, index: int, header: _Header) -> None:
        """``; [Cube "2"]`` under ``Game N``: the cube when play starts (R10.5)."""
        assert self.game is not None
        value = header.value.strip()
        cube = parse_int(value)
        if cube is None or cube > HIGHEST_CUBE:
            line = self.lines[index]
            self.problem(
                index,
                header.value_at,
                f"expected the cube value (at most {HIGHEST_CUBE}) in {line.strip()!r}",
            )
        else:
            self.game.cube = cube

    def crawford_game(self, index: int, header: _Header) -> None:
        """``; [CrawfordGame "Off"]`` under ``Game N``: whether this is the Crawford game
        (R10.2), where the scores do not tell it (a match whose Crawford game is lost)."""
        assert self.game is not None
        value = header.value.strip().lower()
        if value in ("on", "off"):
            self.game.rules = ("CrawfordGame",) if value == "on" else ("NoCrawfordGame",)
        else:
            self.problem(
                index, header.value_at, f"expected On or Off in {self.lines[index].strip()!r}"
            )

    def start_game(self, index: int, number: int) -> None:
        self.game = _GameDraft(number, self.loc(index, self.indent(index)))

    def read_names(self, index: int) -> bool:
        line = self.lines[index]
        names = _read_names(line)
        if names is None:
            if _ROW_NUMBER.match(line):
                self.problem(
                    index,
                    0,
                    "expected the players' names and scores "
                    "('name : 0    name : 0') after the 'Game' line",
                )
                return False
            self.problem(
                index,
                self.indent(index),
                "expected the players' names and scores, like 'anna : 0      bob : 0'",
            )
            return True
        assert self.game is not None
        scores = names.scores
        if max(scores) > MAX_MATCH_LENGTH:
            self.problem(
                index,
                names.scores_at[0 if scores[0] > MAX_MATCH_LENGTH else 1],
                f"a score is at most {MAX_MATCH_LENGTH} (what a Match ID can record)",
            )
            return True
        name0, rating0 = split_rating(names.names[0])
        name1, rating1 = split_rating(names.names[1])
        self.game.players = (name0, name1)
        self.game.ratings = (rating0, rating1)
        self.game.scores = scores
        # where the right column starts: the second name, or (an empty name) its colon
        second = names.second_name_at
        self.name_column = names.scores_at[1] - 2 if second is None else second
        return True

    def read_row(self, index: int) -> None:
        assert self.game is not None
        line = self.lines[index]
        number = _ROW_NUMBER.match(line)
        prefix_end = number.end() if number else 0
        tokens = _tokens(line, prefix_end)
        if number:
            self.turn_number(index, number)
        if not tokens:
            return
        # The right column starts near the second name of the header line; a
        # long first name pushes that name right, so meet it half way.
        threshold = (prefix_end + max(self.name_column, prefix_end + 20)) / 2
        cells = _split_cells(tokens, threshold)
        if len(cells) > 2:
            self.problem(
                index,
                cells[2][0][0],
                f"a row holds at most two actions, one per player; {cells[2][0][1]!r} is a third",
            )
            cells = cells[:2]
        if len(cells) == 2 and cells[0][0][0] >= threshold:
            self.problem(index, cells[0][0][0], "two actions in the right player's column")
            return
        players = [0, 1] if len(cells) == 2 or cells[0][0][0] < threshold else [1]
        game = self.game
        actions = game.actions
        for cell, player in zip(cells, players, strict=False):
            loc = self.loc(index, cell[0][0])
            previous = actions[-1] if actions else None
            try:
                action = _parse_cell(cell, player, line, loc, previous)
            except CellError as exc:
                self.problem(index, exc.offset, exc.message)
                continue
            if action.kind == "win":
                if game.result_line is not None:
                    self.problem(
                        index,
                        cell[0][0],
                        f"a second result for game {game.number}, whose result is on line "
                        f"{game.result_line}: a game has one result line",
                    )
                    continue
                game.result_line = index + 1
            actions.append(action)

    def turn_number(self, index: int, number: re.Match[str]) -> None:
        """Check a row's number: from 1 up, higher than the row before's."""
        assert self.game is not None
        game = self.game
        digits = number.group(1)
        value = parse_int(digits)
        if value is not None and value > game.turn:
            game.turn = value
            return
        if value is None:
            message = (
                f"a turn number of {len(digits)} digits: turns are numbered 1, 2, 3, ... "
                f"(at most {MAX_DIGITS} digits)"
            )
        elif game.turn == 0:
            message = f"turn {value} opens game {game.number}: turns are numbered from 1"
        else:
            message = f"turn {value} follows turn {game.turn}: turn numbers go up from row to row"
        self.problem(index, number.start(1), message)
        if value is not None:
            game.turn = value

    def finish_game(self) -> None:
        """The game read so far; whether a game without a result line is finished
        (its moves may have borne off every checker) is for the replay to say."""
        game, self.game = self.game, None
        if game is None:
            return
        actions = tuple(game.actions)
        complete = bool(actions) and any(action.kind == "win" for action in actions)
        self.games.append(
            RawGame(
                number=game.number,
                players=game.players,
                ratings=game.ratings,
                scores=game.scores,
                cube=game.cube,
                rules=game.rules,
                problems=tuple(game.problems),
                loc=game.loc,
                actions=actions,
                complete=complete,
            )
        )

    def result(self, encoding: str | None, note: ParseError | None = None) -> RawMatch:
        if not self.games:
            self.problem(len(self.lines) - 1, 0, "no game found: expected a 'Game 1' line")
        # a rating that a name cannot carry ('name,1500') is written as a header
        stated = (
            self.headers.pop(_RATING_HEADERS[0], None),
            self.headers.pop(_RATING_HEADERS[1], None),
        )
        if stated != (None, None):
            self.games = [
                replace(game, ratings=(game.ratings[0] or stated[0], game.ratings[1] or stated[1]))
                for game in self.games
            ]
        first = self.games[0] if self.games else None
        players = first.players if first else ("", "")
        ratings = first.ratings if first else (None, None)
        problems = self.log.listed()
        return RawMatch(
            format="mat",
            source=self.source,
            encoding=encoding,
            headers=self.headers,
            match_length=self.match_length,
            players=players,
            ratings=ratings,
            variant=self.headers.get("Variation"),
            games=tuple(self.games),
            problems=(note, *problems) if note is not None else problems,
            locations=self.locations,
        )


def parse_mat(source: Source, *, errors: Errors = "raise") -> RawMatch:
    """Read a ``.mat`` transcript into a :class:`~gammonlab.io.raw.RawMatch`.

    Parameters
    ----------
    source : path, str, bytes or file
        A path, the transcript's text, its bytes, or an open file.
    errors : {'raise', 'collect'}, default 'raise'
        ``'raise'``: raise a :class:`~gammonlab.errors.ParseError` at the first
        unreadable token (an incomplete last game is not an error).
        ``'collect'``: skip what cannot be read and list it in ``problems``.

    Returns
    -------
    RawMatch
        ``format='mat'``; one :class:`~gammonlab.io.raw.RawGame` per ``Game N`` line.

    Examples
    --------
    >>> raw = parse_mat(" 3 point match\\n\\n Game 1\\n a : 0      b : 0\\n  1) 31: 8/5 6/5\\n")
    >>> raw.match_length, raw.games[0].complete, raw.games[0].actions[0].dice
    (3, False, (3, 1))
    """
    collect = collects(errors)
    loaded, note = load_transcript(source, collect=collect)
    parser = _MatParser(loaded.text, loaded.name, collect)
    parser.run()
    return parser.result(loaded.encoding, note)


# --------------------------------------------------------------------------- writing


def _plural(points: int) -> str:
    return "point" if points == 1 else "points"


def _cell_text(action: RawAction) -> str:
    kind = action.kind
    dice = f"{action.dice[0]}{action.dice[1]}:" if action.dice else ""
    if kind == "move":
        if action.dice is None:
            raise WriteError("a 'move' action needs dice to be written in .mat")
        if action.play is None:
            return f"{dice} ?"
        return f"{dice} {action.play}".rstrip()
    if kind in ("double", "beaver", "raccoon"):
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[kind]
        return f" {word} => {action.cube}" if action.cube is not None else f" {word}"
    if kind in ("take", "drop", "accept", "reject"):
        return (
            " " + {"take": "Takes", "drop": "Drops", "accept": "Accepts", "reject": "Rejects"}[kind]
        )
    if kind == "resign":
        if action.points is None and action.resign_level is None and not action.match_won:
            return f"{dice} ????" if action.dice else " Resigns"
        parts = [f"{dice} Resigns" if action.dice else " Resigns"]
        if action.points is not None:
            parts.append(f"{action.points} {_plural(action.points)}")
        if action.resign_level is not None:
            parts.append({1: "single", 2: "gammon", 3: "backgammon"}[action.resign_level])
        if action.match_won:
            parts.append("and the match")
        return " ".join(parts)
    if kind == "win":
        points = action.points if action.points is not None else 1
        text = f" Wins {points} {_plural(points)}"
        return text + " and the match" if action.match_won else text
    raise WriteError(f"cannot write an action of unknown kind {kind!r}")


_RATING_HEADERS = ("Player 1 Rating", "Player 2 Rating")
"""The headers of ratings that a name cannot carry (not a number: ``'name,1500'``)."""


def _name(name: str, rating: str | None) -> str:
    """A name with its rating, when the two read back as they are."""
    if rating and split_rating(f"{name},{rating}") == (name, rating):
        return f"{name},{rating}"
    return name


def _format_rows(rows: list[list[str | None]], first: int, width: int) -> list[str]:
    out = []
    for number, (left, right) in enumerate(rows, start=first):
        left_text, right_text = left or "", right or ""
        if len(left_text) >= width and right_text:
            left_text += " "  # a long left play: keep one space before the right column
        out.append(f"{number:3d}) {left_text:<{width}}{right_text}".rstrip())
    return out


def _name_problem(name: str, rating: str | None, player: int) -> str | None:
    """Why a player's name cannot be written on the names line so that it reads back, or None."""
    if "\n" in name or "\r" in name:
        return "it holds a line break, and the names line is one line"
    if name != name.strip():
        return "it starts or ends with white space, which the reader drops"
    if split_rating(_name(name, rating))[0] != name:
        return "it ends in a comma and a number, which the reader takes for a rating ('name,1500')"
    if player == 0 and name.startswith(";"):
        return "it starts with ';', which makes the names line a comment"
    if player == 0 and _SCORE_IN_NAME.search(name):
        return (
            "it holds a colon and a number (as in 'anna : 0'), where the reader ends the "
            "first name and reads its score"
        )
    return None


def _names_line(game: RawGame) -> tuple[str, int]:
    """`` name : 0      name : 0``, checked to read back as the game's names and scores,
    and the column where the second name starts.

    GNU Backgammon pads the first name and score to 31 characters and truncates longer
    names; a long name is kept whole here, and pushes the second name to the right."""
    names, ratings = game.players, game.ratings
    for player in (0, 1):
        problem = _name_problem(names[player], ratings[player], player)
        if problem is not None:
            raise WriteError(
                f"cannot write player {player}'s name {names[player]!r} in .mat: {problem}"
            )
    scores = game.scores or (0, 0)
    left = f"{_name(names[0], ratings[0])} : {scores[0]}"
    left = f"{left:<31}" if len(left) < 31 else left + "  "
    line = f" {left}{_name(names[1], ratings[1])} : {scores[1]}"
    second_name_at = 1 + len(left)
    read = _read_names(line)
    if (
        read is None
        or tuple(split_rating(name)[0] for name in read.names) != tuple(names)
        or read.scores != tuple(scores)
    ):
        raise WriteError(
            f"cannot write the players' names {names[0]!r} and {names[1]!r} in .mat: "
            f"the names line {line.strip()!r} would not read back as them"
        )
    return line, second_name_at


def _format_game(game: RawGame) -> list[str]:
    out = [f" Game {game.number}"]
    if game.cube != 1:
        out.append(f'; [Cube "{game.cube}"]')
    crawford = stated_crawford(game.rules)
    if crawford is not None:  # R10.2, where the scores do not tell it
        out.append(f'; [CrawfordGame "{"On" if crawford else "Off"}"]')
    names, second_name_at = _names_line(game)
    out.append(names)
    # The reader places the right column from where the second name starts: a long first
    # name that pushes the second name right widens the left column as far.
    width = max(_CELL_WIDTH, second_name_at - _ROW_PREFIX)
    rows: list[list[str | None]] = []
    written = 0
    for action in game.actions:
        if action.kind == "win":
            out.extend(_format_rows(rows, written + 1, width))
            written += len(rows)
            rows = []
            indent = " " * (_ROW_PREFIX + width + 1 if action.player else 6)
            out.append(indent + _cell_text(action).lstrip())
            continue
        text = _cell_text(action)
        if action.player == 0:
            rows.append([text, None])
        elif rows and rows[-1][1] is None:
            rows[-1][1] = text
        else:
            rows.append([None, text])
    out.extend(_format_rows(rows, written + 1, width))
    return out


def format_mat(raw: RawMatch) -> str:
    """Write a :class:`~gammonlab.io.raw.RawMatch` as a ``.mat`` transcript.

    The layout is GNU Backgammon's ``export match mat``: headers as
    ``; [Key "value"]``, `` N point match``, `` Game N``, the name and score
    line, rows ``%3d) `` + a 28-character left column, and results on their own
    line. A first name too long for GNU Backgammon's 31 characters is kept whole: it
    pushes the second name right, and the left column is as much wider, since the
    reader finds the right column under the second name. Plays are written as they
    were read. Resignations, which GNU Backgammon does not write, use the eXtreme
    Gammon form (``62: ????``) or ``Resigns [N points]``.

    ``parse_mat(format_mat(raw))`` gives the same actions as ``raw``.

    Raises
    ------
    WriteError
        A name the names line cannot hold so that it reads back: one with a line
        break, white space at either end, a trailing ``,1500`` (read as a rating), or,
        for the first player, a leading ``;`` or a colon and a number (``a : 0``);
        a header name with a quote, a ``]``, a line break or white space at either
        end; an action of unknown kind, or a move without dice. (A rating that a name
        cannot carry, one that is not a number, is written as a ``Player 1 Rating``
        or ``Player 2 Rating`` header, and read back from it.)

    >>> raw = parse_mat(" 1 point match\\n Game 1\\n a : 0                    b : 0\\n"
    ...                 "  1)                      62: 24/18 13/11\\n")
    >>> print(format_mat(raw), end="")
     1 point match
    <BLANKLINE>
     Game 1
     a : 0                          b : 0
      1)                             62: 24/18 13/11
    <BLANKLINE>
    """
    out: list[str] = []
    headers = dict(raw.headers)
    for key, name, rating in zip(_RATING_HEADERS, raw.players, raw.ratings, strict=True):
        if rating and _name(name, rating) == name:
            headers[key] = rating
    for key, value in headers.items():
        if (
            not isinstance(key, str)
            or key != key.strip()
            or any(c in key for c in '"]\n\r')
            or key.startswith("[")
        ):
            raise WriteError(
                f"cannot write the header {key!r} in .mat: a header's name is read up to "
                "its first '\"', without white space at either end, and cannot hold ']' or a "
                "line break"
            )
        value = " ".join(str(value).splitlines())  # a header is one line
        out.append(f'; [{key} "{value}"]')
    if headers:
        out.append("")
    if raw.match_length is not None:
        out.append(f" {raw.match_length} point match")
        out.append("")
    for game in raw.games:
        out.extend(_format_game(game))
        out.append("")
    return "\n".join(out) + "\n"
