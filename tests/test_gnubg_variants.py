"""GNU Backgammon's own transcripts of the variants and cube options read back.

The files in ``fixtures/gnubg_variants/`` were written by GNU Backgammon 1.07
(``fixtures/make_gnubg_variants.py`` says how): Nackgammon (R2.2) and
Hypergammon 1-3 (R2.5) matches, a Nackgammon money session with the Jacoby rule
(R10.1) and beavers (R10.6), and a money session with automatic doubles (R10.5).
Each reads with every play legal, the rules it was played under recovered, the
scores consistent, the ``.mat`` and the ``.sgf`` of one match giving one frame,
and gammonlab's own ``.mat`` and ``.sgf`` of it reading back the same.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import gammonlab as gl

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gnubg_variants"

MATCHES = {
    # name: (variant, match length)
    "nackgammon_3p": ("nackgammon", 3),
    "hypergammon1_3p": ("hypergammon-1", 3),
    "hypergammon2_3p": ("hypergammon-2", 3),
    "hypergammon3_3p": ("hypergammon-3", 3),
    "nackgammon_money_jacoby_beavers": ("nackgammon", 0),
}


def check_scores(match: gl.Match) -> None:
    """The score lines add up, and every result is what the game was worth."""
    score = [0, 0]
    for game in match.games:
        assert game.score == tuple(score)
        assert game.complete
        win = game.actions[-1]
        assert win.kind == "win" and win.points == game.points
        assert win.claimed_points in (game.points, None) or (
            match.match_length and score[game.winner] + win.claimed_points >= match.match_length
        )
        score[game.winner] += game.points
    if match.match_length:
        assert match.winner is not None and max(score) >= match.match_length


@pytest.mark.parametrize("name", list(MATCHES))
def test_gnubg_variant_files_read_with_their_rules(name, tmp_path):
    variant, length = MATCHES[name]
    mat = gl.read_match(FIXTURES / f"{name}.mat")
    sgf = gl.read_match(FIXTURES / f"{name}.sgf")
    for match in (mat, sgf):
        assert not match.problems
        assert match.rules.variant.name == variant
        assert match.match_length == length
        assert match.games[0].actions[0].state.position == gl.Position.initial(variant)
        check_scores(match)
        n = match.rules.variant.checkers
        for game in match.games:
            board = game.final_state.position.board
            assert board[0].sum() == board[1].sum() == n
    if length:
        assert mat.rules.crawford and sgf.rules.crawford  # RU[Crawford], GNU Backgammon's
        assert [g.crawford for g in mat.games] == [g.crawford for g in sgf.games]
    else:
        # GNU Backgammon's .mat does not say Jacoby, and its default is on; its .sgf
        # says so (RU[Jacoby])
        assert sgf.rules.jacoby and mat.rules.jacoby
        mat = gl.read_match(FIXTURES / f"{name}.mat", rules=sgf.rules)
        assert {"double", "take"} <= {a.kind for a in sgf.actions}
    assert mat.rules == sgf.rules
    pd.testing.assert_frame_equal(gl.games_frame(mat), gl.games_frame(sgf))
    moves = ["game", "player", "action", "die1", "die2", "play", "position_id", "cube_value"]
    pd.testing.assert_frame_equal(gl.actions_frame(mat)[moves], gl.actions_frame(sgf)[moves])
    # and gammonlab's own files of it
    for suffix in (".mat", ".sgf"):
        path = tmp_path / f"{name}{suffix}"
        gl.write_match(sgf, path)
        back = gl.read_match(path)
        assert back.rules == sgf.rules
        pd.testing.assert_frame_equal(gl.actions_frame(back), gl.actions_frame(sgf))
        pd.testing.assert_frame_equal(gl.games_frame(back), gl.games_frame(sgf))


@pytest.mark.parametrize("checkers", [1, 2, 3])
def test_gnubg_hypergammon_variation_header(checkers):
    """GNU Backgammon writes ``; [Variation "HyperGammon (3)"]``."""
    path = FIXTURES / f"hypergammon{checkers}_3p.mat"
    lines = path.read_text().splitlines()
    assert f'; [Variation "HyperGammon ({checkers})"]' in lines
    own = [line for line in lines if line != f'; [Variation "HyperGammon {checkers}"]']
    match = gl.read_match("\n".join(own) + "\n")
    assert match.rules.variant.name == f"hypergammon-{checkers}"


def test_gnubg_automatic_doubles_session():
    """R10.5: the .sgf records the cube turned by tied opening rolls (``CV[2]``) and
    the result at that stake (``RE[B+4R]``: a single game resigned, cube 4).

    GNU Backgammon 1.07's running score (``MI[ws][bs]``) and its ``.mat`` export
    count those games at the stake without the automatic double; the replay
    flags the score lines that disagree with the results."""
    sgf = gl.read_match(FIXTURES / "money_automatic_doubles.sgf", errors="collect")
    rules = sgf.rules
    assert rules.money and rules.auto_doubles == "gnubg" and rules.jacoby
    starts = [g.start_cube for g in sgf.games]
    assert starts == [1, 2, 2]
    for game in sgf.games:
        assert game.actions[-1].claimed_points == game.points
        assert game.actions[0].state.cube_value == game.start_cube
    assert sgf.problems and all("starts at" in p.detail for p in sgf.problems)
    mat = gl.read_match(FIXTURES / "money_automatic_doubles.mat")
    assert not mat.problems and [g.start_cube for g in mat.games] == [1, 1, 1]
    assert [m.points * s.start_cube for m, s in zip(mat.games, sgf.games)] == [
        s.points for s in sgf.games
    ]
    # stated rules that allow no automatic double refuse the turned cube
    with pytest.raises(gl.ParseError, match=r"R10\.5"):
        gl.read_match(FIXTURES / "money_automatic_doubles.sgf", rules=gl.Rules(jacoby=True))
    limited = gl.Rules(
        auto_doubles="gnubg", auto_double_limit=1, jacoby=True, beavers=True, raccoons=True
    )
    again = gl.read_match(FIXTURES / "money_automatic_doubles.sgf", rules=limited, errors="collect")
    assert [g.points for g in again.games] == [g.points for g in sgf.games]
