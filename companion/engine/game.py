"""A game of Patchwork, solo against the Automa or for two players.

Modelled on python-chess's `Board`: a `Game` holds the state and the stack of
actions; `push` applies one and returns the steps for the table, `pop` undoes
the last one exactly, `legal_actions` lists what may be done now.

>>> from companion.engine.setup import Side, two_player_setup
>>> game = Game(two_player_setup(start=Side.P1, seed=1))
>>> game.turn
<Side.P1: 'p1'>
>>> game.push(ADVANCE)[0]
MoveToken(side=<Side.P1: 'p1'>, start=0, end=1, on_top=False)
>>> game.turn, game.sides[Side.P1].buttons
(<Side.P2: 'p2'>, 6)
>>> _ = game.pop()
>>> game.turn, game.sides[Side.P1].buttons
(<Side.P1: 'p1'>, 5)
"""

from __future__ import annotations

from companion.engine.actions import (
    ADVANCE,
    AUTOMA_TURN,
    Action,
    Adjust,
    AdjustButtons,
    Advance,
    AutomaTurn,
    Buy,
    ClaimBonus,
    DiscardLeather,
    Earning,
    MoveNeutralToken,
    MoveToken,
    Pile,
    RevealCard,
    Step,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.bonus import BonusOccasion, BonusQuestion, BonusRules
from companion.engine.catalogue import FINAL_POSITION, INCOME_MARKS, Patch, marks_crossed
from companion.engine.errors import (
    GameOverError,
    InvalidAdjustmentError,
    NoSuchPatchError,
    NotYourTurnError,
    PatchDoesNotFitError,
    ReshuffleError,
    UnaffordableError,
)
from companion.engine.questions import AutomaPlan, Refusal, Shortage
from companion.engine.score import Counted, Outcome, ScoreLine, Scoring
from companion.engine.setup import Side, check_deck_order, reshuffle_order
from companion.engine.state import OFFER_SIZE, SideState

# The game's value types are imported from here, wherever they are defined.
__all__ = [
    "AutomaPlan",
    "BonusOccasion",
    "BonusQuestion",
    "Counted",
    "Game",
    "Outcome",
    "Refusal",
    "ScoreLine",
    "Shortage",
    "SideState",
]

BUY_ACTIONS = tuple(Buy(index) for index in range(OFFER_SIZE))


class Game(BonusRules, Scoring):
    """A game: its state (state.py), the rule questions about it (questions.py,
    bonus.py, score.py), and the actions that change it, with undo."""

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, except `Adjust`, which is allowed at any time
        before the end for any delta that leaves the side at zero buttons or more.

        Once the game is over only a claim of the free 7×7 tile remains."""
        claims: list[Action] = [ClaimBonus(name) for name in self.bonus_claimants()]
        turn = self.turn
        if turn is None:
            return claims
        if turn == Side.AUTOMA:
            return [AUTOMA_TURN, *claims]
        side = self.sides[turn]
        buys = [
            BUY_ACTIONS[index]
            for index in range(len(self.offer))
            if self.refusal(side.name, index) is None
        ]
        return [ADVANCE, *buys, *claims]

    # --- changing the state ------------------------------------------------------------

    def push(self, action: Action) -> tuple[Step, ...]:
        """Apply `action` and return the steps for the table.

        Raises a subclass of `IllegalActionError` and leaves the game unchanged
        when the action is not allowed now.
        """
        if self.is_over and not isinstance(action, ClaimBonus):
            raise GameOverError("the game is over: both tokens are on 53")
        snapshot = self._snapshot()
        try:
            steps, stored = self._apply(action)
        except Exception:
            self._restore(snapshot)
            raise
        self._stack.append((stored, snapshot))
        return steps

    def pop(self) -> Action:
        """Undo the last action exactly and return it. IndexError if there is none."""
        action, snapshot = self._stack.pop()
        self._restore(snapshot)
        return action

    def _apply(self, action: Action) -> tuple[tuple[Step, ...], Action]:
        """Change the state; may raise half-way (push then restores the snapshot)."""
        match action:
            case Advance():
                return self._advance(self._side_to_move(human=True)), action
            case Buy(index):
                return self._buy(self._side_to_move(human=True), index), action
            case AutomaTurn():
                return self._automa_turn(action)
            case ClaimBonus(name):
                return self._claim_bonus(name), action
            case Adjust(name, delta):
                return self._adjust(name, delta), action
        raise TypeError(f"not an action: {action!r}")

    def _side_to_move(self, human: bool) -> SideState:
        if not human and Side.AUTOMA not in self.sides:
            raise NotYourTurnError("there is no automa in a two-player game")
        turn = self.turn
        if (turn == Side.AUTOMA) == human:
            raise NotYourTurnError(
                f"it is the {turn}'s turn"
                if human
                else f"it is the {turn}'s turn, not the automa's"
            )
        return self.sides[turn]  # type: ignore[index]

    def _advance(self, side: SideState) -> tuple[Step, ...]:
        start = side.position
        target, buttons = self.advance_target(side.name), self.advance_buttons(side.name)
        side.buttons += buttons
        return (
            self._move_token(side, target)
            + (TakeButtons(side.name, buttons, Earning.ADVANCE),)
            + self._cross(side, start, income=side.income)
        )

    def _buy(self, side: SideState, index: int) -> tuple[Step, ...]:
        offer = self.offer
        if not 0 <= index < len(offer):
            raise NoSuchPatchError(
                f"no patch at index {index}: "
                + (f"{len(offer)} on offer (indices 0–{len(offer) - 1})" if offer else "0 on offer")
            )
        patch = offer[index]
        # The rule is the one the screens grey patches by (`refusal`), checked once.
        match self.refusal(side.name, index):
            case Refusal(Shortage.BUTTONS, cost, buttons):
                raise UnaffordableError(
                    f"{patch.id} costs {cost} buttons; {side.name} has {buttons}"
                )
            case Refusal(Shortage.SQUARES, squares, empty):
                raise PatchDoesNotFitError(
                    f"{patch.id} has {squares} squares; {side.name}'s quilt has {empty} empty"
                )
        target = self.buy_destination(side.name, index)
        side.buttons -= patch.cost
        side.covered += patch.squares
        side.income += patch.buttons
        steps = self._take_patch(side, index, patch, pile=None)
        full = self._take_bonus_if_full(side)
        start = side.position
        steps += self._move_token(side, target)
        return steps + self._cross(side, start, income=side.income) + full

    def _take_patch(
        self, side: SideState, index: int, patch: Patch, pile: Pile | None
    ) -> tuple[Step, ...]:
        side.patches += (patch.id,)
        # The neutral token moves to the patch's place: the circle goes on from there.
        self.circle = self.circle[index + 1 :] + self.circle[:index]
        cost = 0 if pile else patch.cost
        return (TakePatch(side.name, patch.id, index, cost, pile), MoveNeutralToken(patch.id))

    def _automa_turn(self, action: AutomaTurn) -> tuple[tuple[Step, ...], Action]:
        automa = self._side_to_move(human=False)
        plan = self.automa_plan()
        assert plan is not None
        card, decision = plan.card, plan.decision
        steps: tuple[Step, ...] = (RevealCard(decision),)
        start = automa.position
        # A pass goes just ahead of the player, with no buttons for the squares moved.
        if decision.chosen is not None:
            patch = self.offer[decision.chosen]
            pile = Pile.WITH_BUTTONS if patch.buttons else Pile.WITHOUT_BUTTONS
            steps += self._take_patch(automa, decision.chosen, patch, pile)
        steps += self._move_token(automa, plan.target)
        steps += self._cross(automa, start, income=card.income)
        self.discard_pile += (card.number,)
        self.draw_pile = self.draw_pile[1:]
        if self.draw_pile:
            if action.reshuffle is not None:
                raise ReshuffleError("a reshuffle was given but the draw pile is not empty")
            return steps, action
        return steps, AutomaTurn(self._reshuffle(action.reshuffle))

    def _reshuffle(self, given: tuple[int, ...] | None) -> tuple[int, ...]:
        """The whole discard pile becomes the new draw pile, in the given or seeded order."""
        deck = self.setup.deck
        assert deck is not None
        self.reshuffles += 1
        if given is None:
            order = reshuffle_order(self.setup.seed, deck, self.reshuffles)
        else:
            order = tuple(given)
            try:
                check_deck_order(deck, order)
            except ValueError as error:
                raise ReshuffleError(f"bad reshuffle: {error}") from None
        self.draw_pile, self.discard_pile = order, ()
        return order

    def _adjust(self, name: Side, delta: int) -> tuple[Step, ...]:
        if name not in self.sides:
            raise InvalidAdjustmentError(f"no side '{name}'; this game has {', '.join(self.sides)}")
        if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
            raise InvalidAdjustmentError(
                f"a correction must be a whole number other than 0, not {delta!r}"
            )
        side = self.sides[name]
        if side.buttons + delta < 0:
            raise InvalidAdjustmentError(
                f"{name} has {side.buttons} buttons; cannot take away {-delta}"
            )
        side.buttons += delta
        return (AdjustButtons(name, delta, side.buttons),)

    def _move_token(self, side: SideState, target: int) -> tuple[Step, ...]:
        start = side.position
        side.position = target
        side.arrived = len(self._stack) + 1
        if target == FINAL_POSITION and side.name not in self.finished:
            self.finished += (side.name,)
        on_top = target == self.opponent(side.name).position
        return (MoveToken(side.name, start, target, on_top),)

    def _cross(self, side: SideState, start: int, income: int) -> tuple[Step, ...]:
        """What crossing the marks between `start` and the side's new position gives it."""
        end = side.position
        # (position on the track, step): the steps in the order the token meets them.
        met: list[tuple[int, Step]] = []
        for mark in marks_crossed(INCOME_MARKS, start, end):
            if income:
                side.buttons += income
                met.append((mark, TakeButtons(side.name, income, Earning.INCOME, mark)))
        for position in marks_crossed(self.leather_left, start, end):
            self.leather_left = tuple(p for p in self.leather_left if p != position)
            if side.name != Side.AUTOMA and side.empty_squares == 0:
                self.leather_discarded += (position,)
                met.append((position, DiscardLeather(side.name, position)))
                continue
            side.leather += 1
            met.append((position, TakeLeather(side.name, position)))
            if side.name != Side.AUTOMA:
                side.covered += 1
                met += [(position, step) for step in self._take_bonus_if_full(side)]
        met += self._take_bonus_at_mark(side, start)
        met.sort(key=lambda pair: pair[0])
        return tuple(step for _, step in met)
