"""What a game is at one moment: both sides, the circle, the leather, the decks.

`GameState` holds the state and the stack of actions with a snapshot taken
before each, so undo restores exactly; it answers what can be read straight
off the table (whose turn, the offer, the next card). The rule questions
(questions.py), the 7×7 tile (bonus.py) and the score (score.py) build on it;
`Game` (game.py) adds the actions that change it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields

from companion.engine.actions import Action, Advance, AutomaTurn, Buy
from companion.engine.automa import CARDS_SET_ASIDE
from companion.engine.catalogue import (
    LEATHER_POSITIONS,
    PATCH_BY_ID,
    QUILT_SQUARES,
    STARTING_BUTTONS,
    Patch,
)
from companion.engine.setup import Mode, Setup, Side

OFFER_SIZE = 3


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
class Snapshot:
    """The state before one action: what `Game.pop` puts back."""

    sides: tuple[SideState, SideState]
    circle: tuple[str, ...]
    leather_left: tuple[int, ...]
    leather_discarded: tuple[int, ...]
    bonus_holder: Side | None
    draw_pile: tuple[int, ...]
    discard_pile: tuple[int, ...]
    reshuffles: int
    finished: tuple[Side, ...]

    def side(self, name: Side) -> SideState:
        return next(side for side in self.sides if side.name == name)


class GameState:
    """The state of one game and the stack of actions that led to it."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        first = setup.first_side
        self.sides: dict[Side, SideState] = {
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
        self.bonus_holder: Side | None = None
        order = setup.deck_order or ()
        self.discard_pile: tuple[int, ...] = order[:CARDS_SET_ASIDE]
        self.draw_pile: tuple[int, ...] = order[CARDS_SET_ASIDE:]
        self.reshuffles = 0
        self.finished: tuple[Side, ...] = ()
        """Sides in the order they reached 53: the first wins a tie."""
        self._stack: list[tuple[Action, Snapshot]] = []

    @property
    def mode(self) -> Mode:
        return self.setup.mode

    @property
    def move_stack(self) -> list[Action]:
        return [action for action, _ in self._stack]

    def moves(self) -> Iterator[tuple[Action, Snapshot, Snapshot]]:
        """Each action played, oldest first, with the state before it and after it."""
        afters = [snapshot for _, snapshot in self._stack[1:]] + [self._snapshot()]
        for (action, before), after in zip(self._stack, afters, strict=True):
            yield action, before, after

    def opponent(self, name: Side) -> SideState:
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
        level = self.setup.difficulty
        return level.bonus_mark if level else None

    def state(self) -> tuple:
        """Everything that defines the position, for comparing two games: what undo
        restores (the snapshot's fields, so a field added there is compared too), as
        plain values."""
        snapshot = self._snapshot()
        sides = tuple(side.state() for side in snapshot.sides)
        return (sides, *(getattr(snapshot, field.name) for field in fields(Snapshot)[1:]))

    def _snapshot(self) -> Snapshot:
        first, second = self.sides.values()
        return Snapshot(
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

    def _restore(self, snapshot: Snapshot) -> None:
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


def _turn_of(first: SideState, second: SideState) -> Side:
    """RULES.md §3: the token further behind moves; on one square, the one on top."""
    if first.position != second.position:
        return (first if first.position < second.position else second).name
    return (first if first.arrived > second.arrived else second).name
