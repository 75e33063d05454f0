"""SVG boards: well-formed, every checker readable back, arrows, hits, numbering, options."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import gammonlab as gl
from gammonlab.draw import svg
from gammonlab.rules import BAR, OFF

NS = "{http://www.w3.org/2000/svg}"
VARIANTS = (
    "standard",
    "nackgammon",
    "nackgammon-004",
    "hypergammon-1",
    "hypergammon-2",
    "hypergammon-3",
)


def parse(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def classes(element: ET.Element) -> list[str]:
    return element.get("class", "").split()


def elements(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in classes(e)]


def read_board(picture: str) -> np.ndarray:
    """The (2, 26) board as the SVG shows it, checking that drawing and data agree."""
    board = np.zeros((2, 26), dtype=int)
    for group in parse(picture).iter(f"{NS}g"):
        kind = group.get("class")
        if kind not in ("point", "bar", "off"):
            continue
        side, point = int(group.get("data-side")), int(group.get("data-point"))
        player = int(group.get("data-player"))
        checkers = [e for e in group if "checker" in classes(e)]
        assert all(f"player-{player}" in classes(e) for e in checkers)
        assert all(int(e.get("data-point")) == point for e in checkers)
        labels = [e.text for e in group if "count" in classes(e)]
        if point == OFF:
            assert kind == "off"
            assert all(e.tag == f"{NS}rect" for e in checkers)
            shown = len(checkers)
            assert labels == [str(shown)]
        else:
            assert kind == ("bar" if point == BAR else "point")
            assert all(e.tag == f"{NS}circle" for e in checkers)
            assert len(checkers) == min(int(group.get("data-count")), svg.MAX_STACK)
            if labels:  # a tall stack: the count is written on the top checker
                assert len(checkers) == svg.MAX_STACK
                shown = int(labels[0])
                assert shown > svg.MAX_STACK
            else:
                shown = len(checkers)
        assert shown == int(group.get("data-count"))
        assert board[side, point] == 0, "one group per side and point"
        board[side, point] = shown
    return board


def random_positions(variant: str, rng: np.random.Generator, plies: int) -> list[gl.Position]:
    pos = gl.Position.initial(variant)
    seen = [pos]
    for _ in range(plies):
        if pos.is_game_over:
            break
        dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
        plays = pos.legal_plays(dice)
        pos = plays[int(rng.integers(len(plays)))].position if len(plays) else pos.swapped()
        seen.append(pos)
    return seen


def crafted_positions() -> list[gl.Position]:
    """Tall stacks (6 to 15), checkers on the bar, checkers borne off."""
    boards = []
    for tall in (6, 9, 15):
        b = np.zeros((2, 26), dtype=int)
        b[0, 6] = tall
        b[0, 0] = 15 - tall
        b[1, 24] = 14
        b[1, BAR] = 1
        boards.append(b)
    b = np.zeros((2, 26), dtype=int)
    b[0, BAR] = 7
    b[0, 13] = 8
    b[1, 0] = 12
    b[1, 1] = 3
    boards.append(b)
    b = np.zeros((2, 26), dtype=int)
    b[0, 0] = 14
    b[0, 1] = 1
    b[1, 0] = 0
    b[1, 23] = 11
    b[1, BAR] = 4
    boards.append(b)
    return [gl.Position.from_board(board) for board in boards]


@pytest.fixture(scope="module")
def positions() -> list[gl.Position]:
    rng = np.random.default_rng(6)
    found = crafted_positions()
    for variant in VARIANTS:
        for _ in range(2):
            found += random_positions(variant, rng, plies=80)[::3]
    return found


# -- every checker is drawn and can be read back ---------------------------------------------


def test_every_checker_reads_back_for_both_sides(positions):
    assert len(positions) > 100
    for pos in positions:
        picture = svg.board(pos)
        assert np.array_equal(read_board(picture), pos.board), repr(pos)


def test_tall_stacks_bar_and_off_are_all_exercised(positions):
    boards = np.array([pos.board for pos in positions])
    assert boards[:, :, 1:BAR].max() >= 15
    assert (boards[:, :, BAR] > 0).any() and (boards[:, :, OFF] > 0).any()
    assert {pos.variant.checkers for pos in positions} == {1, 2, 3, 15}


def test_orientation_and_flip_keep_every_checker(positions):
    for pos in positions[:40]:
        for options in ({"flip": True}, {"player": 1}, {"flip": True, "player": 1}):
            assert np.array_equal(read_board(svg.board(pos, **options)), pos.board)


def test_game_state_checkers_are_tagged_by_absolute_player():
    pos = crafted_positions()[0]
    state = gl.GameState(pos, on_roll=1, dice=(4, 2))
    picture = svg.board(state)
    assert np.array_equal(read_board(picture), pos.board)
    on_roll = [g for g in parse(picture).iter(f"{NS}g") if g.get("data-side") == "0"]
    assert on_roll and all(g.get("data-player") == "1" for g in on_roll)


def test_hypergammon_and_nackgammon_start_as_their_setups():
    for variant in ("hypergammon-1", "hypergammon-3", "nackgammon", "nackgammon-004"):
        pos = gl.Position.initial(variant)
        picture = svg.board(pos)
        assert np.array_equal(read_board(picture), pos.board)
        assert len(elements(parse(picture), "checker")) == 2 * pos.variant.checkers


# -- plays: arrows and hits ------------------------------------------------------------------


def journeys_in_notation(notation: str) -> int:
    """Checkers that moved, as the notation counts them: ``8/5(2) 6/5`` is 3."""
    total = 0
    for token in notation.split():
        repeat = re.search(r"\((\d)\)$", token)
        total += int(repeat.group(1)) if repeat else 1
    return total


def test_one_arrow_per_checker_journey_and_hits_are_marked():
    rng = np.random.default_rng(11)
    checked = hits_seen = 0
    for variant in ("standard", "nackgammon", "hypergammon-3"):
        for pos in random_positions(variant, rng, plies=80)[::2]:
            dice = tuple(int(d) for d in rng.integers(1, 7, size=2))
            for play in list(pos.legal_plays(dice))[:4]:
                picture = svg.board(play)
                root = parse(picture)
                arrows = elements(root, "arrow")
                assert len(arrows) == journeys_in_notation(play.notation), play
                paths = sorted(a.get("data-path") for a in arrows)
                assert paths == sorted("/".join(map(str, p)) for p in svg.checker_journeys(play))
                marked = sorted(int(e.get("data-point")) for e in elements(root, "hit"))
                assert marked == sorted(play.hits), play
                hits_seen += len(play.hits)
                assert np.array_equal(read_board(picture), play.before.board)
                checked += 1
    assert checked > 200 and hits_seen > 10


def test_opening_plays_draw_the_expected_arrows():
    pos = gl.Position.initial()
    play = pos.find_play("24/13", (6, 5))
    (arrow,) = elements(parse(svg.board(play)), "arrow")
    assert (arrow.get("data-from"), arrow.get("data-to")) == ("24", "13")
    play = pos.find_play("8/5 6/5", (3, 1))
    assert sorted(a.get("data-path") for a in elements(parse(svg.board(play)), "arrow")) == [
        "6/5",
        "8/5",
    ]
    play = pos.find_play("13/9(2) 6/2(2)", (4, 4))
    assert len(elements(parse(svg.board(play)), "arrow")) == 4


def test_doubles_joined_per_checker():
    assert svg.checker_journeys([(13, 9), (9, 5), (13, 9), (9, 5)]) == [(13, 9, 5), (13, 9, 5)]
    assert svg.checker_journeys([(25, 20), (20, 14)]) == [(25, 20, 14)]
    assert svg.checker_journeys([(3, 0), (2, 0)]) == [(3, 0), (2, 0)]


def test_explicit_arrows_replace_a_plays_own():
    play = gl.Position.initial().find_play("24/13", (6, 5))
    assert elements(parse(svg.board(play, arrows=[])), "arrow") == []
    root = parse(svg.board(gl.Position.initial(), arrows=[(13, 7), (8, 7), (6, 0)]))
    assert sorted(a.get("data-path") for a in elements(root, "arrow")) == ["13/7", "6/0", "8/7"]
    assert elements(root, "hit") == []
    # blots of the opponent on 7 and 14: the arrows mark the one they land on
    pos = gl.Position.initial().play("24/18 13/11", (6, 2))
    root = parse(svg.board(pos, arrows=[(13, 7), (8, 7)]))
    assert [int(e.get("data-point")) for e in elements(root, "hit")] == [7]


def test_a_play_shows_its_dice_and_notation():
    root = parse(svg.board(gl.Position.initial().find_play("24/13", (6, 5))))
    assert sorted(int(d.get("data-value")) for d in elements(root, "die")) == [5, 6]
    assert [e.text for e in elements(root, "caption")] == ["6-5: 24/13"]


# -- numbering: flip and player --------------------------------------------------------------


def label_x(root: ET.Element) -> dict[int, float]:
    return {int(e.text): float(e.get("x")) for e in elements(root, "point-number")}


def checker_centres(root: ET.Element, side: int, point: int) -> list[tuple[float, float]]:
    for group in root.iter(f"{NS}g"):
        if group.get("data-side") == str(side) and group.get("data-point") == str(point):
            return [
                (float(c.get("cx")), float(c.get("cy"))) for c in group if "checker" in classes(c)
            ]
    return []


def middle_y(root: ET.Element) -> float:
    felts = [e for e in root if e.get("class") == "felt"]
    return float(felts[0].get("y")) + float(felts[0].get("height")) / 2


def test_home_board_on_the_right_unless_flipped():
    pos = gl.Position.initial()
    plain, flipped = parse(svg.board(pos)), parse(svg.board(pos, flip=True))
    xs, fxs = label_x(plain), label_x(flipped)
    assert xs[1] == max(xs.values()) and xs[12] < xs[7]
    assert fxs[1] == min(fxs.values()) and fxs[12] > fxs[7]
    # the 6-point stack of the side on roll follows its label
    assert checker_centres(plain, 0, 6)[0][0] == xs[6]
    assert checker_centres(flipped, 0, 6)[0][0] == fxs[6]
    assert checker_centres(plain, 0, 6)[0][1] > middle_y(plain)  # at the bottom


def test_player_option_draws_from_that_players_side():
    state = gl.GameState.initial(match_length=5).replace(on_roll=0, dice=(3, 1))
    root = parse(svg.board(state))
    mid = middle_y(root)
    xs = label_x(root)
    # by default the side on roll (player 0) sits at the bottom, numbered from its side
    x, y = checker_centres(root, 0, 24)[0]
    assert y < mid and x == xs[24]
    root = parse(svg.board(state, player=1))
    xs = label_x(root)
    x, y = checker_centres(root, 0, 24)[0]  # player 0's 24-point is player 1's 1-point
    assert y > mid and x == xs[1]
    names = [e.text for e in elements(root, "name")]
    bottom = max(elements(root, "name"), key=lambda e: float(e.get("y")))
    assert bottom.text == "Player 1" and "Player 0 \u00b7 on roll" in names


def test_player_option_on_a_position_puts_the_opponent_at_the_bottom():
    pos = gl.Position.initial().play("24/18 13/11", (6, 2))
    root = parse(svg.board(pos, player=1))
    assert checker_centres(root, 1, 6)[0][1] > middle_y(root)
    assert checker_centres(root, 0, 6)[0][1] < middle_y(root)
    assert checker_centres(root, 1, 6)[0][0] == label_x(root)[6]
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        svg.board(pos, player=2)


# -- cube, dice, score -----------------------------------------------------------------------


def cube_of(picture: str) -> tuple[ET.Element, float]:
    root = parse(picture)
    (cube,) = elements(root, "cube")
    rect = cube.find(f"{NS}rect")
    return cube, float(rect.get("y")) + float(rect.get("height")) / 2 - middle_y(root)


def test_cube_centred_owned_and_offered():
    state = gl.GameState.initial(match_length=7).replace(score=(2, 4))
    cube, dy = cube_of(svg.board(state))
    assert cube.get("data-owner") == "centre" and abs(dy) < 1
    assert cube.find(f"{NS}text").text == "64"
    owned = state.replace(cube_value=2, cube_owner=0)  # player 0 on roll, at the bottom
    cube, dy = cube_of(svg.board(owned))
    assert (cube.get("data-value"), cube.get("data-owner"), dy > 0) == ("2", "0", True)
    cube, dy = cube_of(svg.board(owned, player=1))
    assert dy < 0
    offered = state.replace(double_offered=True, turn=1)
    picture = svg.board(offered)
    cube, _ = cube_of(picture)
    assert (cube.get("data-owner"), cube.get("data-value")) == ("offered", "2")
    assert "doubles to 2" in picture
    assert elements(parse(svg.board(state, cube=False)), "cube") == []


def test_dice_score_and_match_line():
    state = gl.GameState.initial(match_length=7).replace(score=(2, 6), crawford=True, dice=(6, 2))
    picture = svg.board(state)
    root = parse(picture)
    assert sorted(int(d.get("data-value")) for d in elements(root, "die")) == [2, 6]
    assert "7-point match" in picture and "Crawford" in picture
    assert "score 2" in picture and "score 6" in picture
    assert "167 pips" in picture
    quiet = parse(svg.board(state, dice=False, score=False, pips=False))
    assert elements(quiet, "die") == []
    shown = " ".join(e.text for e in quiet.iter(f"{NS}text"))
    assert "score" not in shown and "pips" not in shown and "7-point" not in shown
    assert "money game" in svg.board(gl.GameState.initial())
    assert elements(parse(svg.board(gl.GameState.initial())), "die") == []


# -- other options ----------------------------------------------------------------------------


def test_numbering_highlight_colors_and_size():
    pos = gl.Position.initial()
    assert elements(parse(svg.board(pos, numbering=False)), "point-number") == []
    root = parse(svg.board(pos, highlight={5, 20, BAR, OFF}))
    assert sorted(int(e.get("data-point")) for e in elements(root, "highlight")) == [0, 5, 20, 25]
    with pytest.raises(ValueError, match="highlight"):
        svg.board(pos, highlight={30})
    assert 'fill="#123456"' in svg.board(pos, colors={"felt": "#123456"})
    with pytest.raises(KeyError, match="felt"):
        svg.board(pos, colors={"fleet": "#123456"})
    root = parse(svg.board(pos, size=960))
    assert root.get("width") == "960"
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    assert float(root.get("height")) == pytest.approx(960 * height / width, abs=0.01)
    assert "width" not in parse(svg.board(pos, size=None)).attrib


def test_the_bar_and_tray_highlights_are_those_of_the_side_on_roll():
    """With the side on roll drawn at the top (a two-player board, the top player to
    play), its bar and its tray light up on the top half, where its checkers are."""
    board = gl.Position.initial().board.copy()
    board[0, 24] -= 1
    board[0, BAR] = 1
    pos = gl.Position.from_board(board)
    for player in (0, 1):
        root = parse(svg.board(pos, highlight={BAR, OFF}, player=player))
        lit = {int(e.get("data-point")): e for e in elements(root, "highlight")}
        bar_checker = next(e for e in elements(root, "bar") if e.tag == f"{NS}g")
        cy = float(next(bar_checker.iter(f"{NS}circle")).get("cy"))
        top, height = float(lit[BAR].get("y")), float(lit[BAR].get("height"))
        assert top <= cy <= top + height, (player, top, height, cy)
        trays = sorted(float(e.get("y")) for e in elements(root, "tray"))
        assert float(lit[OFF].get("y")) == (trays[1] if player == 0 else trays[0])


def test_rejects_what_it_cannot_draw():
    with pytest.raises(TypeError, match=r"Position, a Play, a GameState or a match.s Action"):
        svg.board("4HPwATDgc/ABMA")  # type: ignore[arg-type]


# -- Jupyter display hooks -------------------------------------------------------------------


def test_display_hooks_of_position_play_and_state():
    pos = gl.Position.initial()
    play = pos.legal_plays((6, 5))[0]
    state = gl.GameState.initial(match_length=3).replace(dice=(6, 5))
    for item in (pos, play, state):
        picture = item._repr_svg_()
        assert isinstance(picture, str) and parse(picture).tag == f"{NS}svg"
    result = svg.board(pos)
    assert isinstance(result, svg.SVG) and isinstance(result, str)
    assert result._repr_svg_() == result


def test_svg_module_does_not_import_matplotlib():
    code = (
        "import sys, gammonlab, gammonlab.draw.svg as s; "
        "s.board(gammonlab.Position.initial()); sys.exit('matplotlib' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_results_show_their_position_as_a_board():
    """Match (its last position), rollout and cube results draw the board in Jupyter."""
    from gammonlab.cube.rollout import rollout_cube
    from gammonlab.io.samples import sample_matches

    match = gl.read_match(sample_matches()[0])
    state = gl.GameState.from_id("4HPwATDgc/ABMA")
    shown = [
        match._repr_html_(),
        gl.cube_decision(state, [0.7, 0.2, 0.01, 0.05, 0.0])._repr_html_(),
        gl.rollout(state.position, trials=36, seed=1, progress=False, n_jobs=1)._repr_html_(),
        rollout_cube(state, trials=36, seed=1, progress=False, n_jobs=1)._repr_html_(),
    ]
    for html in shown:
        assert html.count("<svg") == 1
        assert 'class="checker' in html


# -- the players' names -------------------------------------------------------------------------

MATCH_TEXT = """ 3 point match

 Game 1
 Anna : 0                           Bob : 0
  1) 31: 8/5 6/5                     42: 8/4 6/4
  2) 61: 13/7 8/7
"""


def names_shown(picture: str) -> list[str]:
    return [e.text for e in elements(parse(picture), "name")]


def test_an_action_of_a_match_is_drawn_with_the_players_names():
    match = gl.read_match(MATCH_TEXT)
    bob = match.actions[1]
    assert bob.players == ("Anna", "Bob")
    picture = svg.board(bob)
    assert names_shown(picture) == ["Bob \u00b7 on roll", "Anna"]
    root = parse(picture)
    assert [e.text for e in elements(root, "caption")] == ["4-2: 8/4 6/4 \u00b7 3-point match"]
    assert len(elements(root, "arrow")) == 2  # the play made, as arrows
    assert "Bob \u00b7 on roll 167 pips" in root.find(f"{NS}title").text
    assert bob._repr_svg_() == str(picture)


def test_names_given_label_a_play_a_position_or_a_state():
    match = gl.read_match(MATCH_TEXT)
    bob = match.actions[1]
    assert bob.play is not None
    assert names_shown(svg.board(bob.play, names=("Bob", "Anna"))) == ["Bob \u00b7 on roll", "Anna"]
    assert names_shown(svg.board(bob.state, names=match.players)) == ["Bob \u00b7 on roll", "Anna"]
    assert names_shown(svg.board(bob, names=("A", "B"))) == ["B \u00b7 on roll", "A"]
    with pytest.raises(gl.errors.ArgumentTypeError, match="two players' names"):
        svg.board(bob.play, names="Bob")


def test_without_names_the_sides_keep_their_generic_labels():
    match = gl.read_match(MATCH_TEXT)
    bob = match.actions[1]
    assert names_shown(svg.board(bob.play)) == ["On roll", "Opponent"]
    assert names_shown(svg.board(bob.state)) == ["Player 1 \u00b7 on roll", "Player 0"]
    assert names_shown(svg.board(gl.Position.initial())) == ["On roll", "Opponent"]
