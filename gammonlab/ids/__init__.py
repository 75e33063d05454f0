"""GNU Backgammon's Position ID and Match ID (:mod:`.gnubg`), and eXtreme Gammon's
XGID (:mod:`.xgid`).

A board here is gammonlab's ``(2, 26)`` integer array: row 0 is the side on
roll, row 1 its opponent, each in its own numbering (R1.1). GNU Backgammon's
``[2][25]`` layout appears only inside this package.

>>> board_from_position_id("4HPwATDgc/ABMA")[0, 1:26].tolist()
[0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
>>> xgid_to_gnubg_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
'4HPwATDgc/ABMA:cInqAAAAAAAE'
"""

from .gnubg import (
    GAME_DROPPED,
    GAME_NONE,
    GAME_OVER,
    GAME_PLAYING,
    GAME_RESIGNED,
    MATCH_ID_LENGTH,
    POSITION_ID_LENGTH,
    MatchIdFields,
    board_from_position_id,
    fields_from_match_id,
    match_id_from_fields,
    position_id_from_board,
    position_id_unchecked,
    split_gnubg_id,
)
from .xgid import (
    XGID_BOTTOM,
    XGID_CENTRED,
    XGID_TOP,
    XgidFields,
    format_xgid,
    gnubg_id_to_xgid,
    parse_xgid,
    xgid_to_gnubg_id,
)

__all__ = [
    "GAME_DROPPED",
    "GAME_NONE",
    "GAME_OVER",
    "GAME_PLAYING",
    "GAME_RESIGNED",
    "MATCH_ID_LENGTH",
    "POSITION_ID_LENGTH",
    "XGID_BOTTOM",
    "XGID_CENTRED",
    "XGID_TOP",
    "MatchIdFields",
    "XgidFields",
    "board_from_position_id",
    "fields_from_match_id",
    "format_xgid",
    "gnubg_id_to_xgid",
    "match_id_from_fields",
    "parse_xgid",
    "position_id_from_board",
    "position_id_unchecked",
    "split_gnubg_id",
    "xgid_to_gnubg_id",
]
