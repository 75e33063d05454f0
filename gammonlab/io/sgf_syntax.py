"""SGF syntax: game trees, nodes and properties, read from any SGF text.

:func:`parse_collection` reads the trees of a collection past every error in
``errors="collect"`` mode (a tree left open has ``closed=False``);
:mod:`gammonlab.io.sgf` reads the backgammon meaning of the nodes.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from typing import Any

from ..errors import ParseError
from .raw import Location, ProblemLog
from .text import MOST_GAMES, Errors, Source, collects, load_transcript

__all__ = ["DEEPEST_VARIATION", "SgfNode", "SgfProperty", "SgfTree", "parse_collection"]

_SETUP = frozenset({"AE", "AB", "AW", "CP", "CV"})
_ANALYSIS = ("DA", "A", "MR", "CR", "LU", "GB", "GW", "BM", "DO", "BC", "DC")
# properties whose values never hold a line break: moves, dice, the game's set-up, analysis
_ONE_LINE = frozenset({"B", "W", "DI", "PL", "GM", "FF", "MI", "RE", "RU", *_SETUP, *_ANALYSIS})

_VALUE = re.compile(r"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)
_UNESCAPE = re.compile(r"\\(\n|.)", re.DOTALL)
_IDENT = re.compile(r"[A-Za-z]+")
_SPACE = re.compile(r"\s*")
_PROPERTY = re.compile(r"[A-Za-z]+\s*((?:\[(?:[^\\\]]|\\.)*\]\s*)+)", re.DOTALL)
_VALUES = re.compile(r"\[((?:[^\\\]]|\\.)*)\]", re.DOTALL)
_NEXT_GAME = re.compile(r"\(\s*;\s*(?:FF\s*\[[^\]]{0,8}\]\s*)?GM\s*\[")
# empty nodes before another node: they hold nothing, and a run of them is passed at once
_EMPTY_NODES = re.compile(r"(?:;\s*)+(?=;)")
_CLOSES = re.compile(r"(?:\)\s*)+")
# A node as programs write it: each identifier right before its values, values on one
# line without escapes, and nothing but white space up to the next '(', ';' or ')'.
# Read at once, it is read exactly as the loop below would read it.
_PLAIN_NODE = re.compile(r";[ \t\n]*(?:[A-Za-z]+(?:\[[^\\\]\n]*\])+[ \t\n]*)*(?=[;()]|\Z)")
# Its properties: an identifier and its values, one text with '][' between them.
_PLAIN_PROPERTY = re.compile(r"([A-Za-z]+)\[([^\\\]\n]*(?:\]\[[^\\\]\n]*)*)\]")
# The plainest of them, one property with one value (a move): most nodes of a record. Its
# value holds no '(' (a value that does may run into the next game: it is read value by value).
_ONE_VALUE_NODE = re.compile(r";[ \t\n]*([A-Za-z]+)\[([^\\\]\n(]*)\][ \t\n]*(?=[;()]|\Z)")


@dataclass(frozen=True, init=False)
class SgfProperty:
    """One property: its identifier, its values (unescaped) and where it starts."""

    name: str
    values: tuple[str, ...]
    offset: int

    def __init__(self, name: str, values: tuple[str, ...], offset: int) -> None:
        # a frozen dataclass's fields, written straight into its dict: a record has a
        # property per action
        fields = self.__dict__
        fields["name"] = name
        fields["values"] = values
        fields["offset"] = offset


@dataclass
class SgfNode:
    """A node (``;``) and its properties in the order written."""

    offset: int
    properties: list[SgfProperty] = field(default_factory=list)

    def get(self, name: str) -> SgfProperty | None:
        """The first property called ``name``, or None."""
        for prop in self.properties:
            if prop.name == name:
                return prop
        return None

    def value(self, name: str) -> str | None:
        """The first value of property ``name``, or None."""
        prop = self.get(name)
        return prop.values[0] if prop and prop.values else None


class _OneValueNode(SgfNode):
    """A node of one property with one value, as nearly every node of a record is (a
    move): it keeps the identifier, the value and where the property starts, and
    builds its :class:`SgfProperty` when its properties are first asked for. It
    compares and prints as the :class:`SgfNode` it stands for."""

    __slots__ = ("_properties", "name", "offset", "start", "written")

    def __init__(self, offset: int, name: str, written: str, start: int) -> None:
        self.offset = offset
        self.name = name
        self.written = written
        self.start = start
        self._properties: list[SgfProperty] | None = None

    @property  # type: ignore[override]
    def properties(self) -> list[SgfProperty]:
        if self._properties is None:
            self._properties = [SgfProperty(self.name, (self.written,), self.start)]
        return self._properties

    @properties.setter
    def properties(self, properties: list[SgfProperty]) -> None:
        self._properties = properties

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SgfNode):
            return NotImplemented
        return (self.offset, self.properties) == (other.offset, other.properties)

    def __repr__(self) -> str:
        return repr(SgfNode(self.offset, self.properties))


@dataclass
class SgfTree:
    """A game tree ``( ... )``: a sequence of nodes and its variations."""

    offset: int
    nodes: list[SgfNode] = field(default_factory=list)
    children: list[SgfTree] = field(default_factory=list)
    closed: bool = False

    def main_line(self) -> list[SgfNode]:
        """The nodes of the main line: this sequence, then each first variation."""
        nodes: list[SgfNode] = []
        tree: SgfTree | None = self
        while tree is not None:
            nodes.extend(tree.nodes)
            tree = tree.children[0] if tree.children else None
        return nodes


class _Text:
    """Offsets to 1-based lines and columns."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source
        # where each line starts, found when a location is first worked out (few are)
        self.starts: list[int] | None = None
        # one copy of each line, shared by every Location on it: a file written on
        # one line would otherwise cost a copy of the whole file per action
        self.lines: dict[int, str] = {}

    def loc(self, offset: int) -> Location:
        """The location of ``offset``, its line and column worked out when first read
        (a record has a location per action, and few are ever read)."""
        return _LocationAt(self, offset)

    def resolve(self, offset: int) -> Location:
        """The location of ``offset``, worked out now."""
        starts = self.starts
        if starts is None:
            starts = self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        index = bisect.bisect_right(starts, offset) - 1
        start = starts[index]
        line = self.lines.get(index)
        if line is None:
            end = self.text.find("\n", start)
            line = self.text[start:] if end < 0 else self.text[start:end]
            self.lines[index] = line
        return Location(self.source, index + 1, offset - start + 1, line)

    def error(self, offset: int, message: str) -> ParseError:
        return self.resolve(offset).error(message)


class _LocationAt(Location):
    """A :class:`Location` given by an offset in a text: its source, line, column and
    text are worked out the first time one of them is read, and it then holds them
    as any Location does. It compares, hashes, prints and pickles as a Location."""

    def __init__(self, where: _Text, offset: int) -> None:
        fields = self.__dict__  # frozen: the fields are written into the instance's dict
        fields["_where"] = where
        fields["_offset"] = offset

    def __getattr__(self, name: str) -> Any:
        # only for what the instance's dict lacks: the fields, until worked out
        fields = self.__dict__
        where = fields.get("_where")
        if where is None or name not in _LOCATION_FIELDS:
            raise AttributeError(f"'Location' object has no attribute {name!r}")
        resolved = where.resolve(fields.pop("_offset"))
        del fields["_where"]
        fields.update(resolved.__dict__)
        return fields[name]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Location):
            return NotImplemented
        return _location_fields(self) == _location_fields(other)

    def __hash__(self) -> int:
        return hash(_location_fields(self))

    def __repr__(self) -> str:
        return repr(Location(*_location_fields(self)))

    def __reduce__(self) -> tuple[Any, ...]:
        return (Location, _location_fields(self))


_LOCATION_FIELDS = tuple(field.name for field in dataclass_fields(Location))


def _location_fields(loc: Location) -> tuple[Any, ...]:
    return tuple(getattr(loc, name) for name in _LOCATION_FIELDS)


def _unescaped(escape: re.Match[str]) -> str:
    """SGF's escapes: ``\\]`` is ``]``; an escaped line break is no character."""
    return "" if escape.group(1) == "\n" else escape.group(1)


DEEPEST_VARIATION = 1000
"""The deepest nesting of game trees read (a record's variations nest a few deep)."""
_BRACKETS = re.compile(r"[()\[]")


def _tree_end(source: str, start: int) -> int:
    """The offset after the ``)`` that closes the game tree opened at ``start``, values
    skipped; the end of the text when it is not closed."""
    depth = 0
    at = start
    while True:
        found = _BRACKETS.search(source, at)
        if found is None:
            return len(source)
        at = found.end()
        char = found.group()
        if char == "[":
            value = _VALUE.match(source, found.start())
            if value is None:
                return len(source)
            at = value.end()
        elif char == "(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return at


def _game_inside(source: str, start: int, end: int) -> int:
    """Where a game's root (``(;GM[`` or ``(;FF[4]GM[``) opens between ``start`` and
    ``end``; -1 when none does."""
    at = source.find("(", start, end)
    while at >= 0:
        if _NEXT_GAME.match(source, at):
            return at
        at = source.find("(", at + 1, end)
    return -1


_Compact = tuple[int, str, str, int]
"""A node of one property with one value as :func:`_read_trees` keeps it with ``compact``:
where the node and its property start, the identifier and the value."""


def _read_trees(text: _Text, log: ProblemLog, *, compact: bool = False) -> list[SgfTree]:
    """Tokenise and build the trees.

    Without ``log.collect`` the first error raises. Collecting, each error is
    listed and reading goes on: past the bad text to the next ``(``, ``;`` or
    ``)``; a ``;`` outside any tree opens one; a game opened while another is
    left open (a lost ``)``) closes that one.

    With ``compact``, a node of one property with one value that is not the first of
    its sequence is kept as a tuple (:data:`_Compact`), not as an :class:`SgfNode`:
    a record's moves, for a reader that takes them in turn.
    """
    source = text.text
    n = len(source)
    trees: list[SgfTree] = []
    stack: list[SgfTree] = []
    i = 0
    node: SgfNode | None = None  # the node properties go to
    resync = False  # after an error: skip to the next '(', ';' or ')'

    def fail(offset: int, message: str) -> None:
        log.add(text.loc(offset), message)  # raises unless collecting

    while i < n:
        char = source[i]
        if char.isspace():
            i = _SPACE.match(source, i).end()  # type: ignore[union-attr]
            continue
        if resync and char not in "(;)":
            if char == "[":
                value = _VALUE.match(source, i)
                i = value.end() if value is not None else n
            else:
                i += 1
            continue
        resync = False
        if char in "()":
            node = None
        if char == "(":
            if stack and _NEXT_GAME.match(source, i):
                fail(
                    i,
                    f"missing ')': the game tree opened at line "
                    f"{text.loc(stack[0].offset).line} is not closed before the next game",
                )
                stack.clear()
            if stack and not stack[-1].nodes:
                fail(i, "expected ';' and a node before a variation '('")
                i += 1
                continue
            if len(stack) >= DEEPEST_VARIATION:
                fail(i, f"variations nested more than {DEEPEST_VARIATION} deep")
                i = _tree_end(source, i)  # read on after this variation, left out
                continue
            if not stack and len(trees) >= MOST_GAMES:
                fail(
                    i,
                    f"more than {MOST_GAMES} games in one transcript: the games from here on "
                    f"are not read",
                )
                break
            tree = SgfTree(i)
            (stack[-1].children if stack else trees).append(tree)
            stack.append(tree)
            i += 1
        elif char == ")":
            if not stack:
                fail(i, "unexpected ')': no game tree is open")
                i = _CLOSES.match(source, i).end()  # type: ignore[union-attr]
                continue
            tree = stack.pop()
            if not tree.nodes:
                fail(tree.offset, "empty game tree '()': expected ';' and a node")
                (stack[-1].children if stack else trees).remove(tree)
            else:
                tree.closed = True
            i += 1
        elif char == ";":
            after = source[i + 1 : i + 2]
            if after == ";" or (
                after.isspace() and source.startswith(";", _SPACE.match(source, i + 1).end())  # type: ignore[union-attr]
            ):
                i = _EMPTY_NODES.match(source, i).end()  # type: ignore[union-attr]
            plain = None
            if stack and not stack[-1].children:
                one = _ONE_VALUE_NODE.match(source, i)
                if one is not None:
                    # such nodes come in runs (a game's moves): read the run at once
                    nodes: list[SgfNode | _Compact] = stack[-1].nodes  # type: ignore[assignment]
                    while one is not None:
                        name, written = one.group(1, 2)
                        if compact and nodes:
                            nodes.append((i, name, written, one.start(1)))
                        else:
                            node = _OneValueNode(i, name, written, one.start(1))
                            nodes.append(node)
                        i = one.end()
                        one = _ONE_VALUE_NODE.match(source, i)
                    continue
                plain = _PLAIN_NODE.match(source, i)
                if plain is not None and "(" in plain.group():
                    plain = None  # a value may run into the next game: read it value by value
            if plain is not None:
                end = plain.end()
                node = SgfNode(i)
                node.properties = [
                    SgfProperty(prop[1], tuple(prop[2].split("][")), prop.start())
                    for prop in _PLAIN_PROPERTY.finditer(source, i, end)
                ]
                stack[-1].nodes.append(node)
                i = end
                continue
            if not stack:
                fail(i, "unexpected ';' outside a game tree: expected '(' before it")
                tree = SgfTree(i)  # read on as if the '(' were there
                trees.append(tree)
                stack.append(tree)
            target = stack[-1]
            if target.children:
                fail(i, "unexpected ';' after a variation: expected '(' or ')'")
                while target.children:  # read on at the end of the main line
                    target = target.children[0]
            node = SgfNode(i)
            target.nodes.append(node)
            i += 1
        elif "A" <= char <= "Z" or "a" <= char <= "z":
            name = _IDENT.match(source, i).group()  # type: ignore[union-attr]
            if node is None:
                fail(i, f"unexpected property {name!r} outside a node (';')")
                resync = True
                continue
            whole = _PROPERTY.match(source, i)
            if (
                whole is not None
                and (name not in _ONE_LINE or "\n" not in whole.group(1))
                and "(" not in whole.group(1)
            ):
                # the common case: the identifier and every value, read at once
                node.properties.append(
                    SgfProperty(
                        name,
                        tuple(
                            _UNESCAPE.sub(_unescaped, value) if "\\" in value else value
                            for value in _VALUES.findall(whole.group(1))
                        ),
                        i,
                    )
                )
                i = whole.end()
                continue
            j = _SPACE.match(source, i + len(name)).end()  # type: ignore[union-attr]
            values: list[str] = []
            cut = False
            while j < n and source[j] == "[":
                value = _VALUE.match(source, j)
                if value is None:
                    fail(j, f"unterminated value of property {name}: expected ']'")
                    j = n  # no ']' is left: nothing after this can be read
                    break
                if name in _ONE_LINE and "\n" in value.group(1):
                    # a lost ']': read on at the next line, not in the next game
                    fail(
                        j,
                        f"unterminated value of property {name}: expected ']' before "
                        f"the end of the line",
                    )
                    j = source.index("\n", j)
                    cut = True
                    break
                written = value.group(1)
                game = _game_inside(source, value.start(1), value.end(1)) if "(" in written else -1
                if game >= 0:
                    # a lost ']': read on at the next game, not inside it
                    fail(
                        j,
                        f"unterminated value of property {name}: expected ']' before the next game",
                    )
                    j = game
                    cut = True
                    break
                values.append(_UNESCAPE.sub(_unescaped, written) if "\\" in written else written)
                j = _SPACE.match(source, value.end()).end()  # type: ignore[union-attr]
            if cut or not values:
                if not cut and j < n:
                    fail(j, f"expected '[' and a value after property {name}")
                resync = resync or j < n
                i = max(j, i + len(name))
                continue
            node.properties.append(SgfProperty(name, tuple(values), i))
            i = j
        else:
            fail(i, f"unexpected {char!r}: expected '(', ';', ')' or a property")
            resync = True
            i += 1
    if stack:
        fail(
            n,
            f"missing ')': the game tree opened at line {text.loc(stack[0].offset).line} "
            f"is not closed",
        )
    return trees


def parse_collection(source: Source, *, errors: Errors = "raise") -> list[SgfTree]:
    """Read any SGF text into its game trees.

    Values are unescaped (``\\]`` is ``]``, an escaped newline disappears).
    With ``errors="collect"`` nothing raises: the trees are read past each
    error (trees left open have ``closed=False``).

    >>> trees = parse_collection("(;GM[6]AB[a][b](;C[x\\\\]y])(;C[z]))")
    >>> [p.values for p in trees[0].nodes[0].properties]
    [('6',), ('a', 'b')]
    >>> [n.value("C") for n in trees[0].main_line()]
    [None, 'x]y']
    """
    collect = collects(errors)
    loaded, _ = load_transcript(source, collect=collect)
    return _read_trees(_Text(loaded.text, loaded.name), ProblemLog(collect=collect))
