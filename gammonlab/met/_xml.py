"""GNU Backgammon's match equity table XML format."""

from __future__ import annotations

import numbers
import re
import xml.parsers.expat
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import MetError, OptionError, OptionTypeError, ParseError
from .formulas import (
    MEC_PRE_DEFAULTS,
    ZADEH_PRE_DEFAULTS,
    extend_post_crawford,
    extend_pre_crawford,
    mec_pre_crawford,
    post_from_parameters,
    zadeh_pre_crawford,
)
from .table import _PLAYERS, LONGEST_AWAY, MatchEquityTable

__all__ = ["check_max_away", "from_xml_text"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def check_max_away(max_away: object) -> int:
    """``max_away`` as an int from 1 to :data:`LONGEST_AWAY`."""
    if isinstance(max_away, bool) or not isinstance(max_away, numbers.Integral):
        raise OptionTypeError(f"max_away must be an integer, got {max_away!r}", option="max_away")
    if not 1 <= int(max_away) <= LONGEST_AWAY:
        raise OptionError(
            f"max_away must be from 1 to {LONGEST_AWAY}, got {max_away}", option="max_away"
        )
    return int(max_away)


# -- XML -----------------------------------------------------------------------------------------


@dataclass
class _Node:
    tag: str
    attributes: dict[str, str]
    line: int
    column: int = 1
    text: str = ""
    children: list[_Node] = field(default_factory=list)

    def find(self, tag: str) -> _Node | None:
        return next((child for child in self.children if child.tag == tag), None)

    def find_all(self, tag: str) -> list[_Node]:
        return [child for child in self.children if child.tag == tag]


def _parse_tree(data: str | bytes, text: str, source: str) -> _Node:
    """A small element tree that remembers line numbers, for error messages.

    ``data`` is what expat reads (bytes in their declared encoding, or text);
    ``text`` the same as text, to quote lines from. A DOCTYPE that declares
    entities is refused, so none expands.
    """
    surrogate = _SURROGATE.search(text)
    if surrogate is not None:  # no XML text holds one, and expat cannot encode it
        line = text.count("\n", 0, surrogate.start()) + 1
        start = text.rfind("\n", 0, surrogate.start()) + 1
        end = text.find("\n", surrogate.start())
        raise ParseError(
            "a lone surrogate, which is no character",
            source=source,
            line=line,
            column=surrogate.start() - start + 1,
            text=text[start : end if end >= 0 else len(text)],
        )
    parser = xml.parsers.expat.ParserCreate()
    parser.buffer_text = True
    root = _Node("", {}, 0)
    stack = [root]
    pieces: list[list[str]] = [[]]  # the character data of each open element, joined at its end
    declared: list[str] = []

    def on_declaration(version: str, encoding: str | None, standalone: int) -> None:
        if encoding is not None:
            declared.append(encoding)

    def on_doctype(name: str, system: str | None, public: str | None, subset: int) -> None:
        # entities are declared in the [...] part, and expat reads no external DTD (such as
        # the met.dtd GNU Backgammon's tables name): without that part no entity expands
        if subset:
            raise _quoted(
                "a DOCTYPE that declares entities or elements (a [...] part), "
                "which no match equity table needs",
                source,
                text,
                parser.CurrentLineNumber,
                parser.CurrentColumnNumber + 1,
            )

    def on_start(tag: str, attributes: dict[str, str]) -> None:
        node = _Node(
            tag, dict(attributes), parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        )
        stack[-1].children.append(node)
        stack.append(node)
        pieces.append([])

    def on_end(tag: str) -> None:
        stack.pop().text = "".join(pieces.pop())

    def on_characters(data: str) -> None:
        pieces[-1].append(data)

    parser.XmlDeclHandler = on_declaration
    parser.StartDoctypeDeclHandler = on_doctype
    parser.StartElementHandler = on_start
    parser.EndElementHandler = on_end
    parser.CharacterDataHandler = on_characters
    try:
        parser.Parse(data, True)
    except ParseError:
        raise
    except xml.parsers.expat.ExpatError as error:
        raise _quoted(
            f"malformed XML: {xml.parsers.expat.ErrorString(error.code)}",
            source,
            text,
            error.lineno,
            error.offset + 1,
        ) from None
    except (LookupError, ValueError) as error:
        # raised by pyexpat when it asks Python's codecs for an encoding expat lacks
        name = declared[0] if declared else "?"
        problem = (
            f"an unknown encoding, {name!r}"
            if isinstance(error, LookupError)
            else f"encoding {name!r}, which expat cannot read (it reads UTF-8, UTF-16 "
            "and encodings of one byte a character)"
        )
        raise _quoted(
            f"the XML declaration names {problem}",
            source,
            text,
            parser.ErrorLineNumber,
            parser.ErrorColumnNumber + 1,
        ) from None
    top = root.find("met")
    if top is None:
        raise ParseError(
            "expected a <met> element (GNU Backgammon's MET format)",
            source=source,
            line=1,
            column=1,
        )
    return top


def _quoted(message: str, source: str, text: str, line: int, column: int) -> ParseError:
    """A problem at ``line`` and ``column`` of ``text``, the line quoted."""
    return ParseError(message, source=source, line=line, column=column, text=_line(text, line))


def _line(text: str, number: int) -> str | None:
    """Line ``number`` (from 1) of ``text``, to quote in an error, or None past its end."""
    lines = text.splitlines()
    return lines[number - 1] if 0 < number <= len(lines) else None


def _number(node: _Node, source: str) -> float:
    """A number from 0 to 1: every value of a MET (match winning chances, and the
    rates and probabilities of its parameters) is one."""
    written = node.text.strip()
    shown = written if len(written) <= 40 else written[:40] + "..."
    try:
        value = float(written)
    except ValueError:
        raise ParseError(
            f"expected a number in <{node.tag}>, got {shown!r}",
            source=source,
            line=node.line,
            column=node.column,
        ) from None
    if not 0.0 <= value <= 1.0:
        what = (
            "a match winning chance"
            if node.tag == "me"
            else f"parameter {node.attributes.get('name', '')!r}"
        )
        raise ParseError(
            f"{what} must lie in [0, 1], got {shown}",
            source=source,
            line=node.line,
            column=node.column,
        )
    return value


def _parameters(node: _Node, source: str) -> dict[str, float]:
    block = node.find("parameters")
    if block is None:
        return {}
    return {
        param.attributes.get("name", ""): _number(param, source)
        for param in block.find_all("parameter")
    }


def _text(node: _Node, tag: str) -> str:
    child = node.find(tag)
    return " ".join(child.text.split()) if child is not None else ""


def _notice(text: str) -> str:
    """The first XML comment: the copyright notice of GNU Backgammon's tables."""
    start = text.find("<!--")
    end = text.find("-->", start)
    if start < 0 or end < 0:
        return ""
    lines = [line.strip() for line in text[start + 4 : end].splitlines()]
    return "\n".join(line for line in lines if line and not line.startswith("$Id"))


def from_xml_text(data: str | bytes, *, source: str, max_away: int) -> MatchEquityTable:
    """A table from MET XML, as text or as the bytes of a file."""
    max_away = check_max_away(max_away)
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    met = _parse_tree(data, text, source)
    try:
        table = _table(met, text, source, max_away)
    except (ZeroDivisionError, OverflowError):
        raise ParseError(
            "the table's parameters give no match equities (a division by zero)",
            source=source,
            line=met.line,
            column=met.column,
        ) from None
    for name, part in (
        ("pre-Crawford", table.pre_crawford),
        ("post-Crawford", table.post_crawford),
    ):
        values = np.asarray(part, dtype=np.float64)
        if not np.isfinite(values).all():
            raise ParseError(
                f"the table's parameters give a {name} table that is not finite",
                source=source,
                line=met.line,
                column=met.column,
            )
    return table


def _table(met: _Node, text: str, source: str, max_away: int) -> MatchEquityTable:
    info = met.find("info")
    name = description = ""
    if info is not None:
        name = _text(info, "name")
        description = _text(info, "description")
    pre_node = met.find("pre-crawford-table")
    post_nodes = met.find_all("post-crawford-table")
    if pre_node is None or not post_nodes:
        raise ParseError(
            "a MET needs a <pre-crawford-table> and a <post-crawford-table>",
            source=source,
            line=met.line,
            column=met.column,
        )

    # post-Crawford first: the pre-Crawford methods build on it
    post = np.full((_PLAYERS, max_away), np.nan)
    filled: set[int] = set()
    native: int | None = None
    post_parameters: dict[str, float] = {}
    for node in post_nodes:
        player = node.attributes.get("player", "both")
        players = {"both": (0, 1), "0": (0,), "1": (1,)}.get(player)
        if players is None:
            raise ParseError(
                f"player must be 'both', '0' or '1', got {player!r}",
                source=source,
                line=node.line,
                column=node.column,
            )
        kind = node.attributes.get("type", "explicit")
        if kind == "explicit":
            row = node.find("row")
            values = [_number(me, source) for me in row.find_all("me")] if row is not None else []
            if not values:
                raise ParseError(
                    "an explicit post-Crawford table needs a <row> of <me>",
                    source=source,
                    line=node.line,
                    column=node.column,
                )
            native = max(native or 0, len(values))
            row_values = extend_post_crawford(values, max_away)
        elif kind in ("zadeh", "mec"):
            post_parameters = _parameters(node, source)
            row_values = post_from_parameters(kind, post_parameters, max_away)
        else:
            raise ParseError(
                f"unknown table type {kind!r}; expected explicit, zadeh or mec",
                source=source,
                line=node.line,
                column=node.column,
            )
        for p in players:
            post[p] = row_values
            filled.add(p)
    if len(filled) == 1:
        given = filled.pop()
        post[1 - given] = post[given]  # a table given for one player serves both

    kind = pre_node.attributes.get("type", "explicit")
    parameters: dict[str, Any] = {}
    if kind == "explicit":
        rows = [
            [_number(me, source) for me in row.find_all("me")] for row in pre_node.find_all("row")
        ]
        size = len(rows)
        if size == 0 or any(len(row) != size for row in rows):
            raise ParseError(
                f"the pre-Crawford table must be square; got {size} rows of "
                f"{sorted({len(row) for row in rows})} entries",
                source=source,
                line=pre_node.line,
                column=pre_node.column,
            )
        native = size
        pre = extend_pre_crawford(np.array(rows, dtype=np.float64), max_away)
    elif kind == "zadeh":
        parameters = {**ZADEH_PRE_DEFAULTS, **_parameters(pre_node, source)}
        pre = zadeh_pre_crawford(
            post[0],
            max_away,
            gammon_rate_leader=parameters["gammon-rate-leader"],
            gammon_rate_trailer=parameters["gammon-rate-trailer"],
            delta=parameters["delta"],
            delta_bar=parameters["delta-bar"],
        )
    elif kind == "mec":
        parameters = {**MEC_PRE_DEFAULTS, **_parameters(pre_node, source)}
        pre = mec_pre_crawford(
            post, max_away, gammon_rate=parameters["gammon-rate"], win_rate=parameters["win-rate"]
        )
        native = None
    else:
        raise ParseError(
            f"unknown table type {kind!r}; expected explicit, zadeh or mec",
            source=source,
            line=pre_node.line,
            column=pre_node.column,
        )
    if kind != "explicit":
        native = None
        parameters = {
            "pre-crawford": {"type": kind, **parameters},
            "post-crawford": post_parameters,
        }
    try:
        return MatchEquityTable(
            name=name or source,
            pre_crawford=pre,
            post_crawford=post,
            description=description,
            source=source,
            notice=_notice(text),
            parameters=parameters,
            native_length=native,
        )
    except MetError as error:  # entries no match can have: placed at the pre-Crawford table
        raise _quoted(
            str(error).removeprefix(f"MET {name or source!r}: "),
            source,
            text,
            pre_node.line,
            pre_node.column,
        ) from None
