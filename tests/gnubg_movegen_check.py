"""Compare gammonlab's legal plays with GNU Backgammon's move generator.

Run as a script (a crash of the reference library must not take the test run
down); prints one JSON line: pairs checked, mismatches, examples, by source.
"""

from __future__ import annotations

import json
import sys

import gnubg_nn
import numpy as np
from boards import (
    START,
    VARIANT_STARTS,
    apply_gnubg_moves,
    from_gnubg,
    random_board,
    random_play,
    to_gnubg,
)

from gammonlab._kernels.movegen import generate_plays


def gnubg_selfplay(rng: np.random.Generator, games: int):
    out = []
    gnubg_nn.set.seed(int(rng.integers(1 << 30)))
    for _ in range(games):
        g = to_gnubg(START)
        for _ in range(400):
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            out.append((from_gnubg(g), d1, d2))
            moves = gnubg_nn.best_move(g, d1, d2)
            g = apply_gnubg_moves(g, moves)
            if sum(g[1]) == 0:
                break
    return out


def main(seed: int, random_games: int, selfplay_games: int, random_boards: int) -> None:
    rng = np.random.default_rng(seed)
    sources = {
        "random play": random_play(rng, random_games),
        "gnubg self-play": gnubg_selfplay(rng, selfplay_games),
    }
    for name, start in VARIANT_STARTS.items():
        sources[f"random play ({name})"] = random_play(rng, max(1, random_games // 10), start)
    for kind in ("any", "bar", "bearoff", "race"):
        items = []
        for _ in range(random_boards):
            board = random_board(rng, kind)
            d1, d2 = (int(d) for d in rng.integers(1, 7, size=2))
            items.append((board, d1, d2))
        sources[f"random boards ({kind})"] = items
    report = {
        "checked": 0,
        "mismatches": 0,
        "examples": [],
        "by_source": {},
        "no_legal_play": 0,
        "on_bar": 0,
        "bearoff": 0,
    }
    for name, items in sources.items():
        for board, d1, d2 in items:
            boards, _ = generate_plays(board, d1, d2)
            ours = sorted(gnubg_nn.key_of_board(to_gnubg(b)) for b in boards)
            ref = sorted(gnubg_nn.moves(to_gnubg(board), d1, d2))
            report["checked"] += 1
            report["by_source"][name] = report["by_source"].get(name, 0) + 1
            report["no_legal_play"] += not ref
            report["on_bar"] += bool(board[0, 25])
            report["bearoff"] += bool(board[0, 7:].sum() == 0)
            if ours != ref:
                report["mismatches"] += 1
                if len(report["examples"]) < 10:
                    report["examples"].append(
                        {
                            "position_id": gnubg_nn.position_id(to_gnubg(board)),
                            "dice": [d1, d2],
                            "ours": len(ours),
                            "gnubg": len(ref),
                        }
                    )
    print(json.dumps(report))


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:5]))
