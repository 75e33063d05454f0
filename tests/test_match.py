"""The game state machine on small transcripts, read_matches, the read CLI, fuzzing."""

from __future__ import annotations

import re
import warnings
from dataclasses import replace

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gammonlab as gl
from gammonlab.cli import main

HEADER = " 5 point match\n\n Game 1\n Anna : {0}                          Bob : {1}\n"


def transcript(rows: str, score=(0, 0), length=5) -> str:
    return HEADER.replace("5 point", f"{length} point").format(*score) + rows


def test_double_take_and_a_gammon():
    match = gl.read_match(
        transcript(
            "  1) 31: 8/5 6/5                     Doubles => 2\n"
            "  2)  Takes                          \n"
        )
    )
    game = match.games[0]
    assert not game.complete and game.cube_value == 2
    frame = match.to_frame()
    assert frame.action.astype(str).tolist() == ["move", "double", "take"]
    take = frame.iloc[2]
    # the take is recorded from the doubler's position, with the taker to act
    state = gl.GameState.from_gnubg_id(f"{take.position_id}:{take.match_id}")
    assert state.double_offered and state.turn == 0 and state.on_roll == 1


def test_drop_ends_the_game_at_the_cube_before_the_double():
    match = gl.read_match(
        transcript(
            "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
            "  2) 64: 24/14*                      Doubles => 2\n"
            "  3)  Drops\n"
            "                                      Wins 1 point\n"
        )
    )
    game = match.games[0]
    assert (game.winner, game.points, game.ending) == (1, 1, "drop")


def test_double_in_the_crawford_game_is_refused():
    text = transcript("  1) 31: 8/5 6/5                     Doubles => 2\n", score=(4, 2))
    with pytest.raises(gl.ParseError, match=r"Crawford game \(R10.2\)"):
        gl.read_match(text)
    collected = gl.read_match(text, errors="collect")
    assert not collected.games and collected.problems


def test_crawford_flag_only_in_the_crawford_game():
    rows = "  1) 31: 8/5 6/5                     \n"
    assert gl.read_match(transcript(rows, score=(4, 2))).games[0].crawford
    assert not gl.read_match(transcript(rows, score=(3, 2))).games[0].crawford
    assert not gl.read_match(transcript(rows, score=(0, 0), length=1)).games[0].crawford


def test_redouble_by_the_wrong_player():
    text = transcript(
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Takes                          62: 24/18 13/11\n"
        "  3) 21: 13/11 6/5                   Doubles => 4\n"
    )
    with pytest.raises(gl.ParseError, match=r"belongs to Anna.*\(R9.5\)"):
        gl.read_match(text)


def test_illegal_play_names_file_line_column_and_rule():
    text = transcript("  1) 65: 13/7                       \n")
    with pytest.raises(gl.ParseError) as error:
        gl.read_match(text)
    assert error.value.line == 5 and error.value.column == 6
    assert "(R5.1)" in str(error.value) and "13/7" in str(error.value)
    assert isinstance(error.value.__cause__, gl.IllegalPlayError)


def test_result_that_the_game_does_not_give_is_flagged():
    text = transcript(
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Drops\n"
        "                                      Wins 2 points\n"
    )
    with pytest.raises(gl.ParseError, match="claims 2 points; the game is worth 1"):
        gl.read_match(text)
    match = gl.read_match(text, errors="collect")
    assert match.games[0].points == 1 and match.problems


def test_resignations():
    accepted = gl.read_match(
        transcript(
            "  1) 31: 8/5 6/5                     Resigns\n"
            "  2)  Accepts\n"
            "                                      \n"
        )
    )
    assert accepted.to_frame().action.astype(str).tolist() == ["move", "resign", "accept"]
    xg = gl.read_match(
        transcript("  1) 31: 8/5 6/5                     62: ????\n      Wins 2 points\n")
    )
    game = xg.games[0]
    assert (game.winner, game.points, game.ending) == (0, 2, "resign")
    assert xg.actions[1].resign_level == 2


def test_match_score_and_winner():
    rows = (
        "  1) 31: 8/5 6/5                     Doubles => 2\n"
        "  2)  Drops\n"
        "                                      Wins 1 point\n"
    )
    match = gl.read_match(transcript(rows, length=3))
    assert match.score == (0, 1) and match.winner is None
    won = transcript(rows, length=1)
    match = gl.read_match(won)
    assert match.score == (0, 1) and match.winner == 1
    assert "Anna" in match._repr_html_()
    after = won + "\n Game 2\n Anna : 0    Bob : 1\n  1) 31: 8/5 6/5\n"
    with pytest.raises(gl.ParseError, match="after the 1-point match was won"):
        gl.read_match(after)


@pytest.fixture(scope="module")
def folder(shared_data):
    return shared_data / "mat" / "gammonview_anonymized"


def test_read_matches_in_parallel_equals_serial(folder):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        serial = gl.read_matches(folder, errors="collect", progress=False, n_jobs=1)
        parallel = gl.read_matches(folder, errors="collect", progress=False, n_jobs=2)
    assert serial.equals(parallel)
    assert serial.match.nunique() == 3 and serial.columns[0] == "match"
    problems = pd.DataFrame(serial.attrs["problems"])
    assert set(problems.what) == {"flagged", "game skipped"}


def test_read_matches_strict_raises_and_collect_warns(folder):
    with pytest.raises(gl.ParseError, match="5nqfGw9bWG3deTaU"):
        gl.read_matches(folder, progress=False, n_jobs=1)
    with pytest.warns(UserWarning, match="skipped 0 files and 2 games"):
        games = gl.read_matches(folder, errors="collect", frame="games", progress=False, n_jobs=1)
    assert {"winner", "points", "ending"} <= set(games.columns)


def test_read_cli(folder, tmp_path, capsys):
    out = tmp_path / "frame.parquet"
    assert main(["read", str(folder), "-o", str(out), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "read 3 of 3 files" in printed and "game skipped" in printed
    assert pd.read_parquet(out).match.nunique() == 3
    csv = tmp_path / "frame.csv"
    assert main(["read", str(folder / "MYdvw1qGuyaRUH__.mat"), "-o", str(csv), "-q"]) == 0
    assert len(pd.read_csv(csv)) > 10


# -- fuzzing: only gammonlab errors come out ------------------------------------------------

SAMPLE = transcript(
    "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
    "  2) 64: 24/14*                      Doubles => 2\n"
    "  3)  Takes                          55: bar/20 8/3(2) 6/1\n"
    "  4) 21: 13/11 6/5*                  Cannot Move\n"
    "                                      Wins 2 points\n"
)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_corrupted_transcripts_raise_only_gammonlab_errors(data):
    text = SAMPLE
    for _ in range(data.draw(st.integers(1, 6))):
        where = data.draw(st.integers(0, len(text) - 1))
        what = data.draw(st.sampled_from(["delete", "insert", "duplicate"]))
        if what == "delete":
            text = text[:where] + text[where + 1 :]
        elif what == "insert":
            text = (
                text[:where]
                + data.draw(st.sampled_from(list("0123456789/*() :\n?aW")))
                + text[where:]
            )
        else:
            text = text[:where] + text[where : where + 8] + text[where:]
    for errors in ("raise", "collect"):
        try:
            match = gl.read_match(text, errors=errors)
        except gl.GammonlabError:
            continue
        match.to_frame()
        match.games_frame()
        gl.write_match(match)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_random_text_raises_only_gammonlab_errors(text):
    for errors in ("raise", "collect"):
        try:
            gl.read_match(text + "\n", errors=errors).to_frame()
        except gl.GammonlabError:
            pass


def test_dance_is_a_move_row_with_an_empty_play(shared_data):
    match = gl.read_match(shared_data / "mat/backgammongalaxy_bglab/match10251829.txt")
    frame = match.to_frame()
    dances = frame[(frame.action == "move") & (frame.n_legal == 0)]
    assert len(dances) >= 1
    assert (dances.play == "").all()
    first = dances.iloc[0]
    assert (first.game, first.player, first.die1, first.die2) == (1, 1, 6, 6)


def test_the_plays_of_a_game_resolved_at_once_are_those_resolved_one_by_one():
    """resolve_turns (one kernel call a game) finds each play resolve_play finds, with the
    same number of legal plays and the same position after, hits on the way included."""
    from gammonlab.explain import resolve_play, resolve_turns

    session = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=3, games=12)
    for game in session.games:
        moves = [a for a in game.actions if a.kind == "move"]
        turns = [(str(a.play) if a.play else "", a.dice) for a in moves]
        resolved = resolve_turns(gl.Position.initial(), turns)
        assert len(resolved) == len(turns)
        position = gl.Position.initial()
        for (text, dice), (play, n_legal, after) in zip(turns, resolved):
            expected = resolve_play(position, text, dice)
            assert play == expected and play.moves == expected.moves
            assert n_legal == len(position.legal_plays(dice))
            assert after == expected.position
            position = after
        # the game's last turn ends it, and the list: turns written after it are not read
        assert len(resolve_turns(gl.Position.initial(), turns + turns[:4])) == len(turns)
    # an illegal play stops the list before it: the caller resolves it and says why
    assert resolve_turns(gl.Position.initial(), [("13/7", (6, 5))]) == []


def test_the_play_a_text_writes_among_plays_to_the_same_points():
    """Of legal plays with the same end points, the text writes the one that shares the
    most of its segments, then the one whose hits its marks disagree with least, the first
    of those that tie: the count of shared segments is that of the segments as a multiset."""
    from collections import Counter

    from gammonlab.explain import _closest, _read_play

    session = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=2, games=3)
    chosen = 0
    for action in (a for game in session.games for a in game.actions if a.kind == "move"):
        for dice in ((6, 4), (3, 3), (2, 1), (5, 5)):
            by_end: dict[bytes, list[gl.Play]] = {}
            for play in action.state.position.legal_plays(dice):
                by_end.setdefault(play.board[0].tobytes(), []).append(play)
            for plays in (plays for plays in by_end.values() if len(plays) > 1):
                for text in {text for p in plays for text in (str(p), str(p).replace("*", ""))}:
                    written = _read_play(text)[1]
                    counted = Counter(written.segments)
                    expected = min(
                        plays,
                        key=lambda p: (
                            -sum((Counter(p.moves) & counted).values()),
                            len(written.marked ^ set(p.hits)),
                        ),
                    )
                    assert _closest(plays, written) is expected, (text, plays)
                    chosen += 1
    assert chosen > 50


def test_the_moves_of_the_plays_read_at_once_are_those_read_one_by_one():
    """The moves of the kernel's rows of a game, read at once, are those of each row."""
    from gammonlab.play import _moves_of, _moves_of_rows

    session = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=4, games=2)
    for action in (a for game in session.games for a in game.actions if a.kind == "move"):
        for dice in ((6, 4), (3, 3), (2, 1)):
            rows = action.state.position.legal_plays(dice)._moves
            assert _moves_of_rows(rows) == [_moves_of(row) for row in rows]
            assert _moves_of_rows(rows[::-1]) == [_moves_of(row) for row in rows[::-1]]


def _replayed(match: gl.Match) -> tuple:
    """Everything a replay gives: what equality compares, and what it leaves out (each
    action's fields in their order, its play's moves, where it is written, its analysis)
    or cannot compare (the problems, compared by what they say)."""
    return (
        replace(match, games=(), problems=()),
        [str(problem) for problem in match.problems],
        [
            (
                replace(game, actions=(), problems=()),
                [str(problem) for problem in game.problems],
                [
                    (
                        list(vars(action)),
                        action,
                        action.play.moves if action.play else None,
                        action.location,
                        action.analysis,
                        action.players,
                    )
                    for action in game.actions
                ],
            )
            for game in match.games
        ],
    )


def test_the_moves_played_at_once_are_those_played_one_by_one(monkeypatch, cubed):
    """The moves of a game whose plays resolve_turns found are played in one loop
    (_Replay.play_resolved), stopping where anything else is to be checked; played one by
    one (_Replay.apply), every transcript gives the same match or the same error, field by
    field, in both modes, damaged or not."""
    import random

    from gammonlab.match.replay import _Replay

    played_at_once = []
    play_resolved = _Replay.play_resolved

    def counted(self, actions, start):
        end = play_resolved(self, actions, start)
        played_at_once.append(end - start)
        return end

    def read(text: str, errors: str, *, at_once: bool) -> tuple | str:
        with monkeypatch.context() as patch:
            patch.setattr(
                _Replay, "play_resolved", counted if at_once else lambda self, _, start: start
            )
            try:
                return _replayed(gl.read_match(text, errors=errors))
            except gl.ParseError as error:
                return str(error)

    money = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=5, games=12)
    rng = random.Random(11)
    for session in (cubed, money):
        for format in ("mat", "sgf"):
            text = gl.write_match(session, format=format)
            lines = text.splitlines(keepends=True)
            damaged = [text]
            for _ in range(8):
                cut = lines.copy()
                for _ in range(rng.randint(1, 3)):
                    k = rng.randrange(len(cut))
                    cut[k] = cut[k].replace("6", "5", 1) if rng.random() < 0.6 else ""
                damaged.append("".join(cut))
            for variant in damaged:
                for errors in ("raise", "collect"):
                    expected = read(variant, errors, at_once=False)
                    assert read(variant, errors, at_once=True) == expected
    moves = sum(1 for game in money.games for action in game.actions if action.kind == "move")
    assert sum(played_at_once) > 8 * moves  # nearly every move, read after read


def test_a_game_played_at_once_ends_in_the_state_it_ends_in_played_one_by_one(cubed):
    """After each game, the state machine that played its resolved moves at once is the
    one that played every action one by one: the position, the player on roll, the rolls
    each side played (R3.1, R10.3), the cube and the result."""
    from gammonlab.io.mat import parse_mat
    from gammonlab.io.sgf import parse_sgf
    from gammonlab.match.replay import CrawfordCount, _Replay

    money = gl.play_match(("pubeval", "pubeval"), rules=gl.Rules(), seed=6, games=6)
    for session in (cubed, money):
        for format in ("mat", "sgf"):
            text = gl.write_match(session, format=format)
            rules = gl.read_match(text).rules
            raw = (parse_sgf if format == "sgf" else parse_mat)(text)
            count = CrawfordCount(rules)
            for game in raw.games:
                crawford = count.start(game.scores)
                ended = []
                for at_once in (True, False):
                    replay = _Replay(rules, count.score, crawford, raw.players)
                    replay.resolve_turns(game.actions)
                    actions = game.actions
                    i = replay.play_resolved(actions, 0) if at_once else 0
                    while i < len(actions):
                        replay.apply(actions[i], actions[i + 1] if i + 1 < len(actions) else None)
                        i = replay.play_resolved(actions, i + 1) if at_once else i + 1
                    state = vars(replay).copy()
                    ended.append((state.pop("actions"), state))
                assert ended[0] == ended[1]
                count.result(replay.winner, replay.points)


def test_an_actions_state_is_built_when_asked_for_and_is_the_state_it_was_taken_in():
    """A replay checks each action's state at once and builds it on first use: the same
    state as the constructor builds from its fields, built once, kept through pickling."""
    import pickle
    from dataclasses import fields

    match = gl.read_match(
        transcript(
            "  1) 31: 8/5 6/5                     Doubles => 2\n"
            "  2)  Takes                          64: 24/18 13/9\n"
        )
    )
    actions = match.games[0].actions
    assert [a.kind for a in actions] == ["move", "double", "take", "move"]
    assert all("state" not in vars(action) for action in actions)
    copies = pickle.loads(pickle.dumps(actions))
    for action, copy in zip(actions, copies):
        state = action.state
        assert type(state) is gl.GameState and action.state is state
        assert state == gl.GameState(**{f.name: getattr(state, f.name) for f in fields(state)})
        assert copy == action and copy.state == state
    take = actions[2].state
    assert take.double_offered and take.turn == 0 and take.on_roll == 1 and take.cube_value == 1
    assert actions[3].state.cube_value == 2 and actions[3].state.cube_owner == 0
    with pytest.raises(AttributeError, match="no attribute 'stat'"):
        actions[0].stat  # noqa: B018


def test_what_a_read_builds_is_not_left_to_the_young_collections():
    """A read pauses the cycle collector and leaves what it built in the oldest
    generation; a program's own frozen objects stay frozen."""
    import gc

    text = transcript("  1) 31: 8/5 6/5                     64: 24/18 13/9\n")
    gc.collect()
    match = gl.read_match(text)
    action = match.games[0].actions[0]
    assert gc.isenabled()
    assert any(obj is action for obj in gc.get_objects(generation=2))
    assert not any(obj is action for obj in gc.get_objects(generation=0))
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        gl.read_match(text)
        # still frozen, nothing added (a cache that lets go of an entry frees some)
        assert 0 < gc.get_freeze_count() <= frozen and gc.isenabled()
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        gl.read_match(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


# -- .mat: what gammonlab writes, it reads back; a game has one result, turns go up ----------


@pytest.fixture(scope="module")
def cubed():
    """A 3-point match with doubles, a take, a drop and results in both columns:
    the first seed from 1 whose match has them."""
    for seed in range(1, 50):
        match = gl.play_match(("net", "net"), rules=gl.Rules(match_length=3), seed=seed)
        kinds = {(a.kind, a.player) for g in match.games for a in g.actions}
        wanted = {("double", 0), ("double", 1), ("win", 0), ("win", 1)}
        if wanted <= kinds and {"take", "drop"} <= {kind for kind, _ in kinds}:
            return match
    raise AssertionError("no 3-point match of seeds 1 to 49 has doubles and wins on both sides")


def actions_of(match):
    return [
        [(a.player, a.kind, a.dice, str(a.play or ""), a.cube) for a in game.actions]
        for game in match.games
    ]


def test_names_of_any_length_write_and_read_back(cubed):
    """The reader places the right column from where the names line puts the second name;
    a long first name pushes it right, and the rows are written as wide, so that player 1's
    plays stay in player 1's column."""
    expected = actions_of(cubed)
    for length in range(1, 81):
        for names in (
            ("n" * length, "Bob"),
            ("Anna", "m" * length),
            ("n" * length, "m" * length),
            ("n" * length, ""),
        ):
            back = gl.read_match(gl.write_match(replace(cubed, players=names), format="mat"))
            assert back.players == names and actions_of(back) == expected, names


def test_short_names_keep_gnu_backgammons_columns(cubed):
    text = gl.write_match(replace(cubed, players=("Anna", "Bob")), format="mat")
    lines = text.splitlines()
    assert " Anna : 0                       Bob : 0" in lines
    # the right column at 33 (34 for ' Doubles', ' Takes'), as GNU Backgammon writes it
    rows = [line for line in lines if line[3:4] == ")" and len(line) > 33]
    assert rows and all(line[32] == " " and line[33:35].strip() for line in rows)


@pytest.mark.parametrize(
    ("names", "player", "why"),
    [
        (("a : 0", "b"), 0, "a colon and a number"),
        (("12:30 pm", "b"), 0, "a colon and a number"),
        (("a:5", "b"), 0, "a colon and a number"),
        ((";a", "b"), 0, "starts with ';'"),
        (("a,1500", "b"), 0, "a comma and a number"),
        (("a", "b,15"), 1, "a comma and a number"),
        ((" a", "b"), 0, "white space"),
        (("a", "b "), 1, "white space"),
        (("a", "b\nc"), 1, "line break"),
    ],
)
def test_a_name_a_mat_cannot_hold_is_refused_on_writing(cubed, names, player, why):
    match = replace(cubed, players=names)
    with pytest.raises(gl.WriteError, match=why) as caught:
        gl.write_match(match, format="mat")
    assert f"player {player}'s name {names[player]!r}" in str(caught.value)


def test_a_name_with_a_score_in_it_still_writes_as_sgf():
    match = gl.play_match(names=("a : 0", "b"), rules=gl.Rules(match_length=1), seed=1)
    assert gl.read_match(gl.write_match(match, format="sgf")).players == ("a : 0", "b")
    with pytest.raises(gl.WriteError, match="player 0's name 'a : 0'"):
        gl.write_match(match, format="mat")


@pytest.mark.parametrize(
    "names", [("a:", "b"), ("a : b", "c"), ("x:1y", "b"), ("a", "b : 0"), ("", "b : 0 c")]
)
def test_names_with_colons_a_mat_can_hold_read_back(cubed, names):
    back = gl.read_match(gl.write_match(replace(cubed, players=names), format="mat"))
    assert back.players == names and actions_of(back) == actions_of(cubed)


@settings(max_examples=150, deadline=None)
@given(st.tuples(*[st.text(alphabet=" ab:;,0123456789\t-é", max_size=80)] * 2))
def test_a_mat_written_reads_back_or_the_writer_says_why(cubed, names):
    match = replace(cubed, players=names)
    try:
        text = gl.write_match(match, format="mat")
    except gl.WriteError as error:
        assert "name" in str(error)
        return
    back = gl.read_match(text)
    assert back.players == names and actions_of(back) == actions_of(cubed)


def test_a_second_result_line_is_refused_or_listed():
    text = transcript("  1) 31: 8/5 6/5\n      Wins 1 point\n" + "      Wins 1 point\n" * 3)
    with pytest.raises(
        gl.ParseError, match=r"^7:7: a second result for game 1, whose result is on line 6"
    ):
        gl.read_match(text)
    collected = gl.read_match(text, errors="collect")
    assert [str(p).split(":")[0] for p in collected.problems] == ["7", "8", "9"]
    (game,) = collected.games
    assert [a.kind for a in game.actions] == ["move", "win"] and game.winner == 0
    both = transcript("  1) 31: 8/5 6/5\n       Wins 1 point                   Wins 1 point\n")
    with pytest.raises(gl.ParseError, match="a game has one result line"):
        gl.read_match(both)


def test_thousands_of_result_lines_are_listed_in_bounded_work():
    text = transcript("  1) 31: 8/5 6/5\n" + "      Wins 1 point\n" * 20_000)
    collected = gl.read_match(text, errors="collect")
    assert len(collected.games) == 1 and len(collected.problems) == 1001
    assert "18999 more problems are not listed" in str(collected.problems[-1])


ROWS = (
    "  1) 31: 8/5 6/5                     62: 24/18 13/11\n"
    "  2) 64: 24/14*                      43: bar/21 24/21\n"
)


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (ROWS.replace("  2)", "  1)"), "6:3: turn 1 follows turn 1: turn numbers go up"),
        (ROWS + "  2) 21: 13/11 6/5\n", "7:3: turn 2 follows turn 2: turn numbers go up"),
        (ROWS.replace("  1)", "  0)"), "5:3: turn 0 opens game 1: turns are numbered from 1"),
        (
            ROWS.replace("  2)", "  " + "9" * 990_000 + ")"),
            "6:3: a turn number of 990000 digits",
        ),
    ],
    ids=["repeated", "repeated-later", "zero", "990000-digits"],
)
def test_a_turn_number_that_does_not_go_up_is_refused_or_listed(rows, message):
    text = transcript(rows)
    with pytest.raises(gl.ParseError, match="^" + re.escape(message)):
        gl.read_match(text)
    collected = gl.read_match(text, errors="collect")
    assert [str(p).splitlines()[0][: len(message)] for p in collected.problems] == [message]
    assert len(collected.games[0].actions) == rows.count(":")  # every row read


def test_turn_numbers_may_skip_ahead():
    """Backgammon Studio numbers a result row after a gap (``25)  Wins 4 point`` after
    ``21)``), and an excerpt leaves rows out: neither is a problem."""
    text = transcript(ROWS.replace("  2)", "  7)") + " 12)  Doubles => 2\n")
    assert not gl.read_match(text, errors="collect").problems
