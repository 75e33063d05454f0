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

from . import gnubg, xgid
from .gnubg import *  # noqa: F403 - the names gnubg.__all__ lists
from .xgid import *  # noqa: F403 - the names xgid.__all__ lists

__all__ = []
__all__ += gnubg.__all__
__all__ += xgid.__all__
