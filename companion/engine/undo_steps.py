"""What an undo takes back, and what the people at the table must do to follow it.

One undo takes back the last action of a person (a buy, an advance, a 7×7
claim, a correction) together with the Automa's turns that followed it: those
were the Automa's answer to it (`undo_count`). `plan_undo` works out, for each
action taken back, the reverse steps: the physical things to do beside the
box, in the order they are done, so that the table ends as the game does.
They are worked out from the action's own steps (`Game.push`) and the game as
it stood before it (the circle, the tokens, the Automa's deck).

>>> from companion.engine.setup import Side, two_player_setup
>>> from companion.engine.game import Game
>>> from companion.engine.actions import ADVANCE
>>> game = Game(two_player_setup(start=Side.P1, seed=1))
>>> _ = game.push(ADVANCE)
>>> plan = plan_undo(game)
>>> plan.person.steps[0]
MoveTokenBack(side=<Side.P1: 'p1'>, start=1, end=0, on_top=True)
>>> plan.person.steps[1]
ReturnButtons(side=<Side.P1: 'p1'>, count=1, reason=<Earning.ADVANCE: 'advance'>, mark=None)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine.actions import (
    Action,
    Adjust,
    AdjustButtons,
    AutomaTurn,
    ClaimBonus,
    DiscardLeather,
    Earning,
    MoveNeutralToken,
    MoveToken,
    Pile,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.errors import IllegalActionError
from companion.engine.game import Game
from companion.engine.setup import Side

# --- the reverse steps ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReturnPatch:
    """Take `patch_id` back from `side` (off a player's quilt, or from the Automa's
    `pile`) and put it back in the circle, between `anticlockwise` and `clockwise`:
    where the neutral token stands now (RULES.md §3 action B, in reverse)."""

    side: Side
    patch_id: str
    anticlockwise: str | None
    """The patch it goes after; None when it is the only patch of the circle."""
    clockwise: str | None
    """The patch it goes before (the same as `anticlockwise` when two are left)."""
    pile: Pile | None = None
    """For the Automa: the pile it lies on."""


@dataclass(frozen=True, slots=True)
class RefundCost:
    """`side` takes back from the bank the `count` buttons it paid for `patch_id`."""

    side: Side
    patch_id: str
    count: int


@dataclass(frozen=True, slots=True)
class ReturnNeutralToken:
    """The neutral token goes back just anticlockwise of `before`: the patch that was
    first on offer before the action."""

    before: str


@dataclass(frozen=True, slots=True)
class MoveTokenBack:
    """`side`'s time token goes back from `start` to `end`."""

    side: Side
    start: int
    end: int
    on_top: bool
    """True when `end` is the other token's square: it was `side`'s turn there, so
    its token was on top (RULES.md §3, whose turn)."""


@dataclass(frozen=True, slots=True)
class ReturnButtons:
    """`side` puts `count` buttons back in the bank: those an advance paid for the
    squares moved (`reason` ADVANCE), or the income at `mark` (INCOME)."""

    side: Side
    count: int
    reason: Earning
    mark: int | None = None


@dataclass(frozen=True, slots=True)
class ReturnLeather:
    """The leather patch `side` got at `position` goes back on the track there: off a
    player's quilt, from the Automa's pile, or, `discarded`, out of the box (a full
    quilt could not place it, RULES.md §3)."""

    side: Side
    position: int
    discarded: bool = False


@dataclass(frozen=True, slots=True)
class ReturnBonus:
    """`side` gives back the 7×7 bonus tile: it is free again."""

    side: Side
    full_quilt: bool = False
    """It was taken for a full quilt (81 squares), not claimed or at the Automa's mark."""


@dataclass(frozen=True, slots=True)
class UndoCorrection:
    """A correction of `delta` to `side`'s buttons is taken back: the count goes
    back to `buttons`. Nothing moves at the table: it corrected the device's count."""

    side: Side
    delta: int
    buttons: int
    """The side's buttons once the correction is taken back."""


@dataclass(frozen=True, slots=True)
class UndoReshuffle:
    """The reshuffle after the Automa's turn is taken back: the deck is again
    `draw_pile` (top first) with `discarded` cards on the discard pile."""

    draw_pile: tuple[int, ...]
    discarded: int


@dataclass(frozen=True, slots=True)
class ReturnCard:
    """The Automa's card `number` goes back on top of its draw pile (RULES.md §4 step
    1 in reverse); with the tactical deck its back shows the next virtual buttons."""

    number: int


ReverseStep = (
    ReturnPatch
    | RefundCost
    | ReturnNeutralToken
    | MoveTokenBack
    | ReturnButtons
    | ReturnLeather
    | ReturnBonus
    | UndoCorrection
    | UndoReshuffle
    | ReturnCard
)


@dataclass(frozen=True, slots=True)
class UndoneAction:
    """One action taken back: who did it, and the reverse steps for the table."""

    action: Action
    side: Side
    """Who did it: the side that moved, or the side a claim or correction names."""
    steps: tuple[ReverseStep, ...]
    patch_id: str | None = None
    """The patch it took, if any."""


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """What one undo takes back, in the order it is taken back: the last action first,
    the person's action (the one the undo is for) last. Undos in a row whose reverse
    steps are all still due make one plan (`replan_undo`): the later undo's first."""

    undone: tuple[UndoneAction, ...]

    @property
    def person(self) -> UndoneAction:
        """The person's action the (earliest) undo is for."""
        return self.undone[-1]

    @property
    def automa_turns(self) -> int:
        """The Automa's turns taken back with it."""
        return sum(isinstance(undone.action, AutomaTurn) for undone in self.undone)


# --- what an undo takes back ----------------------------------------------------------


def undo_count(actions: Sequence[Action]) -> int:
    """How many of the last `actions` one undo takes back: the last person's action
    and the Automa's turns after it; 0 when there is no person's action to take back.

    >>> from companion.engine.actions import ADVANCE, AUTOMA_TURN
    >>> undo_count([ADVANCE, AUTOMA_TURN, AUTOMA_TURN]), undo_count([AUTOMA_TURN]), undo_count([])
    (3, 0, 0)
    """
    for count, action in enumerate(reversed(actions), start=1):
        if not isinstance(action, AutomaTurn):
            return count
    return 0


def plan_undo(game: Game) -> UndoPlan | None:
    """What undoing now would take back, with the reverse steps; None if nothing can be.

    The game is left exactly as it was.
    """
    count = undo_count(game.move_stack)
    return _plan_last(game, count) if count else None


def replan_undo(game: Game, undone: Sequence[Action]) -> UndoPlan | None:
    """The plan of the undo, or the undos in a row, that took `undone` (oldest first)
    back to reach `game`, to show its reverse steps again (after a restart, or with a
    further undo's); None if they no longer follow from it. The game is left as it is."""
    if not undone or isinstance(undone[0], AutomaTurn):
        return None  # an undo takes back a person's action first, never an Automa turn alone
    pushed = 0
    try:
        for action in undone:
            game.push(action)
            pushed += 1
        return _plan_last(game, pushed)
    except IllegalActionError:
        return None
    finally:
        for _ in range(pushed):
            game.pop()


def _plan_last(game: Game, count: int) -> UndoPlan:
    """The reverse steps of the last `count` actions, the last first. The actions are
    taken back and played again, which gives each one's steps and the table before it
    (an Automa turn keeps its reshuffle, so it plays again the same)."""
    popped = [game.pop() for _ in range(count)]
    undone = []
    for action in reversed(popped):
        before = _Before(game)
        forward = game.push(action)
        undone.append(_undone(action, forward, before))
    return UndoPlan(tuple(reversed(undone)))


class _Before:
    """What reversing an action needs of the game as it stood before the action."""

    def __init__(self, game: Game) -> None:
        self.circle = game.circle
        self.positions = {name: side.position for name, side in game.sides.items()}
        self.turn = game.turn
        self.draw_pile = game.draw_pile
        self.discarded = len(game.discard_pile)


def _undone(action: Action, forward: tuple[Step, ...], before: _Before) -> UndoneAction:
    """The reverse steps of one action, in the order the table does them: the circle
    as it was (the patch, the neutral token), the token back with the buttons its
    move paid, what it met on the way back (the last mark first), the 7×7 tile and
    corrections, and the Automa's deck."""
    if isinstance(action, Adjust | ClaimBonus):
        side = action.side
    elif isinstance(action, AutomaTurn):
        side = Side.AUTOMA
    else:
        assert before.turn is not None  # a buy or an advance was played: the game went on
        side = before.turn
    circle: list[ReverseStep] = []
    token: list[ReverseStep] = []
    crossed: list[ReverseStep] = []
    others: list[ReverseStep] = []
    moved = took_leather = False
    patch_id = None
    for step in forward:
        match step:
            case TakePatch(name, taken, index, cost, pile):
                patch_id = taken
                circle.append(ReturnPatch(name, taken, *_neighbours(before.circle, index), pile))
                if cost:
                    circle.append(RefundCost(name, taken, cost))
            case MoveNeutralToken():
                circle.append(ReturnNeutralToken(before.circle[0]))
            case MoveToken(name, start, end, _):
                moved = True
                opponent = next(other for other in before.positions if other != name)
                token.append(MoveTokenBack(name, end, start, start == before.positions[opponent]))
            case TakeButtons(name, count, Earning.ADVANCE):
                token.append(ReturnButtons(name, count, Earning.ADVANCE))
            case TakeButtons(name, count, reason, mark):
                crossed.append(ReturnButtons(name, count, reason, mark))
            case TakeLeather(name, position):
                took_leather = True
                crossed.append(ReturnLeather(name, position))
            case DiscardLeather(name, position):
                crossed.append(ReturnLeather(name, position, discarded=True))
            case TakeBonus(name, full_quilt):
                # Taken on the way (a leather patch filling the quilt, the Automa's
                # mark) it is given back as the token goes back; else (a claim, a
                # bought patch filling the quilt: then any leather crossed went in the
                # box, taken by no one) with the rest.
                on_the_way = took_leather if full_quilt else moved
                (crossed if on_the_way else others).append(ReturnBonus(name, full_quilt))
            case AdjustButtons(name, delta, buttons):
                others.append(UndoCorrection(name, delta, buttons - delta))
            case RevealCard():
                pass
    deck: list[ReverseStep] = []
    if isinstance(action, AutomaTurn):
        if action.reshuffle is not None:
            deck.append(UndoReshuffle(before.draw_pile, before.discarded))
        deck.append(ReturnCard(before.draw_pile[0]))
    steps = (*circle, *token, *reversed(crossed), *others, *deck)
    return UndoneAction(action, side, steps, patch_id)


def _neighbours(circle: tuple[str, ...], index: int) -> tuple[str | None, str | None]:
    """The patches on either side of `circle[index]`: the neutral token stands just
    anticlockwise of `circle[0]`, so `circle[-1]` is the neighbour of `circle[0]`."""
    if len(circle) == 1:
        return None, None
    return circle[index - 1], circle[(index + 1) % len(circle)]
