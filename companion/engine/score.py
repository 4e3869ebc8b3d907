"""The score of each side, line by line, and the outcome at the end.

Players count their buttons, the 7×7 tile and lose two per empty square
(docs/RULES.md §3); the Automa counts what its difficulty says (§4).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engine.automa import DifficultyLevel
from companion.engine.catalogue import BONUS_POINTS, EMPTY_SQUARE_PENALTY, PATCH_BY_ID
from companion.engine.setup import Side
from companion.engine.state import GameState, SideState


class Counted(StrEnum):
    """What a line of a score counts."""

    BUTTONS = "buttons"
    BONUS_TILE = "bonus tile"
    EMPTY_SQUARES = "empty squares"
    PATCHES_WITH_BUTTONS = "patches with buttons"
    """The Automa's patches with buttons drawn on them, one point each."""
    BUTTONS_ON_PATCHES = "buttons on patches"
    """The buttons drawn on the Automa's patches."""


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of a side's score: what is counted, how many, and the points."""

    label: Counted
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: each side's score and the winner."""

    scores: dict[Side, int]
    winner: Side
    tie: bool
    """Equal scores: the winner is whoever reached 53 first."""

    @property
    def margin(self) -> int:
        """How many points the winner won by; 0 on a tie."""
        first, second = self.scores.values()
        return abs(first - second)


def side_score_lines(
    side: SideState, has_bonus: bool, level: DifficultyLevel | None
) -> tuple[ScoreLine, ...]:
    """A side's score lines: a player's (`level` None) or the Automa's at `level`."""
    bonus = ScoreLine(Counted.BONUS_TILE, int(has_bonus), BONUS_POINTS * has_bonus)
    if level is None:
        return (
            ScoreLine(Counted.BUTTONS, side.buttons, side.buttons),
            bonus,
            ScoreLine(
                Counted.EMPTY_SQUARES,
                side.empty_squares,
                -EMPTY_SQUARE_PENALTY * side.empty_squares,
            ),
        )
    shown = [PATCH_BY_ID[patch_id].buttons for patch_id in side.patches]
    with_buttons = sum(1 for buttons in shown if buttons)
    lines = []
    if level.counts_own_buttons:
        lines.append(ScoreLine(Counted.BUTTONS, side.buttons, side.buttons))
    if level.counts_patches_with_buttons:
        lines.append(ScoreLine(Counted.PATCHES_WITH_BUTTONS, with_buttons, with_buttons))
    if level.counts_buttons_on_patches:
        lines.append(ScoreLine(Counted.BUTTONS_ON_PATCHES, sum(shown), sum(shown)))
    return (*lines, bonus)


class Scoring(GameState):
    """A game's scores, worked out from its state."""

    def score_lines(self, name: Side) -> tuple[ScoreLine, ...]:
        """A side's score broken down (docs/RULES.md §3 for players, §4 for the Automa)."""
        level = self.setup.difficulty if name == Side.AUTOMA else None
        return side_score_lines(self.sides[name], self.bonus_holder == name, level)

    def score(self, name: Side) -> int:
        """The side's score if the game ended now: at the end, its final score."""
        return sum(line.points for line in self.score_lines(name))

    def outcome(self) -> Outcome | None:
        """Scores and winner once both tokens are on 53, else None."""
        if not self.is_over:
            return None
        return outcome_of({name: self.score(name) for name in self.sides}, self.finished[0])


def outcome_of(scores: dict[Side, int], first_on_53: Side) -> Outcome:
    """The higher score wins; on a tie, whoever reached 53 first (docs/RULES.md §3)."""
    first, second = scores.values()
    if first == second:
        return Outcome(scores, first_on_53, tie=True)
    return Outcome(scores, max(scores, key=scores.__getitem__), tie=False)
