"""Every transcript of the corpus, replayed through the rules."""

from __future__ import annotations

import collections
import csv
import dataclasses

import pytest
from corpus import DAMAGED, DERIVED_SGF, corpus

import gammonlab as gl
from gammonlab import ids
from gammonlab.match.frames import GNUBG_COLUMNS

pytestmark = pytest.mark.usefixtures("shared_data")


def test_every_file_reads_or_fails_with_a_location():
    read = collect_only = 0
    actions = games = 0
    for file, (match, strict_error) in corpus().items():
        games += len(match.games)
        actions += sum(len(g.actions) for g in match.games)
        if strict_error is None:
            read += 1
            continue
        collect_only += 1
        assert file in DAMAGED, f"{file}: {strict_error}"
        assert DAMAGED[file] in str(strict_error)
        assert strict_error.line is not None and strict_error.column is not None
        assert file.split("/")[-1] in str(strict_error)  # names the file
    print(
        f"\n{len(corpus())} files: {read} read strictly, {collect_only} only in collect "
        f"mode, 0 refused; {games} games, {actions} actions"
    )
    assert read == len(corpus()) - len(DAMAGED)


def test_damaged_files_keep_their_good_games():
    for file in DAMAGED:
        match, _ = corpus()[file]
        assert match.games, file
        assert match.problems, file


def test_impossible_results_are_flagged_not_scored():
    match, error = corpus()[
        "mat/backgammonstudio_bglab/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt"
    ]
    assert "4016" in str(error)
    flagged = [g for g in match.games if g.problems]
    assert flagged and all(g.points is None for g in flagged)


def test_game_starts_at_the_score_of_its_header(shared_data):
    """Each game's starting score is its header's, and follows from the games before."""
    from gammonlab.io.mat import parse_mat
    from gammonlab.io.sgf import parse_sgf

    checked = 0
    for file, (match, _) in corpus().items():
        parse = parse_sgf if file.endswith(".sgf") else parse_mat
        raw = parse(shared_data / file, errors="collect")
        starts = [g.score for g in match.games]
        replayed = {g.number: g for g in match.games}
        for before, after in zip(match.games, match.games[1:]):
            if before.points is None or after.number != before.number + 1:
                continue
            expected = list(before.score)
            expected[before.winner] += before.points
            assert after.score == tuple(expected), (file, after.number)
            checked += 1
        # and the replay used the headers' scores
        raw_scores = [g.scores for g in raw.games if g.scores is not None]
        assert all(score in raw_scores for score in starts if score != (0, 0)), file
        assert replayed
    print(f"\n{checked} consecutive games checked")
    assert checked > 1500


def test_gnubg_ids_of_4706_decisions(shared_data):
    """Position ID and Match ID of every decision equal GNU Backgammon's.

    The exports number the players by their owner (lasse or Llabba is always
    GNU Backgammon's player 1); where that is the transcript's left player the
    Match ID is compared with players swapped.
    """
    path = shared_data / "ids/gnubg_posid_matchid/bglab_pairs_from_gnubg_text_exports.tsv"
    with open(path, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    by_file = collections.defaultdict(list)
    for row in rows:
        by_file[row["match_file"]].append(row)
    files = {key.split("/")[-1]: key for key in corpus()}

    def swapped(match_id: str) -> str:
        f = ids.fields_from_match_id(match_id)
        return ids.match_id_from_fields(
            dataclasses.replace(
                f,
                dice_owner=1 - f.dice_owner,
                turn=1 - f.turn,
                score=f.score[::-1],
                cube_owner=None if f.cube_owner is None else 1 - f.cube_owner,
            )
        )

    equal = 0
    for file, decisions in by_file.items():
        match, _ = corpus()[files[file]]
        frame = match.to_frame()
        mover = next(r for r in decisions if r["header"].startswith("to play"))
        gnubg_player = ids.fields_from_match_id(mover["match_id"]).dice_owner
        ours = match.players.index(mover["player"])
        swap = gnubg_player != ours
        table = {
            (g, i + 1): (p, m)
            for g, i, p, m in zip(frame.game, frame.action_index, frame.position_id, frame.match_id)
        }
        for row in decisions:
            position_id, match_id = table[int(row["game"]), int(row["move_number"])]
            if swap:
                match_id = swapped(match_id)
            assert (position_id, match_id) == (row["position_id"], row["match_id"]), row
            equal += 1
    assert equal == len(rows) == 4706


def _moves(frame):
    moves = frame[frame.action == "move"]
    return [
        (p, tuple(sorted((a, b))), play, pid)
        for p, a, b, play, pid in zip(
            moves.player, moves.die1, moves.die2, moves.play, moves.position_id
        )
    ]


@pytest.mark.parametrize("sgf", sorted(DERIVED_SGF))
def test_sgf_from_mat_gives_the_same_plays(sgf):
    match, _ = corpus()[f"sgf/gnubg_derived_from_real_mat/{sgf}.sgf"]
    source, _ = corpus()[DERIVED_SGF[sgf]]
    assert _moves(match.to_frame()) == _moves(source.to_frame())


def check_writers_round_trip(format: str, files: list[str]) -> None:
    same = 0
    for file in files:
        match, _ = corpus()[file]
        text = gl.write_match(match, format=format)
        again = gl.read_match(text, errors="collect" if match.problems else "raise")
        frame = match.to_frame()
        if format == "mat":  # .mat has no place for GNU Backgammon's analysis
            frame = frame.drop(columns=[c for c in GNUBG_COLUMNS if c in frame])
        assert again.to_frame().equals(frame), file
        assert again.games_frame().equals(match.games_frame()), file
        same += 1
    assert same == len(files)


@pytest.mark.parametrize("format", ["mat", "sgf"])
def test_writers_round_trip_a_tenth_of_the_files(format):
    """Every tenth file, the damaged ones and those GNU Backgammon wrote from others."""
    files = sorted(corpus())
    sample = set(files[::10]) | set(DAMAGED) | set(DERIVED_SGF.values())
    sample |= {f"sgf/gnubg_derived_from_real_mat/{name}.sgf" for name in DERIVED_SGF}
    check_writers_round_trip(format, sorted(sample & set(files)))


@pytest.mark.slow
@pytest.mark.parametrize("format", ["mat", "sgf"])
def test_writers_round_trip_every_file(format):
    check_writers_round_trip(format, sorted(corpus()))


def test_gnubg_analysis_columns():
    match, _ = corpus()["sgf/gnubg_kevung/HSBT_Paris_2023_Job-Unger_analysed.sgf"]
    moves = match.to_frame().query("action == 'move' and n_legal > 1")
    assert moves.gnubg_best_play.notna().mean() > 0.95
    agree = moves.play == moves.gnubg_best_play
    # the engine's best play is the one played exactly when it records no loss
    assert ((moves.gnubg_equity_loss == 0) == agree).mean() > 0.95
    assert moves.gnubg_no_double.between(0, 1).all()  # match winning chances


def test_frames_write_to_parquet(tmp_path):
    match, _ = corpus()["mat/gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.mat"]
    for frame in (match.to_frame(), match.games_frame()):
        path = tmp_path / "frame.parquet"
        frame.to_parquet(path)
        import pandas as pd

        back = pd.read_parquet(path)
        assert back.equals(frame)
        assert back.dtypes.equals(frame.dtypes)


def test_money_session_with_beavers_raccoons_and_resignations():
    match, error = corpus()[
        "mat/gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.mat"
    ]
    assert error is None and match.rules.money
    games = match.games_frame()
    assert games.points.tolist() == [4, 2, 2, 4, 2]
    assert games.ending.tolist()[1:4] == ["drop", "resign", "drop"]
    kinds = match.to_frame().action.astype(str)
    assert (kinds == "beaver").sum() == 2 and (kinds == "raccoon").sum() == 1
    sgf, error = corpus()[
        "sgf/gnubg_synthetic/gnubg_money_session_jacoby_beaver_raccoon_resign.sgf"
    ]
    assert error is None and sgf.rules.jacoby  # RU[Jacoby]; the .mat does not say
    assert sgf.games_frame().points.tolist() == games.points.tolist()
