"""The rule questions the screens ask of a game, answered from its state.

Where a token goes on an advance or a buy, the buttons an advance takes, why a
patch cannot be bought (the greyed patches), what the tactical deck lets the
players see of the next card, and what the Automa will do on its turn. Each is
worked out here once, so no screen computes a rule; `Game` (game.py) uses the
same answers when it acts.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.engine.automa import CARD_BY_NUMBER, DECKS, AutomaCard, AutomaDecision, choose_patch
from companion.engine.catalogue import FINAL_POSITION, Patch
from companion.engine.setup import Side
from companion.engine.state import GameState, SideState


class Shortage(Enum):
    """What a side lacks to buy a patch: buttons to pay it, or empty squares to place it."""

    BUTTONS = "buttons"
    SQUARES = "squares"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a patch on offer cannot be bought, with the numbers to check it; the screens
    word it (the engine speaks no language)."""

    shortage: Shortage
    needed: int
    """The patch's cost, or its squares."""
    available: int
    """The side's buttons, or its empty squares."""


@dataclass(frozen=True, slots=True)
class AutomaPlan:
    """What the Automa's next turn will do, worked out from the top card."""

    card: AutomaCard
    decision: AutomaDecision
    target: int
    """Where its token will end."""


class RuleQuestions(GameState):
    """The answers to the screens' rule questions (see the module docstring)."""

    @property
    def next_virtual_buttons(self) -> int | None:
        """The next card's virtual buttons when the players may see them: the
        tactical deck shows them on the card's back (RULES.md §4, the two decks).
        None once the Automa is on 53: it takes no more turns, so no card is next."""
        if self.setup.deck is None or not DECKS[self.setup.deck].backs_show_virtual_buttons:
            return None
        if self.next_card is None or self.sides[Side.AUTOMA].position == FINAL_POSITION:
            return None
        return CARD_BY_NUMBER[self.next_card].virtual_buttons

    def advance_target(self, name: Side) -> int:
        """Where `name`'s token goes on an advance: just in front of the opponent
        (RULES.md §3 action A; the Automa's pass goes there too, §4)."""
        return min(FINAL_POSITION, self.opponent(name).position + 1)

    def advance_buttons(self, name: Side) -> int:
        """The buttons `name` takes on an advance: one a square moved, none for the
        squares cut off at 53 (RULES.md §3 action A and end)."""
        return self.advance_target(name) - self.sides[name].position

    def on_top(self, name: Side) -> bool:
        """Whether `name`'s token shares the other's square and lies on top of it, having
        arrived there last (RULES.md §3, whose turn)."""
        side, other = self.sides[name], self.opponent(name)
        return side.position == other.position and side.arrived > other.arrived

    def buy_destination(self, name: Side, index: int) -> int:
        """Where `name`'s token goes after buying the patch `index` places clockwise."""
        return min(FINAL_POSITION, self.sides[name].position + self.offer[index].time)

    def refusal(self, name: Side, index: int) -> Refusal | None:
        """Why `name` cannot buy the patch `index` places clockwise, or None if it can."""
        return _refusal(self.offer[index], self.sides[name])

    def refusals_before_last(self, name: Side) -> tuple[Refusal | None, ...]:
        """`refusal` for each patch of `offer_before_last`, as `name` stood then."""
        if not self._stack:
            return tuple(self.refusal(name, index) for index in range(len(self.offer)))
        snapshot = self._stack[-1][1]
        side = snapshot.side(name)
        return tuple(_refusal(patch, side) for patch in self.offer_before_last)

    def automa_plan(self) -> AutomaPlan | None:
        """What the Automa will do on its next turn, or None when it is not its turn."""
        if self.turn != Side.AUTOMA:
            return None
        automa, player = self.sides[Side.AUTOMA], self.sides[Side.PLAYER]
        card = CARD_BY_NUMBER[self.draw_pile[0]]
        decision = choose_patch(card, self.offer, automa.position, player.position)
        if decision.chosen is None:
            target = self.advance_target(Side.AUTOMA)
        else:
            target = self.buy_destination(Side.AUTOMA, decision.chosen)
        return AutomaPlan(card, decision, target)


def _refusal(patch: Patch, side: SideState) -> Refusal | None:
    """RULES.md §3 action B: a patch must be paid for and fit on the quilt."""
    if patch.cost > side.buttons:
        return Refusal(Shortage.BUTTONS, patch.cost, side.buttons)
    if patch.squares > side.empty_squares:
        return Refusal(Shortage.SQUARES, patch.squares, side.empty_squares)
    return None
