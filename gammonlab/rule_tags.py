"""The rules as transcripts write them: ``.mat`` header tags and SGF ``RU`` parts.

GNU Backgammon and eXtreme Gammon name the variant and a few options in a
``.mat`` file's headers (``; [Variation "NackGammon"]``, ``; [Jacoby "On"]``,
``; [Beaver "On"]``, ``; [Crawford "On"]``, ``; [CubeLimit "8"]``) and in an
SGF game's ``RU`` property (``RU[Crawford:CrawfordGame]``, ``RU[Jacoby]``,
``RU[Nackgammon]``, ``RU[Hypergammon2]``, ``RU[NoCube]``). The options they
have no word for (raccoons, Holland R10.3, seed 000's scoring R8.4, automatic
doubles R10.4 and R10.5, the opening R3.3, the cube limit in SGF) are written
with tags of the same shape, so that a match written by gammonlab reads back
under the rules it was played under; other programs ignore them.

>>> rules = Rules(variant="nackgammon", match_length=5, holland=True)
>>> mat_headers(rules)
{'Variation': 'NackGammon', 'Crawford': 'On', 'Holland': 'On'}
>>> rules_from_headers(mat_headers(rules), 5, None) == rules
True
>>> sgf_rule_parts(Rules(jacoby=True, beavers=True, raccoons=True, cube_limit=8))
['Jacoby', 'CubeLimit=8']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import GammonlabError
from .rules import Rules
from .rules import variant as lookup_variant

__all__ = ["VARIATION_NAMES", "mat_headers", "rules_from_headers", "sgf_rule_parts"]

VARIATION_NAMES = {
    "standard": "Backgammon",
    "nackgammon": "NackGammon",
    "nackgammon-004": "NackGammon-004",
    "hypergammon-1": "HyperGammon 1",
    "hypergammon-2": "HyperGammon 2",
    "hypergammon-3": "HyperGammon 3",
    "acey-deucey": "Acey-Deucey",
}
"""The ``.mat`` ``Variation`` header of each variant (GNU Backgammon's spelling
where it has one)."""

_SGF_VARIANTS = {
    "nackgammon": "Nackgammon",
    "nackgammon-004": "Nackgammon004",
    "hypergammon-1": "Hypergammon1",
    "hypergammon-2": "Hypergammon2",
    "hypergammon-3": "Hypergammon3",
    "acey-deucey": "AceyDeucey",
}

_VARIATIONS = {
    "backgammon": "standard",
    "standard": "standard",
    "nackgammon": "nackgammon",
    "nackgammon-004": "nackgammon-004",
    "nackgammon004": "nackgammon-004",
    "hypergammon": "hypergammon-3",
    "hypergammon 1": "hypergammon-1",
    "hypergammon 2": "hypergammon-2",
    "hypergammon 3": "hypergammon-3",
    "hypergammon-1": "hypergammon-1",
    "hypergammon-2": "hypergammon-2",
    "hypergammon-3": "hypergammon-3",
    "hypergammon1": "hypergammon-1",
    "hypergammon2": "hypergammon-2",
    "hypergammon3": "hypergammon-3",
    "hypergammon (1)": "hypergammon-1",
    "hypergammon (2)": "hypergammon-2",
    "hypergammon (3)": "hypergammon-3",
    "acey-deucey": "acey-deucey",
    "aceydeucey": "acey-deucey",
}
_ON = {"on", "yes", "true", "1"}
_ON_OFF = {True: "On", False: "Off"}


def _flag(value: str | None) -> bool | None:
    if value is None:
        return None
    return value.strip().lower() in _ON


def _power_of_two(text: str | None) -> int | None:
    if text is None or not text.strip().isdigit():
        return None
    value = int(text)
    return value if value >= 1 and not value & (value - 1) else None


def mat_headers(rules: Rules) -> dict[str, str]:
    """The ``.mat`` header tags that state ``rules``.

    GNU Backgammon's and eXtreme Gammon's keys (``Variation`` when not
    standard, ``Jacoby`` and ``Beaver`` in money play, ``Crawford`` in a match,
    ``CubeLimit``), then gammonlab's for what they cannot say: ``Raccoon``,
    ``Holland``, ``Scoring``, ``AutoDoubles``, ``AutoDoubleLimit``,
    ``Opening`` and ``Cube`` (``Off`` without the doubling cube).

    >>> mat_headers(Rules.seed_000())
    {'Crawford': 'On', 'Scoring': 'seed-000', 'AutoDoubles': 'seed-000'}
    """
    headers: dict[str, str] = {}
    name = rules.variant.name
    if name != "standard":
        headers["Variation"] = VARIATION_NAMES.get(name, name)
    if rules.money:
        headers["Jacoby"] = _ON_OFF[rules.jacoby]
        headers["Beaver"] = _ON_OFF[rules.beavers]
        if rules.beavers:
            headers["Raccoon"] = _ON_OFF[rules.raccoons]
    else:
        headers["Crawford"] = _ON_OFF[rules.crawford]
        if rules.holland:
            headers["Holland"] = "On"
    if rules.cube_limit is not None:
        headers["CubeLimit"] = str(rules.cube_limit)
    if not rules.cube:
        headers["Cube"] = "Off"
    if rules.scoring != "standard":
        headers["Scoring"] = rules.scoring
    if rules.auto_doubles != "none":
        headers["AutoDoubles"] = rules.auto_doubles
        if rules.auto_double_limit:
            headers["AutoDoubleLimit"] = str(rules.auto_double_limit)
    if rules.opening != "standard":
        headers["Opening"] = rules.opening
    return headers


def sgf_rule_parts(rules: Rules) -> list[str]:
    """The parts of an SGF ``RU`` property that state ``rules`` (``CrawfordGame``,
    which belongs to one game, is left to the writer).

    GNU Backgammon's parts (``NoCube``, ``Crawford``, ``Jacoby``, ``Nackgammon``,
    ``Hypergammon1`` to ``3``), then gammonlab's: ``Nackgammon004``,
    ``NoCrawford``, ``NoBeavers``, ``NoRaccoons``, ``Holland``, ``CubeLimit=n``,
    ``Scoring=seed-000``, ``AutoDoubles=gnubg`` or ``seed-000``,
    ``AutoDoubleLimit=n`` and ``Opening=reroll``.

    >>> sgf_rule_parts(Rules(variant="hypergammon-2", match_length=3))
    ['Crawford', 'Hypergammon2']
    """
    parts: list[str] = []
    if not rules.cube:
        parts.append("NoCube")
    if rules.match_length:
        parts.append("Crawford" if rules.crawford else "NoCrawford")
    if rules.money and rules.jacoby:
        parts.append("Jacoby")
    name = rules.variant.name
    if name in _SGF_VARIANTS:
        parts.append(_SGF_VARIANTS[name])
    if rules.money and not rules.beavers:
        parts.append("NoBeavers")
    elif rules.money and not rules.raccoons:
        parts.append("NoRaccoons")
    if rules.holland and rules.match_length:
        parts.append("Holland")
    if rules.cube_limit is not None:
        parts.append(f"CubeLimit={rules.cube_limit}")
    if rules.scoring != "standard":
        parts.append(f"Scoring={rules.scoring}")
    if rules.auto_doubles != "none":
        parts.append(f"AutoDoubles={rules.auto_doubles}")
        if rules.auto_double_limit:
            parts.append(f"AutoDoubleLimit={rules.auto_double_limit}")
    if rules.opening != "standard":
        parts.append(f"Opening={rules.opening}")
    return parts


def rules_from_headers(headers: Mapping[str, str], match_length: int, variation: str | None,
                       sgf_rules: Sequence[str] | None = ()) -> Rules:
    """The :class:`~gammonlab.rules.Rules` a transcript's headers describe.

    Parameters
    ----------
    headers : mapping
        ``.mat`` header tags (keys in any case); see :func:`mat_headers`.
    match_length : int
        0 in money play.
    variation : str or None
        The variation the transcript names, when read apart from the headers.
    sgf_rules : sequence of str or None
        The parts of an SGF game's ``RU`` property (see :func:`sgf_rule_parts`);
        ``None`` for an SGF game without ``RU``.

    Notes
    -----
    Without a tag, GNU Backgammon's defaults apply: the Crawford rule in every
    match (in SGF, only where ``RU`` says ``Crawford``, as GNU Backgammon
    writes it whenever the rule is on), beavers and raccoons in money play,
    no Jacoby rule.

    >>> rules_from_headers({"Variation": "HyperGammon 2", "Crawford": "Off"}, 3, None)
    Rules(variant='hypergammon-2', match_length=3, crawford=False)
    >>> rules_from_headers({}, 0, None, ["Jacoby", "NoRaccoons"])
    Rules(variant='standard', jacoby=True, beavers=True)
    """
    lower = {k.lower(): v.strip() for k, v in headers.items()}
    parts: dict[str, str] = {}
    for part in sgf_rules or ():
        key, _, value = part.strip().partition("=")
        parts[key.lower()] = value.strip()
    name = (variation or lower.get("variation") or "backgammon").strip().lower()
    for part in parts:
        if part in _VARIATIONS and part != "backgammon":
            name = part
    if name not in _VARIATIONS:
        raise GammonlabError(f"unknown variation {variation or lower.get('variation')!r}")
    money = match_length == 0

    def option(mat_key: str, sgf_key: str) -> str | None:
        return lower.get(mat_key) if mat_key in lower else parts.get(sgf_key)

    jacoby = _flag(lower.get("jacoby"))
    if jacoby is None:
        jacoby = "jacoby" in parts
    beavers = _flag(lower.get("beaver"))
    if beavers is None:
        beavers = "nobeavers" not in parts
    raccoons = _flag(lower.get("raccoon"))
    if raccoons is None:
        raccoons = beavers and "noraccoons" not in parts
    crawford = _flag(lower.get("crawford"))
    if crawford is None:
        if "nocrawford" in parts:
            crawford = False
        elif money or not parts:
            crawford = True  # GNU Backgammon's default, and an SGF game without RU
        else:
            crawford = "crawford" in parts  # GNU Backgammon writes it whenever it is on
    holland = bool(_flag(lower.get("holland"))) or "holland" in parts
    cube = _flag(lower.get("cube"))
    if cube is None:
        cube = "nocube" not in parts
    scoring = (option("scoring", "scoring") or "standard").lower()
    auto_doubles = (option("autodoubles", "autodoubles") or "none").lower()
    limit_text = option("autodoublelimit", "autodoublelimit")
    limit = int(limit_text) if limit_text and limit_text.isdigit() else 0
    opening = (option("opening", "opening") or "standard").lower()
    return Rules(variant=lookup_variant(_VARIATIONS[name]), match_length=match_length,
                 cube=cube, jacoby=jacoby and money, crawford=crawford,
                 holland=holland and not money, beavers=beavers and money,
                 raccoons=raccoons and beavers and money,
                 cube_limit=_power_of_two(option("cubelimit", "cubelimit")),
                 scoring=scoring,  # type: ignore[arg-type]
                 auto_doubles=auto_doubles,  # type: ignore[arg-type]
                 auto_double_limit=limit,
                 opening=opening)  # type: ignore[arg-type]
