"""The rules as transcripts write them (gammonlab.io.tags), and read_matches(rules=)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import gammonlab as gl
from gammonlab.io.tags import mat_headers, rules_from_headers, sgf_rule_parts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gnubg_variants"


def every_rules():
    """Every combination of the options that can go together (money or match)."""
    variants = ["standard", "nackgammon", "nackgammon-004", "hypergammon-1", "hypergammon-3"]
    for variant, length, cube, scoring, opening, limit in itertools.product(
        variants, (0, 7), (True, False), ("standard", "seed-000"), ("standard", "reroll"), (None, 8)
    ):
        if limit and not cube:
            continue  # a cube limit, Holland, beavers, automatic doubles need the cube
        base = dict(
            variant=variant,
            match_length=length,
            cube=cube,
            scoring=scoring,
            opening=opening,
            cube_limit=limit,
        )
        if length:
            for crawford, holland, autos in itertools.product(
                (True, False), (True, False), ("none", "seed-000")
            ):
                if (holland and not crawford) or (not cube and (holland or autos != "none")):
                    continue
                yield gl.Rules(
                    **base,
                    crawford=crawford,
                    holland=holland,
                    auto_doubles=autos,
                    auto_double_limit=3 if autos != "none" else 0,
                )
        else:
            for jacoby, beavers, raccoons, autos in itertools.product(
                (True, False), (True, False), (True, False), ("none", "seed-000", "gnubg")
            ):
                if (raccoons and not beavers) or (not cube and (beavers or autos != "none")):
                    continue
                yield gl.Rules(
                    **base,
                    jacoby=jacoby,
                    beavers=beavers,
                    raccoons=raccoons,
                    auto_doubles=autos,
                    auto_double_limit=2 if autos == "gnubg" else 0,
                )


def test_every_combination_of_options_reads_back_from_its_tags():
    count = 0
    for rules in every_rules():
        headers = mat_headers(rules)
        assert rules_from_headers(headers, rules.match_length, None) == rules, headers
        parts = sgf_rule_parts(rules)
        assert rules_from_headers({}, rules.match_length, None, parts) == rules, parts
        assert all(":" not in part for part in parts)
        count += 1
    assert count > 300


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({}, gl.Rules.gnubg_default()),  # GNU Backgammon's money defaults: Jacoby, beavers
        ({"Jacoby": "On", "Beaver": "Off"}, gl.Rules(jacoby=True)),
        ({"Jacoby": "Off"}, gl.Rules(beavers=True, raccoons=True)),
        (
            {"Variation": "NackGammon", "CubeLimit": "6"},
            gl.Rules.gnubg_default(variant="nackgammon", cube_limit=4),
        ),
        (
            {"Variation": "HyperGammon (1)", "Beaver": "On", "Raccoon": "Off"},
            gl.Rules(variant="hypergammon-1", jacoby=True, beavers=True),
        ),
    ],
)
def test_money_headers(headers, expected):
    """Other programs' tags with GNU Backgammon's defaults; a cube limit that is not
    a power of two lets the cube reach the highest power of two below it (R9.6)."""
    assert rules_from_headers(headers, 0, None) == expected


def test_sgf_states_jacoby_when_it_is_on():
    """GNU Backgammon writes RU[Jacoby] whenever the rule is on: an SGF money game
    without it is played without the rule, RU or no RU."""
    assert not rules_from_headers({}, 0, None, []).jacoby
    assert not rules_from_headers({}, 0, None, ["NoRaccoons"]).jacoby
    assert rules_from_headers({}, 0, None, ["Jacoby"]).jacoby


@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ({"CubeLimit": "3x"}, "highest cube"),
        ({"CubeLimit": "0"}, "highest cube"),
        ({"CubeLimit": "²"}, "highest cube"),
        ({"AutoDoubleLimit": "9" * 4301}, "automatic doubles"),
        ({"Jacoby": "maybe"}, "On or Off"),
        ({"Opening": "sideways"}, "opening"),
        ({"AutoDoubles": "gnubg"}, "R10.5"),  # in a match
        ({"AutoDoubleLimit": "2"}, "give auto_doubles"),
    ],
)
def test_bad_tags_are_refused_or_listed(headers, message):
    with pytest.raises(gl.OptionError, match=message):
        rules_from_headers(headers, 5, None)
    problems: list = []
    rules = rules_from_headers(headers, 5, None, problems=problems)
    assert rules == gl.Rules(match_length=5) and len(problems) == 1
    assert message in problems[0].detail


def test_unknown_option_values_are_refused():
    with pytest.raises(gl.GammonlabError, match="scoring"):
        rules_from_headers({"Scoring": "chouette"}, 5, None)
    with pytest.raises(gl.GammonlabError, match="variation"):
        rules_from_headers({"Variation": "Tavla"}, 5, None)
    with pytest.raises(gl.ParseError, match="scoring"):
        gl.read_match('; [Scoring "chouette"]\n 5 point match\n\n Game 1\n A : 0    B : 0\n')


def test_read_matches_under_stated_rules():
    rules = gl.Rules(variant="nackgammon", match_length=3, holland=True)
    frame = gl.read_matches(
        FIXTURES, pattern="nackgammon_3p.*", rules=rules, progress=False, n_jobs=1, frame="games"
    )
    assert sorted(frame.match.unique()) == ["nackgammon_3p.mat", "nackgammon_3p.sgf"]
    assert (frame.groupby("match", observed=True).size() == 2).all()
    with pytest.raises(gl.ParseError, match="match length is 3"):
        gl.read_matches(
            FIXTURES,
            pattern="nackgammon_3p.mat",
            progress=False,
            n_jobs=1,
            rules=rules.replace(match_length=5),
        )
