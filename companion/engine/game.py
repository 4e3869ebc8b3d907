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

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

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
    MoveNeutralToken,
    MoveToken,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import (
    CARD_BY_NUMBER,
    CARDS_SET_ASIDE,
    AutomaCard,
    AutomaDecision,
    Deck,
    choose_patch,
)
from companion.engine.catalogue import (
    BONUS_POINTS,
    BONUS_SQUARES,
    EMPTY_SQUARE_PENALTY,
    FINAL_POSITION,
    INCOME_MARKS,
    LEATHER_POSITIONS,
    PATCH_BY_ID,
    QUILT_SQUARES,
    STARTING_BUTTONS,
    Patch,
    marks_crossed,
)
from companion.engine.errors import (
    BonusUnavailableError,
    GameOverError,
    InvalidAdjustmentError,
    NoSuchPatchError,
    NotYourTurnError,
    PatchDoesNotFitError,
    ReshuffleError,
    UnaffordableError,
)
from companion.engine.setup import Mode, Setup, Side, check_deck_order, reshuffle_order

OFFER_SIZE = 3
BUY_ACTIONS = tuple(Buy(index) for index in range(OFFER_SIZE))


class SideState:
    """One side's token, buttons and patches. Mutable; the game snapshots it for undo."""

    __slots__ = (
        "arrived",
        "buttons",
        "covered",
        "income",
        "leather",
        "name",
        "patches",
        "position",
    )

    def __init__(self, name: Side, buttons: int, arrived: int) -> None:
        self.name = name
        self.position = 0
        self.buttons = buttons
        self.patches: tuple[str, ...] = ()
        self.leather = 0
        self.income = 0
        """Buttons drawn on this side's patches: a player's income at each mark."""
        self.covered = 0
        """Quilt squares covered by its patches and leather patches."""
        self.arrived = arrived
        """When the token last moved; of two tokens on one square the later is on top."""

    def copy(self) -> SideState:
        twin = SideState.__new__(SideState)
        twin.name, twin.position, twin.buttons = self.name, self.position, self.buttons
        twin.patches, twin.leather, twin.income = self.patches, self.leather, self.income
        twin.covered, twin.arrived = self.covered, self.arrived
        return twin

    @property
    def empty_squares(self) -> int:
        return QUILT_SQUARES - self.covered

    def state(self) -> tuple:
        return (
            self.name,
            self.position,
            self.buttons,
            self.patches,
            self.leather,
            self.income,
            self.covered,
            self.arrived,
        )


@dataclass(frozen=True, slots=True)
class ScoreLine:
    label: str
    """What is counted, e.g. "buttons", "bonus tile", "empty squares"."""
    count: int
    points: int


@dataclass(frozen=True, slots=True)
class Outcome:
    scores: dict[str, int]
    winner: str
    tie: bool
    """Equal scores: the winner is whoever reached 53 first."""


class Refusal(StrEnum):
    """Why a patch on offer cannot be bought by the side to move."""

    UNAFFORDABLE = "can't afford"
    NO_ROOM = "doesn't fit"


class BonusOccasion(StrEnum):
    """Why the device asks a player whether they have completed a 7×7 square."""

    REACHED_49 = "reached 49"
    """Just covered 49 squares or more: the first moment a 7×7 square is possible."""
    AUTOMA_MARK = "automa mark"
    """The Automa's next move reaches or crosses its mark and takes the tile."""


@dataclass(frozen=True, slots=True)
class BonusQuestion:
    """Ask `side` now: "do you have a completed 7×7 square?"."""

    side: str
    occasion: BonusOccasion
    squares: int
    """The squares `side` has covered."""
    answers: tuple[str, ...]
    """Keys to remember once asked (see `Game.bonus_question`); an answer at the
    Automa's mark also answers the question at 49."""


@dataclass(frozen=True, slots=True)
class AutomaPlan:
    """What the Automa's next turn will do, worked out from the top card."""

    card: AutomaCard
    decision: AutomaDecision
    target: int
    """Where its token will end."""


@dataclass(frozen=True, slots=True)
class _Snapshot:
    sides: tuple[SideState, SideState]
    circle: tuple[str, ...]
    leather_left: tuple[int, ...]
    leather_discarded: tuple[int, ...]
    bonus_holder: str | None
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    reshuffles: int
    finished: tuple[str, ...]


class Game:
    """The state of one game and the stack of actions that led to it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        first = setup.first_side
        self.sides: dict[str, SideState] = {
            name: SideState(
                name,
                0 if name == Side.AUTOMA else STARTING_BUTTONS,
                # The start player's token is on top of the other one at 0.
                0 if name == first else -1,
            )
            for name in setup.sides
        }
        self.circle: tuple[str, ...] = setup.circle
        """Patches left, from the one directly clockwise of the neutral token."""
        self.leather_left: tuple[int, ...] = LEATHER_POSITIONS
        self.leather_discarded: tuple[int, ...] = ()
        """Leather patches crossed by a full quilt: out of the game."""
        self.bonus_holder: str | None = None
        order = setup.deck_order or ()
        self.discard_pile: tuple[int, ...] = order[:CARDS_SET_ASIDE]
        self.draw_pile: tuple[int, ...] = order[CARDS_SET_ASIDE:]
        self.reshuffles = 0
        self.finished: tuple[str, ...] = ()
        """Sides in the order they reached 53: the first wins a tie."""
        self._stack: list[tuple[Action, _Snapshot]] = []

    # --- what the game reports ---------------------------------------------------

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    @property
    def move_stack(self) -> list[Action]:
        return [action for action, _ in self._stack]

    def opponent(self, name: str) -> SideState:
        first, second = self.setup.sides
        return self.sides[second if name == first else first]

    @property
    def is_over(self) -> bool:
        return len(self.finished) == 2

    @property
    def turn(self) -> Side | None:
        """Whose turn it is: the token further behind, or the one on top; None at the end."""
        if self.is_over:
            return None
        return _turn_of(*self.sides.values())

    @property
    def last_mover(self) -> Side | None:
        """The side that made the last move (an advance, a buy or an Automa turn)."""
        for action, snapshot in reversed(self._stack):
            if isinstance(action, Advance | Buy | AutomaTurn):
                return _turn_of(*snapshot.sides)
        return None

    @property
    def offer(self) -> tuple[Patch, ...]:
        """The (up to three) patches that can be bought now, nearest first."""
        return tuple(PATCH_BY_ID[patch_id] for patch_id in self.circle[:OFFER_SIZE])

    @property
    def offer_before_last(self) -> tuple[Patch, ...]:
        """The offer as it was before the last action (the one it was chosen from)."""
        if not self._stack:
            return self.offer
        circle = self._stack[-1][1].circle
        return tuple(PATCH_BY_ID[patch_id] for patch_id in circle[:OFFER_SIZE])

    @property
    def next_card(self) -> int | None:
        """The card the Automa reveals next (its back is public with the tactical deck)."""
        return self.draw_pile[0] if self.draw_pile else None

    @property
    def bonus_mark(self) -> int | None:
        level = self.setup.difficulty_level
        return level.bonus_mark if level else None

    @property
    def next_virtual_buttons(self) -> int | None:
        """The next card's virtual buttons when the players may see them: the
        tactical deck shows them on the card's back (RULES.md §4, the two decks)."""
        if self.setup.deck is not Deck.TACTICAL or self.next_card is None:
            return None
        return CARD_BY_NUMBER[self.next_card].virtual_buttons

    def advance_target(self, name: str) -> int:
        """Where `name`'s token goes on an advance: just in front of the opponent
        (RULES.md §3 action A; the Automa's pass goes there too, §4)."""
        return min(FINAL_POSITION, self.opponent(name).position + 1)

    def buy_destination(self, name: str, index: int) -> int:
        """Where `name`'s token goes after buying the patch `index` places clockwise."""
        return min(FINAL_POSITION, self.sides[name].position + self.offer[index].time)

    def refusal(self, name: str, index: int) -> Refusal | None:
        """Why `name` cannot buy the patch `index` places clockwise, or None if it can."""
        return _refusal(self.offer[index], self.sides[name])

    def refusals_before_last(self, name: str) -> tuple[Refusal | None, ...]:
        """`refusal` for each patch of `offer_before_last`, as `name` stood then."""
        if not self._stack:
            return tuple(self.refusal(name, index) for index in range(len(self.offer)))
        snapshot = self._stack[-1][1]
        side = next(side for side in snapshot.sides if side.name == name)
        return tuple(_refusal(patch, side) for patch in self.offer_before_last)

    @staticmethod
    def next_income_mark(position: int) -> int | None:
        """The first income mark a token on `position` has still to cross."""
        return next((mark for mark in INCOME_MARKS if mark > position), None)

    def can_claim_bonus(self, name: str) -> bool:
        """A player with 49 squares or more may claim the free tile at any time,
        also once the game is over (RULES.md §1, the 7×7 bonus tile)."""
        return (
            name != Side.AUTOMA
            and name in self.sides
            and self.bonus_holder is None
            and self.sides[name].covered >= BONUS_SQUARES
        )

    def bonus_claimants(self) -> tuple[str, ...]:
        return tuple(name for name in self.sides if self.can_claim_bonus(name))

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
            target = min(FINAL_POSITION, automa.position + self.offer[decision.chosen].time)
        return AutomaPlan(card, decision, target)

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
            key = f"{Side.PLAYER}@{len(self._stack)}"
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

    def score_lines(self, name: str) -> tuple[ScoreLine, ...]:
        """A side's score broken down (docs/RULES.md §3 for players, §4 for the Automa)."""
        side = self.sides[name]
        has_bonus = self.bonus_holder == name
        bonus = ScoreLine("bonus tile", int(has_bonus), BONUS_POINTS * has_bonus)
        if name != Side.AUTOMA:
            return (
                ScoreLine("buttons", side.buttons, side.buttons),
                bonus,
                ScoreLine(
                    "empty squares",
                    side.empty_squares,
                    -EMPTY_SQUARE_PENALTY * side.empty_squares,
                ),
            )
        level = self.setup.difficulty_level
        assert level is not None
        shown = [PATCH_BY_ID[patch_id].buttons for patch_id in side.patches]
        with_buttons = sum(1 for buttons in shown if buttons)
        lines = []
        if level.counts_own_buttons:
            lines.append(ScoreLine("buttons", side.buttons, side.buttons))
        if level.counts_patches_with_buttons:
            lines.append(ScoreLine("patches with buttons", with_buttons, with_buttons))
        if level.counts_buttons_on_patches:
            lines.append(ScoreLine("buttons on patches", sum(shown), sum(shown)))
        return (*lines, bonus)

    def score(self, name: str) -> int:
        return sum(line.points for line in self.score_lines(name))

    def outcome(self) -> Outcome | None:
        """Scores and winner once both tokens are on 53, else None."""
        if not self.is_over:
            return None
        scores = {name: self.score(name) for name in self.sides}
        first, second = scores.values()
        if first == second:
            return Outcome(scores, self.finished[0], tie=True)
        return Outcome(scores, max(scores, key=scores.__getitem__), tie=False)

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

    def state(self) -> tuple:
        """Everything that defines the position, for comparing two games."""
        return (
            tuple(side.state() for side in self.sides.values()),
            self.circle,
            self.leather_left,
            self.leather_discarded,
            self.bonus_holder,
            self.draw_pile,
            self.discard_pile,
            self.reshuffles,
            self.finished,
        )

    def _snapshot(self) -> _Snapshot:
        first, second = self.sides.values()
        return _Snapshot(
            (first.copy(), second.copy()),
            self.circle,
            self.leather_left,
            self.leather_discarded,
            self.bonus_holder,
            self.draw_pile,
            self.discard_pile,
            self.reshuffles,
            self.finished,
        )

    def _restore(self, snapshot: _Snapshot) -> None:
        # The snapshot is dropped after a restore, so its sides can be taken as they are.
        self.sides = {side.name: side for side in snapshot.sides}
        self.circle = snapshot.circle
        self.leather_left = snapshot.leather_left
        self.leather_discarded = snapshot.leather_discarded
        self.bonus_holder = snapshot.bonus_holder
        self.draw_pile = snapshot.draw_pile
        self.discard_pile = snapshot.discard_pile
        self.reshuffles = snapshot.reshuffles
        self.finished = snapshot.finished

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
        target = self.advance_target(side.name)
        side.buttons += target - start
        return (
            self._move_token(side, target)
            + (TakeButtons(side.name, target - start, "advance"),)
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
        if patch.cost > side.buttons:
            raise UnaffordableError(
                f"{patch.id} costs {patch.cost} buttons; {side.name} has {side.buttons}"
            )
        if patch.squares > side.empty_squares:
            raise PatchDoesNotFitError(
                f"{patch.id} has {patch.squares} squares; "
                f"{side.name}'s quilt has {side.empty_squares} empty"
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
        self, side: SideState, index: int, patch: Patch, pile: str | None
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
            pile = "with buttons" if patch.buttons else "without buttons"
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

    def _claim_bonus(self, name: str) -> tuple[Step, ...]:
        if name == Side.AUTOMA or name not in self.sides:
            raise BonusUnavailableError(
                f"{name!r} cannot claim the bonus; one of {self._human_sides()} can"
            )
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

    def _adjust(self, name: str, delta: int) -> tuple[Step, ...]:
        if name not in self.sides:
            raise InvalidAdjustmentError(f"no side {name!r}; this game has {', '.join(self.sides)}")
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
        return (AdjustButtons(name, delta),)

    def _human_sides(self) -> str:
        return " or ".join(name for name in self.sides if name != Side.AUTOMA)

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
                met.append((mark, TakeButtons(side.name, income, "income", mark)))
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
        bonus_mark = self.bonus_mark
        if (
            side.name == Side.AUTOMA
            and bonus_mark is not None
            and start < bonus_mark <= end
            and self.bonus_holder is None  # Korean §5-3: unless the player took it first.
        ):
            self.bonus_holder = Side.AUTOMA
            met.append((bonus_mark, TakeBonus(Side.AUTOMA)))
        met.sort(key=lambda pair: pair[0])
        return tuple(step for _, step in met)

    def _take_bonus_if_full(self, side: SideState) -> tuple[Step, ...]:
        """A full quilt always holds a 7×7 square: its player takes the free tile."""
        if side.empty_squares or self.bonus_holder is not None:
            return ()
        self.bonus_holder = side.name
        return (TakeBonus(side.name, full_quilt=True),)


def _turn_of(first: SideState, second: SideState) -> Side:
    """RULES.md §3: the token further behind moves; on one square, the one on top."""
    if first.position != second.position:
        return (first if first.position < second.position else second).name
    return (first if first.arrived > second.arrived else second).name


def _refusal(patch: Patch, side: SideState) -> Refusal | None:
    """RULES.md §3 action B: a patch must be paid for and fit on the quilt."""
    if patch.cost > side.buttons:
        return Refusal.UNAFFORDABLE
    if patch.squares > side.empty_squares:
        return Refusal.NO_ROOM
    return None
