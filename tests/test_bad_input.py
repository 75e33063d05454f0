"""Bad input, one case each: every refusal is a gammonlab error that says what and where.

Each test pins a case that once crashed, blew up, lost good games in collect mode, was
accepted silently or did not read back; tests/test_fuzz.py searches for new ones.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import re
import time
import tracemalloc
from pathlib import Path

import pytest
from conftest import needs_if

import gammonlab as gl
from gammonlab.cli import main
from gammonlab.io.mat import parse_mat
from gammonlab.io.sgf import parse_sgf
from gammonlab.notation import parse_notation

GAME = """\
 Game {number}
 A : {a}                          B : {b}
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops
                                  Wins 1 point
"""


def match_text(*headers: str, length: int = 5, games: int = 1) -> str:
    """A transcript: headers, then games B wins by a dropped double."""
    body = "".join(GAME.format(number=n + 1, a=0, b=n) for n in range(games))
    return "\n".join(headers) + f"\n\n {length} point match\n\n" + body


SGF_GAME = "(;FF[4]GM[6]MI[length:{length}][game:0][ws:0][bs:0]PW[a]PB[b]{extra}\n;W[31hefe])\n"


def sgf_text(extra: str = "", length: int = 3) -> str:
    return SGF_GAME.format(length=length, extra=extra)


def read_both(text: str) -> tuple[gl.ParseError, gl.Match]:
    """The strict error and the collect-mode match of a text that has one problem."""
    with pytest.raises(gl.ParseError) as caught:
        gl.read_match(text)
    return caught.value, gl.read_match(text, errors="collect")


def located(problems) -> bool:
    return bool(problems) and all(p.line is not None and p.column is not None for p in problems)


# -- crashes -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        '; [AutoDoubleLimit "²"]',
        '; [CubeLimit "²"]',
        '; [CubeLimit "' + "9" * 4301 + '"]',
        '; [AutoDoubleLimit "' + "9" * 4301 + '"]',
    ],
)
def test_header_numbers_are_ascii_digits(header):
    error, match = read_both(match_text(header))
    assert (error.line, error.column) == (1, 4) and "whole number" in error.detail
    assert len(match.games) == 1 and located(match.problems)


def test_sgf_rule_numbers_are_ascii_digits():
    error, match = read_both(sgf_text("RU[Crawford:CubeLimit=²]"))
    assert error.line == 1 and "CubeLimit=²" in error.detail
    assert len(match.games) == 1 and located(match.problems)


@pytest.mark.parametrize(
    ("text", "check"),
    [
        (
            sgf_text(length=0).replace("MI[length:0]", "MI[length:\x1c3]"),
            lambda m: m.match_length == 3,
        ),
        (sgf_text("CV[\x1c2]", length=0), lambda m: m.games[0].start_cube == 2),
        (
            match_text(length=0)
            .replace(" Game 1\n", ' Game 1\n; [Cube "\x1f2"]\n')
            .replace("=> 2", "=> 4"),
            lambda m: m.games[0].start_cube == 2,
        ),
    ],
)
def test_numbers_among_control_characters(text, check):
    """str.strip() takes \\x1c-\\x1f for white space and int() does not: the digits
    between them are read."""
    assert check(gl.read_match(text, errors="collect"))


@pytest.mark.parametrize("value", ["\x1c", "9" * 4301, "٣", "3x"])
def test_sgf_and_mat_numbers_refused_with_a_place(value):
    for text in (
        sgf_text(length=0).replace("MI[length:0]", f"MI[length:{value}]"),
        sgf_text(f"CV[{value}]", length=0),
        match_text(length=0).replace(" Game 1\n", f' Game 1\n; [Cube "{value}"]\n'),
    ):
        error, match = read_both(text)
        assert error.line is not None and error.column is not None
        assert located(match.problems)


def test_a_lone_surrogate_in_a_name_reads_and_frames():
    match = gl.read_match(match_text().replace(" A : 0", " A\ud800 : 0"))
    assert match.players[0] == "A\ufffd"
    assert match.to_frame().player_name.iloc[0] == "A\ufffd"


def test_an_sgf_on_one_line_costs_no_copy_of_the_line_per_action():
    nodes = "".join(f";{'WB'[k % 2]}[{'double' if k % 4 < 2 else 'take'}]" for k in range(4000))
    text = "(;GM[6]MI[length:0]PW[a]PB[b]" + nodes + ")"
    tracemalloc.start()
    try:
        gl.read_match(text, errors="collect")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * len(text) + 5_000_000


@pytest.mark.parametrize(
    "xgid",
    [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:" + "7" * 4301 + ":10",
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:١٠",
    ],
)
def test_xgid_numbers(xgid):
    with pytest.raises(gl.InvalidPositionError, match="field"):
        gl.GameState.from_xgid(xgid)


@pytest.mark.parametrize(
    "play", ["8/5(" + "9" * 4301 + ")", "8/5(²)", "２４/21 24/23", "24/２１ 24/23", "8/5(٢)"]
)
def test_notation_reads_ascii_digits_only(play):
    with pytest.raises(gl.InvalidNotationError):
        gl.Position.initial().play(play, (3, 1))
    with pytest.raises(gl.InvalidNotationError):
        parse_notation(play)
    with pytest.raises(gl.InvalidNotationError) as caught:
        gl.Position.initial().explain(play, (3, 1))
    assert len(str(caught.value)) < 400  # a long play is quoted in part


TINY_MET = (
    '<met><info><name>tiny</name></info><pre-crawford-table type="explicit">'
    "<row><me>0.5</me><me>0.7</me></row><row><me>0.3</me><me>0.5</me></row>"
    '</pre-crawford-table><post-crawford-table type="explicit" player="both">'
    "<row><me>0.5</me><me>0.49</me></row></post-crawford-table></met>"
)


@pytest.mark.parametrize(
    ("source", "error"),
    [
        (b"\x93", gl.ParseError),
        (TINY_MET.encode("utf-16"), None),
        ("\ufeff" + TINY_MET, None),
        ("\n  " + TINY_MET, None),
        (TINY_MET.encode("utf-8-sig"), None),
        (TINY_MET.replace("tiny", "t\x93ny").encode("latin-1"), gl.ParseError),
        (TINY_MET.replace("tiny", "t\ud800ny"), gl.ParseError),
        ("", gl.SourceError),
        ("x" * 5000, gl.SourceError),
        ("a\x00b", gl.SourceError),
        ("nosuch\ud800.xml", gl.SourceError),
        ("no/such/table.xml", gl.SourceNotFoundError),
        (Path("no/such/table.xml"), gl.SourceNotFoundError),
    ],
)
def test_met_read_tells_text_from_paths(source, error):
    if error is None:
        assert gl.met.read(source).name == "tiny"
    else:
        with pytest.raises(error):
            gl.met.read(source)


def test_met_read_of_a_folder_and_of_a_file(tmp_path):
    with pytest.raises(gl.SourceError, match="is a folder"):
        gl.met.read(str(tmp_path))
    (tmp_path / "t.xml").write_text(TINY_MET, encoding="utf-8")
    assert gl.met.read(str(tmp_path / "t.xml")).name == "tiny"
    with open(tmp_path / "t.xml", "rb") as handle:
        assert gl.met.read(handle).name == "tiny"


@pytest.mark.parametrize("value", ["1e38", "-0.5", "nan", "inf"])
def test_met_parameters_are_rates(value):
    zadeh = (Path(gl.__file__).parent / "data" / "met" / "zadeh.xml").read_text(encoding="utf-8")
    bad = re.sub(r'(<parameter name="gammon-rate-leader">)[^<]*', rf"\g<1>{value}", zadeh)
    assert bad != zadeh
    with pytest.raises(gl.ParseError, match="gammon-rate-leader"):
        gl.met.read(bad)


@pytest.mark.parametrize("max_away", [0, 10**9, 2.5, "25"])
def test_met_sizes_are_bounded(max_away):
    with pytest.raises(gl.OptionError):
        gl.met.load("zadeh", max_away=max_away)


@pytest.mark.parametrize(
    "options",
    [
        {"match_length": "3"},
        {"cube_limit": "8"},
        {"cube_limit": 2.0},
        {"auto_doubles": "gnubg", "auto_double_limit": None},
        {"match_length": 1.5},
        {"match_length": float("nan")},
        {"match_length": True},
        {"cube": "no"},
        {"jacoby": 1},
        {"variant": 3},
        {"scoring": None},
    ],
)
def test_rules_refuse_wrong_types(options):
    with pytest.raises(gl.OptionTypeError) as caught:
        gl.Rules(**options)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, gl.OptionError)
    assert caught.value.option in options


@pytest.mark.parametrize(
    ("options", "rule"),
    [
        ({"match_length": 10**30}, "32767"),
        ({"match_length": -1}, "0 to"),
        ({"auto_doubles": "seed-000", "auto_double_limit": 10**30}, "0 to 15"),
        ({"cube_limit": 3}, "R9.1"),
        ({"cube_limit": 1 << 20}, "1 to 32768"),
        ({"holland": True}, "R10.3"),
        ({"match_length": 5, "jacoby": True}, "R10.1"),
        ({"match_length": 5, "beavers": True}, "R10.6"),
        ({"match_length": 5, "beavers": True, "raccoons": True}, "R10.6"),
        ({"raccoons": True}, "R10.6"),
        ({"match_length": 5, "auto_doubles": "gnubg"}, "R10.5"),
        ({"auto_double_limit": 2}, "auto_doubles"),
        ({"scoring": "chouette"}, "chouette"),
        ({"variant": "tavla"}, "tavla"),
    ],
)
def test_rules_refuse_values_out_of_range_and_combinations(options, rule):
    with pytest.raises(gl.OptionError, match=re.escape(rule)):
        gl.Rules(**options)


@pytest.mark.parametrize(
    ("options", "nearest"),
    [({"matchlength": 7}, "match_length"), ({"jacobi": True}, "jacoby"), ({"x": 1}, None)],
)
def test_rules_refuse_an_unknown_option_and_name_the_nearest(options, nearest):
    with pytest.raises(gl.OptionTypeError) as caught:
        gl.Rules(**options)
    message = str(caught.value)
    assert caught.value.option in options and "match_length, scoring" in message
    assert (f"did you mean {nearest!r}?" in message) == (nearest is not None)
    with pytest.raises(gl.OptionTypeError, match="unexpected keyword"):
        gl.Rules().replace(**options)
    with pytest.raises(gl.OptionTypeError, match="twice"):
        gl.Rules(gl.rules.VARIANTS["standard"], 7, match_length=7)


def test_rules_keep_accepting_numpy_numbers_and_flags():
    import numpy as np

    rules = gl.Rules(match_length=np.int64(7), crawford=np.bool_(False))
    assert rules == gl.Rules(match_length=7, crawford=False)
    assert type(rules.match_length) is int and type(rules.crawford) is bool


# -- memory and time -----------------------------------------------------------------------------


def test_a_huge_automatic_double_limit_costs_nothing():
    text = (
        match_text('; [AutoDoubleLimit "99999999999"]', length=0)
        .replace(" Game 1\n", ' Game 1\n; [Cube "2"]\n')
        .replace("=> 2", "=> 4")
    )
    start = time.perf_counter()
    error, match = read_both(text)
    assert time.perf_counter() - start < 2
    assert "automatic doubles" in error.detail and error.line == 1
    assert located(match.problems)


@pytest.mark.parametrize("errors", ["raise", "collect"])
def test_reads_that_fail_leave_no_cycles_behind(errors):
    """What a read that fails, or lists a problem, leaves in reference cycles (an error's
    traceback and the frames it holds) is freed: the objects the collector tracks do not
    grow with the reads. Moved to the oldest generation uncounted, each read's cycles once
    stayed for good, about 400 objects a read here."""
    text = match_text(length=25, games=10)
    last = text.rindex("31: 8/5 6/5")
    text = text[:last] + "31: 8/4 6/5" + text[last + len("31: 8/5 6/5") :]

    def read() -> None:
        try:
            gl.read_match(text, errors=errors)
        except gl.ParseError:
            pass

    for _ in range(10):
        read()
    before = len(gc.get_objects())
    for _ in range(200):
        read()
    assert len(gc.get_objects()) - before < 10_000


def test_an_endless_sgf_double_chain_is_counted_no_further_than_the_highest_cube():
    text = "(;GM[6]MI[length:0]PW[a]PB[b]" + ";W[double];B[double]" * 3000 + ")"
    raw = parse_sgf(text)
    assert max(a.cube for a in raw.games[0].actions if a.cube) <= 2 * gl.rules.HIGHEST_CUBE
    match = gl.read_match(text, errors="collect")
    assert "R10.6" in str(match.problems[0]) and located(match.problems)


def test_a_file_of_garbage_lists_its_problems_up_to_a_bound():
    from gammonlab.io.raw import MAX_PROBLEMS

    match = gl.read_match("x\n" * 50_000, errors="collect")
    assert len(match.problems) <= MAX_PROBLEMS + 3 and located(match.problems)
    assert "more problems are not listed" in match.problems[-2].detail


# -- collect mode keeps every good game ----------------------------------------------------------


@pytest.fixture(scope="module")
def five_point_sgf() -> tuple[gl.Match, str, list[int]]:
    """A 5-point match with a Crawford game (game 4) and three games after it."""
    match = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(match_length=5), seed=3)
    assert [g.crawford for g in match.games] == [False, False, False, True, False, False, False]
    text = gl.write_match(match, format="sgf")
    starts = [m.start() for m in re.finditer(r"\(;FF\[4\]GM\[6\]", text)] + [len(text)]
    return match, text, starts


def test_sgf_collect_a_lost_crawford_game_leaves_the_next_game_alone(five_point_sgf):
    _, text, starts = five_point_sgf
    crawford = text[starts[3] : starts[4]]
    post = text[starts[4] : starts[5]]
    # a double at once after the Crawford game: legal, and it would not be in it
    first_move = post.index("\n;")
    post = post[:first_move] + "\n;W[double]\n;B[take]" + post[first_move:]
    post = re.sub(r"RE\[([WB])\+([0-9]+)\]", lambda m: f"RE[{m[1]}+{2 * int(m[2])}]", post)
    # (the next game's score line does not know the doubled result: it is flagged)
    whole = gl.read_match(text[: starts[3]] + crawford + post + text[starts[5] :], errors="collect")
    assert len(whole.games) == 7
    assert [g.crawford for g in whole.games] == [False, False, False, True, False, False, False]
    assert crawford.endswith("])\n")
    for damaged in (
        crawford.replace("GM[6]", "GM[7]"),
        crawford[:-3] + ")\n",
        crawford.replace("\n;", "\nx;", 1),
    ):
        got = gl.read_match(
            text[: starts[3]] + damaged + post + text[starts[5] :], errors="collect"
        )
        after = [g.actions for g in got.games[-3:]]
        assert after == [g.actions for g in whole.games[-3:]], got.problems
        assert [g.actions for g in got.games[:3]] == [g.actions for g in whole.games[:3]]
        assert not any(g.crawford for g in got.games[-3:])
        assert located(got.problems)


@pytest.mark.parametrize("damage", ["stray", "paren"])
def test_sgf_collect_a_damaged_game_costs_only_itself(five_point_sgf, damage):
    match, text, starts = five_point_sgf
    game2 = text[starts[1] : starts[2]]
    if damage == "stray":
        game2 = game2.replace("\n;", "\nx;", 1)
    else:
        game2 = game2.rstrip()[:-1] + "\n"
    whole = gl.read_match(text)
    got = gl.read_match(text[: starts[1]] + game2 + text[starts[2] :], errors="collect")
    assert len(got.games) >= len(match.games) - 1
    kept = [g.actions for g in got.games]
    assert all(g.actions in kept for k, g in enumerate(whole.games) if k != 1)
    assert located(got.problems)
    with pytest.raises(gl.ParseError):
        gl.read_match(text[: starts[1]] + game2 + text[starts[2] :])


@pytest.mark.parametrize(
    ("root", "damaged"),
    [
        ("RU[Crawford]", "RU[Nackgammon]"),
        ("RU[Crawford]", "RU[Crawfxrd]"),
        ("MI[length:5]", "MI[length:x]"),
        ("MI[length:5]", "MI[length:9]"),
    ],
)
@pytest.mark.parametrize("game", [0, 2])
def test_sgf_one_game_root_stating_other_rules_changes_no_other_game(
    five_point_sgf, root, damaged, game
):
    _, text, starts = five_point_sgf
    whole = gl.read_match(text)
    part = text[starts[game] : starts[game + 1]]
    assert root in part
    damaged_text = text[: starts[game]] + part.replace(root, damaged, 1) + text[starts[game + 1] :]
    got = gl.read_match(damaged_text, errors="collect")
    assert [g.actions for g in got.games] == [g.actions for g in whole.games]
    assert got.rules == whole.rules and got.match_length == 5
    assert located(got.problems) and len(got.problems) == 1
    problem = got.problems[0]
    assert problem.line == damaged_text[: damaged_text.index(damaged)].count("\n") + 1
    assert f"game {game + 1}:" in problem.detail or "expected a number" in problem.detail
    with pytest.raises(gl.ParseError):
        gl.read_match(damaged_text)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('; [Variation "Tavla"]', "unknown variation"),
        ('; [Scoring "chouette"]', "unknown scoring"),
        ('; [AutoDoubles "gnubg"]', "R10.5"),
        ('; [Jacoby "maybe"]', "On or Off"),
    ],
)
def test_mat_collect_lists_bad_headers_at_their_line(header, message):
    text = match_text('; [Site "x"]', header, games=2)
    error, match = read_both(text)
    assert (error.line, error.column) == (2, 4) and message in error.detail
    assert len(match.games) == 2 and [p.line for p in match.problems] == [2]


def test_a_match_too_long_for_a_match_id_is_refused_at_its_line():
    text = " 999999999 point match\n\n Game 1\n A : 0     B : 0\n"
    error, match = read_both(text)
    assert (error.line, error.column) == (1, 2) and "32767" in error.detail
    assert located(match.problems)
    error, match = read_both(match_text().replace("B : 0", "B : 99999999"))
    assert "score" in error.detail and located(match.problems)


@pytest.mark.parametrize(
    "text",
    [
        sgf_text().replace("MI[length:3]", "MI[length:99999]"),
        sgf_text().replace("[ws:0]", "[ws:40000]"),
        sgf_text(length=0).replace(";W[31hefe]", ";W[double];B[take]" * 20),
    ],
)
def test_sgf_values_beyond_a_match_id_are_located(text):
    match = gl.read_match(text, errors="collect")
    assert located(match.problems)
    with pytest.raises(gl.ParseError):
        gl.read_match(text)


# -- accepted silently before --------------------------------------------------------------------


@pytest.mark.parametrize("numbers", [(1, 3), (1, 1), (2, 1)])
def test_games_are_numbered_one_after_another(numbers):
    text = match_text(games=2)
    text = text.replace(" Game 2", " Game X").replace(" Game 1", f" Game {numbers[0]}")
    text = text.replace(" Game X", f" Game {numbers[1]}")
    error, match = read_both(text)
    assert "numbered one after another" in error.detail and error.line == 10
    assert len(match.games) == 2 and [p.line for p in match.problems] == [10]


def test_a_cube_limit_that_is_no_power_of_two_still_limits():
    rows = (
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                       62: 24/18 13/11\n"
        "  3)  Doubles => 4\n"
    )
    text = '; [CubeLimit "3"]\n\n 5 point match\n\n Game 1\n A : 0     B : 0\n' + rows
    with pytest.raises(gl.ParseError, match=r"above the cube limit 2 \(R9\.6\)") as caught:
        gl.read_match(text)
    assert caught.value.line == 9


def test_untagged_money_sessions_play_jacoby_as_gnu_backgammon_does():
    money = gl.read_match(match_text(length=0))
    assert money.rules == gl.Rules.gnubg_default()
    assert gl.read_match(match_text('; [Jacoby "Off"]', length=0)).rules.jacoby is False


# -- round trips ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def three_point_sgf() -> str:
    return gl.write_match(
        gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(match_length=3), seed=3), format="sgf"
    )


@pytest.mark.parametrize(
    "names", ["PW[]PB[]", "PW[]PB[b]", "PW[ Anna\n  Maria ]PB[b]", "PW[massie,1522]PB[b]"]
)
def test_names_read_back(three_point_sgf, names):
    sgf = re.sub(r"PW\[[^\]]*\]PB\[[^\]]*\]", names.replace("\\", r"\\"), three_point_sgf)
    match = gl.read_match(sgf)
    for format in ("mat", "sgf"):
        again = gl.read_match(gl.write_match(match, format=format))
        assert again.players == match.players and again.ratings == match.ratings
        assert again.to_frame().equals(match.to_frame())


def test_a_bear_off_win_without_a_result_reads_back(three_point_sgf):
    sgf = re.sub(r"RE\[[WB]\+[0-9]+\]", "", three_point_sgf)
    match = gl.read_match(sgf)
    assert all(g.winner is not None for g in match.games) and len(match.games) > 1
    again = gl.read_match(gl.write_match(match))
    assert again.games_frame().equals(match.games_frame())
    assert again.to_frame().equals(match.to_frame())


# -- paths ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["nosuch_folder", "matches/foo", "nosuch_dir/", "no such.mat"])
def test_a_missing_path_says_it_does_not_exist(path):
    with pytest.raises(gl.SourceNotFoundError, match="no such file or folder"):
        gl.read_match(path)
    with pytest.raises(gl.SourceNotFoundError, match="no such file or folder"):
        gl.read_matches(path, progress=False)
    with pytest.raises(gl.SourceNotFoundError):
        parse_mat(path)
    # collecting, a one-line string is read as text, and the problem says why
    match = gl.read_match(path, errors="collect")
    assert "no file or folder" in match.problems[0].detail and located(match.problems)


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"n_jobs": "2"}, gl.OptionTypeError),
        ({"n_jobs": 1.0}, gl.OptionTypeError),
        ({"n_jobs": True}, gl.OptionTypeError),
        ({"n_jobs": 0}, gl.OptionError),
        ({"pattern": 3}, gl.OptionTypeError),
    ],
)
def test_read_matches_options_are_checked_before_the_work(tmp_path, options, error):
    (tmp_path / "a.mat").write_text(match_text(), encoding="utf-8")
    with pytest.raises(error) as caught:
        gl.read_matches(tmp_path, progress=False, **options)
    assert caught.value.option in options


@pytest.mark.parametrize("source", ["", [""], [Path("a.mat"), 3]])
def test_read_matches_refuses_an_empty_path_or_one_that_is_no_path(source):
    # Path("") is the current folder: read whole, it would be read in its place
    with pytest.raises(gl.OptionError) as caught:
        gl.read_matches(source, progress=False, errors="collect")
    assert caught.value.option == "source"


class _FailingFile:
    def read(self) -> str:
        raise ValueError("the stream broke")


def _closed_file() -> io.StringIO:
    file = io.StringIO(match_text())
    file.close()
    return file


@pytest.mark.parametrize("make", [_FailingFile, _closed_file])
def test_a_file_that_cannot_be_read_is_a_gammonlab_error(make):
    with pytest.raises(gl.GammonlabError):
        gl.read_match(make())


def test_a_lone_byte_order_mark_is_empty_text():
    assert gl.read_match("\ufeff", errors="collect").games == ()
    with pytest.raises(gl.ParseError):
        gl.read_match("\ufeff")


@pytest.mark.parametrize("rules", [gl.Rules(match_length=5), gl.Rules()])
def test_a_match_length_against_the_rules_given_is_placed_in_both_modes(rules):
    text = match_text(length=7)
    with pytest.raises(gl.ParseError, match="rules given say") as caught:
        gl.read_match(text, rules=rules)
    problems = gl.read_match(text, rules=rules, errors="collect").problems
    (listed,) = [p for p in problems if "rules given say" in p.detail]
    assert (caught.value.line, caught.value.column) == (listed.line, listed.column)
    assert listed.line is not None


def test_a_money_session_ends_before_a_score_no_match_id_records():
    """A cube doubled automatically again and again (R10.4) makes a game worth 32768
    points; no game can start at a score beyond 32767 (a Match ID's 15 bits), so the
    session ends there, and says so, and what it played writes and reads back."""
    rules = gl.Rules(jacoby=True, crawford=False, auto_doubles="seed-000", opening="reroll")
    with pytest.warns(UserWarning, match=r"ends after 3 of 4 games: a score of 32802"):
        match = gl.play_match(("random", "random"), rules=rules, seed=17, games=4)
    assert len(match.games) == 3 and max(match.score) > gl.rules.MAX_MATCH_LENGTH
    for form in ("mat", "sgf"):
        again = gl.read_match(gl.write_match(match, format=form))
        assert again.score == match.score and not again.problems


def test_a_folder_is_no_transcript(tmp_path):
    with pytest.raises(gl.SourceError, match="is a folder"):
        gl.read_match(str(tmp_path))


# -- the command line ----------------------------------------------------------------------------


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


LONG_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:" + "7" * 4301 + ":10"
BARE_XGID = "-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"


def test_cli_reads_xgids_that_start_with_a_dash(capsys):
    for argv in (["show", BARE_XGID], ["show", "--", BARE_XGID], ["plays", BARE_XGID, "61"]):
        code, out, _ = run(capsys, *argv)
        assert code == 0 and out


def test_cli_an_xgid_that_starts_with_a_dash_and_does_not_read_says_why(capsys):
    for argv, form in (
        (["show", BARE_XGID.replace("B-:", "Z-:")], "bad board character 'Z'"),
        (["plays", BARE_XGID.replace("----B-:", "---B-:"), "61"], "26 characters, got 25"),
    ):
        code, _, err = run(capsys, *argv)
        assert code == 1 and err.startswith(f"gammonlab {argv[0]}: XGID") and form in err


@pytest.mark.parametrize(
    "argv", [["read", "", "-o", "{tmp}/o.csv", "-q"], ["analyse", "", "-q"], ["demo", ""]]
)
def test_cli_refuses_an_empty_path(tmp_path, capsys, monkeypatch, argv):
    # Path("") is the current folder, which would be read, or written into, whole
    (tmp_path / "a.mat").write_text(match_text(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *[a.format(tmp=tmp_path) for a in argv])
    assert code == 2 and not out and err.startswith(f"gammonlab {argv[0]}: an empty path")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.mat"]


def test_cli_show_a_long_xgid(capsys):
    code, _, err = run(capsys, "show", LONG_XGID)
    assert code == 1 and err.startswith("gammonlab show: XGID") and "Traceback" not in err


@pytest.mark.parametrize(
    "content",
    [
        b"garbage\n",
        b"",
        bytes(range(256)) * 3,
        b" 3 point match\n Game 1\n a : 0  b : 0\n  1) 66: 1/7\n",
        None,
    ],
)
@pytest.mark.parametrize("errors", ["collect", "raise"])
def test_cli_read_fails_when_nothing_reads(tmp_path, capsys, content, errors):
    source = tmp_path / "in.mat"
    if content is not None:
        source.write_bytes(content)
    out = tmp_path / "out.csv"
    code, _, err = run(capsys, "read", str(source), "-o", str(out), "-q", "--errors", errors)
    assert code == 1 and not out.exists()
    assert err.startswith(str(source)) and "Traceback" not in err


def test_cli_read_bad_headers_in_collect_mode(tmp_path, capsys):
    source = tmp_path / "in.mat"
    source.write_text(match_text('; [Variation "Tavla"]', '; [CubeLimit "²"]'), encoding="utf-8")
    code, out, err = run(capsys, "read", str(source), "-o", str(tmp_path / "o.csv"), "-q")
    assert code == 0 and "unknown variation" in out and "Traceback" not in err
    code, _, err = run(
        capsys, "read", str(source), "-o", str(tmp_path / "o.csv"), "-q", "--errors", "raise"
    )
    assert code == 1 and err.startswith(f"{source}:1:4: unknown variation")


def test_cli_read_some_files_fail(tmp_path, capsys):
    good = tmp_path / "good.mat"
    good.write_text(match_text(), encoding="utf-8")
    (tmp_path / "bad.mat").write_bytes(b"\x00\x01garbage")
    code, out, err = run(capsys, "read", str(tmp_path), "-o", str(tmp_path / "o.csv"), "-q")
    assert code == 1 and "read 1 of 2 files" in out and (tmp_path / "o.csv").exists()
    assert err.startswith(f"{tmp_path / 'bad.mat'}:1:1:")


@pytest.mark.parametrize(
    "argv",
    [
        ["read", "{good}", "-o", "{tmp}/nodir/o.csv"],
        ["analyse", "{good}", "-o", "{tmp}/nodir/o.csv"],
        ["simulate", "--seed", "1", "-o", "{tmp}/nodir/o.mat"],
        ["demo", "{good}/sub"],
    ],
)
def test_cli_refuses_a_missing_output_folder_before_the_work(tmp_path, capsys, argv):
    good = tmp_path / "good.mat"
    good.write_text(match_text(), encoding="utf-8")
    argv = [a.format(good=good, tmp=tmp_path) for a in argv]
    start = time.perf_counter()
    code, out, err = run(capsys, *argv)
    assert code == 2 and not out and "Traceback" not in err
    assert err.startswith(str(tmp_path))
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--seed", "-1"],
        ["simulate", "--match-length", "-3"],
        ["simulate", "--cube-limit", "3"],
        ["simulate", "--match-length", "5", "--jacoby", "on"],
        ["read", "nosuch.mat", "-o", "o.csv", "-q"],
    ],
)
def test_cli_option_errors(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 1 and "Traceback" not in err and err.strip()


@needs_if(not Path("/dev/zero").exists(), "/dev/zero", "a POSIX system")
def test_an_endless_file_is_refused():
    for read in (gl.read_match, gl.met.read):
        with pytest.raises(gl.SourceError, match="more than"):
            read("/dev/zero")


def test_sgf_crawford_game_stated_against_the_score_is_flagged(five_point_sgf):
    _, text, starts = five_point_sgf
    crawford = text[starts[3] : starts[4]]
    assert ":CrawfordGame" in crawford
    for damaged in (
        text[: starts[3]] + crawford.replace(":CrawfordGame", "") + text[starts[4] :],
        text[: starts[0]]
        + text[starts[0] : starts[1]].replace("RU[Crawford", "RU[Crawford:CrawfordGame")
        + text[starts[1] :],
    ):
        with pytest.raises(gl.ParseError, match=r"the Crawford game \(R10.2\), but the transcript"):
            gl.read_match(damaged)
        got = gl.read_match(damaged, errors="collect")
        assert any("R10.2" in str(p) for p in got.problems) and located(got.problems)


def test_variations_nest_no_deeper_than_the_bound():
    from gammonlab.io.sgf_syntax import DEEPEST_VARIATION, parse_collection

    deep = "(;" * 450_000
    started = time.process_time()
    with pytest.raises(gl.ParseError, match=f"nested more than {DEEPEST_VARIATION} deep"):
        gl.read_match(deep)
    assert gl.read_match(deep, errors="collect").problems
    assert time.process_time() - started < 2.0
    nested = "(;GM[6]" + "(;C[x]" * (DEEPEST_VARIATION - 1) + ")" * (DEEPEST_VARIATION - 1) + ")"
    assert len(parse_collection(nested)) == 1


def test_a_play_of_a_million_moves_is_refused_at_its_fifth():
    started = time.process_time()
    with pytest.raises(gl.InvalidNotationError, match="more than four checker moves"):
        parse_notation("8/5 " * 250_000)
    text = " 3 point match\n Game 1\n a : 0  b : 0\n  1) 31: " + "8/5 " * 120_000
    with pytest.raises(gl.ParseError, match="4:6"):
        gl.read_match(text)
    assert time.process_time() - started < 2.0


def test_long_play_texts_are_not_remembered():
    from gammonlab.notation import REMEMBERED_LENGTH, _parse_remembered

    before = _parse_remembered.cache_info().currsize
    position = gl.Position.initial()
    for spaces in range(50):
        text = "8/5" + " " * (REMEMBERED_LENGTH + spaces) + "6/5"
        assert parse_notation(text) == parse_notation("8/5 6/5")
        assert position.play(text, (3, 1)) == position.play("8/5 6/5", (3, 1))
    assert _parse_remembered.cache_info().currsize <= before + 1


@pytest.mark.parametrize("cut", [";W[do", ";B[", ";W[3"])
def test_sgf_collect_a_value_left_open_before_the_next_game_costs_only_its_game(
    five_point_sgf, cut
):
    _, text, starts = five_point_sgf
    whole = gl.read_match(text)
    second = text[starts[1] : starts[2]]
    for at in (second.index(";W["), second.index(";B[")):
        damaged = text[: starts[1]] + second[:at] + cut + text[starts[2] :]
        got = gl.read_match(damaged, errors="collect")
        assert [g.actions for g in got.games if g.number != 2] == [
            g.actions for g in whole.games if g.number != 2
        ], got.problems
        assert located(got.problems)
        with pytest.raises(gl.ParseError):
            gl.read_match(damaged)


@pytest.mark.parametrize("form", ["sgf", "mat"])
def test_a_text_of_many_tiny_games_reads_its_first_games_only(form):
    from gammonlab.io.text import MOST_GAMES

    if form == "sgf":
        text = "(;GM[6]MI[length:0];W[31hefe])" * 30_000
    else:
        game = " Game {}\n a : 0   b : 0\n  1) 31: 8/5 6/5\n      Wins 1 point\n\n"
        text = "".join(game.format(n) for n in range(1, 20_000))
    started = time.process_time()
    with pytest.raises(gl.ParseError, match=f"more than {MOST_GAMES} games in one transcript"):
        gl.read_match(text)
    got = gl.read_match(text, errors="collect")
    assert time.process_time() - started < 4.0
    assert len(got.games) == MOST_GAMES
    assert any(f"more than {MOST_GAMES} games" in str(p) for p in got.problems)


def test_a_transcript_marking_a_hit_that_does_not_happen_is_flagged():
    text = " 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 62: 24/18* 13/11      \n"
    with pytest.raises(gl.ParseError, match=r"5:6: .*marks a hit on 18"):
        gl.read_match(text)
    got = gl.read_match(text, errors="collect")
    assert any("R6.1" in str(p) for p in got.problems) and located(got.problems)


@pytest.mark.parametrize(
    "text",
    ["(;GM[6]" + ";" * 980_000 + ")", "(;GM[6]" + "; " * 450_000 + ")", "(;GM[6])" + ")" * 980_000],
)
def test_runs_of_empty_nodes_and_closing_brackets_read_in_time(text):
    started = time.process_time()
    try:
        gl.read_match(text)
    except gl.GammonlabError:
        pass
    got = gl.read_match(text, errors="collect")
    assert time.process_time() - started < 2.0
    assert len(got.games) == 1


def test_empty_nodes_hold_nothing():
    from gammonlab.io.sgf_syntax import parse_collection

    (tree,) = parse_collection("(;GM[6];;\n;W[31hefe];; ;)")
    assert [len(node.properties) for node in tree.nodes] == [1, 1, 0]


def test_a_resignation_without_a_result_line_writes_and_reads_back_as_sgf():
    text = (
        " 3 point match\n\n Game 1\n a : 0          b : 0\n"
        "  1) 31: 8/5 6/5    42: 8/4 6/4\n  2)  Resigns 1\n"
    )
    match = gl.read_match(text)
    again = gl.read_match(gl.write_match(match, format="sgf"))
    assert (
        (again.games[0].winner, again.games[0].points)
        == (1, 1)
        == (
            match.games[0].winner,
            match.games[0].points,
        )
    )
    assert not again.problems


def test_a_finished_game_scores_at_most_its_points_past_the_match_length():
    with pytest.raises(gl.InvalidPositionError, match="wins at most 6 points"):
        gl.GameState.from_gnubg_id("vQcAAOzOBiICAA:AQMmAlEAaAAF")


def test_an_xgid_keeps_its_dice_in_their_order():
    state = gl.GameState.from_gnubg_id("awAAwMymCioAAA:MAH5ACAAKAAE")
    assert state.dice == (2, 6)
    again = gl.GameState.from_xgid(state.xgid)
    assert again.dice == (2, 6) and again.xgid == state.xgid
    assert again.gnubg_id == gl.GameState.from_gnubg_id(again.gnubg_id).gnubg_id


def test_games_keep_their_transcript_numbers_when_one_before_is_skipped(five_point_sgf):
    _, text, starts = five_point_sgf
    damaged = (
        text[: starts[1]]
        + text[starts[1] : starts[2]].replace("GM[6]", "GM[7]")
        + text[starts[2] :]
    )
    got = gl.read_match(damaged, errors="collect")
    assert [g.number for g in got.games] == [1, 3, 4, 5, 6, 7]
    later = gl.read_match(text[starts[1] :])
    assert [g.number for g in later.games] == [2, 3, 4, 5, 6, 7]
    again = gl.read_match(gl.write_match(later, format="mat"))
    assert [g.number for g in again.games] == [2, 3, 4, 5, 6, 7]


# -- what gammonlab writes, it reads back ----------------------------------------------------------

RESIGNED_GAME = """ 5 point match

 Game 1
 A : 0                          B : 0
  1) 31: 8/5 6/5                  42: 8/4 6/4
  2)  Losses 1 point
"""


def _ending(match: gl.Match) -> list[tuple]:
    return [(a.kind, a.player, a.points) for a in match.games[-1].actions[-2:]]


@pytest.mark.parametrize("result", ["", "                                  Wins 1 point\n"])
@pytest.mark.parametrize("format", ["mat", "sgf"])
def test_a_resignation_ends_its_game_with_a_win_in_every_format(result, format):
    """R12.1: a resignation stated with its result ("Losses 1 point"), with or without the
    opponent's result line, is the same game, and so is what gammonlab writes of it."""
    match = gl.read_match(RESIGNED_GAME + result)
    assert _ending(match) == [("resign", 0, None), ("win", 1, 1)]
    again = gl.read_match(gl.write_match(match, format=format))
    assert _ending(again) == _ending(match) and not again.problems
    assert (again.games[0].winner, again.games[0].points) == (1, 1)


@pytest.mark.parametrize("format", ["mat", "sgf"])
@pytest.mark.parametrize(
    "text",
    [
        RESIGNED_GAME + "                                  Wins 3 point\n",
        match_text().replace("Wins 1 point", "Wins 3 point"),
    ],
    ids=["resigned", "dropped"],
)
def test_a_result_line_the_replay_refutes_is_written_as_the_games_points(text, format):
    error, match = read_both(text)
    assert "claims 3 points" in error.detail and located(match.problems)
    assert match.games[0].actions[-1].claimed_points == 3 and match.games[0].points == 1
    again = gl.read_match(gl.write_match(match, format=format))
    assert not again.problems and again.games[0].points == 1


def test_a_rating_a_name_cannot_carry_is_written_as_a_header():
    match = gl.read_match(match_text())
    rated = dataclasses.replace(match, ratings=("expert", "1500 (provisional)"))
    text = gl.write_match(rated, format="mat")
    assert '; [Player 1 Rating "expert"]' in text
    again = gl.read_match(text)
    assert again.ratings == rated.ratings and "Player 1 Rating" not in again.metadata
    numeric = dataclasses.replace(match, ratings=("1522", None))
    text = gl.write_match(numeric, format="mat")
    assert "A,1522 : 0" in text and "Rating" not in text
    assert gl.read_match(text).ratings == ("1522", None)


@pytest.mark.parametrize("key", ['Ke"y', "Ke]y", " Event", "Event ", "Ev\nent"])
def test_a_header_name_the_reader_cannot_read_is_refused_by_the_writer(key):
    match = dataclasses.replace(gl.read_match(match_text()), metadata={key: "v"})
    with pytest.raises(gl.WriteError, match="header"):
        gl.write_match(match, format="mat")


@pytest.mark.parametrize("value", ['a "quoted" name', "br]acket", 'ends with "', "ends]", "a\\b"])
def test_header_values_read_back(value):
    match = dataclasses.replace(gl.read_match(match_text()), metadata={"Event": value})
    assert gl.read_match(gl.write_match(match, format="mat")).metadata["Event"] == value


def test_a_game_over_with_no_checker_borne_off_is_refused():
    """Game state 2 is a game won by bearing off (R8.1): a game ended otherwise is
    resigned (3) or dropped (4)."""
    from gammonlab.ids import gnubg

    fields = gnubg.fields_from_match_id("MAGgAAAAAAAE")
    over = gnubg.match_id_from_fields(dataclasses.replace(fields, game_state=gnubg.GAME_OVER))
    with pytest.raises(gl.InvalidPositionError, match=r"R8\.1"):
        gl.GameState.from_gnubg_id("4HPwATDgc/ABMA:" + over)
    with pytest.raises(gl.InvalidPositionError, match=r"R8\.1"):
        gl.GameState(gl.Position.initial(), game_state=gnubg.GAME_OVER)
    resigned = gnubg.match_id_from_fields(
        dataclasses.replace(fields, game_state=gnubg.GAME_RESIGNED)
    )
    assert gl.GameState.from_gnubg_id("4HPwATDgc/ABMA:" + resigned).game_state == 3


def test_the_holland_tag_of_a_money_session_is_passed_over():
    text = match_text('; [Holland "On"]', length=0)
    match = gl.read_match(text)
    assert match.rules.money and not match.rules.holland and not match.problems


# -- impossible inputs, each refused or flagged ----------------------------------------------------


@pytest.fixture(scope="module")
def five_point_texts() -> tuple[str, str]:
    match = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(match_length=5), seed=3)
    return gl.write_match(match, format="mat"), gl.write_match(match, format="sgf")


def test_a_game_after_the_match_was_won_is_skipped(five_point_texts):
    """R8.5: the match ends with the game that wins it, whatever the next names line says."""
    mat, _ = five_point_texts
    extra = (
        "\n Game 8\n Player 0 : 4                   Player 1 : 3\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
    )
    error, match = read_both(mat + extra)
    assert "R8.5" in error.detail and error.line == mat.count("\n") + 2
    assert len(match.games) == 7 and match.score == (6, 3) and match.winner == 0
    assert located(match.problems)


def test_a_crawford_game_stated_without_the_crawford_rule_is_flagged(five_point_texts):
    mat, sgf = five_point_texts
    text = mat.replace('; [Crawford "On"]', '; [Crawford "Off"]').replace(
        " Game 5\n", ' Game 5\n; [CrawfordGame "On"]\n'
    )
    error, match = read_both(text)
    assert "R10.2" in error.detail and len(match.games) == 7
    assert not any(game.crawford for game in match.games)
    stated = sgf.replace("RU[Crawford:CrawfordGame]", "RU[NoCrawford:CrawfordGame]").replace(
        "RU[Crawford]", "RU[NoCrawford]"
    )
    error, match = read_both(stated)
    assert "R10.2" in error.detail and len(match.games) == 7


def test_an_unknown_sgf_rule_is_flagged_at_its_ru(five_point_texts):
    _, sgf = five_point_texts
    text = sgf.replace("RU[Crawford", "RU[Tavla:Crawford")
    error, match = read_both(text)
    assert "unknown rule 'Tavla'" in error.detail and (error.line, error.column) == (1, 91)
    assert len(match.games) == 7 and located(match.problems)


@pytest.mark.parametrize(
    ("match_id", "rule"),
    [
        ("cDHgAAAAAAAE", "R12.1"),  # a double and a resignation pending at once
        ("QRHgAAAAAAAE", "R9.5"),  # player 0 owns the cube, player 1 doubles
        ("cBngAAAAAAAE", "R9.4"),  # a double waits, and the doubler must act
        ("8InqAGAAMAAE", "R10.2"),  # the Crawford game at 6-6 in a 7-point match
        ("cIzqAAAACAAE", "R9.2"),  # a game ended by a dropped double, with dice rolled
    ],
)
def test_match_ids_of_states_that_cannot_occur_are_refused(match_id, rule):
    with pytest.raises(gl.InvalidPositionError, match=re.escape(rule)):
        gl.GameState.from_gnubg_id("4HPwATDgc/ABMA:" + match_id)


def test_a_beaver_waiting_for_the_doubler_reads_from_its_match_id():
    """R10.6: after a beaver the doubler answers, and the beaverer owns the cube."""
    from gammonlab.ids import gnubg

    fields = gnubg.MatchIdFields(
        cube_value=2,
        cube_owner=1,
        dice_owner=0,
        crawford=False,
        game_state=gnubg.GAME_PLAYING,
        turn=0,
        double_offered=True,
        resignation=0,
        dice=(0, 0),
        match_length=0,
        score=(0, 0),
        jacoby=False,
    )
    state = gl.GameState.from_gnubg_id("4HPwATDgc/ABMA:" + gnubg.match_id_from_fields(fields))
    assert state.beavers and state.double_offered and state.turn == state.on_roll == 0


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        (dict(dice=(3.5, 1)), gl.InvalidDiceError, "pair of integers"),
        (dict(dice=(7, 1)), gl.InvalidDiceError, "R3"),
        (dict(dice=(True, 1)), gl.InvalidDiceError, "pair of integers"),
        (dict(match_length=5, jacoby=True), gl.InvalidPositionError, "R10.1"),
        (dict(match_length=5, beavers=True), gl.InvalidPositionError, "R10.6"),
        (dict(cube_limit=3), gl.InvalidPositionError, "power of two"),
        (dict(double_offered=True, resignation=1, turn=1), gl.InvalidPositionError, "R12.1"),
        (
            dict(cube_value=2, cube_owner=1, double_offered=True, turn=1),
            gl.InvalidPositionError,
            "R9.5",
        ),
        (dict(double_offered=True, turn=0), gl.InvalidPositionError, "R10.6"),
        (dict(match_length=5, score=(4, 4), crawford=True), gl.InvalidPositionError, "R10.2"),
    ],
)
def test_game_states_that_cannot_occur_are_refused(options, error, message):
    with pytest.raises(error, match=re.escape(message)):
        gl.GameState(gl.Position.initial(), **options)


@pytest.mark.parametrize(
    "board",
    [
        [["a"] * 26] * 2,
        [[None] * 26] * 2,
        [[2**70] + [0] * 25, [0] * 26],
        [[10**400] + [0] * 25, [0] * 26],
        [[float("nan")] * 26] * 2,
        [[True] * 26] * 2,
    ],
    ids=["text", "none", "huge", "huger", "nan", "bool"],
)
def test_a_board_of_no_whole_numbers_is_refused(board):
    with pytest.raises(gl.InvalidPositionError):
        gl.Position.from_board(board)


@pytest.mark.parametrize(
    ("pre", "post", "message"),
    [
        ([[0.5, 0.75], [0.6, 0.5]], [0.5, 0.5], "needing more points never helps"),
        ([[0.5, 0.4], [0.25, 0.2]], [0.5, 0.5], "the opponent needing more never hurts"),
        ([[0.5, 0.75], [0.25, 0.5]], [0.9, 0.95], "after the Crawford game"),
        ([[0.9, 0.95], [0.25, 0.5]], [0.9, 0.8], "one game decides the match"),
    ],
)
def test_a_table_no_match_can_have_is_refused(pre, post, message):
    from gammonlab.met.table import MatchEquityTable

    with pytest.raises(gl.GammonlabError, match=message):
        MatchEquityTable("x", pre, post)


@pytest.mark.parametrize(
    ("options", "name"),
    [
        (dict(cube=False, auto_doubles="seed-000", match_length=5), "auto_doubles"),
        (dict(cube=False, beavers=True), "beavers"),
        (dict(cube=False, cube_limit=8), "cube_limit"),
        (dict(match_length=5, crawford=False, holland=True), "holland"),
        (dict(match_length=5, cube=False, holland=True), "holland"),
    ],
)
def test_rules_that_do_not_go_together_are_refused(options, name):
    with pytest.raises(gl.OptionError) as caught:
        gl.Rules(**options)
    assert caught.value.option == name
    assert gl.Rules.gnubg_default(cube=False) == gl.Rules(cube=False, jacoby=True)


@pytest.mark.parametrize("setup", [{}, {24: 16}, {24: 2, 1: 13}])
def test_a_custom_variant_no_board_can_hold_is_refused(setup):
    with pytest.raises(gl.OptionError):
        gl.Variant.custom("mine", setup)


@pytest.mark.parametrize("text", ["24/24", "13/11 24/24", "24/18/18"])
def test_a_move_of_no_pips_is_refused(text):
    with pytest.raises(gl.InvalidNotationError, match="moves no pips"):
        parse_notation(text)


def test_an_sgf_roll_written_twice_before_its_move_is_refused(five_point_texts):
    """One roll a turn: a second ``PL[..]DI[..]`` of the same dice is a roll whose play is
    not written, and only the last one before the move is the move's roll."""
    _, sgf = five_point_texts
    at = sgf.index("\n;W[")
    dice = sgf[at + 4 : at + 6]
    once = sgf[:at] + f"\n;PL[W]DI[{dice}]" + sgf[at:]
    assert len(gl.read_match(once).games) == 7
    twice = sgf[:at] + f"\n;PL[W]DI[{dice}]" * 2 + sgf[at:]
    error, match = read_both(twice)
    assert "not written" in error.detail and (error.line, error.column) == (2, 2)
    assert len(match.games) == 6 and located(match.problems)


H3 = " 3 point match\n\n Game 1\n A : 0                          B : 0\n"


def _games(match: gl.Match) -> list[tuple]:
    return [
        (g.number, g.winner, g.points, [(a.kind, a.player, a.dice) for a in g.actions])
        for g in match.games
    ]


def _one(number: int, score: int, play: str) -> str:
    return (
        f" Game {number}\n A : {score}                          B : 0\n"
        f"  1) 31: {play}                 Resigns\n      Wins 1 point\n"
    )


@pytest.mark.parametrize("format", ["mat", "sgf"])
@pytest.mark.parametrize(
    "text",
    [
        # a resignation's points, and a result line capped at the match
        " 1 point match\n\n Game 1\n A : 0                          B : 0\n"
        "  1)  Losses 3 point                  Wins 1 point and the match\n",
        " 3 point match\n\n Game 1\n A : 2                          B : 1\n"
        "  1) 31: 8/5 6/5                  Losses 1 point\n      Wins 3 point and the match\n",
        # a resignation worth no points it could be worth
        H3 + "  1) 31: 8/5 6/5                 21: ????\n      Wins 4016 point\n",
        H3 + "  1) 31: 8/5 6/5                  Losses 8 point\n",
        # a game skipped, and a score line against the games before it
        " 7 point match\n\n"
        + _one(1, 0, "8/5 6/5")
        + _one(2, 1, "8/5 6/1")
        + _one(3, 2, "8/5 6/5"),
        " 5 point match\n\n"
        + _one(1, 0, "8/5 6/5")
        + _one(2, 4, "8/5 6/5")
        + _one(3, 2, "8/5 6/5"),
        # game numbers at the nine digits a transcript writes them with
        " 7 point match\n\n" + _one(999999999, 0, "8/5 6/5") + _one(999999999, 1, "8/5 6/5"),
    ],
    ids=["capped-3", "capped-1", "claim-4016", "losses-8", "skipped", "score-line", "numbers"],
)
def test_what_collect_mode_keeps_writes_and_reads_back_the_same(text, format):
    """A match read in collect mode is written as read: read back in collect mode, the
    same games (a problem of the transcript is a problem of what is written of it)."""
    match = gl.read_match(text, errors="collect")
    again = gl.read_match(gl.write_match(match, format=format), errors="collect")
    assert _games(again) == _games(match)


def test_a_wrong_score_line_that_reaches_the_match_length_loses_no_game():
    """The games after a score line that the games before contradict are kept: the
    running score is not sure, and their own score lines show the match went on."""
    text = " 5 point match\n\n" + _one(1, 0, "8/5 6/5") + _one(2, 4, "8/5 6/5")
    match = gl.read_match(text + _one(3, 2, "8/5 6/5"), errors="collect")
    assert [g.number for g in match.games] == [1, 2, 3] and located(match.problems)


def test_match_equity_table_problems_are_placed():
    xml = (Path(gl.__file__).parent / "data" / "met" / "Kazaross-XG2.xml").read_text()
    bad = xml.replace("<me>0.67736</me>", "<me>0.6x7736</me>", 1)
    out_of_order = xml.replace("<me>0.32264</me>", "<me>0.99</me>", 1)
    for text in (bad, out_of_order, "<foo/>"):
        with pytest.raises(gl.ParseError) as caught:
            gl.met.read(text)
        assert caught.value.line is not None and caught.value.column is not None
