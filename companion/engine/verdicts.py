"""One solo game judged at all five levels (docs/SOLO.md, "One game at every level").

The Automa plays the same at every level: its cards, its patches, its moves and
its buttons do not depend on the level. The level decides only where it takes the
7×7 tile and how it scores. So a finished game can be scored against every level:
the same moves, the tile to whichever side had it first given that level's mark,
the Automa's score by that level's rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.engine.actions import AutomaTurn
from companion.engine.automa import DIFFICULTIES, DifficultyLevel
from companion.engine.game import Game
from companion.engine.score import Outcome, ScoreLine, outcome_of, side_score_lines
from companion.engine.setup import Mode, Side


@dataclass(frozen=True, slots=True)
class Verdict:
    """How the game played ends against one level."""

    level: DifficultyLevel
    bonus_holder: Side | None
    outcome: Outcome

    @property
    def player(self) -> int:
        return self.outcome.scores[Side.PLAYER]

    @property
    def automa(self) -> int:
        return self.outcome.scores[Side.AUTOMA]


def verdicts(game: Game) -> tuple[Verdict, ...] | None:
    """The game's verdict at each level, easiest first; None unless a finished solo game."""
    if game.mode is not Mode.SOLO or not game.is_over:
        return None
    player_took, marks_reached = _tile_moments(game)
    player, automa = game.sides[Side.PLAYER], game.sides[Side.AUTOMA]
    judged = []
    for level in DIFFICULTIES:
        reached = marks_reached[level.bonus_mark]
        holder: Side | None = None
        if player_took is not None and (reached is None or player_took < reached):
            holder = Side.PLAYER
        elif reached is not None:
            holder = Side.AUTOMA
        scores = {
            Side.PLAYER: _points(side_score_lines(player, holder == Side.PLAYER, None)),
            Side.AUTOMA: _points(side_score_lines(automa, holder == Side.AUTOMA, level)),
        }
        judged.append(Verdict(level, holder, outcome_of(scores, game.finished[0])))
    return tuple(judged)


def _tile_moments(game: Game) -> tuple[int | None, dict[int, int | None]]:
    """When the player first had the tile (the number of the action, from 0), and when the
    Automa's token first reached or crossed each level's mark.

    The player has it from the action that gave it to them (a claim, or a full quilt),
    or from the one that filled their quilt even when the tile was already the
    Automa's: a full quilt always holds a 7×7 square. A claim the device could not
    take (the tile gone) is not known, so nothing earlier is assumed.
    """
    player_took: int | None = None
    reached: dict[int, int | None] = {level.bonus_mark: None for level in DIFFICULTIES}
    for number, (action, before, after) in enumerate(game.moves()):
        if player_took is None and (
            after.bonus_holder == Side.PLAYER or not after.side(Side.PLAYER).empty_squares
        ):
            player_took = number
        if isinstance(action, AutomaTurn):
            start, end = before.side(Side.AUTOMA).position, after.side(Side.AUTOMA).position
            for mark, moment in reached.items():
                if moment is None and start < mark <= end:
                    reached[mark] = number
    return player_took, reached


def _points(lines: tuple[ScoreLine, ...]) -> int:
    return sum(line.points for line in lines)


def levels_beaten(game: Game) -> int | None:
    """How many levels, easiest first, a finished solo game beat before the first it lost
    (0 to 5); None unless a finished solo game. A game's verdicts are monotone (docs/SOLO.md):
    it beat exactly these levels."""
    judged = verdicts(game)
    if judged is None:
        return None
    won = [verdict.outcome.winner == Side.PLAYER for verdict in judged]
    return won.index(False) if False in won else len(won)


SUGGESTION_GAMES = 10
"""The suggestion reads the verdicts of this many of the last solo games."""
SUGGESTION_MINIMUM = 3
"""Fewer finished solo games than this suggest nothing."""


def suggest_level(recent: Sequence[Mapping[str, bool]]) -> DifficultyLevel | None:
    """The level to offer first (docs/SOLO.md, "The suggested level"): the hardest at
    which the player won at least half of `recent`, each of which says, by level name,
    whether the player won against that level. Intern when they won half at none;
    None with fewer than `SUGGESTION_MINIMUM` games.

    >>> won_to = lambda hardest: {level.name: level.level <= hardest for level in DIFFICULTIES}
    >>> suggest_level([won_to(3), won_to(4), won_to(2), won_to(3)]).name
    'fellow'
    """
    if len(recent) < SUGGESTION_MINIMUM:
        return None
    for level in reversed(DIFFICULTIES):
        if 2 * sum(game.get(level.name, False) for game in recent) >= len(recent):
            return level
    return DIFFICULTIES[0]
