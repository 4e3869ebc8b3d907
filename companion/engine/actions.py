"""Actions a game accepts, and the steps it asks of the people at the table.

Actions are small immutable values, like python-chess's `Move`: the game log
stores them and `Game.push` applies them. Steps are what `push` returns: each
one is a physical thing to do beside the box (take buttons, move a token, …),
in the order it is done.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from companion.engine.automa import AutomaDecision
from companion.engine.setup import Side

# --- actions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Advance:
    """Move in front of the opponent and take a button per square moved."""


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy the patch `index` places clockwise of the neutral token (0, 1 or 2)."""

    index: int


@dataclass(frozen=True, slots=True)
class AutomaTurn:
    """The Automa's whole turn: reveal, decide, move, income, discard, reshuffle.

    `reshuffle` is the new draw pile (top first) when this turn empties it; the
    game fills it in from the seed when it is left out, so the stored action
    always carries the random outcome.
    """

    reshuffle: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class ClaimBonus:
    """A player declares a completed 7×7 square and takes the bonus tile."""

    side: Side


@dataclass(frozen=True, slots=True)
class Adjust:
    """A correction at the table: change a side's buttons by `delta`."""

    side: Side
    delta: int


Action = Advance | Buy | AutomaTurn | ClaimBonus | Adjust

ADVANCE = Advance()
AUTOMA_TURN = AutomaTurn()


# --- steps for the table ---------------------------------------------------------


class Pile(StrEnum):
    """Which of its two piles the Automa puts a patch on: with buttons drawn on it or
    without (RULES.md §4)."""

    WITH_BUTTONS = "with buttons"
    WITHOUT_BUTTONS = "without buttons"


class Earning(StrEnum):
    """Why a side takes buttons: the squares an advance moved, or an income mark crossed."""

    ADVANCE = "advance"
    INCOME = "income"


@dataclass(frozen=True, slots=True)
class RevealCard:
    """The Automa reveals its card; `decision` says what it takes and why."""

    decision: AutomaDecision


@dataclass(frozen=True, slots=True)
class TakePatch:
    """`side` pays `cost` buttons and takes `patch_id`, `index` places from the token.

    For the Automa nothing is paid (virtual buttons) and the patch goes on its
    pile with or without buttons.
    """

    side: Side
    patch_id: str
    index: int
    cost: int
    pile: Pile | None = None
    """For the Automa: the pile it goes on; None for a player."""


@dataclass(frozen=True, slots=True)
class MoveNeutralToken:
    """Move the neutral token to the place of the patch just taken."""

    patch_id: str


@dataclass(frozen=True, slots=True)
class MoveToken:
    """`side`'s time token moves from `start` to `end` on the time track."""

    side: Side
    start: int
    end: int
    on_top: bool
    """True when it lands on the other token's square and goes on top of it."""


@dataclass(frozen=True, slots=True)
class TakeButtons:
    """`side` takes `count` buttons from the bank."""

    side: Side
    count: int
    reason: Earning
    mark: int | None = None
    """The income mark crossed, for income."""


@dataclass(frozen=True, slots=True)
class TakeLeather:
    """`side` takes the leather patch lying at `position` (and places it, if a player)."""

    side: Side
    position: int


@dataclass(frozen=True, slots=True)
class DiscardLeather:
    """`side` crossed the leather patch at `position` with a full quilt (81 squares).

    It cannot be placed, so it is taken off the track and out of the game, not
    given (RULES.md §3, the publisher's ruling).
    """

    side: Side
    position: int


@dataclass(frozen=True, slots=True)
class TakeBonus:
    """`side` takes the 7×7 bonus tile: a claim, the Automa reaching its mark, or
    a full quilt (81 squares always hold a 7×7 square, RULES.md §3)."""

    side: Side
    full_quilt: bool = False


@dataclass(frozen=True, slots=True)
class AdjustButtons:
    """A correction of the count the device keeps: `side`'s buttons change by `delta`
    (negative: fewer) to `buttons`. Nothing moves at the table: the count was wrong."""

    side: Side
    delta: int
    buttons: int
    """The side's buttons after the correction."""


Step = (
    RevealCard
    | TakePatch
    | MoveNeutralToken
    | MoveToken
    | TakeButtons
    | TakeLeather
    | DiscardLeather
    | TakeBonus
    | AdjustButtons
)
