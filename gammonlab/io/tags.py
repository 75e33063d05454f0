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
from typing import TYPE_CHECKING

from .._numbers import parse_int
from ..errors import GammonlabError, OptionError, ParseError
from ..rules import AUTO_DOUBLES, HIGHEST_CUBE, MAX_AUTO_DOUBLES, OPENINGS, SCORINGS, Rules
from ..rules import variant as lookup_variant

if TYPE_CHECKING:
    from .raw import Location

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
_SGF_PARTS = {
    part.lower(): part
    for part in (
        "NoCube",
        "Crawford",
        "NoCrawford",
        "CrawfordGame",
        "NoCrawfordGame",
        "Jacoby",
        "NoBeavers",
        "NoRaccoons",
        "Holland",
        "CubeLimit",
        "Scoring",
        "AutoDoubles",
        "AutoDoubleLimit",
        "Opening",
    )
}
"""The parts an SGF ``RU`` property may hold (by their lower case, before any ``=``),
besides the variants' names: GNU Backgammon's and gammonlab's (see :func:`sgf_rule_parts`)."""
_ON = {"on", "yes", "true", "1"}
_OFF = {"off", "no", "false", "0"}
_ON_OFF = {True: "On", False: "Off"}

# the tag (a .mat key or an SGF RU part, lower case) that states each option of Rules
_OPTION_TAGS = {
    "variant": "variation",
    "jacoby": "jacoby",
    "beavers": "beaver",
    "raccoons": "raccoon",
    "crawford": "crawford",
    "holland": "holland",
    "cube": "cube",
    "cube_limit": "cubelimit",
    "scoring": "scoring",
    "auto_doubles": "autodoubles",
    "auto_double_limit": "autodoublelimit",
    "opening": "opening",
}


def _highest_power_of_two(limit: int) -> int:
    """The highest cube a limit allows: ``CubeLimit "6"`` lets the cube reach 4."""
    return 1 << (min(limit, HIGHEST_CUBE).bit_length() - 1)


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
        if not rules.crawford:  # no effect in money play, but the rules say so
            headers["Crawford"] = "Off"
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
    if rules.match_length or not rules.crawford:
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


def rules_from_headers(
    headers: Mapping[str, str],
    match_length: int,
    variation: str | None,
    sgf_rules: Sequence[str] | None = None,
    *,
    locations: Mapping[str, Location] | None = None,
    problems: list[ParseError] | None = None,
) -> Rules:
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
        The parts of an SGF game's ``RU`` property (see :func:`sgf_rule_parts`;
        empty for an SGF game without ``RU``); ``None`` for a ``.mat`` file.
    locations : mapping of str to Location, optional
        Where each header is written (its key as in ``headers``; ``'RU'`` for the
        SGF parts), so that a bad tag is a :class:`~gammonlab.errors.ParseError`
        pointing at it.
    problems : list, optional
        Given, a bad tag is listed here and read as if it were not written
        (``errors="collect"``); otherwise it raises.

    Raises
    ------
    OptionError or ParseError
        A tag whose value names no option (``; [Scoring "chouette"]``, a cube
        limit that is no number), or options that do not go together (GNU
        Backgammon's automatic doubles in a match); a ParseError, at the tag,
        when ``locations`` says where it is.

    Notes
    -----
    Without a tag, GNU Backgammon's defaults apply: the Crawford rule in every
    match; the Jacoby rule, beavers and raccoons in money play. In SGF, GNU
    Backgammon writes ``Crawford`` and ``Jacoby`` in ``RU`` whenever the rule is
    on, so there only what ``RU`` says is on (an SGF game without ``RU`` is read
    with the Crawford rule, as GNU Backgammon reads it). Tags of money-play
    options in a match (``; [Jacoby "On"]`` in a match file) are passed over, as
    GNU Backgammon does, and so is the Holland rule, a rule of match play
    (R10.3), in money play. A cube limit that is not a power of two lets the cube
    reach the highest power of two below it (R9.6).

    >>> rules_from_headers({"Variation": "HyperGammon 2", "Crawford": "Off"}, 3, None)
    Rules(variant='hypergammon-2', match_length=3, crawford=False)
    >>> rules_from_headers({}, 0, None)
    Rules(variant='standard', jacoby=True, beavers=True, raccoons=True)
    >>> rules_from_headers({}, 0, None, ["Jacoby", "NoRaccoons"])
    Rules(variant='standard', jacoby=True, beavers=True)
    >>> rules_from_headers({"CubeLimit": "6"}, 5, None).cube_limit
    4
    """
    keys = {k.lower(): k for k in headers}
    lower = {k.lower(): str(v).strip() for k, v in headers.items()}
    sgf = sgf_rules is not None
    parts: dict[str, str] = {}
    part_keys: dict[str, str] = {}
    for part in sgf_rules or ():
        key, _, value = part.strip().partition("=")
        parts[key.lower()] = value.strip()
        part_keys[key.lower()] = key

    def bad(tag: str, message: str) -> None:
        """A tag that states no option: raise, or list it and read on without it."""
        written = keys.get(tag)
        where = (locations or {}).get(written if written is not None else "RU")
        if where is not None:
            error: GammonlabError = where.error(message)
        elif problems is not None:
            error = ParseError(message)
        else:
            error = OptionError(message, option=tag)
        if problems is None:
            raise error
        problems.append(error)  # type: ignore[arg-type]

    def option(tag: str) -> str | None:
        return lower.get(tag) if tag in lower else parts.get(tag)

    def shown(tag: str, value: str) -> str:
        return (
            f"{keys[tag]} {value!r}" if tag in lower else f"RU[{part_keys.get(tag, tag)}={value}]"
        )

    def flag(tag: str) -> bool | None:
        value = lower.get(tag)
        if value is None:
            return None
        word = value.lower()
        if word in _ON or word in _OFF:
            return word in _ON
        bad(tag, f"expected On or Off in the {keys[tag]} tag, got {value!r}")
        return None

    def choice(tag: str, what: str, choices: tuple[str, ...], default: str) -> str:
        value = option(tag)
        if value is None or not value:
            return default
        if value.lower() in choices:
            return value.lower()
        bad(tag, f"unknown {what} in {shown(tag, value)}; known: {', '.join(choices)}")
        return default

    def number(tag: str, what: str, low: int) -> int | None:
        value = option(tag)
        if value is None:
            return None
        found = parse_int(value)
        if found is None or found < low:
            bad(tag, f"expected {what} (a whole number from {low}), got {shown(tag, value)}")
            return None
        return found

    for part in parts:
        if part not in _SGF_PARTS and part not in _VARIATIONS:
            bad(
                "RU",
                f"unknown rule {part_keys[part]!r} in RU; known: "
                + ", ".join([*_SGF_PARTS.values(), *_SGF_VARIANTS.values()]),
            )
    name = (variation or lower.get("variation") or "backgammon").strip().lower()
    for part in parts:
        if part in _VARIATIONS and part != "backgammon":
            name = part
    if name not in _VARIATIONS:
        bad(
            "variation",
            f"unknown variation {variation or lower.get('variation')!r}; known: "
            + ", ".join(sorted(set(VARIATION_NAMES.values()))),
        )
        name = "backgammon"
    money = match_length == 0
    jacoby = flag("jacoby")
    if jacoby is None:
        jacoby = "jacoby" in parts if sgf else True  # GNU Backgammon's default
    beavers = flag("beaver")
    if beavers is None:
        beavers = "nobeavers" not in parts
    raccoons = flag("raccoon")
    if raccoons is None:
        raccoons = beavers and "noraccoons" not in parts
    crawford = flag("crawford")
    if crawford is None:
        if "nocrawford" in parts:
            crawford = False
        elif money or not parts:
            crawford = True  # GNU Backgammon's default, and an SGF game without RU
        else:
            crawford = "crawford" in parts  # GNU Backgammon writes it whenever it is on
    holland = bool(flag("holland")) or "holland" in parts
    cube = flag("cube")
    if cube is None:
        cube = "nocube" not in parts
    limit = number("cubelimit", "the highest cube", 1)
    auto_limit = number("autodoublelimit", "the most automatic doubles a game", 0)
    options: dict[str, object] = {
        "variant": lookup_variant(_VARIATIONS[name]),
        "match_length": match_length,
        "cube": cube,
        "jacoby": jacoby and money,
        "crawford": crawford,
        "holland": holland and not money,
        "beavers": beavers and money and cube,
        "raccoons": raccoons and beavers and money and cube,
        "cube_limit": None if limit is None else _highest_power_of_two(limit),
        "scoring": choice("scoring", "scoring", SCORINGS, "standard"),
        "auto_doubles": choice("autodoubles", "automatic doubles", AUTO_DOUBLES, "none"),
        "auto_double_limit": min(auto_limit or 0, MAX_AUTO_DOUBLES),
        "opening": choice("opening", "opening", OPENINGS, "standard"),
    }
    defaults = Rules.__dataclass_fields__
    for _ in range(len(options)):
        try:
            return Rules(**options)  # type: ignore[arg-type]
        except OptionError as error:
            if error.option not in _OPTION_TAGS or error.option == "variant":
                raise
            bad(_OPTION_TAGS[error.option], str(error))
            options[error.option] = defaults[error.option].default
    return Rules(match_length=match_length)
