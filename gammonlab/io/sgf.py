"""SGF backgammon records (``GM[6]``): a general SGF tree reader and the text level.

:func:`parse_collection` reads any SGF text into trees of nodes and
properties (escapes, multi-valued properties, variations).
:func:`parse_sgf` turns the backgammon games in it into a
:class:`~gammonlab.io.raw.RawMatch` with no rule applied, and
:func:`format_sgf` writes one back.

Players and points
------------------
White is player 0 (the left column of the ``.mat`` file GNU Backgammon
imported or exported: ``PW`` holds its first player), Black is player 1.
Points ``a``..``x`` are 1..24 counted from White's side, ``y`` the bar, ``z``
off. A move ``W[31hefe]`` is dice 3-1 and the checker moves h->e, f->e; the
play is written in the mover's own numbering: ``'8/5 6/5'`` for White; for
Black point letter ``c`` is ``25 - 3 = 22``. The bar and off are written
``bar`` and ``off`` (``'bar/22 6/off'``); hits are not marked (the SGF does not
say).

Actions
-------
* ``W[double]``, ``W[take]``, ``W[drop]``: cube actions. A ``double`` that
  answers a double is a beaver, a third in a row a raccoon. SGF does not write
  the cube value; :attr:`RawAction.cube` counts it (from ``CV`` or 1).
* ``PL[W]DI[11]`` (dice set, no move): GNU Backgammon writes it for a roll
  after which the roller resigned (``11: ????`` in the ``.mat`` it imported).
  When it is the last node and the result is a resignation by that player it
  becomes that ``resign`` action's dice; a ``DI`` followed by that player's
  move with the same roll is dropped; any other is a ``move`` with ``play=None``.
* ``RE[W+2]``: a final ``win`` action (White, 2 points). ``RE[B+1R]``: a
  ``resign`` by White, then Black's ``win``.

Analysis (``RawAction.analysis``)
---------------------------------
GNU Backgammon's ``sgf.c`` writes its analysis on the node of the action it
judges. Parsed into a dict:

``'moves'`` (from ``A[i][cand]...`` and ``MR[...]``) :
    ``{'played': i, 'candidates': [...], 'marked': [n, ...]}``; ``played`` is
    the 0-based index of the play made in the list, ``marked`` lists 1-based
    candidates marked for rollout. Each candidate of an evaluation (``E``)::

        {'play': '8/5 6/5', 'sgf': 'hefe', 'eval': 'E', 'version': 3,
         'probabilities': (win, win_gammon, win_backgammon, lose_gammon, lose_backgammon),
         'equity': float, 'plies': int, 'cubeful': bool, 'reduced': int,
         'deterministic': int, 'noise': float, 'prune': int}

    The probabilities are after the play, for the player who moved (win
    includes gammons); ``equity`` is the value GNU Backgammon ranks the
    candidates by (cubeful and normalised to money units when ``cubeful``).
    Rollouts (``R``/``X``) give ``'score'``, ``'score2'``, ``'trials'``,
    ``'output'`` (7 numbers: the 5 probabilities, cubeless and cubeful
    equity), ``'stddev'`` (7) and the settings as ``'settings'`` text.
``'cube'`` (from ``DA[...]``) :
    the cube decision of the player on roll before this action:
    ``{'eval': 'E', 'version': 3, 'plies', 'cubeful', 'deterministic',
    'noise', 'prune', 'no_double': (7 numbers), 'double_take': (7 numbers)}``;
    each 7-tuple is the 5 probabilities (player on roll), the cubeless equity
    and the cubeful value (match winning chance in match play). Rollouts:
    ``'trials'``, ``'no_double'``/``'double_take'`` outputs and
    ``'no_double_stddev'``/``'double_take_stddev'``.
``'luck'`` (``LU``) : the luck of the roll for the roller, as GNU Backgammon stores it.
``'luck_rating'`` (``GB``/``GW``) : ``'very bad'``, ``'bad'``, ``'good'`` or
    ``'very good'``, for the player who acted.
``'skill'`` (``BM``/``DO``), ``'cube_skill'`` (``BC``/``DC``) : ``'very bad'``,
    ``'bad'`` or ``'doubtful'``.
``'raw'`` : every analysis property as written (``{'A': [...], 'DA': [...]}``),
    so that :func:`format_sgf` writes it back unchanged.

>>> raw = parse_sgf("(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1]\\n;W[31hefe])")
>>> action = raw.games[0].actions[0]
>>> action.player, action.dice, action.play
(0, (3, 1), '8/5 6/5')
>>> [a.kind for a in raw.games[0].actions]
['move', 'win']
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .._numbers import parse_int, read_int
from ..errors import ParseError, WriteError
from ..notation import split_acey_deucey
from ..rules import HIGHEST_CUBE, MAX_MATCH_LENGTH
from .raw import Location, ProblemLog, RawAction, RawGame, RawMatch
from .sgf_syntax import (
    _ANALYSIS,
    _SETUP,
    SgfNode,
    SgfProperty,
    SgfTree,
    _LocationAt,
    _OneValueNode,
    _read_trees,
    _Text,
    parse_collection,
)
from .text import Errors, Source, collects, load_transcript, split_rating

__all__ = [
    "SgfNode",
    "SgfProperty",
    "SgfTree",
    "format_sgf",
    "parse_collection",
    "parse_sgf",
]


# dice, moves, and for an Acey-Deucey 1-2 (R11.2) the doubles chosen and their moves
_MOVE_VALUE = re.compile(r"^([0-9])([0-9])([a-z]*)(?:([1-6])\4([a-z]*))?$")
_RESULT = re.compile(r"^([WB])\+([0-9]{0,9})(R?)(?:esign)?$", re.IGNORECASE)
_NO_RESULT = frozenset({"", "0", "?", "void", "draw"})
_VARIANTS = {
    "nackgammon": "Nackgammon",
    "nackgammon004": "Nackgammon004",
    "hypergammon1": "Hypergammon1",
    "hypergammon2": "Hypergammon2",
    "hypergammon3": "Hypergammon3",
    "aceydeucey": "AceyDeucey",
}
_ANALYSIS_NAMES = frozenset(_ANALYSIS)
_SKILL = {"BM": "skill", "DO": "skill", "BC": "cube_skill", "DC": "cube_skill"}
_COLOURS = "WB"
_COLOURS_NAMES = frozenset(_COLOURS)
_BAR, _OFF = 25, 0
_ENTERING = 26  # an Acey-Deucey checker entering from off the board (R11.1), "in"


# --------------------------------------------------------------------------- points and plays


def _letter_point(letter: str, player: int) -> int:
    if letter == "y":
        return _BAR
    if letter == "z":
        return _OFF
    index = ord(letter) - ord("a")  # 0..23 from White's side
    return index + 1 if player == 0 else 24 - index


def _point_letter(point: int, player: int) -> str:
    if point == _BAR:
        return "y"
    if point == _OFF:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("a") + 24 - point)


def _point_text(point: int) -> str:
    return "bar" if point == _BAR else "off" if point == _OFF else str(point)


def _letters_to_play(letters: str, player: int) -> str:
    """``'hefe'`` -> ``'8/5 6/5'`` in the mover's numbering; raises ValueError.

    A move from ``z`` (off the board) is an Acey-Deucey checker entering,
    ``in/22`` (R11.1): GNU Backgammon never moves a checker from off.
    """
    if len(letters) % 2:
        raise ParseError("checker moves come in pairs of letters (from, to)")
    moves = []
    for k in range(0, len(letters), 2):
        start, end = letters[k], letters[k + 1]
        if not ("a" <= start <= "z"):
            raise ParseError(
                f"a move cannot start at {start!r} (a..x = points, y = bar, "
                f"z = off the board, entering)"
            )
        if not ("a" <= end <= "x" or end == "z"):
            raise ParseError(f"a move cannot end at {end!r} (a..x = points, z = off)")
        source = "in" if start == "z" else _point_text(_letter_point(start, player))
        moves.append(f"{source}/{_point_text(_letter_point(end, player))}")
    return " ".join(moves)


def _move_value_play(match: re.Match[str], player: int) -> str:
    """The play of a move value; ``21zwzx66zszszszs`` is an Acey-Deucey 1-2 with
    double sixes (R11.2), ``in/23 in/24 then 6-6: in/19(4)``."""
    play = _letters_to_play(match.group(3), player)
    if match.group(4) is None:
        return play
    doubles = int(match.group(4))
    rest = _letters_to_play(match.group(5), player) or "no move"
    return f"{play} then {doubles}-{doubles}: {rest}"


def _read_move_value(value: str, player: int) -> tuple[tuple[int, int], str] | str:
    """The dice and play of a move value (``31hefe``), or what is wrong with it."""
    name = _COLOURS[player]
    match = _MOVE_VALUE.match(value)
    if not match:
        return (
            f"expected dice and a move like {name}[31hefe], or "
            f"double, take, drop; got {name}[{value}]"
        )
    dice = (int(match.group(1)), int(match.group(2)))
    if not (1 <= dice[0] <= 6 and 1 <= dice[1] <= 6):
        return f"expected dice from 1 to 6, got {name}[{value}]"
    try:
        play = _move_value_play(match, player)
    except ValueError as exc:
        return f"{exc}: {name}[{value}]"
    return dice, play


# the same moves come up again and again: each value as long as a move is read once
_MOVE_VALUE_KEPT = 1 << 16
_move_value = lru_cache(maxsize=_MOVE_VALUE_KEPT)(_read_move_value)
_MOVE_VALUE_CACHED = 24
_PLAIN_MOVES: dict[tuple[str, str], tuple[int, tuple[int, int], str]] = {}
"""The moves of the nodes that hold a move and nothing else, by the property's
identifier and value as written: the player, the dice and the play."""


_PLAY_TOKEN = re.compile(r"^(.*?)(?:\(([0-9])\))?\*?$")


def _play_to_letters(play: str, player: int) -> str:
    """``'8/5 6/5'`` (any .mat spelling: ``bar``, ``25``, ``off``, ``0``, ``13/7(2)``,
    ``24/18/13``, hits) -> SGF letters for ``player``."""
    letters = []
    for token in play.split():
        match = _PLAY_TOKEN.match(token)
        body, repeat = match.group(1), int(match.group(2) or 1)  # type: ignore[union-attr]
        points = []
        for part in body.replace("*", "").split("/"):
            word = part.lower()
            if word == "in":
                points.append(_ENTERING)
            elif word == "bar":
                points.append(_BAR)
            elif word == "off":
                points.append(_OFF)
            elif re.fullmatch(r"[0-9]{1,2}", part) and int(part) <= 25:
                points.append(int(part))
            else:
                raise WriteError(f"cannot write the play {play!r} in SGF: bad point {part!r}")
        if len(points) < 2:
            raise WriteError(f"cannot write the play {play!r} in SGF: {token!r} is not a move")
        pairs = list(itertools.pairwise(points))
        for start, end in pairs * repeat:
            if start == _OFF or end == _BAR:
                raise WriteError(f"cannot write the play {play!r} in SGF: {token!r}")
            first = "z" if start == _ENTERING else _point_letter(start, player)
            letters.append(first + _point_letter(end, player))
    return "".join(letters)


def _play_to_value(play: str, player: int) -> str:
    """The letters of a play; an Acey-Deucey 1-2 (R11.2) adds its doubles, written
    twice, and their moves: ``zwzx66zszszszs``."""
    first, doubles, second = split_acey_deucey(play)
    letters = _play_to_letters(first, player)
    if doubles is None:
        return letters
    rest = "" if second.strip().lower() == "no move" else _play_to_letters(second, player)
    return f"{letters}{doubles}{doubles}{rest}"


# --------------------------------------------------------------------------- analysis


def _int(word: str) -> int:
    """An integer of GNU Backgammon's analysis; ``ValueError`` for anything else."""
    return read_int(word.strip(), "an integer", signed=True)


def _shorten(value: str, width: int = 40) -> str:
    """A property value to quote in a message, cut when long."""
    return value if len(value) <= width else value[:width] + "..."


def _floats(words: list[str], start: int, count: int) -> tuple[float, ...]:
    return tuple(float(word) for word in words[start : start + count])


def _eval_context(words: list[str], i: int, *, reduced: bool) -> tuple[dict[str, Any], int]:
    plies = words[i]
    info: dict[str, Any] = {"plies": _int(plies.rstrip("C")), "cubeful": plies.endswith("C")}
    i += 1
    if reduced:
        info["reduced"] = _int(words[i])
        i += 1
    info["deterministic"] = _int(words[i])
    info["noise"] = float(words[i + 1])
    i += 2
    if i < len(words):
        info["prune"] = _int(words[i])
        i += 1
    return info, i


def _keyword_floats(
    words: list[str], keyword: str, count: int, start: int = 0
) -> tuple[float, ...] | None:
    try:
        k = words.index(keyword, start)
    except ValueError:
        return None
    return _floats(words, k + 1, count)


def _rollout(words: list[str], *, is_move: bool) -> dict[str, Any]:
    info: dict[str, Any] = {"eval": words[0]}
    if "ver" in words:
        info["version"] = _int(words[words.index("ver") + 1])
    if is_move and "Score" in words:
        k = words.index("Score")
        info["score"], info["score2"] = float(words[k + 1]), float(words[k + 2])
    if "Trials" in words:
        info["trials"] = _int(words[words.index("Trials") + 1])
    if is_move:
        info["output"] = _keyword_floats(words, "Output", 7)
        info["stddev"] = _keyword_floats(words, "StdDev", 7)
    else:
        k = words.index("DoubleTake") if "DoubleTake" in words else len(words)
        info["no_double"] = _keyword_floats(words[:k], "Output", 7)
        info["no_double_stddev"] = _keyword_floats(words[:k], "StdDev", 7)
        info["double_take"] = _keyword_floats(words, "Output", 7, k)
        info["double_take_stddev"] = _keyword_floats(words, "StdDev", 7, k)
    if "RC" in words:
        info["settings"] = " ".join(words[words.index("RC") :])
    return info


def _candidate(value: str, player: int) -> dict[str, Any]:
    move, _, rest = value.partition(" ")
    words = rest.split()
    info: dict[str, Any] = {"play": _letters_to_play(move, player), "sgf": move}
    if not words:
        info["eval"] = None
        return info
    if words[0] == "E":
        i = 1
        version = 0
        if words[i] == "ver":
            version = _int(words[i + 1])
            i += 2
        info.update(eval="E", version=version)
        info["probabilities"] = _floats(words, i, 5)
        info["equity"] = float(words[i + 5])
        context, _ = _eval_context(words, i + 6, reduced=True)
        info.update(context)
        return info
    if words[0] in ("R", "X"):
        info.update(_rollout(words, is_move=True))
        return info
    raise ParseError(f"unknown evaluation type {words[0]!r}")


def _cube(value: str) -> dict[str, Any]:
    words = value.split()
    if not words:
        raise ParseError("empty cube analysis")
    if words[0] in ("R", "X"):
        return _rollout(words, is_move=False)
    if words[0] != "E":
        raise ParseError(f"unknown evaluation type {words[0]!r}")
    info: dict[str, Any] = {"eval": "E"}
    i = 1
    version = 0
    if words[i] == "ver":
        version = _int(words[i + 1])
        i += 2
    info["version"] = version
    if version < 2:
        info["legacy"] = _floats(words, i, 4)
        i += 4
    context, i = _eval_context(words, i, reduced=version < 3)
    info.update(context)
    info["no_double"] = _floats(words, i, 7)
    info["double_take"] = _floats(words, i + 7, 7)
    if len(info["double_take"]) != 7:
        raise ParseError("expected 14 numbers after the evaluation settings")
    return info


def _analysis(node: SgfNode, player: int) -> dict[str, Any] | None:
    """Parse the analysis properties of a node; raises ValueError/IndexError on bad text."""
    raw = {prop.name: list(prop.values) for prop in node.properties if prop.name in _ANALYSIS_NAMES}
    if not raw:
        return None
    info: dict[str, Any] = {}
    if "A" in raw:
        values = raw["A"]
        info["moves"] = {
            "played": _int(values[0]),
            "candidates": [_candidate(v, player) for v in values[1:]],
            "marked": [_int(w) for w in " ".join(raw.get("MR", [])).split()],
        }
    if "DA" in raw:
        info["cube"] = _cube(raw["DA"][0])
    if "CR" in raw:
        info["cube_marked"] = True
    if "LU" in raw:
        info["luck"] = float(raw["LU"][0])
    for name in ("GB", "GW"):
        if name in raw:
            very = raw[name][0].strip() == "2"
            good = _COLOURS.index(name[1]) == player
            info["luck_rating"] = ("very " if very else "") + ("good" if good else "bad")
    for name, key in _SKILL.items():
        if name in raw:
            info[key] = (
                "doubtful"
                if name in ("DO", "DC")
                else "very bad"
                if raw[name][0].strip() == "2"
                else "bad"
            )
    info["raw"] = raw
    return info


# --------------------------------------------------------------------------- reading

# Root properties read into RawGame/RawMatch fields or actions; the rest are headers.
_NOT_HEADERS = frozenset(
    {"MI", "RE", "RU", "GS", "PW", "PB", "WR", "BR", "B", "W", "PL", "DI", "C", *_ANALYSIS, *_SETUP}
)


@dataclass(frozen=True)
class _Roll:
    """A ``PL[..]DI[..]`` node: a roll with no move written."""

    player: int
    dice: tuple[int, int] | None
    loc: Location
    analysis: dict[str, Any] | None
    comment: str | None

    def action(self) -> RawAction:
        return RawAction(
            player=self.player,
            kind="move",
            dice=self.dice,
            play=None,
            analysis=self.analysis,
            comment=self.comment,
            loc=self.loc,
        )


def _doubled(cube: int) -> int:
    """The cube a double offers, counted no further than past the highest cube a
    Match ID records: the replay refuses a double beyond it (R9.6)."""
    return 2 * cube if cube <= HIGHEST_CUBE else cube


def _resolve_events(
    events: list[RawAction | _Roll], cube: int
) -> tuple[list[RawAction], list[_Roll]]:
    """Name the cube actions (beaver, raccoon), count the cube, place the bare rolls.

    Returns the actions and the rolls left at the end of the game.
    """
    actions: list[RawAction] = []
    pending: list[_Roll] = []
    offer: int | None = None
    chain = 0
    for action in events:
        if isinstance(action, _Roll):
            pending.append(action)
            continue
        if not pending and action.kind == "move":
            actions.append(action)  # nearly every action: nothing to name or place
            continue
        for k, roll in enumerate(pending):
            # GNU Backgammon may write the dice before the move made with them (once: a
            # roll before that is a roll of its own, whose play is not written)
            same = (
                k == len(pending) - 1
                and action.kind == "move"
                and action.player == roll.player
                and action.dice is not None
                and roll.dice is not None
                and sorted(action.dice) == sorted(roll.dice)
            )
            if not same:
                actions.append(roll.action())
        pending = []
        if action.kind == "double":
            previous = actions[-1] if actions else None
            if (
                offer is not None
                and previous is not None
                and previous.player != action.player
                and previous.kind in ("double", "beaver", "raccoon")
            ):
                chain += 1
                offer = _doubled(offer)
                kind = "beaver" if chain == 1 else "raccoon"
            else:
                chain, offer, kind = 0, _doubled(cube), "double"
            action = RawAction(
                player=action.player,
                kind=kind,
                cube=offer,
                analysis=action.analysis,
                comment=action.comment,
                loc=action.loc,
            )
        elif action.kind == "take":
            cube = offer if offer is not None else cube
            offer, chain = None, 0
        elif action.kind == "drop":
            offer, chain = None, 0
        actions.append(action)
    return actions, pending


class _GameReader:
    def __init__(
        self, text: _Text, tree: SgfTree, index: int, log: ProblemLog, *, headers: bool = True
    ) -> None:
        self.text = text
        self.tree = tree
        self.index = index
        self.log = log
        # whether to read the root's headers and where its properties are: the match's,
        # taken from its first game
        self.headers = headers
        self.problems: list[ParseError] = []

    def problem(self, offset: int, message: str) -> None:
        error = self.log.add(self.text.loc(offset), message)  # raises unless collecting
        if error is not None:
            self.problems.append(error)

    def read(self) -> tuple[RawGame, dict[str, Any]]:
        nodes = self.tree.main_line()
        root = nodes[0]
        info = self.root_info(root)
        events: list[RawAction | _Roll] = []
        record = events.append
        plain_move = RawAction.plain_move
        text = self.text
        for node in nodes:
            if type(node) is tuple:
                # the node of nearly every action, a move and nothing else (kept compact by
                # _read_trees): read before, or read as the node it stands for
                seen = _PLAIN_MOVES.get(node[1:3])
                if seen is not None:
                    record(plain_move(seen[0], seen[1], seen[2], _LocationAt(text, node[3])))
                    continue
                node = _OneValueNode(*node)
            self.read_node(node, events, node is root)
        actions, pending = _resolve_events(events, info["cube"])
        result = info["result"]
        if result is not None and result[2]:  # "R": the loser resigned
            winner, _, _, loc = result
            resign = _Roll(1 - winner, None, loc, None, None)
            if pending and pending[-1].player == 1 - winner:
                resign = pending.pop()  # the roll the loser resigned after
            actions.extend(roll.action() for roll in pending)
            pending = []
            actions.append(
                RawAction(
                    player=resign.player,
                    kind="resign",
                    dice=resign.dice,
                    analysis=resign.analysis,
                    comment=resign.comment,
                    loc=resign.loc,
                )
            )
        actions.extend(roll.action() for roll in pending)
        if result is not None:
            winner, points, _, loc = result
            actions.append(RawAction(player=winner, kind="win", points=points, loc=loc))
        complete = result is not None and self.tree_complete()
        if result is not None and not complete:
            self.problem(
                self.tree.offset,
                f"game {info['number']} is cut short: its moves end before the closing ')'",
            )
        game = RawGame(
            number=info["number"],
            players=info["players"],
            ratings=info["ratings"],
            scores=info["scores"],
            actions=tuple(actions),
            complete=complete,
            rules=info["rules"],
            cube=info["cube"],
            problems=tuple(self.problems),
            loc=self.text.loc(self.tree.offset),
        )
        return game, info

    def tree_complete(self) -> bool:
        tree: SgfTree | None = self.tree
        while tree is not None:
            if not tree.closed:
                return False
            tree = tree.children[0] if tree.children else None
        return True

    def root_info(self, root: SgfNode) -> dict[str, Any]:
        info: dict[str, Any] = {
            "number": self.index + 1,
            "scores": None,
            "length": None,
            "rules": (),
            "result": None,
            "cube": 1,
            "headers": {},
        }
        gm = root.get("GM")
        if gm is None or gm.values[0].strip() != "6":
            where = gm.offset if gm else root.offset
            got = f"GM[{gm.values[0]}]" if gm else "no GM property"
            self.problem(where, f"not a backgammon game: expected GM[6], got {got}")
        mi = root.get("MI")
        scores: list[int | None] = [None, None]
        if mi:
            info["length_loc"] = self.text.loc(mi.offset)
            for value in mi.values:
                key, _, number = value.partition(":")
                key = key.strip().lower()
                if key not in ("length", "game", "ws", "bs"):
                    continue
                n = parse_int(number.strip())
                if n is None:
                    self.problem(mi.offset, f"expected a number in MI[{_shorten(value)}]")
                    continue
                if key != "game" and n > MAX_MATCH_LENGTH:
                    self.problem(
                        mi.offset,
                        f"MI[{_shorten(value)}]: a match length or score is "
                        f"at most {MAX_MATCH_LENGTH} (what a Match ID can record)",
                    )
                    continue
                if key == "length":
                    info["length"] = n
                elif key == "game":
                    info["number"] = n + 1
                else:
                    scores[0 if key == "ws" else 1] = n
        if scores[0] is not None or scores[1] is not None:
            info["scores"] = (scores[0] or 0, scores[1] or 0)
        players, ratings = [], []
        for name_key, rating_key in (("PW", "WR"), ("PB", "BR")):
            # a name as a .mat file holds it: on one line, without white space around it,
            # and a FIBS-style rating ('massie,1522') split off as the .mat reader splits it
            name, rating = split_rating((root.value(name_key) or "").replace("\n", " ").strip())
            written = (root.value(rating_key) or "").replace("\n", " ").strip()
            players.append(name)
            ratings.append(written or rating)
        info["players"] = tuple(players)
        info["ratings"] = tuple(ratings)
        ru = root.get("RU")
        if ru:
            rules = tuple(part for part in ru.values[0].split(":") if part)
            info["rules"] = rules
            info["rules_loc"] = self.text.loc(ru.offset)
        cv = root.value("CV")
        if cv is not None:
            cube = parse_int(cv.strip())
            if cube is not None and cube <= HIGHEST_CUBE:
                info["cube"] = cube
            else:
                where = root.get("CV").offset  # type: ignore[union-attr]
                self.problem(
                    where, f"expected a cube value (at most {HIGHEST_CUBE}) in CV[{_shorten(cv)}]"
                )
        re_prop = root.get("RE")
        if re_prop:
            value = re_prop.values[0].strip()
            match = _RESULT.match(value)
            if match:
                winner = _COLOURS.index(match.group(1).upper())
                points = int(match.group(2)) if match.group(2) else None
                info["result"] = (
                    winner,
                    points,
                    bool(match.group(3)),
                    self.text.loc(re_prop.offset),
                )
            elif value.lower() not in _NO_RESULT:
                self.problem(
                    re_prop.offset, f"expected a result like RE[W+2] or RE[B+1R], got RE[{value}]"
                )
        info["locations"] = {}
        if self.headers:
            for prop in root.properties:
                info["locations"].setdefault(prop.name, self.text.loc(prop.offset))
                if prop.name not in _NOT_HEADERS:
                    info["headers"].setdefault(prop.name, prop.values[0])
        return info

    def read_node(self, node: SgfNode, events: list[RawAction | _Roll], is_root: bool) -> None:
        properties = node.properties
        if len(properties) == 1 and properties[0].name in _COLOURS_NAMES:
            # the node of nearly every action, a move and nothing else: read straight away
            prop = properties[0]
            comment = None
            analysed = False
        else:
            found = self.node_move(node, events, is_root)
            if found is None:
                return
            prop, comment, analysed = found
        player = _COLOURS.index(prop.name)
        value = prop.values[0].strip()
        loc = self.text.loc(prop.offset)
        word = value.lower()
        analysis = self.node_analysis(node, player) if analysed else None
        if word in ("double", "take", "drop"):
            events.append(
                RawAction(player=player, kind=word, analysis=analysis, comment=comment, loc=loc)
            )
            return
        if len(value) <= _MOVE_VALUE_CACHED:
            read = _move_value(value, player)
        else:
            read = _read_move_value(value, player)
        if isinstance(read, str):
            self.problem(prop.offset, read)
            return
        dice, play = read
        if len(properties) == 1 and len(value) <= _MOVE_VALUE_CACHED:
            if len(_PLAIN_MOVES) >= _MOVE_VALUE_KEPT:
                _PLAIN_MOVES.clear()
            _PLAIN_MOVES[prop.name, prop.values[0]] = (player, dice, play)
        events.append(
            RawAction(
                player=player,
                kind="move",
                dice=dice,
                play=play,
                analysis=analysis,
                comment=comment,
                loc=loc,
            )
        )

    def node_move(
        self, node: SgfNode, events: list[RawAction | _Roll], is_root: bool
    ) -> tuple[SgfProperty, str | None, bool] | None:
        """A node's move (``B`` or ``W``), its comment and whether it is analysed; or
        None when the node holds no move, its problem listed or its roll (``DI``) in
        ``events``."""
        moves = []
        setup = []
        commented = analysed = False
        dice_prop = None
        for prop in node.properties:
            name = prop.name
            if name == "B" or name == "W":
                moves.append(prop)
            elif name == "C":
                commented = True
            elif name == "DI":
                dice_prop = dice_prop or prop
            elif name in _SETUP:
                setup.append(prop)
            elif name in _ANALYSIS_NAMES:
                analysed = True
        comment = node.value("C") if commented else None
        if setup and not (is_root and all(p.name == "CV" for p in setup)):
            self.problem(
                setup[0].offset,
                f"position edits ({setup[0].name}) are not "
                "supported: the record must be a game played from the start",
            )
            return None
        if len(moves) > 1:
            self.problem(moves[1].offset, "two moves in one node")
            moves = moves[:1]
        if not moves and dice_prop is not None:
            pl = node.value("PL")
            if pl is None or pl.strip().upper() not in ("W", "B"):
                self.problem(dice_prop.offset, "expected PL[W] or PL[B] with DI[...]")
                return None
            player = _COLOURS.index(pl.strip().upper())
            value = dice_prop.values[0].strip()
            if not re.fullmatch(r"[1-6][1-6]", value):
                self.problem(dice_prop.offset, f"expected dice like DI[63], got DI[{value}]")
                return None
            analysis = self.node_analysis(node, player) if analysed else None
            loc = self.text.loc(node.get("PL").offset)  # type: ignore[union-attr]
            events.append(_Roll(player, (int(value[0]), int(value[1])), loc, analysis, comment))
            return None
        if not moves:
            return None
        return moves[0], comment, analysed

    def node_analysis(self, node: SgfNode, player: int) -> dict[str, Any] | None:
        try:
            return _analysis(node, player)
        except (ValueError, IndexError) as exc:
            bad = next(
                (p for p in node.properties if p.name in _ANALYSIS_NAMES), node.properties[0]
            )
            self.problem(bad.offset, f"unreadable analysis property {bad.name}: {exc}")
            return None


def parse_sgf(source: Source, *, errors: Errors = "raise") -> RawMatch:
    """Read the backgammon games (``GM[6]``) of an SGF file into a RawMatch.

    Parameters
    ----------
    source : path, str, bytes or file
        A path, the SGF text, its bytes, or an open file.
    errors : {'raise', 'collect'}, default 'raise'
        ``'raise'``: raise a :class:`~gammonlab.errors.ParseError` at the first
        problem. ``'collect'``: skip unreadable nodes (and games that are not
        backgammon), keep the rest and list the problems in ``problems``.

    Examples
    --------
    >>> raw = parse_sgf("(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[w]PB[b]RE[B+1R]"
    ...                 "\\n;B[43lplo]\\n;W[double]\\n;B[take]\\n;PL[W]DI[11])")
    >>> [(a.player, a.kind, a.dice, a.cube) for a in raw.games[0].actions]
    [(1, 'move', (4, 3), None), (0, 'double', None, 2), (1, 'take', None, None), \
(0, 'resign', (1, 1), None), (1, 'win', None, None)]
    """
    collect = collects(errors)
    loaded, note = load_transcript(source, collect=collect)
    text = _Text(loaded.text, loaded.name)
    log = ProblemLog(collect=collect)
    trees = _read_trees(text, log, compact=True)
    if not any(tree.nodes for tree in trees) and not log.items:
        log.add(text.loc(0), "no game found: expected '(;GM[6]...'")
    games: list[RawGame] = []
    infos: list[dict[str, Any]] = []
    for index, tree in enumerate(trees):
        if not tree.nodes:
            continue
        # the match's headers are its first game's
        reader = _GameReader(text, tree, index, log, headers=not infos)
        game, info = reader.read()
        gm = tree.nodes[0].value("GM")
        if gm is None or gm.strip() != "6":
            continue  # recorded as a problem by the reader
        games.append(game)
        infos.append(info)
    first = infos[0] if infos else None
    length, parts, locations = _match_rules(games, infos, log)
    return RawMatch(
        format="sgf",
        source=loaded.name,
        encoding=loaded.encoding,
        headers=first["headers"] if first else {},
        match_length=length,
        players=games[0].players if games else ("", ""),
        ratings=games[0].ratings if games else (None, None),
        variant=_variant_of(parts),
        games=tuple(games),
        problems=(note, *log.listed()) if note else log.listed(),
        locations=locations,
        rule_parts=parts,
    )


_ONE_GAMES_PARTS = frozenset({"crawfordgame", "nocrawfordgame"})
"""The ``RU`` parts that state something of one game, not of the match's rules."""


def _match_parts(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The parts of an ``RU`` property that state the match's rules, as written."""
    return tuple(part for part in parts if part.lower() not in _ONE_GAMES_PARTS)


def _rule_key(parts: tuple[str, ...]) -> tuple[str, ...]:
    """:func:`_match_parts` in a form to compare: case and order ignored."""
    return tuple(sorted({part.lower() for part in _match_parts(parts)}))


def _variant_of(parts: tuple[str, ...]) -> str | None:
    variant = None
    for part in parts:
        if part.lower() in _VARIANTS:
            variant = _VARIANTS[part.lower()]
    return variant


def _match_rules(
    games: list[RawGame], infos: list[dict[str, Any]], log: ProblemLog
) -> tuple[int | None, tuple[str, ...], dict[str, Location]]:
    """The match length and ``RU`` parts of a match: each game's root states them,
    and the match's are those most of its games state (the earliest game's on a
    tie), so that one damaged root does not change the rules of every game. A game
    stating others is a problem at its ``MI`` or ``RU`` (it is read under the
    match's). Returns the length (``None``: no game states one), the parts (the
    chosen game's, ``CrawfordGame`` left out) and the header locations."""
    locations: dict[str, Location] = dict(infos[0]["locations"]) if infos else {}
    lengths = [info["length"] for info in infos if info["length"] is not None]
    length = max(lengths, key=lengths.count) if lengths else None
    stated = [info for info in infos if "rules_loc" in info]
    parts: tuple[str, ...] = ()
    if stated:
        keys = [_rule_key(info["rules"]) for info in stated]
        chosen = stated[keys.index(max(keys, key=keys.count))]
        parts = _match_parts(chosen["rules"])
        locations["RU"] = chosen["rules_loc"]
        key = _rule_key(parts)
        wanted = ":".join(parts)
        for info, game in zip(infos, games, strict=True):
            if "rules_loc" in info and _rule_key(info["rules"]) != key:
                log.add(
                    info["rules_loc"],
                    f"game {game.number}: RU[{_shorten(':'.join(info['rules']))}] is not the "
                    f"match's rules, RU[{_shorten(wanted)}] as most of its games state: "
                    "read under those",
                )
    for info, game in zip(infos, games, strict=True):
        if info["length"] is not None and info["length"] != length:
            log.add(
                info["length_loc"],
                f"game {game.number}: MI[length:{info['length']}] is not the match's length, "
                f"{length} as most of its games state: read as a game of that match",
            )
    return length, parts, locations


# --------------------------------------------------------------------------- writing

_HEADER_TO_SGF = {
    "Event": "EV",
    "Round": "RO",
    "Site": "PC",
    "EventDate": "DT",
    "Transcriber": "AN",
    "Annotator": "AN",
    "Comment": "GC",
}
_WRITTEN_BY_US = frozenset(
    {"FF", "GM", "CA", "AP", "MI", "PW", "PB", "WR", "BR", "RU", "RE", "CV", "GS"}
)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _match_headers(raw: RawMatch) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for key, value in raw.headers.items():
        name = _HEADER_TO_SGF.get(key, key)
        if not re.fullmatch(r"[A-Z]{1,2}", name) or name in _WRITTEN_BY_US or name in seen:
            continue
        if name == "DT":
            value = re.sub(r"^([0-9]{4})\.([0-9]{2})\.([0-9]{2})$", r"\1-\2-\3", value)
        if value:
            seen.add(name)
            out.append((name, value))
    return out


def _variant_rule(variant: str | None) -> str | None:
    if not variant:
        return None
    key = variant.lower().replace(" ", "").replace("-", "")
    return _VARIANTS.get(key)


def format_sgf(raw: RawMatch) -> str:
    """Write a :class:`~gammonlab.io.raw.RawMatch` as GNU Backgammon SGF (``GM[6]``).

    One game tree per game, one node per action, the result as ``RE``.
    Plays in any ``.mat`` spelling are converted to point letters (hits are
    not written). A resignation is written as ``R`` in the result (and its
    roll, if any, as ``PL[..]DI[..]``); resignations that are rejected, and
    accept/reject actions, have no SGF form and are left out. Analysis read
    from an SGF file is written back as it was.

    ``parse_sgf(format_sgf(raw))`` gives the same actions as ``raw`` when
    ``raw`` was read from SGF.

    >>> raw = parse_sgf("(;GM[6]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1]\\n;W[31hefe])")
    >>> print(format_sgf(raw), end="")
    (;FF[4]GM[6]CA[UTF-8]AP[gammonlab]MI[length:1][game:0][ws:0][bs:0]PW[a]PB[b]RE[W+1]
    ;W[31hefe])
    """
    out: list[str] = []
    variant_rule = _variant_rule(raw.variant)
    for index, game in enumerate(raw.games):
        head = ["(;FF[4]GM[6]CA[UTF-8]AP[gammonlab]"]
        mi = []
        if raw.match_length is not None:
            mi.append(f"[length:{raw.match_length}]")
        mi.append(f"[game:{game.number - 1}]")
        if game.scores is not None:
            mi.append(f"[ws:{game.scores[0]}][bs:{game.scores[1]}]")
        head.append("MI" + "".join(mi))
        head.append(f"PW[{_escape(game.players[0])}]PB[{_escape(game.players[1])}]")
        for name, rating in zip(("WR", "BR"), game.ratings, strict=True):
            if rating:
                head.append(f"{name}[{_escape(rating)}]")
        if index == 0:
            head.extend(f"{name}[{_escape(value)}]" for name, value in _match_headers(raw))
        rules = list(game.rules)
        if variant_rule and variant_rule not in rules:
            rules.append(variant_rule)
        if rules:
            head.append(f"RU[{_escape(':'.join(rules))}]")
        if game.cube != 1:
            head.append(f"CV[{game.cube}]")  # R10.5: the cube turned before play
        actions = list(game.actions)
        wins = [a for a in actions if a.kind == "win"]
        resigned_with: RawAction | None = None
        if wins:
            win = wins[-1]
            loser = 1 - win.player
            for k, action in enumerate(actions):
                if action.kind == "resign" and action.player == loser:
                    answer = actions[k + 1] if k + 1 < len(actions) else None
                    if answer is None or answer.kind != "reject":
                        resigned_with = action
            points = "" if win.points is None else str(win.points)
            head.append(f"RE[{_COLOURS[win.player]}+{points}{'R' if resigned_with else ''}]")
        elif actions and actions[-1].kind == "resign" and actions[-1].points is not None:
            # a resignation that is the game's result ('Resigns 1', no 'Wins' line)
            resigned_with = actions[-1]
            winner = _COLOURS[1 - resigned_with.player]
            head.append(f"RE[{winner}+{resigned_with.points}R]")
        out.append("".join(head))
        for action in actions:
            colour = _COLOURS[action.player]
            if action.kind == "move":
                if action.dice is None:
                    raise WriteError("a 'move' action needs dice to be written in SGF")
                dice = f"{action.dice[0]}{action.dice[1]}"
                if action.play is None:
                    node = f";PL[{colour}]DI[{dice}]"
                else:
                    node = f";{colour}[{dice}{_play_to_value(action.play, action.player)}]"
            elif action.kind in ("double", "beaver", "raccoon"):
                node = f";{colour}[double]"
            elif action.kind in ("take", "drop"):
                node = f";{colour}[{action.kind}]"
            elif action.kind == "resign" and action is resigned_with and action.dice:
                node = f";PL[{colour}]DI[{action.dice[0]}{action.dice[1]}]"
            else:
                continue  # win is RE; other resignation actions have no SGF form
            if action.analysis and action.analysis.get("raw"):
                for name, values in action.analysis["raw"].items():
                    node += name + "".join(f"[{_escape(v)}]" for v in values)
            if action.comment:
                node += f"C[{_escape(action.comment)}]"
            out.append("\n" + node)
        out.append(")\n")
    return "".join(out)
