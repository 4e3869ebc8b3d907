"""The screens of a game under way: a player's turn, the steps, the Automa, the end."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import NamedTuple

from companion.app.widgets import BACKWARD, Action, Cursor, Screen
from companion.app.wording import (
    AutomaSummary,
    Card,
    about_side,
    choice_line,
    header_label,
    score_so_far,
    short_header_label,
    side_label,
    turn_again_text,
)
from companion.engine.actions import ADVANCE, Buy
from companion.engine.actions import Action as GameAction
from companion.engine.game import Counted, Game
from companion.engine.setup import Side
from companion.inputs.events import Input
from companion.text.language import Words, msg
from companion.views import (
    AutomaView,
    BoardView,
    OpenMenu,
    PatchView,
    ScoreColumn,
    ScoreView,
    SideView,
    StepView,
    TurnChoice,
    TurnView,
    View,
)


def board_view(
    game: Game,
    mover: Side | None,
    words: Words,
    offer: tuple[PatchView, ...] | None = None,
) -> BoardView:
    """The board as it stands: both sides in set-up order, the track, the offer.

    The offer is greyed as for the player who moves next (in solo, always the
    player), so it looks the same on the screens before their turn as on it.
    A different `offer` can be given: the steps of a player's action keep the
    offer of the turn they were chosen on, so the offer changes once, when the
    steps are done, rather than on every screen.
    """
    names = game.setup.sides
    sides = tuple(
        SideView(
            header_label(name, words),
            game.sides[name].buttons,
            game.sides[name].position,
            holds_bonus=game.bonus_holder == name,
            short_label=short_header_label(name, words),
        )
        for name in names
    )
    virtual = game.next_virtual_buttons
    if offer is None:
        turn = game.turn
        chooser = turn if turn in names and turn != Side.AUTOMA else names[0]
        offer = tuple(patch_view(game, chooser, index) for index in range(len(game.offer)))
    return BoardView(
        sides,  # type: ignore[arg-type]
        names.index(mover) if mover in names else -1,
        game.leather_left,
        game.bonus_mark if game.bonus_holder is None else None,
        offer,
        "" if virtual is None else words("[board] next {virtual}{button}", virtual=virtual),
        "" if virtual is None else words("[board short] {to}{virtual}{button}", virtual=virtual),
    )


def offer_before(game: Game) -> tuple[PatchView, ...]:
    """The offer the last action chose from, greyed as it was for its mover then."""
    mover = game.last_mover
    if mover is None or mover == Side.AUTOMA:
        return tuple(PatchView(patch.id) for patch in game.offer_before_last)
    refusals = game.refusals_before_last(mover)
    return tuple(
        PatchView(patch.id, affordable=refusal is None)
        for patch, refusal in zip(game.offer_before_last, refusals, strict=True)
    )


def patch_view(game: Game, name: Side, index: int) -> PatchView:
    """A patch on offer as `name` sees it: greyed, and why, when it cannot buy it."""
    return PatchView(game.offer[index].id, affordable=game.refusal(name, index) is None)


class Scores(NamedTuple):
    """Each side's score so far in set-up order (`score_so_far`): with their units, and
    with the other side's bare, for a row too narrow for both."""

    named: tuple[str, str]
    bare: tuple[str, str]


def scores_view(game: Game, mover: Side | None, words: Words) -> Scores:
    """Each side's score so far in set-up order, the mover's with its income."""
    sides = game.setup.sides

    def pair(bare: bool) -> tuple[str, str]:
        first, second = (
            score_so_far(game, side, side == mover, words, bare=bare) for side in sides
        )
        return first, second

    return Scores(pair(bare=False), pair(bare=True))


class TurnScreen(Screen):
    """Whose turn on the board; turn the knob to choose, press to do it.

    When the same side plays again (its token is still behind, or on top), the turn
    opens with a banner saying so in place of the scores until the first input,
    over the choice's line; a press plays the choice under the cursor (Advance, as
    on every turn, its line in view), so playing again costs no press more than a
    turn.
    """

    def __init__(
        self,
        game: Game,
        play: Callable[[GameAction], None],
        open_menu: Action,
        words: Words,
        *,
        again: bool = False,
    ) -> None:
        self.game, self.play, self.open_menu, self.words = game, play, open_menu, words
        self.side = game.sides[game.turn]  # type: ignore[index]
        # Every patch on offer can be chosen, the greyed ones too: their line says why
        # they cannot be bought, and pressing on them does nothing.
        buys = [Buy(index) for index in range(len(game.offer))]
        self.choices: list[TurnChoice] = [*buys, ADVANCE, OpenMenu()]
        self.legal = set(game.legal_actions())
        # The cursor starts on Advance, the one choice that is always there: measured
        # over random games, it needs the fewest turns of the knob on average.
        self.cursor = Cursor(len(self.choices), self.choices.index(ADVANCE))
        self.banner = turn_again_text(game, words) if again else ""

    def view(self) -> View:
        game, name, words = self.game, self.side.name, self.words
        scores = scores_view(game, name, words)
        return TurnView(
            board=board_view(game, name, words),
            choices=tuple(self.choices),
            selected=self.cursor.index,
            lines=tuple(choice_line(game, name, choice, words) for choice in self.choices),
            banner=self.banner,
            scores=scores.named,
            scores_bare=scores.bare,
        )

    def handle(self, event: Input) -> None:
        self.banner = ""
        if self.cursor.move(event):
            return
        if event in BACKWARD:
            self.open_menu()
        elif event is Input.SELECT:
            choice = self.choices[self.cursor.index]
            if isinstance(choice, OpenMenu):
                self.open_menu()
            elif choice in self.legal:
                self.play(choice)


class StepsScreen(Screen):
    """The steps for the table after an action, one card at a time, under the board."""

    def __init__(
        self,
        board: BoardView,
        cards: Sequence[Card],
        on_done: Action,
        open_menu: Action,
        scores: Scores,
    ) -> None:
        self.board, self.cards, self.on_done, self.open_menu = (
            board,
            list(cards),
            on_done,
            open_menu,
        )
        self.scores = scores
        self.index = 0

    def view(self) -> View:
        card = self.cards[self.index]
        number, total = self.index + 1, len(self.cards)
        scores = self.scores
        return StepView(
            self.board, card.lines, number, total, scores.named, card.aside, scores.bare
        )

    def handle(self, event: Input) -> None:
        if event in (Input.SELECT, Input.NEXT):
            if self.index + 1 < len(self.cards):
                self.index += 1
            else:
                self.on_done()
        elif event is Input.PREVIOUS:
            self.index = max(0, self.index - 1)
        elif event in BACKWARD:
            self.open_menu()


class AutomaScreen(Screen):
    """The Automa's whole turn under the board's header; one press confirms it. A turn
    of the knob passes what to do at the table and shows why it chose from its card's
    filters on (five lines at most: every screen holds them); the next scroll a line.
    """

    def __init__(
        self, board: BoardView, summary: AutomaSummary, on_done: Action, open_menu: Action
    ) -> None:
        self.board, self.summary, self.on_done, self.open_menu = board, summary, on_done, open_menu
        self.first_row = 0

    @property
    def actions(self) -> int:
        """The headline and the steps: what to do at the table."""
        return 1 + len(self.summary.steps)

    def view(self) -> View:
        summary = self.summary
        filters = len(summary.filters)
        return AutomaView(
            self.board,
            summary.lines,
            self.first_row,
            self.actions,
            filters,
            summary.compact_steps,
        )

    def handle(self, event: Input) -> None:
        if event is Input.SELECT:
            self.on_done()
        elif event is Input.NEXT:
            last = len(self.summary.lines) - 1
            self.first_row = min(max(self.first_row + 1, self.actions), last)
        elif event is Input.PREVIOUS:
            self.first_row = 0 if self.first_row <= self.actions else self.first_row - 1
        elif event in BACKWARD:
            self.open_menu()


SCORE_LABELS: dict[Counted, str] = {
    Counted.BUTTONS: msg("buttons"),
    Counted.EMPTY_SQUARES: msg("empty x2"),
    Counted.PATCHES_WITH_BUTTONS: msg("{button} patches"),
    Counted.BUTTONS_ON_PATCHES: msg("{button} shown"),
    Counted.BONUS_TILE: msg("bonus tile"),
}
"""The engine's score lines (`ScoreLine.label`) as the breakdown's rows name them."""


def score_view(game: Game, words: Words) -> ScoreView:
    outcome = game.outcome()
    assert outcome is not None
    columns = tuple(
        ScoreColumn(
            side_label(name, words),
            tuple(
                (words(SCORE_LABELS[line.label]), line.points)
                for line in game.score_lines(name)
                # The tile's row only under the side that holds it: a "0" row says
                # nothing, and the Automa's four rows need its room in Korean.
                if line.label is not Counted.BONUS_TILE or line.points
            ),
            outcome.scores[name],
            short_header_label(name, words),
        )
        for name in game.sides
    )
    winner = outcome.winner
    if outcome.tie:
        verdict = about_side(
            words,
            winner,
            msg("Tie: you reached 53 first"),
            msg("Tie: Automa reached 53 first"),
            msg("Tie: {side} reached 53 first"),
        )
    else:
        verdict = about_side(
            words,
            winner,
            msg("You win by {margin}"),
            msg("Automa wins by {margin}"),
            msg("{side} wins by {margin}"),
            margin=outcome.margin,
        )
    return ScoreView(columns, verdict)  # type: ignore[arg-type]


class EndScreen(Screen):
    """Each side's score broken down and the winner; turn for the rows a column has
    beyond the screen's room, press to finish."""

    def __init__(self, game: Game, on_done: Action, open_menu: Action, words: Words) -> None:
        self.game, self.on_done, self.open_menu, self.words = game, on_done, open_menu, words
        self.last_rows = False

    def view(self) -> View:
        return dataclasses.replace(score_view(self.game, self.words), last_rows=self.last_rows)

    def handle(self, event: Input) -> None:
        if event is Input.SELECT:
            self.on_done()
        elif event in (Input.NEXT, Input.PREVIOUS):
            self.last_rows = event is Input.NEXT
        elif event in BACKWARD:
            self.open_menu()
