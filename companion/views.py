"""What each screen shows, as plain immutable data.

The application builds one of these for the current screen; the renderer
(`companion.render.screens.render`) turns it into a 128×64 image, and knows
nothing else. Texts here are already worded for the player; numbers are kept
as numbers where the renderer draws them specially (track, patches, cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from typing import Literal

    # For annotations only: the menus' views, the home menu's among them, are built
    # without the engine (see `Companion.game_rooms`).
    from companion.engine.actions import Advance, Buy


class ScreenKind(Enum):
    """Which menu, question or notice a screen is, for those who act on it without reading it.

    The renderer ignores it; the stand-in player (`companion.testing.autoplay`)
    and the harnesses tell screens apart by it, never by their titles.
    """

    OTHER = "other"
    HOME = "home"
    ABANDON_GAME = "abandon game"
    DIFFICULTY = "difficulty"
    DECK = "deck"
    START_PLAYER = "start player"
    CIRCLE = "circle"
    BONUS_QUESTION = "bonus question"
    GAME_OVER = "game over"
    GAME_MENU = "game menu"
    CONFIRM_UNDO = "confirm undo"
    SETTINGS = "settings"
    LANGUAGE = "language"
    NOTICE = "notice"
    """A message the player acknowledges with a press (what went wrong, what was kept)."""


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One line of a menu: its label and, right-aligned, a detail."""

    label: str
    detail: str = ""
    """Shown right-aligned on the same line (a value, a mark position…)."""


@dataclass(frozen=True, slots=True)
class MenuView:
    """A title and a list to turn through; the selected line is highlighted."""

    title: str
    items: tuple[MenuItem, ...]
    selected: int
    note: str = ""
    """One line under the title (a message for the player), if any."""
    kind: ScreenKind = ScreenKind.OTHER


@dataclass(frozen=True, slots=True)
class PatchView:
    """One patch of the catalogue, as the table should show it."""

    patch_id: str
    affordable: bool = True
    """False draws it greyed: it cannot be bought now."""


DEAL_PER_SCREEN = 8
"""Patches a deal screen shows at once: two rows of four, small but countable."""


@dataclass(frozen=True, slots=True)
class DealView:
    """Dealing the circle: lay these patches next, clockwise, in reading order."""

    patches: tuple[PatchView, ...]
    """At most `DEAL_PER_SCREEN`, left to right, then the second row."""
    first: int
    """1-based place of the first of them clockwise after P00."""
    total: int
    title: str = "Lay out the circle"
    hint: str = "go on clockwise"
    """Where to lay them: after P00 on the first screen, then on clockwise."""


@dataclass(frozen=True, slots=True)
class PickPatchView:
    """Entering the circle: which patch lies at place `number` clockwise after P00?

    First the player turns to the cost printed on it (`picking` False), which
    shows the patches left at that cost; then, if there are several, to the
    patch itself (`picking` True). The last choice of each goes back.
    """

    number: int
    total: int
    cost: int | None
    """The cost under the cursor, or chosen; None on the last choice of the costs."""
    patches: tuple[PatchView, ...]
    """The patches not yet placed that cost `cost`."""
    picking: bool
    """True once the cost is chosen: the cursor is on one of `patches`."""
    selected: int
    """0-based place of the cursor among the costs (or `patches`), then the back choice."""
    choices: int
    """How many places the cursor turns through, the back choice included."""
    back_label: str = ""
    """What the back choice does, e.g. "Undo place 6", "Other cost"."""
    title: str = ""
    """E.g. "Circle place 7/32"."""
    hint: str = ""
    """What turning or pressing does now, e.g. "press: place it"."""


@dataclass(frozen=True, slots=True)
class OpenMenu:
    """The turn screen's last choice: the game menu instead of an action."""


TurnChoice: TypeAlias = "Buy | Advance | OpenMenu"
"""What pressing on the turn screen does: one of the game's actions, or the menu."""


@dataclass(frozen=True, slots=True)
class SideView:
    """One side as the board's header and track show it."""

    label: str
    """E.g. "You", "Automa", "Player 1"."""
    buttons: int
    position: int
    holds_bonus: bool = False
    short_label: str = ""
    """A shorter name for a crowded header ("A", "Pl.1"); empty: the label."""


@dataclass(frozen=True, slots=True)
class BoardView:
    """The table as it stands, kept on every in-game screen so its pixels stay put.

    The first side (You, P1) is always on the left of the header and above the
    track, whoever's turn it is; `mover` says whose turn or action is shown.
    """

    sides: tuple[SideView, SideView]
    mover: int
    """0 or 1: the side whose turn it is (or whose action the panel shows)."""
    leather: tuple[int, ...]
    bonus_mark: int | None
    """The Automa's 7×7 mark while the tile is free, else None."""
    offer: tuple[PatchView, ...]
    next_card: str = ""
    """Tactical deck: the Automa's next card's virtual buttons (its back is public),
    worded, e.g. "next 8●"; empty with the normal deck."""
    next_card_short: str = ""
    """The same said short ("→8●"), for a header with no room for the word."""


TurnMark: TypeAlias = "Literal['press', 'refused']"
"""A turn line's mark: what a press on the choice does, or why it cannot be taken."""


@dataclass(frozen=True, slots=True)
class TurnLine:
    """One choice's line on the turn: its mark apart from its words, for the screen to
    draw the mark in a cell of its own (`companion.render.screens_game`)."""

    mark: TurnMark
    text: str
    """e.g. "Buy P24: pay 6●, to 24", "P30: can't afford, 10● > 8●"."""


@dataclass(frozen=True, slots=True)
class TurnView:
    """A player's turn on the board: the offer and what can be done."""

    board: BoardView
    choices: tuple[TurnChoice, ...]
    """The choices in cursor order: every patch on offer, advance, the menu."""
    selected: int
    """The choice under the cursor."""
    lines: tuple[TurnLine, ...]
    """For each choice, what pressing does (or, greyed, why it cannot)."""
    banner: str = ""
    """Shown in place of the scores (or labels) until the first input, e.g. "Your turn
    again"; the choice's line stays under it."""
    scores: tuple[str, str] = ("", "")
    """Each side's score so far, shown under its name while no patch is chosen: the
    mover's with its unit and income, the other's with its unit, e.g.
    ("-110 pts, income 3●", "11 pts")."""
    scores_bare: tuple[str, str] = ("", "")
    """The same with the other's a bare number ("11"), shown when the named ones leave
    no room between them (three-digit scores beside a large income); empty: none."""


@dataclass(frozen=True, slots=True)
class StepView:
    """One thing to do at the table after an action, in the strip under the board."""

    board: BoardView
    lines: tuple[str, ...]
    """The first is the card's headline (drawn lit)."""
    number: int
    total: int
    scores: tuple[str, str] = ("", "")
    """As the turn's, after the action: shown where the strip leaves the row free."""
    aside: str = ""
    """The last line said short ("+1● income" for "Income at 5: take 1●"): where it
    fits at the right of the line before it, it goes there and the last line is left
    out, so the card takes a row fewer (a Korean row is two of the panel's pages)."""
    scores_bare: tuple[str, str] = ("", "")
    """As the turn's."""


@dataclass(frozen=True, slots=True)
class AutomaView:
    """The Automa's whole turn under the board's header: its card and choice, the
    steps, what each of the card's filters did, then (turning the knob) the rest of
    why it chose."""

    board: BoardView
    lines: tuple[str, ...]
    """The headline (the card and what it takes), the steps, the card's filters, the
    rest of why."""
    first_row: int = 0
    """The first line shown: the knob scrolls."""
    actions: int = 0
    """How many of the first lines are what to do at the table (the headline and
    steps): all of them show before the press that confirms them."""
    filters: int = 0
    """How many lines after the steps are the card's filters (drawn indented)."""
    compact_steps: tuple[str, ...] = ()
    """The steps in fewer rows (what is done at the table, without the buttons it gains),
    drawn in their place when the steps apart would leave a filter below the first
    screen."""


@dataclass(frozen=True, slots=True)
class QuestionView:
    """A question with a few answers (the 7×7 reminder, confirming an undo…)."""

    title: str
    lines: tuple[str, ...]
    answers: tuple[str, ...]
    selected: int
    kind: ScreenKind = ScreenKind.OTHER


@dataclass(frozen=True, slots=True)
class NumberView:
    """Choosing a number with the encoder (a correction, a setting)."""

    title: str
    label: str
    value: str
    hint: str


@dataclass(frozen=True, slots=True)
class ScoreColumn:
    """One side's column on the score screen: its rows and its total."""

    label: str
    lines: tuple[tuple[str, int], ...]
    """(what, points) rows of the breakdown."""
    total: int
    short_label: str = ""
    """For a total too wide to leave room for the label; empty: the label."""


@dataclass(frozen=True, slots=True)
class ScoreView:
    """The score at the end of a game: both sides' columns and the verdict."""

    columns: tuple[ScoreColumn, ScoreColumn]
    verdict: str
    """E.g. "You win by 4" or "Tie: Automa reached 53 first"."""
    last_rows: bool = False
    """The knob turned on: a column with more rows than the screen holds shows its last
    rows, not its first (the Automa's four under Korean's taller letters)."""


@dataclass(frozen=True, slots=True)
class VerdictRow:
    """How the game played ends against one level, as the engine judged it."""

    level: str
    scores: tuple[int, int]
    """The player's score and the Automa's against this level."""
    tile: int | None
    """Who holds the 7×7 tile against this level: 0 the player, 1 the Automa, None nobody."""
    won: bool
    """Whether the player wins against this level."""
    margin: int
    """The winner's lead in points."""
    tie: bool
    """Equal scores: the winner is whoever reached 53 first."""
    played: bool
    """The level of the game as played."""


@dataclass(frozen=True, slots=True)
class VerdictsView:
    """A solo game's end against every level: a table, a row a level, under a header
    that names its columns; turned a page at a time where the rows do not all fit
    (Korean's taller letters)."""

    labels: tuple[str, str]
    """The score columns' headings: the player's and the Automa's names."""
    short_labels: tuple[str, str]
    """The same, short ("A"), for a header with no room for the names."""
    rows: tuple[VerdictRow, ...]
    """Every level's row, easiest first: on every page, so the columns keep their places."""
    first: int
    """The first row this page shows."""
    count: int
    """How many rows this page shows."""
    deal: str
    """Under the last row (the last page's): the game's deal code, worded ("Deal G127-TY7K");
    empty on the other pages, and for a circle the player laid out."""
    page: int
    pages: int
    hint: str


@dataclass(frozen=True, slots=True)
class TextView:
    """Pages of text (rules reminder, statistics, a notice), turned with the encoder.

    `lines` are already wrapped to the page (`text_page_lines`)."""

    title: str
    lines: tuple[str, ...]
    page: int
    pages: int
    footer: str = ""
    kind: ScreenKind = ScreenKind.OTHER


@dataclass(frozen=True, slots=True)
class InputTestView:
    """The input test: the inputs as they arrive, to check every button and the knob."""

    events: tuple[str, ...]
    """The most recent inputs, newest last."""
    title: str
    counted: str
    """How many inputs so far, worded ("7 inputs")."""
    waiting: str
    """Shown until the first input ("Press or turn anything")."""
    hint: str


@dataclass(frozen=True, slots=True)
class TestPatternView:
    """check-hardware's first screen: the panel's edges, its top left, and the build."""

    lines: tuple[str, ...]


View = (
    MenuView
    | DealView
    | PickPatchView
    | TurnView
    | StepView
    | AutomaView
    | QuestionView
    | NumberView
    | ScoreView
    | TextView
    | VerdictsView
    | InputTestView
    | TestPatternView
)
