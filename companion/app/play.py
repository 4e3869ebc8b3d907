"""The screens of a game under way: a player's turn, the steps, the Automa, the end."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion.app.widgets import BACKWARD, Action, Cursor, Screen
from companion.app.wording import AutomaSummary, Card, refusal_text, side_label
from companion.engine.actions import ADVANCE, Buy
from companion.engine.actions import Action as GameAction
from companion.engine.game import Game
from companion.inputs.events import Input
from companion.text.font import BUTTON
from companion.views import (
    AutomaCardView,
    AutomaView,
    OpenMenu,
    PatchView,
    ScoreColumn,
    ScoreView,
    StepView,
    TokenView,
    TurnChoice,
    TurnView,
    View,
)


class TurnScreen(Screen):
    """Whose turn, the track, both sides and the offer; turn to choose, press to do it."""

    def __init__(
        self,
        game: Game,
        play: Callable[[GameAction], None],
        open_menu: Action,
    ) -> None:
        self.game, self.play, self.open_menu = game, play, open_menu
        side = game.sides[game.turn]  # type: ignore[index]
        legal = set(game.legal_actions())
        buys = [action for action in (Buy(i) for i in range(len(game.offer))) if action in legal]
        self.choices: list[TurnChoice] = [*buys, ADVANCE, OpenMenu()]
        # The cursor starts on Advance, the one choice that is always there: measured
        # over random games, it needs the fewest turns of the knob on average.
        self.cursor = Cursor(len(self.choices), self.choices.index(ADVANCE))
        self.side = side

    def view(self) -> View:
        game, side = self.game, self.side
        opponent = game.opponent(side.name)
        advance_to = game.advance_target(side.name)
        next_mark = game.next_income_mark(side.position)
        return TurnView(
            side_label=side_label(side.name),
            buttons=side.buttons,
            income=side.income,
            to_next_income=None if next_mark is None else next_mark - side.position,
            tokens=(
                TokenView(side_label(side.name), side.position),
                TokenView(side_label(opponent.name), opponent.position),
            ),
            leather=game.leather_left,
            bonus_mark=game.bonus_mark if game.bonus_holder is None else None,
            offer=tuple(self._patch_view(i) for i in range(len(game.offer))),
            choices=tuple(self.choices),
            selected=self.cursor.index,
            advance_to=advance_to,
            advance_buttons=advance_to - side.position,
            opponent_label=side_label(opponent.name),
            opponent_buttons=opponent.buttons,
            next_virtual_buttons=game.next_virtual_buttons,
        )

    def _patch_view(self, index: int) -> PatchView:
        game, name = self.game, self.side.name
        patch = game.offer[index]
        refusal = game.refusal(name, index)
        return PatchView(
            patch.id,
            affordable=refusal is None,
            why_not=refusal_text(refusal, patch, self.side) if refusal else "",
            destination=game.buy_destination(name, index),
        )

    def handle(self, event: Input) -> None:
        if self.cursor.move(event):
            return
        if event in BACKWARD:
            self.open_menu()
        elif event is Input.SELECT:
            choice = self.choices[self.cursor.index]
            if isinstance(choice, OpenMenu):
                self.open_menu()
            else:
                self.play(choice)


class StepsScreen(Screen):
    """The steps for the table after an action, one card at a time."""

    def __init__(self, cards: Sequence[Card], on_done: Action, open_menu: Action) -> None:
        self.cards, self.on_done, self.open_menu = list(cards), on_done, open_menu
        self.index = 0

    def view(self) -> View:
        card = self.cards[self.index]
        return StepView(card.title, card.lines, self.index + 1, len(self.cards), card.patch_id)

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
    """The Automa's whole turn on one screen; one press confirms it."""

    def __init__(self, summary: AutomaSummary, on_done: Action, open_menu: Action) -> None:
        self.summary, self.on_done, self.open_menu = summary, on_done, open_menu

    def view(self) -> View:
        summary = self.summary
        card = summary.decision.card
        return AutomaView(
            AutomaCardView(
                card.number, card.virtual_buttons, tuple(f.value for f in card.filters), card.income
            ),
            summary.headline,
            summary.reason,
            summary.steps,
            summary.patch_id,
        )

    def handle(self, event: Input) -> None:
        if event is Input.SELECT:
            self.on_done()
        elif event in BACKWARD:
            self.open_menu()


def score_view(game: Game) -> ScoreView:
    outcome = game.outcome()
    assert outcome is not None
    columns = tuple(
        ScoreColumn(
            side_label(name),
            tuple((_score_label(line.label), line.points) for line in game.score_lines(name)),
            outcome.scores[name],
        )
        for name in game.sides
    )
    winner = side_label(outcome.winner)
    if outcome.tie:
        verdict = f"Tie: {winner} reached 53 first"
    else:
        margin = abs(outcome.scores[game.setup.sides[0]] - outcome.scores[game.setup.sides[1]])
        verdict = f"{winner} win{'' if winner == 'You' else 's'} by {margin}"
    return ScoreView(columns, verdict)  # type: ignore[arg-type]


def _score_label(label: str) -> str:
    return {
        "empty squares": "empty x-2",
        "patches with buttons": f"{BUTTON} patches",
        "buttons on patches": f"{BUTTON} shown",
        "bonus tile": "bonus tile",
    }.get(label, label)


class EndScreen(Screen):
    """Each side's score broken down and the winner; press to finish."""

    def __init__(self, game: Game, on_done: Action, open_menu: Action) -> None:
        self.game, self.on_done, self.open_menu = game, on_done, open_menu

    def view(self) -> View:
        return score_view(self.game)

    def handle(self, event: Input) -> None:
        if event is Input.SELECT:
            self.on_done()
        elif event in BACKWARD:
            self.open_menu()
