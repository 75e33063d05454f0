"""Replaying a transcript's raw record through the rules into a :class:`~gammonlab.Match`.

Every play is resolved by the rules engine, and a game state machine follows the cube
(R9, R10), the score, the Crawford game (R10.2), beavers and raccoons (R10.6),
resignations (R12) and the end of each game (R8). The points each game is worth are
computed and compared with what the transcript claims.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .. import ids
from ..errors import GammonlabError, IllegalPlayError, InvalidNotationError, ParseError
from ..explain import resolve_play, resolve_turns
from ..io.raw import Location, ProblemLog
from ..io.tags import rules_from_headers
from ..io.text import Errors, collects, stated_crawford
from ..play import Play
from ..position import Position
from ..rules import HIGHEST_CUBE, Rules, Variant
from ..state import GameState, state_fields
from .model import Action, Game, Match

__all__ = ["CrawfordCount", "replay_match"]

if TYPE_CHECKING:
    pass


_ROLLS = {(die1, die2): (die1, die2) for die1 in range(1, 7) for die2 in range(1, 7)}
"""The 36 rolls of two dice, each as itself: a state's dice, checked."""


@lru_cache(maxsize=64)
def _initial_position(variant: Variant) -> Position:
    """The starting position, one per variant: positions are immutable."""
    return Position.initial(variant)


class _Replay:
    """The state machine of one game."""

    def __init__(
        self,
        rules: Rules,
        score: tuple[int, int],
        crawford: bool,
        players: tuple[str, str],
        *,
        stated_rules: bool = False,
        cube: int = 1,
    ) -> None:
        self.rules = rules
        self.position = _initial_position(rules.variant)
        # a transcript never names its opening rule (R3.2 or R3.3): the opening
        # is checked only against rules the caller states
        self.stated_rules = stated_rules
        self.score = score
        self.crawford = crawford
        self.players = players
        self.on_roll: int | None = None
        self.cube = 1
        self.owner: int | None = None
        self.cube_turned = False
        # a pending cube offer: (stage, doubler, value offered)
        self.offer: tuple[str, int, int] | None = None
        # a pending resignation: (resigner, level or None)
        self.resigned: tuple[int, int | None] | None = None
        self.resign_claim: int | None = None  # the points a resignation stated it lost
        self.winner: int | None = None
        self.points: int | None = None
        self.ending: str | None = None
        self.actions: list[Action] = []
        # R10.3: Holland applies in a game after the Crawford game, where one
        # side (the leader) needs one point and the other (the trailer) more
        length = rules.match_length
        self.holland = (
            rules.holland
            and length > 0
            and not crawford
            and max(score) == length - 1
            and min(score) < length - 1
        )
        # R10.4: the last roll, as (player, sorted dice), and the automatic doubles so far
        self.last_roll: tuple[int, tuple[int, int]] | None = None
        self.automatic_doubles = 0
        self.start_cube = cube
        if cube != 1:
            # R10.5: the cube turned by equal opening rolls before play began
            self.cube = cube
            self.automatic_doubles = cube.bit_length() - 1
        # rolls played by player 0 and player 1 (R3.1 opening, R10.3 Holland)
        self.rolls = [0, 0]
        # the plays of the game's first moves, resolved at once (resolve_turns), and
        # how many moves were made
        self.turns: list[tuple[Play, int, Position]] = []
        self.moves_made = 0
        # the checked fields of the states so far, but their position, player on roll
        # and dice (state): the turn, and the fields after the dice
        self.checked: dict[tuple[Any, ...], tuple[int, tuple[Any, ...]]] = {}

    def resolve_turns(self, actions: Any) -> None:
        """Resolve at once the plays of the moves of ``actions`` (a game's raw actions),
        as far as they resolve; :meth:`move` takes them in turn."""
        turns = []
        for action in actions:
            if action.kind != "move":
                continue
            if action.dice is None or action.play is None:
                break
            turns.append((action.play, action.dice))
        self.turns = resolve_turns(self.position, turns)

    def play_resolved(self, actions: Sequence[Any], start: int) -> int:
        """Play the moves from ``actions[start]`` on whose plays :meth:`resolve_turns`
        found, exactly as :meth:`apply` plays them, while nothing but the move is left to
        check: the player on roll moves, no double or resignation waits, the game is under
        way (its opening roll checked, R3.1), no roll can double the stake (R10.4), the
        state is one this game has checked (:meth:`state`) and the game goes on after the
        move (R8.1). Returns the index of the first action left to :meth:`apply`: a game's
        moves are nearly all played here."""
        turns = self.turns
        made = self.moves_made
        if (
            made >= len(turns)
            or self.on_roll is None
            or self.offer is not None
            or self.resigned is not None
            or self.winner is not None
            or not self.actions
            or self.rolls == [0, 0]
            or self.rules.auto_doubles == "seed-000"
        ):
            return start
        # only the last play resolved may end the game (R8.1), and none lets its player
        # roll again (resolve_turns leaves an Acey-Deucey 1-2, R11.2, to move())
        stop = len(turns) - 1 if turns[-1][2].is_game_over else len(turns)
        # the checked fields of each player's move in this game, as state() keys them
        cube, owner, checked = self.cube, self.owner, self.checked
        fields = [
            checked.get((player, player, False, cube, owner, ids.GAME_PLAYING, False, 0))
            for player in (0, 1)
        ]
        first = on_roll = self.on_roll
        position = self.position
        players = self.players
        record = self.actions.append
        taken = 0
        for raw, (play, n_legal, after) in zip(actions[start:], turns[made:stop]):
            if raw.kind != "move" or raw.player != on_roll:
                break
            dice = raw.dice
            roll = _ROLLS.get(dice)  # the dice of a turn resolved: a tuple of two numbers
            checked_fields = fields[on_roll]
            if roll is None or checked_fields is None:
                break
            # a roll with no legal play (R5.5) is the one whose play moves no checker
            state = (position, on_roll, checked_fields[0], roll, *checked_fields[1])
            record(_move_action(raw, state, play if n_legal else None, n_legal, players))
            position = after
            on_roll = 1 - on_roll
            taken += 1
        # the players took turns, the first on roll first
        self.rolls[first] += (taken + 1) // 2
        self.rolls[1 - first] += taken // 2
        self.moves_made = made + taken
        self.position = position
        self.on_roll = on_roll
        return start + taken

    def state(self, turn: int, *, dice: tuple[int, int] | None = None) -> tuple[Any, ...]:
        """The state ``turn`` acts in, as its checked fields: an action's state is built
        from them when it is first asked for (a transcript has a state per action)."""
        on_roll = self.on_roll if self.on_roll is not None else turn
        # GNU Backgammon records the opening roll with the game not yet started
        status = ids.GAME_PLAYING if self.actions else ids.GAME_NONE
        offered = self.offer is not None
        resignation = self.resigned[1] or 1 if self.resigned else 0
        # The score, the rules and the Crawford flag are the game's, and the checks of a
        # state do not tell one roll from another: the fields beside the position and
        # the dice take few values in a game, and each combination is checked once.
        roll = _ROLLS.get(dice) if type(dice) is tuple else None
        keyed = roll is not None or dice is None
        if keyed:
            key = (on_roll, turn, roll is None, self.cube, self.owner, status, offered, resignation)
            checked = self.checked.get(key)
            if checked is not None:
                return (self.position, on_roll, checked[0], roll, *checked[1])
        rules = self.rules
        fields = state_fields(
            self.position,
            on_roll,
            turn,
            dice,
            self.cube,
            self.owner,
            self.score,
            rules.match_length,
            self.crawford,
            status,
            offered,
            resignation,
            rules.jacoby,
            rules.beavers,
            rules.cube_limit,
            1,
        )
        if keyed:
            self.checked[key] = (fields[2], fields[4:])
        return fields

    def game_state(self, turn: int) -> GameState:
        """The state ``turn`` acts in, built."""
        return GameState.from_fields(self.state(turn))

    def who(self, player: int) -> str:
        return f"{self.players[player]} (player {player})"

    def start_turn(self, raw: Any, what: str) -> None:
        if self.on_roll is None:
            self.on_roll = raw.player
        if self.offer is not None and self.offer[0] == "beaver" and raw.player == self.on_roll:
            # The doubler plays on: the beaver was taken without a word, as GNU
            # Backgammon's .mat files write it (R10.6).
            self.cube = self.offer[2]
            self.owner = self.offer[1]
            self.offer = None
        if self.offer is not None:
            raise raw.loc.error(
                f"{self.who(raw.player)} {what}, but a double waits for "
                f"{self.who(1 - self.offer[1])}'s answer"
            )
        if self.resigned is not None:
            raise raw.loc.error(
                f"{self.who(raw.player)} {what}, but a resignation waits for an answer"
            )
        if raw.player != self.on_roll:
            raise raw.loc.error(
                f"{self.who(raw.player)} {what} out of turn: {self.who(self.on_roll)} is on roll"
            )

    def end(self, winner: int, points: int | None, ending: str) -> None:
        self.winner = winner
        self.points = points
        self.ending = ending

    # -- actions ----------------------------------------------------------------------------

    def move(self, raw: Any, following: Any, resolved: tuple[Play, int] | None = None) -> None:
        """A roll and its play. ``resolved`` is a play already chosen among the
        legal plays of this position and roll, and their number (a simulation),
        so that its notation need not be read again."""
        if raw.player != self.on_roll or self.offer is not None or self.resigned is not None:
            self.start_turn(raw, "moves")  # the first turn, or one that is out of turn
        if raw.dice is None:
            raise raw.loc.error("a move needs the dice rolled")
        dice = raw.dice
        if raw.play is None:
            raise raw.loc.error(
                "the play of this roll is not written, so the game cannot be replayed"
            )
        if (
            self.stated_rules
            and self.rolls == [0, 0]
            and self.rules.opening == "standard"
            and dice[0] == dice[1]
        ):
            raise raw.loc.error(
                f"the opening roll is {dice[0]}{dice[1]}, but equal opening "
                f"numbers roll again (R3.1); a doublet opens only when the "
                f"first player rolls afresh (R3.3, opening='reroll')"
            )
        self.rolls[raw.player] += 1
        if self.rules.auto_doubles == "seed-000":
            self.automatic_double(raw.player, dice)
        state = self.state(raw.player, dice=dice)
        if resolved is not None:
            self.played(raw, state, *resolved)
            return
        made = self.moves_made
        self.moves_made = made + 1
        if made < len(self.turns):
            play, n_legal, after = self.turns[made]
            self.played(raw, state, play, n_legal, after)
            return
        self.turns = []  # the moves from here on are resolved one by one
        legal = self.position.legal_plays(dice)
        if (
            not raw.play.strip()
            and len(legal)
            and (following is None or following.kind in ("win", "resign"))
        ):
            # a roll left unplayed, then the game ends: a resignation after rolling
            self.actions.append(
                Action(
                    "resign",
                    raw.player,
                    state,
                    dice=dice,
                    written="",
                    players=self.players,
                    location=raw.loc,
                    analysis=raw.analysis,
                )
            )
            self.resigned = (raw.player, None)
            return
        try:
            play = resolve_play(self.position, raw.play, dice, legal=legal)
        except (IllegalPlayError, InvalidNotationError) as error:
            rule = f" ({error.rule})" if isinstance(error, IllegalPlayError) else ""
            problem = raw.loc.error(f"illegal play{rule}: {error}")
            raise problem from error
        self.played(raw, state, play, len(legal))

    def played(
        self,
        raw: Any,
        state: tuple[Any, ...],
        play: Play,
        n_legal: int,
        after: Position | None = None,
    ) -> None:
        """Record a legal play and its consequences: the game may end (R8). ``after``
        is the position the play leaves, when at hand."""
        self.actions.append(
            _move_action(raw, state, play if play.moves else None, n_legal, self.players)
        )
        position = play.position if after is None else after
        over = position.is_game_over
        # R11.2: after an Acey-Deucey 1-2 played in full the same player rolls again
        again = play.roll_again
        self.on_roll = raw.player if again else 1 - raw.player
        if again and not over:
            position = position.swapped()
        self.position = position
        if over:
            result = self.position.result(self.rules.scoring)
            assert result is not None
            points = result.points
            if self.rules.money and self.rules.jacoby and not self.cube_turned:
                points = 1  # R10.1: gammons count single until the cube is turned
            self.end(raw.player, points * self.cube, result.kind)

    def automatic_double(self, player: int, dice: tuple[int, int]) -> None:
        """R10.4: a roll repeating the numbers the opponent rolled on the turn
        before doubles the stake; the cube keeps its owner (a centred cube stays
        centred), so it does not count as turned for Jacoby (R10.1), as GNU
        Backgammon counts a centred cube. ``auto_double_limit`` (when not 0) caps
        the automatic doubles of a game, and the cube limit (or else
        :data:`HIGHEST_CUBE`) caps the stake. The Crawford game (R10.2) is
        played for the stake of 1: no cube at all."""
        roll = (max(dice), min(dice))
        repeated = (
            self.last_roll is not None and self.last_roll[0] != player and self.last_roll[1] == roll
        )
        self.last_roll = (player, roll)
        limit = self.rules.auto_double_limit
        highest = min(self.rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
        if (
            not repeated
            or self.crawford
            or (limit and self.automatic_doubles >= limit)
            or 2 * self.cube > highest
        ):
            return
        self.cube *= 2
        self.automatic_doubles += 1

    def double_refusal(self, player: int) -> str | None:
        """Why the rules forbid ``player`` to double now (R9, R10.2, R10.3), or None."""
        if not self.rules.cube:
            return f"{self.who(player)} doubles, but the cube is not in play"
        if self.crawford:
            return f"{self.who(player)} doubles in the Crawford game (R10.2)"
        if self.holland and self.score[player] < self.score[1 - player] and (min(self.rolls) < 2):
            return (
                f"{self.who(player)} doubles before both sides have played "
                f"two rolls of a post-Crawford game (Holland rule, R10.3)"
            )
        if self.owner is not None and self.owner != player:
            return (
                f"{self.who(player)} doubles, but the cube belongs to {self.who(self.owner)} (R9.5)"
            )
        offered = 2 * self.cube
        highest = min(self.rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
        if offered > highest:
            return f"{self.who(player)} doubles to {offered}, above the cube limit {highest} (R9.6)"
        return None

    def double(self, raw: Any) -> None:
        self.start_turn(raw, "doubles")
        player = raw.player
        refusal = self.double_refusal(player)
        if refusal is not None:
            raise raw.loc.error(refusal)
        offered = 2 * self.cube
        if raw.cube is not None and raw.cube != offered:
            raise raw.loc.error(
                f"the cube is {self.cube}, so a double offers {offered}, not {raw.cube}"
            )
        self.actions.append(
            Action(
                "double",
                player,
                self.state(player),
                cube=offered,
                players=self.players,
                location=raw.loc,
                analysis=raw.analysis,
            )
        )
        self.offer = ("double", player, offered)

    def answer(self, raw: Any) -> None:
        """take, drop, beaver or raccoon."""
        kind = raw.kind
        player = raw.player
        if self.offer is None:
            if kind == "take" and self.resigned is not None:
                return self.resignation_answer(replace(raw, kind="accept"))
            if kind == "drop" and self.resigned is not None:
                return self.resignation_answer(replace(raw, kind="reject"))
            raise raw.loc.error(f"{self.who(player)} {kind}s, but no double was offered")
        stage, doubler, offered = self.offer
        if kind == "beaver" and stage == "beaver":
            kind = "raccoon"  # GNU Backgammon writes a raccoon as a second beaver
        if player == doubler:
            raise raw.loc.error(f"{self.who(player)} answers their own double")
        state = self.state(player)
        if kind in ("beaver", "raccoon"):
            expected_stage = "double" if kind == "beaver" else "beaver"
            if not self.rules.money:
                raise raw.loc.error(f"a {kind} is allowed in money play only (R10.6)")
            if stage != expected_stage:
                raise raw.loc.error(
                    f"a {kind} answers a {'double' if kind == 'beaver' else 'beaver'} (R10.6)"
                )
            allowed = self.rules.beavers if kind == "beaver" else self.rules.raccoons
            if not allowed:
                raise raw.loc.error(
                    f"{self.who(player)} {kind}s, but the rules allow no {kind}s (R10.6)"
                )
            highest = min(self.rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
            if 2 * offered > highest:
                raise raw.loc.error(
                    f"a {kind} to {2 * offered} goes above the cube limit {highest} (R9.6)"
                )
            # R10.6: take, and at once redouble while keeping the cube
            self.cube = offered
            self.owner = player
            self.cube_turned = True
            self.offer = (kind, player, 2 * offered)
            if raw.cube is not None and raw.cube != 2 * offered:
                raise raw.loc.error(
                    f"a {kind} of a cube at {offered} offers {2 * offered}, not {raw.cube}"
                )
            self.actions.append(
                Action(
                    kind,
                    player,
                    state,
                    cube=2 * offered,
                    players=self.players,
                    location=raw.loc,
                    analysis=raw.analysis,
                )
            )
            return None
        self.actions.append(
            Action(
                kind, player, state, players=self.players, location=raw.loc, analysis=raw.analysis
            )
        )
        if kind == "take":
            self.cube = offered
            # R9.4: the taker owns the cube; after a beaver or raccoon the one who
            # redoubled keeps it (R10.6)
            self.owner = player if stage == "double" else doubler
            self.cube_turned = True
            self.offer = None
        else:  # drop: R9.4, the passer loses the stake before the double
            self.offer = None
            self.end(doubler, self.cube, "drop")
        return None

    def resign(self, raw: Any) -> None:
        if self.on_roll is None:
            self.on_roll = raw.player
        state = self.state(raw.player, dice=raw.dice)
        level = raw.resign_level
        if raw.points is not None and level is None and raw.points % self.cube == 0:
            level = raw.points // self.cube if 1 <= raw.points // self.cube <= 3 else None
        self.actions.append(
            Action(
                "resign",
                raw.player,
                state,
                dice=raw.dice,
                resign_level=level,
                players=self.players,
                location=raw.loc,
                analysis=raw.analysis,
            )
        )
        self.resigned = (raw.player, level)
        self.resign_claim = raw.points
        if raw.points is not None:
            # "Losses N point": the resignation and its result in one
            self.settle_resignation(1 - raw.player, raw.points, raw)

    def resignation_answer(self, raw: Any) -> None:
        if self.resigned is None:
            raise raw.loc.error(f"{self.who(raw.player)} {raw.kind}s, but nobody resigned")
        resigner, level = self.resigned
        if raw.player == resigner:
            raise raw.loc.error(f"{self.who(raw.player)} answers their own resignation")
        self.actions.append(
            Action(
                raw.kind,
                raw.player,
                self.state(raw.player),
                resign_level=level,
                players=self.players,
                location=raw.loc,
                analysis=raw.analysis,
            )
        )
        if raw.kind == "reject":
            self.resigned = None
            self.resign_claim = None
        elif level is not None:
            self.end(raw.player, level * self.cube, "resign")

    def needed(self, winner: int) -> int | None:
        """Points the winner still needs for the match, ``None`` in money play."""
        if self.rules.money:
            return None
        return self.rules.match_length - self.score[winner]

    def capped(self, winner: int, claimed: int, worth: int) -> bool:
        """Whether a claim that differs from the game's worth is a match-winning
        game written as the points the winner needed, or as the match length, as
        match transcripts often do."""
        return claim_capped(claimed, worth, self.needed(winner), self.rules.match_length)

    def note_resign_level(self, level: int) -> None:
        """Give the resignation the level its result shows, when it did not say."""
        for index in range(len(self.actions) - 1, -1, -1):
            action = self.actions[index]
            if action.kind == "resign":
                if action.resign_level is None:
                    self.actions[index] = replace(action, resign_level=level)
                return

    def settle_resignation(self, winner: int, claimed: int, raw: Any) -> None:
        """End by resignation; the level comes from the points when unwritten."""
        level = self.resigned[1] if self.resigned else None
        if level is None:
            if claimed % self.cube == 0 and 1 <= claimed // self.cube <= 3:
                level = claimed // self.cube
                if self.resigned is not None:
                    self.resigned = (self.resigned[0], level)
                    self.note_resign_level(level)
            elif self.capped(winner, claimed, 3 * self.cube):
                self.end(winner, claimed, "resign")  # level unknown, the match is won
                return
            else:
                self.end(winner, None, "resign")
                raise raw.loc.error(
                    f"the transcript gives {claimed} points for a resignation with the cube "
                    f"at {self.cube}; a resignation is worth 1 to 3 times the cube (R12.1)"
                )
        self.end(winner, level * self.cube, "resign")

    def win(self, raw: Any) -> None:
        winner = raw.player
        claimed = raw.points
        if self.winner is None:
            # the transcript states a result the moves did not reach: a resignation,
            # written or (as GNU Backgammon's exports do) not
            if self.resigned is not None and self.resigned[0] == winner:
                raise raw.loc.error(f"{self.who(winner)} wins after resigning")
            if self.resigned is None:
                self.resigned = (1 - winner, None)
            if claimed is None:
                raise raw.loc.error("the result does not say how many points")
            failure = None
            try:
                self.settle_resignation(winner, claimed, raw)
            except ParseError as error:
                failure = error
            self.record_win(raw, claimed)
            if failure is not None:
                raise failure
            return
        if winner != self.winner:
            self.record_win(raw, claimed)
            raise raw.loc.error(
                f"the transcript says {self.who(winner)} wins, but the game "
                f"went to {self.who(self.winner)}"
            )
        self.record_win(raw, claimed)
        if (
            claimed is not None
            and self.points is not None
            and claimed != self.points
            and not self.capped(winner, claimed, self.points)
        ):
            raise raw.loc.error(
                f"the transcript claims {claimed} points; the game is worth "
                f"{self.points} ({self.ending}, cube {self.cube})"
            )

    def record_win(self, raw: Any, claimed: int | None) -> None:
        if self.actions and self.actions[-1].kind == "win":
            return
        self.actions.append(
            self.win_action(raw.player, claimed, raw.loc, raw.match_won, raw.analysis)
        )

    def win_action(
        self,
        winner: int,
        claimed: int | None,
        location: Any,
        match_won: bool = False,
        analysis: Any = None,
    ) -> Action:
        """The game's result line: the points it is worth, and those the transcript claims."""
        return Action(
            "win",
            winner,
            self.state(winner),
            points=self.points,
            claimed_points=claimed,
            match_won=match_won,
            players=self.players,
            location=location,
            analysis=analysis,
        )

    def apply(self, raw: Any, following: Any) -> None:
        if self.winner is not None and raw.kind != "win":
            raise raw.loc.error(f"{raw.kind} after the end of the game")
        kind = raw.kind
        if kind == "move":
            self.move(raw, following)
        elif kind == "double":
            self.double(raw)
        elif kind in ("take", "drop", "beaver", "raccoon"):
            self.answer(raw)
        elif kind == "resign":
            self.resign(raw)
        elif kind in ("accept", "reject"):
            self.resignation_answer(raw)
        elif kind == "win":
            self.win(raw)
        else:
            raise raw.loc.error(f"unknown action {kind!r}")

    def final_state(self) -> GameState:
        turn = self.on_roll if self.on_roll is not None else 0
        if self.winner is None and self.offer is not None:
            turn = 1 - self.offer[1]  # a game cut short while a double or beaver waits
        elif self.winner is None and self.resigned is not None:
            turn = 1 - self.resigned[0]  # ... or a resignation
        fields = self.state(turn)
        if self.winner is not None:
            status = {"drop": ids.GAME_DROPPED, "resign": ids.GAME_RESIGNED}.get(
                self.ending or "", ids.GAME_OVER
            )
            # the game is over: no offer, no resignation, the player on roll to act
            position, on_roll, _, dice, cube, owner, score, length, crawford = fields[:9]
            fields = state_fields(
                position,
                on_roll,
                on_roll,
                dice,
                cube,
                owner,
                score,
                length,
                crawford,
                status,
                False,
                0,
                *fields[12:],
            )
        return GameState.from_fields(fields)

    def game(
        self, number: int, *, final_state: GameState, problems: tuple[ParseError, ...] = ()
    ) -> Game:
        """The game as replayed, numbered ``number`` in its match."""
        actions = self.actions
        claimed = self.points if self.points is not None else self.resign_claim
        if (
            self.ending == "resign"
            and self.winner is not None
            and claimed is not None
            and actions
            and actions[-1].kind != "win"
        ):
            # R12.1: the resignation accepted, or stated with its result ("Losses 2
            # points"), the opponent wins its points: recorded as a result line records it
            actions = [*actions, self.win_action(self.winner, claimed, actions[-1].location)]
        return Game(
            number=number,
            score=self.score,
            crawford=self.crawford,
            actions=tuple(actions),
            winner=self.winner,
            points=self.points,
            ending=self.ending,
            cube_value=self.cube,
            final_state=final_state,
            problems=problems,
            start_cube=self.start_cube,
        )


class CrawfordCount:
    """Which game of a transcript is the Crawford game (R10.2), from the score each game
    starts at and the results before it.

    The first game at which a player is one point short is the Crawford game, unless
    the transcript says which it is (SGF ``RU[...:CrawfordGame]``, in ``.mat`` a
    ``; [CrawfordGame "On"]`` line under ``Game N``). A game that starts at another
    score than the games before it make has games missing before it; if one of them
    began one point short, the Crawford game was among them.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.score = (0, 0)
        self.done = False
        self.complete = True  # every game from the first, with its result, read so far
        self.open = False  # a game started and not ended (skipped, if another starts)
        self.contradiction: str | None = None

    def start(self, written: tuple[int, int] | None, stated: bool | None = None) -> bool:
        """A game starts, at the score ``written`` (``None``: as the games before it make
        it); whether it is the Crawford game, ``stated`` when the transcript says.

        Where the games before it, all read with their results, make it certain, a
        statement to the contrary is kept in :attr:`contradiction` (its description)."""
        rules = self.rules
        if self.open:
            self.complete = False
        self.open = True
        if written is not None and tuple(written) != self.score:
            if rules.crawford and rules.match_length - 1 in self.score:
                self.done = True  # the Crawford game is among the games not read here
            self.score = (int(written[0]), int(written[1]))
            self.complete = False
        crawford = _crawford_game(rules, self.score, self.done)
        self.contradiction = None
        if stated and not (rules.crawford and rules.match_length):
            self.contradiction = (
                "the transcript says it is the Crawford game, but "
                + (
                    "the match is played without the Crawford rule"
                    if rules.match_length
                    else "money play has no Crawford game"
                )
                + " (R10.2)"
            )
        if stated is not None and rules.crawford and rules.match_length > 1:
            if self.complete and stated != crawford:
                self.contradiction = (
                    f"at {self.score[0]}-{self.score[1]} in a {rules.match_length}-point match, "
                    f"after every game before it, it is {'' if crawford else 'not '}the Crawford "
                    f"game (R10.2), but the transcript says it is {'' if stated else 'not '}"
                    f"the Crawford game"
                )
            crawford = stated
        self.done = self.done or crawford
        if rules.match_length and not crawford and max(self.score) == rules.match_length - 1:
            self.done = True
        return crawford

    def result(self, winner: int | None, points: int | None) -> None:
        """The game just started ended so (a game skipped changes no score)."""
        self.open = False
        if winner is not None and points is not None:
            self.score = _add(self.score, winner, points)
        else:
            self.complete = False


def _crawford_game(rules: Rules, score: tuple[int, int], crawford_done: bool) -> bool:
    length = rules.match_length
    return (
        rules.crawford
        and length > 1
        and not crawford_done
        and (score[0] == length - 1 or score[1] == length - 1)
    )


def _opening_cube(rules: Rules, raw_game: Any) -> int:
    """The cube a game starts with: 1, or under GNU Backgammon's automatic
    doubles (R10.5) a power of two within the limits."""
    cube = raw_game.cube
    where = f"game {raw_game.number} starts with the cube at {cube}"
    if rules.auto_doubles != "gnubg":
        raise raw_game.loc.error(
            f"{where}, but the rules have no automatic doubles of the "
            f"opening (R10.5, auto_doubles='gnubg')"
        )
    if cube < 1 or cube & (cube - 1):
        raise raw_game.loc.error(f"{where}: a cube value is a power of two")
    highest = min(rules.cube_limit or HIGHEST_CUBE, HIGHEST_CUBE)
    limit = rules.auto_double_limit
    if cube > highest:
        raise raw_game.loc.error(f"{where}, above the cube limit {highest}")
    if limit and cube.bit_length() - 1 > limit:
        raise raw_game.loc.error(
            f"{where}: more than the {limit} automatic doubles the rules allow (R10.5)"
        )
    return cube


def replay_match(raw: Any, *, errors: Errors = "raise", rules: Rules | None = None) -> Match:
    """Replay a transcript's raw record (:class:`gammonlab.io.raw.RawMatch`).

    Parameters
    ----------
    raw : RawMatch
    errors : {'raise', 'collect'}, default 'raise'
        ``raise`` stops at the first problem with a :class:`ParseError` that
        names the file, line and column; ``collect`` keeps every game that
        replays, skips the others and lists every problem in
        :attr:`Match.problems`.
    rules : Rules, optional
        The rules to replay under, instead of those the headers describe.
        Transcripts do not name seed 000's scoring (R8.4), the Holland rule
        (R10.3), automatic doubles (R10.4) or the opening (R3.3); give them
        here. Its match length must agree with the transcript's.

    Notes
    -----
    Besides the cube (R9), Jacoby (R10.1), Crawford (R10.2), beavers and
    raccoons (R10.6) and the cube limit, the state machine applies:

    - R3.1 / R3.3: with ``opening='standard'`` the first roll of a game is
      never a doublet (equal opening numbers roll again); with
      ``opening='reroll'`` the first player rolls both dice afresh, so it may be.
    - R10.3 Holland, in a game after the Crawford game where one side needs
      one point: the trailer may double only once both sides have played two
      rolls. In this 3-point match, game 1 at 2-0 was the Crawford game; in
      game 2, at 2-1, Bob trails::

          1) 31: 8/5 6/5          62: 24/18 13/11
          2) 64: 24/14*           Doubles => 2      <- refused: Bob has 1 roll

      and a double on Bob's third turn is allowed.
    - R10.4 automatic doubles (``auto_doubles='seed-000'``): a roll with the
      numbers the opponent rolled on the turn before doubles the stake before
      it is played; the cube keeps its owner (centred stays centred) and the
      move's row shows the doubled cube::

          1) 31: 8/5 6/5          13: 24/23 13/10   <- 3-1 again: cube 2
          2) 62: 24/18 13/11      26: 24/18 13/11   <- 6-2 again: cube 4

      ``auto_double_limit`` (when not 0) caps the automatic doubles of a game
      and ``cube_limit`` (or else :data:`HIGHEST_CUBE`, 32768) the stake; the
      Crawford game has none.
    - R10.5 automatic doubles (``auto_doubles='gnubg'``, money play): equal
      opening rolls turned the cube before play began. Transcripts do not
      record the tied rolls, only the cube the game starts with (SGF
      ``CV[2]``; in ``.mat``, a ``; [Cube "2"]`` line under ``Game N``); it
      must be a power of two within ``auto_double_limit`` (when not 0) and
      the cube limit. Without stated rules, a money session whose games start
      with a turned cube is read under R10.5.
    - R8.4: with ``scoring='seed-000'`` a game is worth 1, 2 (the loser has a
      checker outside its home board) or 4 (on the bar) times the cube.

    >>> from gammonlab.io.mat import parse_mat
    >>> text = (" 3 point match\\n\\n Game 1\\n A : 0     B : 0\\n"
    ...         "  1) 31: 8/5 6/5     13: 24/23 13/10\\n")
    >>> match = replay_match(parse_mat(text), rules=Rules(match_length=3,
    ...                      auto_doubles="seed-000"))
    >>> match.to_frame().cube_value.tolist()
    [1, 2]
    """
    collect = collects(errors)
    log = ProblemLog(collect=collect)
    source = raw.source
    first_loc = raw.games[0].loc if raw.games else Location(source, 1, 1, "")
    length = raw.match_length
    if rules is not None:
        if length is not None and length != rules.match_length:
            message = (
                f"the transcript's match length is {length} (0 is money), but the "
                f"rules given say {rules.match_length}"
            )
            if not collect:
                raise first_loc.error(message)
            log.add(first_loc, message + "; replayed under the rules given")
        length = rules.match_length
    if length is None:
        log.add(
            first_loc,
            "the transcript does not give the match length ('7 point match'): read as money play",
        )
        length = 0
    stated = rules is not None
    if rules is None:
        sgf_rules = (raw.rule_parts or ()) if raw.format == "sgf" else None
        rules = rules_from_headers(
            raw.headers,
            length,
            raw.variant,
            sgf_rules,
            locations=raw.locations,
            problems=log.items if collect else None,
        )
        if (
            rules.money
            and rules.auto_doubles == "none"
            and any(game.cube != 1 for game in raw.games)
        ):
            # only GNU Backgammon's automatic doubles start a game with the cube turned
            rules = rules.replace(auto_doubles="gnubg")
    games: list[Game] = []
    count = CrawfordCount(rules)
    previous_number: int | None = None
    for raw_game in raw.games:
        if previous_number is not None and raw_game.number != previous_number + 1:
            log.add(
                raw_game.loc,
                f"game {raw_game.number} follows game {previous_number}: "
                f"games are numbered one after another",
            )
        previous_number = raw_game.number
        last = games[-1] if games else None
        if rules.match_length and count.complete and last is not None and last.winner is not None:
            # every game before, with its result, read one after another: the score is sure
            final = _add(last.score, last.winner, last.points or 0)
            if max(final) >= rules.match_length:
                log.add(
                    raw_game.loc,
                    f"game {raw_game.number} skipped: it is played after the "
                    f"{rules.match_length}-point match was won, by game {last.number} at "
                    f"{final[0]}-{final[1]} (R8.5)",
                )
                continue
        written = raw_game.scores
        if (
            written is not None
            and tuple(written) != count.score
            and games
            and (games[-1].points is not None)
        ):
            log.add(
                raw_game.loc,
                f"game {raw_game.number} starts at {written[0]}-{written[1]}, but the "
                f"games before it make the score {count.score[0]}-{count.score[1]}",
            )
        crawford = count.start(written, stated_crawford(raw_game.rules))
        if count.contradiction is not None:
            log.add(raw_game.loc, f"game {raw_game.number}: {count.contradiction}")
        score = count.score
        game_problems: list[ParseError] = list(raw_game.problems)
        actions = raw_game.actions
        if not actions and raw_game is not raw.games[-1]:
            # a game line and nothing after it; the last game of a file cut short is kept
            log.add(raw_game.loc, f"game {raw_game.number} skipped: it has no moves and no result")
            continue
        replay = _Replay(rules, score, crawford, raw.players, stated_rules=stated)
        try:
            try:
                if raw_game.cube != 1:
                    replay = _Replay(
                        rules,
                        score,
                        crawford,
                        raw.players,
                        stated_rules=stated,
                        cube=_opening_cube(rules, raw_game),
                    )
                if rules.match_length and max(score) >= rules.match_length:
                    raise raw_game.loc.error(
                        f"game {raw_game.number} starts at {score[0]}-{score[1]}, after the "
                        f"{rules.match_length}-point match was won"
                    )
                replay.resolve_turns(actions)
                i = replay.play_resolved(actions, 0)
                while i < len(actions):
                    action = actions[i]
                    try:
                        replay.apply(action, actions[i + 1] if i + 1 < len(actions) else None)
                    except ParseError:
                        raise
                    except GammonlabError as error:  # a state no Match ID can record
                        raise action.loc.error(str(error)) from error
                    i = replay.play_resolved(actions, i + 1)
            except ParseError:
                raise
            except GammonlabError as error:
                raise raw_game.loc.error(str(error)) from error
        except ParseError as error:
            if not collect:
                raise
            log.append(error)
            game_problems.append(error)
            if replay.winner is None:
                # the game cannot be trusted past this point: skip it
                log.add(raw_game.loc, f"game {raw_game.number} skipped: {error.detail}")
                continue
            # the game ended: what the transcript writes after its end is flagged
        if not raw_game.complete and replay.winner is None and raw_game is not raw.games[-1]:
            unfinished = log.add(
                raw_game.loc,
                f"game {raw_game.number} has no result line "
                f"('Wins 1 point') and its moves do not end it",
            )
            if unfinished is not None:
                game_problems.append(unfinished)
        try:
            final_state = replay.final_state()
        except GammonlabError as error:
            if not collect:
                raise raw_game.loc.error(str(error)) from error
            log.add(raw_game.loc, f"game {raw_game.number} skipped: {error}")
            continue
        # the transcript's number, so that a game keeps it when games before it are skipped;
        # one more than the game before where the transcript's does not follow it
        # (no further than the nine digits a transcript writes a game's number with)
        number = min(max(raw_game.number, games[-1].number + 1 if games else 1), _LAST_NUMBER)
        game = replay.game(number, final_state=final_state, problems=tuple(game_problems))
        games.append(game)
        count.result(game.winner, game.points)
    return Match(
        players=raw.players,
        rules=rules,
        games=tuple(games),
        metadata=dict(raw.headers),
        source=source,
        format=raw.format,
        ratings=raw.ratings,
        problems=(*raw.problems, *log.listed()),
    )


def claim_capped(claimed: int, worth: int, needed: int | None, match_length: int) -> bool:
    """Whether a result line's ``claimed`` points, where the game is worth ``worth``,
    are a match-winning game written as the points the winner ``needed`` or as the
    match length, as match transcripts often write it (``needed`` ``None``: money)."""
    if needed is None or worth < needed:
        return False
    return needed <= claimed <= worth or claimed == match_length


def _move_action(
    raw: Any, state: tuple[Any, ...], play: Play | None, n_legal: int, players: Any
) -> Action:
    """A move's action: its state's fields, and its play (``None`` for a roll that cannot
    be played, R5.5). Positional, in the order of Action's fields: a transcript has a move
    per action."""
    return Action(
        "move",
        raw.player,
        state,
        raw.dice,
        play,
        raw.play,
        None,
        None,
        None,
        None,
        False,
        n_legal,
        raw.loc,
        raw.analysis,
        players,
    )


_LAST_NUMBER = 999_999_999
"""The highest game number a transcript can write (nine digits)."""


def _add(score: tuple[int, int], winner: int, points: int) -> tuple[int, int]:
    return (score[0] + points, score[1]) if winner == 0 else (score[0], score[1] + points)
