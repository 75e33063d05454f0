"""Match equity tables: the shipped XML tables read exactly, extension, computed tables,
and gammonlab's own generator against Kazaross-XG2."""

from __future__ import annotations

import math
import time
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import numpy as np
import pytest
from conftest import corpus

from gammonlab import met
from gammonlab.errors import GammonlabError, ParseError
from gammonlab.met import formulas as met_formulas

DATA = resources.files("gammonlab") / "data" / "met"
SHIPPED = sorted(entry.name for entry in DATA.iterdir() if entry.name.endswith(".xml"))
GENERATOR_TARGET = 0.015
"""Largest difference to Kazaross-XG2, to 15 points, the generator must stay within."""
COMPARED = 15


def _xml(name: str) -> ET.Element:
    return ET.fromstring((DATA / name).read_text(encoding="utf-8"))


def _explicit(name: str) -> tuple[list[list[float]] | None, dict[str, list[float]]]:
    root = _xml(name)
    pre = root.find("pre-crawford-table")
    rows = None
    if pre.get("type", "explicit") == "explicit":
        rows = [[float(me.text) for me in row.findall("me")] for row in pre.findall("row")]
    post = {}
    for table in root.findall("post-crawford-table"):
        if table.get("type", "explicit") == "explicit":
            post[table.get("player", "both")] = [
                float(me.text) for me in table.find("row").findall("me")
            ]
    return rows, post


# -- the shipped files ---------------------------------------------------------------------------


def test_every_shared_table_is_shipped_unchanged():
    shared = corpus("met")
    for path in sorted(shared.glob("*.xml")):
        if path.name == "catalog.xml":
            continue
        assert path.name in SHIPPED
        assert (DATA / path.name).read_bytes() == path.read_bytes()


def test_notices_are_kept():
    assert (DATA / "README.md").is_file()
    for name in SHIPPED:
        text = (DATA / name).read_text(encoding="utf-8")
        assert "Copying and distribution of this file" in text
        table = met.load(name[:-4])
        assert "Copying and distribution" in table.notice
        assert "Copyright" in table.notice or "mec.c" in table.notice


def test_available_and_default():
    assert met.available() == sorted((name[:-4] for name in SHIPPED), key=str.lower)
    assert met.load().name == "Kazaross XG2 25 point MET"
    assert met.load("KAZAROSS-xg2") is met.load()
    assert met.load("jacobs.xml") is met.load("jacobs")
    with pytest.raises(GammonlabError, match="shipped tables"):
        met.load("no-such-table")


@pytest.mark.parametrize("name", SHIPPED)
def test_reader_reproduces_every_number(name):
    rows, post = _explicit(name)
    table = met.load(name[:-4])
    assert table.max_away == met.MAX_AWAY
    if rows is not None:
        size = len(rows)
        assert table.native_length == size
        assert np.array_equal(table.pre_crawford[:size, :size], np.array(rows))
    for player, values in post.items():
        for p in (0, 1) if player == "both" else (int(player),):
            assert np.array_equal(table.post_crawford[p][: len(values)], np.array(values))


@pytest.mark.parametrize("name", SHIPPED)
def test_tables_are_sane(name):
    table = met.load(name[:-4])
    pre, post = table.pre_crawford, table.post_crawford
    assert np.all((pre >= 0) & (pre <= 1)) and np.all((post >= 0) & (post <= 1))
    if table.symmetric:
        assert np.allclose(np.diag(pre), 0.5, atol=1e-6)
    # further away, fewer chances (rows fall, columns rise), allowing for rounding
    assert np.all(np.diff(pre[:, 1:], axis=0) <= 1e-3)
    assert np.all(np.diff(pre[1:, :], axis=1) >= -1e-3)


def test_equity_lookups():
    table = met.load("Kazaross-XG2")
    assert table.equity(3, 5) == 0.64795
    assert table.equity(5, 3) == pytest.approx(1 - 0.64795)
    assert table.equity(1, 2) == 0.67736  # Crawford game
    assert table.equity(1, 2, crawford=False) == pytest.approx(1 - 0.48803)  # post-Crawford
    assert table.equity(2, 1, crawford=False) == 0.48803
    assert table.equity(1, 1) == 0.5 and table.equity(1, 1, crawford=False) == 0.5
    assert table.equity(0, 4) == 1.0 and table.equity(4, -1) == 0.0
    assert table.equity(7, 7, crawford=False) == table.equity(7, 7)  # not 1-away: no effect
    assert met.equity(3, 5) == table.equity(3, 5)
    with pytest.raises(GammonlabError):
        table.equity(26, 3)
    with pytest.raises(GammonlabError):
        table.equity(0, 0)


def test_asymmetric_table_by_player():
    table = met.load("jac050")  # player 0 is a 50 Elo favourite
    assert not table.symmetric
    rows, post = _explicit("jac050.xml")
    assert table.equity(3, 5, player=0) == rows[2][4]
    assert table.equity(3, 5, player=1) == pytest.approx(1 - rows[4][2])
    assert table.equity(3, 1, crawford=False, player=1) == post["1"][2]
    assert table.equity(1, 3, crawford=False, player=0) == pytest.approx(1 - post["1"][2])


def test_to_frame():
    table = met.load()
    frame = table.to_frame()
    assert frame.shape == (25, 25)
    assert frame.index.name == "away" and frame.columns.name == "opp_away"
    assert frame.loc[4, 2] == table.equity(4, 2)
    post = table.to_frame("post-crawford")
    assert list(post.columns) == ["player_0", "player_1"]
    assert post.loc[2, "player_0"] == 0.48803
    with pytest.raises(GammonlabError):
        table.to_frame("crawford")
    assert "Kazaross" in table._repr_html_() and "<table" in table._repr_html_()


# -- extension of short tables -------------------------------------------------------------------


def _montgomery(away: int, opp_away: int) -> float:
    """Montgomery's normal approximation, written out independently."""
    stddev = {
        1: 1.24,
        2: 1.27,
        3: 1.47,
        4: 1.50,
        5: 1.60,
        6: 1.61,
        7: 1.66,
        8: 1.68,
        9: 1.70,
        10: 1.72,
    }
    s0, s1 = stddev.get(away, 1.77), stddev.get(opp_away, 1.77)
    sigma = math.sqrt(s0**2 + s1**2) * math.sqrt((away + opp_away) / 2)

    def cdf(z):
        return 0.5 * (1 + math.erf(z / math.sqrt(2)))

    return cdf(6.0) - cdf((away - opp_away) / sigma)


@pytest.mark.parametrize("name", ["snowie", "woolsey", "ortega"])
def test_short_tables_are_extended_as_gnubg_does(name):
    table = met.load(name)
    assert table.native_length == 15
    pre = table.pre_crawford
    for away, opp_away in [(16, 1), (16, 16), (20, 7), (25, 24), (25, 1)]:
        assert pre[away - 1][opp_away - 1] == pytest.approx(_montgomery(away, opp_away), abs=1e-12)
        if away != opp_away:
            assert pre[opp_away - 1][away - 1] == pytest.approx(
                1 - _montgomery(away, opp_away), abs=1e-12
            )
    post = table.post_crawford[0]
    for n in range(16, 26):  # Zadeh's recursion at a gammon rate of 0.25
        expected = 0.5 * (0.25 * post[n - 5] + 0.75 * post[n - 3])
        assert post[n - 1] == pytest.approx(expected, abs=1e-12)


def test_tables_extend_beyond_25_points():
    table = met.load(max_away=31)
    assert table.max_away == 31
    assert table.equity(3, 5) == 0.64795
    assert table.equity(31, 31) == pytest.approx(0.5, abs=1e-6)
    assert 0.0 < table.equity(31, 25) < 0.5


# -- tables computed from parameters ---------------------------------------------------------------

MEC_WITHOUT_FREE_DROPS = """<met><info><name>mec</name><description>x</description>
<length>-1</length></info>
<pre-crawford-table type="mec"><parameters>
<parameter name="gammon-rate">0.26</parameter><parameter name="win-rate">0.5</parameter>
</parameters></pre-crawford-table>
<post-crawford-table type="mec" player="both"><parameters>
<parameter name="gammon-rate">0.26</parameter><parameter name="win-rate">0.5</parameter>
<parameter name="free-drop-2-away">0</parameter><parameter name="free-drop-4-away">0</parameter>
</parameters></post-crawford-table></met>"""


def test_mec_reproduces_the_table_mec_c_printed():
    # mec26.xml was printed by Tornberg's mec.c (three decimals in its first rows); its
    # pre-Crawford part assumes no free drop
    computed = met.read(MEC_WITHOUT_FREE_DROPS)
    printed = met.load("mec26")
    assert computed.native_length is None
    assert np.abs(computed.pre_crawford - printed.pre_crawford).max() < 6e-4


def test_mec_xml_post_crawford_follows_mec_c():
    table = met.load("mec")
    post = table.post_crawford[0]
    assert post[0] == 0.5
    assert post[1] == pytest.approx(0.5 - 0.015)  # 2-away: free drop
    assert post[2] == pytest.approx(0.5 * (0.74 * 0.5 + 0.26 * 1.0))
    assert post[3] == pytest.approx(post[2] + 0.004)  # mec.c's sign at 4-away
    assert table.parameters["pre-crawford"]["gammon-rate"] == 0.26


def test_zadeh_table():
    table = met.load("zadeh")
    post = table.post_crawford[0]
    assert post[:4] == pytest.approx(
        [0.5, 0.5 - 0.015, 0.5 * (0.25 + 0.75 * 0.5), 0.5 * (0.25 + 0.75 * (0.5 - 0.015)) - 0.004]
    )
    # Crawford game, trailer 2-away: 0.25 gammons straight to 0-away
    assert table.equity(2, 1) == pytest.approx(0.25 * 0.5 + 0.75 * 0.5 * 0.5)
    assert table.symmetric
    assert 0.6 < table.equity(3, 5) < 0.7 and table.equity(9, 9) == pytest.approx(0.5)


# -- reading errors ------------------------------------------------------------------------------


def test_read_path_text_and_file(tmp_path):
    path = Path(str(DATA / "jacobs.xml"))
    by_path = met.read(path)
    by_text = met.read(path.read_text(encoding="utf-8"))
    with open(path, "rb") as handle:
        by_file = met.read(handle)
    for table in (by_path, by_text, by_file):
        assert np.array_equal(table.pre_crawford, met.load("jacobs").pre_crawford)


def test_read_errors_name_the_line(tmp_path):
    broken = tmp_path / "broken.xml"
    broken.write_text("<met>\n<info>\n</met>\n", encoding="utf-8")
    with pytest.raises(ParseError) as error:
        met.read(broken)
    assert error.value.line == 3 and "broken.xml" in str(error.value)
    bad_number = MEC_WITHOUT_FREE_DROPS.replace(
        '"gammon-rate">0.26</parameter><parameter '
        'name="win-rate">0.5</parameter>\n</parameters>'
        "</pre",
        '"gammon-rate">lots</parameter></parameters></pre',
        1,
    )
    with pytest.raises(ParseError, match="expected a number") as error:
        met.read(bad_number)
    assert error.value.line == 4
    not_square = (
        "<met><info><name>x</name></info><pre-crawford-table><row><me>0.5</me>"
        "<me>0.6</me></row></pre-crawford-table><post-crawford-table><row><me>0.5"
        "</me></row></post-crawford-table></met>"
    )
    with pytest.raises(ParseError, match="square"):
        met.read(not_square)
    with pytest.raises(ParseError, match="<met>"):
        met.read("<table/>")
    with pytest.raises(ParseError, match=r"\[0, 1\]"):
        met.read(not_square.replace("<me>0.6</me>", "").replace("<me>0.5</me>", "<me>1.5</me>", 1))


TINY = (
    "<met><info><name>tiny</name></info><pre-crawford-table><row><me>0.5</me><me>0.7</me></row>"
    "<row><me>0.3</me><me>0.5</me></row></pre-crawford-table><post-crawford-table>"
    "<row><me>0.5</me><me>0.49</me></row></post-crawford-table></met>"
)


@pytest.mark.parametrize(
    ("encoding", "message"),
    [
        ("bogus", "an unknown encoding, 'bogus'"),
        ("utf-7", "'utf-7', which expat cannot read"),
        ("UTF-32", "'UTF-32', which expat cannot read"),
        ("utf16", "'utf16', which expat cannot read"),
        ("utf-16", "encoding specified in XML declaration is incorrect"),
    ],
)
def test_an_encoding_that_cannot_be_read_is_a_parse_error(tmp_path, encoding, message):
    data = f'<?xml version="1.0" encoding="{encoding}"?><met/>'.encode()
    path = tmp_path / "table.xml"
    path.write_bytes(data)
    with open(path, "rb") as handle:
        for source in (data, path, str(path), handle):
            with pytest.raises(ParseError, match=message) as error:
                met.read(source)
            assert (error.value.line, error.value.column) == (1, 31)  # the encoding's name
            assert source is data or str(error.value).startswith(str(path))


def test_one_byte_encodings_are_read():
    declared = '<?xml version="1.0" encoding="ISO-8859-1"?>' + TINY.replace("tiny", "tíny")
    assert met.read(declared.encode("latin-1")).name == "tíny"


def _entity_bomb(levels: int) -> str:
    """zadeh.xml whose name starts with an entity nested ``levels`` deep, each level ten
    references to the one below: 10 ** levels characters from some 2 KB."""
    names = "abcdefghijklmnop"
    declarations = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {names[level]} "' + f"&{names[level - 1]};" * 10 + '">'
        for level in range(1, levels)
    )
    zadeh = (DATA / "zadeh.xml").read_text(encoding="utf-8")
    body = zadeh[zadeh.index("<met>") :].replace("<name>", f"<name>&{names[levels - 1]};", 1)
    return f'<?xml version="1.0"?><!DOCTYPE met [{declarations}]>{body}'


@pytest.mark.parametrize("levels", [1, 6, 7])
def test_entity_declarations_are_refused(levels):
    bomb = _entity_bomb(levels)
    started = time.process_time()
    for source in (bomb, bomb.encode()):
        with pytest.raises(ParseError, match=r"DOCTYPE that declares entities") as error:
            met.read(source)
        assert (error.value.line, error.value.column) == (1, 36)  # the [...] part
    assert time.process_time() - started < 0.25


def test_gnubg_doctype_is_read():
    doctype = '<!DOCTYPE met PUBLIC "-//GNU Backgammon//DTD Match Equity Tables//EN" "met.dtd">'
    assert met.read(doctype + TINY).name == "tiny"
    with pytest.raises(ParseError, match="undefined entity"):
        met.read(TINY.replace("tiny", "&a;"))


def test_long_text_reads_in_linear_time():
    started = time.process_time()
    lines = met.read(TINY.replace("tiny", "x\n" * 450_000))
    assert lines.name == " ".join(["x"] * 450_000)
    references = met.read(TINY.replace("tiny", "&#65;" * 200_000))
    assert references.name == "A" * 200_000
    assert time.process_time() - started < 2.0


def test_table_validation():
    with pytest.raises(GammonlabError, match="square"):
        met.MatchEquityTable("bad", [[0.5, 0.6]], [0.5])
    with pytest.raises(GammonlabError, match=r"\[0, 1\]"):
        met.MatchEquityTable("bad", [[1.5]], [0.5])
    with pytest.raises(GammonlabError, match="post-Crawford"):
        met.MatchEquityTable("bad", [[0.5]], [0.5, 0.5])


# -- the generator -------------------------------------------------------------------------------


def test_generated_table_matches_kazaross_xg2():
    generated = met.generate(max_away=COMPARED)
    reference = met.load("Kazaross-XG2")
    pre = np.abs(generated.pre_crawford - reference.pre_crawford[:COMPARED, :COMPARED]).max()
    post = np.abs(generated.post_crawford[0] - reference.post_crawford[0][:COMPARED]).max()
    print(
        f"generated vs Kazaross-XG2 to {COMPARED} points: pre-Crawford {pre:.4f}, "
        f"post-Crawford {post:.4f}"
    )
    assert max(pre, post) < GENERATOR_TARGET
    assert max(pre, post) < 0.004  # what the fitted defaults achieve
    assert generated.symmetric


def test_generator_with_a_live_cube_and_one_gammon_rate_is_tornberg():
    # x = 1, one gammon rate, mec's post-Crawford table: the recursion is mec.c's
    mec = met.load("mec")
    mine = met_formulas._cube_recursion(
        25,
        win_rate=0.5,
        gammon_rate=lambda a, b: 0.26,
        crawford_gammon_rate=0.26,
        cube_efficiency=1.0,
        post_trailing=[1.0, *mec.post_crawford[0]],
        post_leading=[0.0, *(1.0 - mec.post_crawford[1])],
    )
    assert np.abs(mine - mec.pre_crawford).max() < 1e-12


def test_generator_options():
    def rate(away, opp_away):
        return 0.2 if away < opp_away else 0.35  # the trailer plays for gammons

    per_score = met.generate(gammon_rate=rate, max_away=9)
    assert per_score.symmetric and "per score" in per_score.name
    dead = met.generate(cube_efficiency=0.0, free_drop_swing=0.0, max_away=5)
    assert dead.equity(2, 1, crawford=False) == pytest.approx(0.5)  # no free drop at 2-away
    assert dead.parameters["cube_efficiency"] == 0.0
    with pytest.raises(GammonlabError):
        met.generate(cube_efficiency=1.5)
