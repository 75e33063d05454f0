"""Tests of gammonlab.ids: Position ID, Match ID, XGID and the conversions between them.

Reference data come from the shared corpus's ``ids`` folder (GNU Backgammon's own output for
XGIDs, Position ID / Match ID pairs from gnubg text exports, wildbg's Position ID
lists); the executable reference is the ``gnubg-nn`` package.
"""

from __future__ import annotations

import base64
import csv
import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import SHARED_DATA, needs_corpus, needs_module
from gnubg_worker import call_all
from hypothesis import given, settings
from hypothesis import strategies as st

from gammonlab.errors import InvalidPositionError
from gammonlab.ids import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    XGID_BOTTOM,
    XGID_CENTRED,
    XGID_TOP,
    MatchIdFields,
    XgidFields,
    board_from_position_id,
    fields_from_match_id,
    format_xgid,
    gnubg_id_to_xgid,
    match_id_from_fields,
    parse_xgid,
    position_id_from_board,
    split_gnubg_id,
    xgid_to_gnubg_id,
)
from gammonlab.ids import xgid as xgid_module
from gammonlab.rules import BAR, CHECKERS, OFF
from gammonlab.state import GameState

IDS = SHARED_DATA / "ids"
needs_data = needs_corpus("ids")

OPENING_PID = "4HPwATDgc/ABMA"
OPENING_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def opening_row() -> list[int]:
    row = [0] * (BAR + 1)
    row[6], row[8], row[13], row[24] = 5, 3, 5, 2
    return row


def to_gnubg(board: np.ndarray) -> list[list[int]]:
    """gnubg's [2][25] layout: row 0 not on roll, row 1 on roll; index 24 = bar."""
    return [[int(n) for n in board[1, 1:]], [int(n) for n in board[0, 1:]]]


def match_id_from_key(key: int) -> str:
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def corpus_position_ids() -> list[str]:
    found = []
    for path in sorted((IDS / "gnubg_position_ids").glob("*.csv")):
        found += [line.strip() for line in path.read_text().splitlines() if line.strip()]
    return found


def corpus_pairs() -> list[dict[str, str]]:
    return read_tsv(IDS / "gnubg_posid_matchid" / "bglab_pairs_from_gnubg_text_exports.tsv")


# -- Position ID -------------------------------------------------------------------------------


def test_opening_vector():
    board = board_from_position_id(OPENING_PID)
    assert board.dtype == np.int8 and board.shape == (2, 26)
    assert board[0].tolist() == opening_row() == board[1].tolist()
    assert position_id_from_board(board) == OPENING_PID


def test_bar_vector():
    """`4HPwATDgc/ABUA`: the side on roll has one checker on its 24-point and one on the bar."""
    board = board_from_position_id("4HPwATDgc/ABUA")
    expected = opening_row()
    expected[24], expected[BAR] = 1, 1
    assert board[0].tolist() == expected
    assert board[1].tolist() == opening_row()
    assert position_id_from_board(board) == "4HPwATDgc/ABUA"


def test_whitespace_is_ignored():
    padded = board_from_position_id(f"  {OPENING_PID}\t\n")
    assert (padded == board_from_position_id(OPENING_PID)).all()


def test_fewer_checkers_fill_the_off_column():
    board = np.zeros((2, 26), dtype=np.int8)
    board[0, 24] = board[1, 24] = 3
    pid = position_id_from_board(board)
    decoded = board_from_position_id(pid, checkers=3)
    assert decoded[:, OFF].tolist() == [0, 0]
    assert board_from_position_id(pid)[:, OFF].tolist() == [12, 12]
    with pytest.raises(InvalidPositionError, match="more than 2"):
        board_from_position_id(pid, checkers=2)


def test_empty_board_is_every_checker_off():
    board = board_from_position_id("AAAAAAAAAAAAAA")
    assert board[:, OFF].tolist() == [CHECKERS, CHECKERS]
    assert board[:, 1:].sum() == 0


@pytest.mark.parametrize(
    ("pid", "message"),
    [
        ("4HPwATDgc/AB", "expected 14 characters, got 12"),
        ("4HPwATDgc/ABMA=", "expected 14 characters, got 15"),
        ("4HPwATDgc/AB!A", "bad base64 character '!' at position 13"),
        ("4HPwATDgc/ABMB", "beyond the 80-bit key"),
        ("/////////////w", "too many checkers"),
        ("////////AAAAAA", "too many checkers"),
        ("AAAAAAAAAAAAAQ", "bits are set after the last slot"),
    ],
)
def test_bad_position_ids(pid, message):
    with pytest.raises(InvalidPositionError, match=re.escape(message)) as caught:
        board_from_position_id(pid)
    assert repr(pid) in str(caught.value)


def test_position_id_with_a_point_held_by_both_sides():
    board = np.zeros((2, 26), dtype=np.int64)
    board[0, 6] = 1
    board[1, 19] = 1  # the opponent's 19 is our 6
    # Encode by hand: the encoder refuses this board.
    key, bit = 0, 0
    for row in (board[1], board[0]):
        for count in row[1:]:
            key |= ((1 << int(count)) - 1) << bit
            bit += int(count) + 1
    pid = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidPositionError, match="held by both sides") as caught:
        board_from_position_id(pid)
    assert pid in str(caught.value)
    with pytest.raises(InvalidPositionError, match="held by both sides"):
        position_id_from_board(board)


def test_both_sides_on_the_bar_against_closed_boards():
    board = np.zeros((2, 26), dtype=np.int8)
    board[:, 1:7] = 2
    board[:, BAR] = 1
    board[:, OFF] = 2
    with pytest.raises(InvalidPositionError, match="closed home boards"):
        position_id_from_board(board)


@pytest.mark.parametrize(
    ("board", "message"),
    [
        (np.zeros((2, 25), dtype=np.int8), "shape"),
        (np.zeros((2, 26)), "integers"),
        (np.full((2, 26), -1), "-1 checkers"),
        (np.array([[0] + [1] * 16 + [0] * 9, [0] * 26]), "too many checkers"),
    ],
)
def test_bad_boards(board, message):
    with pytest.raises(InvalidPositionError, match=message):
        position_id_from_board(board)


def test_checkers_total_is_checked_when_given():
    board = np.array([opening_row(), opening_row()])
    assert position_id_from_board(board, checkers=15) == OPENING_PID
    board[:, OFF] = 1
    assert position_id_from_board(board) == OPENING_PID
    with pytest.raises(InvalidPositionError, match="16 checkers counting the borne-off ones"):
        position_id_from_board(board, checkers=15)


@needs_data
def test_position_id_corpus_round_trip_and_gnubg_nn():
    gnubg_nn = needs_module("gnubg_nn")
    pids = corpus_position_ids() + [row["position_id"] for row in corpus_pairs()]
    assert len(pids) == 2000 + 4706
    for pid in pids:
        board = board_from_position_id(pid)
        assert position_id_from_board(board) == pid
        assert to_gnubg(board) == gnubg_nn.board_from_position_id(pid), pid
        assert gnubg_nn.position_id(to_gnubg(board)) == pid


def random_boards(count: int, seed: int) -> list[np.ndarray]:
    """Valid boards: random points, some checkers on the bar, some borne off."""
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < count:
        board = np.zeros((2, 26), dtype=np.int64)
        for side in (0, 1):
            free = [p for p in range(1, 25) if side == 0 or board[0, BAR - p] == 0]
            slots = list(
                rng.choice(free, size=min(len(free), int(rng.integers(1, 10))), replace=False)
            )
            if rng.random() < 0.3:
                slots.append(BAR)
            on_board = int(rng.integers(0, CHECKERS + 1))
            counts = rng.multinomial(on_board, np.ones(len(slots)) / len(slots))
            board[side, slots] = counts
            board[side, OFF] = CHECKERS - on_board
        closed = (board[:, 1:7] >= 2).all() and board[0, BAR] and board[1, BAR]
        if not closed:
            boards.append(board.astype(np.int8))
    return boards


def test_random_boards_against_gnubg_nn():
    gnubg_nn = needs_module("gnubg_nn")
    boards = random_boards(3000, seed=20240611)
    assert sum(int(b[0, BAR] > 0) for b in boards) > 300
    assert sum(int(b[1, OFF] > 0) for b in boards) > 2000
    for board in boards:
        pid = position_id_from_board(board)
        assert pid == gnubg_nn.position_id(to_gnubg(board))
        assert (board_from_position_id(pid) == board).all()
        assert gnubg_nn.board_from_position_id(pid) == to_gnubg(board)
        assert (board_from_position_id(position_id_from_board(board[::-1])) == board[::-1]).all()


def gnubg_board_is_valid(gnubg_board: list[list[int]]) -> bool:
    """GNU Backgammon's CheckPosition, written out independently."""
    if any(sum(row) > CHECKERS for row in gnubg_board):
        return False
    if any(gnubg_board[0][i] and gnubg_board[1][23 - i] for i in range(24)):
        return False
    closed = all(gnubg_board[s][i] >= 2 for s in (0, 1) for i in range(6))
    return not (closed and gnubg_board[0][24] and gnubg_board[1][24])


def test_random_base64_agrees_with_gnubg_nn():
    """400 random 14-character strings: we accept exactly the IDs GNU Backgammon
    reads back to themselves, and decode them alike (its decoder runs in a child
    process: it can crash on arbitrary keys)."""
    needs_module("gnubg_nn")
    rng = np.random.default_rng()
    pids = ["".join(rng.choice(list(BASE64), size=14)) for _ in range(400)]
    # keys with few one-bits decode to plausible boards: make some of those too
    pids += [
        position_id_from_board(board)[:13] + str(rng.choice(list(BASE64)))
        for board in random_boards(200, seed=int(rng.integers(1 << 30)))
    ]
    references = call_all("board_from_position_id", [(pid,) for pid in pids])
    canonical_ids = call_all("position_id", [(ref,) for ref in references if isinstance(ref, list)])
    canonical_of = dict(
        zip([pid for pid, ref in zip(pids, references) if isinstance(ref, list)], canonical_ids)
    )
    for pid, reference in zip(pids, references):
        canonical = (
            isinstance(reference, list)
            and gnubg_board_is_valid(reference)
            and canonical_of[pid] == pid
        )
        try:
            board = board_from_position_id(pid)
        except InvalidPositionError:
            assert not canonical, pid
        else:
            assert canonical, pid
            assert to_gnubg(board) == reference


# -- Match ID ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mid", "expected"),
    [
        ("cIkKAAAAAAAA", MatchIdFields(dice_owner=1, turn=1, dice=(5, 2), jacoby=True)),
        ("cInqAAAAAAAE", MatchIdFields(dice_owner=1, turn=1, dice=(5, 2), match_length=7)),
        ("MIHmAAAAAAAE", MatchIdFields(dice_owner=0, turn=0, dice=(5, 1), match_length=7)),
        (
            "8IhuACAACAAE",
            MatchIdFields(
                dice_owner=1,
                turn=1,
                crawford=True,
                game_state=GAME_NONE,
                dice=(5, 3),
                match_length=3,
                score=(2, 1),
            ),
        ),
    ],
)
def test_match_id_vectors(mid, expected):
    assert fields_from_match_id(mid) == expected
    assert match_id_from_fields(expected) == mid


def test_match_id_dice_order():
    """gnubg writes the higher die first; a low-first ID (BGBlitz writes them) keeps its order."""
    low_first = fields_from_match_id("QYnoAGAAGAAE")
    assert low_first.dice == (1, 2)
    assert match_id_from_fields(low_first) == "QQnlAGAAGAAE"
    assert fields_from_match_id("QQnlAGAAGAAE").dice == (2, 1)


def test_match_id_double_offered():
    fields = fields_from_match_id("cBFgAAAAAAAE")  # gnubg export: "doubles to 2"
    assert fields.double_offered and fields.dice == (0, 0)
    assert (fields.dice_owner, fields.turn) == (1, 0)


VALID_KEY = 0x3 << 4 | 1 << 6 | GAME_PLAYING << 8 | 1 << 11 | 5 << 15 | 2 << 18 | 7 << 21 | 1 << 66


@pytest.mark.parametrize(
    ("key", "message"),
    [
        (VALID_KEY & ~(0x3 << 4) | 2 << 4, "bad cube owner 2"),
        (VALID_KEY | 5 << 8, "game state 5"),
        (VALID_KEY | 7 << 15, "dice (7, 2)"),
        (VALID_KEY & ~(7 << 18), "dice (5, 0)"),
        (VALID_KEY & ~(0x7FFF << 21), None),  # money play: fine
        (VALID_KEY & ~(0x7FFF << 21) | 1 << 7, "Crawford game in money play"),
        (VALID_KEY | 1 << 7, "neither player is 1-away"),
        (VALID_KEY | 7 << 36, "score 7 is not below the match length 7"),
        (VALID_KEY | 1 << 12, "double is offered but the dice"),
        (VALID_KEY & ~(0x3 << 4), "cube owner 0 with the cube at 1: a cube of 1 is centred"),
        (VALID_KEY & ~(0x2 << 4), "cube owner 1 with the cube at 1"),
        (VALID_KEY & ~(7 << 8) | GAME_OVER << 8 | 1 << 7, "the game just played did not end"),
        (VALID_KEY | 1 << 67, "bits are set beyond"),
    ],
)
def test_match_id_validation(key, message):
    mid = match_id_from_key(key)
    if message is None:
        assert match_id_from_fields(fields_from_match_id(mid)) == mid
        return
    with pytest.raises(InvalidPositionError, match=re.escape(message)) as caught:
        fields_from_match_id(mid)
    assert repr(mid) in str(caught.value)


def test_finished_game_may_reach_the_match_length():
    fields = MatchIdFields(game_state=GAME_OVER, match_length=5, score=(5, 3))
    assert fields_from_match_id(match_id_from_fields(fields)) == fields


@pytest.mark.parametrize(
    ("mid", "message"),
    [("cIkKAAAAAAA", "expected 12 characters, got 11"), ("cIkKAAAAAAA-", "bad base64 character")],
)
def test_bad_match_ids(mid, message):
    with pytest.raises(InvalidPositionError, match=message):
        fields_from_match_id(mid)


def test_match_id_fields_are_validated():
    with pytest.raises(InvalidPositionError, match="cube value 3"):
        MatchIdFields(cube_value=3)
    with pytest.raises(InvalidPositionError, match="cube owner 2"):
        MatchIdFields(cube_owner=2)


@needs_data
def test_match_id_corpus_round_trip():
    rows = corpus_pairs()
    for row in rows:
        fields = fields_from_match_id(row["match_id"])
        assert match_id_from_fields(fields) == row["match_id"]
        if row["dice"]:
            assert fields.dice == (int(row["dice"][0]), int(row["dice"][1]))
    assert len(rows) == 4706


def test_split_gnubg_id():
    assert split_gnubg_id("4HPwATDgc/ABMA:cIkKAAAAAAAA") == (OPENING_PID, "cIkKAAAAAAAA")
    with pytest.raises(InvalidPositionError, match="one colon"):
        split_gnubg_id("4HPwATDgc/ABMA")
    with pytest.raises(InvalidPositionError, match="got 13 and 12"):
        split_gnubg_id("4HPwATDgc/ABM:cIkKAAAAAAAA")


# -- XGID --------------------------------------------------------------------------------------


def test_xgid_opening():
    fields = parse_xgid(OPENING_XGID)
    assert fields.turn == XGID_BOTTOM
    assert fields.board[0].tolist() == opening_row() == fields.board[1].tolist()
    cube = (fields.cube_value, fields.cube_owner, fields.dice, fields.cube_action)
    assert cube == (1, XGID_CENTRED, (5, 2), "")
    match = (fields.score, fields.match_length, fields.crawford, fields.max_cube)
    assert match == ((0, 0), 7, False, 1024)
    assert format_xgid(fields) == OPENING_XGID
    assert not fields.board.flags.writeable


@pytest.mark.parametrize(
    "text",
    [OPENING_XGID[5:], f"  {OPENING_XGID}\t", f"{OPENING_XGID}\t\n", "xgid=" + OPENING_XGID[5:]],
)
def test_xgid_lenient_forms(text):
    assert parse_xgid(text) == parse_xgid(OPENING_XGID)


def test_xgid_nine_fields():
    fields = parse_xgid(OPENING_XGID.rsplit(":", 1)[0])
    assert fields.max_cube is None
    assert format_xgid(fields) == OPENING_XGID.rsplit(":", 1)[0]


def test_xgid_board_is_absolute():
    """The XG export says X (top, lower case) is to play 63, X on 11(3) 9 8 7(3) 6(3) 5."""
    fields = parse_xgid("XGID=---BBBBAAA---Ac-bbccbAA-A-:1:1:-1:63:4:3:0:5:8")
    assert fields.turn == XGID_TOP
    on_roll = {p: int(n) for p, n in enumerate(fields.board[0]) if n and p != OFF}
    assert on_roll == {11: 3, 9: 2, 8: 2, 7: 3, 6: 3, 5: 2}
    assert fields.score == (4, 3)  # (bottom = O, top = X): "Score is X:3 O:4"
    assert fields.cube_owner == XGID_BOTTOM  # "O own cube"
    assert format_xgid(fields) == "XGID=---BBBBAAA---Ac-bbccbAA-A-:1:1:-1:63:4:3:0:5:8"


def test_xgid_money_flags_and_cube_actions():
    fields = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:3:0:10")
    flags = (fields.jacoby, fields.beaver, fields.cube_action, fields.turn)
    assert flags == (True, True, "D", XGID_TOP)
    beavered = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:-1:1:B:0:0:2:0:10")
    assert beavered.cube_action == "B"
    with pytest.raises(InvalidPositionError, match="does not accept a beavered cube"):
        xgid_to_gnubg_id(beavered)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0", "expected 9 or 10"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10:1", "expected 9 or 10"),
        ("XGID=----aBC-C-B-e--AbdB-cB----A:0:0:1:52:0:0:0:7:0", "26 characters, got 27"),
        ("XGID=-b----E-C---eE---c-e----Bx:0:0:1:52:0:0:0:7:10", "bad board character 'x'"),
        ("XGID=Ab----E-C---eE---c-e----A-:0:0:1:52:0:0:0:7:10", "on the top player's bar"),
        ("XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:7:10", "on the bottom player's bar"),
        ("XGID=-b-Ba-D-C---dE---c-d----bB:2:1:-1:D:3:5:0:7:0", "bottom player has 16"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:7:10", "must be 1 (bottom) or -1"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:52:0:0:0:7:10", "must be an integer, got 'x'"),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:0:7:10", "from 0 to 15, got 16"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:7:10", "cube position 2"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:57:0:0:0:7:10", "dice (5, 7)"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:50:0:0:0:7:10", "dice (5, 0)"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:X:0:0:0:7:10", "field 5 (dice)"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:7:0:0:7:10", "score 7 is not below"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:1:1:7:10", "neither player is 1-away"),
        ("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:6:1:1:7:10", "Crawford game"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "field 8 must be 0 or 1"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "field 8 must be 0-3"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:7:10", "no beavers in match play"),
        ("XGID=-b----E-C---eE---c-e----B-:0:1:1:52:0:0:0:7:10", "a cube of 1 is centred"),
        ("XGID=-b----E-C---eE---c-e----B-:0:-1:1:00:0:0:0:0:10", "top player owns the cube"),
        ("XGID=------E-C----E------------:0:0:1:52:0:0:0:7:10", "the game is over: the top player"),
        (
            "XGID=------E-C----E------------:0:0:-1:52:0:0:0:7:10",
            "the game is over: the top player",
        ),
        (
            "XGID=-b----------e-------------:0:0:1:52:0:0:0:7:10",
            "the game is over: the bottom player",
        ),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:1:0:10", "beavers are not allowed"),
        ("XGID=-b---bE-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10", "too many checkers"),
        ("XGID=-b----E-C---eE---c-e--b-B-:0:0:1:52:0:0:0:7:10", "too many checkers"),
    ],
)
def test_bad_xgids(text, message):
    with pytest.raises(InvalidPositionError, match=re.escape(message)) as caught:
        parse_xgid(text)
    assert repr(text) in str(caught.value)


def test_xgid_fields_equality_and_hash():
    a, b = parse_xgid(OPENING_XGID), parse_xgid(OPENING_XGID[5:])
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert eval(repr(a), {"parse_xgid": parse_xgid}) == a


def all_corpus_xgids() -> list[str]:
    found = []
    for path in sorted(IDS.rglob("*")):
        if path.is_file() and path.name != "xgid_to_gnubg_id_crossref.tsv":
            found += re.findall(r"XGID=[^\s]+", path.read_text(encoding="utf-8", errors="replace"))
    for row in read_tsv(IDS / "xgid_lists" / "blunderdb_xgid_corpus_extract.tsv"):
        found += [row["xgid"], row["xgid_canonical_blunderdb"]]
    return found


@needs_data
def test_every_corpus_xgid_round_trips_or_is_rejected():
    accepted, rejected = 0, []
    for text in all_corpus_xgids():
        try:
            fields = parse_xgid(text)
        except InvalidPositionError as error:
            rejected.append(str(error))
            continue
        accepted += 1
        written = format_xgid(fields)
        assert written == ("" if text.startswith("XGID=") else "XGID=") + text
        assert parse_xgid(written) == fields
    print(f"corpus XGIDs: {accepted} accepted, {len(rejected)} rejected")
    assert accepted == 76
    assert len(rejected) == 3
    assert sum("26 characters, got 27" in r for r in rejected) == 1
    assert sum("too many checkers" in r for r in rejected) == 2


# -- XGID <-> GNU Backgammon -------------------------------------------------------------------


@needs_data
def test_xgid_to_gnubg_id_matches_gnubg():
    rows = read_tsv(IDS / "xgid_to_gnubg_id_crossref.tsv")
    matching, rejected, stale = 0, 0, 0
    for row in rows:
        xgid = row["xgid"]
        if row["gnubg_message"]:
            rejected += 1
            with pytest.raises(InvalidPositionError):
                xgid_to_gnubg_id(xgid)
            continue
        try:
            fields = parse_xgid(xgid)
        except InvalidPositionError as error:
            # gnubg took the Match ID but refused the board (more than 15 checkers) and kept
            # the board it had, the opening; its Match ID still follows the same mapping.
            assert "too many checkers" in str(error)
            assert row["gnubg_position_id"] == OPENING_PID
            loose = parse_xgid(xgid, checkers=18)
            match = match_id_from_fields(xgid_module._gnubg_match_fields(loose))
            assert match == row["gnubg_match_id"]
            stale += 1
            continue
        expected = f"{row['gnubg_position_id']}:{row['gnubg_match_id']}"
        assert xgid_to_gnubg_id(xgid) == expected, xgid
        assert xgid_to_gnubg_id(fields) == expected
        assert xgid_to_gnubg_id(gnubg_id_to_xgid(expected)) == expected
        matching += 1
    print(
        f"crossref: {len(rows)} rows, {matching} match gnubg exactly, {rejected} rejected "
        f"by gnubg, {stale} with more than 15 checkers on a side"
    )
    assert (len(rows), matching, rejected, stale) == (71, 68, 1, 2)


def test_player_on_roll_becomes_gnubg_player_1():
    """XGID turn -1 (top): gnubg swaps, so top is player 1 and bottom's score is player 0's."""
    gnubg = xgid_to_gnubg_id("XGID=---BBBBAAA---Ac-bbccbAA-A-:1:1:-1:63:4:3:0:5:8")
    pid, mid = split_gnubg_id(gnubg)
    match = fields_from_match_id(mid)
    assert (match.dice_owner, match.turn, match.cube_owner, match.score) == (1, 1, 0, (4, 3))
    assert (
        board_from_position_id(pid)
        == parse_xgid("XGID=---BBBBAAA---Ac-bbccbAA-A-:1:1:-1:63:4:3:0:5:8").board
    ).all()


def test_double_offered_is_dropped_like_gnubg():
    gnubg = xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:-1:D:0:0:3:0:10")
    assert gnubg == "4HPwATDgc/ABMA:cAkAAAAAAAAA"
    match = fields_from_match_id(split_gnubg_id(gnubg)[1])
    assert not match.double_offered and match.turn == match.dice_owner == 1 and match.jacoby


def test_crawford_flag_dropped_in_a_one_point_match():
    gnubg = xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:1:1:10")
    assert not fields_from_match_id(split_gnubg_id(gnubg)[1]).crawford


@needs_data
def test_gnubg_pairs_convert_to_xgid_and_back():
    converted = 0
    for row in corpus_pairs():
        gnubg = f"{row['position_id']}:{row['match_id']}"
        xgid = gnubg_id_to_xgid(gnubg)
        fields = parse_xgid(xgid)
        match = fields_from_match_id(row["match_id"])
        on_roll = XGID_BOTTOM if match.dice_owner == 1 else XGID_TOP
        assert fields.turn == on_roll
        assert (fields.board == board_from_position_id(row["position_id"])).all()
        assert fields.score == (match.score[1], match.score[0])
        assert fields.cube_action == ("D" if match.double_offered else "")
        if match.dice_owner == 1 and not match.double_offered and match.game_state == GAME_PLAYING:
            assert xgid_to_gnubg_id(xgid) == gnubg
        converted += 1
    assert converted == 4706


def test_gnubg_id_to_xgid_refuses_what_an_xgid_cannot_say():
    over = match_id_from_fields(MatchIdFields(game_state=GAME_OVER, match_length=5, score=(5, 1)))
    with pytest.raises(InvalidPositionError, match="game is over"):
        gnubg_id_to_xgid(f"{OPENING_PID}:{over}")
    resigning = match_id_from_fields(MatchIdFields(resignation=2, turn=1))
    with pytest.raises(InvalidPositionError, match="resignation"):
        gnubg_id_to_xgid(f"{OPENING_PID}:{resigning}")


def test_gnubg_id_to_xgid_options():
    assert gnubg_id_to_xgid(f"{OPENING_PID}:cIkKAAAAAAAA", beaver=True, max_cube=None) == (
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0"
    )


def test_xgid_fields_from_scratch():
    board = np.array([opening_row(), opening_row()])
    board[:, OFF] = 0
    fields = XgidFields(
        board=board,
        turn=XGID_TOP,
        cube_value=2,
        cube_owner=XGID_BOTTOM,
        score=(1, 2),
        match_length=5,
    )
    assert format_xgid(fields) == "XGID=-b----E-C---eE---c-e----B-:1:1:-1:00:1:2:0:5:10"
    assert fields.cube_owner == XGID_BOTTOM != XGID_CENTRED
    with pytest.raises(InvalidPositionError, match="as many"):
        XgidFields(board=np.array([opening_row(), [0] * 26]))


# -- fuzz --------------------------------------------------------------------------------------

PARSERS = (
    board_from_position_id,
    fields_from_match_id,
    parse_xgid,
    split_gnubg_id,
    gnubg_id_to_xgid,
    xgid_to_gnubg_id,
)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_garbage_raises_only_invalid_position_error(text):
    for parse in PARSERS:
        try:
            parse(text)
        except InvalidPositionError:
            pass


XGID_BOARDS = st.lists(st.sampled_from("-" * 14 + "AaBbC"), min_size=26, max_size=26).map(
    "".join
) | st.text(alphabet="-AaBbPp", min_size=25, max_size=27)
XGID_REST = st.tuples(
    st.sampled_from(["0", "1", "2", "16"]),  # log2 cube
    st.sampled_from(["0", "1", "-1", "2"]),  # cube position
    st.sampled_from(["1", "-1", "0"]),  # turn
    st.sampled_from(["00", "52", "66", "D", "B", "R", "07", "x"]),
    st.sampled_from(["0", "1", "4", "7"]),  # bottom score
    st.sampled_from(["0", "1", "4", "7"]),  # top score
    st.sampled_from(["0", "1", "2", "3", "4"]),  # Crawford / Jacoby / beaver
    st.sampled_from(["0", "1", "5", "7"]),  # match length
    st.sampled_from(["10", "0", "", None]),  # log2 max cube, None = nine fields
)
XGID_PIECES = st.tuples(XGID_BOARDS, XGID_REST.map(lambda rest: [f for f in rest if f is not None]))


@settings(max_examples=300, deadline=None)
@given(XGID_PIECES)
def test_xgid_like_text_parses_or_raises_invalid_position_error(pieces):
    board, rest = pieces
    text = "XGID=" + ":".join([board, *rest])
    try:
        fields = parse_xgid(text)
    except InvalidPositionError:
        return
    assert parse_xgid(format_xgid(fields)) == fields
    try:
        gnubg = xgid_to_gnubg_id(fields)
    except InvalidPositionError:
        assert fields.cube_action in ("B", "R")
        return
    assert split_gnubg_id(gnubg)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=BASE64, min_size=12, max_size=12))
def test_random_match_ids_round_trip_or_raise(mid):
    try:
        fields = fields_from_match_id(mid)
    except InvalidPositionError:
        return
    again = match_id_from_fields(fields)
    high_first = (max(fields.dice), min(fields.dice))
    assert fields_from_match_id(again) == dataclasses.replace(fields, dice=high_first)
    if fields.dice == high_first:
        assert again == mid


# -- states no game reaches ----------------------------------------------------------------


def test_a_finished_game_is_the_crawford_game_only_where_it_can_be():
    """R10.2: the Crawford game starts with a player 1-away; once it is over, the Match ID's
    score holds its result, which leaves that player 1-away or wins them the match."""
    finished = "4HPwATDgc/ABMA:sILqACAAAAAE"  # 7-point match, 2-0, Crawford, game over
    with pytest.raises(
        InvalidPositionError, match=r"neither player is 1-away.*\(R10\.2\)"
    ) as caught:
        GameState.from_gnubg_id(finished)
    assert "'sILqACAAAAAE'" in str(caught.value)
    crawford = {"crawford": True, "match_length": 7}
    for state in (GAME_OVER, GAME_RESIGNED):
        for score in [(6, 2), (2, 6), (6, 6), (7, 3), (9, 0)]:  # the trailer won, or the leader
            fields = MatchIdFields(game_state=state, score=score, **crawford)
            assert fields_from_match_id(match_id_from_fields(fields)) == fields
        with pytest.raises(InvalidPositionError, match="did not end the match"):
            MatchIdFields(game_state=state, score=(2, 0), **crawford)
        with pytest.raises(InvalidPositionError, match=r"cube is used in the Crawford game"):
            MatchIdFields(game_state=state, score=(6, 2), cube_value=2, cube_owner=1, **crawford)
    with pytest.raises(InvalidPositionError, match="no one doubles in it"):
        MatchIdFields(game_state=GAME_DROPPED, score=(6, 2), **crawford)


def test_no_dice_are_rolled_once_a_side_has_borne_off_every_checker():
    """R8.1: the last checker borne off ends the game. The replay's states after it carry no
    dice; an ID that rolls dice there is refused, saying so."""
    over, rolled = "I+AASAAAAAAAAA", "sAF7AAAAEAAE"  # player 0 has borne off all 15; 6-6 rolled
    with pytest.raises(
        InvalidPositionError,
        match=r"dice 6-6 are rolled, but the game is over: "
        r"player 0 has borne off every checker \(R8\.1\)",
    ) as caught:
        GameState.from_gnubg_id(f"{over}:{rolled}")
    assert f"'{over}:{rolled}'" in str(caught.value)
    fields = dataclasses.replace(fields_from_match_id(rolled), dice=(0, 0))
    state = GameState.from_gnubg_id(f"{over}:{match_id_from_fields(fields)}")
    assert state.position.is_game_over and state.dice is None
    with pytest.raises(InvalidPositionError, match="the game is over"):
        state.replace(dice=(3, 1))
    with pytest.raises(InvalidPositionError, match="the game is over"):
        gnubg_id_to_xgid(f"{over}:{rolled}")
    with pytest.raises(InvalidPositionError, match=r"the game is over.*\(R8\.1\)"):
        GameState.from_xgid("XGID=------E-C----E------------:0:0:1:52:0:0:0:7:10")


def test_a_cube_of_1_has_no_owner():
    """R9.1, R9.4: the cube starts centred, and a player owns it only by taking a double."""
    with pytest.raises(InvalidPositionError, match=r"a cube of 1 is centred.*\(R9\.1, R9\.4\)"):
        GameState.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:1:1:52:0:0:0:7:10")
    with pytest.raises(InvalidPositionError, match="cube owner 0 with the cube at 1"):
        MatchIdFields(cube_owner=0)
    with pytest.raises(InvalidPositionError, match="cube owner 1 with the cube at 1"):
        GameState.initial(cube_owner=1)
    owned = parse_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:0:7:10")
    assert (owned.cube_value, owned.cube_owner) == (2, XGID_BOTTOM)
