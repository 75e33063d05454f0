"""The text level of the transcript readers: gammonlab.io.text, .mat and .sgf.

Corpus tests read every file of the shared corpus (``../shared/data`` or
``$GAMMONLAB_SHARED_DATA``, see its SOURCES.md) and are skipped when it is missing.
"""

from __future__ import annotations

import collections
import csv
import io
import itertools
import pickle
import re
import time
from functools import cache
from pathlib import Path

import pytest
from conftest import SHARED_DATA, corpus, needs_corpus
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gammonlab as gl
from gammonlab.errors import GammonlabError, ParseError
from gammonlab.io.mat import format_mat, parse_mat
from gammonlab.io.raw import ACTION_KINDS, Location, ProblemLog, RawAction
from gammonlab.io.sgf import SgfNode, SgfProperty, format_sgf, parse_collection, parse_sgf
from gammonlab.io.text import SourceNotFoundError, decode_bytes, load_source, read_source

DATA = SHARED_DATA
needs_data = needs_corpus()


def _files(kind: str) -> list[Path]:
    folder = DATA / kind
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


MAT_FILES = _files("mat")
SGF_FILES = _files("sgf")


def _rel(path: Path) -> str:
    return path.relative_to(DATA).as_posix()


@cache
def _mat(path: Path):
    return parse_mat(path, errors="collect")


@cache
def _sgf(path: Path):
    return parse_sgf(path, errors="collect")


# --------------------------------------------------------------------------- helpers

_PLAY_TOKEN = re.compile(r"^(.*?)(?:\((\d)\))?\*?$")


def net_moves(play: str | None) -> frozenset | None:
    """A play as the net change of checkers per point (own numbering).

    Expands ``(2)`` repeats and compound ``24/18/13`` moves, ignores hits, so
    that ``'20/4'`` and ``'20/16 16/12 12/8 8/4'`` compare equal.
    """
    if play is None:
        return None
    change: collections.Counter = collections.Counter()
    for token in play.split():
        match = _PLAY_TOKEN.match(token)
        repeat = int(match.group(2) or 1)
        points = [
            25 if p.lower() == "bar" else 0 if p.lower() == "off" else int(p)
            for p in match.group(1).replace("*", "").split("/")
        ]
        for start, end in itertools.pairwise(points):
            change[start] -= repeat
            change[end] += repeat
    return frozenset((point, n) for point, n in change.items() if n)


def key(action: RawAction) -> tuple:
    dice = tuple(sorted(action.dice)) if action.dice else None
    return (action.player, action.kind, dice, net_moves(action.play))


def keys(game) -> list[tuple]:
    return [key(action) for action in game.actions]


def kinds(text: str, **kw) -> list[tuple]:
    return [(a.player, a.kind) for a in parse_mat(text, **kw).games[0].actions]


# --------------------------------------------------------------------------- decoding


def test_decode_bytes_utf8_bom_and_newlines():
    assert decode_bytes(b"a\r\nb\rc\n") == ("a\nb\nc\n", "utf-8")
    assert decode_bytes("\ufeffKévin\r\n".encode()) == ("Kévin\n", "utf-8-sig")
    assert decode_bytes("Björn".encode("utf-16")) == ("Björn", "utf-16")


def test_decode_bytes_single_byte_encodings_whole_file():
    latin = '; [Player 1 "Jürgen"]\n 1 point match\n'.encode("latin-1")
    assert decode_bytes(latin) == ('; [Player 1 "Jürgen"]\n 1 point match\n', "latin-1")
    # cp1252 only when it reads the 0x80-0x9F bytes as printable characters
    assert decode_bytes(b"\x93Sahl\xe9n\x94") == ("“Sahlén”", "cp1252")
    assert decode_bytes(b"\x81\x93")[1] == "latin-1"
    # one bad byte decides for the whole file, never line by line
    mixed = "Kévin\n".encode() + "Jürgen\n".encode("latin-1")
    text, encoding = decode_bytes(mixed)
    assert encoding == "latin-1" and text.startswith("KÃ©vin")


def test_read_source_kinds(tmp_path):
    path = tmp_path / "m.mat"
    path.write_bytes(b"\xef\xbb\xbf 1 point match\r\n")
    assert read_source(path) == (" 1 point match\n", str(path))
    assert read_source(str(path)) == (" 1 point match\n", str(path))
    assert load_source(path).encoding == "utf-8-sig"
    assert read_source(" 1 point match\n Game 1\n") == (" 1 point match\n Game 1\n", None)
    assert read_source(b"x\r\n") == ("x\n", None)
    with open(path, "rb") as handle:
        assert read_source(handle) == (" 1 point match\n", str(path))
    with open(path, encoding="utf-8-sig") as handle:
        assert read_source(handle) == (" 1 point match\n", str(path))
    with open(path, encoding="ascii") as handle:  # wrong encoding: bytes are re-read
        assert read_source(handle)[0] == " 1 point match\n"
    assert read_source(io.StringIO("a\r\nb")) == ("a\nb", None)
    assert read_source(io.BytesIO(b"Sahl\xe9n")) == ("Sahlén", None)
    with pytest.raises(SourceNotFoundError) as info:
        read_source(tmp_path / "missing.mat")
    assert isinstance(info.value, GammonlabError) and isinstance(info.value, FileNotFoundError)
    with pytest.raises(SourceNotFoundError):
        read_source("no/such/file.mat")
    assert read_source("(;GM[6])") == ("(;GM[6])", None)  # one line of SGF is text
    with pytest.raises(TypeError):
        read_source(42)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- .mat dialects

# "$" marks a line's end where GNU Backgammon leaves trailing spaces.
GNUBG = """\
; [EventDate "2026.11.30"]

 7 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             63: 24/18 13/10 $
  2) 65: 6/1* 13/7*              11: 25/24* 25/24 6/5 6/5
  3) 53: 6/3* 8/3                63: $
  4)  Doubles => 2                Takes
  5) 11: 20/19 19/18 18/17 17/16 61: 1/0 2/0 $
  6)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 gnubg : 2                      root : 0
  1) 52: 13/8 13/11              Doubles => 2
  2)  Drops                       Wins 1 point and the match
""".replace("$\n", "\n")


def test_gnubg_layout():
    raw = parse_mat(GNUBG)
    assert raw.format == "mat" and raw.match_length == 7
    assert raw.headers == {"EventDate": "2026.11.30"}
    game = raw.games[0]
    assert (game.number, game.players, game.scores, game.complete) == (
        1,
        ("gnubg", "root"),
        (0, 0),
        True,
    )
    assert [(a.player, a.kind) for a in game.actions] == [
        (1, "move"),
        (0, "move"),
        (1, "move"),
        (0, "move"),
        (1, "move"),
        (0, "double"),
        (1, "take"),
        (0, "move"),
        (1, "move"),
        (0, "double"),
        (1, "drop"),
        (0, "win"),
    ]
    first = game.actions[0]
    assert (first.dice, first.play) == ((6, 3), "24/18 13/10")
    assert (first.loc.line, first.loc.column) == (7, 34)
    assert game.actions[4].play == ""  # "63:" with nothing after: no move
    assert game.actions[5].cube == 2 and game.actions[5].loc.column == 7
    # a left play filling its whole column: the right player's dice still split it
    assert (game.actions[7].play, game.actions[8].play) == ("20/19 19/18 18/17 17/16", "1/0 2/0")
    assert (game.actions[-1].points, game.actions[-1].match_won) == (2, False)
    second = raw.games[1]
    assert [(a.player, a.kind) for a in second.actions] == [
        (0, "move"),
        (1, "double"),
        (0, "drop"),
        (1, "win"),
    ]
    assert second.actions[-1].match_won and second.actions[-1].points == 1


XG = """\
\ufeff; [Site "eXtreme Gammon"]\r
; [Player 1 "Kit"]\r
; [Variation "Backgammon"]\r
\r
Match of 17 points\r
\r
 Game 1\r
 Akiko : 0                             Kit : 0\r
  1)                                   21: 24/23 13/11                   \r
  2) 21: 24/23 13/11                   63: 23/14*                        \r
  3) 51: Bar/20 23/22                  66: Cannot Move                   \r
  9) 22: 24/20 6/4*(2)                  Doubles => 2                     \r
  10)  Takes                           33: 13/7(2)                       \r
 11) 41: 4/Off 2/1                     62: ????                          \r
                                        Wins 2 point\r
"""


def test_xg_layout_bom_crlf_and_question_marks():
    raw = parse_mat(XG.encode())
    assert raw.encoding == "utf-8-sig" and raw.match_length == 17
    assert raw.variant == "Backgammon" and raw.headers["Player 1"] == "Kit"
    actions = raw.games[0].actions
    assert [(a.player, a.kind, a.play) for a in actions] == [
        (1, "move", "24/23 13/11"),
        (0, "move", "24/23 13/11"),
        (1, "move", "23/14*"),
        (0, "move", "Bar/20 23/22"),
        (1, "move", ""),
        (0, "move", "24/20 6/4*(2)"),
        (1, "double", None),
        (0, "take", None),
        (1, "move", "13/7(2)"),
        (0, "move", "4/Off 2/1"),
        (1, "resign", None),
        (1, "win", None),
    ]
    resign = actions[-2]
    assert resign.dice == (6, 2) and resign.points is None
    assert actions[-1].points == 2


def test_column_found_from_the_text_not_a_fixed_width():
    pad = " " * 25  # gammonview pads every line
    wide = (
        " 5 point match\n Game 1\n"
        f" Jade1: 0                                 Kestrelcove1: 0{pad}\n"
        f"  1)                                          64: 6/2 8/2{pad}\n"
        f"  9) 15: 8/3 3/2                              12: 6/4 4/3{pad}\n"
        f"  10) 32: 13/10 10/8                           36: 9/3 9/6{pad}\n"
        "  11) 43:                                      Doubles => 2\n"
        " 12)                                            Drops\n"
        "     Wins 1 points"
    )
    raw = parse_mat(wide)
    assert raw.players == ("Jade1", "Kestrelcove1")
    actions = raw.games[0].actions
    assert [(a.player, a.kind, a.dice) for a in actions] == [
        (1, "move", (6, 4)),
        (0, "move", (1, 5)),
        (1, "move", (1, 2)),
        (0, "move", (3, 2)),
        (1, "move", (3, 6)),
        (0, "move", (4, 3)),
        (1, "double", None),
        (1, "drop", None),
        (0, "win", None),
    ]
    assert actions[5].play == ""  # a dance, then the right player's double


def test_resignation_dialects():
    text = (
        " 11 point match\n Game 1\n a : 0                                b : 0\n"
        "  1) 31: 8/5 6/5                      Concedes\n"
        "  2)  Wins 2 point\n"
        " Game 2\n a : 2                                b : 0\n"
        "  1) 32: Concedes                      Wins 2 point\n"
        " Game 3\n a : 2                                b : 2\n"
        "  1) 00: ????                          Wins 1 point\n"
        " Game 4\n a : 2                                b : 3\n"
        "  1)  Losses 1 point                                  Wins 1 point and the match\n"
        " Game 5\n a : 2                                b : 4\n"
        "  1) Resigns                           Rejects\n"
        "  2) 62: 24/18 13/11                   Resigns gammon\n"
        "  3)  Accepts                          \n"
        "  4)  Wins 2 points\n"
    )
    games = parse_mat(text).games
    assert [(a.player, a.kind, a.dice) for a in games[0].actions] == [
        (0, "move", (3, 1)),
        (1, "resign", None),
        (0, "win", None),
    ]
    assert [(a.player, a.kind, a.dice) for a in games[1].actions] == [
        (0, "resign", (3, 2)),
        (1, "win", None),
    ]
    assert [(a.player, a.kind, a.dice) for a in games[2].actions] == [
        (0, "resign", None),
        (1, "win", None),
    ]
    losses = games[3].actions[0]
    assert (losses.player, losses.kind, losses.points) == (0, "resign", 1)
    assert [(a.player, a.kind) for a in games[4].actions] == [
        (0, "resign"),
        (1, "reject"),
        (0, "move"),
        (1, "resign"),
        (0, "accept"),
        (0, "win"),
    ]
    assert games[4].actions[3].resign_level == 2


def test_cube_words_and_answers():
    text = (
        " 0 point match\n Game 1\n a : 0                    b : 0\n"
        "  1) 31: 8/5 6/5            Doubles => 2\n"
        "  2)  Beavers => 4          Raccoons => 8\n"
        "  3)  Accepts               Doubles => 16\n"
        "  4)  Passes                Wins 8 points\n"
        " Game 2\n a : 0                    b : 8\n"
        "  1) 31: 8/5 6/5            Doubles 2\n"
        "  2)  Drops                 Wins 1\n"
    )
    raw = parse_mat(text)
    assert raw.match_length == 0
    actions = raw.games[0].actions
    assert [(a.player, a.kind, a.cube) for a in actions] == [
        (0, "move", None),
        (1, "double", 2),
        (0, "beaver", 4),
        (1, "raccoon", 8),
        (0, "take", None),
        (1, "double", 16),
        (0, "drop", None),
        (1, "win", None),
    ]
    assert [(a.kind, a.cube, a.points) for a in raw.games[1].actions[1:]] == [
        ("double", 2, None),
        ("drop", None, None),
        ("win", None, 1),
    ]


def test_names_ratings_and_scores():
    text = (
        " 5 point match\n\n Game 1\n massie,1522 : 0                 Name Two: 3\n"
        "  1) 31: 8/5 6/5\n"
    )
    raw = parse_mat(text)
    assert raw.players == ("massie", "Name Two") and raw.ratings == ("1522", None)
    assert raw.games[0].scores == (0, 3)
    assert raw.games[0].complete is False


def test_impossible_results_are_kept():
    text = (
        " 3 point match\n Game 1\n a : 0                b : 0\n"
        "  1) 32: ????         Wins 4016 point\n"
    )
    assert parse_mat(text).games[0].actions[-1].points == 4016


@pytest.mark.parametrize(
    "row, column, message",
    [
        ("  1) x3: 8/5 6/5", 6, "expected dice like '63:' or an action"),
        ("  1) 73: 8/5 6/5", 6, "expected dice like '63:', got '73:'"),
        ("  1) 31: 8/5 6/", 14, "expected a move"),
        ("  1) 31: 8/5 27/3", 14, "from 0 to 25"),
        ("  1)  Doubles => x", 18, "expected the cube value"),
        ("  1)  Wins", 11, "expected the points after 'Wins'"),
        ("  1)  Takes now", 13, "unexpected 'now'"),
        ("  1) 31: 8/5 6/5      52: 13/8     Doubles => 2", 36, "at most two actions"),
    ],
)
def test_strict_errors_point_at_the_token(row, column, message):
    text = f" 3 point match\n Game 1\n a : 0                b : 0\n{row}\n"
    with pytest.raises(ParseError) as info:
        parse_mat(text)
    error = info.value
    assert (error.line, error.column) == (4, column), str(error)
    assert message in str(error) and error.text == row
    raw = parse_mat(text, errors="collect")
    assert [(p.line, p.column) for p in raw.problems] == [(4, column)]
    assert raw.games[0].problems == raw.problems


def test_strict_mode_and_incomplete_games():
    head = " 3 point match\n Game 1\n a : 0                b : 0\n  1) 31: 8/5 6/5\n"
    assert parse_mat(head).games[0].complete is False  # cut after a complete action: fine
    second = head + " Game 2\n a : 0                b : 1\n"
    # whether game 1 ended (its moves may bear off every checker) is the replay's to say
    raw = parse_mat(second)
    assert len(raw.games) == 2 and not raw.games[0].complete and not raw.problems
    with pytest.raises(ParseError, match=r"game 1 has no result line") as info:
        gl.read_match(second)
    assert info.value.line == 2
    match = gl.read_match(second, errors="collect")
    assert len(match.games) == 2 and [p.line for p in match.problems] == [2]
    with pytest.raises(ParseError, match="no game found"):
        parse_mat(" 3 point match\n")
    assert len(parse_mat(" 3 point match\n", errors="collect").problems) == 1
    header_only = parse_mat('; [Site "x"]\n\n 3 point match\n\n Game 1\n a : 0      b : 0\n')
    assert header_only.games[0].actions == () and not header_only.games[0].complete
    with pytest.raises(ParseError, match="expected a header"):
        parse_mat("hello\n Game 1\n a : 0     b : 0\n")
    with pytest.raises(ParseError, match="second match length"):
        parse_mat(head + "  2)  Wins 1 point\n 5 point match\n")
    with pytest.raises(ParseError, match="names and scores"):
        parse_mat(" 3 point match\n Game 1\n  1) 31: 8/5 6/5\n")
    with pytest.raises(ValueError):
        parse_mat(head, errors="ignore")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- SGF


def test_sgf_tree_reader():
    trees = parse_collection(
        "(;FF[4]GM[6]AB[a][b:c]C[a \\] b\\\\ c\\\nd]\n;W[31hefe](;B[x])(;B[y]))"
    )
    root = trees[0].nodes[0]
    assert root.get("AB").values == ("a", "b:c")
    assert root.value("C") == "a ] b\\ cd"
    assert [n.properties[0].values[0] for n in trees[0].main_line()[1:]] == ["31hefe", "x"]
    for bad, message in [
        ("(;GM[6]", "missing ')'"),
        ("(;GM[6]))", "unexpected ')'"),
        ("(;GM[6", "unterminated value"),
        ("(;GM[6]é)", "unexpected 'é'"),
        ("(;GM)", "expected '[' and a value"),
        ("()", "empty game tree"),
    ]:
        with pytest.raises(ParseError, match=re.escape(message)):
            parse_collection(bad)
    assert len(parse_collection("(;GM[6])(;GM[6]", errors="collect")) == 2


def test_sgf_locations_are_worked_out_when_read():
    text = "(;GM[6]PW[w]PB[b]RE[B+1]\n;B[43lplo]\n  ;W[64lhgi])"
    first, second = parse_sgf(text).games[0].actions[:2]
    # worked out on first use, and then like any Location: equal, hashed, shown, pickled
    assert first.loc.__dict__.keys() == {"_where", "_offset"}
    eager = Location(None, 2, 2, ";B[43lplo]")
    assert first.loc == eager and eager == first.loc and hash(first.loc) == hash(eager)
    assert first.loc.__dict__ == eager.__dict__
    assert repr(second.loc) == "Location(source=None, line=3, column=4, text='  ;W[64lhgi])')"
    assert str(second.loc) == "3:4" and second.loc != first.loc
    copied = pickle.loads(pickle.dumps(second.loc))
    assert type(copied) is Location and copied == second.loc
    with pytest.raises(AttributeError, match="no attribute 'lin'"):
        first.loc.lin  # noqa: B018


def test_sgf_plain_move_nodes_read_as_any_node():
    """The compact node of one value and the remembered reading of a plain move give
    what the general path gives: the same nodes, the same raw actions, field by field."""
    text = "(;GM[6]PW[w]PB[b]RE[W+1]\n;B[43lplo]\n;W[31hefe]\n;B[43lplo]C[again])"
    nodes = parse_collection(text)[0].nodes
    assert type(nodes[1]) is not SgfNode and type(nodes[3]) is SgfNode
    assert nodes[1] == SgfNode(
        nodes[1].offset, [SgfProperty("B", ("43lplo",), nodes[1].offset + 1)]
    )
    assert repr(nodes[1]).startswith("SgfNode(offset=")
    assert nodes[1].value("B") == "43lplo" and nodes[1].get("C") is None
    for _ in range(2):  # read afresh, then as remembered
        first, second, third = parse_sgf(text).games[0].actions[:3]
        built = RawAction(player=1, kind="move", dice=(4, 3), play="13/9 13/10", loc=first.loc)
        assert first.__dict__ == built.__dict__ and list(first.__dict__) == list(built.__dict__)
        assert (second.player, second.dice, second.play) == (0, (3, 1), "8/5 6/5")
        assert third.comment == "again" and third.play == first.play


def _raw_record(text: str, errors: str) -> tuple | str:
    """What parse_sgf reads, and what equality leaves out: each action's fields in their
    order and where it is written, the problems and where they are."""
    try:
        raw = parse_sgf(text, errors=errors)
    except ParseError as error:
        return str(error)
    return (
        raw,
        [str(problem) for problem in raw.problems],
        raw.locations,
        [
            (game.loc, [str(p) for p in game.problems], [vars(a).copy() for a in game.actions])
            for game in raw.games
        ],
    )


@pytest.mark.parametrize("source", ["texts", "corpus"])
def test_sgf_compact_nodes_read_as_the_nodes_they_stand_for(monkeypatch, source):
    """parse_sgf keeps a record's nodes of one value compact (_read_trees(compact=True)):
    the first node of each sequence a node, the others tuples. Read from the nodes
    parse_collection builds, every record is the same, afresh or remembered, in both
    modes: its actions, where they are written, its problems."""
    from gammonlab.io import sgf
    from gammonlab.io.sgf_syntax import _read_trees, _Text

    variations = "(;GM[6];W[31hefe];B[double];W[take]\n;B[64xrxt](;W[52mhhf];B[11])(;W[66]))"
    tree = _read_trees(_Text(variations, None), ProblemLog(collect=True), compact=True)[0]
    assert isinstance(tree.nodes[0], SgfNode) and {type(n) for n in tree.nodes[1:]} == {tuple}
    assert isinstance(tree.children[0].nodes[0], SgfNode)
    if source == "texts":
        records = [
            "(;GM[6]PW[w]PB[b]RE[W+1]\n;B[43lplo]\n;W[31hefe]\n;B[43lplo]C[again])",
            variations,
            "(;W[31hefe];B[43lplo])(;GM[6]PW[w]\n;PL[W]DI[11];W[11yvyv];B[drop];W[x(y];B[43])",
            "(;GM[6];B[43lplo] ;W[31hefe]\r\n;B[43lplo];;W[21];W[99];B[31hefe]LU[x])",
            "(;GM[6];W[double];B[double];W[double];B[take];W[31hefe]" * 2 + ")",
        ]
    else:
        corpus("sgf")
        records = [path.read_bytes().decode("utf-8", "replace") for path in SGF_FILES]
    for text in records:
        for errors in ("raise", "collect"):
            sgf._PLAIN_MOVES.clear()
            read = [_raw_record(text, errors), _raw_record(text, errors)]
            with monkeypatch.context() as patch:
                patch.setattr(
                    sgf, "_read_trees", lambda text, log, compact=False: _read_trees(text, log)
                )
                sgf._PLAIN_MOVES.clear()
                assert [_raw_record(text, errors), _raw_record(text, errors)] == read


def test_sgf_colours_points_and_results():
    text = (
        "(;FF[4]GM[6]MI[length:5][game:2][ws:1][bs:3]PW[white]PB[black]"
        "RU[Crawford:CrawfordGame]RE[B+2R]\n;W[31hefe]\n;B[54lqae]\n;W[62yrhb]\n;B[11]\n;W[double]\n;B[double]"
        "\n;W[take]\n;B[44xzxzwzwz]\n;PL[W]DI[21])"
    )
    raw = parse_sgf(text)
    assert raw.players == ("white", "black") and raw.match_length == 5
    game = raw.games[0]
    assert (game.number, game.scores, game.rules) == (3, (1, 3), ("Crawford", "CrawfordGame"))
    assert [(a.player, a.kind, a.dice, a.play, a.cube) for a in game.actions] == [
        (0, "move", (3, 1), "8/5 6/5", None),
        (1, "move", (5, 4), "13/8 24/20", None),
        (0, "move", (6, 2), "bar/18 8/2", None),
        (1, "move", (1, 1), "", None),
        (0, "double", None, None, 2),
        (1, "beaver", None, None, 4),
        (0, "take", None, None, None),
        (1, "move", (4, 4), "1/off 1/off 2/off 2/off", None),
        (0, "resign", (2, 1), None, None),
        (1, "win", None, None, None),
    ]
    assert game.actions[-1].points == 2 and game.complete
    assert (game.actions[0].loc.line, game.actions[0].loc.column) == (2, 2)


def test_sgf_rollout_analysis_and_marks():
    out = "0.5 0.1 0.01 0.1 0.01 0.05 0.06"
    dev = "0.01 0.002 0.001 0.002 0.001 0.02 0.02"
    context = 'SK 0 RC 1 1 1 1 0 0 0 0 0 0 "mersenne" 42 '
    move = f"X ver 3 Score 0.05 0.06 Trials 1296 Output {out} StdDev {dev} {context}"
    cube = (
        f"X ver 3 Eq Trials 1296 NoDouble Output {out} StdDev {dev} "
        f"DoubleTake Output {out} StdDev {dev} {context}"
    )
    text = (
        f"(;GM[6]PW[a]PB[b]\n;W[31hefe]DA[{cube}]A[0][hefe {move}]"
        "[mhmi E ver 3 0.4 0.1 0.01 0.1 0.01 -0.1 2C 0 1 0.000000 1]MR[1 ]LU[0.1]GW[2]BM[1]"
        "C[well \\] played])"
    )
    raw = parse_sgf(text)
    action = raw.games[0].actions[0]
    info = action.analysis
    rollout, evaluation = info["moves"]["candidates"]
    assert (rollout["eval"], rollout["trials"], rollout["score"]) == ("X", 1296, 0.05)
    assert rollout["output"][:5] == (0.5, 0.1, 0.01, 0.1, 0.01) and len(rollout["stddev"]) == 7
    assert (evaluation["play"], evaluation["plies"], evaluation["equity"]) == ("13/8 13/9", 2, -0.1)
    assert info["moves"]["marked"] == [1] and info["cube"]["trials"] == 1296
    assert info["cube"]["double_take"][6] == 0.06
    assert (info["luck"], info["luck_rating"], info["skill"]) == (0.1, "very good", "bad")
    assert action.comment == "well ] played"
    assert parse_sgf(format_sgf(raw)).games == raw.games


@pytest.mark.parametrize(
    "node, message",
    [
        ("W[71hefe]", "dice from 1 to 6"),
        ("W[31hef]", "pairs of letters"),
        ("W[31hy]", "cannot end at 'y'"),
        ("W[hello]", "expected dice and a move"),
        ("PL[W]DI[71]", "expected dice like DI[63]"),
        ("W[31hefe]B[31hefe]", "two moves"),
        ("AE[a]", "position edits"),
        ("W[31hefe]A[x]", "unreadable analysis"),
    ],
)
def test_sgf_errors(node, message):
    text = f"(;GM[6]PW[a]PB[b]\n;{node})"
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse_sgf(text)
    assert info.value.line == 2
    assert len(parse_sgf(text, errors="collect").problems) == 1
    with pytest.raises(ParseError, match="expected GM\\[6\\]"):
        parse_sgf("(;GM[1]B[aa])")


def test_sgf_moves_from_off_the_board_are_acey_deucey_entries():
    # GNU Backgammon never moves a checker from 'z' (off): it is an entry (R11.1), and
    # two equal digits start the doubles of a 1-2 (R11.2)
    raw = parse_sgf("(;GM[6]PW[a]PB[b]RU[AceyDeucey]\n;W[21zwzx66zszszszs]\n;B[31zcza])")
    plays = [action.play for action in raw.games[0].actions]
    assert plays == ["in/23 in/24 then 6-6: in/19 in/19 in/19 in/19", "in/22 in/24"]
    assert raw.variant == "AceyDeucey"
    assert parse_sgf(format_sgf(raw)).games == raw.games


# --------------------------------------------------------------------------- corpus


@needs_data
def test_corpus_every_file_parses():
    """Collect mode reads everything; strict mode fails only on truncated_derived files."""
    counts = collections.Counter()
    strict_failures = {}
    for path in MAT_FILES + SGF_FILES:
        parse = parse_mat if path.parent.parent.name == "mat" else parse_sgf
        raw = _mat(path) if parse is parse_mat else _sgf(path)
        counts["files"] += 1
        counts["games"] += len(raw.games)
        counts["actions"] += sum(len(game.actions) for game in raw.games)
        for action in raw.actions:
            assert action.kind in ACTION_KINDS and action.player in (0, 1)
            assert action.loc.line >= 1 and action.loc.column >= 1
        try:
            strict = parse(path)
        except ParseError as error:
            strict_failures[_rel(path)] = error
            assert error.source == str(path) and error.line and error.column
            assert error.text is not None and str(path) in str(error)
            assert raw.problems and raw.problems[0].line == error.line
        else:
            assert not raw.problems, _rel(path)
            assert strict.games == raw.games
    print(
        f"\ncorpus: {counts['files']} files, {counts['games']} games, "
        f"{counts['actions']} actions; strict failures: {sorted(strict_failures)}"
    )
    assert all(name.startswith("mat/truncated_derived/") for name in strict_failures)
    cut = strict_failures.get("mat/truncated_derived/LasVegas2014_Final_cut_mid_line_at_60pct.txt")
    assert cut is not None and (cut.line, cut.column) == (160, 44) and "'20/'" in str(cut)
    assert counts["files"] == len(MAT_FILES) + len(SGF_FILES) >= 360


@needs_data
def test_corpus_games_match_game_headers_and_scores():
    name_line = re.compile(r"^\s*Game\s+(\d+)\s*\n(?:\s*\n)*(.*)$", re.MULTILINE)
    for path in MAT_FILES:
        raw = _mat(path)
        text = load_source(path).text
        headers = name_line.findall(text)
        assert len(raw.games) == len(headers), _rel(path)
        for game, (number, names) in zip(raw.games, headers, strict=True):
            assert game.number == int(number)
            scores = re.findall(r":\s*(\d+)", names)[-2:]
            assert game.scores == tuple(int(s) for s in scores), (_rel(path), game.number)


@needs_data
def test_corpus_against_gnubg_import_check():
    table = corpus("gnubg_import_check.tsv")
    score = re.compile(r"is: (.*) (\d+), (.*) (\d+) \((?:match to (\d+) points?|money session)")
    checked = 0
    with open(table, encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            path = DATA / row["file"]
            if not path.is_file():
                continue
            raw = _mat(path) if row["file"].startswith("mat/") else _sgf(path)
            if row["orig_games"]:
                assert len(raw.games) == int(row["orig_games"]), row["file"]
            if row["status"] == "OK":
                assert len(raw.games) == int(row["reexport_games"]), row["file"]
            match = score.search(row["score"])
            if match:
                # GNU Backgammon's player 0 is our player 0 (it truncates names to 31)
                names = {game.players[0][:31] for game in raw.games}  # names may change
                assert match.group(1) in names, row["file"]
                assert raw.match_length == int(match.group(5) or 0), row["file"]
            checked += 1
    assert checked > 300


DERIVED = {
    "galaxy_match1278964": "backgammongalaxy_bglab/match1278964.txt",
    "galaxy_match1495872_1pt": "backgammongalaxy_bglab/match1495872.txt",
    "galaxy_match7968492_16pt_single_game": "backgammongalaxy_bglab/match7968492.txt",
    "bgstudio_kris-Llabba_7pt": "backgammonstudio_bglab/kris - Llabba 7pt*16_27_48.txt",
    "bgstudio_kris-Llabba_7pt_analysed_0ply": "backgammonstudio_bglab/kris - Llabba 7pt*16_27_48.txt",
    "xg_LasVegas2014_Final_Woolsey-Yazawa_17pt": "bgchallenge/LasVegas.2014Finals.Akiko.Kit.17pt_1417623219.txt",
    "xg_LasVegas2014_Final_Woolsey-Yazawa_17pt_analysed_0ply": "bgchallenge/LasVegas.2014Finals.Akiko.Kit.17pt_1417623219.txt",
    "playok_bg176365983_INBC29_final": "bgchallenge/bg176365983_1648962042.txt",
    "bgstudio_Aref91777-sahlen_latin1_header": "bgchallenge/Aref91777 - sahlen 13pt*1649883001.txt",
    "xg_Aachen2024_doubles_consultation_7pt": "xg_export_kevung/lazyBG_match1.txt",
    "gammonview_money_session": "gammonview_anonymized/B4_SrGcsKAQmoTyHlgJCbM_money.mat",
}
# .sgf and .mat written by GNU Backgammon from one session: its .mat export leaves
# out resignations and the take of a beaver, and writes a raccoon as a beaver.
TWINS = {
    "gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.sgf": "gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.mat",
    "gnubg_synthetic/gnubg_selfplay_7pt_crawford_resign.sgf": "gnubg_synthetic/gnubg_selfplay_7pt_crawford_resign.mat",
    "gnubg_kevung/HSBT_Paris_2023_Job-Unger_analysed.sgf": "gnubg_export_kevung/HSBT_Paris_2023_Job-Unger_test.mat",
    "gnubg_kevung/charlot1-charlot2_7p_2025-11-08-2305.sgf": "gnubg_export_kevung/charlot1-charlot2_7p_2025-11-08-2305.mat",
}


def _mat_source(pattern: str) -> Path:
    found = sorted((DATA / "mat").glob(pattern))
    assert len(found) == 1, pattern
    return found[0]


def _no_bare_resignation(game_keys: list[tuple]) -> list[tuple]:
    # GNU Backgammon records a game that ends before the last checker is off as
    # resigned (RE[W+2R]); a .mat may only say "Wins" then.
    return [k for k in game_keys if not (k[1] == "resign" and k[2] is None)]


def _compare(sgf_raw, mat_raw, normalise=_no_bare_resignation) -> int:
    assert len(sgf_raw.games) == len(mat_raw.games)
    compared = 0
    for sgf_game, mat_game in zip(sgf_raw.games, mat_raw.games, strict=True):
        assert (sgf_game.number, sgf_game.players, sgf_game.scores) == (
            mat_game.number,
            mat_game.players,
            mat_game.scores,
        )
        sgf_keys, mat_keys = normalise(keys(sgf_game)), _no_bare_resignation(keys(mat_game))
        for index, (left, right) in enumerate(zip(sgf_keys, mat_keys, strict=False)):
            assert left == right, (
                sgf_game.number,
                index,
                sgf_game.actions[index].loc,
                mat_game.actions[index].loc,
            )
        assert len(sgf_keys) == len(mat_keys), sgf_game.number
        compared += len(sgf_keys)
    return compared


@needs_data
@pytest.mark.parametrize("name", sorted(DERIVED))
def test_sgf_derived_from_mat_gives_the_same_actions(name):
    sgf_path = corpus("sgf", "gnubg_derived_from_real_mat", f"{name}.sgf")
    assert _compare(_sgf(sgf_path), _mat(_mat_source(DERIVED[name]))) > 30


def _as_gnubg_mat_export(sgf_keys: list[tuple]) -> list[tuple]:
    out: list[tuple] = []
    for k in _no_bare_resignation(sgf_keys):
        if k[1] == "take" and out and out[-1][1] == "beaver":
            continue
        out.append((k[0], "beaver", *k[2:]) if k[1] == "raccoon" else k)
    return out


@needs_data
@pytest.mark.parametrize("sgf_name", sorted(TWINS))
def test_gnubg_sgf_and_mat_twins(sgf_name):
    sgf_path, mat_path = corpus("sgf", sgf_name), corpus("mat", TWINS[sgf_name])
    assert _compare(_sgf(sgf_path), _mat(mat_path), _as_gnubg_mat_export) > 100


@needs_data
def test_corpus_dialect_details():
    def actions(rel):
        return _mat(DATA / "mat" / rel).games

    galaxy = actions("backgammongalaxy_bglab/match1574521.txt")[0].actions
    assert [(a.player, a.kind, a.points, a.match_won) for a in galaxy[-2:]] == [
        (0, "resign", 1, False),
        (1, "win", 1, True),
    ]
    gammonview = _mat(DATA / "mat/gammonview_anonymized/5nqfGw9bWG3deTaU.mat")
    assert [a.kind for a in gammonview.games[3].actions[-2:]] == ["resign", "win"]
    assert gammonview.games[0].actions[0].dice == (1, 6)  # ascending dice kept as written
    resign_after_roll = actions("gnubg_export_kevung/gnubg_roll_then_resign_1p.mat")[0]
    assert [(a.player, a.kind, a.play) for a in resign_after_roll.actions[-2:]] == [
        (1, "move", ""),
        (0, "win", None),
    ]
    hsbt = actions("gnubg_export_kevung/HSBT_Paris_2023_Job-Unger_test.mat")[1].actions
    assert (hsbt[-2].kind, hsbt[-2].dice) == ("resign", (3, 3))  # gnubg's "33: ???"
    money = _mat(DATA / "mat/gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.mat")
    assert money.match_length == 0 and money.players == ("Anna", "Björn")
    assert [a.cube for a in money.games[3].actions if a.cube] == [2, 4, 8]
    purple = next((DATA / "mat/backgammonstudio_bglab").glob("MrPurple - Lasse 3pt*"))
    assert 4016 in [a.points for a in _mat(purple).actions if a.kind == "win"]
    rated = _mat(next((DATA / "mat/bgchallenge").glob("goldbach7808-fairytails-*1937_*")))
    assert rated.ratings == ("1673", "1838") and "," not in rated.players[0]
    latin = _mat(next((DATA / "mat/bgchallenge").glob("vye36 - jrus*")))
    assert latin.encoding == "latin-1" and latin.headers["Player 1"] == "Ernst Kümin"
    cut = _mat(DATA / "mat/truncated_derived/match1278964_cut_midgame_after_take.txt")
    assert not cut.problems and not cut.games[-1].complete
    assert cut.games[-1].actions[-1].kind == "take"


@needs_data
def test_sgf_analysis_properties():
    raw = _sgf(DATA / "sgf/gnubg_kevung/HSBT_Paris_2023_Job-Unger_analysed.sgf")
    analysed = [a for a in raw.actions if a.analysis]
    assert len(analysed) > 300
    for action in analysed:
        info = action.analysis
        assert set(info["raw"]) <= {"A", "MR", "DA", "LU", "GB", "GW", "BM", "DO", "BC", "DC"}
        if "moves" in info:
            moves = info["moves"]
            played = moves["candidates"][moves["played"]]
            assert net_moves(played["play"]) == net_moves(action.play)
            for candidate in moves["candidates"]:
                win, gammon, backgammon, lose_gammon, lose_backgammon = candidate["probabilities"]
                assert 0 <= backgammon <= gammon <= win <= 1
                assert 0 <= lose_backgammon <= lose_gammon <= 1 - win + 1e-6
                assert candidate["eval"] == "E" and candidate["version"] == 3
        if "cube" in info:
            cube = info["cube"]
            assert len(cube["no_double"]) == len(cube["double_take"]) == 7
            assert cube["plies"] >= 0 and isinstance(cube["cubeful"], bool)
        if "luck" in info:
            assert -3 < info["luck"] < 3
    first = raw.games[0].actions[0]
    assert first.analysis["moves"]["candidates"][0]["plies"] == 2
    assert first.analysis["moves"]["candidates"][0]["cubeful"] is True
    ratings = collections.Counter(a.analysis.get("luck_rating") for a in analysed)
    assert ratings["good"] and ratings["bad"]


@needs_data
def test_sgf_dialects():
    mobile = _sgf(DATA / "sgf/backgammonmobile_alcacoop/match.sgf")
    assert mobile.players == ("AI(5)", "PL1") and mobile.match_length == 5
    assert mobile.games[0].actions[-1].kind == "win"
    selfplay = _sgf(DATA / "sgf/gnubg_synthetic/gnubg_selfplay_7pt_crawford_resign.sgf")
    assert any("CrawfordGame" in game.rules for game in selfplay.games)
    resigned = [g for g in selfplay.games if any(a.kind == "resign" for a in g.actions)]
    assert resigned and all(g.actions[-2].kind == "resign" for g in resigned)
    aachen = _sgf(
        DATA / "sgf/gnubg_derived_from_real_mat" / "xg_Aachen2024_doubles_consultation_7pt.sgf"
    )
    resign = aachen.games[0].actions[-2]
    assert (resign.kind, resign.dice) == ("resign", (1, 1))
    assert aachen.headers["EV"] == "Aachen Backgammon Festival"


# --------------------------------------------------------------------------- writers


@needs_data
def test_format_mat_round_trips_every_mat_file():
    for path in MAT_FILES:
        raw = _mat(path)
        again = parse_mat(format_mat(raw))
        assert again.games == raw.games, _rel(path)
        assert (again.match_length, again.headers, again.players) == (
            raw.match_length,
            {k: v.replace("\n", " ") for k, v in raw.headers.items()},
            raw.players,
        ), _rel(path)


@needs_data
def test_format_sgf_round_trips_every_sgf_file():
    for path in SGF_FILES:
        raw = _sgf(path)
        again = parse_sgf(format_sgf(raw))
        assert again.games == raw.games, _rel(path)  # analysis included
        assert (again.match_length, again.players, again.variant) == (
            raw.match_length,
            raw.players,
            raw.variant,
        )


def _without_resignations(game_keys: list[tuple]) -> list[tuple]:
    # Resignations other than the one that ends a game have no SGF form, and a
    # .mat writes a raccoon as a second "Beavers".
    return [
        (p, "beaver" if kind == "raccoon" else kind, dice, moves)
        for p, kind, dice, moves in game_keys
        if kind not in ("resign", "accept", "reject")
    ]


@needs_data
def test_writers_across_formats():
    for path in MAT_FILES:
        raw = _mat(path)
        again = parse_sgf(format_sgf(raw))
        assert [_without_resignations(keys(g)) for g in again.games] == [
            _without_resignations(keys(g)) for g in raw.games
        ], _rel(path)
    for path in SGF_FILES:
        raw = _sgf(path)
        again = parse_mat(format_mat(raw))
        assert [keys(g) for g in again.games] == [keys(g) for g in raw.games], _rel(path)


def test_format_mat_layout_is_gnubg_like():
    text = format_mat(parse_mat(GNUBG))
    lines = text.splitlines()
    assert lines[:4] == ['; [EventDate "2026.11.30"]', "", " 7 point match", ""]
    assert lines[4:7] == [
        " Game 1",
        " gnubg : 0                      root : 0",
        "  1)                             63: 24/18 13/10",
    ]
    assert "  4)  Doubles => 2                Takes" in lines
    assert "      Wins 2 points" in lines
    assert " " * 34 + "Wins 1 point and the match" in lines
    assert parse_mat(text).games == parse_mat(GNUBG).games


# --------------------------------------------------------------------------- fuzzing


def _small_corpus() -> list[bytes]:
    out = []
    for path in MAT_FILES + SGF_FILES:
        data = path.read_bytes()
        out.append(data[:6000])
    return out or [GNUBG.encode(), b"(;GM[6]PW[a]PB[b]RE[W+1]\n;W[31hefe]\n;B[double])"]


SMALL = _small_corpus()
MAT_ALPHABET = '0123456789:/*() \n?=>-,;[]"abBarOffWinsDoublesTakesDropsGamepointmatch'
SGF_ALPHABET = "()[];\\ \nabcxyzWBGMPLDIREAMU0123456789+:.-"


def _never_crashes(data) -> None:
    for parse, write in ((parse_mat, format_mat), (parse_sgf, format_sgf)):
        for errors in ("raise", "collect"):
            try:
                raw = parse(data, errors=errors)
                write(raw)
                (format_sgf if write is format_mat else format_mat)(raw)
            except GammonlabError:
                pass


FUZZ = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(
    st.text(alphabet=MAT_ALPHABET, max_size=400)
    | st.text(alphabet=SGF_ALPHABET, max_size=400)
    | st.binary(max_size=300)
    | st.text(max_size=200)
)
def test_fuzz_random_text_raises_only_gammonlab_errors(data):
    if isinstance(data, str):
        data = "\n" + data  # always text, never taken for a file name
    _never_crashes(data)


@FUZZ
@given(st.data())
def test_fuzz_corrupted_corpus_raises_only_gammonlab_errors(data):
    blob = bytearray(data.draw(st.sampled_from(SMALL)))
    for _ in range(data.draw(st.integers(1, 6))):
        op = data.draw(st.sampled_from(["delete", "duplicate", "garble", "cut"]))
        at = data.draw(st.integers(0, len(blob)))
        if op == "delete":
            del blob[at : at + data.draw(st.integers(1, 8))]
        elif op == "duplicate":
            start = data.draw(st.integers(0, len(blob)))
            blob[at:at] = blob[start : start + data.draw(st.integers(1, 40))]
        elif op == "garble":
            blob[at:at] = data.draw(st.binary(min_size=1, max_size=4))
        else:
            del blob[at:]
    _never_crashes(bytes(blob))


# The patterns the .mat header and names lines were once matched with: the readers
# that replaced them (which do not backtrack) must read every line as they did.
_HEADER_PATTERN = re.compile(r'^\s*;\s*\[\s*([^"\]]*?)\s*"(.*)"\s*\]\s*$')
_NAMES_PATTERN = re.compile(
    r"^\s*(?:(.*?\S)\s*)?:\s*([0-9]{1,9})\s+(?:(\S.*?)\s*)?:\s*([0-9]{1,9})\s*$"
)
_LINE_PIECES = st.lists(
    st.sampled_from([";", "[", "]", '"', ":", " ", "\t", "\x1c", "0", "7", "12", "a", "Cube", "١"]),
    max_size=14,
).map("".join)


@settings(max_examples=1000, deadline=None)
@given(_LINE_PIECES)
def test_header_lines_read_as_the_pattern_reads_them(line):
    from gammonlab.io.mat import _read_header

    header = _read_header(line)
    match = _HEADER_PATTERN.match(line)
    if match is None:
        assert header is None
    else:
        assert header is not None
        assert (header.name, header.name_at, header.value, header.value_at) == (
            match.group(1),
            match.start(1),
            match.group(2),
            match.start(2),
        )


@settings(max_examples=1000, deadline=None)
@given(_LINE_PIECES)
def test_names_lines_read_as_the_pattern_reads_them(line):
    from gammonlab.io.mat import _read_names

    names = _read_names(line)
    match = _NAMES_PATTERN.match(line)
    if match is None:
        assert names is None
    else:
        assert names is not None
        assert names.names == (match.group(1) or "", match.group(3) or "")
        assert names.scores == (int(match.group(2)), int(match.group(4)))
        assert names.scores_at == (match.start(2), match.start(4))
        assert names.second_name_at == (match.start(3) if match.group(3) else None)


@pytest.mark.parametrize(
    "line",
    [": 1 " * 250_000 + "x", "; [Variation" + " " * 1_000_000 + "x", "a" + " : 1" * 250_000],
    ids=["names", "header", "names-many-colons"],
)
def test_long_header_and_names_lines_read_in_linear_time(line):
    from gammonlab.io.mat import _read_header, _read_names

    started = time.process_time()
    _read_names(line)
    _read_header(line)
    assert time.process_time() - started < 1.0
