"""The engine's steps for the table, worded for the screen.

A player's action becomes a few cards, one physical moment each (take the
patch and move the tokens; take income; take a leather patch…), shown one at
a time. The Automa's turn becomes one summary: its choice, why, and the steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine.actions import (
    AdjustButtons,
    Advance,
    Buy,
    DiscardLeather,
    MoveToken,
    RevealCard,
    Step,
    TakeBonus,
    TakeButtons,
    TakeLeather,
    TakePatch,
)
from companion.engine.automa import AutomaDecision
from companion.engine.catalogue import BONUS_POINTS
from companion.engine.game import BonusOccasion, BonusQuestion, Game, Refusal, Shortage
from companion.engine.setup import Side
from companion.text.font import ARROW_RIGHT, ARROW_TO, BUTTON, CHECK, CROSS
from companion.views import TurnChoice

ORDINALS = ("1st", "2nd", "3rd")


SIDE_LABELS: dict[str, str] = {Side.PLAYER: "You", Side.AUTOMA: "Automa"}
POSSESSIVES: dict[str, str] = {Side.PLAYER: "Your", Side.AUTOMA: "Automa's"}


def side_label(name: str) -> str:
    """How a side is named on screen: "You", "Automa", "P1", "P2"."""
    return SIDE_LABELS.get(name, name.upper())


def possessive(name: str) -> str:
    return POSSESSIVES.get(name, f"{name.upper()}'s")


def turn_again_text(game: Game) -> str:
    """Said when the side that just played plays again."""
    name = game.turn
    assert name is not None
    on_top = game.sides[name].position == game.opponent(name).position
    return f"{possessive(name)} turn again" + (" (on top)" if on_top else "")


def bonus_question_lines(question: BonusQuestion) -> tuple[str, ...]:
    """The question whether a side has completed a 7×7 square, for the moment it is asked."""
    if question.occasion is BonusOccasion.AUTOMA_MARK:
        return ("The Automa takes the", "7x7 tile now. Do you", "have a full 7x7 square?")
    who = "You have" if question.side == Side.PLAYER else f"{side_label(question.side)} has"
    return (f"{who} {question.squares} squares.", "A full 7x7 square?")


def choice_line(game: Game, name: str, choice: TurnChoice) -> str:
    """What pressing on a choice of the turn does, with its numbers; why not, greyed."""
    if isinstance(choice, Buy):
        patch = game.offer[choice.index]
        refusal = game.refusal(name, choice.index)
        if refusal is not None:
            return f"{CROSS} {refusal_text(refusal, patch.id)}"
        destination = game.buy_destination(name, choice.index)
        return buy_line(ARROW_RIGHT, patch.id, patch.cost, destination)
    if isinstance(choice, Advance):
        target = game.advance_target(name)
        return advance_line(ARROW_RIGHT, target, target - game.sides[name].position)
    return f"{ARROW_RIGHT} Menu"


def refusal_text(refusal: Refusal, patch_id: str) -> str:
    """Why a greyed patch cannot be bought, with the numbers to check it."""
    needed, available = refusal.needed, refusal.available
    if refusal.shortage is Shortage.BUTTONS:
        return f"{patch_id}: can't afford, {needed}{BUTTON} > {available}{BUTTON}"
    return f"{patch_id}: doesn't fit, {needed} > {available} free"


def correction_lines(side: str, delta: int, buttons: int) -> tuple[str, ...]:
    """A button count corrected on the device: nothing to do at the table.

    >>> correction_lines("player", 3, 10)
    ('Corrected: +3 buttons', 'Your buttons: 7 → 10')
    """
    noun = "button" if abs(delta) == 1 else "buttons"
    count = f"{possessive(side)} buttons: {buttons - delta} {ARROW_TO} {buttons}"
    return (f"Corrected: {delta:+d} {noun}", count)


@dataclass(frozen=True, slots=True)
class Card:
    """One thing to do at the table, a few lines in the strip under the board."""

    lines: tuple[str, ...]


def buy_line(mark: str, patch_id: str, cost: int, destination: int) -> str:
    """A buy, on the turn (`mark` ▸: what a press does) and on its card (✓: done).

    Both say it in the same words at the same place, so the line keeps its pixels.
    """
    return f"{mark} Buy {patch_id}: pay {cost}{BUTTON}, to {destination}"


def advance_line(mark: str, target: int, buttons: int) -> str:
    return f"{mark} Advance to {target}, +{buttons}{BUTTON}"


def player_cards(steps: tuple[Step, ...]) -> tuple[Card, ...]:
    """Group a player's action's steps into cards, in the order they are done.

    The move comes first: what else to do (the neutral token, the buttons, any
    income) above the line the turn showed for the chosen action, ticked. Then
    each leather patch and the bonus tile on a card of its own.
    """
    move: list[str] = []
    others: list[Card] = []
    income = [step for step in steps if isinstance(step, TakeButtons) and step.reason == "income"]
    advance = next(
        (step for step in steps if isinstance(step, TakeButtons) and step.reason == "advance"), None
    )
    taken: TakePatch | None = None
    for step in steps:
        match step:
            case TakePatch():
                taken = step
            case MoveToken(side, start, end, on_top):
                on = ", on top" if on_top else ""
                if taken is not None:
                    move += [
                        "Neutral token to its place"
                        if not on_top
                        else "Neutral token there, on top"
                    ]
                    move.append(buy_line(CHECK, taken.patch_id, taken.cost, end))
                elif advance is not None:
                    move += [f"{possessive(side)} token {start} {ARROW_TO} {end}{on}"]
                    move.append(advance_line(CHECK, end, advance.count))
            case TakeLeather(side, position):
                others.append(Card((f"Leather patch at {position}", "Take it and place it")))
            case DiscardLeather(side, position):
                full = f"{possessive(side)} quilt is full:"
                others.append(Card((f"Leather patch at {position}", full, "put it in the box")))
            case TakeBonus(side, full_quilt):
                first = f"{side_label(side)}: take the 7x7 tile"
                why = (
                    "Full quilt: it has a 7x7"
                    if full_quilt
                    else f"It is worth {BONUS_POINTS} points"
                )
                others.append(Card((first, why)))
            case AdjustButtons(side, delta, buttons):
                others.append(Card(correction_lines(side, delta, buttons)))
    if income:
        # Income is taken as the token crosses its marks: on the move's card, so a
        # turn needs one press fewer.
        total = sum(step.count for step in income)
        marks = " and ".join(str(step.mark) for step in income)
        move.insert(0, f"Income at {marks}: take {total}{BUTTON}")
    return ((Card(tuple(move)),) if move else ()) + tuple(others)


@dataclass(frozen=True, slots=True)
class AutomaSummary:
    decision: AutomaDecision
    headline: str
    reason: str
    steps: tuple[str, ...]
    patch_id: str | None

    @property
    def lines(self) -> tuple[str, ...]:
        """For the strip: the headline and steps, then its card and why it chose."""
        card = self.decision.card
        what = f"Card {card.number}: {card.virtual_buttons}{BUTTON}, income {card.income}{BUTTON}"
        return (
            f"Automa {self.headline[0].lower()}{self.headline[1:]}",
            *self.steps,
            what,
            self.reason,
        )


def automa_summary(steps: tuple[Step, ...]) -> AutomaSummary:
    """The Automa's turn in words: what it takes, why, and what to do on the table."""
    reveal = steps[0]
    assert isinstance(reveal, RevealCard)
    decision = reveal.decision
    lines: list[str] = []
    extras: list[str] = []
    patch_id = None
    income = 0
    for step in steps[1:]:
        match step:
            case TakePatch(_, taken, _, _, pile):
                patch_id = taken
                # The neutral token goes where the patch lay: one line for both.
                lines.append(f"Pile {pile.replace('buttons', BUTTON)}; neutral there")  # type: ignore[union-attr]
            case MoveToken(_, start, end, on_top):
                lines.append(f"Token {start} {ARROW_TO} {end}" + (" on top" if on_top else ""))
            case TakeButtons(_, count):
                income += count
            case TakeLeather(_, position):
                extras.append(f"Leather {position} to its pile")
            case TakeBonus():
                extras.append("It takes the 7x7 tile")
    move = next(i for i, line in enumerate(lines) if line.startswith("Token"))
    if patch_id is None:
        headline = "Passes"
        lines[move] += f", no {BUTTON}"
    else:
        headline = f"Takes {patch_id} ({ORDINALS[decision.chosen]})"  # type: ignore[index]
    if income:
        # The income is paid as the token crosses its marks: say it on the same line.
        lines[move] += f", +{income}{BUTTON} income"
    lines += extras
    return AutomaSummary(decision, headline, automa_reason(decision), tuple(lines), patch_id)


def automa_reason(decision: AutomaDecision) -> str:
    """Why the Automa did what it did, e.g. "3 affordable; most buttons: 2 left;
    farthest: 1 left": every filter of the card that decided, in order, so the
    player can check the choice against the card.
    """
    count = len(decision.affordable)
    if count == 0:
        return f"Nothing costs {decision.card.virtual_buttons}{BUTTON} or less"
    parts = [f"{count} affordable"]
    parts += [
        f"{step.filter}: skipped" if step.skipped else f"{step.filter}: {len(step.kept)} left"
        for step in decision.explanation
    ]
    return "; ".join(parts)
