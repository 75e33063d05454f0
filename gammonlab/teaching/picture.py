"""The teaching board's picture: the board as its player sees it, with the moves of the play
being built (or the last play) as arrows, and the players' names marked with who is on
roll or who won."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..draw.svg import SVG, Shape
    from ..play import Move
    from ..position import Position
    from .board import TeachingBoard

__all__ = ["draw_teaching_board"]


def draw_teaching_board(
    board: TeachingBoard,
    shown: Position,
    *,
    preview: tuple[Move, ...] | None,
    arrows: bool,
    flip: bool,
    numbering: bool,
    size: float | None,
    highlight: Iterable[int] | None,
    hit_areas: bool,
) -> SVG:
    """The picture that :meth:`~gammonlab.teaching.board.TeachingBoard.board_svg` draws.

    ``shown`` is the position drawn: the board's own, or where the moves of a play being
    built took its checkers; ``preview`` the moves of a play to draw instead of the last
    play, ``None`` for none. The other options are those of ``board_svg``.
    """
    from dataclasses import replace

    from ..draw.svg import Diagram, Text, layout_board, render_svg
    from ..state import GameState

    over = board.is_game_over
    user, on_roll = board.user, board.on_roll
    state = GameState(shown, on_roll=on_roll, dice=None if over else board.dice, bottom=user)
    base = layout_board(
        state,
        flip=flip,
        numbering=numbering,
        cube=False,
        score=False,
        arrows=preview or (),
        player=user,
        highlight=highlight,
        hit_areas=hit_areas,
    )
    shapes = list(base.shapes)
    last = board.last_turn
    if board.partial and not over and preview is None:
        # the moves so far, drawn from the position before them, under the hit areas
        hits = _play_arrows(board.position, board.partial, on_roll == user, flip=flip)
        at = next((i for i, s in enumerate(shapes) if s.cls == "hit-area"), len(shapes))
        shapes[at:at] = hits
    elif arrows and preview is None and last is not None and last.play.moves:
        # the arrows start from the position before the play, in the same frame
        shapes += _play_arrows(last.play.before, last.play.moves, last.player == user, flip=flip)
    names = board.names
    winner = board.outcome.winner if board.outcome is not None else None
    for i, shape in enumerate(shapes):
        if isinstance(shape, Text) and shape.cls == "name":
            player = int(dict(shape.data)["player"])  # type: ignore[call-overload]
            label = names[player]
            if player == winner:
                label += " \u00b7 winner"
            elif winner is None and player == on_roll:
                label += " \u00b7 on roll"
            shapes[i] = replace(shape, text=label)
    pips = board.position.pips
    by_player = {on_roll: pips[0], 1 - on_roll: pips[1]}
    title = f"Backgammon board: {names[0]} {by_player[0]} pips, {names[1]} {by_player[1]} pips"
    if last is not None:
        title += f"; last play {last}"
    return render_svg(
        Diagram(width=base.width, height=base.height, shapes=tuple(shapes), title=title),
        size=size,
    )


def _play_arrows(
    before: Position, moves: tuple[Move, ...], by_user: bool, *, flip: bool
) -> list[Shape]:
    """The arrows and hit rings of ``moves`` played from ``before`` (seen from the mover),
    in the frame of a board whose player is at the bottom when ``by_user``."""
    from ..draw.svg import layout_board

    drawn = layout_board(
        before,
        flip=flip,
        numbering=False,
        cube=False,
        score=False,
        arrows=moves,
        player=0 if by_user else 1,
    )
    return [s for s in drawn.shapes if s.cls in ("arrow", "hit")]
