"""The raw record of a transcript: what a reader read, before any rule is applied.

The readers (:func:`gammonlab.io.mat.parse_mat`, :func:`gammonlab.io.sgf.parse_sgf`)
return a :class:`RawMatch`: what a transcript *says*, game by game and action by
action, each with the :class:`Location` it was written at. The replay layer
(``gammonlab.match``) checks it against the rules. With ``errors="collect"`` a
reader lists what it could not read in a :class:`ProblemLog`.

>>> action = RawAction(player=0, kind="move", dice=(6, 3), play="24/18 13/10",
...                    loc=Location("m.mat", 7, 5, "  1) 63: 24/18 13/10"))
>>> action.kind, action.dice, str(action.loc)
('move', (6, 3), 'm.mat:7:5')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ParseError

__all__ = [
    "ACTION_KINDS",
    "MAX_PROBLEMS",
    "Location",
    "ProblemLog",
    "RawAction",
    "RawGame",
    "RawMatch",
]

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


@dataclass(frozen=True, init=False)
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

    def __init__(self, source: str | None, line: int, column: int, text: str) -> None:
        # a frozen dataclass's fields, written straight into its dict: a reader builds
        # one per action
        fields = self.__dict__
        fields["source"] = source
        fields["line"] = line
        fields["column"] = column
        fields["text"] = text

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
        # a frozen dataclass's fields, written straight into its dict: a reader builds
        # one per action
        fields = self.__dict__
        fields["player"] = player
        fields["kind"] = kind
        fields["dice"] = dice
        fields["play"] = play
        fields["cube"] = cube
        fields["points"] = points
        fields["resign_level"] = resign_level
        fields["match_won"] = match_won
        fields["analysis"] = analysis
        fields["comment"] = comment
        fields["loc"] = loc

    @classmethod
    def plain_move(cls, player: int, dice: tuple[int, int], play: str, loc: Location) -> RawAction:
        """A move with nothing else said (no analysis, no comment): nearly every action
        of a record, built without the keywords' cost. Its fields are written one by
        one in the constructor's order, so that its dict shares its keys with every
        other action's, as the constructor's does: a third of the size of a dict of
        its own, and quicker to build."""
        self = object.__new__(cls)
        fields = self.__dict__
        fields["player"] = player
        fields["kind"] = "move"
        fields["dice"] = dice
        fields["play"] = play
        fields["cube"] = None
        fields["points"] = None
        fields["resign_level"] = None
        fields["match_won"] = False
        fields["analysis"] = None
        fields["comment"] = None
        fields["loc"] = loc
        return self


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
        header's key; SGF, ``'RU'`` (the match's rules) and the match's
        root properties.
    rule_parts : tuple of str or None
        SGF: the parts of ``RU`` that state the match's rules, those most of its
        games state (``CrawfordGame``, one game's, left out); ``None`` for ``.mat``.
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
    rule_parts: tuple[str, ...] | None = None

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
