"""The rules as transcripts write them (gammonlab.rule_tags), and read_matches(rules=)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import gammonlab as gl
from gammonlab.rule_tags import mat_headers, rules_from_headers, sgf_rule_parts

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gnubg_variants"


def every_rules():
    """Every combination of the options that can go together (money or match)."""
    variants = ["standard", "nackgammon", "nackgammon-004", "hypergammon-1", "hypergammon-3"]
    for variant, length, cube, scoring, opening, limit in itertools.product(
            variants, (0, 7), (True, False), ("standard", "seed-000"), ("standard", "reroll"),
            (None, 8)):
        base = dict(variant=variant, match_length=length, cube=cube, scoring=scoring,
                    opening=opening, cube_limit=limit)
        if length:
            for crawford, holland, autos in itertools.product(
                    (True, False), (True, False), ("none", "seed-000")):
                yield gl.Rules(**base, crawford=crawford, holland=holland, auto_doubles=autos,
                               auto_double_limit=3 if autos != "none" else 0)
        else:
            for jacoby, beavers, raccoons, autos in itertools.product(
                    (True, False), (True, False), (True, False),
                    ("none", "seed-000", "gnubg")):
                if raccoons and not beavers:
                    continue
                yield gl.Rules(**base, jacoby=jacoby, beavers=beavers, raccoons=raccoons,
                               auto_doubles=autos, auto_double_limit=2 if autos == "gnubg" else 0)


def test_every_combination_of_options_reads_back_from_its_tags():
    count = 0
    for rules in every_rules():
        headers = mat_headers(rules)
        assert rules_from_headers(headers, rules.match_length, None) == rules, headers
        parts = sgf_rule_parts(rules)
        assert rules_from_headers({}, rules.match_length, None, parts) == rules, parts
        assert all(":" not in part for part in parts)
        count += 1
    assert count > 500


@pytest.mark.parametrize(("headers", "expected"), [
    ({}, gl.Rules(beavers=True, raccoons=True)),  # GNU Backgammon's money defaults
    ({"Jacoby": "On", "Beaver": "Off"}, gl.Rules(jacoby=True)),
    ({"Variation": "NackGammon", "CubeLimit": "6"}, gl.Rules(variant="nackgammon",
                                                              beavers=True, raccoons=True)),
    ({"Variation": "HyperGammon (1)", "Beaver": "On", "Raccoon": "Off"},
     gl.Rules(variant="hypergammon-1", beavers=True)),
])
def test_money_headers(headers, expected):
    """Other programs' tags with GNU Backgammon's defaults; a cube limit that is not
    a power of two is no limit."""
    assert rules_from_headers(headers, 0, None) == expected


def test_unknown_option_values_are_refused():
    with pytest.raises(gl.GammonlabError, match="scoring"):
        rules_from_headers({"Scoring": "chouette"}, 5, None)
    with pytest.raises(gl.GammonlabError, match="variation"):
        rules_from_headers({"Variation": "Tavla"}, 5, None)
    with pytest.raises(gl.ParseError, match="scoring"):
        gl.read_match('; [Scoring "chouette"]\n 5 point match\n\n Game 1\n A : 0    B : 0\n')


def test_read_matches_under_stated_rules():
    rules = gl.Rules(variant="nackgammon", match_length=3, holland=True)
    frame = gl.read_matches(FIXTURES, pattern="nackgammon_3p.*", rules=rules, progress=False,
                            n_jobs=1, frame="games")
    assert sorted(frame.match.unique()) == ["nackgammon_3p.mat", "nackgammon_3p.sgf"]
    assert (frame.groupby("match", observed=True).size() == 2).all()
    with pytest.raises(gl.ParseError, match="match length is 3"):
        gl.read_matches(FIXTURES, pattern="nackgammon_3p.mat", progress=False, n_jobs=1,
                        rules=rules.replace(match_length=5))
