"""The free 7×7 tile: who may claim it, when to ask, and who takes it unasked.

A player with 49 squares or more covered may claim it at any time while it is
free (RULES.md §1); a full quilt always holds a 7×7 square, so its player takes
it at once; the Automa takes it when its token reaches or crosses its
difficulty's mark (Korean rulebook §5-3), unless the player claimed it first.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from companion.engine.actions import Step, TakeBonus
from companion.engine.catalogue import BONUS_SQUARES
from companion.engine.errors import BonusUnavailableError
from companion.engine.questions import RuleQuestions
from companion.engine.setup import Side
from companion.engine.state import SideState

MARK_ANSWER_PREFIX = f"{Side.PLAYER}@"
"""The player's answer before the Automa's move that takes the tile is kept as this
prefix and the number of actions played then ("player@23")."""


class BonusOccasion(StrEnum):
    """Why the device asks a player whether they have completed a 7×7 square."""

    REACHED_49 = "reached 49"
    """Just covered 49 squares or more: the first moment a 7×7 square is possible."""
    AUTOMA_MARK = "automa mark"
    """The Automa's next move reaches or crosses its mark and takes the tile."""


@dataclass(frozen=True, slots=True)
class BonusQuestion:
    """Ask `side` now: "do you have a completed 7×7 square?"."""

    side: Side
    occasion: BonusOccasion
    squares: int
    """The squares `side` has covered."""
    answers: tuple[str, ...]
    """Keys to remember once asked (see `Game.bonus_question`); an answer at the
    Automa's mark also answers the question at 49."""


class BonusRules(RuleQuestions):
    """The 7×7 tile's questions, and the changes it makes when an action takes it."""

    def can_claim_bonus(self, name: Side) -> bool:
        """A player with 49 squares or more may claim the free tile at any time,
        also once the game is over (RULES.md §1, the 7×7 bonus tile)."""
        return (
            name != Side.AUTOMA
            and name in self.sides
            and self.bonus_holder is None
            and self.sides[name].covered >= BONUS_SQUARES
        )

    def bonus_claimants(self) -> tuple[Side, ...]:
        return tuple(name for name in self.sides if self.can_claim_bonus(name))

    def bonus_question(self, asked: Collection[str]) -> BonusQuestion | None:
        """Whom to ask now whether they have a completed 7×7 square, if anyone.

        `asked` holds the `answers` keys of the questions already asked. While the
        tile is free, a player is asked once on reaching 49 squares, and again just
        before the Automa's move that reaches or crosses its mark (which would take
        the tile, Korean rulebook §5-3): the last moment a claim still matters.
        """
        if self.bonus_holder is not None:
            return None
        plan = self.automa_plan()
        mark = self.bonus_mark
        if plan is not None and mark is not None:
            player = self.sides[Side.PLAYER]
            key = f"{MARK_ANSWER_PREFIX}{len(self._stack)}"
            if (
                self.sides[Side.AUTOMA].position < mark <= plan.target
                and player.covered >= BONUS_SQUARES
                and key not in asked
            ):
                return BonusQuestion(
                    Side.PLAYER, BonusOccasion.AUTOMA_MARK, player.covered, (key, Side.PLAYER)
                )
        for name, side in self.sides.items():
            if name != Side.AUTOMA and side.covered >= BONUS_SQUARES and name not in asked:
                return BonusQuestion(name, BonusOccasion.REACHED_49, side.covered, (name,))
        return None

    def bonus_answers_kept(self, asked: Collection[str]) -> list[str]:
        """The answers still true after an undo: a question asked before an
        Automa move that has been taken back is asked again when it comes back."""
        return [
            key for key in asked if "@" not in key or int(key.rsplit("@", 1)[1]) < len(self._stack)
        ]

    def _claim_bonus(self, name: Side) -> tuple[Step, ...]:
        if name == Side.AUTOMA or name not in self.sides:
            humans = " or ".join(side for side in self.sides if side != Side.AUTOMA)
            raise BonusUnavailableError(f"'{name}' cannot claim the bonus; one of {humans} can")
        if self.bonus_holder is not None:
            raise BonusUnavailableError(
                f"the 7×7 bonus tile is already taken by {self.bonus_holder}"
            )
        covered = self.sides[name].covered
        if covered < BONUS_SQUARES:
            raise BonusUnavailableError(
                f"{name} has {covered} squares covered; a 7×7 square needs {BONUS_SQUARES}"
            )
        self.bonus_holder = name
        return (TakeBonus(name),)

    def _take_bonus_if_full(self, side: SideState) -> tuple[Step, ...]:
        """A full quilt always holds a 7×7 square: its player takes the free tile."""
        if side.empty_squares or self.bonus_holder is not None:
            return ()
        self.bonus_holder = side.name
        return (TakeBonus(side.name, full_quilt=True),)

    def _take_bonus_at_mark(self, side: SideState, start: int) -> list[tuple[int, Step]]:
        """The Automa takes the free tile when its move from `start` reaches or
        crosses its mark, unless the player took it first (Korean rulebook §5-3).
        Returned as (position on the track, step), like the other marks it meets."""
        mark = self.bonus_mark
        if (
            side.name != Side.AUTOMA
            or mark is None
            or not start < mark <= side.position
            or self.bonus_holder is not None
        ):
            return []
        self.bonus_holder = Side.AUTOMA
        return [(mark, TakeBonus(Side.AUTOMA))]
